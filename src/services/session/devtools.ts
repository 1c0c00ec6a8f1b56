// Diagnostics and network of the session's tabs (docs/devtools.md): the console with uncaught errors
// and their stacks, the requests with their details, mocks that answer requests, and evaluating an
// expression in the active page. Everything kept is bounded and says how much it let go.
import type { Effect } from "effect"
import type { DeadlineExceeded, DebuggerPaused, DiscoveryFailed, EvaluateFailed, InvalidInput, MockNotFound, PageClosed, RequestNotFound, TabNotFound } from "../../domain/errors.js"
import type { SessionGone } from "./actions.js"

/** The opt-in group of the console, network and mock tools. */
export const DEVTOOLS_GROUP = "devtools"

/** The opt-in group of mm_evaluate: running arbitrary code in the page is off unless asked for. */
export const EVALUATE_GROUP = "evaluate"

/** True when the settings serve the devtools group (`--caps devtools`, `--caps all`, or the fixed list). */
export const devtoolsEnabled = (settings: { readonly caps: ReadonlyArray<string>; readonly staticTools: boolean }): boolean =>
  settings.staticTools || settings.caps.includes(DEVTOOLS_GROUP) || settings.caps.includes("all")

/** The least severe level shown: `error` shows errors only, `warning` also warnings, `info` all but debug, `debug` and `all` everything. */
export type ConsoleLevel = "error" | "warning" | "info" | "debug" | "all"

export interface ConsoleQuery {
  readonly level: ConsoleLevel
  /** Since the tab's last navigation (the default), or all the tab kept. */
  readonly since: "navigation" | "all"
  /** The tab; the active one without it. */
  readonly tabId?: string | undefined
  /** The newest this many. */
  readonly limit: number
}

export interface ConsoleRecord {
  /** When the session heard it (ms since the epoch). */
  readonly time: number
  /** The console method ("log", "warning", "error"...) or "pageerror" for an uncaught exception. */
  readonly type: string
  readonly text: string
  /** An uncaught error's first frames. */
  readonly stack?: string | undefined
}

export interface ConsoleReading {
  readonly tabId: string
  /** The tab's URL now. */
  readonly url: string
  /** Oldest first. */
  readonly messages: ReadonlyArray<ConsoleRecord>
  /** Messages of the period that the tab's ring let go. */
  readonly dropped: number
  /** Older messages of the period that match but are beyond the limit. */
  readonly more: number
}

export interface NetworkQuery {
  readonly urlPattern?: string | undefined
  readonly method?: string | undefined
  readonly status?: number | undefined
  readonly failedOnly?: boolean | undefined
  readonly tabId?: string | undefined
  readonly limit: number
}

export interface RequestSummary {
  /** "r12": pass it to network_request. */
  readonly id: string
  readonly method: string
  readonly url: string
  /** Playwright's resource type: document, script, fetch, xhr, image... */
  readonly type: string
  readonly status?: number | undefined
  /** Why it got no response, e.g. "net::ERR_CONNECTION_REFUSED". */
  readonly failure?: string | undefined
  /** From start to finish, as the session saw it. */
  readonly ms?: number | undefined
  /** A mock of mm_mock_network answered it. */
  readonly mocked?: boolean | undefined
}

export interface NetworkReading {
  readonly tabId: string
  /** Oldest first. */
  readonly requests: ReadonlyArray<RequestSummary>
  readonly dropped: number
  readonly more: number
  /** Set when the capture started with this call: earlier requests were not seen. */
  readonly startedNow?: boolean | undefined
}

export interface RequestTiming {
  readonly dnsMs?: number | undefined
  readonly connectMs?: number | undefined
  /** From sending the request to the first byte of the response. */
  readonly waitMs?: number | undefined
  readonly downloadMs?: number | undefined
  readonly totalMs?: number | undefined
}

export interface RequestDetails extends RequestSummary {
  readonly tabId: string
  readonly statusText?: string | undefined
  /** Secret headers (Authorization, Cookie, Set-Cookie, tokens...) read [REDACTED]. */
  readonly requestHeaders: Readonly<Record<string, string>>
  readonly responseHeaders?: Readonly<Record<string, string>> | undefined
  /** Text bodies only, cut to the asked size; values of sensitive keys (JSON, form fields) redacted. */
  readonly requestBody?: string | undefined
  readonly responseBody?: string | undefined
  readonly timing?: RequestTiming | undefined
  /** It has not finished yet. */
  readonly pending?: boolean | undefined
  /** What could not be shown and why (a binary body, one the browser let go). */
  readonly notes?: ReadonlyArray<string> | undefined
}

