// Session over Playwright: one service put together from one part per concern, each in its own file
// (lifecycle in browser.ts; actions, interactions, navigation, screenshots, storage, tabs, extension, records, debugger, emulation, downloads).
import { Effect, Layer, Option } from "effect"
import { Session } from "../../../services/Session.js"
import * as Actions from "./actions.js"
import { BrowserState } from "../lifecycle/browser.js"
import * as Debugger from "../devtools/debugger.js"
import * as DebuggerGuard from "../debugger-guard.js"
import { Debuggers } from "../devtools/debugger-session.js"
import * as Devtools from "../devtools/devtools.js"
import * as Emulation from "./emulation.js"
import * as Downloads from "./downloads-port.js"
import * as Extension from "./extension.js"
import * as Interactions from "./interactions.js"
import * as Navigation from "./navigation.js"
import * as Records from "./records.js"
import * as Screenshots from "./screenshots.js"
import * as Storage from "./storage.js"
import * as Tabs from "./tabs.js"

export { SCREENSHOT_NAME, screenshotFile } from "./screenshots.js"

export const make = Effect.gen(function* () {
  const browser = yield* BrowserState
  // While a tab's JavaScript is paused in the debugger, calls that would wait on the page answer at once.
  const guarded = yield* DebuggerGuard.session
  const debuggers = yield* Debuggers
  return Session.of(guarded({
    current: Effect.map(browser.current, Option.map((live) => live.info)),
    launch: browser.launch,
    // Our DevTools sessions detach before the browser goes (a remote browser keeps running).
    cleanup: Effect.zipRight(debuggers.release, browser.close),
    ...(yield* Actions.make),
    ...(yield* Interactions.make),
    ...(yield* Navigation.make),
    ...(yield* Screenshots.make),
    ...(yield* Storage.make),
    ...(yield* Tabs.make),
    ...(yield* Extension.make),
    ...(yield* Records.make),
    ...(yield* Debugger.make),
    ...(yield* Devtools.make),
    ...(yield* Emulation.make),
    ...(yield* Downloads.make)
  }))
})

export const layer = Layer.effect(Session, make)
