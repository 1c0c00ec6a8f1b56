// The one response shape every tool answers with, success or failure, and the pure pieces of its lean
// form: the page only when it changed, console errors as short lines, the observation as text.
import { Schema } from "effect"
import { Download } from "./download.js"
import type { Observation } from "./observation.js"
import { JsonValue, ScreenState } from "./observation.js"
import { renderA11y } from "./snapshot-text.js"

export const ErrorObject = Schema.Struct({
  code: Schema.String.annotations({ description: "MM_* error code." }),
  message: Schema.String.annotations({ description: "What went wrong and how to recover." }),
  details: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
})

/**
 * The active page as a response reports it (in `page` only when something in it changed since this
 * client last heard), without empty fields: no title on an untitled page, no screen when none matched.
 */
export const PageState = Schema.Struct({
  url: Schema.String.annotations({ description: "URL of the active tab." }),
  title: Schema.optional(Schema.String).annotations({ description: "Its title, when it has one." }),
  tab: Schema.optional(Schema.String).annotations({ description: "Id of the active tab (in page: when another tab became active)." }),
  screen: Schema.optional(Schema.String).annotations({ description: "Screen name by the configured rules, when one matched." }),
  loading: Schema.optional(Schema.Boolean).annotations({ description: "True while the page is still loading." }),
  app: Schema.optional(Schema.Record({ key: Schema.String, value: JsonValue })).annotations({
    description: "App fields from the StateSnapshot capability."
  })
})
export type PageState = typeof PageState.Type

export interface Envelope<A = unknown> {
  readonly ok: boolean
  readonly result?: A
  readonly error?: typeof ErrorObject.Type
  /** The file the call downloaded (saved, failed, or still in progress); `downloads` when it started several. */
  readonly download?: Download
  readonly downloads?: ReadonlyArray<Download>
  /** The active page, when it changed since this client's previous response (always in a session's first). */
  readonly page?: PageState
  /** Console errors and uncaught page errors raised since this client's previous response, bounded. */
  readonly console?: ReadonlyArray<string>
  /** Things that changed outside this call (a tab closed, a dialog was dismissed). */
  readonly notices?: ReadonlyArray<string>
  /** How long the call took, when that is news (1 s or more). */
  readonly ms?: number
  /** The page after the call as text: what changed after a success, the whole page after a failure. */
  readonly snapshot?: string
}

/** The envelope schema with `result` typed by a tool's output schema (object root for MCP outputSchema). */
export const envelopeSchema = <A, I>(result: Schema.Schema<A, I>) =>
  Schema.Struct({
    ok: Schema.Boolean.annotations({ description: "True when the tool succeeded." }),
    result: Schema.optional(result),
    error: Schema.optional(ErrorObject),
    download: Schema.optional(Download).annotations({ description: "The file the call downloaded." }),
    downloads: Schema.optional(Schema.Array(Download)).annotations({ description: "The files, when it started several." }),
    page: Schema.optional(PageState).annotations({ description: "The active page, when it changed since the previous response." }),
    console: Schema.optional(Schema.Array(Schema.String)).annotations({
      description: "Console errors and uncaught page errors since the previous response."
    }),
    notices: Schema.optional(Schema.Array(Schema.String)).annotations({
      description: "Things that changed outside this call, e.g. the active tab closed and another became active."
    }),
    ms: Schema.optional(Schema.Number).annotations({ description: "Duration of a slow call (1 s or more)." }),
    snapshot: Schema.optional(Schema.String).annotations({
      description: "The page after the call as text: what changed after a success, the whole page after a failure."
    })
  })

/** A call that took at least this long reports its duration; faster ones do not (it is noise to an agent). */
export const SLOW_CALL_MS = 1_000

/** The duration field of a response: only for slow calls. */
export const slowMs = (ms: number): { readonly ms?: number } => (ms >= SLOW_CALL_MS ? { ms: Math.round(ms) } : {})

/** The page fields of a screen state (and the active tab's id, when known). */
export const pageOf = (state: ScreenState, tabId?: string | undefined): PageState => ({
  url: state.currentUrl,
  ...(state.title !== "" ? { title: state.title } : {}),
  ...(tabId !== undefined ? { tab: tabId } : {}),
  ...(state.currentScreen !== "unknown" && state.currentScreen !== "" ? { screen: state.currentScreen } : {}),
  ...(state.isLoaded ? {} : { loading: true }),
  ...(state.app !== undefined && Object.keys(state.app).length > 0 ? { app: state.app } : {})
})

