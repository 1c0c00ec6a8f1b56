// mm_run_steps: many tool calls in one request, each through the same runTool as a single call.
// Effect.forEach over the steps: short-circuit on a stopping failure, accumulate otherwise.
import { randomBytes } from "node:crypto"
import { Clock, Data, Effect, Either, Option, Ref, Schema } from "effect"
import { defaultBatchLimits, type BatchLimits } from "../domain/config.js"
import { ErrorObject } from "../domain/envelope.js"
import { BatchTimeout, InvalidInput, toErrorInfo, UnknownTool, type ErrorInfo } from "../domain/errors.js"
import { A11yNode, Observation } from "../domain/observation.js"
import type { ToolRegistry } from "../runtime/registry.js"
import { decodeInput, runTool } from "../runtime/runTool.js"
import { defineTool, ListedAs, Unlisted, type AnyToolDefinition, type ToolDefinition, type ToolServices } from "../runtime/tool.js"
import { Observer } from "../services/Observer.js"
import { reportProgress } from "../services/Progress.js"
import { Session } from "../services/Session.js"

export const BATCH_TOOL_NAME = "run_steps"

const Expectation = Schema.Struct({
  includeSnapshot: Schema.optional(Schema.Boolean).annotations({
    description: "Add the accessibility nodes (with refs) after this step to its result."
  }),
  snapshotSelector: Schema.optional(Schema.String.pipe(Schema.minLength(1))).annotations({
    description: "CSS selector that limits that snapshot."
  }),
  includeScreenshot: Schema.optional(Schema.Boolean).annotations({
    description: "Save a screenshot after this step and add its path."
  }),
  includeConsole: Schema.optional(Schema.Boolean).annotations({
    description: "Add the console messages and uncaught page errors logged while this step ran."
  })
}).annotations({ [ListedAs]: { type: "object" } })

const StepInput = Schema.Struct({
  tool: Schema.String.pipe(Schema.minLength(1)).annotations({
    description: "Tool name."
  }),
  args: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown })).annotations({
    description: "Its arguments."
  }),
  label: Schema.optional(Schema.String.pipe(Schema.maxLength(200))).annotations({
    description: "Echoed back.",
    // The step's index names it as well; labels are for batches people write.
    [Unlisted]: true
  }),
  timeoutMs: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(100, 300_000))).annotations({
    description: "Step deadline, ms."
  }),
  continueOnError: Schema.optional(Schema.Boolean).annotations({
    description: "Overrides stopOnError."
  }),
  expectation: Schema.optional(Expectation).annotations({
    description: "{includeSnapshot?, snapshotSelector?, includeScreenshot?, includeConsole?}"
  })
})
type StepInput = typeof StepInput.Type

const StepResult = Schema.Struct({
  index: Schema.Number,
  label: Schema.optional(Schema.String),
  tool: Schema.String,
  ok: Schema.Boolean,
  result: Schema.optional(Schema.Unknown),
  error: Schema.optional(ErrorObject),
  observation: Schema.optional(Observation),
  snapshot: Schema.optional(Schema.Struct({ nodes: Schema.Array(A11yNode), truncated: Schema.optional(Schema.Boolean) })),
  screenshot: Schema.optional(Schema.String).annotations({ description: "Path of the screenshot taken after the step." }),
  console: Schema.optional(
    Schema.Array(Schema.Struct({ type: Schema.String, text: Schema.String, url: Schema.String }))
  ).annotations({ description: "Console messages logged while the step ran (expectation.includeConsole)." }),
  meta: Schema.Struct({
    durationMs: Schema.Number,
    timestamp: Schema.String,
    skipped: Schema.optional(Schema.Boolean)
  })
})
type StepResult = typeof StepResult.Type

