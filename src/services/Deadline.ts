// When the running call's program must have answered, for the adapters that wait on the page: they
// cut their own waits to it, so that their answer (a target that matches nothing, one that never became
// ready) comes before the call's deadline does, which can only say that time ran out.
import { Clock, Effect, FiberRef } from "effect"

/** The moment (epoch ms) the call's program must have answered by; none outside a call. */
export const programDeadline = FiberRef.unsafeMake<number | undefined>(undefined)

/** A wait of `timeoutMs`, cut to what the call's program has left less `reserveMs` (at least 1 ms). */
export const waitWithin = (timeoutMs: number, reserveMs: number) =>
  Effect.gen(function* () {
    const deadline = yield* FiberRef.get(programDeadline)
    if (deadline === undefined) return timeoutMs
    const left = deadline - (yield* Clock.currentTimeMillis) - reserveMs
    return Math.max(1, Math.min(timeoutMs, left))
  })
