// Step screenshots in runTool, with mock layers: which steps get one under each stepScreenshots setting,
// how they are taken, and that a capture that fails or hangs never changes the call's outcome.
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Layer, Option, Ref, Schema, TestClock } from "effect"
import { defaultSettings, type Settings } from "../../src/domain/config.js"
import { ScreenshotFailed, TargetNotFound } from "../../src/domain/errors.js"
import type { StepRecord } from "../../src/domain/knowledge.js"
import { runTool } from "../../src/runtime/runTool.js"
import { defineTool } from "../../src/runtime/tool.js"
import { Config } from "../../src/services/Config.js"
import { KnowledgeStore } from "../../src/services/KnowledgeStore.js"
import { Observer } from "../../src/services/Observer.js"
import { Session, type ScreenshotOptions } from "../../src/services/Session.js"

const sessionInfo = { sessionId: "mm-shots", startedAt: "2026-01-01T00:00:00.000Z", flowTags: [], tags: [] }
const state = { isLoaded: true, currentUrl: "http://127.0.0.1/page", title: "t", currentScreen: "unknown" }

const world = Effect.gen(function* () {
  return { shots: yield* Ref.make<ReadonlyArray<ScreenshotOptions>>([]), steps: yield* Ref.make<ReadonlyArray<StepRecord>>([]) }
})
type World = Effect.Effect.Success<typeof world>

const layers = (w: World, capture: "ok" | "fails" | "hangs", settings?: Partial<Settings>) =>
  Layer.mergeAll(
    Session.layerTest({
      current: Effect.succeed(Option.some(sessionInfo)),
      screenshot: (options) =>
        Ref.update(w.shots, (all) => [...all, options]).pipe(
          Effect.zipRight(
            capture === "ok"
              ? Effect.succeed({ path: `/artifacts/screenshots/${options.name}.jpg`, width: 800, height: 600, base64: "" })
              : capture === "fails"
                ? Effect.fail(new ScreenshotFailed({ detail: "no page to capture" }))
                : Effect.never
          )
        )
    }),
    Observer.layerTest({ state: Effect.succeed(state), observe: () => Effect.succeed({ state }) }),
    Layer.succeed(KnowledgeStore, {
      startSession: () => Effect.void,
      recordStep: (step) => Ref.update(w.steps, (all) => [...all, step]),
      steps: () => Ref.get(w.steps),
      sessions: Effect.succeed([])
    }),
    settings === undefined ? Layer.empty : Config.layer({ ...defaultSettings, ...settings })
  )

const tool = (observation: "default" | "none", fail: boolean) =>
  defineTool({
    name: observation === "none" ? "quiet" : "act",
    title: "Test tool",
    description: "A tool for tests.",
    input: Schema.Struct({}),
    output: Schema.Struct({ done: Schema.Boolean }),
    annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
    requiresSession: true,
    observation,
    run: () => (fail ? Effect.fail(new TargetNotFound({ target: "testId:x", detail: "No element matches testId:x." })) : Effect.succeed({ done: true }))
  })

const runAll = (calls: ReadonlyArray<readonly ["default" | "none", boolean]>) =>
  Effect.forEach(calls, ([observation, fail]) => runTool(tool(observation, fail))({}))

describe("step screenshots", () => {
  it.effect("by default only failed steps get one: a viewport JPEG with field text hidden, recorded as the step's artifact", () =>
    Effect.gen(function* () {
      const w = yield* world
      const responses = yield* runAll([["default", false], ["default", true]]).pipe(Effect.provide(layers(w, "ok")))
      expect(responses.map((response) => response.envelope.ok)).toEqual([true, false])
      const shots = yield* Ref.get(w.shots)
      expect(shots).toHaveLength(1)
      expect(shots[0]).toMatchObject({ fullPage: false, format: "jpeg", quality: 50, hideFieldText: true })
      expect(shots[0]!.name).toMatch(/^step-mm-shots-\d+-[a-z0-9]+-act$/)
      const steps = yield* Ref.get(w.steps)
      expect(steps[0]!.artifacts).toBeUndefined()
      expect(steps[1]!.artifacts?.screenshot).toBe(`/artifacts/screenshots/${shots[0]!.name}.jpg`)
    }))

  it.effect('"all" photographs every step of a tool that looks at the page; "off" none', () =>
    Effect.gen(function* () {
      const all = yield* world
      yield* runAll([["default", false], ["default", true], ["none", true]]).pipe(Effect.provide(layers(all, "ok", { stepScreenshots: "all" })))
      expect((yield* Ref.get(all.steps)).map((step) => step.artifacts?.screenshot !== undefined)).toEqual([true, true, false])
      const off = yield* world
      yield* runAll([["default", false], ["default", true]]).pipe(Effect.provide(layers(off, "ok", { stepScreenshots: "off" })))
      expect(yield* Ref.get(off.shots)).toEqual([])
    }))

  it.effect("a capture that fails or never answers is skipped within its bound and leaves the outcome alone", () =>
    Effect.gen(function* () {
      const failing = yield* world
      const failed = yield* runTool(tool("default", true))({}).pipe(Effect.provide(layers(failing, "fails")))
      expect(failed.envelope.error?.code).toBe("MM_TARGET_NOT_FOUND")
      expect((yield* Ref.get(failing.steps))[0]!.artifacts).toBeUndefined()

      const hanging = yield* world
      const fiber = yield* Effect.fork(runTool(tool("default", true))({}).pipe(Effect.provide(layers(hanging, "hangs"))))
      yield* TestClock.adjust("3 seconds")
      const response = yield* Fiber.join(fiber)
      expect(response.envelope.error?.code).toBe("MM_TARGET_NOT_FOUND")
      expect(yield* Ref.get(hanging.shots)).toHaveLength(1)
      const [step] = yield* Ref.get(hanging.steps)
      expect(step!.outcome.ok).toBe(false)
      expect(step!.artifacts).toBeUndefined()
    }))
})
