// mm_run_steps: many tool calls in one request, each through the same runTool as a single call.
// Effect.forEach over the steps: short-circuit on a stopping failure, accumulate otherwise.
import { randomBytes } from "node:crypto"
import { Clock, Context, Data, Effect, Either, Option, Ref, Schema } from "effect"
import { defaultBatchLimits, type BatchLimits } from "../domain/config.js"
import { Download } from "../domain/download.js"
import { consoleLines, ErrorObject, PageState, slowMs } from "../domain/envelope.js"
import { BatchFailed, BatchTimeout, InvalidInput, toErrorInfo, UnknownTool, type ErrorInfo } from "../domain/errors.js"
import { renderNodes } from "../domain/snapshot-text.js"
import { ToolRegistry, type ToolRegistryService } from "../runtime/registry.js"
import { decodeInput, runTool } from "../runtime/runTool.js"
import { defineTool, Evident, ListedAs, Unlisted, type AnyToolDefinition, type Attachment, type ToolDefinition, type ToolServices } from "../runtime/tool.js"
import { Observer } from "../services/Observer.js"
import { reportProgress } from "../services/Progress.js"
import { Session } from "../services/Session.js"
import { Sessions } from "../services/Sessions.js"

export const BATCH_TOOL_NAME = "run_steps"

const Expectation = Schema.Struct({
  includeSnapshot: Schema.optional(Schema.Boolean).annotations({
    description: "Add the whole page as text (with refs) after this step."
  }),
  snapshotSelector: Schema.optional(Schema.String.pipe(Schema.minLength(1))).annotations({
    description: "CSS selector that limits that snapshot."
  }),
  includeScreenshot: Schema.optional(Schema.Boolean).annotations({
    description: "Save a screenshot after this step and add its path."
  }),
  includeConsole: Schema.optional(Schema.Boolean).annotations({
    description: "Add every console message logged while this step ran, not only errors."
  }),
  includeDownloads: Schema.optional(Schema.Boolean).annotations({
    description: "List the files this step downloaded (the batch's answer lists every step's)."
  })
}).annotations({ [ListedAs]: { type: "object" } })

const StepInput = Schema.Struct({
  tool: Schema.String.pipe(Schema.minLength(1)).annotations({
    description: "Tool name.",
    [Evident]: true
  }),
  args: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown })).annotations({
    description: "Its arguments.",
    [Evident]: true
  }),
  label: Schema.optional(Schema.String.pipe(Schema.maxLength(200))).annotations({
    description: "Echoed back.",
    // The step's index names it as well; labels are for batches people write.
    [Unlisted]: true
  }),
  // A step's tool takes its own timeoutMs, and batchTimeoutMs bounds them all: accepted, not listed.
  timeoutMs: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(100, 300_000))).annotations({
    description: "Step deadline, ms.",
    [Unlisted]: true
  }),
  continueOnError: Schema.optional(Schema.Boolean).annotations({
    description: "Overrides stopOnError."
  }),
  expectation: Schema.optional(Expectation).annotations({
    description: "{includeSnapshot?, snapshotSelector?, includeScreenshot?, includeConsole?, includeDownloads?}",
    // Upstream's batch format; the page text after each step (includeObservations) and steps of their own
    // (a snapshot, a screenshot, console_messages) do the same. Documented in docs/batch.md.
    [Unlisted]: true
  })
})
type StepInput = typeof StepInput.Type

/** How many console lines a step with expectation.includeConsole reports. */
const STEP_CONSOLE_LINES = 50

const StepResult = Schema.Struct({
  label: Schema.optional(Schema.String),
  ok: Schema.Boolean,
  result: Schema.optional(Schema.Unknown),
  error: Schema.optional(ErrorObject),
  page: Schema.optional(PageState).annotations({ description: "The active page after the step, when it changed." }),
  console: Schema.optional(Schema.Array(Schema.String)).annotations({
    description: "Console errors raised while the step ran (every message with expectation.includeConsole)."
  }),
  notices: Schema.optional(Schema.Array(Schema.String)),
  downloads: Schema.optional(Schema.Array(Download)).annotations({
    description: "The files the step downloaded (with expectation.includeDownloads)."
  }),
  skipped: Schema.optional(Schema.Boolean).annotations({ description: "True when the step did not run." }),
  ms: Schema.optional(Schema.Number).annotations({ description: "Duration of a slow step (1 s or more)." }),
  screenshot: Schema.optional(Schema.String).annotations({ description: "Path of the screenshot taken after the step." }),
  // Moved into the text block after the JSON (see `attachments`): never JSON-escaped on the wire.
  snapshot: Schema.optional(Schema.String).annotations({ description: "The page after the step as text." })
})
type StepResult = typeof StepResult.Type

