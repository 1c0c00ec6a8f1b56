// Session over Playwright: one service put together from one part per concern, each in its own file
// (lifecycle in browser.ts; actions, interactions, navigation, screenshots, storage, tabs, extension, records).
import { Effect, Layer, Option } from "effect"
import { Session } from "../../services/Session.js"
import * as Actions from "./actions.js"
import { BrowserState } from "./browser.js"
import * as Extension from "./extension.js"
import * as Interactions from "./interactions.js"
import * as Navigation from "./navigation.js"
import * as Records from "./records.js"
import * as Screenshots from "./screenshots.js"
import * as Storage from "./storage.js"
import * as Tabs from "./tabs.js"

export { sanitizeFileName } from "./screenshots.js"

export const make = Effect.gen(function* () {
  const browser = yield* BrowserState
  return Session.of({
    current: Effect.map(browser.current, Option.map((live) => live.info)),
    launch: browser.launch,
    cleanup: browser.close,
    ...(yield* Actions.make),
    ...(yield* Interactions.make),
    ...(yield* Navigation.make),
    ...(yield* Screenshots.make),
    ...(yield* Storage.make),
    ...(yield* Tabs.make),
    ...(yield* Extension.make),
    ...(yield* Records.make)
  })
})

export const layer = Layer.effect(Session, make)
