// What the knowledge store keeps: session metadata and one record per tool call (schema version 1).
import { Option, Schema } from "effect"
import { RecordedDownload } from "./download.js"
import { Observation } from "./observation.js"

/** Role and accessible name of the element a ref pointed at: what makes a ref replayable later. */
export const A11yHint = Schema.Struct({
  role: Schema.String.annotations({ description: "ARIA role of the element." }),
  name: Schema.String.annotations({ description: "Accessible name of the element." })
})
export type A11yHint = typeof A11yHint.Type

/** A form of a durable target: the element's test id, its role and exact accessible name, or the generated selector. */
export const DurableForm = Schema.Literal("testId", "role", "selector")
export type DurableForm = typeof DurableForm.Type

/**
 * The element an action acted on, described when the action ran, in forms that survive a new page load:
 * its test id, its role and exact accessible name (as getByRole(role, {name, exact: true}) finds it), and
 * a selector generated the way Playwright's code generator does. `unique` lists the forms that matched
 * exactly this element in the page at that moment.
 */
export const TargetElement = Schema.Struct({
  testId: Schema.optional(Schema.String),
  role: Schema.optional(Schema.String),
  name: Schema.optional(Schema.String),
  selector: Schema.optional(Schema.String),
  /**
   * A selector of the iframe the element is in, from the top document (through the frames between, joined
   * by ENTER_FRAME: see frames.ts); its other forms name it inside that frame's document.
   */
  frame: Schema.optional(Schema.String),
  unique: Schema.Array(DurableForm)
})
export type TargetElement = typeof TargetElement.Type

export const StepTarget = Schema.Struct({
  a11yRef: Schema.optional(Schema.String),
  testId: Schema.optional(Schema.String),
  selector: Schema.optional(Schema.String),
  within: Schema.optional(Schema.String),
  a11yHint: Schema.optional(A11yHint),
  element: Schema.optional(TargetElement)
})
export type StepTarget = typeof StepTarget.Type

// Numbers are finite: a file holds JSON, which has no NaN or Infinity (they would come back as null).
export const StepRecord = Schema.Struct({
  schemaVersion: Schema.Literal(1),
  timestamp: Schema.String,
  sessionId: Schema.String,
  tool: Schema.Struct({
    name: Schema.String,
    input: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
    target: Schema.optional(StepTarget),
    // A secret's length is never kept (older records' textLength is dropped when read).
    textRedacted: Schema.optional(Schema.Boolean)
  }),
  timing: Schema.Struct({ durationMs: Schema.Finite }),
  outcome: Schema.Struct({
    ok: Schema.Boolean,
    error: Schema.optional(
      Schema.Struct({
        code: Schema.String,
        message: Schema.String,
        /** The action reached the page before the error (a click whose handler paused in the debugger): the flow has it. */
        delivered: Schema.optional(Schema.Literal(true))
      })
    )
  }),
  observation: Schema.optional(Observation),
  artifacts: Schema.optional(Schema.Struct({ screenshot: Schema.optional(Schema.String) })),
  /** The files the call downloaded: a replay checks their names (and hashes). */
  downloads: Schema.optional(Schema.Array(RecordedDownload)),
  labels: Schema.Array(Schema.String),
  batch: Schema.optional(Schema.Struct({ batchId: Schema.String, index: Schema.Finite })),
  /** Fields left out when the record was written because they did not encode (their paths); the step itself is kept. */
  dropped: Schema.optional(Schema.Array(Schema.String))
})
export type StepRecord = typeof StepRecord.Type

export const SessionMetadata = Schema.Struct({
  schemaVersion: Schema.Literal(1),
  sessionId: Schema.String,
  createdAt: Schema.String,
  goal: Schema.optional(Schema.String),
  flowTags: Schema.Array(Schema.String),
  tags: Schema.Array(Schema.String),
  /** A replay's session: the session whose flow it ran (never the source of a later flowTag replay). */
  replayOf: Schema.optional(Schema.String),
  launch: Schema.Struct({
    stateMode: Schema.String,
    fixturePreset: Schema.optional(Schema.String),
    extensionPath: Schema.optional(Schema.String),
    appUrl: Schema.optional(Schema.String)
  })
})
export type SessionMetadata = typeof SessionMetadata.Type

/** What kind of step a tool call is; each tool's definition names its kinds (stepKinds). */
/**
 * A tool whose recorded calls are actions prior knowledge suggests again (describe_screen's advice from
 * earlier sessions), which also weigh a little in similarity. `fits`: the recorded targets it suits, by
 * their role: "text" (typed text goes into editable fields only), "keys" (fields, widgets or the page,
 * never static text); any target when absent.
 */
