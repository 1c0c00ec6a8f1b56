// Ref numbers, one space for every session of a server: a ref one session was shown never names an
// element in another (mm_click {session: "b", a11yRef: "e16"} with a's e16 misses instead of acting).
// Each page evaluation that may hand out refs takes a block of numbers first, and the page never
// numbers past its block; what the evaluation did not use goes back when no later block was taken,
// so one client working alone keeps numbering densely (e1, e2, ...) and only walks that overlap leave gaps.
// Numbers go back when the last session closes (the next one numbers from e1 again, above any block still
// in flight); while another session lives, a closed session's numbers stay taken, so a ref of the closed one
// never names an element the live one shows later.
import { Context, Effect, Exit, Layer } from "effect"

/** Ref numbers [start, end) one evaluation may hand out. */
export interface RefBlock {
  readonly start: number
  readonly end: number
}

export interface RefSpaceService {
  /**
   * A block of `size` numbers no other evaluation holds (size 0: an evaluation that hands out none).
   * Synchronous: JavaScript runs one at a time, so two reservations never read the same start.
   */
  readonly reserve: (size: number) => RefBlock
  /**
   * An evaluation's answer came back, numbering up to `next` (exclusive): the rest of its block goes back
   * when no later block was taken. An evaluation whose answer never came keeps its whole block (the page
   * may have used it): it is simply never released.
   */
  readonly release: (block: RefBlock, next: number) => void
  /**
   * An evaluation failed: its block is no longer in flight, the numbers it may have used being noted in its
   * session's ranges (without a session's ranges, keep it in flight: nothing else remembers it).
   */
  readonly abandon: (block: RefBlock) => void
  /** A live session's ranges count until the answer is called (its session closed); the last one to close gives back what no block in flight holds. */
  readonly track: (record: RefRanges) => () => void
}

/** A space of its own, numbering from e1. */
export const make = (): RefSpaceService => {
  let next = 1
  const inFlight = new Set<RefBlock>()
  const live = new Set<RefRanges>()
  /** The numbers nothing holds any more go back: above every live session's ranges and every block in flight. */
  const compact = () => {
    let top = 1
    for (const record of live) for (const range of record.ranges) top = Math.max(top, range[1])
    for (const block of inFlight) top = Math.max(top, block.end)
    next = Math.min(next, top)
  }
  return {
    reserve: (size) => {
      const start = next
      next = start + Math.max(0, size)
      const block = { start, end: next }
      if (size > 0) inFlight.add(block)
      return block
    },
    release: (block, used) => {
      // An answer that does not say how far it numbered keeps its block.
      if (!Number.isFinite(used)) return
      inFlight.delete(block)
      // Never below what a page reported (fail closed): a page that numbered past its block moves the space on.
      if (used > next) next = used
      else if (next === block.end) next = Math.max(block.start, used)
    },
    abandon: (block) => void inFlight.delete(block),
    track: (record) => {
      live.add(record)
      return () => {
        live.delete(record)
        if (live.size === 0) compact()
      }
    }
  }
}

/**
 * The numbers one session's evaluations took, as ranges [start, end) in order, merged where they touch: a
 * ref outside them was never this session's (another session's, or made up). Past MAX_RANGES (sessions
 * walking in turns) the two nearest ranges merge: the record only grows vaguer, it never drops a number.
 */
export interface RefRanges {
  readonly ranges: Array<[number, number]>
}

const MAX_RANGES = 256

export const emptyRanges = (): RefRanges => ({ ranges: [] })

export const noteRange = (record: RefRanges, start: number, end: number): void => {
  if (!(end > start)) return
  const ranges = record.ranges
  let at = ranges.length
  while (at > 0 && ranges[at - 1]![0] > start) at--
  ranges.splice(at, 0, [start, end])
  const merged: Array<[number, number]> = []
  for (const range of ranges) {
    const last = merged[merged.length - 1]
    if (last !== undefined && range[0] <= last[1]) last[1] = Math.max(last[1], range[1])
    else merged.push([range[0], range[1]])
  }
  while (merged.length > MAX_RANGES) {
    let nearest = 0
    for (let i = 1; i < merged.length - 1; i++) if (merged[i + 1]![0] - merged[i]![1] < merged[nearest + 1]![0] - merged[nearest]![1]) nearest = i
    merged.splice(nearest, 2, [merged[nearest]![0], merged[nearest + 1]![1]])
  }
  ranges.splice(0, ranges.length, ...merged)
}

/** Whether the session's evaluations ever took this ref's number. */
export const tookRef = (record: RefRanges, ref: string): boolean => {
  const number = /^e(\d+)$/.exec(ref)?.[1]
  if (number === undefined) return false
  const n = Number(number)
  return record.ranges.some(([start, end]) => n >= start && n < end)
}

/** The numbers an evaluation answers it numbered up to (exclusive). */
interface Numbered {
  readonly nextRef: number
}

/** What an evaluation that answered used: from its block's start to where it says it stopped. */
const settle = (space: RefSpaceService, block: RefBlock, answer: Numbered, record: RefRanges | undefined) => {
  space.release(block, answer.nextRef)
  if (record !== undefined) noteRange(record, block.start, Number.isFinite(answer.nextRef) ? Math.max(answer.nextRef, block.start) : block.end)
}

/** A failed evaluation's block, noted whole in its session's ranges (the page may have used it). */
const abandonNoted = (space: RefSpaceService, block: RefBlock, record: RefRanges) => {
  noteRange(record, block.start, block.end)
  space.abandon(block)
}

/**
 * `evaluate` with a block of `size` numbers: what it did not use goes back once its answer is in (never
 * when it fails). `record`: the session's, which notes the numbers taken (all of the block on a failure).
 */
export const inBlock = <A extends Numbered>(
  space: RefSpaceService,
  size: number,
  record: RefRanges | undefined,
  evaluate: (block: RefBlock) => Promise<A>
): Promise<A> => {
  const block = space.reserve(size)
  return evaluate(block).then(
    (answer) => {
      settle(space, block, answer, record)
      return answer
    },
    (error: unknown) => {
      if (record !== undefined) abandonNoted(space, block, record)
      throw error
    }
  )
}

/** The same for an Effect: an evaluation that fails or is interrupted keeps its block. */
export const inBlockEffect = <A extends Numbered, E, R>(
  space: RefSpaceService,
  size: number,
  record: RefRanges | undefined,
  evaluate: (block: RefBlock) => Effect.Effect<A, E, R>
): Effect.Effect<A, E, R> =>
  Effect.suspend(() => {
    const block = space.reserve(size)
    return Effect.onExit(evaluate(block), (exit) =>
      Effect.sync(() =>
        Exit.isSuccess(exit) ? settle(space, block, exit.value, record) : record !== undefined ? abandonNoted(space, block, record) : undefined
      )
    )
  })

/**
 * The server's ref space. A reference: a session built without one (a library's `openSession`) shares the
 * process's; the session registry and the single-session layer each provide one of their own, so a runtime
 * (a test's) numbers from e1.
 */
export class RefSpace extends Context.Reference<RefSpace>()("browser-workflow-mcp/internal/RefSpace", {
  defaultValue: make
}) {}

/** A new space for what this layer builds. */
export const layer = Layer.sync(RefSpace, make)
