// A page whose main thread is held by a script of its own (`while (true)` from a click handler or a
// timer) never answers our scripts. Where a page script got no answer, one trivial script tells a
// slow answer from a page that cannot answer at all, which is MM_PAGE_UNRESPONSIVE.
import { Effect, Option } from "effect"
import type { Page } from "playwright"
import { PageUnresponsive } from "../../../domain/errors.js"
import { PageDidNotAnswer, pageAnswers } from "../page-eval.js"

/** Pages found not answering, until they answer again: later calls ask them once, briefly, before anything else. */
const stuck = new WeakSet<Page>()

/** Whether the page was found not answering and has not answered since (no probe: costs nothing). */
export const knownStuck = (page: Page): boolean => stuck.has(page)

/** MM_PAGE_UNRESPONSIVE when the page does not answer a trivial script now; none when it does. */
export const unresponsive = (page: Page, detail: string): Effect.Effect<Option.Option<PageUnresponsive>> =>
  Effect.map(
    Effect.promise(() => pageAnswers(page)),
    (answers) => {
      if (answers) {
        stuck.delete(page)
        return Option.none()
      }
      stuck.add(page)
      return Option.some(new PageUnresponsive({ detail }))
    }
  )

/**
 * Fails with MM_PAGE_UNRESPONSIVE at once when the page was found not answering before and still
 * does not; a page not known to be stuck costs nothing.
 */
export const failIfStuck = (page: Page, detail: string): Effect.Effect<void, PageUnresponsive> =>
  stuck.has(page)
    ? Effect.flatMap(unresponsive(page, detail), Option.match({ onNone: () => Effect.void, onSome: Effect.fail }))
    : Effect.void

/** After a page script or action got no answer: MM_PAGE_UNRESPONSIVE when the page does not answer at all, else `otherwise`. */
export const unresponsiveOr = <E>(page: Page, detail: string, otherwise: E): Effect.Effect<E | PageUnresponsive> =>
  Effect.map(unresponsive(page, detail), Option.getOrElse((): E | PageUnresponsive => otherwise))

/** Whether a rejected page script went unanswered (rather than failing in the page). */
export const unanswered = (cause: unknown): boolean => cause instanceof PageDidNotAnswer
