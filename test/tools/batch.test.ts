// mm_run_steps with mock layers: every branch of the runner.
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Fiber, Layer, Option, Ref, Schema, TestClock } from "effect"
import { defaultBatchLimits, type BatchLimits } from "../../src/domain/config.js"
import { TargetNotFound } from "../../src/domain/errors.js"
import type { StepRecord } from "../../src/domain/knowledge.js"
import { makeRegistry, ToolRegistry, type ToolRegistryService } from "../../src/runtime/registry.js"
import { runTool } from "../../src/runtime/runTool.js"
import { defineTool } from "../../src/runtime/tool.js"
import { KnowledgeStore } from "../../src/services/KnowledgeStore.js"
import { Observer } from "../../src/services/Observer.js"
import { Progress } from "../../src/services/Progress.js"
import { Session } from "../../src/services/Session.js"
import { makeRunSteps } from "../../src/tools/batch.js"

const state = { isLoaded: true, currentUrl: "http://127.0.0.1/", title: "t", currentScreen: "unknown" }

const world = Effect.gen(function* () {
  const ran = yield* Ref.make<ReadonlyArray<string>>([])
  const steps = yield* Ref.make<ReadonlyArray<StepRecord>>([])
  const observed = yield* Ref.make(0)
  const running = yield* Ref.make(0)
  const maxRunning = yield* Ref.make(0)
  /** How many times a hanging step was interrupted. */
  const interrupted = yield* Ref.make(0)
  return { ran, steps, observed, running, maxRunning, interrupted }
})
type World = Effect.Effect.Success<typeof world>

const tools = (w: World) => {
  const base = {
    title: "t",
    description: "test tool",
    output: Schema.Struct({ echoed: Schema.String }),
    requiresSession: true,
    observation: "default" as const
  }
  const echo = defineTool({
    ...base,
    name: "echo",
    input: Schema.Struct({ text: Schema.String }),
    annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
    run: (input) => Ref.update(w.ran, (all) => [...all, input.text]).pipe(Effect.as({ echoed: input.text }))
  })
  const fail = defineTool({
    ...base,
    name: "fail",
    input: Schema.Struct({}),
    annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
    run: () =>
      Ref.update(w.ran, (all) => [...all, "fail"]).pipe(
        Effect.zipRight(Effect.fail(new TargetNotFound({ target: "testId:x", detail: "No element matches testId:x." })))
      )
  })
  const hang = defineTool({
    ...base,
    name: "hang",
    input: Schema.Struct({}),
    annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
    run: () =>
      Ref.update(w.ran, (all) => [...all, "hang"]).pipe(
        Effect.zipRight(Effect.never.pipe(Effect.onInterrupt(() => Ref.update(w.interrupted, (n) => n + 1)))),
        Effect.as({ echoed: "" })
      )
  })
  const read = defineTool({
    ...base,
    name: "read",
    input: Schema.Struct({}),
    annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
    concurrencySafe: true,
    run: () =>
      Effect.gen(function* () {
        const now = yield* Ref.updateAndGet(w.running, (n) => n + 1)
        yield* Ref.update(w.maxRunning, (max) => Math.max(max, now))
        yield* Effect.sleep("10 millis")
        yield* Ref.update(w.running, (n) => n - 1)
        return { echoed: "read" }
      })
  })
  return [echo, fail, hang, read]
}

const registryOf = (w: World, limits: BatchLimits = defaultBatchLimits): ToolRegistryService =>
  makeRegistry([...tools(w), makeRunSteps(limits)], "mm")

const layers = (w: World, progress?: Ref.Ref<ReadonlyArray<number>>) =>
  Layer.mergeAll(
    Session.layerTest({
      current: Effect.succeed(Option.some({ sessionId: "s1", startedAt: "", flowTags: [], tags: [] }))
    }),
    Observer.layerTest({
      state: Effect.succeed(state),
      observe: () =>
        Ref.update(w.observed, (n) => n + 1).pipe(Effect.as({ state, testIds: [], a11y: { nodes: [{ ref: "e1", role: "button", name: "Go" }] } }))
    }),
    Layer.succeed(KnowledgeStore, {
      startSession: () => Effect.void,
      recordStep: (step) => Ref.update(w.steps, (all) => [...all, step]),
      steps: () => Ref.get(w.steps),
      sessions: Effect.succeed([])
    }),
    Layer.succeed(Progress, {
      report: (done) => (progress === undefined ? Effect.void : Ref.update(progress, (all) => [...all, done]))
    })
  )

