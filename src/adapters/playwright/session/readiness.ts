// While Playwright's own action waits for its target, we ask the page (page/readiness.ts) why the target
// is not ready, every POLL_MS. A reason that stays the same for QUIET_MS while nothing that could change
// it is on its way (a request, a running animation, a moving box, an element not there yet) stops the
// wait with that reason, instead of Playwright's wait to the deadline. A target that cannot take the
// pointer but has an element a person would use instead (its label, its shadow host, its component's
// drawn control) is answered with that element. Playwright's actionability stays the judge of "ready":
// our page code runs in the page's main world, where a page can lie; it only ever ends a wait early.
import { Data, Effect } from "effect"
import type { ElementHandle, JSHandle, Locator, Page } from "playwright"
import { noteSighting } from "../../../services/Deadline.js"
import { requestsInFlight } from "../lifecycle/live-session.js"
import { PAGE } from "../page-bundle.js"
import { evaluateInPage } from "../page-eval.js"
import { elementFunction } from "../page-script.js"
import type { NotReadyReason, ReadinessAction, Readiness, ReadinessArgs } from "../page/readiness.js"

/** How often the page is asked while the target is not ready. */
const POLL_MS = 100
/** How long a reason must stay the same, with nothing on its way to change it, before the action fails with it. */
export const QUIET_MS = 1_000
/**
 * Reasons that nothing but the page's own doing ends (disabled, read-only, not a field, covered by
 * something that does not move): settled after STATIC_QUIET_MS when the page's DOM has been quiet as
 * long and it fetches nothing.
 */
const STATIC_REASONS: ReadonlySet<string> = new Set(["disabled", "read-only", "not-editable", "covered"])
export const STATIC_QUIET_MS = 250
/** A target that matches nothing is waited for while the page changes, but its DOM's changes count only this long (a ticking clock never settles). */
const MISSING_BUSY_CAP_MS = 4_000
/** How many looks in a row must agree on an element to act through before the action goes through it. */
const THROUGH_LOOKS = 2
/** The longest one question to the page may take (a target not there yet makes Playwright wait this long for it). */
const ASK_MS = 1_000
/** How long a component may take after the action to show its effect. */
export const EFFECT_WAIT_MS = 500
/** How often an effect is looked for. */
const EFFECT_POLL_MS = 25

/** Why the target is not ready, as the page said it (or "missing" / "ambiguous" from the count). */
export class NotReady extends Data.TaggedError("NotReady")<{
  /** "unanswered": the element is there but the page gave no verdict in time. */
  readonly reason: NotReadyReason | "missing" | "ambiguous" | "unanswered"
  readonly detail: string
  /** How many elements match, for "missing" (0) and "ambiguous". */
  readonly count?: number
}> {}

/** Act on `element` instead of the target: its `how` (label, host, drawn control), described as `via`. */
export interface Through {
  readonly element: ElementHandle
  readonly how: string
  readonly via: string
}

const diagnose = elementFunction<ReadinessArgs, { readonly verdict: Readiness; readonly element?: Element; readonly box?: string }>(PAGE.readiness)
const watchEffect = elementFunction<Node, void>(PAGE.watchEffect)
const effectSeen = elementFunction<undefined, boolean>(PAGE.effectSeen)
const checkedState = elementFunction<undefined, boolean | null>(PAGE.checkedState)

type Answer = { readonly verdict: Readiness; readonly box?: string; readonly element?: ElementHandle; readonly quietMs?: number } | { readonly failed: unknown }

/** One question to the page: the verdict, the target's box, and the element to act through when there is one. */
const ask = (locator: Locator, action: ReadinessAction, through: boolean, timeoutMs: number) =>
  Effect.promise(async (signal): Promise<Answer> => {
    let handle: JSHandle | undefined
    try {
      handle = await locator.evaluateHandle(diagnose, { action, through }, { timeout: timeoutMs })
      if (signal.aborted) return { failed: "interrupted" }
      const verdict = (await (await handle.getProperty("verdict")).jsonValue()) as Readiness
      const box = (await (await handle.getProperty("box")).jsonValue()) as string | undefined
      const element = (await handle.getProperty("element")).asElement() ?? undefined
      const quietMs = (await (await handle.getProperty("quietMs")).jsonValue()) as number | undefined
      return { verdict, ...(box !== undefined ? { box } : {}), ...(element !== undefined ? { element } : {}), ...(quietMs !== undefined ? { quietMs } : {}) }
    } catch (failed) {
      return { failed }
    } finally {
      void handle?.dispose().catch(() => undefined)
    }
  })

