// runTool with mock layers: every branch (decode, session gate, policies, deadline, recording, defects).
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Layer, Option, Ref, Schema, TestClock } from "effect"
import { KnowledgeError, NoActiveSession, PageClosed, TargetNotFound } from "../../src/domain/errors.js"
import type { StepRecord } from "../../src/domain/knowledge.js"
import type { Observation } from "../../src/domain/observation.js"
import { decodeInput, runTool } from "../../src/runtime/runTool.js"
import { defineTool } from "../../src/runtime/tool.js"
import { noteSighting } from "../../src/services/Deadline.js"
import { actionDeadline } from "../../src/tools/shared.js"
import { waitFor } from "../../src/tools/interaction.js"
import { sessions } from "../../src/tools/session.js"
import { KnowledgeStore } from "../../src/services/KnowledgeStore.js"
import { Observer, type ObserveOptions } from "../../src/services/Observer.js"
import { Secrets } from "../../src/services/Secrets.js"
import { Session } from "../../src/services/Session.js"

const state = (url: string) => ({ isLoaded: true, currentUrl: url, title: "t", currentScreen: "unknown" })
const sessionInfo = { sessionId: "mm-test-1", startedAt: "2026-01-01T00:00:00.000Z", flowTags: [], tags: [] }

/** A fake page whose URL the tools under test can change, so we can tell when observation happened. */
const makeWorld = Effect.gen(function* () {
  const url = yield* Ref.make("http://127.0.0.1/before")
  const observeCalls = yield* Ref.make<ReadonlyArray<ObserveOptions | "state">>([])
  const steps = yield* Ref.make<ReadonlyArray<StepRecord>>([])
  return { url, observeCalls, steps }
})
type World = Effect.Effect.Success<typeof makeWorld>

const layers = (
  world: World,
  options: {
    readonly session?: boolean
    readonly recordFails?: boolean
    readonly observeFails?: boolean
    readonly notices?: ReadonlyArray<string>
  } = {}
) =>
  Layer.mergeAll(
    Session.layerTest({
      current: Effect.succeed(options.session === false ? Option.none() : Option.some(sessionInfo)),
      takeNotices: Effect.succeed(options.notices ?? [])
    }),
    Observer.layerTest({
      state: options.observeFails
        ? Effect.fail(new PageClosed({ detail: "gone" }))
        : Ref.update(world.observeCalls, (calls) => [...calls, "state" as const]).pipe(
            Effect.zipRight(Ref.get(world.url)),
            Effect.map(state)
          ),
      observe: (observeOptions) =>
        options.observeFails
          ? Effect.fail(new PageClosed({ detail: "gone" }))
          : Ref.update(world.observeCalls, (calls) => [...calls, observeOptions]).pipe(
              Effect.zipRight(Ref.get(world.url)),
              Effect.map(
                (url): Observation => ({
                  state: state(url),
                  testIds: [{ testId: "x", tag: "button", visible: true }],
                  a11y: { nodes: [{ ref: "e1", role: "button", name: "X" }] }
                })
              )
            )
    }),
    Layer.succeed(KnowledgeStore, {
      startSession: () => Effect.void,
      recordStep: (step) =>
        options.recordFails ? Effect.fail(new KnowledgeError({ detail: "disk full" })) : Ref.update(world.steps, (all) => [...all, step]),
      steps: () => Ref.get(world.steps),
      sessions: Effect.succeed([])
    })
  )

const baseTool = {
  title: "Test tool",
  description: "A tool for tests.",
  output: Schema.Struct({ done: Schema.Boolean }),
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  requiresSession: true
} as const

const Input = Schema.Struct({
  value: Schema.Number.pipe(Schema.between(0, 10)),
  password: Schema.optional(Schema.String)
})

