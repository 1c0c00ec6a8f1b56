// A call's deadline bounds the whole call: the tool's program, then the observation, the step's
// screenshot and its record. The program runs first with most of the time; what follows it gets
// what is left, and is skipped (never the call's outcome changed) when nothing is left.
import { Cause, Clock, Duration, Effect } from "effect"

/**
 * The part of a call's deadline kept for what follows the program (observation, step record): a
 * quarter of a short deadline, at most 1.5 s.
 */
export const finishReserveMs = (deadlineMs: number): number => Math.min(1_500, Math.floor(deadlineMs / 4))

/** Kept for the step record when the observation runs. */
export const RECORD_RESERVE_MS = 250

/** A step record is always given at least this long, even past the deadline (one small file). */
export const RECORD_GRACE_MS = 500

/** A phase with less time than this left is skipped. */
const MIN_PHASE_MS = 50

export interface CallBudget {
  /** Milliseconds left before the call's deadline, less `reserveMs`. */
  readonly left: (reserveMs?: number) => Effect.Effect<number>
  /**
   * Runs an optional phase in the time left (less `reserveMs`); `fallback` when there is too little
   * time or it does not finish in time (the phase is interrupted).
   */
  readonly within: <A, B, E, R>(phase: Effect.Effect<A, E, R>, fallback: B, reserveMs?: number) => Effect.Effect<A | B, E, R>
  /**
   * Runs a write that must not be cut half-way (a step record): it runs to its end, but the call
   * waits for it only as long as the time left (at least RECORD_GRACE_MS); past that it finishes
   * in the background, and a failure is logged either way.
   */
  readonly settle: <E, R>(label: string, write: Effect.Effect<void, E, R>) => Effect.Effect<void, never, R>
}

export const callBudget = (startedAt: number, deadlineMs: number): CallBudget => {
  const deadlineAt = startedAt + deadlineMs
  const left = (reserveMs = 0) => Effect.map(Clock.currentTimeMillis, (now) => deadlineAt - reserveMs - now)
  return {
    left,
    within: <A, B, E, R>(phase: Effect.Effect<A, E, R>, fallback: B, reserveMs = 0) =>
      Effect.flatMap(left(reserveMs), (ms) =>
        ms < MIN_PHASE_MS
          ? Effect.succeed<A | B>(fallback)
          : Effect.timeoutTo(phase, { duration: Duration.millis(ms), onSuccess: (value): A | B => value, onTimeout: (): A | B => fallback })
      ),
    settle: (label, write) =>
      Effect.flatMap(left(), (ms) =>
        write.pipe(
          Effect.catchAllCause((cause) => Effect.logWarning(`${label}: step not recorded`, Cause.pretty(cause))),
          Effect.uninterruptible,
          // Disconnected: a deadline stops the waiting, never the write.
          Effect.disconnect,
          Effect.timeoutTo({
            duration: Duration.millis(Math.max(ms, RECORD_GRACE_MS)),
            onSuccess: () => Effect.void,
            onTimeout: () => Effect.logWarning(`${label}: the step record is still being written after the call's deadline; it finishes in the background`)
          }),
          Effect.flatten
        )
      )
  }
}
