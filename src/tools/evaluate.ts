// mm_evaluate (group evaluate, off unless --caps evaluate): JavaScript in the active page's main world,
// its result as JSON within caps. An expression that looks like it holds a secret is not recorded.
import { Effect, Schema } from "effect"
import { looksSensitive, REDACTED } from "../domain/redaction.js"
import { defineTool, Unlisted } from "../runtime/tool.js"
import { Session } from "../services/Session.js"
import { EVALUATE_GROUP } from "../services/session/devtools.js"
import { DEADLINE_SLACK_MS, timeoutField } from "./shared.js"

export const evaluate = defineTool({
  name: "evaluate",
  title: "Evaluate JavaScript",
  description:
    "Run JavaScript in the active page like the DevTools console (statements, await; a function is called, a promise awaited). Returns {type, value?, cut?}: the result as JSON, cut at depth 6, 100 items, 10,000 characters.",
  input: Schema.Struct({
    // The message never quotes the value: an expression may hold a secret.
    expression: Schema.String.pipe(
      Schema.minLength(1, { message: () => "must not be empty" }),
      Schema.maxLength(100_000, { message: () => "must be at most 100000 characters long" })
    ).annotations({ description: "JavaScript, e.g. document.title." }),
    maxChars: Schema.optionalWith(Schema.Number.pipe(Schema.int(), Schema.between(100, 100_000)), { default: () => 10_000 }).annotations({
      description: "Most characters of the result (default 10000).",
      [Unlisted]: true
    }),
    timeoutMs: timeoutField(100, 60_000, 10_000).annotations({ [Unlisted]: true })
  }),
  output: Schema.Struct({
    type: Schema.String.annotations({ description: 'typeof the result, "null", "array", or an object\'s class (HTMLDivElement, Map...).' }),
    value: Schema.optional(Schema.Unknown).annotations({ description: "The result as JSON; absent for undefined. Cut places read …[cut: …]." }),
    cut: Schema.optional(Schema.Boolean).annotations({ description: "True when something was cut." })
  }),
  annotations: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  group: EVALUATE_GROUP,
  optIn: true,
  requiresSession: true,
  // Runs script in the page: a paused page answers MM_DEBUGGER_PAUSED (mm_evaluate_frame evaluates in the paused frame).
  whilePaused: "blocked",
  stepKinds: ["interaction"],
  observation: "none",
  deadlineMs: (input) => input.timeoutMs + DEADLINE_SLACK_MS,
  record: (input) => {
    const secret = looksSensitive(input.expression)
    return {
      input: { expression: secret ? REDACTED : input.expression, maxChars: input.maxChars, timeoutMs: input.timeoutMs },
      textRedacted: secret
    }
  },
  replay: {
    note: () => "Evaluate JavaScript in the page",
    args: (args) => (args.expression === REDACTED ? { skip: "its expression looked like it held a secret and was not recorded" } : { args }),
    // Playwright's evaluate takes an expression or a function; statements and top-level await need wrapping by hand.
    playwright: (args) => (typeof args.expression === "string" ? [`await page.evaluate(${JSON.stringify(args.expression)})`] : undefined)
  },
  run: Effect.fn("tool.evaluate")(function* (input) {
    const session = yield* Session
    const result = yield* session.evaluate(input.expression, { maxChars: input.maxChars, timeoutMs: input.timeoutMs })
    return {
      type: result.type,
      ...(result.value !== undefined ? { value: result.value } : {}),
      ...(result.cut === true ? { cut: true } : {})
    }
  })
})
