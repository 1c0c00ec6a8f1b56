// While Playwright's own action waits for its target, we ask the page (page/readiness.ts) why the target
// is not ready, every POLL_MS. A reason that stays the same for QUIET_MS while nothing that could change
// it is on its way (a request, a running animation, a moving box, an element not there yet) stops the
// wait with that reason, instead of Playwright's wait to the deadline. A target that cannot take the
// pointer but has an element a person would use instead (its label, its shadow host, its component's
// drawn control) is answered with that element. Playwright's actionability stays the judge of "ready":
// our page code only ever ends a wait early. It looks from our isolated world when it can find the
// target there (page/look.ts), where the walk's watch knows how long the DOM has been quiet, else (and
// for the element to act through) from the page's main world, where a page can lie.
import { Data, Deferred, Effect } from "effect"
import type { ElementHandle, JSHandle, Locator, Page } from "playwright"
import { noteSighting } from "../../../services/Deadline.js"
import { requestsInFlight } from "../lifecycle/live-session.js"
import { pendingTimers } from "../observer/quiet.js"
import { actionsInstallKey, lookScript, type ActionsMissing } from "../page-actions.js"
import { PAGE } from "../page-bundle.js"
import { evaluateInPage, hasInstalled, noteInstalled } from "../page-eval.js"
import { elementFunction } from "../page-script.js"
import type { Look, LookArgs } from "../page/look.js"
import type { NotReadyReason, ReadinessAction, Readiness, ReadinessArgs } from "../page/readiness.js"
import type { DirectLocator } from "../page/types.js"

/** How often the page is asked while the target is not ready. */
const POLL_MS = 100
/** How long a reason must stay the same, with nothing on its way to change it, before the action fails with it. */
export const QUIET_MS = 1_000
/**
 * Reasons that nothing but the page's own doing ends (disabled, read-only, not a field): settled after
 * STATIC_QUIET_MS when the page's DOM has been quiet as long and it fetches nothing.
 */
const STATIC_REASONS: ReadonlySet<string> = new Set(["disabled", "read-only", "not-editable"])
export const STATIC_QUIET_MS = 250
/**
 * Reasons that a DOM unchanged since, with nothing animating, has shown all that while (a look need not
 * watch as long again): all but a cover that a scroll could move (Playwright's action tries other scroll
 * positions), and a clip or a viewport that a scroll undoes, which the page's verdict says is changing.
 */
const SHOWN_WHILE_QUIET: ReadonlySet<string> = new Set([...STATIC_REASONS, "hidden", "clipped", "off-screen", "covered", "detached", "ambiguous"])
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
  /** What works on the target instead, when the page knows (the keys of a slider it draws). */
  readonly instead?: string
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

/** The target as our world finds it (page/locate.ts), for the watch's looks there (page/look.ts). */
export interface LookTarget {
  readonly locator: DirectLocator
  readonly within: DirectLocator | null
  readonly testIdAttribute: string
}

/** One look in our world at the target (page/look.ts); undefined when the page gave no answer in time. */
const lookInPage = (page: Page, args: LookArgs) =>
  Effect.promise(async (signal): Promise<Look | undefined> => {
    const key = actionsInstallKey()
    const options = { timeoutMs: ASK_MS, signal }
    try {
      let answer = await evaluateInPage<Look | ActionsMissing>(page, lookScript(args, !hasInstalled(page, key)), options)
      if ("missing" in answer) answer = await evaluateInPage<Look | ActionsMissing>(page, lookScript(args, true), options)
      if ("missing" in answer) return undefined
      noteInstalled(page, key)
      return answer
    } catch {
      return undefined
    }
  })

/** What one look saw of the target, from our world or from Playwright's (-1: the count is not known). */
interface Sight {
  readonly count: number
  readonly answer: Answer
  /** The ref's element left the page. */
  readonly gone?: boolean
  /** How long the DOM had been quiet, as our world's watch knows (the main world cannot say). */
  readonly quietMs?: number
  /** Whether something animates that may change what was seen (page/look.ts); unknown from Playwright's world. */
  readonly animating?: boolean
  /** A covered target that a scroll could move (page/look.ts). */
  readonly scrolls?: boolean
}

/** A look through Playwright's main world (the old way: a selector only Playwright reads, a frame, an element to act through). */
const askPlaywright = (page: Page, locator: Locator, action: ReadinessAction, through: boolean) =>
  Effect.gen(function* () {
    const answer = yield* ask(locator, action, through, ASK_MS)
    if (!("failed" in answer)) return { count: 1, answer } satisfies Sight
    const count = yield* countOf(locator)
    // A DOM that has not changed for a while matched nothing all that while (our world's watch knows how long).
    const quietMs = count === 0 ? yield* pageQuiet(page) : undefined
    return { count, answer, ...(quietMs !== undefined ? { quietMs } : {}) } satisfies Sight
  })