/** The batch's envelope, and the text block with its steps' page texts ("" when none). */
const batch = (w: World, args: Record<string, unknown>, limits?: BatchLimits) => {
  const registry = registryOf(w, limits)
  return (runTool(registry.lookup("run_steps")!)(args).pipe(Effect.provideService(ToolRegistry, registry)) as Effect.Effect<
    { readonly envelope: unknown; readonly attachments: ReadonlyArray<{ readonly type: string; readonly text?: string }> },
    never,
    Session | Observer | KnowledgeStore | Progress
  >).pipe(
    Effect.map(({ envelope, attachments }) => ({
      ...(envelope as { ok: boolean; result: any; error?: any }),
      text: attachments.find((block) => block.type === "text")?.text ?? ""
    }))
  )
}

const echo = (text: string) => ({ tool: "mm_echo", args: { text } })

describe("mm_run_steps", () => {
  it.effect("accumulates by default: every step runs; a failed step makes the call an error, with per-step results beside it", () =>
    Effect.gen(function* () {
      const w = yield* world
      const envelope = yield* batch(w, { steps: [echo("a"), { tool: "fail" }, echo("b")] }).pipe(Effect.provide(layers(w)))
      // An agent that reads only ok does not take it for a success (docs/batch.md); the error names the step, once.
      expect(envelope.ok).toBe(false)
      expect(envelope.error).toEqual({ code: "MM_BATCH_FAILED", message: "Step 1 (fail, MM_TARGET_NOT_FOUND) failed; each one's error is in its result." })
      expect(yield* Ref.get(w.ran)).toEqual(["a", "fail", "b"])
      expect(envelope.result.steps.map((s: any) => s.ok)).toEqual([true, false, true])
      expect(envelope.result.steps[1].error.code).toBe("MM_TARGET_NOT_FOUND")
      // Counts that are zero are left out.
      expect(envelope.result.summary).toEqual({ ok: false, total: 3, succeeded: 2, failed: 1 })
      const fine = yield* batch(w, { steps: [echo("c")] }).pipe(Effect.provide(layers(w)))
      expect(fine.ok).toBe(true)
      expect(fine.error).toBeUndefined()
    }))

  it.effect("stopOnError short-circuits and names the steps not run in one line, not one result each", () =>
    Effect.gen(function* () {
      const w = yield* world
      const steps = [echo("a"), { tool: "fail" }, ...Array.from({ length: 20 }, (_, i) => echo(`b${i}`))]
      const envelope = yield* batch(w, { steps, stopOnError: true }).pipe(Effect.provide(layers(w)))
      expect(yield* Ref.get(w.ran)).toEqual(["a", "fail"])
      // The batch stopped: the call is an error as in accumulate mode, its results beside it (docs/batch.md).
      expect(envelope.ok).toBe(false)
      expect(envelope.error.code).toBe("MM_BATCH_FAILED")
      expect(envelope.error.message).toMatch(/^Step 1 \(fail, MM_TARGET_NOT_FOUND\) failed/)
      expect(envelope.result.steps.map((step: any) => step.ok)).toEqual([true, false])
      expect(envelope.result.summary).toEqual({
        ok: false,
        total: 22,
        succeeded: 1,
        failed: 1,
        skipped: 20,
        notRun: "Not run: steps 2-21: step 1 failed and the batch stops on errors (MM_BATCH_STOPPED)"
      })
      expect(JSON.stringify(envelope.result).match(/Not run/g)).toHaveLength(1)
      const one = yield* batch(w, { steps: [{ tool: "fail" }, echo("c")], stopOnError: true }).pipe(Effect.provide(layers(w)))
      expect(one.result.summary.notRun).toBe("Not run: step 1: step 0 failed and the batch stops on errors (MM_BATCH_STOPPED)")
    }))

  it.effect("a step's continueOnError wins over stopOnError, both ways", () =>
    Effect.gen(function* () {
      const w = yield* world
      yield* batch(w, { steps: [{ tool: "fail", continueOnError: true }, echo("a")], stopOnError: true }).pipe(Effect.provide(layers(w)))
      expect(yield* Ref.get(w.ran)).toEqual(["fail", "a"])
      const w2 = yield* world
      yield* batch(w2, { steps: [{ tool: "fail", continueOnError: false }, echo("b")] }).pipe(Effect.provide(layers(w2)))
      expect(yield* Ref.get(w2.ran)).toEqual(["fail"])
    }))

  it.effect("an unknown tool, invalid args and a nested batch fail their own step with clear codes; names work with or without the prefix", () =>
    Effect.gen(function* () {
      const w = yield* world
      const envelope = yield* batch(w, {
        steps: [
          { tool: "mm_nope" },
          { tool: "echo", args: { text: 3 } },
          { tool: "mm_run_steps", args: { steps: [echo("x")] } },
          { tool: "echo", args: { text: "bare" }, label: "bare name" }
        ]
      }).pipe(Effect.provide(layers(w)))
      const [unknown, invalid, nested, bare] = envelope.result.steps
      expect(unknown.error.code).toBe("MM_UNKNOWN_TOOL")
      expect(invalid.error.code).toBe("MM_INVALID_INPUT")
      expect(invalid.error.details.field).toBe("text")
      expect(nested.error.code).toBe("MM_INVALID_INPUT")
      expect(nested.error.message).toContain("cannot run inside a batch")
      expect(bare).toMatchObject({ ok: true, label: "bare name", result: { echoed: "bare" } })
      expect(yield* Ref.get(w.ran)).toEqual(["bare"])
    }))

  it.effect("validateFirst runs nothing when a step is invalid and lists each bad step", () =>
    Effect.gen(function* () {
      const w = yield* world
      const envelope = yield* batch(w, {
        steps: [echo("a"), { tool: "echo", args: {} }, { tool: "zzz" }],
        validateFirst: true
      }).pipe(Effect.provide(layers(w)))
      expect(yield* Ref.get(w.ran)).toEqual([])
      expect(envelope.result.invalidSteps.map((s: any) => [s.index, s.error.code])).toEqual([
        [1, "MM_INVALID_INPUT"],
        [2, "MM_UNKNOWN_TOOL"]
      ])
      expect(envelope.result.summary).toEqual({ ok: false, total: 3, succeeded: 0, skipped: 3 })
      expect(envelope.ok).toBe(false)
      expect(envelope.error.message).toBe("2 steps are invalid (invalidSteps); nothing ran.")
    }))

  it.effect("the batch deadline interrupts a hanging step with MM_BATCH_TIMEOUT, skips the rest, and keeps earlier results", () =>
    Effect.gen(function* () {
      const w = yield* world
      const fiber = yield* Effect.fork(
        batch(w, { steps: [echo("a"), { tool: "hang" }, echo("never")], batchTimeoutMs: 1_000 }).pipe(Effect.provide(layers(w)))
      )
      yield* TestClock.adjust("1 second")
      const envelope = yield* Fiber.join(fiber)
      const [first, hung, rest] = envelope.result.steps
      expect(first.ok).toBe(true)
      expect(hung.error.code).toBe("MM_BATCH_TIMEOUT")
      expect(rest).toBeUndefined()
      expect(envelope.result.summary).toMatchObject({ skipped: 1, notRun: expect.stringMatching(/^Not run: step 2: the batch deadline \(1000 ms\) had passed\. .*\(MM_BATCH_TIMEOUT\)$/) })
      expect(yield* Ref.get(w.ran)).toEqual(["a", "hang"])
    }))

  it.effect("a step's own timeoutMs interrupts it with the tool's code and the batch goes on", () =>
    Effect.gen(function* () {
      const w = yield* world
      const fiber = yield* Effect.fork(
        batch(w, { steps: [{ tool: "hang", timeoutMs: 500 }, echo("after")] }).pipe(Effect.provide(layers(w)))
      )
      yield* TestClock.adjust("500 millis")
      const envelope = yield* Fiber.join(fiber)
      expect(envelope.result.steps[0].error.code).toBe("MM_TIMEOUT")
      expect(envelope.result.steps[1].ok).toBe(true)
    }))

  it.effect("parallel mode is refused when a step could change the page, naming the step", () =>
    Effect.gen(function* () {
      const w = yield* world
      const envelope = yield* batch(w, { steps: [{ tool: "read" }, echo("a")], executionMode: "parallel" }).pipe(
        Effect.provide(layers(w))
      )
      expect(envelope.ok).toBe(false)
      expect(envelope.error.code).toBe("MM_INVALID_INPUT")
      expect(envelope.error.details.field).toBe("steps.1.tool")
      expect(yield* Ref.get(w.ran)).toEqual([])
    }))

  it.live("parallel mode runs read-only steps concurrently", () =>
    Effect.gen(function* () {
      const w = yield* world
      const envelope = yield* batch(w, { steps: [{ tool: "read" }, { tool: "read" }, { tool: "read" }], executionMode: "parallel" }).pipe(
        Effect.provide(layers(w))
      )
      expect(envelope.ok).toBe(true)
      expect(envelope.result.summary).toEqual({ ok: true, total: 3, succeeded: 3 })
      expect(yield* Ref.get(w.maxRunning)).toBeGreaterThan(1)
    }))

  it.effect("limits: too many steps, a per-tool cap, and result truncation past the aggregate size with a warning", () =>
    Effect.gen(function* () {
      const w = yield* world
      const tooMany = yield* batch(w, { steps: Array.from({ length: 51 }, () => echo("a")) }).pipe(Effect.provide(layers(w)))
      expect(tooMany.error.code).toBe("MM_INVALID_INPUT")
      expect(tooMany.error.details.field).toBe("steps")
      const capped = yield* batch(w, { steps: [echo("a"), echo("b")] }, { ...defaultBatchLimits, toolLimits: { echo: { maxSteps: 1 } } }).pipe(
        Effect.provide(layers(w))
      )
      expect(capped.error.details.field).toBe("steps.1.tool")
      const big = "x".repeat(1_500)
      const truncated = yield* batch(w, { steps: [echo(big), echo(big)], includeObservations: "none" }, { ...defaultBatchLimits, maxAggregateChars: 2_000 }).pipe(
        Effect.provide(layers(w))
      )
      expect(truncated.result.steps[0].result.echoed).toBe(big)
      expect(truncated.result.steps[1].result).toMatchObject({ truncated: true })
      expect(truncated.result.summary.warnings[0]).toContain("truncated")
    }))

  it.effect("includeObservations none skips the full observation; failures keeps it only for failing steps", () =>
    Effect.gen(function* () {
      const w = yield* world
      const none = yield* batch(w, { steps: [echo("a"), { tool: "fail" }], includeObservations: "none" }).pipe(Effect.provide(layers(w)))
      expect(yield* Ref.get(w.observed)).toBe(0)
      expect(none.text).toBe("")
      const failures = yield* batch(w, { steps: [echo("a"), { tool: "fail" }], includeObservations: "failures" }).pipe(
        Effect.provide(layers(w))
      )
      expect(yield* Ref.get(w.observed)).toBe(1)
      // The page texts follow the JSON as one text block, each under its step's heading.
      expect(failures.text).toBe('## step 1 fail\nbutton "Go" [e1]')
      expect(JSON.stringify(failures.result)).not.toContain("snapshot")
      const all = yield* batch(w, { steps: [echo("a")] }).pipe(Effect.provide(layers(w)))
      expect(all.text).toBe('## step 0 mm_echo\nbutton "Go" [e1]')
    }))

  it.effect("each step is recorded on its own with the batch id and index; the batch record keeps no arguments", () =>
    Effect.gen(function* () {
      const w = yield* world
      yield* batch(w, { steps: [echo("a"), { tool: "echo", args: { text: "b" } }] }).pipe(Effect.provide(layers(w)))
      const steps = yield* Ref.get(w.steps)
      const inner = steps.filter((step) => step.tool.name === "echo")
      const batchId = inner[0]?.batch?.batchId
      expect(batchId).toMatch(/^batch-/)
      expect(inner.map((step) => step.batch)).toEqual([
        { batchId, index: 0 },
        { batchId, index: 1 }
      ])
      const outer = steps.find((step) => step.tool.name === "run_steps")
      expect(JSON.stringify(outer?.tool.input)).not.toContain('"text"')
    }))

  it.effect("reports progress after each step when the client asked for it", () =>
    Effect.gen(function* () {
      const w = yield* world
      const progress = yield* Ref.make<ReadonlyArray<number>>([])
      yield* batch(w, { steps: [echo("a"), echo("b"), echo("c")] }).pipe(Effect.provide(layers(w, progress)))
      expect(yield* Ref.get(progress)).toEqual([1, 2, 3])
    }))

  it.effect("interrupting the call stops the batch at once", () =>
    Effect.gen(function* () {
      const w = yield* world
      const fiber = yield* Effect.fork(batch(w, { steps: [echo("a"), { tool: "hang" }, echo("never")] }).pipe(Effect.provide(layers(w))))
      // Until the hanging step runs (no time passes on the test clock: nothing else can end it).
      while (!(yield* Ref.get(w.ran)).includes("hang")) yield* Effect.yieldNow()
      const exit = yield* Fiber.interrupt(fiber)
      // The call ends interrupted (no answer made up for it), the running step itself was interrupted
      // (not left running in a fiber of its own), and no later step started.
      expect(Exit.isInterrupted(exit)).toBe(true)
      expect(yield* Ref.get(w.interrupted)).toBe(1)
      expect(yield* Ref.get(w.ran)).toEqual(["a", "hang"])
    }))
})
