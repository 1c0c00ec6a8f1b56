// Fail fast with the true reason (issue 19): for each cause an action can meet, what our server answers
// (code, the reason's first words) and how long the call took, with a timeoutMs of 10 s so that a call
// that waits it out shows. Causes that cannot succeed should answer within about a second; a target that
// matches nothing keeps its rule (missing once the page showed none for 1 s); an element that appears after
// 500 ms (or 400 ms into the click, after a second of a quiet DOM) and one that moves, then settles, must succeed. Rounds are interleaved across
// causes; the table shows the median and the slowest round. Pages on 127.0.0.1, the built server over stdio.
//   npm run bench:fail-fast (node dist/bench/fail-fast.js --rounds 3 after a build); `--server <path>` runs
//   another build's server (another checkout's dist/bin/browser-workflow-mcp.js) on the same causes.
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { servePages } from "../demo/sample-app.js"
import { connect, median, ourServer, out } from "./support.js"

const page = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><p id="out">none</p>${body}</body></html>`
const mark = (what: string) => `document.getElementById('out').textContent = '${what}'`

const pages: Record<string, string> = {
  "/plain": page("Plain", `<button id="t" onclick="${mark("clicked")}">Save</button>`),
  "/three": page("Three", Array.from({ length: 3 }, () => `<button class="t" onclick="${mark("clicked")}">Save</button>`).join("")),
  "/readonly": page("Read-only", `<label>Date <input id="t" readonly value="2025-03-14"></label>`),
  "/disabled": page("Disabled", `<button id="t" disabled onclick="${mark("clicked")}">Save</button>`),
  "/disabled-checkbox": page("Disabled checkbox", `<label><input id="t" type="checkbox" disabled> Agree</label>`),
  "/display-none": page("display none", `<button id="t" style="display:none" onclick="${mark("clicked")}">Save</button>`),
  "/visibility-hidden": page("visibility hidden", `<button id="t" style="visibility:hidden" onclick="${mark("clicked")}">Save</button>`),
  "/zero-size": page("zero size", `<button id="t" style="width:0;height:0;padding:0;border:0;overflow:hidden" onclick="${mark("clicked")}">Save</button>`),
  "/off-screen": page("off screen", `<button id="t" style="position:absolute;left:-9999px;top:10px" onclick="${mark("clicked")}">Save</button>`),
  "/clipped": page(
    "clipped",
    `<div style="position:relative;width:200px;height:40px;overflow:clip"><button id="t" style="position:absolute;top:120px" onclick="${mark("clicked")}">Save</button></div>`
  ),
  "/covered": page(
    "covered",
    `<button id="t" onclick="${mark("clicked")}">Save</button><div id="veil" class="cookie-banner" style="position:fixed;inset:0;background:rgba(0,0,0,.3)">Accept cookies?</div>`
  ),
  "/detached": page("detached", `<button id="t" onclick="${mark("clicked")}">Gone soon</button>`),
  "/appears": page("appears", `<div id="slot"></div>`),
  "/moving": page(
    "moving",
    `<style>@keyframes slide { from { transform: translateX(0) } to { transform: translateX(300px) } } .go { animation: slide 800ms ease-out forwards }</style>
     <button id="t" onclick="${mark("clicked")}">Catch me</button>`
  )
}

interface Cause {
  readonly name: string
  readonly path: string
  /** What the agent does first (takes a ref, starts a timer), untimed; answers the arguments' target when it changes them. */
  readonly before?: (client: Client) => Promise<Record<string, unknown> | void>
  readonly tool: string
  readonly args: Record<string, unknown>
  /** The answer that is right: a code (and words its message must hold), or "ok" with the page's mark. */
  readonly expect: { readonly code: string; readonly says?: RegExp }
}

const TIMEOUT_MS = 10_000
const target = { selector: "#t", timeoutMs: TIMEOUT_MS }

const evaluate = (client: Client, expression: string) => client.callTool({ name: "mm_evaluate", arguments: { expression } })

const causes: ReadonlyArray<Cause> = [
  // The control: what a call that succeeds at once costs on this machine now.
  { name: "control: plain button (click)", path: "/plain", tool: "mm_click", args: target, expect: { code: "ok" } },
  { name: "3 matches (click)", path: "/three", tool: "mm_click", args: { selector: "button.t", timeoutMs: TIMEOUT_MS }, expect: { code: "MM_TARGET_AMBIGUOUS", says: /e\d+ button "Save", e\d+ button "Save", e\d+ button "Save"/ } },
  { name: "read-only field (type)", path: "/readonly", tool: "mm_type", args: { ...target, text: "2025-04-01" }, expect: { code: "MM_TARGET_NOT_EDITABLE", says: /read-only/ } },
  { name: "disabled button (click)", path: "/disabled", tool: "mm_click", args: target, expect: { code: "MM_TARGET_DISABLED", says: /disabled/ } },
  { name: "disabled checkbox (set_checked)", path: "/disabled-checkbox", tool: "mm_set_checked", args: { ...target, checked: true }, expect: { code: "MM_TARGET_DISABLED", says: /disabled/ } },
  { name: "display:none (click)", path: "/display-none", tool: "mm_click", args: target, expect: { code: "MM_TARGET_NOT_FOUND", says: /display: ?none|not visible|hidden/ } },
  { name: "visibility:hidden (click)", path: "/visibility-hidden", tool: "mm_click", args: target, expect: { code: "MM_TARGET_NOT_FOUND", says: /visibility|not visible|hidden/ } },
  { name: "zero size (click)", path: "/zero-size", tool: "mm_click", args: target, expect: { code: "MM_TARGET_NOT_FOUND", says: /size|not visible/ } },
  { name: "off-screen (click)", path: "/off-screen", tool: "mm_click", args: target, expect: { code: "MM_CLICK_TIMEOUT", says: /off-screen|outside/ } },
  { name: "clipped by container (click)", path: "/clipped", tool: "mm_click", args: target, expect: { code: "MM_CLICK_TIMEOUT", says: /clip/ } },
  { name: "covered (click)", path: "/covered", tool: "mm_click", args: target, expect: { code: "MM_CLICK_TIMEOUT", says: /covered by .*veil/ } },
  {
    name: "detached after ref taken (click)",
    path: "/detached",
    before: async (client) => {
      const found = await client.callTool({ name: "mm_find", arguments: { name: "Gone soon" } })
      const ref = /\[(e\d+)\]/.exec(textOf(found))?.[1]
      if (ref === undefined) throw new Error(`no ref for the button in ${textOf(found).slice(0, 500)}`)
      await evaluate(client, "document.getElementById('t').remove()")
      return { a11yRef: ref, timeoutMs: TIMEOUT_MS }
    },
    tool: "mm_click",
    args: target,
    expect: { code: "MM_TARGET_NOT_FOUND", says: /left the page|no longer|Unknown a11yRef/ }
  },
  { name: "missing, quiet page (click)", path: "/plain", tool: "mm_click", args: { selector: "#nope", timeoutMs: TIMEOUT_MS }, expect: { code: "MM_TARGET_NOT_FOUND", says: /showed none/ } },
  {
    name: "appears after 500 ms (click)",
    path: "/appears",
    before: async (client) => {
      await evaluate(client, `setTimeout(() => { const b = document.createElement('button'); b.id = 't'; b.textContent = 'Late'; b.onclick = () => { ${mark("clicked")} }; document.getElementById('slot').append(b) }, 500)`)
    },
    tool: "mm_click",
    args: target,
    expect: { code: "ok" }
  },
  {
    name: "appears 400 ms in, DOM quiet 1 s (click)",
    path: "/appears",
    before: async (client) => {
      await evaluate(client, `setTimeout(() => { const b = document.createElement('button'); b.id = 't'; b.textContent = 'Late'; b.onclick = () => { ${mark("clicked")} }; document.getElementById('slot').append(b) }, 1400)`)
      // Untimed: a second of a quiet DOM before the click, which the timer's button then joins 400 ms in.
      await new Promise((resolve) => setTimeout(resolve, 1_000))
    },
    tool: "mm_click",
    args: target,
    expect: { code: "ok" }
  },
  {
    name: "moving 800 ms, then settles (click)",
    path: "/moving",
    before: async (client) => {
      await evaluate(client, "document.getElementById('t').classList.add('go')")
    },
    tool: "mm_click",
    args: target,
    expect: { code: "ok" }
  }
]

const textOf = (result: Awaited<ReturnType<Client["callTool"]>>): string =>
  (result.content as Array<{ type: string; text?: string }>).map((part) => part.text ?? "").join("\n")

/** The answer's code and message, from our envelope (JSON in the first text part). */
const answerOf = (result: Awaited<ReturnType<Client["callTool"]>>): { code: string; message: string } => {
  const text = textOf(result)
  const code = /"code":\s*"(MM_[A-Z_]+)"/.exec(text)?.[1]
  const message = /"message":\s*"((?:[^"\\]|\\.)*)"/.exec(text)?.[1] ?? ""
  return code === undefined && result.isError !== true ? { code: "ok", message: "" } : { code: code ?? "error", message: JSON.parse(`"${message}"`) as string }
}

const main = async () => {
  const rounds = Number(process.argv[process.argv.indexOf("--rounds") + 1] ?? 3) || 3
  const server = await servePages(pages)
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "bench-fail-fast-"))
  const serverAt = process.argv.includes("--server") ? process.argv[process.argv.indexOf("--server") + 1] : undefined
  const client = await connect([serverAt ?? ourServer, "--artifacts-dir", scratch, "--loopback-only", "--caps", "evaluate"], { name: "bench-fail-fast" })
  const seen = new Map<string, Array<{ ms: number; code: string; message: string; clicked: boolean }>>()
  try {
    const launched = answerOf(await client.callTool({ name: "mm_launch", arguments: {} }))
    if (launched.code !== "ok") throw new Error(`mm_launch: ${launched.code} ${launched.message}`)
    for (let round = 0; round < rounds; round++) {
      for (const cause of causes) {
        await client.callTool({ name: "mm_navigate", arguments: { screen: "url", url: `${server.url}${cause.path}` } })
        const args = (await cause.before?.(client)) ?? cause.args
        const started = performance.now()
        const answer = answerOf(await client.callTool({ name: cause.tool, arguments: args }))
        const ms = Math.round(performance.now() - started)
        const mark = answer.code === "ok" ? textOf(await client.callTool({ name: "mm_get_text", arguments: { selector: "#out" } })) : ""
        const list = seen.get(cause.name) ?? []
        list.push({ ms, ...answer, clicked: /clicked/.test(mark) })
        seen.set(cause.name, list)
      }
    }
  } finally {
    await client.close()
    await server.close()
    fs.rmSync(scratch, { recursive: true, force: true })
  }
  out(`fail-fast causes${serverAt !== undefined ? ` (server ${serverAt})` : ""}, ${rounds} interleaved rounds, timeoutMs ${TIMEOUT_MS} (median / slowest ms; right: code and reason as expected)`)
  out("| cause | code | median ms | slowest ms | right | reason (first words) |")
  out("| --- | --- | --- | --- | --- | --- |")
  for (const cause of causes) {
    const list = seen.get(cause.name)!
    const last = list.at(-1)!
    const right = list.every((one) =>
      cause.expect.code === "ok" ? one.code === "ok" && one.clicked : one.code === cause.expect.code && (cause.expect.says?.test(one.message) ?? true)
    )
    const codes = [...new Set(list.map((one) => one.code))].join(", ")
    out(`| ${cause.name} | ${codes} | ${median(list.map((one) => one.ms))} | ${Math.max(...list.map((one) => one.ms))} | ${right ? "yes" : "NO"} | ${last.message.slice(0, 110).replace(/\|/g, "/")} |`)
  }
}

await main()
