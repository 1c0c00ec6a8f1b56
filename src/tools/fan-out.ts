// mm_replay {runs}: one recorded flow run once per entry, each in a new session of its own (placed where new
// sessions go: a local browser, or a pool of browser servers), `concurrency` of them at once. Every run's
// session closes after it: a kept one would hold a --max-sessions place and a browser context per failure
// of a long fan-out; a failed run's steps stay in the step memory under its session id (mm_report, or
// mm_replay {sessionId} of it, show where it stopped).
import { Clock, Context, Deferred, Effect, FiberRef, Option, Ref } from "effect"
import { InvalidInput, ReplayRunsFailed, type ReplayRun, type ToolError } from "../domain/errors.js"
import { programDeadline } from "../services/Deadline.js"
import { Progress, reportProgress, type ProgressService } from "../services/Progress.js"
import { Session } from "../services/Session.js"
import { nestedSessions, Sessions, type SessionServices } from "../services/Sessions.js"

/** A run's own progress (a batch's steps) is not the fan-out's: only finished runs are reported. */
const quiet: ProgressService = { report: () => Effect.void }

/** The step a run failed at, as a failed replay names it; any other error as its code and message. */
const failureOf = (error: ToolError): NonNullable<ReplayRun["failed"]> =>
  error._tag === "ReplayFailed"
    ? { index: error.failed.index, tool: error.failed.tool, code: error.failed.code, message: error.failed.message }
    : { code: error.code, message: error.message }

/**
 * Refuses a fan-out on a server whose new sessions are not new (--shared-browser, or one session given by
 * withSession): the runs would share a page.
 */
const separateSessions = Effect.scoped(
  Effect.gen(function* () {
    const own = yield* Session
    const probe = yield* (yield* Sessions).resolve({ starts: true, fresh: true })
    if (Context.get(probe.context, Session) === own) {
      return yield* new InvalidInput({
        field: "runs",
        problem: "each run needs a session of its own, and this server has one session (--shared-browser); replay one run at a time with params"
      })
    }
  })
)

/** How a fan-out runs: `concurrency` runs at a time; `runMs`, the longest one run takes once it has its place (its launch and steps). */
export interface FanOutOptions {
  readonly concurrency: number
  readonly runMs: number
}

/**
 * Progress numbers that only go up (the MCP rule): a finished run reports how many finished; a run that waits
 * for a place reports a number between the last one and the next finish.
 */
const progressOf = (total: number) =>
  Effect.map(Ref.make({ finished: 0, last: 0 }), (counted) => ({
    finished: (message: (finished: number) => string) =>
      Effect.flatMap(
        Ref.modify(counted, (now) => [now.finished + 1, { finished: now.finished + 1, last: now.finished + 1 }]),
        (finished) => reportProgress(finished, total, message(finished))
      ),
    waiting: (message: string) =>
      Effect.flatMap(
        Ref.modify(counted, (now) => {
          const at = (now.last + now.finished + 1) / 2
          return [at, { ...now, last: at }]
        }),
        (at) => reportProgress(at, total, message)
      )
  }))

/**
 * Runs `once` for every entry, each in a new session of its own, `concurrency` at a time; reports each
 * finished run as progress. A run that finds every --max-sessions place held waits for one (freed by the
 * fan-out's earlier runs or by anyone), in run order, as long as the call's deadline leaves it time for a run;
 * only then does it fail with MM_SESSION_LIMIT. Answers every run's outcome, or fails with ReplayRunsFailed
 * carrying them all.
 */
