// While a tab's JavaScript is paused in the debugger, port calls that would wait on the page answer at once:
// actions with MM_DEBUGGER_PAUSED, reads with what the paused page and the browser can still tell. Which
// tools may run while paused is their definitions' `whilePaused`, checked by runTool's gate. A call
// whose own doing makes the page pause (a click whose handler hits a breakpoint) stops waiting and
// answers with the pause; the browser finishes that action when the page runs again.
import { Effect, Option, Ref } from "effect"
import { DebuggerPaused, DiscoveryFailed } from "../../domain/errors.js"
import type { ObserverService } from "../../services/Observer.js"
import type { SessionService } from "../../services/Session.js"
import { BrowserState } from "./lifecycle/browser.js"
import { summaryOf } from "./devtools/debugger.js"
import { contextOf, Debuggers, pausedScreenshot, pausedState, pausedTabs, pauseAfter, reported, unreported, type DebuggerHandle } from "./devtools/debugger-session.js"
import { newestPause, type Pause } from "./devtools/debugger-state.js"

type OnPause<A, E> = (debug: DebuggerHandle, pause: Pause) => Effect.Effect<A, E>

const makeGuard = Effect.gen(function* () {
  const browser = yield* BrowserState
  const debuggers = yield* Debuggers

  /** The current session's debugger, when it is on (or something is still paused). */
  const watching = Effect.gen(function* () {
    const current = yield* browser.current
    if (Option.isNone(current)) return Option.none<DebuggerHandle>()
    const debug = yield* debuggers.find(current.value)
    if (Option.isNone(debug)) return debug
    const state = yield* Ref.get(debug.value.state)
    return state.enabled || state.pauses.length > 0 ? debug : Option.none<DebuggerHandle>()
  })

  /**
   * Runs `run`; while something is paused, `whilePaused` answers instead (when given). When a pause comes
   * while `run` waits, its wait is abandoned (disconnected, so it cannot hold the answer back) and
   * `pausedDuring` answers.
   */
  const guard = <A, E, E2, E3>(run: Effect.Effect<A, E>, whilePaused: OnPause<A, E2> | undefined, pausedDuring: OnPause<A, E3>) =>
    Effect.gen(function* () {
      const debug = yield* watching
      if (Option.isNone(debug)) return yield* run
      const state = yield* Ref.get(debug.value.state)
      const now = newestPause(state)
      if (now !== undefined && whilePaused !== undefined) return yield* whilePaused(debug.value, now)
      return yield* Effect.raceFirst<A, E | E2 | E3, never, A, E | E2 | E3, never>(
        Effect.disconnect(run),
        Effect.flatMap(pauseAfter(debug.value, state.seq), (pause) => pausedDuring(debug.value, pause))
      )
    })

  /**
   * A call that reached the port while the page is paused (runTool's gate refuses the tools marked
   * `whilePaused: "blocked"` before they run; this covers a pause that came in between): where it is
   * paused, and how to go on; runTool names the tool. The first call after a pause that came between
   * calls also carries the pause's context, which no call gave yet.
   */
  const refuse: OnPause<never, DebuggerPaused> = (debug, pause) =>
    Effect.flatMap(unreported(debug, pause), (first) =>
      first
        ? Effect.flatMap(Effect.zipLeft(contextOf(debug, pause), reported(debug, pause)), (context) =>
            Effect.fail(new DebuggerPaused({ ...summaryOf(pause), pause: context }))
          )
        : Effect.fail(new DebuggerPaused(summaryOf(pause)))
    )

  /** The call made the page pause: the pause's context, and the call's work left to the browser. */
  const interrupted =
    (during: string): OnPause<never, DebuggerPaused> =>
    (debug, pause) =>
      Effect.flatMap(Effect.zipLeft(contextOf(debug, pause), reported(debug, pause)), (context) =>
        Effect.fail(new DebuggerPaused({ during, ...summaryOf(pause), pause: context }))
      )

  return { browser, guard, refuse, interrupted }
})

