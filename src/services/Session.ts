// The browser port tools require: one Session tag whose service is the sum of small ports, one per
// concern (lifecycle, actions, interactions, navigation, screenshots, storage, tabs, extension, records, debugger, devtools, emulation,
// downloads) in ./session/.
import { Context, Effect, Layer, Option } from "effect"
import type { SessionActions } from "./session/actions.js"
import type { SessionDebugger } from "./session/debugger.js"
import type { SessionDevtools } from "./session/devtools.js"
import type { SessionEmulation } from "./session/emulation.js"
import type { SessionDownloads } from "./session/downloads.js"
import type { SessionExtension } from "./session/extension.js"
import type { SessionInteractions } from "./session/interactions.js"
import type { SessionLifecycle } from "./session/lifecycle.js"
import type { SessionNavigation } from "./session/navigation.js"
import type { SessionRecords } from "./session/records.js"
import type { SessionScreenshots } from "./session/screenshots.js"
import type { SessionStorage } from "./session/storage.js"
import type { SessionTabs } from "./session/tabs.js"

export type * from "./session/actions.js"
export type * from "./session/debugger.js"
export type * from "./session/devtools.js"
export type * from "./session/emulation.js"
export type * from "./session/downloads.js"
export type * from "./session/extension.js"
export type * from "./session/interactions.js"
export type * from "./session/lifecycle.js"
export type * from "./session/navigation.js"
export type * from "./session/records.js"
export type * from "./session/screenshots.js"
export type * from "./session/storage.js"
export type * from "./session/tabs.js"

export type SessionService = SessionLifecycle &
  SessionActions &
  SessionInteractions &
  SessionNavigation &
  SessionScreenshots &
  SessionStorage &
  SessionTabs &
  SessionExtension &
  SessionRecords &
  SessionDebugger &
  SessionDevtools &
  SessionEmulation &
  SessionDownloads

export class Session extends Context.Tag("browser-workflow-mcp/Session")<Session, SessionService>() {
  /** A session stub for tests: every method dies loudly unless overridden (a port method added later needs no line here). */
  static readonly layerTest = (overrides: Partial<SessionService>) => Layer.succeed(Session, stub({ ...unimplemented, ...overrides }))
}

const notStubbed = (method: string) => Effect.dieMessage(`Session.${method} is not stubbed in this test`)

/** Keys that libraries probe on any object (a thenable check, JSON, matchers): never taken for methods. */
const PROBED: ReadonlySet<string> = new Set(["then", "toJSON", "asymmetricMatch", "$$typeof", "nodeType"])

/** The given members; any other method, when called, dies naming itself. */
const stub = (given: Partial<SessionService>): SessionService =>
  new Proxy(given, {
    get: (target, key) =>
      typeof key !== "string" || key in target || PROBED.has(key) ? Reflect.get(target, key) : () => notStubbed(key)
  }) as SessionService

/** What a stub answers without being told (a session nobody launched), and the members that are effects rather than methods. */
const unimplemented: Partial<SessionService> = {
  current: Effect.succeed(Option.none()),
  cleanup: notStubbed("cleanup"),
  // Nothing known about the target: the answer a page that cannot say gives.
  describe: () => Effect.succeed(undefined),
  affordances: Effect.succeed({ upload: false, drag: false, check: false, scroll: false }),
  tabs: notStubbed("tabs"),
  tabCount: Effect.succeed(1),
  browserEnded: Effect.succeed(false),
  extension: notStubbed("extension"),
  takeNotices: Effect.succeed([]),
  consoleCursor: Effect.succeed(0),
  consoleSince: () => Effect.succeed([]),
  downloadCursor: Effect.succeed(0),
  downloadsSince: () => Effect.succeed([]),
  debuggerPaused: Effect.succeed(Option.none()),
  debuggerUnreportedPause: Effect.succeed(Option.none()),
  onPauseChange: () => Effect.succeed(() => undefined),
  debuggerStatus: notStubbed("debuggerStatus"),
  clearMocks: notStubbed("clearMocks")
}