export const RunStepsOutput = Schema.Struct({
  steps: Schema.Array(StepResult).annotations({ description: "One result per step, in order." }),
  // `ok` is the batch design's own (seed 000's RunStepsResult): a library consumer running the tool's
  // effect reads it here; over MCP the envelope says it too (MM_BATCH_FAILED beside these results).
  summary: Schema.Struct({
    ok: Schema.Boolean,
    total: Schema.Number,
    succeeded: Schema.Number,
    failed: Schema.optional(Schema.Number),
    skipped: Schema.optional(Schema.Number),
    notRun: Schema.optional(Schema.String).annotations({ description: "Which steps did not run, and why (they are not in steps)." }),
    warnings: Schema.optional(Schema.Array(Schema.String))
  }),
  invalidSteps: Schema.optional(
    Schema.Array(Schema.Struct({ index: Schema.Number, tool: Schema.String, error: ErrorObject }))
  ).annotations({ description: "With validateFirst: the steps that failed validation (then nothing ran)." })
})
type RunStepsOutput = typeof RunStepsOutput.Type

/**
 * The steps' page texts as one text block after the JSON, each under a "## step N tool" line (N as in
 * `steps`), so that an agent reads them as text and a program can split them.
 */
export const stepSnapshots = (
  steps: ReadonlyArray<StepResult>,
  tools: ReadonlyArray<string>
): { readonly steps: ReadonlyArray<StepResult>; readonly text: string } => {
  const sections: Array<string> = []
  const lean = steps.map((step, index) => {
    if (step.snapshot === undefined) return step
    const { snapshot, ...rest } = step
    sections.push(`## step ${index} ${tools[index] ?? ""}`.trimEnd() + `\n${snapshot}`)
    return rest
  })
  return { steps: lean, text: sections.join("\n") }
}

class StopBatch extends Data.TaggedError("StopBatch")<{ readonly index: number }> {}

const makeInput = (limits: BatchLimits) =>
  Schema.Struct({
    steps: Schema.Array(StepInput)
      .pipe(
        Schema.minItems(1),
        Schema.maxItems(limits.maxSteps, {
          message: (issue) =>
            `at most ${limits.maxSteps} steps in one batch (${Array.isArray(issue.actual) ? `${issue.actual.length} given` : "more given"}); split it, or raise batch.maxSteps in the config file`
        })
      )
      .annotations({ description: `Up to ${limits.maxSteps}.`, [Evident]: true }),
    stopOnError: Schema.optionalWith(Schema.Boolean, { default: () => false }).annotations({
      description: "Stop at the first failure.",
      [Evident]: true
    }),
    includeObservations: Schema.optionalWith(Schema.Literal("none", "failures", "all"), { default: () => "all" as const }).annotations({
      description: "Default all; none is fastest."
    }),
    batchTimeoutMs: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1_000, 300_000))).annotations({
      description: `Default ${limits.defaultTimeoutMs} ms.`
    }),
    // Each step is checked as it runs anyway; checking all before any runs is for hand-written batches: accepted, not listed (docs/batch.md).
    validateFirst: Schema.optionalWith(Schema.Boolean, { default: () => false }).annotations({
      description: "Check all steps first.",
      [Unlisted]: true
    }),
    executionMode: Schema.optionalWith(Schema.Literal("sequential", "parallel"), {
      default: () => "sequential" as const
    }).annotations({
      description: "parallel: read-only steps only."
    })
  })

/** A step the batch did not run: its deadline had passed (an earlier step failing leaves no result at all). */
const notStarted = (batchTimeoutMs: number): StepResult => ({
  ok: false,
  error: toErrorInfo(new BatchTimeout({ batchTimeoutMs, started: false })),
  skipped: true
})

/** The time the backstops of a batch (and of a replay) leave for a launch step: the launch tool's own deadline. */
export const LAUNCH_ALLOWANCE_MS = 60_000

/** The code the steps after a stopping failure are named with (in `summary.notRun`). */
const BATCH_STOPPED = "MM_BATCH_STOPPED"

