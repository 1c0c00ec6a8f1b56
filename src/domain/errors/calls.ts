// Errors of a call as such: its input, its deadline, the tool it names, the server's configuration, the
// step memory and replays.
import { Schema } from "effect"
import { clip, clipMessage } from "./clip.js"

export class InvalidInput extends Schema.TaggedError<InvalidInput>()("InvalidInput", {
  field: Schema.String,
  problem: Schema.String,
  issues: Schema.optional(Schema.Array(Schema.Struct({ field: Schema.String, problem: Schema.String })))
}) {
  get code() {
    return "MM_INVALID_INPUT" as const
  }
  override get message() {
    return this.field === ""
      ? `Invalid input: ${clip(this.problem, 300)}`
      : `Invalid input at "${clip(this.field)}": ${clip(this.problem, 300)}`
  }
  get details() {
    return { field: this.field, ...(this.issues && this.issues.length > 1 ? { issues: this.issues } : {}) }
  }
}

export class InvalidConfig extends Schema.TaggedError<InvalidConfig>()("InvalidConfig", {
  source: Schema.String,
  detail: Schema.String
}) {
  get code() {
    return "MM_INVALID_CONFIG" as const
  }
  override get message() {
    return `Invalid configuration in ${this.source}: ${this.detail}`
  }
}

export class DeadlineExceeded extends Schema.TaggedError<DeadlineExceeded>()("DeadlineExceeded", {
  tool: Schema.String,
  timeoutMs: Schema.Number
}) {
  get code() {
    return "MM_TIMEOUT" as const
  }
  override get message() {
    return `${this.tool} did not finish within ${this.timeoutMs} ms and was stopped. Raise timeoutMs or check the page with mm_describe_screen.`
  }
  get details() {
    return { timeoutMs: this.timeoutMs }
  }
}

export class UnknownTool extends Schema.TaggedError<UnknownTool>()("UnknownTool", {
  tool: Schema.String,
  available: Schema.Array(Schema.String)
}) {
  get code() {
    return "MM_UNKNOWN_TOOL" as const
  }
  override get message() {
    return `Unknown tool: ${clip(this.tool)}. Available tools: ${this.available.join(", ")}`
  }
  get details() {
    return { tool: this.tool }
  }
}

/** A tool that is not available now (an opt-in group that is off, hidden by hide_tools, no extension loaded). */
export class ToolUnavailable extends Schema.TaggedError<ToolUnavailable>()("ToolUnavailable", {
  tool: Schema.String,
  reason: Schema.Literal("group", "hidden", "extension", "static"),
  /** Why, and what makes it available, e.g. "is in group debugger, which is off: start the server with --caps debugger". */
  hint: Schema.String
}) {
  get code() {
    return "MM_TOOL_UNAVAILABLE" as const
  }
  override get message() {
    return `${this.tool} ${this.hint}`
  }
  get details() {
    return { tool: this.tool, reason: this.reason }
  }
}

export class CapabilityNotAvailable extends Schema.TaggedError<CapabilityNotAvailable>()("CapabilityNotAvailable", {
  capability: Schema.String,
  hint: Schema.String
}) {
  get code() {
    return "MM_CAPABILITY_NOT_AVAILABLE" as const
  }
  override get message() {
    return `The ${this.capability} capability is not available. ${this.hint}`
  }
  get details() {
    return { capability: this.capability }
  }
}

export class BatchTimeout extends Schema.TaggedError<BatchTimeout>()("BatchTimeout", {
  batchTimeoutMs: Schema.Number,
  started: Schema.Boolean
}) {
  get code() {
    return "MM_BATCH_TIMEOUT" as const
  }
  override get message() {
    return this.started
      ? `The batch deadline (${this.batchTimeoutMs} ms) passed while this step ran; it was stopped. Raise batchTimeoutMs or split the batch.`
      : `Not run: the batch deadline (${this.batchTimeoutMs} ms) had passed. Raise batchTimeoutMs or split the batch.`
  }
  get details() {
    return { batchTimeoutMs: this.batchTimeoutMs }
  }
}

/**
 * An mm_run_steps batch that ran but not every step succeeded: the call's answer is the steps' results
 * beside this error, so that `ok` is false for an agent that reads only `ok`. It names the failed steps
 * (each one's error is in its result); the counts and the steps not run are in the summary.
 */
export class BatchFailed extends Schema.TaggedError<BatchFailed>()("BatchFailed", {
  failed: Schema.Array(Schema.Struct({ index: Schema.Number, tool: Schema.String, code: Schema.String })),
  /** With validateFirst: how many steps are invalid (then nothing ran). */
  invalid: Schema.optional(Schema.Number)
}) {
  get code() {
    return "MM_BATCH_FAILED" as const
  }
  override get message() {
    if (this.invalid !== undefined) return `${this.invalid} ${this.invalid === 1 ? "step is" : "steps are"} invalid (invalidSteps); nothing ran.`
    const shown = this.failed.slice(0, 3).map((step) => `${step.index} (${step.tool}, ${step.code})`)
    const more = this.failed.length > 3 ? ` and ${this.failed.length - 3} more` : ""
    if (shown.length === 0) return "Not every step ran (summary.notRun)."
    return `${this.failed.length === 1 ? "Step" : "Steps"} ${shown.join(", ")}${more} failed; each one's error is in its result.`
  }
}

