// Every error a client can see: one tagged class per classification, each carrying its MM_* code
// and a message that tells the agent how to recover.
import { Schema } from "effect"
import { PauseContext } from "./debugger.js"
import { cutAtWord } from "./text.js"

/** At most this many characters of a value an agent or a page gave appear in a message. */
export const ECHO_LIMIT = 120

/** The longest page URL an answer shows (a page can make its own URL a megabyte long). */
export const URL_LIMIT = 2_048

/**
 * A value as it may appear in a message: whole when short, else its first `limit` characters and how
 * long it was. A message never carries more than a short prefix of what an agent or a page sent.
 */
export const clip = (value: string, limit = ECHO_LIMIT): string =>
  value.length <= limit ? value : `${value.slice(0, limit)}... (${value.length} characters)`

/**
 * A message as another answer quotes it: whole (messages are short sentences), and only a genuinely huge
 * one cut at a word boundary before `limit` characters.
 */
export const clipMessage = (value: string, limit = 500): string => {
  return value.length <= limit ? value : `${cutAtWord(value, limit).trimEnd()}… (${value.length} characters)`
}

/** A page's URL as an answer shows it: whole up to URL_LIMIT characters. */
export const shownUrl = (url: string): string => clip(url, URL_LIMIT)

/** The wire shape of an error inside the response envelope. */
export interface ErrorInfo {
  readonly code: string
  readonly message: string
  readonly details?: Readonly<Record<string, unknown>>
}

export class InvalidInput extends Schema.TaggedError<InvalidInput>()("InvalidInput", {
  field: Schema.String,
  problem: Schema.String,
  issues: Schema.optional(Schema.Array(Schema.Struct({ field: Schema.String, problem: Schema.String })))
}) {
  get code() {
    return "MM_INVALID_INPUT" as const
  }
  override get message() {
    return this.field === ""
      ? `Invalid input: ${clip(this.problem, 300)}`
      : `Invalid input at "${clip(this.field)}": ${clip(this.problem, 300)}`
  }
  get details() {
    return { field: this.field, ...(this.issues && this.issues.length > 1 ? { issues: this.issues } : {}) }
  }
}

export class NoActiveSession extends Schema.TaggedError<NoActiveSession>()("NoActiveSession", {
  /** The served name of the tool that needs the session, when the gate (not the tool) refused it. */
  tool: Schema.optional(Schema.String),
  /** The served name of the launch tool, for the hint. */
  launch: Schema.optional(Schema.String)
}) {
  get code() {
    return "MM_NO_ACTIVE_SESSION" as const
  }
  override get message() {
    const launch = this.launch ?? "mm_launch"
    return this.tool === undefined ? `No active session. Call ${launch} first.` : `${this.tool} needs a running session: call ${launch} first.`
  }
}

export class SessionAlreadyRunning extends Schema.TaggedError<SessionAlreadyRunning>()("SessionAlreadyRunning", {
  sessionId: Schema.String
}) {
  get code() {
    return "MM_SESSION_ALREADY_RUNNING" as const
  }
  override get message() {
    return `Session ${this.sessionId} is already running. Call mm_cleanup first, or mm_launch with force: true to replace it.`
  }
  get details() {
    return { sessionId: this.sessionId }
  }
}

export class LaunchFailed extends Schema.TaggedError<LaunchFailed>()("LaunchFailed", {
  reason: Schema.Literal(
    "ExecutableNotFound",
    "ExtensionNotFound",
    "UnsupportedManifest",
    "InvalidManifest",
    "FixtureNotFound",
    "BrowserStartFailed",
    "AppUnreachable",
    "ConnectFailed",
    "ProfileInUse"
  ),
  detail: Schema.String
}) {
  get code() {
    return "MM_LAUNCH_FAILED" as const
  }
  override get message() {
    return `Launch failed (${this.reason}): ${this.detail}`
  }
  get details() {
    return { reason: this.reason }
  }
}

export class InvalidConfig extends Schema.TaggedError<InvalidConfig>()("InvalidConfig", {
  source: Schema.String,
  detail: Schema.String
}) {
  get code() {
    return "MM_INVALID_CONFIG" as const
  }
  override get message() {
    return `Invalid configuration in ${this.source}: ${this.detail}`
  }
}

