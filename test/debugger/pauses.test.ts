// Every kind of pause answers with its context: a debugger; statement, an uncaught (and a caught)
// exception, a pause asked of an idle page, a breakpoint in a page's load script (during the navigation),
// a conditional breakpoint, a breakpoint in an inline script; and the breakpoint tool's set, list, remove
// and its errors. Real Chromium, pages served on 127.0.0.1.
import { describe, expect, it } from "vitest"
import { lineOf, pageForFile, STEPPING_SET } from "./support.js"

const lib = `function risky(n) {
  if (n > 2) throw new Error("kaboom " + n)
  return n
}
function guarded() {
  try {
    risky(7)
  } catch (error) {
    return "recovered"
  }
}
function withStatement() {
  const marker = "before the statement"
  debugger
  return marker
}
function loop() {
  let total = 0
  for (let i = 0; i < 5; i++) {
    total += i
  }
  return total
}
`

const boot = `const startedAt = "boot"
window.booted = startedAt + " done"
document.title = "Booted"
`

const inline = `<!doctype html><html><head><title>Debug</title></head><body>
<button id="statement" onclick="withStatement()">Statement</button>
<button id="throw" onclick="risky(42)">Throw</button>
<button id="caught" onclick="document.getElementById('out').textContent = guarded()">Caught</button>
<button id="loop" onclick="document.getElementById('out').textContent = String(loop())">Loop</button>
<button id="inline" onclick="inlineWork()">Inline</button>
<p id="out">idle</p>
<script src="/lib.js"></script>
<script>
function inlineWork() {
  const where = "inline"
  return where.length
}
</script>
</body></html>`

const bootPage = `<!doctype html><html><head><title>Boot</title></head><body><p>boot page</p><script src="/boot.js"></script></body></html>`

const harness = pageForFile({ "/": inline, "/lib.js": lib, "/boot": bootPage, "/boot.js": boot })

/** Resumes and checks the page runs again. */
const resume = async () => expect((await harness.call("mm_debugger", { action: "resume" })).result).toEqual({ running: true })

