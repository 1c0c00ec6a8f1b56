// Web-first assertions (group `testing`, opt-in) and printing to PDF (group `pdf`, opt-in).
import { Effect, Option, Schema } from "effect"
import { AssertionFailed } from "../domain/errors.js"
import { REDACTED } from "../domain/redaction.js"
import { describeTarget, targetOf, validateTarget } from "../domain/target.js"
import { looksLikeRegex, regexOf } from "../domain/url-pattern.js"
import { defineTool } from "../runtime/tool.js"
import { VERDICT_RESERVE_MS, verdictWithin } from "../services/Deadline.js"
import { Session, type AssertionCondition } from "../services/Session.js"
import { DEADLINE_SLACK_MS, recordTarget, targetFields, timeoutField } from "./shared.js"

const CONDITIONS = ["visible", "hidden", "text", "value", "checked", "enabled", "count", "url", "title"] as const
const PAGE_CONDITIONS: ReadonlySet<AssertionCondition> = new Set(["url", "title"])
const STRING_CONDITIONS: ReadonlySet<AssertionCondition> = new Set(["text", "value", "url", "title"])

const hasTarget = (input: { readonly a11yRef?: string | undefined; readonly testId?: string | undefined; readonly selector?: string | undefined }) =>
  input.a11yRef !== undefined || input.testId !== undefined || input.selector !== undefined

const ExpectInput = Schema.Struct({
  ...targetFields,
  condition: Schema.Literal(...CONDITIONS).annotations({ description: "url and title take no target." }),
  expected: Schema.optional(Schema.Union(Schema.String.pipe(Schema.maxLength(10_000)), Schema.Number, Schema.Boolean)).annotations({
    description: 'text/value/url/title: string or "/regex/"; count: number; checked/enabled: boolean (default true).'
  }),
  timeoutMs: timeoutField(0, 60_000, 5_000)
}).pipe(
  Schema.filter((input) => {
    const condition = input.condition
    if (PAGE_CONDITIONS.has(condition)) {
      if (hasTarget(input) || input.within !== undefined) return { path: ["a11yRef"], message: `condition ${condition} is about the page: give no target` }
    } else {
      const target = validateTarget(input)
      if (target !== true) return target
    }
    const expected = input.expected
    if (STRING_CONDITIONS.has(condition)) {
      if (typeof expected !== "string") return { path: ["expected"], message: `condition ${condition} needs expected as a string (or "/regex/flags")` }
      if (looksLikeRegex(expected) && regexOf(expected) === undefined) return { path: ["expected"], message: "is not a valid /regex/flags" }
    } else if (condition === "count") {
      if (typeof expected !== "number" || !Number.isInteger(expected) || expected < 0) return { path: ["expected"], message: "condition count needs expected as a whole number >= 0" }
    } else if (condition === "checked" || condition === "enabled") {
      if (expected !== undefined && typeof expected !== "boolean") return { path: ["expected"], message: `condition ${condition} takes expected as a boolean` }
    } else if (expected !== undefined) {
      return { path: ["expected"], message: `condition ${condition} takes no expected value` }
    }
    return true
  })
)

/** The expected value as a JS expression of an export: a regex literal or a JSON value. */
const expectedExpression = (value: unknown) => {
  if (typeof value === "string") return regexOf(value)?.toString() ?? JSON.stringify(value)
  return JSON.stringify(value)
}

