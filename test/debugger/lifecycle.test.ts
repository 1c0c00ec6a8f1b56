// A pause ends cleanly however the page goes: navigating away, a cleanup, a browser that dies; a pause
// on a tab that is not the active one is reported; disabling leaves no listener behind. Real Chromium.
import { afterEach, describe, expect, it } from "vitest"
import { browserMainPids } from "../support/processes.js"
import { lineOf, openPage, STEPPING_SET, type Harness, type OnPage } from "./support.js"

const app = `function handler() {
  const clicks = 1
  document.getElementById("out").textContent = "handled " + clicks
}
document.getElementById("go").addEventListener("click", handler)
`

const ticker = `function tick() {
  window.ticks = (window.ticks || 0) + 1
}
setInterval(tick, 30)
`

const files = {
  "/": `<!doctype html><html><head><title>App</title></head><body><button id="go">Go</button><p id="out">idle</p><script src="/app.js"></script></body></html>`,
  "/other": `<!doctype html><html><head><title>Other</title></head><body><button id="plain" onclick="this.textContent='pressed'">Plain</button></body></html>`,
  "/ticker": `<!doctype html><html><head><title>Ticker</title></head><body><p>ticking</p><script src="/ticker.js"></script></body></html>`,
  "/app.js": app,
  "/ticker.js": ticker
}

const opened: Array<OnPage> = []
afterEach(async () => {
  for (const harness of opened.splice(0)) await harness.close()
})

/** A session on the app page with the debugger on and a breakpoint in the click handler. */
const pausedWorld = async (marker?: string) => {
  const harness = await openPage(files, ["debugger"], marker === undefined ? {} : { browserArgs: [`--bwm-test-marker=${marker}`] })
  opened.push(harness)
  expect((await harness.call("mm_breakpoint", { action: "set", url: "app.js", line: lineOf(app, "const clicks") })).ok).toBe(true)
  return harness
}

const pauseByClick = async (harness: Harness) => {
  const clicked = await harness.call("mm_click", { selector: "#go" })
  expect(clicked.error?.code).toBe("MM_DEBUGGER_PAUSED")
  expect(await harness.names()).toEqual(STEPPING_SET)
}

describe("a pause ends cleanly", () => {
  it("navigating away from a paused page leaves the pause; the breakpoint binds again when the page comes back", async () => {
    const harness = await pausedWorld()
    await pauseByClick(harness)
    const changes = harness.changes()
    const away = await harness.call("mm_navigate", { screen: "url", url: `${harness.url}/other` })
    expect(away.ok).toBe(true)
    expect(away.page).toMatchObject({ url: `${harness.url}/other`, title: "Other" })
    expect(harness.changes()).toBeGreaterThan(changes)
    expect(await harness.names()).toContain("mm_click")
    expect((await harness.call("mm_click", { selector: "#plain" })).ok).toBe(true)

    expect((await harness.call("mm_navigate", { screen: "url", url: `${harness.url}/` })).ok).toBe(true)
    const again = await harness.call("mm_click", { selector: "#go" })
    expect(again.error?.details.pause).toMatchObject({ reason: "breakpoint", breakpoint: "bp1" })
    await expect(harness.call("mm_debugger", { action: "resume" })).resolves.toMatchObject({ ok: true })
  })

  it("a cleanup while paused ends the session; the next session starts with the debugger off", async () => {
    const harness = await pausedWorld()
    await pauseByClick(harness)
    expect((await harness.call("mm_cleanup")).result).toEqual({ cleanedUp: true })
    const names = await harness.names()
    expect(names).toContain("mm_launch")
    expect(names).not.toContain("mm_step")
    expect((await harness.call("mm_launch")).ok).toBe(true)
    expect((await harness.call("mm_breakpoint", { action: "list" })).result).toEqual({ breakpoints: [] })
    expect((await harness.call("mm_navigate", { screen: "url", url: `${harness.url}/` })).ok).toBe(true)
    expect((await harness.call("mm_click", { selector: "#go" })).ok).toBe(true)
  })

  it("a browser that dies while paused ends the pause with the session: MM_BROWSER_CLOSED, then a plain launch", async () => {
    const marker = `debugger-dies-${process.pid}-${Date.now()}`
    const harness = await pausedWorld(marker)
    await pauseByClick(harness)
    const [pid] = browserMainPids(marker)
    expect(pid).toBeDefined()
    process.kill(pid!, "SIGKILL")
    let state = await harness.call("mm_get_state")
    for (let tries = 0; tries < 50 && state.error?.code !== "MM_BROWSER_CLOSED"; tries++) state = await harness.call("mm_get_state")
    expect(state.error?.code).toBe("MM_BROWSER_CLOSED")
    expect(await harness.names()).not.toContain("mm_step")
    expect((await harness.call("mm_step", { direction: "over" })).error?.code).toBe("MM_BROWSER_CLOSED")
    expect((await harness.call("mm_launch")).ok).toBe(true)
  })

  it("a pause on a tab that is not the active one is reported, refuses page actions, and disable resumes it", async () => {
    const harness = await pausedWorld()
    expect((await harness.call("mm_breakpoint", { action: "remove", id: "bp1" })).ok).toBe(true)
    expect((await harness.call("mm_navigate", { screen: "url", url: `${harness.url}/ticker`, newTab: true })).ok).toBe(true)
    expect((await harness.call("mm_switch_to_tab", { tabId: "t1" })).ok).toBe(true)
    const set = await harness.call("mm_breakpoint", { action: "set", url: "ticker.js", line: lineOf(ticker, "window.ticks") })
    expect(set.result.breakpoint.resolved).toEqual([{ url: `${harness.url}/ticker.js`, line: 2, column: 3 }])

    // The ticker's next tick pauses tab t2; the notices of the call during which it paused say so (the
    // set itself, when the tick comes before it answers).
    let notices: ReadonlyArray<string> = set.notices ?? []
    for (let tries = 0; tries < 100 && !notices.some((text) => text.startsWith("Tab t2 paused")); tries++) {
      notices = (await harness.call("mm_get_state")).notices ?? []
    }
    expect(notices).toContainEqual(expect.stringMatching(/^Tab t2 paused in the debugger \(bp2 at page frame: "ticker\.js:2:3 in tick"\)/))
    expect(await harness.names()).toEqual(STEPPING_SET)

    const refused = await harness.call("mm_click", { selector: "#go" })
    expect(refused.error?.message).toContain("mm_click cannot run while tab t2 is paused in the debugger at ticker.js:2:3 in tick")
    const state = await harness.call("mm_get_state")
    expect(state.result.state).toMatchObject({ title: "App" })
    expect(state.result.tabs.tracked).toEqual([
      expect.objectContaining({ tabId: "t1", title: "App", active: true }),
      expect.objectContaining({ tabId: "t2", title: "Ticker", active: false })
    ])
    const ticks = await harness.call("mm_evaluate_frame", { expression: "typeof window.ticks" })
    expect(ticks.result).toEqual({ type: "string", value: expect.stringMatching(/^(number|undefined)$/) })

    expect((await harness.call("mm_debugger", { action: "disable" })).result).toEqual({ enabled: false })
    expect(await harness.names()).toContain("mm_click")
    expect((await harness.call("mm_click", { selector: "#go" })).ok).toBe(true)
  })
})
