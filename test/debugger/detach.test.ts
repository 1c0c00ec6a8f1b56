// Nothing of the debugger outlives its use: one DevTools session per tab that survives navigations,
// closed (and every listener of ours off the page and the context) by disable and by cleanup, the
// page running again. Real Chromium through the adapter's own layers, so the test sees the sessions.
import { Effect, Layer, ManagedRuntime, Option, Ref } from "effect"
import type { BrowserContext, CDPSession, Page } from "playwright"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as StderrLogger from "../../src/adapters/logger.js"
import * as Browser from "../../src/adapters/playwright/lifecycle/browser.js"
import { devtoolsOf } from "../../src/adapters/playwright/page-eval.js"
import { Debuggers, type DebuggerHandle } from "../../src/adapters/playwright/devtools/debugger-session.js"
import { Session } from "../../src/services/Session.js"
import { testSettings } from "../support/browser.js"
import { liveSessionLayer } from "../support/live-session.js"
import { lineOf, serve, type Served } from "./support.js"

const app = `function handler() {
  const clicks = 1
  document.getElementById("out").textContent = "handled " + clicks
}
document.getElementById("go").addEventListener("click", handler)
`

const files = {
  "/": `<!doctype html><html><head><title>App</title></head><body><button id="go">Go</button><p id="out">idle</p><script src="/app.js"></script></body></html>`,
  "/other": `<!doctype html><html><head><title>Other</title></head><body><p>other</p></body></html>`,
  "/app.js": app
}

const settings = testSettings()
const runtime = ManagedRuntime.make(
  liveSessionLayer(settings).pipe(Layer.provideMerge(StderrLogger.layer("warning")))
)
const run = <A, E>(effect: Effect.Effect<A, E, Session | Browser.BrowserState | Debuggers>) => runtime.runPromise(effect)

let served: Served
beforeAll(async () => {
  served = await serve(files)
})
afterAll(async () => {
  await runtime.dispose()
  await served?.close()
})

const session = Session
const timeout = { timeoutMs: 10_000 }
const goTo = (path: string) => run(Effect.flatMap(session, (s) => s.navigate({ screen: "url", url: `${served.url}${path}` }, timeout)))
const clickGo = () => run(Effect.flip(Effect.flatMap(session, (s) => s.click({ locator: { kind: "selector", value: "#go" } }, timeout))))

/** The running session's page, context and debugger handle (made on first use). */
const internals = () =>
  run(
    Effect.gen(function* () {
      const browser = yield* Browser.BrowserState
      const { live, page } = yield* browser.activePage
      const handle = yield* (yield* Debuggers).find(live)
      return { live, page, context: live.context, handle }
    })
  )

const sessionsOf = (handle: DebuggerHandle) => run(Effect.map(Ref.get(handle.tabs), (tabs) => [...tabs.values()].map((tab) => tab.cdp)))

/** Playwright's pages and contexts are event emitters; their typings leave out listenerCount. */
type Emitter = { readonly listenerCount: (event: string) => number }

/** Our listeners: the page's navigation and close, the context's new pages. */
const listeners = (page: Page, context: BrowserContext) => ({
  framenavigated: (page as unknown as Emitter).listenerCount("framenavigated"),
  close: (page as unknown as Emitter).listenerCount("close"),
  page: (context as unknown as Emitter).listenerCount("page")
})

/** A detached DevTools session refuses every command. */
const detached = (cdp: CDPSession) =>
  cdp.send("Runtime.evaluate", { expression: "1" }).then(
    () => false,
    () => true
  )

describe("the debugger detaches cleanly", () => {
  it("one session per tab across navigations; disable closes it and takes our listeners off; cleanup drops the handle", async () => {
    expect((await run(Effect.flatMap(session, (s) => s.launch({ flowTags: [], tags: [], stateMode: "default", slowMo: 0, force: false })))).sessionId).toBeTruthy()
    await goTo("/")
    const before = await internals()
    expect(Option.isNone(before.handle)).toBe(true)
    // The session's own listeners come first: the console watch goes on once the page's DevTools
    // channel is open (asynchronously, after the tab is tracked). Awaiting the channel settles them.
    await devtoolsOf(before.page)
    const baseline = listeners(before.page, before.context)

    const status = await run(Effect.flatMap(session, (s) => s.debuggerConfigure({ enabled: true })))
    expect(status).toMatchObject({ enabled: true, tabs: 1 })
    await run(Effect.flatMap(session, (s) => s.setBreakpoint({ url: "app.js", line: lineOf(app, "const clicks") })))
    const { handle, page, context } = await internals()
    const [first] = await sessionsOf(Option.getOrThrow(handle))
    expect(first).toBeDefined()
    expect(listeners(page, context)).toEqual({
      framenavigated: baseline.framenavigated + 1,
      close: baseline.close + 1,
      page: baseline.page + 1
    })

    // Paused by the click, then the page is left: the pause ends, the same session stays, nothing is added.
    expect(await clickGo()).toMatchObject({ _tag: "DebuggerPaused", during: "click" })
    await goTo("/other")
    expect(await run(Effect.flatMap(session, (s) => s.debuggerPaused))).toEqual(Option.none())
    await goTo("/")
    expect(await clickGo()).toMatchObject({ _tag: "DebuggerPaused", during: "click" })
    expect(await sessionsOf(Option.getOrThrow(handle))).toEqual([first])
    expect(listeners(page, context)).toEqual({
      framenavigated: baseline.framenavigated + 1,
      close: baseline.close + 1,
      page: baseline.page + 1
    })

    // Disable while paused: the session is closed, our listeners are off, the page runs (its click finished).
    expect(await run(Effect.flatMap(session, (s) => s.debuggerConfigure({ enabled: false })))).toMatchObject({ enabled: false, tabs: 0 })
    expect(await detached(first!)).toBe(true)
    expect(listeners(page, context)).toEqual(baseline)
    expect(await page.evaluate(() => document.getElementById("out")?.textContent)).toBe("handled 1")

    // On again, paused again, then cleanup: the new session is closed and the handle is gone.
    await run(Effect.flatMap(session, (s) => s.setBreakpoint({ url: "app.js", line: lineOf(app, "const clicks") })))
    expect(await clickGo()).toMatchObject({ _tag: "DebuggerPaused" })
    const [second] = await sessionsOf(Option.getOrThrow((await internals()).handle))
    expect(second).not.toBe(first)
    const live = (await internals()).live
    expect(await run(Effect.flatMap(session, (s) => s.cleanup))).toBe(true)
    expect(await detached(second!)).toBe(true)
    expect(await run(Effect.flatMap(Debuggers, (debuggers) => debuggers.find(live)))).toEqual(Option.none())
  })
})