/**
 * What our world's look saw, as a Sight; undefined for a target it cannot find and for an element to act
 * through, which only a Playwright handle carries: those are looked at through Playwright's world.
 */
const sightOf = (look: Look): Sight | undefined => {
  if ("unknown" in look) return undefined
  const seen = { ...(look.quietMs !== undefined ? { quietMs: look.quietMs } : {}), animating: look.animating }
  if ("gone" in look) return { count: 0, gone: true, answer: { failed: "gone" }, ...seen }
  if (!("verdict" in look)) return { count: look.count, answer: { failed: "count" }, ...seen }
  if (look.verdict.ready === "through") return undefined
  const answer: Answer = { verdict: look.verdict, ...(look.box !== undefined ? { box: look.box } : {}) }
  return { count: 1, answer, ...seen, ...(look.scrolls === true ? { scrolls: true } : {}) }
}

/**
 * Watches the target while Playwright's action waits for it: fails with NotReady once a reason is
 * settled (see the module comment), succeeds with the element to act through once THROUGH_LOOKS looks
 * agree on one (only when `through`), and otherwise keeps looking (Playwright's action ends the race).
 * An action with no readiness of ours (`action` undefined) is watched for its target's presence only:
 * one that matches nothing while the page can no longer bring it fails as "missing", as for the others.
 * `target` lets the looks run in our world (page/look.ts), which knows how long the DOM has been quiet:
 * a reason that only the page's own doing ends, shown by a DOM quiet for long enough with nothing
 * animating, is settled at the first look. `looked` is completed after the first look (Playwright's
 * action waits for it: a target settled at once never loads Playwright's injected script), or before a
 * question that waits for a target none matches; not while the looks say to act through another element:
 * Playwright's action would scroll a clipped target (a visually hidden input) away from what its
 * component draws there, and the next look would find something else to act through.
 */