const RunStepsOutput = Schema.Struct({
  batchId: Schema.String,
  steps: Schema.Array(StepResult),
  summary: Schema.Struct({
    ok: Schema.Boolean.annotations({ description: "True when every step succeeded." }),
    total: Schema.Number,
    succeeded: Schema.Number,
    failed: Schema.Number,
    skipped: Schema.Number,
    durationMs: Schema.Number,
    executionMode: Schema.Literal("sequential", "parallel"),
    warnings: Schema.Array(Schema.String)
  }),
  invalidSteps: Schema.optional(
    Schema.Array(Schema.Struct({ index: Schema.Number, tool: Schema.String, error: ErrorObject }))
  ).annotations({ description: "With validateFirst: the steps that failed validation (then nothing ran)." })
})
type RunStepsOutput = typeof RunStepsOutput.Type

class StopBatch extends Data.TaggedError("StopBatch")<{ readonly index: number }> {}

const makeInput = (limits: BatchLimits) =>
  Schema.Struct({
    steps: Schema.Array(StepInput)
      .pipe(Schema.minItems(1), Schema.maxItems(limits.maxSteps))
      .annotations({ description: `Up to ${limits.maxSteps}.` }),
    stopOnError: Schema.optionalWith(Schema.Boolean, { default: () => false }).annotations({
      description: "Stop at the first failure."
    }),
    includeObservations: Schema.optionalWith(Schema.Literal("none", "failures", "all"), { default: () => "all" as const }).annotations({
      description: "Default all; none is fastest."
    }),
    batchTimeoutMs: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1_000, 300_000))).annotations({
      description: `Default ${limits.defaultTimeoutMs} ms.`
    }),
    validateFirst: Schema.optionalWith(Schema.Boolean, { default: () => false }).annotations({
      description: "Check all steps first."
    }),
    executionMode: Schema.optionalWith(Schema.Literal("sequential", "parallel"), {
      default: () => "sequential" as const
    }).annotations({
      description: "parallel: read-only steps only."
    })
  })

/**
 * The batch tool over a registry. The registry is read when the batch runs, so it may include this
 * tool itself (which a batch refuses to call).
 */
