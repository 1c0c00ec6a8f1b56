// A launch that opens its first tab on about:blank answers that page's state without a trip to the page:
// the walk is not installed in the empty document (our world of the page is asked directly), and the
// state is the one a read of the page gives (mm_get_state reads it afterwards, and installs the walk).
// With screen rules the launch reads the page as before, since a rule may name about:blank.
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Logger, LogLevel } from "effect"
import * as Browser from "../../src/adapters/playwright/lifecycle/browser.js"
import { evaluateInPage } from "../../src/adapters/playwright/page-eval.js"
import { walkInstallKey } from "../../src/adapters/playwright/page-script.js"
import type { Settings } from "../../src/domain/config.js"
import { runTool } from "../../src/runtime/runTool.js"
import type { AnyToolDefinition } from "../../src/runtime/tool.js"
import { getState } from "../../src/tools/discovery.js"
import { cleanup, launch } from "../../src/tools/session.js"
import { testSettings } from "../support/browser.js"
import { liveSessionLayer } from "../support/live-session.js"

const call = (tool: AnyToolDefinition, args: Record<string, unknown> = {}) => Effect.map(runTool(tool)(args), (response) => response.envelope as any)

/** Whether our world of the active page's current document has the walk installed. */
const walkInstalled = Effect.gen(function* () {
  const { page } = yield* (yield* Browser.BrowserState).activePage
  return yield* Effect.promise(() => evaluateInPage<boolean>(page, `window[Symbol.for(${JSON.stringify(walkInstallKey())})] !== undefined`))
})

const withSession = (settings: Settings) => <A, E>(effect: Effect.Effect<A, E, any>) =>
  effect.pipe(Effect.provide(liveSessionLayer(settings).pipe(Layer.provideMerge(Logger.minimumLogLevel(LogLevel.Warning)))), Effect.scoped) as Effect.Effect<A, E>

describe("a launch on about:blank", () => {
  it.live(
    "answers the blank page's state without walking it; mm_get_state then reads the same state from the page",
    () =>
      Effect.gen(function* () {
        const launched = yield* call(launch)
        expect(launched.ok).toBe(true)
        expect(launched.result.state).toEqual({ url: "about:blank" })
        expect(yield* walkInstalled).toBe(false)

        const read = yield* call(getState)
        expect(read.ok).toBe(true)
        // The same page as the launch said, read from the page: no title, loaded, no screen.
        const { tab: _tab, ...page } = read.result.state
        expect(page).toEqual(launched.result.state)
        // The control: a read of the page installs the walk, and the check above sees it.
        expect(yield* walkInstalled).toBe(true)
        yield* call(cleanup)
      }).pipe(withSession(testSettings())),
    60_000
  )

  it.live(
    "with screen rules reads the page, so a rule that names about:blank is reported",
    () =>
      Effect.gen(function* () {
        const launched = yield* call(launch)
        expect(launched.ok).toBe(true)
        expect(launched.result.state).toEqual({ url: "about:blank", screen: "blank" })
        expect(yield* walkInstalled).toBe(true)
        yield* call(cleanup)
      }).pipe(withSession(testSettings({ screenRules: [{ screen: "blank", urlPattern: "^about:blank$" }] }))),
    60_000
  )
})
