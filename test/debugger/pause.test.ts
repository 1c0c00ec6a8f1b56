// A click whose handler hits a breakpoint answers at once with the pause's context; the tool list switches
// to the stepping set and back (the client hears list_changed both times); steps mark changed locals;
// expressions run on a paused frame; page actions meanwhile answer MM_DEBUGGER_PAUSED. Real Chromium.
import * as fs from "node:fs"
import { describe, expect, it } from "vitest"
import { lineOf, pageForFile, STEPPING_SET } from "./support.js"

const app = `function handler() {
  console.log("handler starts", 1)
  let count = 1
  const label = "clicked"
  count = count + 1
  count = count * 10
  document.getElementById("out").textContent = label + " " + count
  return count
}
document.getElementById("go").addEventListener("click", handler)
`

const page = `<!doctype html><html><head><title>Counter</title></head><body>
<button id="go">Go</button><p id="out">idle</p>
<script src="/static/app.js"></script>
</body></html>`

const harness = pageForFile({ "/": page, "/static/app.js": app }, ["debugger", "storage"])

describe("a pause answers with its context, and the tool list follows it", () => {
  it("breakpoint, click, pause context, stepping set, step with changed locals, evaluate, refused actions, resume", async () => {
    const { call, names, changes } = harness
    const enabled = await call("mm_debugger", { action: "enable" })
    expect(enabled).toMatchObject({ ok: true, result: { enabled: true, tabs: 1, pauseOnExceptions: "none" } })

    const breakLine = lineOf(app, "count = count + 1")
    const set = await call("mm_breakpoint", { action: "set", url: "app.js", line: breakLine })
    expect(set.ok).toBe(true)
    expect(set.result.breakpoint).toMatchObject({ id: "bp1", url: "app.js", line: breakLine })
    expect(set.result.breakpoint.resolved).toEqual([{ url: `${harness.url}/static/app.js`, line: breakLine, column: 3 }])

    const running = await names()
    expect(running).toEqual(expect.arrayContaining(["mm_click", "mm_debugger", "mm_breakpoint"]))
    expect(running).not.toContain("mm_step")
    expect(running).not.toContain("mm_evaluate_frame")
    const changesBefore = changes()
    const runningBytes = await harness.listBytes()

    // The click's handler stops at the breakpoint: the click answers with the pause instead of waiting for it.
    const clicked = await call("mm_click", { selector: "#go" })
    expect(clicked.ok).toBe(false)
    expect(clicked.error?.code).toBe("MM_DEBUGGER_PAUSED")
    expect(clicked.error?.message).toContain("during click")
    const pause = clicked.error?.details.pause
    expect(pause).toMatchObject({
      tabId: "t1",
      reason: "breakpoint",
      breakpoint: "bp1",
      location: { url: `${harness.url}/static/app.js`, line: breakLine, column: 3, function: "handler" },
      locals: { count: "1", label: '"clicked"' }
    })
    expect(pause.frames[0]).toBe(`handler app.js:${breakLine}:3`)
    expect(pause.console).toEqual(["log: handler starts 1"])
    expect(pause.changed).toBeUndefined()
    // The pause the click reported is not told again as a notice.
    expect(clicked.notices ?? []).toEqual([])

    expect(changes()).toBeGreaterThan(changesBefore)
    expect(await names()).toEqual(STEPPING_SET)
    // The stepping set is a fraction of the page's list.
    expect(await harness.listBytes()).toBeLessThan(runningBytes / 2)

    const stepped = await call("mm_step", { direction: "over" })
    expect(stepped.ok).toBe(true)
    expect(stepped.result.paused).toMatchObject({ reason: "step", location: { line: breakLine + 1 }, locals: { count: "2" }, changed: ["count"] })

    const evaluated = await call("mm_evaluate_frame", { expression: "({ label, tripled: count * 3 })" })
    expect(evaluated).toMatchObject({ ok: true, result: { type: "object", value: { label: "clicked", tripled: 6 } } })
    const thrown = await call("mm_evaluate_frame", { expression: "missingName + 1" })
    expect(thrown.ok).toBe(true)
    expect(thrown.result.exception).toContain("ReferenceError: missingName is not defined")
    const badFrame = await call("mm_evaluate_frame", { expression: "1", frameIndex: 40 })
    expect(badFrame.error).toMatchObject({ code: "MM_INVALID_INPUT", details: { field: "frameIndex" } })

    // Page actions that need the page's JavaScript are refused at once, saying where it is paused.
    const refused = await call("mm_click", { selector: "#go" })
    expect(refused.error?.code).toBe("MM_DEBUGGER_PAUSED")
    const column = stepped.result.paused.location.column
    expect(refused.error?.message).toContain(`mm_click cannot run while tab t1 is paused in the debugger at app.js:${breakLine + 1}:${column} in handler`)
    const snapshot = await call("mm_describe_screen")
    expect(snapshot.error?.code).toBe("MM_DEBUGGER_PAUSED")
    // Saving the storage state reads localStorage in the page: refused too, not left waiting.
    const saved = await call("mm_save_storage_state", { name: "while-paused" })
    expect(saved.error?.code).toBe("MM_DEBUGGER_PAUSED")
    expect(saved.error?.message).toContain('Call mm_debugger {"action": "resume"}')

    // The state and a screenshot still work on a paused page.
    const state = await call("mm_get_state")
    expect(state.ok).toBe(true)
    expect(state.result.state).toMatchObject({ url: `${harness.url}/`, title: "Counter" })
    expect(state.result.state.loading).toBeUndefined()
    expect(state.result.tabs.tracked).toEqual([expect.objectContaining({ tabId: "t1", title: "Counter", active: true })])
    // Chromium composites a paused page's frame most of the time; when it gives none (seen on a loaded
    // machine), the call answers within its deadline that it got none, and the page stays paused.
    const shot = await call("mm_screenshot", { name: "paused", fullPage: false })
    if (shot.ok) expect(fs.statSync(shot.result.path).size).toBeGreaterThan(1_000)
    else expect(shot.error).toMatchObject({ code: "MM_SCREENSHOT_FAILED", message: expect.stringContaining("the paused page did not give a screenshot in time") })

    const changesWhilePaused = changes()
    const resumed = await call("mm_debugger", { action: "resume" })
    expect(resumed).toMatchObject({ ok: true, result: { running: true } })
    expect(changes()).toBeGreaterThan(changesWhilePaused)
    const restored = await names()
    expect(restored).toEqual(expect.arrayContaining(["mm_click", "mm_describe_screen", "mm_debugger", "mm_breakpoint"]))
    expect(restored).not.toContain("mm_step")

    // Resuming let the click's handler finish.
    const finished = await call("mm_wait_for", { selector: "text=clicked 20" })
    expect(finished.ok).toBe(true)
  })
})