export class KnowledgeError extends Schema.TaggedError<KnowledgeError>()("KnowledgeError", {
  detail: Schema.String
}) {
  get code() {
    return "MM_KNOWLEDGE_ERROR" as const
  }
  override get message() {
    return `Knowledge store error: ${this.detail}`
  }
}

/** A replay ran and one of its steps failed: the flow did not happen again. */
export class ReplayFailed extends Schema.TaggedError<ReplayFailed>()("ReplayFailed", {
  replayed: Schema.String,
  /** The session the replay ran in, and whether it is still open (mm_replay keepSession, or a session given). */
  session: Schema.optional(Schema.String),
  open: Schema.optional(Schema.Boolean),
  summary: Schema.Struct({
    total: Schema.Number,
    succeeded: Schema.Number,
    failed: Schema.optional(Schema.Number),
    skipped: Schema.optional(Schema.Number)
  }),
  /** The first step that failed (its index in the batch, counting a launch the replay added). */
  failed: Schema.Struct({ index: Schema.Number, tool: Schema.String, code: Schema.String, message: Schema.String })
}) {
  get code() {
    return "MM_REPLAY_FAILED" as const
  }
  override get message() {
    const { failed, summary } = this
    const notRun = summary.skipped !== undefined && summary.skipped > 0 ? `, ${summary.skipped} not run` : ""
    return `The replay of ${this.replayed} failed at step ${failed.index} (${failed.tool}, ${failed.code}): ${clipMessage(failed.message)} ${summary.succeeded} of ${summary.total} steps succeeded${notRun}.`
  }
  get details() {
    const { message: _message, ...failed } = this.failed
    const ranIn = this.session !== undefined ? { session: this.session, open: this.open ?? false } : {}
    return { replayed: this.replayed, ...ranIn, summary: this.summary, failed }
  }
}

/** One run of a fan-out replay: the session it ran in and its time; for a failed run, the step that failed. */
export const ReplayRun = Schema.Struct({
  session: Schema.optional(Schema.String),
  ms: Schema.Number,
  /** How long it waited for a session place before it started (all --max-sessions were open). */
  waitedMs: Schema.optional(Schema.Number),
  failed: Schema.optional(
    Schema.Struct({ index: Schema.optional(Schema.Number), tool: Schema.optional(Schema.String), code: Schema.String, message: Schema.String })
  )
})
export type ReplayRun = typeof ReplayRun.Type

/** The runs of a fan-out replay (mm_replay {runs}): some failed. Every run's outcome is in the details. */
export class ReplayRunsFailed extends Schema.TaggedError<ReplayRunsFailed>()("ReplayRunsFailed", {
  replayed: Schema.String,
  runs: Schema.Array(ReplayRun),
  ms: Schema.Number
}) {
  get code() {
    return "MM_REPLAY_FAILED" as const
  }
  override get message() {
    const failed = this.runs.flatMap((run, index) => (run.failed === undefined ? [] : [{ index, failed: run.failed }]))
    const named = failed
      .slice(0, 10)
      .map(({ index, failed }) => `run ${index} (${failed.code}${failed.index !== undefined ? ` at step ${failed.index}` : ""})`)
    const more = failed.length > 10 ? `, and ${failed.length - 10} more` : ""
    return `${failed.length} of ${this.runs.length} runs of ${this.replayed} failed: ${named.join(", ")}${more}. details.runs has every run's outcome.`
  }
  get details() {
    const failed = this.runs.filter((run) => run.failed !== undefined).length
    return { replayed: this.replayed, runs: this.runs, passed: this.runs.length - failed, failed, ms: this.ms }
  }
}

export class BuildFailed extends Schema.TaggedError<BuildFailed>()("BuildFailed", {
  reason: Schema.Literal("ExitCode", "Timeout", "StartFailed", "Failed"),
  detail: Schema.String,
  outputTail: Schema.optional(Schema.String)
}) {
  get code() {
    return "MM_BUILD_FAILED" as const
  }
  override get message() {
    return `Build failed (${this.reason}): ${this.detail}${this.outputTail ? `\nLast output:\n${this.outputTail}` : ""}`
  }
  get details() {
    return { reason: this.reason, ...(this.outputTail !== undefined ? { outputTail: this.outputTail } : {}) }
  }
}

export class SeedFailed extends Schema.TaggedError<SeedFailed>()("SeedFailed", {
  contract: Schema.String,
  detail: Schema.String
}) {
  get code() {
    return "MM_SEED_FAILED" as const
  }
  override get message() {
    return `Deploying ${this.contract} failed: ${this.detail}. Call mm_list_contracts to see what is deployed and which contracts are known.`
  }
  get details() {
    return { contract: this.contract }
  }
}

export class ContractNotFound extends Schema.TaggedError<ContractNotFound>()("ContractNotFound", {
  contract: Schema.String,
  available: Schema.Array(Schema.String)
}) {
  get code() {
    return "MM_CONTRACT_NOT_FOUND" as const
  }
  override get message() {
    return `No contract named ${this.contract}. Known: ${this.available.length === 0 ? "(none)" : this.available.join(", ")}. Deploy it with mm_seed_contract first.`
  }
  get details() {
    return { contract: this.contract, available: this.available }
  }
}
