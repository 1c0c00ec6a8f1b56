// The devtools tools beside the debugger and the lean envelope, over the SDK client and real Chromium:
// while a tab is paused the captured console and requests stay readable (listed with the stepping set),
// mm_evaluate answers MM_DEBUGGER_PAUSED at once; and a console_messages response does not repeat in
// the envelope's `console` the errors its own result lists, while errors of other pages still come.
import { describe, expect, it } from "vitest"
import { lineOf, pageForFile } from "../debugger/support.js"

const app = `function handler() {
  console.error("handler failed once")
  let count = 1
  count = count + 1
  document.getElementById("out").textContent = "clicked " + count
}
document.getElementById("go").addEventListener("click", handler)
fetch("/api/ping")
`

const page = `<!doctype html><html><head><title>Paused</title></head><body>
<button id="go">Go</button><p id="out">idle</p>
<script src="/static/app.js"></script>
</body></html>`

const caps = ["debugger", "devtools", "evaluate"]
// The settings' caps too: with devtools on, requests are captured from the session's start.
const harness = pageForFile({ "/": page, "/static/app.js": app, "/api/ping": "pong" }, caps, { caps })

describe("devtools tools while paused, and the lean console", () => {
  it("paused: console and requests are readable and listed, evaluate is refused at once; resumed: evaluate runs", async () => {
    const { call, names } = harness
    expect((await call("mm_debugger", { action: "enable" })).ok).toBe(true)
    expect((await call("mm_breakpoint", { action: "set", url: "app.js", line: lineOf(app, "count = count + 1") })).ok).toBe(true)
    const clicked = await call("mm_click", { selector: "#go" })
    expect(clicked.error?.code).toBe("MM_DEBUGGER_PAUSED")

    const listed = await names()
    expect(listed).toEqual(expect.arrayContaining(["mm_console_messages", "mm_network_requests", "mm_network_request", "mm_step"]))
    expect(listed).not.toContain("mm_evaluate")
    expect(listed).not.toContain("mm_click")

    const messages = await call("mm_console_messages", { level: "error" })
    expect(messages.ok).toBe(true)
    expect(messages.result.messages).toEqual([expect.objectContaining({ type: "error", text: "handler failed once", call: expect.stringContaining("mm_click") })])
    const requests = await call("mm_network_requests", { urlPattern: "**/api/ping" })
    expect(requests.ok).toBe(true)
    expect(requests.result.requests).toEqual([expect.objectContaining({ method: "GET", url: `${harness.url}/api/ping` })])

    const refused = await call("mm_evaluate", { expression: "document.title" })
    expect(refused.ok).toBe(false)
    expect(refused.error?.code).toBe("MM_DEBUGGER_PAUSED")
    expect(refused.error?.message).toContain("mm_evaluate cannot run while tab t1 is paused")

    expect((await call("mm_debugger", { action: "resume" })).ok).toBe(true)
    const evaluated = await call("mm_evaluate", { expression: "document.getElementById('out').textContent" })
    expect(evaluated).toMatchObject({ ok: true, result: { type: "string", value: "clicked 2" } })
    expect((await call("mm_debugger", { action: "disable" })).ok).toBe(true)
  })

  it("console_messages lists the new error in its result, and the envelope's console does not repeat it", async () => {
    const { call } = harness
    expect((await call("mm_navigate", { screen: "url", url: `${harness.url}/` })).ok).toBe(true)
    const clicked = (await call("mm_click", { selector: "#go" })) as any
    expect(clicked.ok).toBe(true)
    // The click's own response reports its error once, in the envelope.
    expect(clicked.console).toEqual(["error: handler failed once"])
    // Raised after that response (by a timer): the next response would carry it, but console_messages lists it itself.
    expect((await call("mm_evaluate", { expression: "setTimeout(() => console.error('late trouble'), 100); 1" })).ok).toBe(true)
    // Until it is told: each response tells it at most once (in the result, or in console when it came
    // after the result was read), and never in both.
    let told = 0
    for (let attempt = 0; attempt < 100 && told === 0; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 50))
      const read = (await call("mm_console_messages", { level: "error" })) as any
      expect(read.ok).toBe(true)
      const texts: Array<string> = read.result.messages.map((message: any) => message.text)
      const inResult = texts.includes("late trouble")
      const inConsole = (read.console ?? []).includes("error: late trouble")
      expect(inResult && inConsole).toBe(false)
      // The click's error, told in the click's response, is only in the full log.
      expect(texts[0]).toBe("handler failed once")
      expect(read.console ?? []).not.toContain("error: handler failed once")
      told = (inResult ? 1 : 0) + (inConsole ? 1 : 0)
    }
    expect(told).toBe(1)
  })
})
