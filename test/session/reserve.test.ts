// A place for a new session is taken in the same step as the check that it fits (Sessions.reserving, what
// mm_replay runs its batch in): another launch between the check and the launch that follows cannot take
// it, so the replay never finds itself without a place at its launch step (MM_REPLAY_FAILED); when the
// server is full first, the reservation answers MM_SESSION_LIMIT itself and its effect never runs; a place
// not launched in goes back; a session whose browser ended counts toward no limit, told by the session's
// own state (never by its pages, which may be busy). The interleavings are forced with Deferreds, never by timing.
import { Deferred, Effect, Fiber, Layer, ManagedRuntime, Option, Ref } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { toErrorInfo } from "../../src/domain/errors.js"
import * as SessionRegistry from "../../src/runtime/session-registry.js"
import { KnowledgeStore } from "../../src/services/KnowledgeStore.js"
import { ObservingClient, Observer } from "../../src/services/Observer.js"
import { Session, type SessionInfo } from "../../src/services/Session.js"
import { Sessions } from "../../src/services/Sessions.js"

const state = { isLoaded: true, currentUrl: "http://127.0.0.1/", title: "t", currentScreen: "unknown" }

const runtimes: Array<ManagedRuntime.ManagedRuntime<any, any>> = []
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.dispose()))
})

/**
 * A registry of at most `maxSessions` over mock sessions whose launches are counted. Their pages never answer
 * (`tabs` never ends: a busy page): what counts sessions must not ask them. `dead` lists the session ids whose
 * browser ended.
 */
const world = (maxSessions: number) => {
  let launches = 0
  const dead = new Set<string>()
  const factory: SessionRegistry.SlotFactory = (scope) =>
    Effect.suspend(() => {
      const current = Ref.unsafeMake(Option.none<SessionInfo>())
      return Layer.buildWithScope(
        Layer.merge(
          Session.layerTest({
            current: Ref.get(current),
            tabs: Effect.never,
            browserEnded: Effect.map(Ref.get(current), (info) => Option.isSome(info) && dead.has(info.value.sessionId)),
            onPauseChange: () => Effect.succeed(() => undefined),
            launch: () =>
              Effect.gen(function* () {
                const sessionId = `s${++launches}`
                yield* Ref.set(current, Option.some({ sessionId, startedAt: "", flowTags: [], tags: [] }))
                return { sessionId, homeUrl: state.currentUrl }
              }),
            cleanup: Effect.map(Ref.getAndSet(current, Option.none()), Option.isSome)
          }),
          Observer.layerTest({ state: Effect.succeed(state) })
        ),
        scope
      )
    })
  const runtime = ManagedRuntime.make(
    SessionRegistry.layer(Effect.succeed(factory), { maxSessions, idleTimeoutMs: 0, shared: false, privateKnowledge: false }).pipe(
      Layer.provideMerge(KnowledgeStore.layerMemory)
    )
  )
  runtimes.push(runtime)
  return { runtime, launches: () => launches, dead }
}

/** Launches in a new session of `client`'s; `before` runs first, in the call (where mm_replay runs its batch). */
const launchAs = <E>(client: string, before: Effect.Effect<void, E> = Effect.void) =>
  Effect.locally(
    Effect.scoped(
      Effect.flatMap(Sessions, (sessions) =>
        Effect.flatMap(sessions.resolve({ starts: true }), (handle) =>
          Effect.zipRight(
            before,
            Effect.flatMap(Effect.provide(Session, handle.context), (session) =>
              session.launch({ stateMode: "default", flowTags: [], tags: [], slowMo: 0, force: false } as any)
            )
          )
        )
      )
    ),
    ObservingClient,
    client
  )

/** What mm_replay does: a place first, then (after `between`) the launch, inside the reservation. */
const reservedLaunchAs = <E>(client: string, between: Effect.Effect<void, E>) =>
  Effect.locally(
    Effect.flatMap(Sessions, (sessions) => sessions.reserving(launchAs(client, between))),
    ObservingClient,
    client
  )

const codeOf = (exit: { _tag: string; left?: unknown }) => (exit._tag === "Left" ? toErrorInfo(exit.left as any).code : "ok")

describe("a place reserved for a launch to come", () => {
  it("another client's launch between the reservation and its launch answers MM_SESSION_LIMIT; the reserved launch goes through", async () => {
    const { runtime, launches } = world(2)
    expect(codeOf(await runtime.runPromise(Effect.either(launchAs("a"))))).toBe("ok")
    const reserved = await runtime.runPromise(Deferred.make<void>())
    const go = await runtime.runPromise(Deferred.make<void>())
    // The reserving launch holds the last place, and waits between its check and its launch.
    const replay = runtime.runFork(Effect.either(reservedLaunchAs("b", Effect.zipRight(Deferred.succeed(reserved, undefined), Deferred.await(go)))))
    await runtime.runPromise(Deferred.await(reserved))
    const other = await runtime.runPromise(Effect.either(launchAs("c")))
    expect(codeOf(other)).toBe("MM_SESSION_LIMIT")
    // Its own client learns the place is its launch under way.
    const mine = await runtime.runPromise(Effect.either(launchAs("b")))
    expect(codeOf(mine)).toBe("MM_SESSION_LIMIT")
    expect(toErrorInfo((mine as any).left).message).toContain("one starting")
    await runtime.runPromise(Deferred.succeed(go, undefined))
    expect(codeOf(await runtime.runPromise(Fiber.join(replay)))).toBe("ok")
    expect(launches()).toBe(2)
  })

  it("when another launch took the last place first, the reservation answers MM_SESSION_LIMIT itself and runs nothing", async () => {
    const { runtime, launches } = world(1)
    expect(codeOf(await runtime.runPromise(Effect.either(launchAs("a"))))).toBe("ok")
    let ran = false
    const refused = await runtime.runPromise(Effect.either(reservedLaunchAs("b", Effect.sync(() => void (ran = true)))))
    expect(codeOf(refused)).toBe("MM_SESSION_LIMIT")
    expect(ran).toBe(false)
    expect(launches()).toBe(1)
  })

  it("a place not launched in goes back: after a failure, after an interruption", async () => {
    const { runtime, launches } = world(1)
    const failed = await runtime.runPromise(Effect.either(reservedLaunchAs("a", Effect.fail("before the launch"))))
    expect(failed._tag).toBe("Left")
    const waiting = await runtime.runPromise(Deferred.make<void>())
    const held = runtime.runFork(reservedLaunchAs("a", Effect.zipRight(Deferred.succeed(waiting, undefined), Effect.never)))
    await runtime.runPromise(Deferred.await(waiting))
    expect(codeOf(await runtime.runPromise(Effect.either(launchAs("b"))))).toBe("MM_SESSION_LIMIT")
    await runtime.runPromise(Fiber.interrupt(held))
    // The one place is free again.
    expect(codeOf(await runtime.runPromise(Effect.either(launchAs("b"))))).toBe("ok")
    expect(launches()).toBe(1)
  })

  it("a session whose browser ended counts toward no limit, and counting asks no page", async () => {
    const { runtime, dead } = world(1)
    expect(codeOf(await runtime.runPromise(Effect.either(launchAs("a"))))).toBe("ok")
    expect(codeOf(await runtime.runPromise(Effect.either(launchAs("b"))))).toBe("MM_SESSION_LIMIT")
    dead.add("s1")
    expect(codeOf(await runtime.runPromise(Effect.either(reservedLaunchAs("b", Effect.void))))).toBe("ok")
  })
})