export interface PriorAction {
  readonly fits?: "text" | "keys"
}

/** What kind of step a call is. `memory`: a call that asks or replays the step memory, recorded but not a step of a flow. */
export type StepKind = "discovery" | "navigation" | "interaction" | "memory"

const CONFIRMATION = /confirm|approve|submit/i

/** Labels that make steps easy to find: the tool's kinds of step, and whether it confirmed something or needed recovery. */
export const labelsFor = (kinds: ReadonlyArray<StepKind>, target: StepTarget | undefined, ok: boolean): ReadonlyArray<string> => {
  const labels: Array<string> = [...kinds]
  const targetText = target ? [target.testId, target.selector, target.a11yRef, target.a11yHint?.name].filter(Boolean).join(" ") : ""
  if (CONFIRMATION.test(targetText)) labels.push("confirmation")
  if (!ok) labels.push("error-recovery")
  return labels
}

/** A call of the step memory itself (mm_knowledge, its report, a replay): recorded, never indexed nor summarized as a step of a flow. */
export const isMemoryStep = (step: StepRecord): boolean => step.labels.includes("memory")

/** Which steps a query looks at. */
export const KnowledgeScope = Schema.Union(
  Schema.Literal("current", "all"),
  Schema.Struct({ sessionId: Schema.String.pipe(Schema.minLength(1)).annotations({ description: "A session id from mm_knowledge {sessions: true}." }) })
).annotations({
  description: 'current: the running session (needs mm_launch); all: every stored session; {sessionId}: one session.'
})
export type KnowledgeScope = typeof KnowledgeScope.Type

/** Filters mean the same in every scope and always apply to steps (sessions match through their steps). */
export const KnowledgeFilters = Schema.Struct({
  flowTag: Schema.optional(Schema.String.pipe(Schema.minLength(1))).annotations({
    description: "Only steps of sessions launched with this flow tag."
  }),
  tag: Schema.optional(Schema.String.pipe(Schema.minLength(1))).annotations({ description: "Only steps of sessions launched with this tag." }),
  screen: Schema.optional(Schema.String.pipe(Schema.minLength(1))).annotations({
    description: "Only steps that ended on this screen (state.currentScreen)."
  }),
  sinceHours: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1, 720))).annotations({
    description: "Only steps recorded in the last N hours (1..720)."
  })
})
export type KnowledgeFilters = typeof KnowledgeFilters.Type

/** One step as query tools return it: short, no observation. */
export const StepSummary = Schema.Struct({
  sessionId: Schema.String,
  timestamp: Schema.String.annotations({ description: "When the step finished (ISO)." }),
  tool: Schema.String.annotations({ description: 'Tool name without prefix, e.g. "click".' }),
  screen: Schema.optional(Schema.String).annotations({ description: "Screen the step ended on." }),
  url: Schema.optional(Schema.String).annotations({ description: "URL the step ended on." }),
  target: Schema.optional(Schema.String).annotations({ description: 'Target, e.g. "testId:confirm" or "role:button \"Sign in\"".' }),
  ok: Schema.Boolean,
  errorCode: Schema.optional(Schema.String),
  // Sent without the field when there are none (responses carry no empty fields).
  labels: Schema.optionalToRequired(Schema.Array(Schema.String), Schema.Array(Schema.String), {
    decode: Option.getOrElse((): ReadonlyArray<string> => []),
    encode: (labels) => (labels.length === 0 ? Option.none() : Option.some(labels))
  }).annotations({ description: "What kind of step: discovery, navigation, interaction, failed..." }),
  score: Schema.optional(Schema.Number).annotations({ description: "Relevance (search only); recency only breaks ties." }),
  matchedFields: Schema.optional(Schema.Array(Schema.String)).annotations({ description: "Fields the query matched (search only)." })
})
export type StepSummary = typeof StepSummary.Type

/** A list sent without the field when it is empty (responses carry no empty fields); decoded back as []. */
const OmittedWhenEmpty = Schema.optionalToRequired(Schema.Array(Schema.String), Schema.Array(Schema.String), {
  decode: Option.getOrElse((): ReadonlyArray<string> => []),
  encode: (items) => (items.length === 0 ? Option.none() : Option.some(items))
})

export const SessionSummary = Schema.Struct({
  sessionId: Schema.String,
  createdAt: Schema.String,
  goal: Schema.optional(Schema.String),
  flowTags: OmittedWhenEmpty,
  tags: OmittedWhenEmpty,
  stepCount: Schema.Number.annotations({ description: "Steps that pass the filters." }),
  lastStepAt: Schema.optional(Schema.String).annotations({ description: "Time of the latest such step." })
})
export type SessionSummary = typeof SessionSummary.Type

