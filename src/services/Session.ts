// The browser port: launch and clean up a session, act on the active page, tabs and the loaded extension.
import { Context, Effect, Layer, Option } from "effect"
import type { StorageState } from "../domain/config.js"
import type {
  ActionFailed,
  ActionTimeout,
  InvalidConfig,
  LaunchFailed,
  NavigationFailed,
  NoActiveSession,
  NotificationTimeout,
  PageClosed,
  ScreenshotFailed,
  SessionAlreadyRunning,
  StateFailed,
  TabNotFound,
  TargetAmbiguous,
  TargetNotFound,
  WaitTimeout
} from "../domain/errors.js"
import type { ExtensionSummary, TabInfo, TabRole, Tabs } from "../domain/observation.js"
import type { Target } from "../domain/target.js"

export interface LaunchOptions {
  readonly goal?: string | undefined
  readonly flowTags: ReadonlyArray<string>
  readonly tags: ReadonlyArray<string>
  readonly stateMode: "default" | "onboarding" | "custom"
  readonly fixturePreset?: string | undefined
  readonly fixture?: StorageState | undefined
  readonly slowMo: number
  readonly force: boolean
  /** Overrides the configured extension directory for this launch. */
  readonly extensionPath?: string | undefined
}

export interface SessionInfo {
  readonly sessionId: string
  readonly startedAt: string
  readonly goal?: string | undefined
  readonly flowTags: ReadonlyArray<string>
  readonly tags: ReadonlyArray<string>
  readonly extensionId?: string | undefined
}

export interface LaunchResult {
  readonly sessionId: string
  readonly extensionId?: string | undefined
  readonly homeUrl: string
}

export type Destination =
  | { readonly screen: "home" | "settings" | "notification" | "popup" }
  /** Through the active tab's history, or the same page again. */
  | { readonly screen: "back" | "forward" | "reload" }
  | { readonly screen: "url"; readonly url: string; readonly newTab?: boolean | undefined }

/** Which tab a tab tool means: by id, role, URL prefix, or several (all must match). */
export interface TabSelector {
  readonly tabId?: string | undefined
  readonly role?: TabRole | undefined
  readonly url?: string | undefined
}

export type StorageArea = "local" | "sync" | "session"

export type ActionError = NoActiveSession | PageClosed | TargetNotFound | TargetAmbiguous | ActionTimeout | ActionFailed

export interface ScreenshotOptions {
  readonly name: string
  readonly fullPage: boolean
  readonly selector?: string | undefined
}

export interface ScreenshotFile {
  readonly path: string
  readonly width: number
  readonly height: number
  readonly base64: string
}

export interface ConsoleMessage {
  /** Playwright's console type ("log", "warning", "error", ...), or "pageerror" for an uncaught exception. */
  readonly type: string
  readonly text: string
  readonly url: string
}

export interface Timeout {
  readonly timeoutMs: number
}

/** What to do with a JavaScript dialog (alert, confirm, prompt) that an action opens. */
export interface DialogChoice {
  readonly accept: boolean
  /** The answer to a prompt() when accepting. */
  readonly promptText?: string | undefined
}

export interface ActionOptions extends Timeout {
  /** Dialogs the action opens; without it they are dismissed, and a notice says so. */
  readonly dialog?: DialogChoice | undefined
}

