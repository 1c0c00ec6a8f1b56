// After an action whose effect is judged by reading the target back (set_checked, select_option, type):
// the page's reaction to it is waited for first (page/reaction.ts), so that a page that undoes the change
// (a checkbox unchecked again after a request or a 300 ms timer, a field cleared by its validation) is
// judged on what it shows once it settled, never on the moment right after the input.
import type { Locator, Page } from "playwright"
import { requestsInFlight } from "../lifecycle/live-session.js"
import { PAGE } from "../page-bundle.js"
import { elementFunction } from "../page-script.js"
import type { Reaction } from "../page/reaction.js"

/** The longest the reaction is waited for, how long the page must then be quiet, and how often it is looked at. */
export const REACTION = { capMs: 2_500, quietMs: 120, pollMs: 25 } as const

const watchReaction = elementFunction<boolean | undefined, void>(PAGE.watchReaction)
const reactionNow = elementFunction<undefined, Reaction | null>(PAGE.reactionNow)
const stopReaction = elementFunction<undefined, ReadonlyArray<string>>(PAGE.stopReaction)

/** A started watch: when it started (epoch ms), or undefined when the page could not start it. */
export type ReactionStart = number | undefined

/** Starts watching the page's reaction, right before the action's input (`typing`: into this field, see page/reaction.ts). */
export const startReaction = (target: Locator, typing?: boolean): Promise<ReactionStart> =>
  target.evaluate(watchReaction, typing, { timeout: 1_000 }).then(
    () => Date.now(),
    () => undefined
  )

/** What the page did in reaction: the text it added meanwhile (a message), newest last. */
export interface Settled {
  readonly texts: ReadonlyArray<string>
}

/**
 * Waits until the page's reaction to the action settled: no short timer it scheduled still pending, no
 * request it started still in flight, and nothing of that nor of its DOM for REACTION.quietMs; at most
 * REACTION.capMs and `budgetMs`. `look` reads the watch (null: it is gone). With `eager`, a page that
 * did nothing at all since the watch began (no timer, request or DOM change) is settled at once (only a
 * page that reacts is waited for), and its requests are the ones the page counts (fetch, XMLHttpRequest)
 * once they answered: the browser's word that a request ended comes only once its body was read, which
 * a page that looks at the status alone never does.
 */
export const awaitSettled = async (
  page: Page,
  look: () => Promise<Reaction | null>,
  started: number,
  budgetMs: number,
  eager = false
): Promise<void> => {
  const until = started + Math.max(0, Math.min(REACTION.capMs, budgetMs))
  let lastBusy = started
  for (;;) {
    const now = Date.now()
    const seen = await look()
    if (seen === null || page.isClosed()) return
    // Requests that started since the action (a little earlier too: its own input's events).
    const busy = seen.timers > 0 || seen.requests > 0 || (!eager && requestsInFlight(page, now - started + 50) > 0)
    if (busy) lastBusy = now
    else if (eager && !seen.changed && lastBusy === started) return
    const quietSince = Math.max(lastBusy, now - seen.quietMs)
    if (!busy && now - quietSince >= REACTION.quietMs) return
    if (now >= until) return
    await new Promise((resolve) => setTimeout(resolve, REACTION.pollMs))
  }
}

/** awaitSettled on the target's own watch (started with startReaction); ends the watch. */
export const settleReaction = async (page: Page, target: Locator, started: ReactionStart, budgetMs: number): Promise<Settled> => {
  if (started === undefined) return { texts: [] }
  await awaitSettled(page, () => target.evaluate(reactionNow, undefined, { timeout: 1_000 }).catch(() => null), started, budgetMs)
  const texts = await target.evaluate(stopReaction, undefined, { timeout: 1_000 }).catch((): ReadonlyArray<string> => [])
  return { texts }
}

/** The page's words after it undid the change, for a failure's detail ("" when it added none). */
export const pageSaid = (settled: Settled): string => {
  const last = settled.texts.slice(-2)
  return last.length === 0 ? "" : `; the page now says ${last.map((text) => JSON.stringify(text)).join(", ")}`
}
