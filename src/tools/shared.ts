// Schema fragments and definition fields shared by several tools, above all the tools that act on one element.
import { Option, Schema } from "effect"
import { ActionTimeout, TargetNotFound, WaitTimeout } from "../domain/errors.js"
import { TargetElement, type StepTarget } from "../domain/knowledge.js"
import { REDACTED } from "../domain/redaction.js"
import { A11yRef, describeTarget, locatorText, Scope, targetFields as locatorFields, targetOf, validateTarget, type Target } from "../domain/target.js"
import { ListedAs, Unlisted } from "../runtime/tool.js"
import type { Sighting } from "../services/Deadline.js"

/** A `timeoutMs` field with bounds and a default, described for the agent. */
export const timeoutField = (min: number, max: number, fallback: number) =>
  Schema.optionalWith(
    Schema.Number.pipe(Schema.int(), Schema.between(min, max)).annotations({
      description: `Max wait, ms (default ${fallback}).`
    }),
    { default: () => fallback }
  )

/**
 * Slack above a tool's own timeout: the whole call (classifying a failure, the observation, the
 * step record) answers within `timeoutMs` plus this.
 */
export const DEADLINE_SLACK_MS = 1_000

/** The target as stored in a step record: durable fields only, the scope as text. */
export const recordTarget = (target: Target): StepTarget => ({
  [target.locator.kind]: target.locator.value,
  ...(target.within !== undefined ? { within: locatorText(target.within) } : {})
})

/**
 * A result field the tool's `record` reads and the response never carries: it decodes from nothing and
 * encodes to nothing, so only the typed result the program returns has it.
 */
export const RecordOnly = <A, I>(schema: Schema.Schema<A, I>) =>
  Schema.optionalToOptional(Schema.Never, Schema.typeSchema(schema), { decode: () => Option.none(), encode: () => Option.none() }).annotations({
    [Unlisted]: true
  })

/** The acted-on element's durable forms, for the step record only (see Session.describe). */
export const ElementField = RecordOnly(TargetElement)

export const TargetResult = Schema.String.annotations({ description: 'The target acted on, e.g. "testId:confirm-button".' })

/** The deadline errors of targeting tools, so a stopped call still says which target it was about. */
export const actionDeadline =
  (action: "click" | "type" | "get_text" | "select_option" | "hover" | "drag") =>
  (input: Parameters<typeof targetOf>[0] & { readonly timeoutMs?: number }, timeoutMs: number, seen?: Sighting) =>
    // Decided from what was seen before the deadline: a target looked for and never matched is not found.
    seen?.looked === true && !seen.matched
      ? new TargetNotFound({
          target: describeTarget(targetOf(input)),
          detail: `No element matches ${describeTarget(targetOf(input))} (waited ${input.timeoutMs ?? timeoutMs} ms).`
        })
      : new ActionTimeout({ action, target: describeTarget(targetOf(input)), timeoutMs })

export const waitDeadline = (input: Parameters<typeof targetOf>[0] & { readonly state: string }, timeoutMs: number) =>
  new WaitTimeout({ target: describeTarget(targetOf(input)), state: input.state, timeoutMs })

/** Input of a tool that takes no arguments; anything given is named as unexpected. */
export const NoInput = Schema.Struct({}).pipe(
  Schema.filter((value) => {
    const [first] = Object.keys(value)
    return first === undefined ? true : { path: [first], message: "is unexpected: this tool takes no arguments" }
  })
)

/**
 * How a tool names its element, as listed: exactly one of a11yRef, testId or selector, optionally
 * within a parent. The rule is stated once in the server instructions and in the error that enforces it.
 */
export const targetFields = {
  // The three are described once, in the server's instructions: about 100 bytes in every element tool otherwise.
  a11yRef: Schema.optional(A11yRef).annotations({ description: "" }),
  testId: locatorFields.testId.annotations({ description: "" }),
  selector: locatorFields.selector.annotations({ description: "" }),
  // Accepted but not listed (80 bytes in every element tool): a ref names one element already, and a
  // selector can chain (`#list >> text=Buy`). Documented in docs/tools.md.
  within: Schema.optional(Scope.annotations({ [ListedAs]: { type: "object" } })).annotations({
    description: "Parent: {a11yRef|testId|selector}.",
    [Unlisted]: true
  })
}

