// The debugger's values and their transitions as pure functions: scripts seen per tab, breakpoints,
// pauses (one per tab, newest last), and how a pause reads (location, frames, locals, what changed).
import type { Page } from "playwright"
import {
  LOCAL_VALUE_CHARS,
  PAUSE_CONSOLE,
  PAUSE_FRAMES,
  PAUSE_LOCALS,
  type BreakpointLocation,
  type BreakpointSpec,
  type PauseContext,
  type PauseOnExceptions,
  type SourceLocation
} from "../../../domain/debugger.js"
import { escapeRegex } from "../../../domain/text.js"

// ---- what DevTools sends (the parts we read) ---------------------------------------------------

export interface RemoteValue {
  readonly type: string
  readonly subtype?: string | undefined
  readonly className?: string | undefined
  readonly value?: unknown
  readonly unserializableValue?: string | undefined
  readonly description?: string | undefined
  readonly objectId?: string | undefined
  readonly preview?:
    | {
        readonly subtype?: string | undefined
        readonly overflow?: boolean | undefined
        readonly properties: ReadonlyArray<{ readonly name: string; readonly type: string; readonly value?: string | undefined; readonly subtype?: string | undefined }>
      }
    | undefined
}

export interface ProtocolLocation {
  readonly scriptId: string
  readonly lineNumber: number
  readonly columnNumber?: number | undefined
}

export interface CallFrame {
  readonly callFrameId: string
  readonly functionName: string
  readonly location: ProtocolLocation
  readonly functionLocation?: ProtocolLocation | undefined
  readonly scopeChain: ReadonlyArray<{ readonly type: string; readonly object: RemoteValue }>
}

export interface PausedEvent {
  readonly callFrames: ReadonlyArray<CallFrame>
  readonly reason: string
  readonly data?: unknown
  readonly hitBreakpoints?: ReadonlyArray<string> | undefined
}

// ---- scripts ----------------------------------------------------------------------------------

/** What a frame's location needs from its script. Only page scripts with a URL are kept. */
export interface ScriptFacts {
  readonly url: string
  readonly sourceMapped: boolean
}

/** Scripts kept per tab; past it the older half goes (they belong to documents long gone, usually). */
export const SCRIPTS_PER_TAB = 2_000

/**
 * A parsed script worth remembering: one of the page's own (its main world) with a URL. Scripts
 * without one are evaluations (ours, Playwright's) and are ignored by the debugger (skipAnonymous).
 */
export const scriptFactsOf = (event: {
  readonly url: string
  readonly sourceMapURL?: string | undefined
  readonly executionContextAuxData?: unknown
}): ScriptFacts | undefined => {
  if (event.url === "") return undefined
  const aux = event.executionContextAuxData as { readonly isDefault?: boolean } | undefined
  if (aux !== undefined && aux.isDefault === false) return undefined
  return { url: event.url, sourceMapped: event.sourceMapURL !== undefined && event.sourceMapURL !== "" }
}

export const scriptAdded = (
  scripts: ReadonlyMap<string, ScriptFacts>,
  scriptId: string,
  facts: ScriptFacts
): ReadonlyMap<string, ScriptFacts> => {
  const entries = [...scripts, [scriptId, facts] as const]
  return new Map(entries.length > SCRIPTS_PER_TAB ? entries.slice(entries.length - SCRIPTS_PER_TAB / 2) : entries)
}

// ---- frames and locations ---------------------------------------------------------------------

/** A frame in our terms: 1-based line and column, the script's URL ("" for an evaluation). */
export interface Frame {
  readonly function: string
  readonly url: string
  readonly line: number
  readonly column: number
  readonly sourceMapped: boolean
}

export const frameOf = (frame: CallFrame, scripts: ReadonlyMap<string, ScriptFacts>): Frame => {
  const script = scripts.get(frame.location.scriptId)
  return {
    function: frame.functionName === "" ? "(anonymous)" : frame.functionName,
    url: script?.url ?? "",
    line: frame.location.lineNumber + 1,
    column: (frame.location.columnNumber ?? 0) + 1,
    sourceMapped: script?.sourceMapped ?? false
  }
}