export const watchReadiness = (
  page: Page,
  locator: Locator,
  action: ReadinessAction | undefined,
  through: boolean,
  options: { readonly target?: LookTarget | undefined; readonly looked?: Deferred.Deferred<void> | undefined } = {}
) =>
  Effect.gen(function* () {
    let since: { readonly key: string; readonly at: number } | undefined
    let lastBox: string | undefined
    let throughLooks = 0
    /** The element the last look would act through (its description): the looks must agree on it. */
    let throughVia: string | undefined
    let target = options.target
    const started = Date.now()
    let free = options.looked === undefined
    const released = () =>
      Effect.suspend(() => {
        if (free || options.looked === undefined) return Effect.void
        free = true
        return Effect.asVoid(Deferred.succeed(options.looked, undefined))
      })
    /** How many elements matched before the first look, when counted (Playwright's world alone). */
    let counted: number | undefined
    // An action that only needs its target to be there is usually done before the first look is due (which counts).
    if (action === undefined) {
      yield* released()
      yield* Effect.sleep(POLL_MS)
    }
    // The first look of the others without our world does not wait: how many elements match now. A question below waits up to
    // ASK_MS for one to appear, so a missing target would be seen only a second in, after a short call's deadline.
    else if (target === undefined) {
      counted = yield* countOf(locator)
      yield* noteSighting(counted)
    }
    for (;;) {
      let sight: Sight
      if (action === undefined) {
        const count = yield* countOf(locator)
        const quietMs = count === 0 ? yield* pageQuiet(page) : undefined
        sight = { count, answer: ONLY_PRESENCE, ...(quietMs !== undefined ? { quietMs } : {}) }
      } else {
        const look = target === undefined ? undefined : yield* lookInPage(page, { ...target, action, through })
        // A target our world cannot find is looked at through Playwright's from now on (one that did not answer, this time).
        if (look !== undefined && "unknown" in look) target = undefined
        // None matches: Playwright's question waits up to ASK_MS for one to appear, and the rule for a missing
        // target runs on its answer, as it always did (a quiet page's DOM says nothing of a timer that brings it).
        const none = look !== undefined && "count" in look && !("verdict" in look) && look.count === 0
        if (none) yield* noteSighting(0)
        const ours = look === undefined || none ? undefined : sightOf(look)
        // Playwright's question waits for a missing target to appear: its action is not held up meanwhile.
        if (!free && ours === undefined && (none || (!(look !== undefined && "verdict" in look) && (counted ?? (yield* countOf(locator))) === 0))) {
          yield* released()
        }
        counted = undefined
        sight = ours ?? (yield* askPlaywright(page, locator, action, through))
      }
      const { answer, count } = sight
      // What the call saw of its target decides what its deadline means (services/Deadline.ts).
      yield* noteSighting(count)
      let notReady: NotReady | undefined
      let changing = true
      /** Since when the page has shown the reason at the latest, when it can say (a DOM unchanged since then showed the same). */
      let shownSince: number | undefined
      /** This look would act through another element: Playwright's action is held meanwhile. */
      let holding = false
      if (sight.gone === true) {
        notReady = new NotReady({ reason: "detached", detail: "it is no longer in the page" })
        changing = false
      } else if ("failed" in answer) {
        // More than one match is as settled as any reason; none is waited for while the page can still
        // bring it (it loads, its DOM changes, it fetches: see below), then it is missing.
        if (count > 1) {
          notReady = new NotReady({ reason: "ambiguous", detail: `${count} elements match it`, count })
          changing = false
        } else if (count === 0) {
          notReady = new NotReady({ reason: "missing", detail: "no element matches it", count: 0 })
          const quiet = sight.quietMs
          changing = quiet === 0 || (quiet !== undefined && quiet < QUIET_MS && Date.now() - started < MISSING_BUSY_CAP_MS)
          // A DOM that has not changed for a while matched nothing all that while: a quiet page need not be watched as long again.
          if (quiet !== undefined) shownSince = Date.now() - quiet
        }
      } else if (answer.verdict.ready === "through" && answer.element !== undefined) {
        throughLooks = answer.verdict.via === throughVia ? throughLooks + 1 : 1
        throughVia = answer.verdict.via
        // Playwright's action never runs beside the one through the element (its raceFirst ends it).
        if (throughLooks >= THROUGH_LOOKS) return { element: answer.element, how: answer.verdict.how, via: answer.verdict.via } satisfies Through
        holding = true
        void answer.element.dispose().catch(() => undefined)
      } else if (answer.verdict.ready === false) {
        notReady = new NotReady({ reason: answer.verdict.reason, detail: answer.verdict.detail, ...(answer.verdict.instead !== undefined ? { instead: answer.verdict.instead } : {}) })
        // A box that moved since the last look is still on its way somewhere.
        changing = answer.verdict.changing || (answer.box !== undefined && lastBox !== undefined && answer.box !== lastBox)
      }
      if (!("failed" in answer) && answer.verdict.ready !== "through") [throughLooks, throughVia] = [0, undefined]
      if (!("failed" in answer)) lastBox = answer.box
      // A reason that no scroll of Playwright's changes, shown by a DOM unchanged for a while with nothing
      // animating, was shown all that while.
      const quietFor =
        notReady !== undefined && !changing && sight.animating === false && sight.scrolls !== true && SHOWN_WHILE_QUIET.has(notReady.reason) ? sight.quietMs : undefined
      if (quietFor !== undefined) shownSince = Date.now() - quietFor
      const now = Date.now()
      if (changing || notReady === undefined) since = undefined
      else if (since?.key !== `${notReady.reason} ${notReady.detail}`) since = { key: `${notReady.reason} ${notReady.detail}`, at: Math.min(now, shownSince ?? now) }
      else if (shownSince !== undefined) since = { key: since.key, at: Math.min(since.at, shownSince) }
      // Settled: the same reason for QUIET_MS, and the page fetches nothing that could change it; a
      // reason only the page's own doing ends sooner, when its DOM has been quiet as long.
      const needed = notReady !== undefined && STATIC_REASONS.has(notReady.reason) && (sight.quietMs ?? 0) >= STATIC_QUIET_MS ? STATIC_QUIET_MS : QUIET_MS
      if (
        since !== undefined &&
        notReady !== undefined &&
        now - since.at >= needed &&
        requestsInFlight(page, QUIET_MS * 2) === 0 &&
        // Nor do short timers a person's input scheduled (a validation that enables a button 300 ms after the last key);
        // a missing target keeps its own rule (above).
        (notReady.reason === "missing" || (yield* Effect.promise(() => pendingTimers(page))) === 0)
      ) {
        return yield* notReady
      }
      if (!holding) yield* released()
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
    return second.verdict.ready === false
      ? new NotReady({ reason: second.verdict.reason, detail: second.verdict.detail, ...(second.verdict.instead !== undefined ? { instead: second.verdict.instead } : {}) })
      : undefined
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

/**
 * The element a person clicks for `element` when it cannot take the pointer itself (its label, its host, the
 * control its component draws over it: page/readiness.ts); undefined when it can, or when the page knows none.
 */
export const clickedFor = async (element: ElementHandle): Promise<ElementHandle | undefined> => {
  const handle = await element.evaluateHandle(diagnose, { action: "click" as const, through: true }).catch(() => undefined)
  if (handle === undefined) return undefined
  try {
    const verdict = (await (await handle.getProperty("verdict")).jsonValue()) as Readiness
    return verdict.ready === "through" ? ((await handle.getProperty("element")).asElement() ?? undefined) : undefined
  } catch {
    return undefined
  } finally {
    void handle.dispose().catch(() => undefined)
  }
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
