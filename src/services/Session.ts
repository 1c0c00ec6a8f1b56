// The browser port tools require: one Session tag whose service is the sum of small ports, one per
// concern (lifecycle, actions, interactions, navigation, screenshots, storage, tabs, extension, records, debugger, devtools) in ./session/.
import { Context, Effect, Layer, Option } from "effect"
import type { SessionActions } from "./session/actions.js"
import type { SessionDebugger } from "./session/debugger.js"
import type { SessionDevtools } from "./session/devtools.js"
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
  SessionDevtools

export class Session extends Context.Tag("browser-workflow-mcp/Session")<Session, SessionService>() {
  /** A session stub for tests: every method dies loudly unless overridden. */
  static readonly layerTest = (overrides: Partial<SessionService>) =>
    Layer.succeed(Session, { ...unimplemented, ...overrides })
}

const notStubbed = (method: string) => Effect.dieMessage(`Session.${method} is not stubbed in this test`)

const unimplemented: SessionService = {
  current: Effect.succeed(Option.none()),
  launch: () => notStubbed("launch"),
  cleanup: notStubbed("cleanup"),
  navigate: () => notStubbed("navigate"),
  // Nothing known about the target: the answer a page that cannot say gives.
  describe: () => Effect.succeed(undefined),
  click: () => notStubbed("click"),
  type: () => notStubbed("type"),
  waitForAny: () => notStubbed("waitForAny"),
  getText: () => notStubbed("getText"),
  getTexts: () => notStubbed("getTexts"),
  pressKey: () => notStubbed("pressKey"),
  selectOption: () => notStubbed("selectOption"),
  hover: () => notStubbed("hover"),
  drag: () => notStubbed("drag"),
  scroll: () => notStubbed("scroll"),
  setChecked: () => notStubbed("setChecked"),
  uploadFiles: () => notStubbed("uploadFiles"),
  waitForPage: () => notStubbed("waitForPage"),
  expect: () => notStubbed("expect"),
  savePdf: () => notStubbed("savePdf"),
  affordances: Effect.succeed({ upload: false, drag: false, check: false, scroll: false }),
  screenshot: () => notStubbed("screenshot"),
  saveStorageState: () => notStubbed("saveStorageState"),
  tabs: notStubbed("tabs"),
  tabCount: Effect.succeed(1),
  waitForNotification: () => notStubbed("waitForNotification"),
  switchTab: () => notStubbed("switchTab"),
  closeTab: () => notStubbed("closeTab"),
  extension: notStubbed("extension"),
  extensionStorage: () => notStubbed("extensionStorage"),
  takeNotices: Effect.succeed([]),
  consoleCursor: Effect.succeed(0),
  consoleSince: () => Effect.succeed([]),
  debuggerPaused: Effect.succeed(Option.none()),
  debuggerUnreportedPause: Effect.succeed(Option.none()),
  onPauseChange: () => Effect.succeed(() => undefined),
  debuggerStatus: notStubbed("debuggerStatus"),
  debuggerConfigure: () => notStubbed("debuggerConfigure"),
  debuggerRun: () => notStubbed("debuggerRun"),
  debuggerEvaluate: () => notStubbed("debuggerEvaluate"),
  setBreakpoint: () => notStubbed("setBreakpoint"),
  removeBreakpoint: () => notStubbed("removeBreakpoint"),
  consoleMessages: () => notStubbed("consoleMessages"),
  networkRequests: () => notStubbed("networkRequests"),
  networkRequest: () => notStubbed("networkRequest"),
  addMock: () => notStubbed("addMock"),
  removeMock: () => notStubbed("removeMock"),
  clearMocks: notStubbed("clearMocks"),
  mocks: () => notStubbed("mocks"),
  evaluate: () => notStubbed("evaluate")
}