/** A tool that moves the fake page to /after, then succeeds or fails as asked. */
const movingTool = (world: World, observation: "default" | "none" | "failures" | "custom", fail: boolean) =>
  defineTool({
    ...baseTool,
    name: "moving",
    input: Input,
    observation,
    observe: () => ({ state: state("custom://observation") }),
    run: () =>
      Ref.set(world.url, "http://127.0.0.1/after").pipe(
        Effect.zipRight(
          fail
            ? Effect.fail(new TargetNotFound({ target: "testId:x", detail: "No element matches testId:x." }))
            : Effect.succeed({ done: true })
        )
      )
  })

const isFull = (call: ObserveOptions | "state" | undefined) => call !== undefined && call !== "state" && call.a11y && call.testIds

describe("runTool", () => {
  it.effect("invalid input answers MM_INVALID_INPUT naming the field, without running the tool", () =>
    Effect.gen(function* () {
      const world = yield* makeWorld
      let ran = false
      const tool = defineTool({
        ...baseTool,
        name: "strict",
        input: Input,
        observation: "none",
        run: () => Effect.sync(() => ((ran = true), { done: true }))
      })
      const { envelope } = yield* runTool(tool)({ value: 99 }).pipe(Effect.provide(layers(world)))
      expect(envelope.ok).toBe(false)
      expect(envelope.error?.code).toBe("MM_INVALID_INPUT")
      expect(envelope.error?.details?.field).toBe("value")
      expect(envelope.error?.message).toContain('"value"')
      expect(ran).toBe(false)
      expect(yield* Ref.get(world.steps)).toHaveLength(0)
    }))

  it.effect("a union field's failure is one issue naming every member an agent can send, never 'Expected undefined'", () =>
    Effect.gen(function* () {
      const schema = Schema.Struct({
        network: Schema.optional(Schema.Union(Schema.Literal("slow-3g", "fast-3g"), Schema.Struct({ latencyMs: Schema.Number }))),
        count: Schema.optional(Schema.Number)
      })
      const error = yield* Effect.flip(decodeInput(schema, { network: "bad", count: "x" }))
      expect(error.issues).toEqual([
        { field: "network", problem: 'Expected "slow-3g" | "fast-3g" | { readonly latencyMs: number }, actual "bad"' },
        { field: "count", problem: 'Expected number, actual "x"' }
      ])
      expect(error.message).toBe('Invalid input at "network": Expected "slow-3g" | "fast-3g" | { readonly latencyMs: number }, actual "bad"')
      // A member that matched in shape keeps its own issues beside the others'.
      const nested = yield* Effect.flip(decodeInput(schema, { network: {} }))
      expect(nested.issues).toEqual([
        { field: "network", problem: 'Expected "slow-3g" | "fast-3g", actual {}' },
        { field: "network.latencyMs", problem: "is missing" }
      ])
    })
  )

  it.effect("an unexpected property is MM_INVALID_INPUT naming that property", () =>
    Effect.gen(function* () {
      const world = yield* makeWorld
      const { envelope } = yield* runTool(movingTool(world, "none", false))({ value: 1, valeu: 2 }).pipe(
        Effect.provide(layers(world))
      )
      expect(envelope.error?.code).toBe("MM_INVALID_INPUT")
      expect(envelope.error?.details?.field).toBe("valeu")
    }))

  it.effect("a session tool without a session answers MM_NO_ACTIVE_SESSION with the launch hint and does not run", () =>
    Effect.gen(function* () {
      const world = yield* makeWorld
      const { envelope } = yield* runTool(movingTool(world, "default", false))({ value: 1 }).pipe(
        Effect.provide(layers(world, { session: false }))
      )
      expect(envelope.error?.code).toBe("MM_NO_ACTIVE_SESSION")
      expect(envelope.error?.message).toBe("mm_moving needs a running session: call mm_launch first.")
      expect(yield* Ref.get(world.url)).toBe("http://127.0.0.1/before")
      expect(yield* Ref.get(world.observeCalls)).toHaveLength(0)
    }))

  for (const [policy, onSuccess, onFailure] of [
    ["default", "full", "full"],
    ["none", "state", "state"],
    ["failures", "state", "full"],
    ["custom", "custom", "state"]
  ] as const) {
    for (const fail of [false, true]) {
      const expected = fail ? onFailure : onSuccess
      it.effect(`policy ${policy} on ${fail ? "failure" : "success"} observes ${expected}, from the page as it is after the tool ran`, () =>
        Effect.gen(function* () {
          const world = yield* makeWorld
          const { envelope, observation } = yield* runTool(movingTool(world, policy, fail))({ value: 1 }).pipe(Effect.provide(layers(world)))
          expect(envelope.ok).toBe(!fail)
          if (fail) expect(envelope.error?.code).toBe("MM_TARGET_NOT_FOUND")
          const calls = yield* Ref.get(world.observeCalls)
          if (expected === "custom") {
            expect(calls).toHaveLength(0)
            expect(observation?.state.currentUrl).toBe("custom://observation")
            // The tool's own result says where the page is: the envelope does not repeat it.
            expect(envelope.page).toBeUndefined()
          } else {
            expect(calls).toHaveLength(1)
            expect(isFull(calls[0])).toBe(expected === "full")
            expect(observation?.state.currentUrl).toBe("http://127.0.0.1/after")
            expect(envelope.page?.url).toBe("http://127.0.0.1/after")
            expect(observation?.a11y !== undefined).toBe(expected === "full")
            // The full observation reaches the agent as text; the state alone as the page only.
            expect(envelope.snapshot === undefined).toBe(expected !== "full")
            if (expected === "full") expect(envelope.snapshot).toBe('testIds: x\nbutton "X" [e1]')
          }
          const steps = yield* Ref.get(world.steps)
          expect(steps).toHaveLength(1)
          expect(steps[0]?.outcome.ok).toBe(!fail)
          expect(steps[0]?.observation?.state.currentUrl).toBe(observation?.state.currentUrl)
        }))
    }
  }

  it.effect("the batch policy override replaces the tool's own policy", () =>
    Effect.gen(function* () {
      const world = yield* makeWorld
      yield* runTool(movingTool(world, "default", false))({ value: 1 }, { policy: "none" }).pipe(Effect.provide(layers(world)))
      expect(yield* Ref.get(world.observeCalls)).toEqual(["state"])
    }))

  it.effect("a tool past its deadline is interrupted and answers the tool's deadline error", () =>
    Effect.gen(function* () {
      const world = yield* makeWorld
      let interrupted = false
      const slow = defineTool({
        ...baseTool,
        name: "slow",
        input: Input,
        observation: "none",
        deadlineMs: (input) => input.value * 1000,
        run: () =>
          Effect.never.pipe(
            Effect.onInterrupt(() => Effect.sync(() => (interrupted = true))),
            Effect.as({ done: true })
          )
      })
      const fiber = yield* Effect.fork(runTool(slow)({ value: 2 }).pipe(Effect.provide(layers(world))))
      yield* TestClock.adjust("2 seconds")
      const { envelope } = yield* Fiber.join(fiber)
      expect(envelope.error?.code).toBe("MM_TIMEOUT")
      expect(envelope.error?.details?.timeoutMs).toBe(2000)
      expect(interrupted).toBe(true)
      expect((yield* Ref.get(world.steps))[0]?.outcome.error?.code).toBe("MM_TIMEOUT")
    }))

  it.effect("an action's deadline says what was seen of its target: never matched is MM_TARGET_NOT_FOUND, matched once is its timeout", () =>
    Effect.gen(function* () {
      const world = yield* makeWorld
      // A click that looked at its target (finding `count` elements) and never got an answer from the page.
      const clickSeeing = (counts: ReadonlyArray<number>) =>
        defineTool({
          ...baseTool,
          name: "click",
          input: Schema.Struct({ testId: Schema.String, timeoutMs: Schema.Number }),
          observation: "none",
          deadlineMs: (input) => input.timeoutMs + 1_000,
          onDeadline: actionDeadline("click"),
          run: () => Effect.forEach(counts, noteSighting).pipe(Effect.zipRight(Effect.never), Effect.as({ done: true }))
        })
      const answer = (counts: ReadonlyArray<number>) =>
        Effect.gen(function* () {
          const fiber = yield* Effect.fork(runTool(clickSeeing(counts))({ testId: "nope", timeoutMs: 5_000 }).pipe(Effect.provide(layers(world))))
          yield* TestClock.adjust("6 seconds")
          return (yield* Fiber.join(fiber)).envelope.error
        })
      const missing = yield* answer([0, 0, -1])
      expect(missing).toMatchObject({ code: "MM_TARGET_NOT_FOUND" })
      expect(missing?.message).toContain("No element matches testId:nope (waited 5000 ms)")
      expect((yield* answer([0, 1, 0]))?.code).toBe("MM_CLICK_TIMEOUT")
      // Nothing seen at all (no look answered): no claim that it is missing.
      expect((yield* answer([-1]))?.code).toBe("MM_CLICK_TIMEOUT")
    }))

  it.effect("a wait stopped by the call's deadline (a slow machine) quotes the caller's timeoutMs, not the deadline's 1 s of slack", () =>
    Effect.gen(function* () {
      const world = yield* makeWorld
      const stuck = Layer.merge(
        layers(world),
        Session.layerTest({ current: Effect.succeed(Option.some(sessionInfo)), takeNotices: Effect.succeed([]), waitForAny: () => Effect.never })
      )
      const fiber = yield* Effect.fork(runTool(waitFor)({ selector: "text=never", timeoutMs: 5_000 }, { policy: "none" }).pipe(Effect.provide(stuck)))
      yield* TestClock.adjust("6 seconds")
      const { envelope } = yield* Fiber.join(fiber)
      expect(envelope.error?.code).toBe("MM_WAIT_TIMEOUT")
      expect(envelope.error?.details?.timeoutMs).toBe(5_000)
      expect(envelope.error?.message).toContain("within 5000 ms")
    }))

  it.effect("a tighter deadline from the caller wins over the tool's own", () =>
    Effect.gen(function* () {
      const world = yield* makeWorld
      const slow = defineTool({
        ...baseTool,
        name: "slow",
        input: Input,
        observation: "none",
        deadlineMs: () => 60_000,
        run: () => Effect.never.pipe(Effect.as({ done: true }))
      })
      const fiber = yield* Effect.fork(runTool(slow)({ value: 1 }, { deadlineMs: 500 }).pipe(Effect.provide(layers(world))))
      yield* TestClock.adjust("500 millis")
      const { envelope } = yield* Fiber.join(fiber)
      expect(envelope.error?.details?.timeoutMs).toBe(500)
    }))

  it.effect("a step that cannot be recorded never turns a success into a failure", () =>
    Effect.gen(function* () {
      const world = yield* makeWorld
      const { envelope } = yield* runTool(movingTool(world, "none", false))({ value: 1 }).pipe(
        Effect.provide(layers(world, { recordFails: true }))
      )
      expect(envelope.ok).toBe(true)
      expect(envelope.result).toEqual({ done: true })
    }))

  it.effect("a defect becomes MM_INTERNAL_ERROR without leaking its message, and is recorded as a failure", () =>
    Effect.gen(function* () {
      const world = yield* makeWorld
      const buggy = defineTool({
        ...baseTool,
        name: "buggy",
        input: Input,
        observation: "none",
        run: () => Effect.die(new Error("secret internals"))
      })
      const { envelope } = yield* runTool(buggy)({ value: 1 }).pipe(Effect.provide(layers(world)))
      expect(envelope.error?.code).toBe("MM_INTERNAL_ERROR")
      expect(envelope.error?.message).not.toContain("secret internals")
      expect((yield* Ref.get(world.steps))[0]?.outcome.error?.code).toBe("MM_INTERNAL_ERROR")
    }))

  it.effect("a page that closed before observation leaves the outcome alone and the notice reaches the response", () =>
    Effect.gen(function* () {
      const world = yield* makeWorld
      const { envelope, observation } = yield* runTool(movingTool(world, "default", false))({ value: 1 }).pipe(
        Effect.provide(layers(world, { observeFails: true, notices: ["The active tab closed; tools now act on x."] }))
      )
      expect(envelope).toEqual({ ok: true, result: { done: true }, notices: ["The active tab closed; tools now act on x."] })
      expect(observation).toBeUndefined()
    }))

  it.effect("recorded inputs have sensitive keys redacted at any depth, under the session's id", () =>
    Effect.gen(function* () {
      const world = yield* makeWorld
      yield* runTool(movingTool(world, "none", false))({ value: 1, password: "hunter2" }).pipe(Effect.provide(layers(world)))
      const [step] = yield* Ref.get(world.steps)
      expect(step?.sessionId).toBe("mm-test-1")
      expect(step?.tool.input).toEqual({ value: 1, password: "[REDACTED]" })
      expect(JSON.stringify(step)).not.toContain("hunter2")
    }))

  it.effect("a --secrets value leaves every part of the answer as [secret:NAME]: result, page, snapshot, notices, text blocks, the observation and the step", () =>
    Effect.gen(function* () {
      const world = yield* makeWorld
      const secret = "s3cr3t-value"
      const leaky = defineTool({
        ...baseTool,
        name: "leaky",
        input: Input,
        output: Schema.Struct({ done: Schema.Boolean, text: Schema.optional(Schema.String) }),
        observation: "default",
        attachments: (_input, result) => ({ result: { done: result.done }, attachments: [{ type: "text", text: `page says ${secret}` }] }),
        run: () =>
          Ref.set(world.url, `http://127.0.0.1/after?q=${encodeURIComponent(secret)}`).pipe(Effect.as({ done: true, text: secret }))
      })
      const response = yield* runTool(leaky)({ value: 1 }).pipe(
        Effect.provide(Layer.merge(layers(world, { notices: [`typed ${secret}`] }), Secrets.layer(new Map([["TOKEN", secret]]))))
      )
      const answered = JSON.stringify(response)
      expect(answered).not.toContain(secret)
      expect(response.attachments).toEqual([{ type: "text", text: "page says [secret:TOKEN]" }])
      expect(response.envelope.notices).toEqual(["typed [secret:TOKEN]"])
      expect(answered).toContain("q=[secret:TOKEN]")
      expect(JSON.stringify(yield* Ref.get(world.steps))).not.toContain(secret)
    }))

  it.effect("a tool that needs no session runs without one and records nothing", () =>
    Effect.gen(function* () {
      const world = yield* makeWorld
      const free = defineTool({
        ...baseTool,
        name: "free",
        input: Input,
        requiresSession: false,
        observation: "default",
        run: () => Effect.succeed({ done: true })
      })
      const { envelope } = yield* runTool(free)({ value: 1 }).pipe(Effect.provide(layers(world, { session: false })))
      expect(envelope).toEqual({ ok: true, result: { done: true } })
      expect(yield* Ref.get(world.observeCalls)).toHaveLength(0)
      expect(yield* Ref.get(world.steps)).toHaveLength(0)
    }))

  it.effect("mm_sessions switch and close on the ambient single session (no registry) answer as tools, never a defect", () =>
    Effect.gen(function* () {
      const world = yield* makeWorld
      const ambient = Layer.merge(
        layers(world),
        Session.layerTest({
          current: Effect.succeed(Option.some(sessionInfo)),
          takeNotices: Effect.succeed([]),
          tabs: Effect.fail(new NoActiveSession({})),
          cleanup: Effect.succeed(undefined as never)
        })
      )
      const switched = yield* runTool(sessions)({ action: "switch" }).pipe(Effect.provide(ambient))
      expect(switched.envelope).toMatchObject({ ok: true, result: { current: { id: "mm-test-1" } } })
      const closed = yield* runTool(sessions)({ action: "close" }).pipe(Effect.provide(ambient))
      expect(closed.envelope).toMatchObject({ ok: true, result: { closed: "mm-test-1" } })
    }))
})