/**
 * What to do with an alert, confirm or prompt the action opens; without it, it is dismissed and a notice
 * says so and how to pass this answer. Accepted, not listed: dialogs are rare, and the notice teaches the
 * field when one comes (about 75 bytes in each of click and press_key otherwise).
 */
export const DialogField = Schema.optional(
  Schema.Struct({
    accept: Schema.Boolean.annotations({ description: "true: OK / accept; false: Cancel / dismiss." }),
    promptText: Schema.optional(
      Schema.String.pipe(Schema.maxLength(10_000)).annotations({ description: "The answer to a prompt() when accepting; never stored." })
    )
  }).annotations({ [ListedAs]: { type: "object" } })
).annotations({ description: "Dialog answer: {accept, promptText?}.", [Unlisted]: true })

/** The dialog choice as recorded: never the prompt's answer. */
export const recordDialog = (dialog: { readonly accept: boolean; readonly promptText?: string | undefined } | undefined) =>
  dialog === undefined ? {} : { dialog: { accept: dialog.accept, ...(dialog.promptText !== undefined ? { promptText: REDACTED } : {}) } }

/** The action timeout of element tools: accepted (and recorded) but not listed; the default suits nearly every call. */
export const actionTimeoutField = timeoutField(0, 60_000, 15_000).annotations({ [Unlisted]: true })

/** The input of a tool that acts on exactly one element: the target fields, the tool's own fields and a timeout. */
export const targetInput = <Fields extends Schema.Struct.Fields>(fields: Fields) =>
  Schema.Struct({ ...targetFields, ...fields, timeoutMs: actionTimeoutField }).pipe(Schema.filter(validateTarget))

/** " testId:x" after a verb in a recipe note, or nothing without a target. */
export const at = (target: string | undefined): string => (target === undefined ? "" : ` ${target}`)

/** What tools that act on one element record: the target, the timeout, the dialog choice, and their own fields. */
export const recordTargeted = (
  input: Parameters<typeof targetOf>[0] & {
    readonly timeoutMs: number
    readonly dialog?: { readonly accept: boolean; readonly promptText?: string | undefined } | undefined
  },
  fields: Readonly<Record<string, unknown>> = {}
) => ({ input: { ...fields, timeoutMs: input.timeoutMs, ...recordDialog(input.dialog) }, target: recordTarget(targetOf(input)) })

/** The result's element field: present only when the page described the element. */
export const described = (element: TargetElement | undefined) => (element === undefined ? {} : { element })

/**
 * The recorded target with the durable forms of the element the action found (Session.describe): its
 * test id, role and exact name, generated selector and which of them were unique. Its role and name are
 * also the target's hint, whichever way the agent named the element.
 */
export const withElement = (target: StepTarget, result: Option.Option<{ readonly element?: TargetElement | undefined }>): StepTarget => {
  const element = Option.getOrUndefined(result)?.element
  if (element === undefined) return target
  const hint = element.role !== undefined && element.name !== undefined ? { a11yHint: { role: element.role, name: element.name } } : {}
  return { ...target, ...hint, ...described(element) }
}

/** What a targeted action records, with the element's durable forms. */
export const recordAction = (
  input: Parameters<typeof recordTargeted>[0],
  result: Option.Option<{ readonly element?: TargetElement | undefined }>,
  fields: Readonly<Record<string, unknown>> = {}
) => {
  const recorded = recordTargeted(input, fields)
  return { ...recorded, target: withElement(recorded.target, result) }
}

/** Definition fields of a tool that acts on one element of the active tab. */
export const elementTool = {
  group: "page",
  requiresSession: true,
  whilePaused: "blocked",
  stepKinds: ["interaction"],
  observation: "default",
  deadlineMs: (input: { readonly timeoutMs: number }) => input.timeoutMs + DEADLINE_SLACK_MS
} as const

/**
 * The annotations of an action on the page as its user would take it (click, type, press a key, select,
 * drag, check, upload): what the page does with it is the page's, and may be a submit, a delete or a
 * payment that cannot be undone, so it is destructive in MCP's sense (as Playwright MCP marks its actions).
 */
export const pageActionAnnotations = { readOnly: false, destructive: true, idempotent: false, openWorld: true } as const
