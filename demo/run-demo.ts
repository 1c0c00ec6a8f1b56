// The demo: starts the sample app on 127.0.0.1, spawns the built server over stdio with the SDK
// Client, and runs a scripted agent flow, printing each call's time and response size.
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { startSampleApp } from "./sample-app.js"

const here = path.dirname(fileURLToPath(import.meta.url))
const serverEntry = path.resolve(here, "../bin/browser-workflow-mcp.js")
const artifactsDir = path.resolve(here, "../../test-artifacts/demo")

const out = (line: string) => process.stdout.write(line + "\n")

interface Envelope {
  readonly ok: boolean
  readonly result?: any
  readonly error?: { readonly code: string; readonly message: string }
  readonly page?: { readonly url: string; readonly title: string }
  /** The page as text: the text block after the JSON. */
  readonly snapshot?: string
}

const main = async () => {
  const app = await startSampleApp()
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [serverEntry, "--app-url", app.url, "--artifacts-dir", artifactsDir, "--loopback-only"],
    stderr: "pipe"
  })
  const client = new Client({ name: "demo-agent", version: "1.0.0" })
  const started = performance.now()
  await client.connect(transport)
  const { tools } = await client.listTools()
  out(`browser-workflow-mcp demo: sample app at ${app.url}`)
  out(`server started and listed ${tools.length} tools in ${Math.round(performance.now() - started)} ms\n`)
  out(`${"#".padEnd(3)}${"tool".padEnd(24)}${"ms".padStart(7)}${"bytes".padStart(8)}  result`)

  let step = 0
  let failures = 0
  const call = async (name: string, args: Record<string, unknown>, summarize: (envelope: Envelope) => string) => {
    step++
    const t0 = performance.now()
    const response = await client.callTool({ name, arguments: args })
    const ms = performance.now() - t0
    // The envelope as JSON, then (after actions) the page as text: what changed.
    const texts = (response.content as Array<{ type: string; text?: string }>).flatMap((block) => (block.type === "text" ? [block.text ?? ""] : []))
    const text = texts.join("\n")
    // The JSON envelope, then the page as text in the next block (the envelope's snapshot).
    const envelope = { ...(JSON.parse(texts[0] ?? "{}") as Envelope), ...(texts[1] !== undefined ? { snapshot: texts[1] } : {}) }
    const summary = envelope.ok ? summarize(envelope) : `ERROR ${envelope.error?.code}: ${envelope.error?.message}`
    if (!envelope.ok) failures++
    out(`${String(step).padEnd(3)}${name.padEnd(24)}${ms.toFixed(0).padStart(7)}${String(text.length).padStart(8)}  ${summary}`)
    return envelope
  }

  try {
    const launched = await call("mm_launch", { goal: "sign in to the sample app", flowTags: ["login"] }, (e) => `session ${e.result.sessionId} on ${e.result.state.url}`)
    const screen = await call("mm_describe_screen", {}, (e) =>
      `${e.result.testIds?.items.length ?? 0} test ids, a snapshot of ${(e.snapshot ?? "").split("\n").length} lines (${(e.snapshot ?? "")
        .split("\n")
        .slice(0, 3)
        .map((line: string) => line.trim())
        .join("; ")}; ...)`
    )
    // The snapshot is text: `textbox "Username" [e5]` carries the ref to act on.
    const usernameRef = /textbox "Username" \[(e\d+)\]/.exec(screen.snapshot ?? "")?.[1]
    await call("mm_type", usernameRef ? { a11yRef: usernameRef, text: "alice" } : { testId: "username", text: "alice" }, (e) =>
      `typed into ${usernameRef ?? "testId:username"}${e.result === undefined ? "" : `: ${JSON.stringify(e.result)}`}`
    )
    await call("mm_type", { testId: "password", text: "correct horse" }, (e) =>
      `typed into testId:password (sensitive: ${e.result?.sensitive === true}, never stored)`
    )
    // The answer names the page only when it changed (url, title); the sign-in renders its dashboard in place.
    await call("mm_click", { testId: "login-submit" }, (e) =>
      e.page === undefined ? "clicked; same page (the answer names the page only when it changes)" : `clicked; page now ${JSON.stringify(e.page.title ?? e.page.url)}`
    )
    // A result that only confirms what it was asked ({found: true}) is left out: the answer is {"ok":true}.
    await call("mm_wait_for", { testId: "welcome" }, (e) => `welcome found${e.result === undefined ? "" : `: ${JSON.stringify(e.result)}`}`)
    await call("mm_get_text", { testId: "welcome" }, (e) => `"${e.result.text}"`)
    await call("mm_screenshot", { name: "demo-dashboard" }, (e) => `${e.result.width}x${e.result.height} at ${e.result.path}`)
    await call("mm_cleanup", {}, (e) => `cleaned up${e.result === undefined ? "" : `: ${JSON.stringify(e.result)}`}`)
    // The same flow again in one call, in a fresh browser; the password was never stored, so it is a param.
    // keepSession: the replay's session stays open as the current one (else it closes once replayed).
    await call("mm_replay", { sessionId: launched.result?.sessionId, params: { password: "correct horse" }, keepSession: true }, (e) =>
      `${e.result.summary.succeeded} of ${e.result.summary.total} steps ok, replaying ${e.result.replayed}${e.result.leftOut ? `; left out: ${e.result.leftOut.join("; ")}` : ""}`
    )
    await call("mm_get_text", { testId: "welcome" }, (e) => `"${e.result.text}"`)
    await call("mm_cleanup", {}, (e) => `cleaned up${e.result === undefined ? "" : `: ${JSON.stringify(e.result)}`}`)
  } finally {
    await client.close()
    await app.close()
  }
  out(`\nstep memory: ${artifactsDir}/llm-knowledge (password recorded as [REDACTED])`)
  out(failures === 0 ? "demo finished: every call succeeded" : `demo finished with ${failures} failed call(s)`)
  process.exitCode = failures === 0 ? 0 : 1
}

main().catch((error) => {
  process.stderr.write(`demo failed: ${error instanceof Error ? error.stack : String(error)}\n`)
  process.exit(1)
})