/** Step numbers as ranges: "3-9", "2, 5-6". */
const ranges = (indexes: ReadonlyArray<number>): string => {
  const parts: Array<string> = []
  for (let at = 0; at < indexes.length; ) {
    let end = at
    while (end + 1 < indexes.length && indexes[end + 1] === indexes[end]! + 1) end++
    parts.push(end === at ? `${indexes[at]}` : `${indexes[at]}-${indexes[end]}`)
    at = end + 1
  }
  return parts.join(", ")
}

/**
 * The steps that did not run, as one line instead of one result each (a stopped batch of 50 steps repeated
 * the same sentence 49 times), and the results: those up to the last step that ran, a step in between that
 * did not run (a parallel batch) as a bare `{ok: false, skipped: true}`.
 */
const compactNotRun = (
  results: ReadonlyArray<StepResult | undefined>,
  stoppedAt: number | undefined
): { readonly steps: ReadonlyArray<StepResult>; readonly skipped: number; readonly notRun?: string } => {
  const timedOut = results.flatMap((result, index) => (result?.skipped === true ? [index] : []))
  const stopped = results.flatMap((result, index) => (result === undefined ? [index] : []))
  const lastRan = results.findLastIndex((result) => result !== undefined && result.skipped !== true)
  const steps = results.slice(0, lastRan + 1).map((result): StepResult => (result === undefined || result.skipped === true ? { ok: false, skipped: true } : result))
  const timeout = results[timedOut[0] ?? -1]?.error
  const why = [
    stopped.length > 0 ? `${stopped.length === 1 ? "step" : "steps"} ${ranges(stopped)}: step ${stoppedAt ?? "?"} failed and the batch stops on errors (${BATCH_STOPPED})` : undefined,
    timeout !== undefined ? `${timedOut.length === 1 ? "step" : "steps"} ${ranges(timedOut)}: ${timeout.message.replace(/^Not run: /, "")} (${timeout.code})` : undefined
  ].filter((line) => line !== undefined)
  const skipped = stopped.length + timedOut.length
  return why.length === 0 ? { steps, skipped } : { steps, skipped, notRun: `Not run: ${why.join("; ")}` }
}

type BatchInput = Schema.Schema.Type<ReturnType<typeof makeInput>>

/** Finds the step's tool or says why it cannot run in a batch. */
const resolve = (registry: ToolRegistryService, step: StepInput): Either.Either<AnyToolDefinition, ErrorInfo> => {
  const tool = registry.lookup(step.tool)
  if (tool === undefined) {
    return Either.left(toErrorInfo(new UnknownTool({ tool: step.tool, available: registry.tools.map(registry.servedName) })))
  }
  if (tool.name === BATCH_TOOL_NAME) {
    return Either.left(toErrorInfo(new InvalidInput({ field: "tool", problem: `${registry.servedName(tool)} cannot run inside a batch` })))
  }
  return Either.right(tool)
}

const validate = (registry: ToolRegistryService, steps: ReadonlyArray<StepInput>) =>
  Effect.forEach(steps, (step, index) =>
    Either.match(resolve(registry, step), {
      onLeft: (error) => Effect.succeed(Option.some({ index, tool: step.tool, error })),
      onRight: (tool) =>
        decodeInput(tool.input, step.args ?? {}).pipe(
          Effect.match({
            onFailure: (error) => Option.some({ index, tool: step.tool, error: toErrorInfo(error) }),
            onSuccess: () => Option.none()
          })
        )
    })
  ).pipe(Effect.map((results) => results.flatMap(Option.toArray)))

/** Checks the batch against the configured per-tool limits and the parallel-mode rule. */
const checkShape = (limits: BatchLimits, registry: ToolRegistryService, input: BatchInput): Option.Option<InvalidInput> => {
  const counts = new Map<string, number>()
  for (const [index, step] of input.steps.entries()) {
    const tool = registry.lookup(step.tool)
    if (tool === undefined) continue
    const count = (counts.get(tool.name) ?? 0) + 1
    counts.set(tool.name, count)
    const max = limits.toolLimits[tool.name]?.maxSteps
    if (max !== undefined && count > max) {
      return Option.some(
        new InvalidInput({ field: `steps.${index}.tool`, problem: `${step.tool} may appear at most ${max} times in one batch (config batch.toolLimits)` })
      )
    }
    if (input.executionMode === "parallel" && !(tool.annotations.readOnly && tool.concurrencySafe === true)) {
      return Option.some(
        new InvalidInput({
          field: `steps.${index}.tool`,
          problem: `executionMode "parallel" needs read-only steps that do not depend on the page changing; step ${index} (${step.tool}) is not one. Use "sequential".`
        })
      )
    }
  }
  return Option.none()
}