export class PageClosed extends Schema.TaggedError<PageClosed>()("PageClosed", {
  detail: Schema.String,
  /** The action the page closed during, when it closed while one ran. */
  during: Schema.optional(Schema.Literal("click", "type", "get_text", "press_key", "select_option", "hover", "drag", "scroll", "set_checked", "upload_file"))
}) {
  get code() {
    return "MM_PAGE_CLOSED" as const
  }
  override get message() {
    return `The page closed: ${this.detail}. Call mm_get_state to see the open tabs.`
  }
}

export class NavigationFailed extends Schema.TaggedError<NavigationFailed>()("NavigationFailed", {
  url: Schema.String,
  detail: Schema.String
}) {
  get code() {
    return "MM_NAVIGATION_FAILED" as const
  }
  override get message() {
    return `Navigation to ${clip(this.url)} failed: ${clip(this.detail, 500)}`
  }
  get details() {
    return { url: this.url }
  }
}

const RefSummary = Schema.Struct({ ref: Schema.String, role: Schema.String, name: Schema.String })

export class TargetNotFound extends Schema.TaggedError<TargetNotFound>()("TargetNotFound", {
  target: Schema.String,
  detail: Schema.String,
  availableRefs: Schema.optional(Schema.Array(RefSummary))
}) {
  get code() {
    return "MM_TARGET_NOT_FOUND" as const
  }
  override get message() {
    if (this.availableRefs !== undefined) {
      const refs = this.availableRefs.map((node) => node.ref).join(", ")
      return `${this.detail} Available refs: ${refs === "" ? "(none)" : refs}. Take a new mm_accessibility_snapshot or mm_describe_screen to get current refs.`
    }
    return `${this.detail} Call mm_describe_screen to see what is on the page.`
  }
  get details() {
    return { target: this.target, ...(this.availableRefs ? { availableRefs: this.availableRefs } : {}) }
  }
}

export class TargetAmbiguous extends Schema.TaggedError<TargetAmbiguous>()("TargetAmbiguous", {
  target: Schema.String,
  count: Schema.Number
}) {
  get code() {
    return "MM_TARGET_AMBIGUOUS" as const
  }
  override get message() {
    return `${this.target} matches ${this.count} elements. Use an a11yRef from mm_accessibility_snapshot, or narrow it with "within".`
  }
  get details() {
    return { target: this.target, count: this.count }
  }
}

const Action = Schema.Literal("click", "type", "get_text", "press_key", "select_option", "hover", "drag", "scroll", "set_checked", "upload_file")
const actionCode = {
  click: { failed: "MM_CLICK_FAILED", timeout: "MM_CLICK_TIMEOUT" },
  type: { failed: "MM_TYPE_FAILED", timeout: "MM_TYPE_TIMEOUT" },
  get_text: { failed: "MM_GETTEXT_FAILED", timeout: "MM_GETTEXT_TIMEOUT" },
  press_key: { failed: "MM_PRESS_KEY_FAILED", timeout: "MM_PRESS_KEY_TIMEOUT" },
  select_option: { failed: "MM_SELECT_FAILED", timeout: "MM_SELECT_TIMEOUT" },
  hover: { failed: "MM_HOVER_FAILED", timeout: "MM_HOVER_TIMEOUT" },
  drag: { failed: "MM_DRAG_FAILED", timeout: "MM_DRAG_TIMEOUT" },
  scroll: { failed: "MM_SCROLL_FAILED", timeout: "MM_SCROLL_TIMEOUT" },
  set_checked: { failed: "MM_SET_CHECKED_FAILED", timeout: "MM_SET_CHECKED_TIMEOUT" },
  upload_file: { failed: "MM_UPLOAD_FAILED", timeout: "MM_UPLOAD_TIMEOUT" }
} as const

export class ActionTimeout extends Schema.TaggedError<ActionTimeout>()("ActionTimeout", {
  action: Action,
  target: Schema.String,
  timeoutMs: Schema.Number
}) {
  get code() {
    return actionCode[this.action].timeout
  }
  override get message() {
    return `${this.target} was found but did not become ready for ${this.action} within ${this.timeoutMs} ms (hidden, disabled, covered or moving). Check it with mm_describe_screen or raise timeoutMs.`
  }
  get details() {
    return { target: this.target, timeoutMs: this.timeoutMs }
  }
}

