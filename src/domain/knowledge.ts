// What the knowledge store keeps: session metadata and one record per tool call (schema version 1).
import { Schema } from "effect"
import { Observation } from "./observation.js"

export const StepTarget = Schema.Struct({
  a11yRef: Schema.optional(Schema.String),
  testId: Schema.optional(Schema.String),
  selector: Schema.optional(Schema.String),
  within: Schema.optional(Schema.String)
})
export type StepTarget = typeof StepTarget.Type

export const StepRecord = Schema.Struct({
  schemaVersion: Schema.Literal(1),
  timestamp: Schema.String,
  sessionId: Schema.String,
  tool: Schema.Struct({
    name: Schema.String,
    input: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
    target: Schema.optional(StepTarget),
    textRedacted: Schema.optional(Schema.Boolean),
    textLength: Schema.optional(Schema.Number)
  }),
  timing: Schema.Struct({ durationMs: Schema.Number }),
  outcome: Schema.Struct({
    ok: Schema.Boolean,
    error: Schema.optional(Schema.Struct({ code: Schema.String, message: Schema.String }))
  }),
  observation: Schema.optional(Observation),
  artifacts: Schema.optional(Schema.Struct({ screenshot: Schema.optional(Schema.String) })),
  labels: Schema.Array(Schema.String),
  batch: Schema.optional(Schema.Struct({ batchId: Schema.String, index: Schema.Number }))
})
export type StepRecord = typeof StepRecord.Type

export const SessionMetadata = Schema.Struct({
  schemaVersion: Schema.Literal(1),
  sessionId: Schema.String,
  createdAt: Schema.String,
  goal: Schema.optional(Schema.String),
  flowTags: Schema.Array(Schema.String),
  tags: Schema.Array(Schema.String),
  launch: Schema.Struct({
    stateMode: Schema.String,
    fixturePreset: Schema.optional(Schema.String),
    extensionPath: Schema.optional(Schema.String),
    appUrl: Schema.optional(Schema.String)
  })
})
export type SessionMetadata = typeof SessionMetadata.Type

const DISCOVERY = new Set(["describe_screen", "list_testids", "accessibility_snapshot", "get_state", "screenshot", "get_text"])
const NAVIGATION = new Set(["navigate", "launch", "switch_to_tab", "close_tab", "wait_for_notification"])
const INTERACTION = new Set(["click", "type", "wait_for"])
const CONFIRMATION = /confirm|approve|submit/i

/** Labels that make steps easy to find: what kind of step it was and whether it needed recovery. */
export const labelsFor = (tool: string, target: StepTarget | undefined, ok: boolean): ReadonlyArray<string> => {
  const labels: Array<string> = []
  if (DISCOVERY.has(tool)) labels.push("discovery")
  if (NAVIGATION.has(tool)) labels.push("navigation")
  if (INTERACTION.has(tool)) labels.push("interaction")
  const targetText = target ? [target.testId, target.selector, target.a11yRef].filter(Boolean).join(" ") : ""
  if (CONFIRMATION.test(targetText)) labels.push("confirmation")
  if (!ok) labels.push("error-recovery")
  return labels
}
