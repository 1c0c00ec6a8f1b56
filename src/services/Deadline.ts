// When the running call's program must have answered, for the adapters that wait on the page: they
// cut their own waits to it, so that their answer (a target that matches nothing, one that never became
// ready) comes before the call's deadline does, which can only say that time ran out.
import { Clock, Effect, FiberRef, Ref } from "effect"

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

/**
 * The moment (epoch ms) the running call's program must have answered by when that is a tighter deadline
 * from outside (a batch's, which `programDeadline` leaves to its caller): a check cuts its wait to it, so
 * that one running out of time answers its own verdict (what it read) instead of the caller's timeout.
 */
export const verdictDeadline = FiberRef.unsafeMake<number | undefined>(undefined)

/** What a check keeps of the time it has for its last look and its answer. */
export const VERDICT_RESERVE_MS = 1_000

/** A check's wait of `timeoutMs`, cut to what the call has left for its verdict less `reserveMs` (at least 100 ms). */
export const verdictWithin = (timeoutMs: number, reserveMs: number) =>
  Effect.gen(function* () {
    const deadline = yield* FiberRef.get(verdictDeadline)
    if (deadline === undefined) return timeoutMs
    return Math.max(100, Math.min(timeoutMs, deadline - (yield* Clock.currentTimeMillis) - reserveMs))
  })

/**
 * What the running call's program saw of its target while it waited: whether it looked, and whether
 * anything ever matched; `to`, the same of a second target (a drag's drop target), once it was looked for.
 */
export interface Sighting {
  readonly looked: boolean
  readonly matched: boolean
  readonly to?: { readonly looked: boolean; readonly matched: boolean }
}

/**
 * The running call's sighting, which runTool reads when the deadline passes: a target looked for and never
 * seen is not found, whatever time was left to find out why (a slow machine), never "found but not ready".
 */
export const targetSighting = FiberRef.unsafeMake<Ref.Ref<Sighting> | undefined>(undefined)

/** Which of the call's targets the looks of this fiber are about: its target, or the second one (`to`). */
export const sightingOf = FiberRef.unsafeMake<"target" | "to">("target")

/** Notes one look at the target (sightingOf says which): how many elements matched it (a negative count: the look failed). */
export const noteSighting = (count: number) =>
  Effect.flatMap(Effect.all([FiberRef.get(targetSighting), FiberRef.get(sightingOf)]), ([sighting, of]) =>
    sighting === undefined || count < 0
      ? Effect.void
      : Ref.update(sighting, (seen) =>
          of === "target"
            ? { ...seen, looked: true, matched: seen.matched || count > 0 }
            : { ...seen, to: { looked: true, matched: seen.to?.matched === true || count > 0 } }
        )
  )