export class ActionFailed extends Schema.TaggedError<ActionFailed>()("ActionFailed", {
  action: Action,
  target: Schema.String,
  detail: Schema.String
}) {
  get code() {
    return actionCode[this.action].failed
  }
  override get message() {
    return `${this.action} on ${this.target} failed: ${clip(this.detail, 500)}`
  }
  get details() {
    return { target: this.target }
  }
}

export class WaitTimeout extends Schema.TaggedError<WaitTimeout>()("WaitTimeout", {
  target: Schema.String,
  state: Schema.String,
  timeoutMs: Schema.Number
}) {
  get code() {
    return "MM_WAIT_TIMEOUT" as const
  }
  override get message() {
    return `${this.target} did not become ${this.state} within ${this.timeoutMs} ms. Call mm_describe_screen to see the page, or raise timeoutMs.`
  }
  get details() {
    return { target: this.target, state: this.state, timeoutMs: this.timeoutMs }
  }
}

export class DeadlineExceeded extends Schema.TaggedError<DeadlineExceeded>()("DeadlineExceeded", {
  tool: Schema.String,
  timeoutMs: Schema.Number
}) {
  get code() {
    return "MM_TIMEOUT" as const
  }
  override get message() {
    return `${this.tool} did not finish within ${this.timeoutMs} ms and was stopped. Raise timeoutMs or check the page with mm_describe_screen.`
  }
  get details() {
    return { timeoutMs: this.timeoutMs }
  }
}

export class ScreenshotFailed extends Schema.TaggedError<ScreenshotFailed>()("ScreenshotFailed", {
  detail: Schema.String
}) {
  get code() {
    return "MM_SCREENSHOT_FAILED" as const
  }
  override get message() {
    return `Screenshot failed: ${this.detail}`
  }
}

export class DiscoveryFailed extends Schema.TaggedError<DiscoveryFailed>()("DiscoveryFailed", {
  detail: Schema.String
}) {
  get code() {
    return "MM_DISCOVERY_FAILED" as const
  }
  override get message() {
    return `Could not read the page: ${this.detail}`
  }
}

export class StateFailed extends Schema.TaggedError<StateFailed>()("StateFailed", {
  detail: Schema.String
}) {
  get code() {
    return "MM_STATE_FAILED" as const
  }
  override get message() {
    return `Could not read the browser state: ${this.detail}`
  }
}

export class KnowledgeError extends Schema.TaggedError<KnowledgeError>()("KnowledgeError", {
  detail: Schema.String
}) {
  get code() {
    return "MM_KNOWLEDGE_ERROR" as const
  }
  override get message() {
    return `Knowledge store error: ${this.detail}`
  }
}

export class TabNotFound extends Schema.TaggedError<TabNotFound>()("TabNotFound", {
  detail: Schema.String
}) {
  get code() {
    return "MM_TAB_NOT_FOUND" as const
  }
  override get message() {
    return `${this.detail} Call mm_get_state to list the open tabs.`
  }
}

export class CapabilityNotAvailable extends Schema.TaggedError<CapabilityNotAvailable>()("CapabilityNotAvailable", {
  capability: Schema.String,
  hint: Schema.String
}) {
  get code() {
    return "MM_CAPABILITY_NOT_AVAILABLE" as const
  }
  override get message() {
    return `The ${this.capability} capability is not available. ${this.hint}`
  }
  get details() {
    return { capability: this.capability }
  }
}

export class UnknownTool extends Schema.TaggedError<UnknownTool>()("UnknownTool", {
  tool: Schema.String,
  available: Schema.Array(Schema.String)
}) {
  get code() {
    return "MM_UNKNOWN_TOOL" as const
  }
  override get message() {
    return `Unknown tool: ${clip(this.tool)}. Available tools: ${this.available.join(", ")}`
  }
  get details() {
    return { tool: this.tool }
  }
}

export class BatchTimeout extends Schema.TaggedError<BatchTimeout>()("BatchTimeout", {
  batchTimeoutMs: Schema.Number,
  started: Schema.Boolean
}) {
  get code() {
    return "MM_BATCH_TIMEOUT" as const
  }
  override get message() {
    return this.started
      ? `The batch deadline (${this.batchTimeoutMs} ms) passed while this step ran; it was stopped. Raise batchTimeoutMs or split the batch.`
      : `Not run: the batch deadline (${this.batchTimeoutMs} ms) had passed. Raise batchTimeoutMs or split the batch.`
  }
  get details() {
    return { batchTimeoutMs: this.batchTimeoutMs }
  }
}