export const makeRunSteps = (registry: () => ToolRegistry, limits: BatchLimits = defaultBatchLimits) => {
  const Input = makeInput(limits)
  type Input = typeof Input.Type

  const servedBatchName = () => {
    const prefix = registry().prefix
    return prefix === "" ? BATCH_TOOL_NAME : `${prefix}_${BATCH_TOOL_NAME}`
  }

  /** Finds the step's tool or says why it cannot run in a batch. */
  const resolve = (step: StepInput): Either.Either<AnyToolDefinition, ErrorInfo> => {
    const tool = registry().lookup(step.tool)
    if (tool === undefined) {
      return Either.left(toErrorInfo(new UnknownTool({ tool: step.tool, available: registry().tools.map(registry().servedName) })))
    }
    if (tool.name === BATCH_TOOL_NAME) {
      return Either.left(
        toErrorInfo(new InvalidInput({ field: "tool", problem: `${servedBatchName()} cannot run inside a batch` }))
      )
    }
    return Either.right(tool)
  }

  const validate = (steps: ReadonlyArray<StepInput>) =>
    Effect.forEach(steps, (step, index) =>
      Either.match(resolve(step), {
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
  const checkShape = (input: Input): Option.Option<InvalidInput> => {
    const counts = new Map<string, number>()
    for (const [index, step] of input.steps.entries()) {
      const tool = registry().lookup(step.tool)
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

  const program = Effect.fn("tool.run_steps")(function* (input: Input) {
    const startedAt = yield* Clock.currentTimeMillis
    const batchId = `batch-${startedAt.toString(36)}-${randomBytes(3).toString("hex")}`
    const shapeError = checkShape(input)
    if (Option.isSome(shapeError)) return yield* shapeError.value

    const total = input.steps.length
    const emptySummary = (skipped: number, warnings: ReadonlyArray<string>) =>
      Effect.map(Clock.currentTimeMillis, (now) => ({
        ok: false,
        total,
        succeeded: 0,
        failed: 0,
        skipped,
        durationMs: now - startedAt,
        executionMode: input.executionMode,
        warnings
      }))

    if (input.validateFirst) {
      const invalid = yield* validate(input.steps)
      if (invalid.length > 0) {
        const output: RunStepsOutput = {
          batchId,
          steps: [],
          summary: yield* emptySummary(total, [`${invalid.length} of ${total} steps are invalid; nothing ran.`]),
          invalidSteps: invalid
        }
        return output
      }
    }

    const batchTimeoutMs = input.batchTimeoutMs ?? limits.defaultTimeoutMs
    const deadline = startedAt + batchTimeoutMs
    const results = yield* Ref.make<ReadonlyArray<StepResult>>([])
    const completed = yield* Ref.make(0)
    const warnings: Array<string> = []
    let aggregateChars = 0

    const skippedResult = (step: StepInput, index: number, error: ErrorInfo) =>
      Effect.map(Clock.currentTimeMillis, (now): StepResult => ({
        index,
        ...(step.label !== undefined ? { label: step.label } : {}),
        tool: step.tool,
        ok: false,
        error,
        meta: { durationMs: 0, timestamp: new Date(now).toISOString(), skipped: true }
      }))

    /** Keeps the batch's answer within the configured size: results past the budget are cut. */
    const bound = (result: StepResult): StepResult => {
      const size = JSON.stringify(result).length
      aggregateChars += size
      if (aggregateChars <= limits.maxAggregateChars) return result
      warnings.push(
        `Step ${result.index} result truncated: the batch passed ${limits.maxAggregateChars} characters of results (config batch.maxAggregateChars).`
      )
      const { observation: _observation, snapshot: _snapshot, result: _result, ...rest } = result
      return { ...rest, ...(result.result !== undefined ? { result: { truncated: true, originalChars: size } } : {}) }
    }

    const runStep = (step: StepInput, index: number) =>
      Effect.gen(function* () {
        const stepStarted = yield* Clock.currentTimeMillis
        const remaining = deadline - stepStarted
        if (remaining <= 0) {
          return yield* skippedResult(step, index, toErrorInfo(new BatchTimeout({ batchTimeoutMs, started: false })))
        }
        const resolved = resolve(step)
        let stepResult: StepResult
        if (Either.isLeft(resolved)) {
          const now = yield* Clock.currentTimeMillis
          stepResult = {
            index,
            ...(step.label !== undefined ? { label: step.label } : {}),
            tool: step.tool,
            ok: false,
            error: resolved.left,
            meta: { durationMs: now - stepStarted, timestamp: new Date(now).toISOString() }
          }
        } else {
          const tool = resolved.right as ToolDefinition<unknown, unknown, unknown, unknown, ToolServices>
          const session = yield* Session
          const consoleCursor = step.expectation?.includeConsole === true ? yield* session.consoleCursor : 0
          const stepTimeout = step.timeoutMs ?? limits.toolLimits[tool.name]?.timeoutMs
          // When the batch deadline is the tighter one, the interrupted step says so with MM_BATCH_TIMEOUT.
          const batchBinds = stepTimeout === undefined || remaining < stepTimeout
          const { envelope } = yield* runTool(tool)(step.args ?? {}, {
            policy: input.includeObservations === "none" ? "none" : input.includeObservations === "failures" ? "failures" : undefined,
            batch: { batchId, index },
            deadlineMs: stepTimeout === undefined ? remaining : Math.min(stepTimeout, remaining),
            onDeadline: batchBinds ? () => new BatchTimeout({ batchTimeoutMs, started: true }) : undefined
          })
          const expectation = step.expectation
          const snapshot =
            expectation?.includeSnapshot === true
              ? yield* Effect.flatMap(Observer, (observer) =>
                  observer.accessibility({ rootSelector: expectation.snapshotSelector })
                ).pipe(Effect.option)
              : Option.none()
          const screenshot =
            expectation?.includeScreenshot === true
              ? yield* session.screenshot({ name: `${batchId}-step-${index}`, fullPage: false }).pipe(Effect.option)
              : Option.none()
          const consoleMessages =
            expectation?.includeConsole === true ? Option.some(yield* session.consoleSince(consoleCursor)) : Option.none()
          const keepObservation =
            envelope.observation !== undefined &&
            (input.includeObservations === "all" || (input.includeObservations === "failures" && !envelope.ok))
          const now = yield* Clock.currentTimeMillis
          stepResult = {
            index,
            ...(step.label !== undefined ? { label: step.label } : {}),
            tool: step.tool,
            ok: envelope.ok,
            ...(envelope.ok ? { result: envelope.result } : {}),
            ...(envelope.error !== undefined ? { error: envelope.error } : {}),
            ...(keepObservation ? { observation: envelope.observation } : {}),
            ...(Option.isSome(snapshot)
              ? { snapshot: { nodes: snapshot.value.nodes, ...(snapshot.value.truncated ? { truncated: true } : {}) } }
              : {}),
            ...(Option.isSome(screenshot) ? { screenshot: screenshot.value.path } : {}),
            ...(Option.isSome(consoleMessages) ? { console: consoleMessages.value } : {}),
            meta: { durationMs: now - stepStarted, timestamp: new Date(now).toISOString() }
          }
        }
        const done = yield* Ref.updateAndGet(completed, (n) => n + 1)
        yield* reportProgress(done, total, `${stepResult.ok ? "ok" : "failed"}: step ${index} ${step.tool}`)
        return bound(stepResult)
      })

    const stops = (step: StepInput, result: StepResult) =>
      !result.ok && !result.meta.skipped && (step.continueOnError ?? !input.stopOnError) === false

    yield* Effect.forEach(
      input.steps,
      (step, index) =>
        runStep(step, index).pipe(
          Effect.tap((result) => Ref.update(results, (all) => [...all, result])),
          Effect.flatMap((result) => (stops(step, result) ? Effect.fail(new StopBatch({ index })) : Effect.void))
        ),
      { concurrency: input.executionMode === "parallel" ? 4 : 1, discard: true }
    ).pipe(Effect.catchTag("StopBatch", () => Effect.void))

    const ran = [...(yield* Ref.get(results))].sort((a, b) => a.index - b.index)
    const ranIndexes = new Set(ran.map((result) => result.index))
    const stoppedAt = ran.find((result) => stops(input.steps[result.index]!, result))
    const notRun = yield* Effect.forEach(
      input.steps.flatMap((step, index) => (ranIndexes.has(index) ? [] : [{ step, index }])),
      ({ step, index }) =>
        skippedResult(step, index, {
          code: "MM_BATCH_STOPPED",
          message: `Not run: step ${stoppedAt?.index ?? "?"} failed and the batch stops on errors.`
        })
    )
    const steps = [...ran, ...notRun].sort((a, b) => a.index - b.index)
    const skipped = steps.filter((result) => result.meta.skipped === true).length
    const succeeded = steps.filter((result) => result.ok).length
    const finishedAt = yield* Clock.currentTimeMillis
    const output: RunStepsOutput = {
      batchId,
      steps,
      summary: {
        ok: succeeded === total,
        total,
        succeeded,
        failed: total - succeeded - skipped,
        skipped,
        durationMs: finishedAt - startedAt,
        executionMode: input.executionMode,
        warnings
      }
    }
    return output
  })

  return defineTool({
    name: BATCH_TOOL_NAME,
    title: "Run several steps",
    description:
      "Run known steps in one call, each {tool, args} as a single call would (launch too). Returns {steps, summary}.",
    input: Input,
    output: RunStepsOutput,
    annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
    group: "batch",
    requiresSession: false,
    replay: { mode: "never" },
    observation: "none",
    // The batch keeps its own deadline and answers with partial results; this is only a backstop.
    deadlineMs: (input) => (input.batchTimeoutMs ?? limits.defaultTimeoutMs) + 10_000,
    // Each step is recorded on its own, redacted by its tool; the batch record keeps only its shape.
    record: (input) => ({
      input: {
        steps: input.steps.map((step) => ({ tool: step.tool, ...(step.label !== undefined ? { label: step.label } : {}) })),
        stopOnError: input.stopOnError,
        includeObservations: input.includeObservations,
        executionMode: input.executionMode
      }
    }),
    run: program
  })
}
