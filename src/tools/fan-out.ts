// mm_replay {runs}: one recorded flow run once per entry, each in a new session of its own (placed where new
// sessions go: a local browser, or a pool of browser servers), `concurrency` of them at once. Every run's
// session closes after it: a kept one would hold a --max-sessions place and a browser context per failure
// of a long fan-out; a failed run's steps stay in the step memory under its session id (mm_report, or
// mm_replay {sessionId} of it, show where it stopped).
import { Clock, Context, Effect, Option, Ref } from "effect"
import { InvalidInput, ReplayRunsFailed, type ReplayRun, type ToolError } from "../domain/errors.js"
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

/**
 * Runs `once` for every entry, each in a new session of its own, `concurrency` at a time; reports each
 * finished run as progress. Answers every run's outcome, or fails with ReplayRunsFailed carrying them all.
 */
export const fanOut = <A, R>(
  replayed: string,
  runs: ReadonlyArray<A>,
  concurrency: number,
  once: (run: A) => Effect.Effect<unknown, ToolError, R>
) =>
  Effect.gen(function* () {
    yield* Effect.mapError(separateSessions, (error) => (error._tag === "SessionNotFound" ? new InvalidInput({ field: "runs", problem: error.message }) : error))
    const outer = yield* Sessions
    const startedAt = yield* Clock.currentTimeMillis
    const done = yield* Ref.make(0)
    const runOne = (run: A, index: number) =>
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
            ...(outcome._tag === "Left" ? { failed: failureOf(outcome.left) } : {})
          }
          const finished = yield* Ref.updateAndGet(done, (count) => count + 1)
          yield* reportProgress(
            finished,
            runs.length,
            `run ${index} ${result.failed === undefined ? "ok" : `failed: ${result.failed.code}${result.failed.index !== undefined ? ` at step ${result.failed.index}` : ""}`}`
          )
          return result
        }).pipe(Effect.catchTag("SessionNotFound", (error) => Effect.succeed<ReplayRun>({ ms: 0, failed: { code: error.code, message: error.message } })))
      )
    const results = yield* Effect.forEach(runs, runOne, { concurrency })
    const ms = (yield* Clock.currentTimeMillis) - startedAt
    if (results.some((run) => run.failed !== undefined)) return yield* new ReplayRunsFailed({ replayed, runs: results, ms })
    return { replayed, runs: results, passed: results.length, ms }
  })