const OpenTab = Schema.Struct({ role: Schema.String, url: Schema.String })

export class NotificationTimeout extends Schema.TaggedError<NotificationTimeout>()("NotificationTimeout", {
  timeoutMs: Schema.Number,
  openTabs: Schema.Array(OpenTab)
}) {
  get code() {
    return "MM_NOTIFICATION_TIMEOUT" as const
  }
  override get message() {
    const tabs = this.openTabs.map((tab) => `${tab.url} (${tab.role})`).join(", ")
    return `No notification page appeared within ${this.timeoutMs} ms. Open tabs: ${tabs === "" ? "(none)" : tabs}. Trigger the request again, raise timeoutMs, or switch with mm_tabs {action: "switch"}.`
  }
  get details() {
    return { timeoutMs: this.timeoutMs, openTabs: this.openTabs }
  }
}

export class BuildFailed extends Schema.TaggedError<BuildFailed>()("BuildFailed", {
  reason: Schema.Literal("ExitCode", "Timeout", "StartFailed", "Failed"),
  detail: Schema.String,
  outputTail: Schema.optional(Schema.String)
}) {
  get code() {
    return "MM_BUILD_FAILED" as const
  }
  override get message() {
    return `Build failed (${this.reason}): ${this.detail}${this.outputTail ? `\nLast output:\n${this.outputTail}` : ""}`
  }
  get details() {
    return { reason: this.reason, ...(this.outputTail !== undefined ? { outputTail: this.outputTail } : {}) }
  }
}

export class SeedFailed extends Schema.TaggedError<SeedFailed>()("SeedFailed", {
  contract: Schema.String,
  detail: Schema.String
}) {
  get code() {
    return "MM_SEED_FAILED" as const
  }
  override get message() {
    return `Deploying ${this.contract} failed: ${this.detail}. Call mm_list_contracts to see what is deployed and which contracts are known.`
  }
  get details() {
    return { contract: this.contract }
  }
}

export class ContractNotFound extends Schema.TaggedError<ContractNotFound>()("ContractNotFound", {
  contract: Schema.String,
  available: Schema.Array(Schema.String)
}) {
  get code() {
    return "MM_CONTRACT_NOT_FOUND" as const
  }
  override get message() {
    return `No contract named ${this.contract}. Known: ${this.available.length === 0 ? "(none)" : this.available.join(", ")}. Deploy it with mm_seed_contract first.`
  }
  get details() {
    return { contract: this.contract, available: this.available }
  }
}

export class BrowserClosed extends Schema.TaggedError<BrowserClosed>()("BrowserClosed", {
  sessionId: Schema.String,
  /** What ended it, e.g. "the browser process exited" (crashed, killed or disconnected). */
  detail: Schema.String
}) {
  get code() {
    return "MM_BROWSER_CLOSED" as const
  }
  override get message() {
    return `The browser of session ${this.sessionId} closed (${this.detail}); the session ended and its recorded steps are kept. Call mm_launch to start a new session.`
  }
  get details() {
    return { sessionId: this.sessionId }
  }
}

/** Over Streamable HTTP: the one browser belongs to another client's session (see docs/configuration.md, --shared-browser). */
export class BrowserInUse extends Schema.TaggedError<BrowserInUse>()("BrowserInUse", {
  sessionId: Schema.String
}) {
  get code() {
    return "MM_BROWSER_IN_USE" as const
  }
  override get message() {
    return `The browser is in use by another client (session ${this.sessionId}). Try again after that client calls mm_cleanup or disconnects; knowledge tools work meanwhile.`
  }
  get details() {
    return { sessionId: this.sessionId }
  }
}

/** A tool that is not available now (an opt-in group that is off, hidden by hide_tools, no extension loaded). */
export class ToolUnavailable extends Schema.TaggedError<ToolUnavailable>()("ToolUnavailable", {
  tool: Schema.String,
  reason: Schema.Literal("group", "hidden", "extension", "static"),
  /** Why, and what makes it available, e.g. "is in group debugger, which is off: start the server with --caps debugger". */
  hint: Schema.String
}) {
  get code() {
    return "MM_TOOL_UNAVAILABLE" as const
  }
  override get message() {
    return `${this.tool} ${this.hint}`
  }
  get details() {
    return { tool: this.tool, reason: this.reason }
  }
}