export interface SessionService {
  /** The running session, if any. */
  readonly current: Effect.Effect<Option.Option<SessionInfo>>
  readonly launch: (
    options: LaunchOptions
  ) => Effect.Effect<LaunchResult, LaunchFailed | SessionAlreadyRunning | InvalidConfig>
  /** Closes the browser; true when a session was running. */
  readonly cleanup: Effect.Effect<boolean>
  readonly navigate: (
    destination: Destination,
    options: Timeout
  ) => Effect.Effect<{ readonly currentUrl: string }, NavigationFailed | NoActiveSession | PageClosed | InvalidConfig>
  readonly click: (target: Target, options: ActionOptions) => Effect.Effect<{ readonly pageClosedAfterClick: boolean }, ActionError>
  /** Fills the field; `sensitive` tells whether the element looks like a secret field. */
  readonly type: (target: Target, text: string, options: ActionOptions) => Effect.Effect<{ readonly sensitive: boolean }, ActionError>
  readonly waitFor: (
    target: Target,
    state: "visible" | "hidden",
    options: Timeout
  ) => Effect.Effect<void, NoActiveSession | PageClosed | TargetNotFound | TargetAmbiguous | WaitTimeout>
  /** Rendered text, or a field's value; null for a password field. */
  readonly getText: (target: Target, options: Timeout) => Effect.Effect<string | null, ActionError>
  /**
   * Presses a key or chord (Playwright names: "Enter", "Control+A") on the target, or on whatever has
   * the focus without one; `sensitive` tells whether the focused element then looks like a secret field.
   */
  readonly pressKey: (
    target: Target | undefined,
    key: string,
    options: ActionOptions
  ) => Effect.Effect<{ readonly sensitive: boolean }, ActionError>
  /** Selects the options of a <select> whose value or label is one of `values`; gives the values now selected. */
  readonly selectOption: (
    target: Target,
    values: ReadonlyArray<string>,
    options: ActionOptions
  ) => Effect.Effect<ReadonlyArray<string>, ActionError>
  /** Moves the mouse over the target (menus and tooltips that open on hover). */
  readonly hover: (target: Target, options: ActionOptions) => Effect.Effect<void, ActionError>
  readonly screenshot: (
    options: ScreenshotOptions
  ) => Effect.Effect<ScreenshotFile, NoActiveSession | PageClosed | ScreenshotFailed | TargetNotFound>
  readonly tabs: Effect.Effect<Tabs, NoActiveSession>
  /** How many tabs are open (0 without a session); cheap, for the tool list. */
  readonly tabCount: Effect.Effect<number>
  /** Waits for a notification tab (already open or opening) and makes it active. */
  readonly waitForNotification: (options: Timeout) => Effect.Effect<TabInfo, NoActiveSession | NotificationTimeout>
  /** Makes the matching tab active (the most recently opened one when several match). */
  readonly switchTab: (selector: TabSelector) => Effect.Effect<TabInfo, NoActiveSession | TabNotFound>
  /** Closes the matching tab; never the extension home. Reports the tab tools act on afterwards. */
  readonly closeTab: (
    selector: TabSelector
  ) => Effect.Effect<{ readonly closed: TabInfo; readonly active: Tabs["active"] }, NoActiveSession | TabNotFound>
  /** The extension loaded in the session, if any. */
  readonly extension: Effect.Effect<Option.Option<ExtensionSummary>, NoActiveSession>
  /** Reads chrome.storage of the loaded extension through its service worker; all keys when keys is absent. Not redacted. */
  readonly extensionStorage: (
    area: StorageArea,
    keys: ReadonlyArray<string> | undefined
  ) => Effect.Effect<Readonly<Record<string, unknown>>, NoActiveSession | InvalidConfig | StateFailed>
  /** Messages about changes since the last call (the active tab closed, ...); reading clears them. */
  readonly takeNotices: Effect.Effect<ReadonlyArray<string>>
  /** Position after the newest console message of the session (0 without a session). */
  readonly consoleCursor: Effect.Effect<number>
  /** Console messages and uncaught page errors of every tab, logged after `cursor`. */
  readonly consoleSince: (cursor: number) => Effect.Effect<ReadonlyArray<ConsoleMessage>>
}

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
  click: () => notStubbed("click"),
  type: () => notStubbed("type"),
  waitFor: () => notStubbed("waitFor"),
  getText: () => notStubbed("getText"),
  pressKey: () => notStubbed("pressKey"),
  selectOption: () => notStubbed("selectOption"),
  hover: () => notStubbed("hover"),
  screenshot: () => notStubbed("screenshot"),
  tabs: notStubbed("tabs"),
  tabCount: Effect.succeed(1),
  waitForNotification: () => notStubbed("waitForNotification"),
  switchTab: () => notStubbed("switchTab"),
  closeTab: () => notStubbed("closeTab"),
  extension: notStubbed("extension"),
  extensionStorage: () => notStubbed("extensionStorage"),
  takeNotices: Effect.succeed([]),
  consoleCursor: Effect.succeed(0),
  consoleSince: () => Effect.succeed([])
}