/** The Session with every call that waits on the page guarded against a paused page. */
export const session = Effect.map(
  makeGuard,
  ({ browser, guard, refuse, interrupted }) =>
    (service: SessionService): SessionService => {
      /** A port call that waits on the page; `during` names the action in the answer when the page pauses while it runs. */
      const action =
        <Args extends ReadonlyArray<unknown>, A, E>(during: string, call: (...args: Args) => Effect.Effect<A, E>) =>
        (...args: Args) =>
          guard(call(...args), refuse, interrupted(during))
      const pausedScreenshotOf = (debug: DebuggerHandle, options: Parameters<SessionService["screenshot"]>[0]) =>
        browser.refineClosed(Effect.flatMap(browser.activePage, ({ page }) => pausedScreenshot(debug, page, browser.settings.artifactsDir, options)))
      return {
        ...service,
        click: action("click", service.click),
        type: action("type", service.type),
        waitForAny: action("wait_for", service.waitForAny),
        getText: action("get_text", service.getText),
        getTexts: action("get_text", service.getTexts),
        pressKey: action("press_key", service.pressKey),
        selectOption: action("select_option", service.selectOption),
        hover: action("hover", service.hover),
        drag: action("drag", service.drag),
        scroll: action("scroll", service.scroll),
        setChecked: action("set_checked", service.setChecked),
        uploadFiles: action("upload_file", service.uploadFiles),
        waitForPage: action("wait_for", service.waitForPage),
        expect: action("expect", service.expect),
        savePdf: action("save_pdf", service.savePdf),
        // Leaving a paused page is a way out of the pause: a navigation runs, unless it makes a new document pause.
        navigate: (destination, options) => guard(service.navigate(destination, options), undefined, interrupted("navigate")),
        screenshot: (options) =>
          guard(
            service.screenshot(options),
            (debug) => pausedScreenshotOf(debug, options),
            (debug) => pausedScreenshotOf(debug, options)
          ),
        tabs: guard(service.tabs, pausedTabs, pausedTabs),
        switchTab: (selector) => guard(service.switchTab(selector), refuse, interrupted("tab switch")),
        closeTab: (selector) => guard(service.closeTab(selector), refuse, interrupted("tab close")),
        waitForNotification: action("wait_for_notification", service.waitForNotification),
        // Reading localStorage runs script in each page, which a paused page never answers.
        saveStorageState: action("save_storage_state", service.saveStorageState),
        // Evaluation runs script in the page (its code may also hit a breakpoint).
        evaluate: action("evaluate", service.evaluate)
      }
    }
)

/** The Observer with its page reads guarded: while paused, the state the paused page can still give, nothing more. */
export const observer = (inner: ObserverService) =>
  Effect.map(makeGuard, ({ browser, guard }): ObserverService => {
    const stateWhilePaused = (debug: DebuggerHandle) => browser.refineClosed(Effect.flatMap(browser.activePage, ({ page }) => pausedState(debug, page)))
    const unreadable: OnPause<never, DiscoveryFailed> = (_debug, pause) => {
      const { tabId, at } = summaryOf(pause)
      return Effect.fail(
        new DiscoveryFailed({ detail: `tab ${tabId} is paused in the debugger at ${at}; resume it first (mm_debugger {"action": "resume"})` })
      )
    }
    const observeWhilePaused = (debug: DebuggerHandle) => Effect.map(stateWhilePaused(debug), (state) => ({ state }))
    return {
      state: guard(inner.state, stateWhilePaused, stateWhilePaused),
      observe: (options) => guard(inner.observe(options), observeWhilePaused, observeWhilePaused),
      testIds: (limit) => guard(inner.testIds(limit), unreadable, unreadable),
      accessibility: (options) => guard(inner.accessibility(options), unreadable, unreadable),
      find: (options) => guard(inner.find(options), unreadable, unreadable)
    }
  })
