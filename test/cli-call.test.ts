// `browser-workflow-mcp call <tool> '<json>' --server URL`: one tool call against a running HTTP server,
// the envelope on stdout, and exit codes 0 (ok), 1 (error envelope), 2 (usage), 3 (unreachable), 4 (token refused).
import { execFile } from "node:child_process"
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { loginPage, servePages, type RunningServer } from "../demo/sample-app.js"
import { binEntry, browserPids, startHttpServer, waitUntil, type RunningHttpServer } from "./support/http-server.js"

const TOKEN = "call-token-5678"

interface Outcome {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

const call = (args: ReadonlyArray<string>, env: Record<string, string> = {}, input?: string) =>
  new Promise<Outcome>((resolve) => {
    const child = execFile(process.execPath, [binEntry, "call", ...args], { env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, stdout, stderr })
    )
    if (input !== undefined) child.stdin!.end(input)
  })

describe("call", () => {
  let app: RunningServer
  let server: RunningHttpServer
  const marker = randomUUID()

  beforeAll(async () => {
    app = await servePages({ "/": loginPage })
    server = await startHttpServer(["--app-url", `${app.url}/`, "--auth-token", TOKEN, "--shared-browser"], marker)
  })
  afterAll(async () => {
    await server?.stop()
    await app?.close()
  })

  it("prints the envelope of an ok call and exits 0", async () => {
    const outcome = await call(["mm_knowledge_sessions", "{}", "--server", server.url, "--auth-token", TOKEN])
    expect(outcome.code).toBe(0)
    const envelope = JSON.parse(outcome.stdout)
    expect(envelope.ok).toBe(true)
    expect(envelope.result).toHaveProperty("sessions")
    expect(outcome.stdout.trim().split("\n")).toHaveLength(1)
  })

  it("drives a flow from a script against a --shared-browser server, with the server and token from the environment", async () => {
    const env = { BWM_SERVER: server.url, BWM_AUTH_TOKEN: TOKEN }
    expect((await call(["mm_launch"], env)).code).toBe(0)
    expect(browserPids(marker).length).toBeGreaterThan(0)
    const typed = await call(["mm_type", '{"testId":"username","text":"carol"}', "--observation", "none"], env)
    expect(typed.code).toBe(0)
    // "none": where the page is, and no page text after the JSON line.
    expect(typed.stdout.trim().split("\n")).toHaveLength(1)
    expect(JSON.parse(typed.stdout).page.url).toBe(`${app.url}/`)
    // By default the page follows the JSON line as text (each call is a new client: the whole page).
    const clicked = await call(["mm_click", '{"testId":"login-submit"}'], env)
    const [json, ...page] = clicked.stdout.trim().split("\n")
    expect(JSON.parse(json!).ok).toBe(true)
    expect(page.join("\n")).toMatch(/\[e\d+\]/)
    const text = await call(["mm_get_text", "-"], env, '{"testId":"username"}')
    expect(JSON.parse(text.stdout).result.text).toBe("carol")
    expect((await call(["mm_cleanup", "{}"], env)).code).toBe(0)
    expect(await waitUntil(() => browserPids(marker).length === 0, 15_000)).toBe(true)
  })

  it("prints an error envelope and exits 1", async () => {
    const outcome = await call(["mm_knowledge_last", '{"n":"many"}', "--server", server.url, "--auth-token", TOKEN])
    expect(outcome.code).toBe(1)
    expect(JSON.parse(outcome.stdout).error.code).toBe("MM_INVALID_INPUT")
    const unknown = await call(["mm_fly", "--server", server.url, "--auth-token", TOKEN])
    expect(unknown.code).toBe(1)
    expect(JSON.parse(unknown.stdout).error.code).toBe("MM_UNKNOWN_TOOL")
    // A batch whose step failed is an error (with every step's result beside it): a script reads it as a failure.
    const batch = await call(["mm_run_steps", '{"steps":[{"tool":"get_state"}]}', "--server", server.url, "--auth-token", TOKEN])
    const answer = JSON.parse(batch.stdout.split("\n")[0]!)
    expect(answer.ok).toBe(false)
    expect(answer.error.code).toBe("MM_BATCH_FAILED")
    expect(answer.result.steps[0].error.code).toBe("MM_NO_ACTIVE_SESSION")
    expect(batch.code).toBe(1)
  })

  it("exits 2 on usage errors, with one line on stderr and nothing on stdout", async () => {
    for (const args of [
      ["mm_launch"],
      ["mm_launch", "{not json", "--server", server.url],
      ["mm_launch", "[1]", "--server", server.url],
      ["mm_launch", "--server", "not a url"],
      ["mm_launch", "--nope", "--server", server.url],
      ["mm_launch", "{}", "extra", "--server", server.url]
    ]) {
      const outcome = await call(args)
      expect(outcome.code, args.join(" ")).toBe(2)
      expect(outcome.stdout).toBe("")
      expect(outcome.stderr.trim().split("\n"), outcome.stderr).toHaveLength(1)
    }
  })

  it("exits 4 when the server refuses the token (none, or a wrong one), 3 when it cannot be reached", async () => {
    const refused = await call(["mm_knowledge_sessions", "--server", server.url])
    expect(refused.code).toBe(4)
    expect(refused.stderr).toContain("cannot call mm_knowledge_sessions")
    expect(refused.stderr).toContain("auth token is missing or wrong")
    const wrong = await call(["mm_knowledge_sessions", "--server", server.url, "--auth-token", "not-the-token"])
    expect(wrong.code).toBe(4)
    const closed = await call(["mm_knowledge_sessions", "--server", "http://127.0.0.1:9/mcp"])
    expect(closed.code).toBe(3)
    expect(closed.stderr).not.toContain("auth token")
  })

  it("call --help explains the exit codes", async () => {
    const outcome = await call(["--help"])
    expect(outcome.code).toBe(0)
    expect(outcome.stdout).toContain("Exit code: 0 when the envelope is ok")
    expect(outcome.stdout).toMatch(/4 when it refuses the auth token/)
  })
})
