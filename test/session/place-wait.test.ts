// A fan-out's run that finds every --max-sessions place held waits for one (Sessions.reserving with a wait)
// instead of failing: a place that frees (its own earlier runs', or anyone's) goes to the first run waiting,
// in the order they asked, never to a launch that came later; waiting runs of two fan-outs never hold more
// than the limit; a run whose deadline passes answers MM_SESSION_LIMIT counting its own call's runs apart
// from the client's sessions; a single launch still fails at once. Over mock sessions; every interleaving is
// forced with Deferreds, never by timing.
import { Context, Deferred, Effect, Exit, Fiber, ManagedRuntime } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { toErrorInfo } from "../../src/domain/errors.js"
import { ObservingClient } from "../../src/services/Observer.js"
import { Progress } from "../../src/services/Progress.js"
import { Session } from "../../src/services/Session.js"
import { Sessions, type PlaceWait } from "../../src/services/Sessions.js"
import { fanOut } from "../../src/tools/fan-out.js"
import { mockSessionRegistry } from "../support/mock-sessions.js"

const runtimes: Array<ManagedRuntime.ManagedRuntime<any, any>> = []
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.dispose()))
})

const world = (maxSessions: number) => {
  const { layer, counts, kill } = mockSessionRegistry({ maxSessions })
  const runtime = ManagedRuntime.make(layer)
  runtimes.push(runtime)
  return { run: <A, E>(effect: Effect.Effect<A, E, any>) => runtime.runPromise(effect), fork: <A, E>(effect: Effect.Effect<A, E, any>) => runtime.runFork(effect), counts, kill }
}

const launchOptions = { stateMode: "default", flowTags: [], tags: [], slowMo: 0, force: false } as any

const as = <A, E, R>(client: string, effect: Effect.Effect<A, E, R>) => Effect.locally(effect, ObservingClient, client)

/** A session `client` launches and keeps open; answers its id. */
const keepOpen = (client: string) =>
  as(
    client,
    Effect.scoped(
      Effect.gen(function* () {
        const handle = yield* (yield* Sessions).resolve({ starts: true })
        return (yield* Context.get(handle.context, Session).launch(launchOptions)).sessionId
      })
    )
  )

const closeAs = (client: string, id: string) => as(client, Effect.flatMap(Sessions, (sessions) => sessions.close(id)))

/** A run's life: a new session launched (inside the place held, as a replay's launch step), `hold`, then closed. */
const runIn = <E>(hold: Effect.Effect<void, E>) =>
  Effect.scoped(
    Effect.gen(function* () {
      const sessions = yield* Sessions
      const handle = yield* sessions.resolve({ starts: true, fresh: true })
      const session = Context.get(handle.context, Session)
      // The replay's own reservation, inside the run's: it runs on the place the run holds.
      const launched = yield* sessions.reserving(session.launch(launchOptions))
      yield* hold
      yield* session.cleanup
      return launched.sessionId
    })
  )

/** A fan-out's run of `client`: waits for a place (telling `waiting` when it starts to), then runs. */
const waitingRun = <E>(client: string, wait: PlaceWait, hold: Effect.Effect<void, E>) =>
  as(client, Effect.flatMap(Sessions, (sessions) => sessions.reserving(runIn(hold), wait)))

const waitFor = (group: symbol, waiting: Deferred.Deferred<void>, until = Number.POSITIVE_INFINITY): PlaceWait => ({
  until,
  group,
  onWait: Effect.asVoid(Deferred.succeed(waiting, undefined))
})

const codeOf = (exit: Exit.Exit<unknown, unknown>) => (Exit.isSuccess(exit) ? "ok" : toErrorInfo((exit.cause as any).error).code)