export const expectTool = defineTool({
  name: "expect",
  title: "Assert",
  description:
    "Assert a condition, retried until it holds (Playwright web-first). Returns {passed, actual}, or MM_ASSERTION_FAILED with expected and actual.",
  input: ExpectInput,
  output: Schema.Struct({
    passed: Schema.Boolean,
    actual: Schema.String
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
  group: "testing",
  optIn: true,
  requiresSession: true,
  whilePaused: "blocked",
  stepKinds: ["discovery"],
  observation: "none",
  deadlineMs: (input) => input.timeoutMs + DEADLINE_SLACK_MS,
  onDeadline: (input, timeoutMs) =>
    new AssertionFailed({
      condition: input.condition,
      ...(hasTarget(input) ? { target: describeTarget(targetOf(input)) } : {}),
      expected: String(input.expected ?? true),
      actual: "(the call was stopped at its deadline)",
      timeoutMs
    }),
  record: (input, result) => {
    // A value asserted on a secret field is part of the secret.
    const secret = input.condition === "value" && Option.match(result, { onNone: () => true, onSome: (value) => value.actual.startsWith("(a secret") })
    const expected = input.expected === undefined ? {} : { expected: secret ? REDACTED : input.expected }
    return {
      input: { condition: input.condition, ...expected, timeoutMs: input.timeoutMs },
      ...(hasTarget(input) ? { target: recordTarget(targetOf(input)) } : {})
    }
  },
  // A replay checks what the flow checked.
  replay: {
    mode: "step",
    note: (args, target) => `Expect${target === undefined ? " the page" : ` ${target}`} ${String(args.condition)}${args.expected === undefined ? "" : ` ${JSON.stringify(args.expected)}`}`,
    args: (args) => (args.expected === REDACTED ? { skip: "the value asserted on a secret field is not stored" } : { args }),
    playwright: (args, context) => {
      const timeout = typeof args.timeoutMs === "number" && args.timeoutMs !== 5_000 ? `{ timeout: ${args.timeoutMs} }` : ""
      const withTimeout = (first: string) => (first === "" ? timeout : timeout === "" ? first : `${first}, ${timeout}`)
      const expected = expectedExpression(args.expected)
      switch (args.condition) {
        case "url":
          return [`await expect(page).toHaveURL(${withTimeout(expected)})`]
        case "title":
          return [`await expect(page).toHaveTitle(${withTimeout(expected)})`]
      }
      const locator = context.locator
      if (locator === undefined) return undefined
      switch (args.condition) {
        case "visible":
          return [`await expect(${locator}).toBeVisible(${timeout})`]
        case "hidden":
          return [`await expect(${locator}).toBeHidden(${timeout})`]
        case "text":
          return [`await expect(${locator}).toHaveText(${withTimeout(expected)})`]
        case "value":
          return [`await expect(${locator}).toHaveValue(${withTimeout(expected)})`]
        case "count":
          return [`await expect(${locator}).toHaveCount(${withTimeout(expected)})`]
        case "checked":
          return [`await expect(${locator}).toBeChecked(${timeout === "" ? `{ checked: ${args.expected !== false} }` : `{ checked: ${args.expected !== false}, timeout: ${String(args.timeoutMs)} }`})`]
        case "enabled":
          return [`await expect(${locator}).toBeEnabled(${timeout === "" ? `{ enabled: ${args.expected !== false} }` : `{ enabled: ${args.expected !== false}, timeout: ${String(args.timeoutMs)} }`})`]
      }
      return undefined
    }
  },
  run: Effect.fn("tool.expect")(function* (input) {
    const session = yield* Session
    const target = hasTarget(input) ? targetOf(input) : undefined
    // Under a tighter deadline from outside (a batch's), it answers within that one: what it saw, not a timeout.
    const timeoutMs = yield* verdictWithin(input.timeoutMs, VERDICT_RESERVE_MS)
    const { actual } = yield* session.expect({ condition: input.condition, target, expected: input.expected }, { timeoutMs })
    return { passed: true, actual }
  })
})

export const savePdf = defineTool({
  name: "save_pdf",
  title: "Save the page as PDF",
  description: "Print the page to <artifacts>/pdf/<name>.pdf (headless only). Returns {path, bytes}.",
  input: Schema.Struct({
    name: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)).annotations({ description: "File name." })
  }),
  output: Schema.Struct({
    path: Schema.String.annotations({ description: "Absolute path of the PDF." }),
    bytes: Schema.Number
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
  group: "pdf",
  optIn: true,
  requiresSession: true,
  whilePaused: "blocked",
  stepKinds: ["discovery"],
  observation: "none",
  deadlineMs: () => 60_000,
  run: Effect.fn("tool.save_pdf")(function* (input) {
    const session = yield* Session
    return yield* session.savePdf(input.name)
  })
})