/** With validateFirst: the answer that runs nothing, when a step is invalid. */
const refuseInvalid = (registry: ToolRegistryService, steps: BatchInput["steps"]) =>
  Effect.map(validate(registry, steps), (invalid): Option.Option<RunStepsOutput> => {
    const total = steps.length
    return invalid.length === 0
      ? Option.none()
      : Option.some({
          steps: [],
          summary: { ok: false, total, succeeded: 0, skipped: total },
          invalidSteps: invalid
        })
  })

/** What one step's run shares with the others: the batch's limits, input, id and deadline. */
interface BatchRun {
  readonly limits: BatchLimits
  readonly input: BatchInput
  readonly batchId: string
  readonly batchTimeoutMs: number
}

/**
 * The session a step runs on, as the step's own call resolves it (its `session` argument, else the batch's
 * session or the one a launch step started): none when that names no session.
 */
const stepSession = (step: StepInput) =>
  Effect.flatMap(Sessions, (sessions) => {
    const selector = step.args?.session
    return Effect.option(Effect.map(sessions.resolve({ selector: typeof selector === "string" ? selector : undefined, starts: false }), (handle) => handle.context))
  })

/** Runs one step's tool through runTool and makes its result: the envelope's fields and the step's expectation. */
const runStepTool = (
  run: BatchRun,
  tool: ToolDefinition<unknown, unknown, unknown, unknown, ToolServices>,
  step: StepInput,
  index: number,
  stepStarted: number,
  remaining: number | undefined
) =>
  Effect.gen(function* () {
    const { limits, input, batchId, batchTimeoutMs } = run
    // A launch step's console starts with its new session.
    const consoleCursor =
      step.expectation?.includeConsole === true && tool.startsSession !== true
        ? yield* Effect.flatMap(stepSession(step), (services) => Option.isSome(services) ? Context.get(services.value, Session).consoleCursor : Effect.succeed(0))
        : 0
    const stepTimeout = step.timeoutMs ?? limits.toolLimits[tool.name]?.timeoutMs
    // When the batch deadline is the tighter one, the interrupted step says so with MM_BATCH_TIMEOUT
    // (`remaining` undefined: a launch, outside the batch deadline).
    const batchBinds = remaining !== undefined && (stepTimeout === undefined || remaining < stepTimeout)
    const { envelope } = yield* runTool(tool)(step.args ?? {}, {
      policy: input.includeObservations === "none" ? "none" : input.includeObservations === "failures" ? "failures" : undefined,
      batch: { batchId, index },
      deadlineMs: remaining === undefined ? stepTimeout : stepTimeout === undefined ? remaining : Math.min(stepTimeout, remaining),
      onDeadline: batchBinds ? () => new BatchTimeout({ batchTimeoutMs, started: true }) : undefined
    })
    const expectation = step.expectation
    // What the step ran on: a launch step's new session, or the session its `session` argument names.
    const ranOn = expectation === undefined ? Option.none() : yield* stepSession(step)
    const session = Option.map(ranOn, (services) => Context.get(services, Session))
    const snapshot =
      expectation?.includeSnapshot === true && Option.isSome(ranOn)
        ? yield* Context.get(ranOn.value, Observer).accessibility({ rootSelector: expectation.snapshotSelector }).pipe(
            Effect.map(({ nodes, truncated }) => {
              const rendered = renderNodes(nodes)
              return truncated && !rendered.cut ? `${rendered.text}\n… more nodes than the limit` : rendered.text
            }),
            Effect.option
          )
        : Option.none()
    const screenshot =
      expectation?.includeScreenshot === true && Option.isSome(session)
        ? yield* session.value.screenshot({ name: `${batchId}-step-${index}`, fullPage: false }).pipe(Effect.option)
        : Option.none()
    // Every message while the step ran, in the same short lines as the errors every response carries.
    const allConsole =
      expectation?.includeConsole === true && Option.isSome(session)
        ? consoleLines(yield* session.value.consoleSince(consoleCursor), envelope.page?.url, { all: true, lines: STEP_CONSOLE_LINES })
        : []
    // A step whose result is page text (a snapshot, describe_screen, find) keeps it whatever the observations.
    const keepSnapshot =
      input.includeObservations === "all" ||
      (input.includeObservations === "failures" && !envelope.ok) ||
      (envelope.ok && tool.pageText !== undefined)
    const text = Option.isSome(snapshot) ? snapshot.value : keepSnapshot ? envelope.snapshot : undefined
    const consoleShown = allConsole.length > 0 ? allConsole : envelope.console
    const downloads = expectation?.includeDownloads === true ? (envelope.download !== undefined ? [envelope.download] : envelope.downloads ?? []) : []
    const now = yield* Clock.currentTimeMillis
    const result: StepResult = {
      ...(step.label !== undefined ? { label: step.label } : {}),
      ok: envelope.ok,
      ...(envelope.ok && envelope.result !== undefined ? { result: envelope.result } : {}),
      ...(envelope.error !== undefined ? { error: envelope.error } : {}),
      ...(envelope.page !== undefined ? { page: envelope.page } : {}),
      ...(consoleShown !== undefined && consoleShown.length > 0 ? { console: consoleShown } : {}),
      ...(envelope.notices !== undefined ? { notices: envelope.notices } : {}),
      ...(downloads.length > 0 ? { downloads } : {}),
      ...slowMs(now - stepStarted),
      ...(Option.isSome(screenshot) ? { screenshot: screenshot.value.path } : {}),
      ...(text !== undefined && text !== "" ? { snapshot: text } : {})
    }
    return result
  })