describe("a fan-out's run waits for a session place", () => {
  it("gets the place another client's session frees; a launch that came meanwhile answers MM_SESSION_LIMIT at once, and after the place freed too", async () => {
    const { run, fork, counts } = world(2)
    const a1 = await run(keepOpen("a"))
    await run(keepOpen("a"))
    const waiting = await run(Deferred.make<void>())
    const launched = await run(Deferred.make<void>())
    const release = await run(Deferred.make<void>())
    const runFiber = fork(waitingRun("b", waitFor(Symbol("b"), waiting), Effect.zipRight(Deferred.succeed(launched, undefined), Deferred.await(release))))
    await run(Deferred.await(waiting))
    expect(counts.launches).toBe(2)
    // A single launch does not wait: it fails at once, as it always did.
    expect(codeOf(await run(Effect.exit(keepOpen("c"))))).toBe("MM_SESSION_LIMIT")
    await run(closeAs("a", a1))
    // The place is the waiting run's by the time the close answered: a launch now still finds none.
    expect(codeOf(await run(Effect.exit(keepOpen("c"))))).toBe("MM_SESSION_LIMIT")
    await run(Deferred.await(launched))
    await run(Deferred.succeed(release, undefined))
    expect(await run(Fiber.join(runFiber))).toBe("s3")
    expect(counts.mostOpen).toBe(2)
  })

  it("gets the place of a session whose browser died, though nothing else changed in the registry", async () => {
    const { run, fork, kill } = world(1)
    const a1 = await run(keepOpen("a"))
    const waiting = await run(Deferred.make<void>())
    const launched = await run(Deferred.make<void>())
    const runFiber = fork(waitingRun("b", waitFor(Symbol("b"), waiting), Effect.asVoid(Deferred.succeed(launched, undefined))))
    await run(Deferred.await(waiting))
    // The browser dies: no close, no launch, no place given back. The waiting run looks again on its own.
    kill(a1)
    await run(Deferred.await(launched))
    expect(await run(Fiber.join(runFiber))).toBe("s2")
  })

  it("two fan-outs waiting at once never hold more than --max-sessions, and places go in the order the runs asked", async () => {
    const { run, fork, counts } = world(2)
    const held = [await run(keepOpen("a")), await run(keepOpen("a"))]
    const order: Array<string> = []
    const labels = ["x1", "y1", "x2", "y2"] as const
    const groups = { x: Symbol("x"), y: Symbol("y") }
    const gate = Object.fromEntries(await Promise.all(labels.map(async (label) => [label, await run(Deferred.make<void>())] as const)))
    const started = Object.fromEntries(await Promise.all(labels.map(async (label) => [label, await run(Deferred.make<void>())] as const)))
    const fibers: Record<string, Fiber.RuntimeFiber<string, unknown>> = {}
    // Each run asks once the one before it is waiting: x1, y1, x2, y2.
    for (const label of labels) {
      const waiting = await run(Deferred.make<void>())
      const hold = Effect.zipRight(
        Effect.sync(() => void order.push(label)),
        Effect.zipRight(Deferred.succeed(started[label]!, undefined), Deferred.await(gate[label]!))
      )
      fibers[label] = fork(waitingRun(label.startsWith("x") ? "b" : "c", waitFor(groups[label[0] as "x" | "y"], waiting), hold))
      await run(Deferred.await(waiting))
    }
    expect(order).toEqual([])
    // Two places free: the first two runs that asked get them.
    for (const id of held) await run(closeAs("a", id))
    await run(Deferred.await(started.x1!))
    await run(Deferred.await(started.y1!))
    expect(order).toEqual(["x1", "y1"])
    // y1 ends first: its place is x2's (asked before y2), whichever fan-out freed it.
    await run(Deferred.succeed(gate.y1!, undefined))
    await run(Deferred.await(started.x2!))
    expect(order).toEqual(["x1", "y1", "x2"])
    await run(Deferred.succeed(gate.x1!, undefined))
    await run(Deferred.await(started.y2!))
    for (const label of ["x2", "y2"] as const) await run(Deferred.succeed(gate[label]!, undefined))
    for (const label of labels) expect(Exit.isSuccess(await run(Fiber.await(fibers[label]!)))).toBe(true)
    expect(order).toEqual(["x1", "y1", "x2", "y2"])
    expect(counts.mostOpen).toBe(2)
  })

  it("a run whose deadline passes answers MM_SESSION_LIMIT naming the limit and who holds the places: its own call's runs apart, never as the client's to close", async () => {
    const { run, fork } = world(3)
    await run(keepOpen("a"))
    const mine = await run(keepOpen("b"))
    const group = Symbol("b's fan-out")
    const placed = await run(Deferred.make<void>())
    const release = await run(Deferred.make<void>())
    const never = await run(Deferred.make<void>())
    // The fan-out's first run holds the third place.
    const first = fork(waitingRun("b", waitFor(group, never), Effect.zipRight(Deferred.succeed(placed, undefined), Deferred.await(release))))
    await run(Deferred.await(placed))
    const waiting = await run(Deferred.make<void>())
    const late = await run(Effect.exit(waitingRun("b", waitFor(group, waiting, 0), Effect.void)))
    expect(codeOf(late)).toBe("MM_SESSION_LIMIT")
    const error = toErrorInfo((late as any).cause.error)
    expect(error.message).toContain("at most 3 browser sessions")
    expect(error.message).toContain("1 by this call's other runs, 1 by other clients, 1 by yours: ")
    expect(error.message).toContain(`yours: ${mine}; close one with mm_cleanup {session: ID}`)
    expect(error.message).not.toContain("starting")
    await run(Deferred.succeed(release, undefined))
    expect(Exit.isSuccess(await run(Fiber.await(first)))).toBe(true)
    // What gave up holds nothing: the place the first run gave back is free.
    expect(codeOf(await run(Effect.exit(keepOpen("c"))))).toBe("ok")
  })

  it("a run interrupted while it waits leaves no place and no turn behind", async () => {
    const { run, fork } = world(1)
    const a1 = await run(keepOpen("a"))
    const waiting = await run(Deferred.make<void>())
    const fiber = fork(waitingRun("b", waitFor(Symbol("b"), waiting), Effect.never))
    await run(Deferred.await(waiting))
    await run(Fiber.interrupt(fiber))
    await run(closeAs("a", a1))
    expect(codeOf(await run(Effect.exit(keepOpen("c"))))).toBe("ok")
  })

  it("mm_replay's fan-out at --max-sessions 3 with another client's session open runs 4 runs at concurrency 3: run 2 waits for run 0's place, says so, and all pass", async () => {
    const { run, fork, counts } = world(3)
    await run(keepOpen("other"))
    const launched = await Promise.all([0, 1, 2, 3].map(() => run(Deferred.make<void>())))
    const gate = await Promise.all([0, 1, 2, 3].map(() => run(Deferred.make<void>())))
    const waitNoticed = await run(Deferred.make<void>())
    const progress: Array<{ progress: number; message: string }> = []
    const report = (done: number, _total: number | undefined, message: string) =>
      Effect.zipRight(
        Effect.sync(() => void progress.push({ progress: done, message })),
        message.includes("waits") ? Effect.asVoid(Deferred.succeed(waitNoticed, undefined)) : Effect.void
      )
    // A run: its session launched as a replay launches it (inside its own reservation), then held until its gate opens.
    const once = (index: number) =>
      Effect.gen(function* () {
        const session = yield* Session
        yield* (yield* Sessions).reserving(session.launch(launchOptions))
        yield* Deferred.succeed(launched[index]!, undefined)
        yield* Deferred.await(gate[index]!)
      })
    const call = as(
      "me",
      Effect.scoped(
        Effect.gen(function* () {
          const handle = yield* (yield* Sessions).resolve({ starts: true })
          return yield* fanOut("flow", [0, 1, 2, 3], { concurrency: 3, runMs: 0 }, once).pipe(Effect.provide(handle.context), Effect.provideService(Progress, { report }))
        })
      )
    )
    const fiber = fork(call)
    await run(Deferred.await(launched[0]!))
    await run(Deferred.await(launched[1]!))
    await run(Deferred.await(waitNoticed))
    expect(counts.launches).toBe(3)
    await run(Deferred.succeed(gate[0]!, undefined))
    await run(Deferred.await(launched[2]!))
    for (const index of [1, 2, 3]) await run(Deferred.succeed(gate[index]!, undefined))
    const answer = await run(Fiber.join(fiber))
    expect(answer.passed).toBe(4)
    expect(answer.runs.map((entry) => entry.failed)).toEqual([undefined, undefined, undefined, undefined])
    expect(counts.mostOpen).toBe(3)
    // Progress only goes up; the wait is told before the run that freed the place is.
    expect(progress.map((entry) => entry.progress)).toEqual([...progress.map((entry) => entry.progress)].sort((a, b) => a - b))
    expect(new Set(progress.map((entry) => entry.progress)).size).toBe(progress.length)
    expect(progress[0]!.message).toBe("run 2 waits for a free session place (all --max-sessions are open)")
    expect(progress.filter((entry) => Number.isInteger(entry.progress)).map((entry) => entry.message)).toEqual(
      expect.arrayContaining(["run 0 ok", "run 1 ok", "run 2 ok", "run 3 ok"])
    )
  })
})