describe("every pause answers with its context", () => {
  it("a debugger; statement pauses a click once the debugger is enabled", async () => {
    expect((await harness.call("mm_debugger", { action: "enable" })).ok).toBe(true)
    const clicked = await harness.call("mm_click", { selector: "#statement" })
    expect(clicked.error?.code).toBe("MM_DEBUGGER_PAUSED")
    expect(clicked.error?.details.pause).toMatchObject({
      reason: "debugger",
      location: { url: `${harness.url}/lib.js`, line: lineOf(lib, "debugger"), function: "withStatement" },
      locals: { marker: '"before the statement"' }
    })
    // The inline handler that called it is the next frame, with the page's URL and its line in the document.
    expect(clicked.error?.details.pause.frames[1]).toMatch(new RegExp(`^onclick ${harness.url.replace("http://", "")}:${lineOf(inline, 'id="statement"')}:\\d+$`))
    await resume()
  })

  it("an uncaught exception pauses with the exception; a caught one only with state all", async () => {
    const set = await harness.call("mm_debugger", { action: "pause_on_exceptions", state: "uncaught" })
    expect(set.result).toEqual({ enabled: true, tabs: 1, pauseOnExceptions: "uncaught" })

    // A caught exception does not pause with "uncaught".
    expect((await harness.call("mm_click", { selector: "#caught" })).ok).toBe(true)
    expect((await harness.call("mm_get_text", { selector: "#out" })).result.text).toBe("recovered")

    const thrown = await harness.call("mm_click", { selector: "#throw" })
    expect(thrown.error?.code).toBe("MM_DEBUGGER_PAUSED")
    expect(thrown.error?.details.pause).toMatchObject({
      reason: "exception",
      location: { line: lineOf(lib, "throw new Error"), function: "risky" },
      locals: { n: "42" }
    })
    expect(thrown.error?.details.pause.exception).toMatch(/^Error: kaboom 42\n\s+at risky/)
    await resume()

    expect((await harness.call("mm_debugger", { action: "pause_on_exceptions", state: "all" })).ok).toBe(true)
    const caught = await harness.call("mm_click", { selector: "#caught" })
    expect(caught.error?.details.pause).toMatchObject({ reason: "exception", location: { function: "risky" } })
    expect(caught.error?.details.pause.exception).toMatch(/^caught: Error: kaboom 7/)
    await resume()

    // Our own page scripts (evaluations without a URL) never pause, even on every exception.
    expect((await harness.call("mm_describe_screen")).ok).toBe(true)
    expect((await harness.call("mm_click", { selector: "#loop" })).ok).toBe(true)
    expect((await harness.call("mm_debugger", { action: "pause_on_exceptions", state: "none" })).ok).toBe(true)
  })

  it("pause on an idle page is pending until its next statement: the next click answers with it", async () => {
    const asked = await harness.call("mm_debugger", { action: "pause" })
    expect(asked.result).toEqual({ running: true, pausePending: true })
    // The page's own list stays as it was: nothing is paused yet.
    expect(await harness.names()).toContain("mm_click")
    const clicked = await harness.call("mm_click", { selector: "#loop" })
    expect(clicked.error?.details.pause).toMatchObject({ reason: "pause", location: { function: "onclick" } })
    // Asking again while paused answers the same pause.
    const again = await harness.call("mm_debugger", { action: "pause" })
    expect(again.result.paused).toEqual(clicked.error?.details.pause)
    const into = await harness.call("mm_step", { direction: "into" })
    expect(into.result.paused).toMatchObject({ reason: "step", location: { function: "loop", line: lineOf(lib, "let total = 0") } })
    const out = await harness.call("mm_step", { direction: "out" })
    expect(out.result.paused).toMatchObject({ reason: "step", location: { function: "onclick" } })
    await resume()
    expect((await harness.call("mm_get_text", { selector: "#out" })).result.text).toBe("10")
  })

  it("a conditional breakpoint pauses only when its condition holds, with the loop's locals", async () => {
    const line = lineOf(lib, "total += i")
    const set = await harness.call("mm_breakpoint", { action: "set", url: `${harness.url}/lib.js`, line, condition: "i === 3" })
    expect(set.result.breakpoint).toMatchObject({ id: expect.stringMatching(/^bp\d+$/), condition: "i === 3", resolved: [{ line }] })
    const clicked = await harness.call("mm_click", { selector: "#loop" })
    expect(clicked.error?.details.pause).toMatchObject({ reason: "breakpoint", breakpoint: set.result.breakpoint.id, locals: { i: "3", total: "3" } })
    await resume()
    expect((await harness.call("mm_breakpoint", { action: "remove", id: set.result.breakpoint.id })).result).toEqual({ removed: set.result.breakpoint.id })
  })

  it("a breakpoint in an inline script is set by the page's URL and the line in the document", async () => {
    const line = lineOf(inline, 'const where = "inline"')
    const set = await harness.call("mm_breakpoint", { action: "set", url: `${harness.url}/`, line })
    expect(set.result.breakpoint.resolved).toEqual([{ url: `${harness.url}/`, line, column: expect.any(Number) }])
    const clicked = await harness.call("mm_click", { selector: "#inline" })
    expect(clicked.error?.details.pause).toMatchObject({ reason: "breakpoint", location: { url: `${harness.url}/`, line, function: "inlineWork" } })
    await resume()
    expect((await harness.call("mm_breakpoint", { action: "remove", id: set.result.breakpoint.id })).ok).toBe(true)
  })

  it("a breakpoint in a load script pauses the navigation, which answers with it and finishes on resume", async () => {
    const line = lineOf(boot, "window.booted")
    const set = await harness.call("mm_breakpoint", { action: "set", url: "boot.js", line })
    expect(set.result.breakpoint.resolved).toEqual([])
    const navigated = await harness.call("mm_navigate", { screen: "url", url: `${harness.url}/boot` })
    expect(navigated.error?.code).toBe("MM_DEBUGGER_PAUSED")
    expect(navigated.error?.message).toContain("during navigate")
    expect(navigated.error?.details.pause).toMatchObject({ reason: "breakpoint", location: { url: `${harness.url}/boot.js`, line, function: "(anonymous)" } })
    expect(await harness.names()).toEqual(STEPPING_SET)
    const listed = await harness.call("mm_breakpoint", { action: "list" })
    expect(listed.result.breakpoints).toEqual([expect.objectContaining({ id: set.result.breakpoint.id, resolved: [{ url: `${harness.url}/boot.js`, line, column: 1 }] })])
    await resume()
    const state = await harness.call("mm_get_state")
    expect(state.result.state).toMatchObject({ title: "Booted", url: `${harness.url}/boot` })
    expect((await harness.call("mm_breakpoint", { action: "remove", id: set.result.breakpoint.id })).ok).toBe(true)
  })

  it("bad breakpoint input says which field; an unknown id lists the ones there are", async () => {
    expect((await harness.call("mm_navigate", { screen: "url", url: `${harness.url}/` })).ok).toBe(true)
    const noLine = await harness.call("mm_breakpoint", { action: "set", url: "lib.js" })
    expect(noLine.error).toMatchObject({ code: "MM_INVALID_INPUT", details: { field: "line" } })
    const both = await harness.call("mm_breakpoint", { action: "set", url: "lib.js", urlRegex: "lib", line: 2 })
    expect(both.error).toMatchObject({ code: "MM_INVALID_INPUT", details: { field: "urlRegex" } })
    const stray = await harness.call("mm_breakpoint", { action: "list", line: 2 })
    expect(stray.error).toMatchObject({ code: "MM_INVALID_INPUT", details: { field: "line" } })
    const unknown = await harness.call("mm_breakpoint", { action: "remove", id: "bp999" })
    expect(unknown.error).toMatchObject({ code: "MM_INVALID_INPUT", details: { field: "id" } })
    expect(unknown.error?.message).toContain("no breakpoint bp999; set: none")
    const regex = await harness.call("mm_breakpoint", { action: "set", urlRegex: "lib\\.js$", line: 2 })
    expect(regex.result.breakpoint).toMatchObject({ urlRegex: "lib\\.js$", resolved: [{ url: `${harness.url}/lib.js`, line: 2 }] })
    // The same breakpoint twice is the one breakpoint.
    const twice = await harness.call("mm_breakpoint", { action: "set", urlRegex: "lib\\.js$", line: 2 })
    expect(twice.result.breakpoint.id).toBe(regex.result.breakpoint.id)
    expect((await harness.call("mm_breakpoint", { action: "remove", id: regex.result.breakpoint.id })).ok).toBe(true)
  })

  it("stepping or evaluating with nothing paused says how to get a pause", async () => {
    const step = await harness.call("mm_step", { direction: "over" })
    expect(step.error?.code).toBe("MM_DEBUGGER_NOT_PAUSED")
    expect(step.error?.message).toContain("mm_breakpoint")
    expect((await harness.call("mm_evaluate_frame", { expression: "1" })).error?.code).toBe("MM_DEBUGGER_NOT_PAUSED")
    expect((await harness.call("mm_debugger", { action: "resume" })).error?.code).toBe("MM_DEBUGGER_NOT_PAUSED")
    const state = await harness.call("mm_debugger", { action: "pause_on_exceptions" })
    expect(state.error).toMatchObject({ code: "MM_INVALID_INPUT", details: { field: "state" } })
  })

  it("disable detaches: breakpoints go, and a debugger; statement no longer pauses", async () => {
    expect((await harness.call("mm_breakpoint", { action: "set", url: "lib.js", line: 2 })).ok).toBe(true)
    expect((await harness.call("mm_debugger", { action: "disable" })).result).toEqual({ enabled: false })
    expect((await harness.call("mm_breakpoint", { action: "list" })).result).toEqual({ breakpoints: [] })
    expect((await harness.call("mm_click", { selector: "#statement" })).ok).toBe(true)
  })
})
