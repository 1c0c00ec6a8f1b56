// The JavaScript debugger (opt-in group "debugger", --caps debugger): debugger, breakpoint, step and
// evaluate_frame. Every pause answers with its context; while paused, the tool list is the stepping set.
import { Effect, Schema } from "effect"
import { BreakpointInfo, EvaluatedValue, PauseContext, PauseOnExceptions } from "../domain/debugger.js"
import { looksSensitive, REDACTED } from "../domain/redaction.js"
import { defineTool, type ListingState } from "../runtime/tool.js"
import { Session, type DebuggerStatus, type RunOutcome } from "../services/Session.js"

/**
 * What every debugger tool shares: its opt-in group, a session, listed while paused, no page observation.
 * A debugging session is not part of the flow: its steps never replay (a breakpoint would stop the replay).
 */
const debuggerTool = {
  group: "debugger",
  optIn: true,
  requiresSession: true,
  whilePaused: "listed",
  observation: "none",
  replay: { mode: "never" }
} as const

const changing = { readOnly: false, destructive: false, idempotent: false, openWorld: true } as const
/** Runs JavaScript of the agent's in the page (an expression, a breakpoint's condition): it may do anything mm_evaluate may. */
const runsCode = { ...changing, destructive: true } as const

/** Listed only while a tab is paused; called otherwise they answer MM_DEBUGGER_NOT_PAUSED. */
const whilePaused = (state: ListingState) => state.paused

/** A value the agent wrote that may hold a secret (an expression, a condition): kept only when it does not look like one. */
const recordable = (text: string | undefined) => (text === undefined ? {} : { value: looksSensitive(text) ? REDACTED : text })

const Paused = Schema.optional(PauseContext).annotations({ description: "The pause's context, when the page is paused." })
const Running = Schema.optional(Schema.Boolean).annotations({ description: "True when the page runs (no pause followed)." })

const outcome = (result: RunOutcome) =>
  "paused" in result ? { paused: result.paused } : { running: true, ...(result.pausePending === true ? { pausePending: true } : {}) }

const statusResult = (status: DebuggerStatus) => ({
  enabled: status.enabled,
  ...(status.enabled ? { tabs: status.tabs, pauseOnExceptions: status.pauseOnExceptions } : {})
})

const DebuggerInput = Schema.Struct({
  action: Schema.Literal("enable", "disable", "pause", "resume", "pause_on_exceptions").annotations({
    description: "enable (attach to every tab), disable (detach; removes breakpoints), pause, resume, pause_on_exceptions."
  }),
  state: Schema.optional(PauseOnExceptions).annotations({ description: "With pause_on_exceptions: none, uncaught or all." })
}).pipe(
  Schema.filter((input) =>
    input.action === "pause_on_exceptions"
      ? input.state !== undefined || { path: ["state"], message: "is required with action pause_on_exceptions (none, uncaught or all)" }
      : input.state === undefined || { path: ["state"], message: "is only for action pause_on_exceptions" }
  )
)

export const debuggerControl = defineTool({
  name: "debugger",
  title: "Control the JavaScript debugger",
  description:
    "JavaScript debugger: enable, disable, pause, resume, pause_on_exceptions {state}. A pause returns {paused: {location, frames, locals, changed, exception, console}}; else {running}.",
  input: DebuggerInput,
  output: Schema.Struct({
    enabled: Schema.optional(Schema.Boolean),
    tabs: Schema.optional(Schema.Number).annotations({ description: "Tabs the debugger is attached to." }),
    pauseOnExceptions: Schema.optional(PauseOnExceptions),
    paused: Paused,
    running: Running,
    pausePending: Schema.optional(Schema.Boolean).annotations({
      description: "The page was idle: it pauses at the next JavaScript it runs (a timer, the next click)."
    })
  }),
  annotations: changing,
  ...debuggerTool,
  run: Effect.fn("tool.debugger")(function* (input) {
    const session = yield* Session
    switch (input.action) {
      case "enable":
        return statusResult(yield* session.debuggerConfigure({ enabled: true }))
      case "disable":
        return statusResult(yield* session.debuggerConfigure({ enabled: false }))
      case "pause_on_exceptions":
        return statusResult(yield* session.debuggerConfigure({ pauseOnExceptions: input.state }))
      case "pause":
        return outcome(yield* session.debuggerRun("pause"))
      case "resume":
        return outcome(yield* session.debuggerRun("resume"))
    }
  })
})