/** mm_evaluate: the expression threw, or its promise rejected; the message carries the exception. */
export class EvaluateFailed extends Schema.TaggedError<EvaluateFailed>()("EvaluateFailed", {
  /** The exception as the page reported it (bounded), e.g. "TypeError: x is not a function\n    at <anonymous>:1:3". */
  exception: Schema.String
}) {
  get code() {
    return "MM_EVALUATE_FAILED" as const
  }
  override get message() {
    return `The expression threw in the page: ${this.exception}`
  }
}

/** mm_network_request: no captured request has that id (never given, or let go by its tab's ring). */
export class RequestNotFound extends Schema.TaggedError<RequestNotFound>()("RequestNotFound", {
  id: Schema.String,
  detail: Schema.String
}) {
  get code() {
    return "MM_REQUEST_NOT_FOUND" as const
  }
  override get message() {
    return `No captured request ${this.id}: ${this.detail}`
  }
  get details() {
    return { id: this.id }
  }
}

/** mm_mock_network remove: no rule has that id. */
export class MockNotFound extends Schema.TaggedError<MockNotFound>()("MockNotFound", {
  id: Schema.String,
  /** The ids of the rules in force. */
  available: Schema.Array(Schema.String)
}) {
  get code() {
    return "MM_MOCK_NOT_FOUND" as const
  }
  override get message() {
    return `No mock rule ${this.id}. Rules in force: ${this.available.length === 0 ? "none" : this.available.join(", ")}.`
  }
  get details() {
    return { id: this.id, available: this.available }
  }
}

/** How the message of an action the page paused during begins (step records keep the code and message only). */
export const PAUSED_DURING_PREFIX = "The page paused in the debugger during "

/**
 * The page's JavaScript is paused in the debugger: a call that needs it running was refused (`tool`),
 * or the call itself made it pause (`during`, with the pause's context).
 */
export class DebuggerPaused extends Schema.TaggedError<DebuggerPaused>()("DebuggerPaused", {
  /** The served name of the tool refused because the page is paused. */
  tool: Schema.optional(Schema.String),
  /** The action during which the page paused (it was delivered and completes when the page runs again). */
  during: Schema.optional(Schema.String),
  tabId: Schema.String,
  /** Where it is paused, e.g. "app.js:4:3 in handler". */
  at: Schema.String,
  pause: Schema.optional(PauseContext)
}) {
  get code() {
    return "MM_DEBUGGER_PAUSED" as const
  }
  override get message() {
    if (this.during !== undefined) {
      return `${PAUSED_DURING_PREFIX}${this.during} (tab ${this.tabId}, ${this.at}). The ${this.during} was delivered and completes when the page runs again; details.pause has the context. Continue with mm_step, mm_evaluate_frame or mm_debugger {"action": "resume"}.`
    }
    return `${this.tool ?? "This call"} cannot run while tab ${this.tabId} is paused in the debugger at ${this.at}. Call mm_debugger {"action": "resume"} or mm_step first, or leave the page with mm_navigate.`
  }
  get details() {
    return {
      tabId: this.tabId,
      ...(this.during !== undefined ? { during: this.during } : {}),
      ...(this.pause !== undefined ? { pause: this.pause } : {})
    }
  }
}

/** A stepping tool (step, evaluate_frame, resume) was called while nothing is paused. */
export class DebuggerNotPaused extends Schema.TaggedError<DebuggerNotPaused>()("DebuggerNotPaused", {
  tool: Schema.String
}) {
  get code() {
    return "MM_DEBUGGER_NOT_PAUSED" as const
  }
  override get message() {
    return `${this.tool} needs a paused page, and nothing is paused. Set a breakpoint with mm_breakpoint {"action": "set", ...} and trigger it, or call mm_debugger {"action": "pause"}.`
  }
}

/** The browser refused a debugger command (e.g. a regex it cannot parse), or its DevTools session went away. */
export class DebuggerFailed extends Schema.TaggedError<DebuggerFailed>()("DebuggerFailed", {
  action: Schema.String,
  detail: Schema.String
}) {
  get code() {
    return "MM_DEBUGGER_FAILED" as const
  }
  override get message() {
    return `The debugger could not ${this.action}: ${this.detail}`
  }
}