/** A recipe step: a tool call that can be replayed as is (durable targets, placeholders for secrets). */
export const RecipeStep = Schema.Struct({
  tool: Schema.String.annotations({ description: 'Served tool name, e.g. "mm_click".' }),
  args: Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
    description: "Arguments; redacted text appears as a {{name}} placeholder."
  }),
  notes: Schema.String.annotations({ description: "What the step did, in words." }),
  downloads: Schema.optional(Schema.Array(RecordedDownload)).annotations({
    description: "Files the step downloaded when recorded: a replay checks their names (and, without params, their hashes)."
  })
})
export type RecipeStep = typeof RecipeStep.Type

export const Placeholder = Schema.Struct({
  name: Schema.String.annotations({ description: "Placeholder name as written in args: {{name}}." }),
  target: Schema.String.annotations({ description: "Field it was typed into." }),
  default: Schema.optional(Schema.String).annotations({ description: "A param's recorded text: typed when params has no value." })
})
export type Placeholder = typeof Placeholder.Type

export const Recipe = Schema.Struct({
  steps: Schema.Array(RecipeStep),
  placeholders: Schema.Array(Placeholder),
  skipped: Schema.Array(Schema.String).annotations({
    description: "Why recorded steps were left out (failed, read-only, or no durable target)."
  })
})
export type Recipe = typeof Recipe.Type

/** A target as replayable tool arguments: a test id, or a role + name selector, or a CSS selector; never a ref. */
export const DurableTarget = Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
  description: 'Target arguments for mm_click / mm_type / mm_wait_for, e.g. {"testId": "confirm"} or {"selector": "role=button[name=\\"Sign in\\"s]"}.'
})

export const SuggestedAction = Schema.Struct({
  rank: Schema.Number.annotations({ description: "1 for the best suggestion." }),
  tool: Schema.String.annotations({ description: 'Tool name without prefix, e.g. "click".' }),
  count: Schema.optional(Schema.Number).annotations({ description: "A click's count: 2 for a double click." }),
  rationale: Schema.String.annotations({ description: "Why it is suggested, in a few words." }),
  preferredTarget: DurableTarget.annotations({ description: "Target arguments to use: the durable form found on the screen now, when one is." }),
  fallbackTargets: Schema.optional(Schema.Array(DurableTarget)).annotations({ description: "Other durable forms of the same target." }),
  ref: Schema.optional(Schema.String).annotations({ description: "Ref of the element with the same role and name on this screen now." }),
  confidence: Schema.Number.annotations({ description: "Similarity of the screen it worked on to this one, 0..1." }),
  succeeded: Schema.Number.annotations({ description: "How many times it worked on a similar screen." }),
  failed: Schema.optional(Schema.Number).annotations({ description: "How many times the same action failed on a similar screen." })
})
export type SuggestedAction = typeof SuggestedAction.Type

export const PriorKnowledge = Schema.Struct({
  suggestedNextActions: Schema.optional(Schema.Array(SuggestedAction)).annotations({
    description:
      "Actions that worked on similar screens and fit their target, best first (at most 5); never one that mostly failed, never a target from the avoid list."
  }),
  similarSteps: Schema.optional(
    Schema.Array(
      Schema.Struct({
        tool: Schema.String,
        count: Schema.optional(Schema.Number),
        target: Schema.String,
        confidence: Schema.Number.annotations({ description: "score / 29: 1.0 is a perfect match." })
      })
    )
  ).annotations({
    description: "Other actions that worked after a similar screen and are not among the suggestions, one per tool and target, most similar first (at most 5)."
  }),
  avoid: Schema.optional(
    Schema.Array(
      Schema.Struct({
        target: Schema.String,
        failures: Schema.Number,
        lastError: Schema.optional(Schema.String)
      })
    )
  ).annotations({ description: "Targets that failed at least twice on this screen and mostly failed on similar ones (at most 3)." }),
  relatedSessions: Schema.optional(
    Schema.Array(
      Schema.Struct({
        sessionId: Schema.String,
        goal: Schema.optional(Schema.String),
        flowTags: Schema.optional(Schema.Array(Schema.String)),
        confidence: Schema.Number.annotations({ description: "Best similarity of its actions to this screen, 0..1." })
      })
    )
  ).annotations({ description: "Other recent sessions whose actions worked on a screen like this one, most relevant first (at most 3)." })
})
export type PriorKnowledge = typeof PriorKnowledge.Type