const countOf = (locator: Locator) => Effect.promise(() => locator.count().catch(() => -1))

/** How long the top document's DOM has been quiet (0 while it loads); undefined when the page cannot say. */
const pageQuiet = (page: Page) =>
  Effect.promise(() =>
    evaluateInPage<number | null>(page, `(${PAGE.pageQuiet})(document) ?? null`, { timeoutMs: ASK_MS }).then(
      (quiet) => quiet ?? undefined,
      () => undefined
    )
  )

/** The answer of an action with no readiness of its own (get_text, press_key, scroll, upload_file): only whether its target is there. */
const ONLY_PRESENCE: Answer = { failed: "no readiness" }

/**
 * Watches the target while Playwright's action waits for it: fails with NotReady once a reason is
 * settled (see the module comment), succeeds with the element to act through once THROUGH_LOOKS looks
 * agree on one (only when `through`), and otherwise keeps looking (Playwright's action ends the race).
 * An action with no readiness of ours (`action` undefined) is watched for its target's presence only:
 * one that matches nothing while the page can no longer bring it fails as "missing", as for the others.
 */
export const watchReadiness = (page: Page, locator: Locator, action: ReadinessAction | undefined, through: boolean) =>
  Effect.gen(function* () {
    let since: { readonly key: string; readonly at: number } | undefined
    let lastBox: string | undefined
    let throughLooks = 0
    const started = Date.now()
    // An action that only needs its target to be there is usually done before the first look is due (which counts).
    if (action === undefined) yield* Effect.sleep(POLL_MS)
    // The first look of the others does not wait: how many elements match now. A question below waits up to
    // ASK_MS for one to appear, so a missing target would be seen only a second in, after a short call's deadline.
    else yield* noteSighting(yield* countOf(locator))
    for (;;) {
      const answer = action === undefined ? ONLY_PRESENCE : yield* ask(locator, action, through, ASK_MS)
      // What the call saw of its target decides what its deadline means (services/Deadline.ts).
      if (!("failed" in answer)) yield* noteSighting(1)
      let notReady: NotReady | undefined
      let changing = true
      /** Since when the page has shown the reason at the latest, when it can say (a DOM unchanged since then matched nothing). */
      let shownSince: number | undefined
      if ("failed" in answer) {
        // More than one match is as settled as any reason; none is waited for while the page can still
        // bring it (it loads, its DOM changes, it fetches: see below), then it is missing.
        const count = yield* countOf(locator)
        yield* noteSighting(count)
        if (count > 1) {
          notReady = new NotReady({ reason: "ambiguous", detail: `${count} elements match it`, count })
          changing = false
        } else if (count === 0) {
          notReady = new NotReady({ reason: "missing", detail: "no element matches it", count: 0 })
          const quiet = yield* pageQuiet(page)
          changing = quiet === 0 || (quiet !== undefined && quiet < QUIET_MS && Date.now() - started < MISSING_BUSY_CAP_MS)
          // A DOM that has not changed for a while matched nothing all that while: a quiet page need not be watched as long again.
          if (quiet !== undefined) shownSince = Date.now() - quiet
        }
      } else if (answer.verdict.ready === "through" && answer.element !== undefined) {
        if (++throughLooks >= THROUGH_LOOKS) return { element: answer.element, how: answer.verdict.how, via: answer.verdict.via } satisfies Through
        void answer.element.dispose().catch(() => undefined)
      } else if (answer.verdict.ready === false) {
        notReady = new NotReady({ reason: answer.verdict.reason, detail: answer.verdict.detail })
        // A box that moved since the last look is still on its way somewhere.
        changing = answer.verdict.changing || (answer.box !== undefined && lastBox !== undefined && answer.box !== lastBox)
      }
      if (!("failed" in answer) && answer.verdict.ready !== "through") throughLooks = 0
      if (!("failed" in answer)) lastBox = answer.box
      const now = Date.now()
      if (changing || notReady === undefined) since = undefined
      else if (since?.key !== `${notReady.reason} ${notReady.detail}`) since = { key: `${notReady.reason} ${notReady.detail}`, at: Math.min(now, shownSince ?? now) }
      // Settled: the same reason for QUIET_MS, and the page fetches nothing that could change it; a
      // reason only the page's own doing ends sooner, when its DOM has been quiet as long.
      const needed =
        notReady !== undefined && STATIC_REASONS.has(notReady.reason) && !("failed" in answer) && (answer.quietMs ?? 0) >= STATIC_QUIET_MS ? STATIC_QUIET_MS : QUIET_MS
      if (since !== undefined && notReady !== undefined && now - since.at >= needed && requestsInFlight(page, QUIET_MS * 2) === 0) {
        return yield* notReady
      }
      yield* Effect.sleep(POLL_MS)
    }
  })