/**
 * A screen state as a tool result shows it (launch, get_state, describe_screen): the page fields, as
 * lean as `page`. The tool itself works with the full ScreenState (step records keep that).
 */
export const StateView = Schema.transform(PageState, Schema.typeSchema(ScreenState), {
  strict: true,
  decode: (page) => ({
    isLoaded: page.loading !== true,
    currentUrl: page.url,
    title: page.title ?? "",
    currentScreen: page.screen ?? "unknown",
    ...(page.tab !== undefined ? { tabId: page.tab } : {}),
    ...(page.app !== undefined ? { app: page.app } : {})
  }),
  encode: (state) => pageOf(state, state.tabId)
}).annotations({ description: "The active page: url, title?, tab, screen? (a configured screen that matched), loading? (still loading), app?." })

/**
 * A new session's first page as launch answers it: StateView without the tab, which is the session's
 * only one (its id is news once a second tab opens; the observation still tells the client which it is).
 */
export const FirstPageView = Schema.transform(PageState, Schema.typeSchema(ScreenState), {
  strict: true,
  decode: (page) => Schema.decodeSync(StateView)(page),
  encode: (state) => pageOf(state)
}).annotations({ description: "The first page: url, title?, screen? (a configured screen that matched), loading? (still loading), app?." })

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/**
 * What a response says about the page, given what the client was told last: nothing when nothing
 * changed; otherwise url and title (what an agent checks first), the tab only when it is another
 * one, and the other fields as they are now.
 */
export const pageChange = (previous: PageState | undefined, next: PageState): PageState | undefined => {
  if (previous === undefined) return next
  if (sameJson(previous, next)) return undefined
  if (next.tab === previous.tab) {
    const { tab: _tab, ...rest } = next
    return rest
  }
  return next
}

/** The console messages a response reports: errors and uncaught exceptions. */
export const isReportedConsole = (type: string) => type === "error" || type === "pageerror" || type === "assert"

/** How many console lines a response carries, and how long each may be. */
export const CONSOLE_LIMITS = { lines: 5, chars: 300 } as const

/**
 * Console errors as short lines, oldest first: "error: …" for console.error, "uncaught: …" for an
 * exception nothing caught (with `all`, every message: "log: …", "warning: …"); the page's URL when it
 * is not the active page. Past the limit, a first line counts the earlier ones left out.
 */
export const consoleLines = (
  messages: ReadonlyArray<{ readonly type: string; readonly text: string; readonly url: string }>,
  activeUrl: string | undefined,
  options: { readonly all?: boolean; readonly lines?: number } = {}
): ReadonlyArray<string> => {
  const kept = options.all === true ? messages : messages.filter((message) => isReportedConsole(message.type))
  const shown = kept.slice(-(options.lines ?? CONSOLE_LIMITS.lines))
  const lines = shown.map((message) => {
    const text = message.text.length > CONSOLE_LIMITS.chars ? `${message.text.slice(0, CONSOLE_LIMITS.chars - 1)}…` : message.text
    const where = message.url !== "" && message.url !== activeUrl ? ` (in ${message.url})` : ""
    return `${message.type === "pageerror" ? "uncaught" : message.type}: ${text}${where}`
  })
  const more = kept.length - shown.length
  const noun = options.all === true ? "message" : "error"
  return more > 0 ? [`… ${more} earlier ${noun}${more === 1 ? "" : "s"}`, ...lines] : lines
}

/**
 * An observation as the text an agent reads: the test ids that are new or changed on one line, then
 * the nodes (only what changed when the observation is changes-only; that the others are still there,
 * refs valid, the server's instructions say once) and the refs that left. A changes-only observation
 * that found nothing new says so; otherwise empty when it has neither test ids nor nodes.
 */
export const observationText = (observation: Observation): string => {
  const parts: Array<string> = []
  const testIds = observation.testIds ?? []
  if (testIds.length > 0) parts.push(`testIds: ${testIds.map((item) => item.testId).join(", ")}`)
  if (observation.a11y !== undefined) {
    const { unchanged: _unchanged, ...a11y } = observation.a11y
    const text = renderA11y(a11y).text
    if (text !== "") parts.push(text)
    else if (a11y.changesOnly === true && parts.length === 0) parts.push(NO_CHANGE)
  }
  return parts.join("\n")
}

/** The text of a changes-only observation that found nothing new. */
export const NO_CHANGE = "(no change on the page)"