export const fanOut = <A, R>(replayed: string, runs: ReadonlyArray<A>, options: FanOutOptions, once: (run: A) => Effect.Effect<unknown, ToolError, R>) =>
  Effect.gen(function* () {
    yield* Effect.mapError(separateSessions, (error) => (error._tag === "SessionNotFound" ? new InvalidInput({ field: "runs", problem: error.message }) : error))
    const outer = yield* Sessions
    const startedAt = yield* Clock.currentTimeMillis
    const progress = yield* progressOf(runs.length)
    // A run may wait for a place as long as the call's deadline still leaves it a whole run after it.
    const deadline = yield* FiberRef.get(programDeadline)
    const group = Symbol("fan-out")
    // Places are taken in run order: run i asks for one once run i-1 has its own (or gave up).
    const turns = yield* Effect.forEach(runs, () => Deferred.make<void>())
    yield* Deferred.succeed(turns[0]!, undefined)
    const inSession = (run: A, waitedMs: number) =>
      Effect.scoped(
        Effect.gen(function* () {
          const start = yield* Clock.currentTimeMillis
          const handle = yield* outer.resolve({ starts: true, fresh: true })
          const session = Context.get(handle.context, Session)
          const sessionId = yield* Ref.make<string | undefined>(undefined)
          const outcome = yield* once(run).pipe(
            Effect.provide(handle.context as Context.Context<SessionServices>),
            Effect.provideService(Sessions, yield* nestedSessions(outer, handle)),
            Effect.provideService(Progress, quiet),
            Effect.either,
            // The run's session closes after it, whatever happened (its step records stay).
            Effect.ensuring(
              Effect.flatMap(session.current, (current) =>
                Effect.zipRight(Ref.set(sessionId, Option.isSome(current) ? current.value.sessionId : undefined), session.cleanup)
              )
            )
          )
          const id = yield* Ref.get(sessionId)
          const result: ReplayRun = {
            ...(id !== undefined ? { session: id } : {}),
            ms: (yield* Clock.currentTimeMillis) - start,
            ...(waitedMs > 0 ? { waitedMs } : {}),
            ...(outcome._tag === "Left" ? { failed: failureOf(outcome.left) } : {})
          }
          return result
        })
      )
    const runOne = (run: A, index: number) =>
      Effect.gen(function* () {
        yield* Deferred.await(turns[index]!)
        const next = turns[index + 1]
        const passOn = next === undefined ? Effect.void : Effect.asVoid(Deferred.succeed(next, undefined))
        const asked = yield* Clock.currentTimeMillis
        const waited = yield* Ref.make(false)
        const wait = {
          until: deadline === undefined ? Number.POSITIVE_INFINITY : deadline - options.runMs,
          group,
          onWait: Effect.zipRight(Ref.set(waited, true), progress.waiting(`run ${index} waits for a free session place (all --max-sessions are open)`))
        }
        const waitedMs = Effect.flatMap(Ref.get(waited), (did) => (did ? Effect.map(Clock.currentTimeMillis, (now) => now - asked) : Effect.succeed(0)))
        const placed = Effect.zipRight(passOn, Effect.flatMap(waitedMs, (ms) => inSession(run, ms)))
        const result = yield* outer.reserving(placed, wait).pipe(
          Effect.ensuring(passOn),
          Effect.catchTags({
            SessionLimit: (error) => Effect.succeed<ReplayRun>({ ms: 0, failed: { code: error.code, message: error.message } }),
            ProfileInUse: (error) => Effect.succeed<ReplayRun>({ ms: 0, failed: { code: error.code, message: error.message } }),
            SessionNotFound: (error) => Effect.succeed<ReplayRun>({ ms: 0, failed: { code: error.code, message: error.message } })
          })
        )
        yield* progress.finished(() => `run ${index} ${result.failed === undefined ? "ok" : `failed: ${result.failed.code}${result.failed.index !== undefined ? ` at step ${result.failed.index}` : ""}`}`)
        return result
      })
    const results = yield* Effect.forEach(runs, runOne, { concurrency: options.concurrency })
    const ms = (yield* Clock.currentTimeMillis) - startedAt
    if (results.some((run) => run.failed !== undefined)) return yield* new ReplayRunsFailed({ replayed, runs: results, ms })
    return { replayed, runs: results, passed: results.length, ms }
  })