const BreakpointInput = Schema.Struct({
  action: Schema.Literal("set", "remove", "list").annotations({ description: "set, remove or list." }),
  url: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(2_000))).annotations({
    description: 'Script URL, or its end ("app.js", "/static/app.js"); an inline script has its page\'s URL.'
  }),
  urlRegex: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(500))).annotations({
    description: "Regex over script URLs, instead of url."
  }),
  line: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1, 10_000_000))).annotations({
    description: "1-based line of the script as the browser runs it (no source maps)."
  }),
  column: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1, 10_000_000))).annotations({ description: "1-based column." }),
  condition: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(2_000))).annotations({
    description: "Pause only when this expression is true there."
  }),
  id: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(50))).annotations({ description: "For remove: e.g. bp1." })
}).pipe(
  Schema.filter((input) => {
    const given = (["url", "urlRegex", "line", "column", "condition", "id"] as const).filter((field) => input[field] !== undefined)
    if (input.action === "set") {
      if (input.url !== undefined && input.urlRegex !== undefined) return { path: ["urlRegex"], message: "give url or urlRegex, not both" }
      if (input.url === undefined && input.urlRegex === undefined) return { path: ["url"], message: "action set needs url or urlRegex" }
      if (input.line === undefined) return { path: ["line"], message: "action set needs a line (1-based)" }
      if (input.id !== undefined) return { path: ["id"], message: "is only for action remove" }
      return true
    }
    const allowed = input.action === "remove" ? ["id"] : []
    const extra = given.find((field) => !allowed.includes(field))
    if (extra !== undefined) return { path: [extra], message: `is not used by action ${input.action}` }
    if (input.action === "remove" && input.id === undefined) return { path: ["id"], message: "action remove needs the breakpoint's id (e.g. bp1)" }
    return true
  })
)

export const breakpoint = defineTool({
  name: "breakpoint",
  title: "Set, remove or list breakpoints",
  description:
    "Breakpoints on every tab: set {url|urlRegex, line, column?, condition?}, remove {id}, list. Returns {breakpoint} with where it bound, or {breakpoints}.",
  input: BreakpointInput,
  output: Schema.Struct({
    breakpoint: Schema.optional(BreakpointInfo),
    removed: Schema.optional(Schema.String),
    breakpoints: Schema.optional(Schema.Array(BreakpointInfo)),
    pauseOnExceptions: Schema.optional(PauseOnExceptions)
  }),
  annotations: runsCode,
  ...debuggerTool,
  record: (input) => {
    const { condition, ...rest } = input
    const kept = recordable(condition)
    return { input: { ...rest, ...(kept.value !== undefined ? { condition: kept.value } : {}) } }
  },
  run: Effect.fn("tool.breakpoint")(function* (input) {
    const session = yield* Session
    switch (input.action) {
      case "set":
        return { breakpoint: yield* session.setBreakpoint({ url: input.url, urlRegex: input.urlRegex, line: input.line!, column: input.column, condition: input.condition }) }
      case "remove":
        return { removed: (yield* session.removeBreakpoint(input.id!)).id }
      case "list": {
        const status = yield* session.debuggerStatus
        return { breakpoints: status.breakpoints, ...(status.enabled ? { pauseOnExceptions: status.pauseOnExceptions } : {}) }
      }
    }
  })
})

export const step = defineTool({
  name: "step",
  title: "Step the paused page",
  description: "Step the paused page: over, into or out. Returns {paused: context} at the next statement, with changed locals marked; or {running}.",
  input: Schema.Struct({
    direction: Schema.Literal("over", "into", "out").annotations({ description: "over the next call, into it, or out of the function." })
  }),
  output: Schema.Struct({ paused: Paused, running: Running }),
  annotations: changing,
  ...debuggerTool,
  listedWhen: whilePaused,
  run: Effect.fn("tool.step")(function* (input) {
    const session = yield* Session
    const command = input.direction === "over" ? "stepOver" : input.direction === "into" ? "stepInto" : "stepOut"
    return outcome(yield* session.debuggerRun(command))
  })
})

export const evaluateFrame = defineTool({
  name: "evaluate_frame",
  title: "Evaluate on a paused frame",
  description: "Evaluate a JavaScript expression in a frame of the paused page (its locals in scope). Returns {type, value} (JSON, cut) or {exception}.",
  input: Schema.Struct({
    expression: Schema.String.pipe(
      Schema.minLength(1),
      Schema.maxLength(10_000, { message: () => "must be at most 10000 characters long" })
    ).annotations({ description: "JavaScript expression." }),
    frameIndex: Schema.optionalWith(Schema.Number.pipe(Schema.int(), Schema.between(0, 10_000)), { default: () => 0 }).annotations({
      description: "Frame of the pause's frames list (default 0, the innermost)."
    })
  }),
  output: EvaluatedValue,
  // An expression can change the page (assign, call): not read-only.
  annotations: runsCode,
  ...debuggerTool,
  listedWhen: whilePaused,
  // The expression is the agent's own code and may hold a secret; the value is page data and is never stored.
  record: (input) => ({ input: { expression: recordable(input.expression).value ?? REDACTED, frameIndex: input.frameIndex } }),
  run: Effect.fn("tool.evaluate_frame")(function* (input) {
    const session = yield* Session
    return yield* session.debuggerEvaluate(input.expression, input.frameIndex)
  })
})

/** The group's tools, in the order the list shows them. */
export const debuggerTools = [debuggerControl, breakpoint, step, evaluateFrame] as const