/**
 * The batch's run with the configured limits. It runs its steps' tools from the served registry (which
 * includes this tool itself, which a batch refuses to call).
 */
const runBatch = (limits: BatchLimits) =>
  Effect.fn("tool.run_steps")(function* (input: BatchInput) {
    const startedAt = yield* Clock.currentTimeMillis
    const batchId = `batch-${startedAt.toString(36)}-${randomBytes(3).toString("hex")}`
    const registry = yield* ToolRegistry
    const shapeError = checkShape(limits, registry, input)
    if (Option.isSome(shapeError)) return yield* shapeError.value

    const total = input.steps.length
    if (input.validateFirst) {
      const refused = yield* refuseInvalid(registry, input.steps)
      if (Option.isSome(refused)) return refused.value
    }

    const batchTimeoutMs = input.batchTimeoutMs ?? limits.defaultTimeoutMs
    const run: BatchRun = { limits, input, batchId, batchTimeoutMs }
    // A launch step's time does not count: the deadline is for the steps, and a launch under load (seconds)
    // must not leave the flow's last check too little time to answer. The launch keeps its own deadline.
    const deadline = yield* Ref.make(startedAt + batchTimeoutMs)
    const results = yield* Ref.make<ReadonlyArray<{ readonly index: number; readonly result: StepResult }>>([])
    const completed = yield* Ref.make(0)
    const warnings: Array<string> = []
    let aggregateChars = 0

    /** Keeps the batch's answer within the configured size: results past the budget are cut. */
    const bound = (result: StepResult, index: number): StepResult => {
      const size = JSON.stringify(result).length
      aggregateChars += size
      if (aggregateChars <= limits.maxAggregateChars) return result
      warnings.push(
        `Step ${index} result truncated: the batch passed ${limits.maxAggregateChars} characters of results (config batch.maxAggregateChars).`
      )
      const { snapshot: _snapshot, result: _result, ...rest } = result
      return { ...rest, ...(result.result !== undefined ? { result: { truncated: true, originalChars: size } } : {}) }
    }

    const runStep = (step: StepInput, index: number) =>
      Effect.gen(function* () {
        const stepStarted = yield* Clock.currentTimeMillis
        const remaining = (yield* Ref.get(deadline)) - stepStarted
        const resolved = resolve(registry, step)
        const launches = Either.isRight(resolved) && resolved.right.role === "launch"
        if (remaining <= 0 && !launches) {
          return notStarted(batchTimeoutMs)
        }
        let stepResult: StepResult
        if (Either.isLeft(resolved)) {
          stepResult = { ...(step.label !== undefined ? { label: step.label } : {}), ok: false, error: resolved.left }
        } else {
          const tool = resolved.right as ToolDefinition<unknown, unknown, unknown, unknown, ToolServices>
          stepResult = yield* Effect.scoped(runStepTool(run, tool, step, index, stepStarted, launches ? undefined : remaining))
        }
        if (launches) {
          const took = (yield* Clock.currentTimeMillis) - stepStarted
          yield* Ref.update(deadline, (at) => at + took)
        }
        const done = yield* Ref.updateAndGet(completed, (n) => n + 1)
        yield* reportProgress(done, total, `${stepResult.ok ? "ok" : "failed"}: step ${index} ${step.tool}`)
        return bound(stepResult, index)
      })

    // A failed launch stops the batch unless its step says continueOnError: the steps after it meant its session.
    const launchStep = (step: StepInput) => registry.lookup(step.tool)?.role === "launch"
    const stops = (step: StepInput, result: StepResult) =>
      !result.ok && result.skipped !== true && (step.continueOnError ?? (launchStep(step) ? false : !input.stopOnError)) === false

    yield* Effect.forEach(
      input.steps,
      (step, index) =>
        runStep(step, index).pipe(
          Effect.tap((result) => Ref.update(results, (all) => [...all, { index, result }])),
          Effect.flatMap((result) => (stops(step, result) ? Effect.fail(new StopBatch({ index })) : Effect.void))
        ),
      { concurrency: input.executionMode === "parallel" ? 4 : 1, discard: true }
    ).pipe(Effect.catchTag("StopBatch", () => Effect.void))

    const ran = [...(yield* Ref.get(results))].sort((a, b) => a.index - b.index)
    const byIndex = new Map(ran.map(({ index, result }) => [index, result]))
    const stoppedAt = ran.find(({ index, result }) => stops(input.steps[index]!, result))
    const { steps, skipped, notRun } = compactNotRun(
      input.steps.map((_, index) => byIndex.get(index)),
      stoppedAt?.index
    )
    const succeeded = steps.filter((result) => result.ok).length
    const failed = total - succeeded - skipped
    const output: RunStepsOutput = {
      steps,
      summary: {
        ok: succeeded === total,
        total,
        succeeded,
        ...(failed > 0 ? { failed } : {}),
        ...(skipped > 0 ? { skipped } : {}),
        ...(notRun !== undefined ? { notRun } : {}),
        ...(warnings.length > 0 ? { warnings } : {})
      }
    }
    return output
  })

