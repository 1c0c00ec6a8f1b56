// Schema fragments and helpers shared by several tools.
import { Schema } from "effect"
import { ActionTimeout, WaitTimeout } from "../domain/errors.js"
import type { StepTarget } from "../domain/knowledge.js"
import { describeLocator, describeTarget, targetOf, type Target } from "../domain/target.js"

/** A `timeoutMs` field with bounds and a default, described for the agent. */
export const timeoutField = (min: number, max: number, fallback: number) =>
  Schema.optionalWith(
    Schema.Number.pipe(Schema.int(), Schema.between(min, max)).annotations({
      description: `How long to wait, in milliseconds (${min}..${max}, default ${fallback}).`
    }),
    { default: () => fallback }
  )

/** Slack above a tool's own timeout before runTool stops it, leaving time to classify the failure. */
export const DEADLINE_SLACK_MS = 5_000

/** The target as stored in a step record: durable fields only, the scope as text. */
export const recordTarget = (target: Target): StepTarget => ({
  [target.locator.kind]: target.locator.value,
  ...(target.within !== undefined ? { within: describeLocator(target.within) } : {})
})

export const TargetResult = Schema.String.annotations({ description: 'The target acted on, e.g. "testId:confirm-button".' })

/** The deadline errors of targeting tools, so a stopped call still says which target it was about. */
export const actionDeadline =
  (action: "click" | "type" | "get_text" | "select_option" | "hover") =>
  (input: Parameters<typeof targetOf>[0], timeoutMs: number) =>
    new ActionTimeout({ action, target: describeTarget(targetOf(input)), timeoutMs })

export const waitDeadline = (input: Parameters<typeof targetOf>[0] & { readonly state: string }, timeoutMs: number) =>
  new WaitTimeout({ target: describeTarget(targetOf(input)), state: input.state, timeoutMs })

/** Input of a tool that takes no arguments; anything given is named as unexpected. */
export const NoInput = Schema.Struct({}).pipe(
  Schema.filter((value) => {
    const [first] = Object.keys(value)
    return first === undefined ? true : { path: [first], message: "is unexpected: this tool takes no arguments" }
  })
)
