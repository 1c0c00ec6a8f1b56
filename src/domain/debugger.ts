// What the JavaScript debugger answers: the context of a pause, breakpoints, and values evaluated on a
// paused frame. Lines and columns are 1-based and those of the script the browser runs (no source maps).
import { Schema } from "effect"

export const PauseOnExceptions = Schema.Literal("none", "uncaught", "all")
export type PauseOnExceptions = typeof PauseOnExceptions.Type

export const SourceLocation = Schema.Struct({
  url: Schema.String.annotations({ description: "The script's URL (an inline script has its page's URL)." }),
  line: Schema.Number.annotations({ description: "1-based line in that script as the browser runs it." }),
  column: Schema.Number.annotations({ description: "1-based column." }),
  function: Schema.String.annotations({ description: 'The function, or "(anonymous)".' }),
  sourceMapped: Schema.optional(Schema.Boolean).annotations({
    description: "The script names a source map: line and column are of the generated script, not of your sources."
  })
})
export type SourceLocation = typeof SourceLocation.Type

/** Frames listed in a pause context; the rest are counted. */
export const PAUSE_FRAMES = 5
/** Local variables listed in a pause context; the rest are counted. */
export const PAUSE_LOCALS = 25
/** Characters of one variable's value in a pause context. */
export const LOCAL_VALUE_CHARS = 100
/** Console messages in a pause context (the newest of the paused tab). */
export const PAUSE_CONSOLE = 3

export const PauseContext = Schema.Struct({
  tabId: Schema.String.annotations({ description: "The paused tab." }),
  reason: Schema.String.annotations({
    description: 'Why it paused: "breakpoint", "step", "exception", "promiseRejection", "debugger" (a debugger; statement), "pause" (asked for), or the browser\'s own reason.'
  }),
  breakpoint: Schema.optional(Schema.String).annotations({ description: "The breakpoint hit, e.g. bp1." }),
  location: SourceLocation,
  frames: Schema.Array(Schema.String).annotations({
    description: `The top ${PAUSE_FRAMES} frames, innermost first, as "function url:line:column"; the index is evaluate_frame's frameIndex.`
  }),
  moreFrames: Schema.optional(Schema.Number).annotations({ description: "Frames below those listed." }),
  locals: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.String })).annotations({
    description: `The top frame's local variables, each value cut at ${LOCAL_VALUE_CHARS} characters.`
  }),
  moreLocals: Schema.optional(Schema.Number).annotations({ description: "Local variables not listed." }),
  changed: Schema.optional(Schema.Array(Schema.String)).annotations({
    description: "Locals whose value changed since the previous pause in the same function."
  }),
  exception: Schema.optional(Schema.String).annotations({ description: "The exception paused on, cut." }),
  console: Schema.optional(Schema.Array(Schema.String)).annotations({
    description: `The paused tab's last ${PAUSE_CONSOLE} console messages, as "type: text".`
  }),
  otherPausedTabs: Schema.optional(Schema.Array(Schema.String)).annotations({ description: "Other tabs paused at the same time." })
})
export type PauseContext = typeof PauseContext.Type

export const BreakpointLocation = Schema.Struct({ url: Schema.String, line: Schema.Number, column: Schema.Number })
export type BreakpointLocation = typeof BreakpointLocation.Type

export const BreakpointInfo = Schema.Struct({
  id: Schema.String.annotations({ description: "Our id, e.g. bp1: pass it to remove." }),
  url: Schema.optional(Schema.String),
  urlRegex: Schema.optional(Schema.String),
  line: Schema.Number,
  column: Schema.optional(Schema.Number),
  condition: Schema.optional(Schema.String),
  resolved: Schema.Array(BreakpointLocation).annotations({
    description: "Where it is bound in the scripts loaded now (empty until a matching script loads; it binds then)."
  })
})
export type BreakpointInfo = typeof BreakpointInfo.Type

/** What a breakpoint is set on: a URL (or a regex over URLs), a 1-based line, optionally a column and a condition. */
export interface BreakpointSpec {
  readonly url?: string | undefined
  readonly urlRegex?: string | undefined
  readonly line: number
  readonly column?: number | undefined
  readonly condition?: string | undefined
}

/** Characters of an evaluated value's JSON (or description) in an answer. */
export const EVALUATE_CHARS = 2_000

export const EvaluatedValue = Schema.Struct({
  type: Schema.String.annotations({ description: 'JavaScript type: "number", "string", "object", "undefined"...' }),
  value: Schema.optional(Schema.Unknown).annotations({ description: "The value as JSON, when it fits." }),
  text: Schema.optional(Schema.String).annotations({
    description: `A value that is not JSON (a function, a DOM node) as the console shows it, or JSON longer than ${EVALUATE_CHARS} characters, cut.`
  }),
  truncated: Schema.optional(Schema.Boolean),
  exception: Schema.optional(Schema.String).annotations({ description: "The expression threw this." })
})
export type EvaluatedValue = typeof EvaluatedValue.Type