/** A URL as a frame names it: its last path segment ("app.js"), else its host. */
export const shortUrl = (url: string): string => {
  if (url === "") return "(evaluated script)"
  const parsed = URL.canParse(url) ? new URL(url) : undefined
  if (parsed === undefined) return url.slice(0, 100)
  const segment = parsed.pathname.split("/").filter((part) => part !== "").at(-1)
  return segment ?? (parsed.host === "" ? url.slice(0, 100) : parsed.host)
}

export const describeFrame = (frame: Frame): string => `${frame.function} ${shortUrl(frame.url)}:${frame.line}:${frame.column}`

/** "app.js:4:3 in handler": where a pause is, in one line. */
export const atText = (frame: Frame): string => `${shortUrl(frame.url)}:${frame.line}:${frame.column} in ${frame.function}`

export const locationOf = (frame: Frame): SourceLocation => ({
  url: frame.url,
  line: frame.line,
  column: frame.column,
  function: frame.function,
  ...(frame.sourceMapped ? { sourceMapped: true } : {})
})

/** Identifies the function a frame runs, so locals are compared only between pauses in the same one. */
export const frameKeyOf = (frame: CallFrame): string => {
  const start = frame.functionLocation ?? frame.location
  return `${start.scriptId}:${frame.functionLocation === undefined ? "?" : `${start.lineNumber}:${start.columnNumber ?? 0}`}:${frame.functionName}`
}

// ---- breakpoints ------------------------------------------------------------------------------

export interface BoundBreakpoint {
  /** The id DevTools gave it in this tab's session. */
  readonly protocolId: string
  readonly locations: ReadonlyArray<BreakpointLocation>
}

export interface BreakpointEntry {
  readonly id: string
  readonly spec: BreakpointSpec
  readonly bound: ReadonlyMap<Page, BoundBreakpoint>
}

/**
 * What DevTools matches script URLs with: the URL as given when it is absolute, else a regex for any
 * URL ending with that path ("app.js", "/static/app.js"), with or without a query.
 */
