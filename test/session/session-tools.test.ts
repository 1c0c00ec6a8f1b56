// The session tools with mock layers: a launch whose first page cannot be read still succeeds, the
// lifecycle's errors reach the agent with their codes, and a dead browser's code carries its hint.
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, Ref } from "effect"
import { BrowserClosed, SessionAlreadyRunning } from "../../src/domain/errors.js"
import type { Envelope } from "../../src/domain/envelope.js"
import type { StepRecord } from "../../src/domain/knowledge.js"
import { runTool } from "../../src/runtime/runTool.js"
import { KnowledgeStore } from "../../src/services/KnowledgeStore.js"
import { Observer } from "../../src/services/Observer.js"
import { Session, type LaunchOptions, type SessionInfo } from "../../src/services/Session.js"
import { getState } from "../../src/tools/discovery.js"
import { cleanup, launch } from "../../src/tools/session.js"

const info: SessionInfo = { sessionId: "mm-test-2", startedAt: "2026-01-01T00:00:00.000Z", flowTags: [], tags: [] }
const dead = new BrowserClosed({ sessionId: info.sessionId, detail: "the browser process exited or lost its connection" })

/** The in-memory store, fresh per test. */
const store = Effect.succeed(KnowledgeStore.layerMemory)

const envelope = <A>(response: Effect.Effect<{ readonly envelope: unknown }, never, A>) =>
  Effect.map(response, (value) => value.envelope as Envelope<any>)

describe("session tools with mock layers", () => {
  it.effect("a launch whose first page closed with the browser still answers with the session and an unread state", () =>
    Effect.gen(function* () {
      const launched: Array<LaunchOptions> = []
      const layer = Layer.mergeAll(
        Session.layerTest({
          current: Effect.succeed(Option.some(info)),
          launch: (options) => Effect.sync(() => launched.push(options)).pipe(Effect.as({ sessionId: info.sessionId, homeUrl: "http://127.0.0.1/" }))
        }),
        Observer.layerTest({ state: Effect.fail(dead) }),
        yield* store
      )
      const result = yield* envelope(runTool(launch)({ goal: "try" })).pipe(Effect.provide(layer))
      expect(result.ok).toBe(true)
      expect(result.result).toEqual({
        sessionId: info.sessionId,
        // The unread page as results show it: the URL, still loading, no empty title.
        state: { url: "http://127.0.0.1/", loading: true }
      })
      expect(launched[0]).toMatchObject({ goal: "try", force: false, stateMode: "default" })
    }))

  it.effect("MM_SESSION_ALREADY_RUNNING from the lifecycle names the running session", () =>
    Effect.gen(function* () {
      const layer = Layer.mergeAll(
        Session.layerTest({ current: Effect.succeed(Option.some(info)), launch: () => Effect.fail(new SessionAlreadyRunning({ sessionId: info.sessionId })) }),
        // The running session's page, read for the failure's observation.
        Observer.layerTest({ state: Effect.succeed({ isLoaded: true, currentUrl: "http://127.0.0.1/", title: "t", currentScreen: "unknown" }) }),
        yield* store
      )
      const result = yield* envelope(runTool(launch)({})).pipe(Effect.provide(layer))
      expect(result.error).toMatchObject({ code: "MM_SESSION_ALREADY_RUNNING", details: { sessionId: info.sessionId } })
      expect(result.page?.url).toBe("http://127.0.0.1/")
    }))

  it.effect("a call on a session whose browser died answers MM_BROWSER_CLOSED with the mm_launch hint, and is recorded", () =>
    Effect.gen(function* () {
      const steps = yield* Ref.make<ReadonlyArray<StepRecord>>([])
      const layer = Layer.mergeAll(
        Session.layerTest({ current: Effect.succeed(Option.some(info)), tabs: Effect.fail(dead), extension: Effect.fail(dead) }),
        Observer.layerTest({ state: Effect.fail(dead) }),
        Layer.succeed(KnowledgeStore, {
          startSession: () => Effect.void,
          recordStep: (step) => Ref.update(steps, (all) => [...all, step]),
          steps: () => Ref.get(steps),
          sessions: Effect.succeed([])
        })
      )
      const result = yield* envelope(runTool(getState)({})).pipe(Effect.provide(layer))
      expect(result.error?.code).toBe("MM_BROWSER_CLOSED")
      expect(result.error?.message).toBe(
        "The browser of session mm-test-2 closed (the browser process exited or lost its connection); the session ended and its recorded steps are kept. Call mm_launch to start a new session."
      )
      expect((yield* Ref.get(steps)).map((step) => [step.sessionId, step.outcome.ok])).toEqual([[info.sessionId, false]])
    }))

  it.effect("cleanup reports whether a session was there", () =>
    Effect.gen(function* () {
      const layer = Layer.mergeAll(
        Session.layerTest({ current: Effect.succeed(Option.none()), cleanup: Effect.succeed(false) }),
        Observer.layerTest({}),
        yield* store
      )
      expect((yield* envelope(runTool(cleanup)({})).pipe(Effect.provide(layer))).result).toEqual({ cleanedUp: false })
    }))
})