/** What a mock rule answers. */
export interface MockRule {
  /** A URL glob as Playwright's route takes it (`*` stops at "/", `**` does not). */
  readonly url: string
  /** Only requests of this method; any without it. */
  readonly method?: string | undefined
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  readonly contentType?: string | undefined
  /** Fail the request (as a network error) instead of answering it. */
  readonly abort: boolean
}

export interface MockRuleInfo {
  /** "m3": pass it to remove. */
  readonly id: string
  readonly url: string
  readonly method?: string | undefined
  readonly status?: number | undefined
  readonly abort?: boolean | undefined
  readonly bodyBytes?: number | undefined
  /** Requests it answered. */
  readonly hits: number
}

export interface MockLogEntry {
  readonly time: number
  /** The rule that answered it; none for a miss. */
  readonly rule?: string | undefined
  /** A rule matched but the URL policy blocks the URL: the mock did not answer it. */
  readonly blocked?: boolean | undefined
  readonly method: string
  readonly url: string
  readonly type: string
  /** The request's id in network_requests, when the capture saw it. */
  readonly request?: string | undefined
}

export interface MockReading {
  readonly rules: ReadonlyArray<MockRuleInfo>
  /** Hits and misses, oldest first. */
  readonly log: ReadonlyArray<MockLogEntry>
  /** Log entries let go. */
  readonly dropped: number
  /** Older entries kept but beyond the limit. */
  readonly more: number
}

export interface EvaluateOptions {
  /** Most characters of the JSON result. */
  readonly maxChars: number
  /** Synchronous code running longer than this is terminated (a promise is bounded by the call's deadline). */
  readonly timeoutMs?: number | undefined
}

export interface EvaluateResult {
  /** typeof the result, "null", "array", or the class of a DOM node or other object. */
  readonly type: string
  /** The result as JSON, within the caps; absent for undefined. */
  readonly value?: unknown
  /** Something was cut (depth, length, size); the cut places say what was left out. */
  readonly cut?: boolean | undefined
}

/** The active page's load and paint timing, in ms from the start of the navigation that made its document. */
export interface PageTiming {
  readonly url: string
  /** The navigation (PerformanceNavigationTiming); absent for a document no navigation made (about:blank). */
  readonly navigation?: {
    /** navigate, reload, back_forward or prerender. */
    readonly type: string
    /** The first byte of the response. */
    readonly responseStart: number
    readonly domContentLoaded: number
    /** The load event's end; absent while the page still loads. */
    readonly load?: number
    /** Bytes of the document over the network (0 from the cache). */
    readonly transferBytes: number
  }
  readonly firstPaint?: number
  readonly firstContentfulPaint?: number
  /** The resources the document loaded so far (the browser keeps at most its buffer's 250 by default). */
  readonly resources: { readonly count: number; readonly transferBytes: number }
}

export interface SessionDevtools {
  /** One tab's console messages and uncaught errors, oldest first. */
  readonly consoleMessages: (query: ConsoleQuery) => Effect.Effect<ConsoleReading, SessionGone | TabNotFound | PageClosed>
  /** One tab's requests, oldest first; starts the capture when it was off. */
  readonly networkRequests: (query: NetworkQuery) => Effect.Effect<NetworkReading, SessionGone | TabNotFound | PageClosed>
  /** One request's details, read from the browser now. */
  readonly networkRequest: (id: string, options: { readonly bodyChars: number }) => Effect.Effect<RequestDetails, SessionGone | RequestNotFound>
  /** Adds a rule for every tab; the newest matching rule answers. */
  readonly addMock: (rule: MockRule) => Effect.Effect<MockRuleInfo, SessionGone | InvalidInput>
  readonly removeMock: (id: string) => Effect.Effect<MockRuleInfo, SessionGone | MockNotFound>
  /** Removes every rule; answers how many there were. */
  readonly clearMocks: Effect.Effect<number, SessionGone>
  /** The rules in force and the newest `limit` entries of the log. */
  readonly mocks: (limit: number) => Effect.Effect<MockReading, SessionGone>
  /** Evaluates an expression in the active page's main world. */
  readonly evaluate: (expression: string, options: EvaluateOptions) => Effect.Effect<EvaluateResult, SessionGone | PageClosed | EvaluateFailed | DeadlineExceeded | DebuggerPaused>
  /** The active page's load and paint timing, read from its Performance API. */
  readonly pageTiming: () => Effect.Effect<PageTiming, SessionGone | PageClosed | DiscoveryFailed>
}