export const protocolTarget = (spec: BreakpointSpec): { readonly url: string } | { readonly urlRegex: string } => {
  if (spec.urlRegex !== undefined) return { urlRegex: spec.urlRegex }
  const url = spec.url ?? ""
  if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return { url }
  const path = url.replace(/^\.?\//, "")
  return { urlRegex: `(^|/)${escapeRegex(path)}([?#].*)?$` }
}

/** Which of our breakpoints a pause hit, by the ids DevTools reports for the tab. */
export const ourBreakpoint = (
  breakpoints: ReadonlyArray<BreakpointEntry>,
  page: Page,
  hit: ReadonlyArray<string> | undefined
): string | undefined =>
  hit === undefined || hit.length === 0
    ? undefined
    : breakpoints.find((entry) => {
        const bound = entry.bound.get(page)
        return bound !== undefined && hit.includes(bound.protocolId)
      })?.id

// ---- pauses -----------------------------------------------------------------------------------

export interface Pause {
  /** Increases with every pause of the session. */
  readonly seq: number
  readonly page: Page
  readonly tabId: string
  readonly event: PausedEvent
  /** Every frame, innermost first, with the URLs known when it paused. */
  readonly frames: ReadonlyArray<Frame>
  readonly reason: string
  readonly breakpoint: string | undefined
  /** Reported to the agent by the call that saw it (else a notice tells of it). */
  readonly context?: PauseContext | undefined
}

export interface DebuggerSessionState {
  readonly enabled: boolean
  readonly pauseOnExceptions: PauseOnExceptions
  readonly breakpoints: ReadonlyArray<BreakpointEntry>
  readonly nextBreakpoint: number
  /** Paused tabs, oldest first; the newest is the one the stepping tools act on. */
  readonly pauses: ReadonlyArray<Pause>
  readonly seq: number
  /** Tabs where a pause was asked for and has not come yet. */
  readonly pauseRequested: ReadonlySet<Page>
  /** The locals of the last pause whose context was read, for the `changed` marks. */
  readonly lastLocals: { readonly frameKey: string; readonly values: ReadonlyMap<string, string> } | undefined
}

export const initialDebugger: DebuggerSessionState = {
  enabled: false,
  pauseOnExceptions: "none",
  breakpoints: [],
  nextBreakpoint: 1,
  pauses: [],
  seq: 0,
  pauseRequested: new Set(),
  lastLocals: undefined
}

/** Why it paused, in our words: a breakpoint of ours, a step, an exception, a pause asked for, a debugger; statement. */
export const reasonOf = (event: PausedEvent, requested: boolean, breakpoint: string | undefined): string => {
  if (breakpoint !== undefined || (event.hitBreakpoints !== undefined && event.hitBreakpoints.length > 0)) return "breakpoint"
  if (event.reason === "other") return requested ? "pause" : "debugger"
  return event.reason
}

export const newestPause = (state: DebuggerSessionState): Pause | undefined => state.pauses.at(-1)

/** A tab paused: it becomes the newest pause (replacing an older one of the same tab). */
export const pausedIn = (
  state: DebuggerSessionState,
  page: Page,
  tabId: string,
  event: PausedEvent,
  scripts: ReadonlyMap<string, ScriptFacts>
): { readonly state: DebuggerSessionState; readonly pause: Pause } => {
  const seq = state.seq + 1
  const breakpoint = ourBreakpoint(state.breakpoints, page, event.hitBreakpoints)
  const requested = state.pauseRequested.has(page)
  const pause: Pause = {
    seq,
    page,
    tabId,
    event,
    frames: event.callFrames.map((frame) => frameOf(frame, scripts)),
    reason: reasonOf(event, requested, breakpoint),
    breakpoint
  }
  const pauseRequested = new Set(state.pauseRequested)
  pauseRequested.delete(page)
  return {
    state: { ...state, seq, pauses: [...state.pauses.filter((other) => other.page !== page), pause], pauseRequested },
    pause
  }
}

/** A tab runs again (resumed, stepped, navigated away, closed): its pause is over. */
export const resumedIn = (state: DebuggerSessionState, page: Page): DebuggerSessionState =>
  state.pauses.some((pause) => pause.page === page) ? { ...state, pauses: state.pauses.filter((pause) => pause.page !== page) } : state

/** Keeps a pause's context once read, so the same pause reads the same way (and `changed` is not lost). */
export const withContext = (state: DebuggerSessionState, seq: number, context: PauseContext): DebuggerSessionState => ({
  ...state,
  pauses: state.pauses.map((pause) => (pause.seq === seq ? { ...pause, context } : pause))
})

// ---- how a pause reads ------------------------------------------------------------------------

export const cut = (text: string, limit: number): string => (text.length <= limit ? text : `${text.slice(0, limit - 1)}…`)

const firstLineOf = (text: string) => text.split("\n")[0] ?? ""

/** A value as one short line, as the DevTools console previews it (strings quoted). */
export const previewOf = (value: RemoteValue | undefined): string => {
  if (value === undefined) return "undefined"
  if (value.type === "string") return JSON.stringify(value.value)
  if (value.type === "undefined") return "undefined"
  if (value.unserializableValue !== undefined) return value.unserializableValue
  if (value.type === "function") return `ƒ ${firstLineOf(value.description ?? "").replace(/^(async\s+)?function\s*/, "$1").replace(/\s*\{.*$/, "")}`
  if (value.type !== "object") return value.description ?? String(value.value)
  if (value.subtype === "null") return "null"
  if (value.subtype === "error") return firstLineOf(value.description ?? "Error")
  const preview = value.preview
  if (preview === undefined || (preview.properties.length === 0 && preview.overflow !== true && value.subtype !== "array")) {
    return value.description ?? value.className ?? "Object"
  }
  const shown = (property: { readonly type: string; readonly value?: string | undefined; readonly subtype?: string | undefined }) =>
    property.type === "string" ? JSON.stringify(property.value ?? "") : (property.value ?? property.type)
  const more = preview.overflow === true ? ", …" : ""
  if (value.subtype === "array") return `[${preview.properties.map(shown).join(", ")}${more}]`
  const label = value.className !== undefined && value.className !== "Object" ? `${value.className} ` : ""
  return `${label}{${preview.properties.map((property) => `${property.name}: ${shown(property)}`).join(", ")}${more}}`
}

/** The names whose value differs from the previous pause's, when both are in the same function. */
export const changedLocals = (
  previous: DebuggerSessionState["lastLocals"],
  frameKey: string,
  values: ReadonlyMap<string, string>
): ReadonlyArray<string> => {
  if (previous === undefined || previous.frameKey !== frameKey) return []
  return [...values].filter(([name, value]) => previous.values.has(name) && previous.values.get(name) !== value).map(([name]) => name)
}

/** Scopes whose variables count as the frame's locals: from the innermost to the function's own. */
export const LOCAL_SCOPES: ReadonlySet<string> = new Set(["block", "catch", "local"])

export interface ContextParts {
  readonly pause: Pause
  readonly locals: ReadonlyArray<readonly [string, string]>
  readonly totalLocals: number
  readonly changed: ReadonlyArray<string>
  readonly console: ReadonlyArray<{ readonly type: string; readonly text: string }>
  readonly otherPausedTabs: ReadonlyArray<string>
}

/** Characters of an exception's text in a pause context. */
export const EXCEPTION_CHARS = 500
/** Characters of one console message in a pause context. */
export const CONSOLE_CHARS = 200

/** A pause's context, from its parts; empty fields are left out. */
export const pauseContextOf = (parts: ContextParts): PauseContext => {
  const { pause } = parts
  const top = pause.frames[0]
  const exception = pause.reason === "exception" || pause.reason === "promiseRejection" ? exceptionText(pause.event.data) : undefined
  const console = parts.console.slice(-PAUSE_CONSOLE).map((message) => cut(`${message.type}: ${message.text}`, CONSOLE_CHARS))
  return {
    tabId: pause.tabId,
    reason: pause.reason,
    ...(pause.breakpoint !== undefined ? { breakpoint: pause.breakpoint } : {}),
    location: top === undefined ? { url: "", line: 0, column: 0, function: "(no frame)" } : locationOf(top),
    frames: pause.frames.slice(0, PAUSE_FRAMES).map(describeFrame),
    ...(pause.frames.length > PAUSE_FRAMES ? { moreFrames: pause.frames.length - PAUSE_FRAMES } : {}),
    ...(parts.locals.length > 0 ? { locals: Object.fromEntries(parts.locals.slice(0, PAUSE_LOCALS)) } : {}),
    ...(parts.totalLocals > PAUSE_LOCALS ? { moreLocals: parts.totalLocals - PAUSE_LOCALS } : {}),
    ...(parts.changed.length > 0 ? { changed: parts.changed } : {}),
    ...(exception !== undefined ? { exception } : {}),
    ...(console.length > 0 ? { console } : {}),
    ...(parts.otherPausedTabs.length > 0 ? { otherPausedTabs: parts.otherPausedTabs } : {})
  }
}

const exceptionText = (data: unknown): string | undefined => {
  if (typeof data !== "object" || data === null) return undefined
  const value = data as RemoteValue & { readonly uncaught?: boolean }
  const text = value.type === "object" && value.subtype === "error" ? (value.description ?? "Error") : previewOf(value)
  return cut(`${value.uncaught === false ? "caught: " : ""}${text}`, EXCEPTION_CHARS)
}

/** A variable's value as listed: its preview cut at LOCAL_VALUE_CHARS. */
export const localValue = (value: RemoteValue | undefined): string => cut(previewOf(value), LOCAL_VALUE_CHARS)