/**
 * The rule above for a target that matches nothing, for a wait of our own that looks at it (session/direct-reads.ts):
 * a look, called after each look that found none, answers whether it is settled: the page has shown none for QUIET_MS
 * (its DOM quiet as long, or changing only past MISSING_BUSY_CAP_MS) with nothing on its way that could bring it.
 */
export const missingSettles = (page: Page) => {
  const started = Date.now()
  let since: number | undefined
  return Effect.gen(function* () {
    const quiet = yield* pageQuiet(page)
    const now = Date.now()
    if (quiet === 0 || (quiet !== undefined && quiet < QUIET_MS && now - started < MISSING_BUSY_CAP_MS)) {
      since = undefined
      return false
    }
    since ??= Math.min(now, quiet !== undefined ? now - quiet : now)
    return now - since >= QUIET_MS && requestsInFlight(page, QUIET_MS * 2) === 0
  })
}

/** Why the target is not ready now, from two looks POLL_MS apart (for explaining a failed action); none when it seems ready. */
export const whyNotReady = (locator: Locator, action: ReadinessAction) =>
  Effect.gen(function* () {
    const first = yield* ask(locator, action, false, ASK_MS)
    yield* Effect.sleep(POLL_MS)
    const second = yield* ask(locator, action, false, ASK_MS)
    if ("failed" in first || "failed" in second) return undefined
    if (first.box !== undefined && second.box !== undefined && first.box !== second.box) {
      return new NotReady({ reason: "moving", detail: "it kept moving (an animation, or a layout that never settled)" })
    }
    return second.verdict.ready === false ? new NotReady({ reason: second.verdict.reason, detail: second.verdict.detail }) : undefined
  })

/** Polls `look` until it answers true, for at most `waitMs` (at least twice); answers the last look. */
export const pollFor = async (look: () => Promise<boolean>, waitMs: number): Promise<boolean> => {
  const until = Date.now() + waitMs
  for (let looks = 0; ; looks++) {
    if (await look()) return true
    if (looks >= 1 && Date.now() >= until) return false
    await new Promise((resolve) => setTimeout(resolve, EFFECT_POLL_MS))
  }
}

/**
 * Runs `act` on `via` (an element a person would use instead of the target, found by `how`) and
 * fails unless the target showed the effect a person's click has there (page/readiness.ts effectSeen:
 * one of its states or its component's expanded state changed, a click reached it, a field that takes
 * typing took the focus), within EFFECT_WAIT_MS (a component that updates its state a frame or two later).
 */
export const actThrough = async <A>(
  target: Locator,
  via: { readonly how: string; readonly description: string; readonly element: ElementHandle },
  act: () => Promise<A>,
  options: { readonly timeout: number }
): Promise<A> => {
  await target.evaluate(watchEffect, via.element, options)
  const value = await act()
  const effect = await pollFor(() => target.evaluate(effectSeen, undefined, { timeout: 1_000 }).catch(() => false), EFFECT_WAIT_MS)
  if (!effect) {
    throw new Error(`it cannot take the pointer itself, and clicking its ${via.how} ${via.description} had no effect on it (none of its states changed, nothing of its component opened)`)
  }
  return value
}

/** The target's checked state as a person reads it (page/readiness.ts checkedStateOf); null when it has none or cannot be read. */
export const checkedOf = (target: Locator, timeoutMs: number): Promise<boolean | null> =>
  target.evaluate(checkedState, undefined, { timeout: timeoutMs }).catch(() => null)

/**
 * Waits up to EFFECT_WAIT_MS (less when the call has less left: `budgetMs`) for the target's checked
 * state to become `wanted` (a component that sets its state a frame or two after the click); answers
 * the state it saw last.
 */
export const checkedSettles = async (target: Locator, wanted: boolean, budgetMs = EFFECT_WAIT_MS): Promise<boolean | null> => {
  let now: boolean | null = null
  await pollFor(async () => (now = await checkedOf(target, 1_000)) === wanted, Math.max(0, Math.min(EFFECT_WAIT_MS, budgetMs)))
  return now
}