/** The session's storage state could not be read from the browser or written to its file. */
export class StorageStateFailed extends Schema.TaggedError<StorageStateFailed>()("StorageStateFailed", {
  detail: Schema.String
}) {
  get code() {
    return "MM_STORAGE_STATE_FAILED" as const
  }
  override get message() {
    return `Could not save the storage state: ${this.detail}`
  }
}

/** A URL the server's URL policy refuses (scheme, origin, or a file outside the allowed roots). */
export class NavigationBlocked extends Schema.TaggedError<NavigationBlocked>()("NavigationBlocked", {
  url: Schema.String,
  reason: Schema.String,
  hint: Schema.String
}) {
  get code() {
    return "MM_NAVIGATION_BLOCKED" as const
  }
  override get message() {
    return `Blocked ${this.url}: ${this.reason} ${this.hint}`
  }
  get details() {
    return { url: this.url }
  }
}

/** A web-first assertion (mm_expect) still did not hold when its time ran out: what was expected and what was there. */
export class AssertionFailed extends Schema.TaggedError<AssertionFailed>()("AssertionFailed", {
  condition: Schema.String,
  target: Schema.optional(Schema.String),
  expected: Schema.String,
  actual: Schema.String,
  timeoutMs: Schema.Number
}) {
  get code() {
    return "MM_ASSERTION_FAILED" as const
  }
  override get message() {
    const on = this.target === undefined ? "" : ` on ${this.target}`
    return `Assertion ${this.condition}${on} failed: expected ${this.expected}, got ${this.actual} (retried for ${this.timeoutMs} ms).`
  }
  get details() {
    return {
      condition: this.condition,
      ...(this.target !== undefined ? { target: this.target } : {}),
      expected: this.expected,
      actual: this.actual
    }
  }
}

/** The page could not be printed to PDF (a headed browser, a failed print, an unwritable file). */
export class PdfFailed extends Schema.TaggedError<PdfFailed>()("PdfFailed", {
  detail: Schema.String
}) {
  get code() {
    return "MM_PDF_FAILED" as const
  }
  override get message() {
    return `Could not save a PDF: ${this.detail}`
  }
}

/** The page's main thread does not answer: a script of the page runs without end (`while (true)`) or the renderer hangs. */
export class PageUnresponsive extends Schema.TaggedError<PageUnresponsive>()("PageUnresponsive", {
  /** What could not be done, e.g. "the page could not be read". */
  detail: Schema.String
}) {
  get code() {
    return "MM_PAGE_UNRESPONSIVE" as const
  }
  override get message() {
    return `The page does not respond (${this.detail}): a script of the page keeps its main thread busy. Call mm_navigate with screen "reload" (or another URL) to leave it, or mm_launch with force: true.`
  }
}

/**
 * An action's input was sent but nothing showed that it reached its target (the page went away
 * without saying, or no event of it arrived where the target is): it was not repeated, since it
 * may have taken effect elsewhere.
 */
export class ActionUnconfirmed extends Schema.TaggedError<ActionUnconfirmed>()("ActionUnconfirmed", {
  action: Schema.Literal("click", "type"),
  target: Schema.String,
  detail: Schema.String
}) {
  get code() {
    return "MM_ACTION_UNCONFIRMED" as const
  }
  override get message() {
    return `The ${this.action} on ${this.target} was sent, but ${this.detail}. It was not repeated, since it may have taken effect elsewhere: look at the page (mm_describe_screen) before acting again.`
  }
  get details() {
    return { action: this.action, target: this.target }
  }
}

/** A replay ran and one of its steps failed: the flow did not happen again. */
export class ReplayFailed extends Schema.TaggedError<ReplayFailed>()("ReplayFailed", {
  replayed: Schema.String,
  summary: Schema.Struct({
    total: Schema.Number,
    succeeded: Schema.Number,
    failed: Schema.optional(Schema.Number),
    skipped: Schema.optional(Schema.Number)
  }),
  /** The first step that failed (its index in the batch, counting a launch the replay added). */
  failed: Schema.Struct({ index: Schema.Number, tool: Schema.String, code: Schema.String, message: Schema.String })
}) {
  get code() {
    return "MM_REPLAY_FAILED" as const
  }
  override get message() {
    const { failed, summary } = this
    const notRun = summary.skipped !== undefined && summary.skipped > 0 ? `, ${summary.skipped} not run` : ""
    return `The replay of ${this.replayed} failed at step ${failed.index} (${failed.tool}, ${failed.code}): ${clipMessage(failed.message)} ${summary.succeeded} of ${summary.total} steps succeeded${notRun}.`
  }
  get details() {
    const { message: _message, ...failed } = this.failed
    return { replayed: this.replayed, summary: this.summary, failed }
  }
}