/** The batch tool, with the configured limits. */
export const makeRunSteps = (limits: BatchLimits = defaultBatchLimits) => {
  const Input = makeInput(limits)
  return defineTool({
    name: BATCH_TOOL_NAME,
    role: "batch",
    title: "Run several steps",
    description:
      "Run known steps in one call, each {tool, args} as alone (launch too), with page text.",
    input: Input,
    output: RunStepsOutput,
    // Its steps are any tools, page actions among them.
    annotations: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
    group: "batch",
    requiresSession: false,
    sessionArgument: true,
    replay: { mode: "never" },
    observation: "none",
    // The batch keeps its own deadline and answers with partial results; this is only a backstop (with room
    // for a launch step, whose time the batch deadline does not count).
    deadlineMs: (input) => (input.batchTimeoutMs ?? limits.defaultTimeoutMs) + LAUNCH_ALLOWANCE_MS + 10_000,
    // Each step is recorded on its own, redacted by its tool; the batch record keeps only its shape.
    // The steps' page texts go after the JSON as one text block.
    attachments: (input, result) => {
      const { steps, text } = stepSnapshots(
        result.steps,
        input.steps.map((step) => step.tool)
      )
      const attachments: ReadonlyArray<Attachment> = text === "" ? [] : [{ type: "text", text }]
      return { result: { ...result, steps }, attachments }
    },
    record: (input) => ({
      input: {
        steps: input.steps.map((step) => ({ tool: step.tool, ...(step.label !== undefined ? { label: step.label } : {}) })),
        stopOnError: input.stopOnError,
        includeObservations: input.includeObservations,
        executionMode: input.executionMode
      }
    }),
    failedWith: batchFailure,
    run: runBatch(limits)
  })
}

/** The error beside a batch's results when not every step succeeded: the failed steps by index and tool. */
const batchFailure = (input: BatchInput, output: RunStepsOutput): BatchFailed | undefined => {
  if (output.summary.ok) return undefined
  if (output.invalidSteps !== undefined) return new BatchFailed({ failed: [], invalid: output.invalidSteps.length })
  const failed = output.steps.flatMap((step, index) =>
    step.ok || step.skipped === true ? [] : [{ index, tool: input.steps[index]?.tool ?? "?", code: step.error?.code ?? "MM_INTERNAL_ERROR" }]
  )
  return new BatchFailed({ failed })
}