/** Every error a tool program may fail with. */
export type ToolError =
  | InvalidInput
  | NoActiveSession
  | SessionAlreadyRunning
  | LaunchFailed
  | InvalidConfig
  | PageClosed
  | NavigationFailed
  | TargetNotFound
  | TargetAmbiguous
  | ActionTimeout
  | ActionFailed
  | WaitTimeout
  | DeadlineExceeded
  | ScreenshotFailed
  | DiscoveryFailed
  | StateFailed
  | KnowledgeError
  | TabNotFound
  | CapabilityNotAvailable
  | UnknownTool
  | NotificationTimeout
  | BuildFailed
  | SeedFailed
  | ContractNotFound
  | BatchTimeout
  | BrowserClosed
  | BrowserInUse
  | ToolUnavailable
  | DebuggerPaused
  | DebuggerNotPaused
  | DebuggerFailed
  | StorageStateFailed
  | NavigationBlocked
  | AssertionFailed
  | PdfFailed
  | PageUnresponsive
  | ActionUnconfirmed
  | EvaluateFailed
  | RequestNotFound
  | MockNotFound
  | ReplayFailed

export const ToolError = Schema.Union(
  InvalidInput,
  NoActiveSession,
  SessionAlreadyRunning,
  LaunchFailed,
  InvalidConfig,
  PageClosed,
  NavigationFailed,
  TargetNotFound,
  TargetAmbiguous,
  ActionTimeout,
  ActionFailed,
  WaitTimeout,
  DeadlineExceeded,
  ScreenshotFailed,
  DiscoveryFailed,
  StateFailed,
  KnowledgeError,
  TabNotFound,
  CapabilityNotAvailable,
  UnknownTool,
  NotificationTimeout,
  BuildFailed,
  SeedFailed,
  ContractNotFound,
  BatchTimeout,
  BrowserClosed,
  BrowserInUse,
  ToolUnavailable,
  DebuggerPaused,
  DebuggerNotPaused,
  DebuggerFailed,
  StorageStateFailed,
  NavigationBlocked,
  AssertionFailed,
  PdfFailed,
  ActionUnconfirmed,
  PageUnresponsive,
  EvaluateFailed,
  RequestNotFound,
  MockNotFound,
  ReplayFailed
)

const toolErrorTags: ReadonlySet<string> = new Set(ToolError.members.map((member) => member.identifier))

/** True for values that are one of our tagged tool errors (structure, not message text). */
export const isToolError = (value: unknown): value is ToolError =>
  typeof value === "object" && value !== null && "_tag" in value && toolErrorTags.has(String(value._tag))

/** The longest message an envelope carries; what a message quotes is clipped before (see `clip`), this is the net under it. */
const MESSAGE_LIMIT = 4_000
/** The longest string inside an error's details. */
const DETAIL_LIMIT = 400

const clipDeep = (value: unknown, depth = 0): unknown => {
  if (typeof value === "string") return clip(value, DETAIL_LIMIT)
  if (depth > 4 || typeof value !== "object" || value === null) return value
  if (Array.isArray(value)) return value.slice(0, 100).map((item) => clipDeep(item, depth + 1))
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [clip(key, 100), clipDeep(item, depth + 1)]))
}

/** The envelope's error object for a tool error, never carrying more than a short prefix of any value. */
export const toErrorInfo = (error: ToolError): ErrorInfo => {
  const details = "details" in error ? error.details : undefined
  const message = clip(error.message, MESSAGE_LIMIT)
  return details === undefined
    ? { code: error.code, message }
    : { code: error.code, message, details: clipDeep(details) as Readonly<Record<string, unknown>> }
}

export const INTERNAL_ERROR_CODE = "MM_INTERNAL_ERROR"
