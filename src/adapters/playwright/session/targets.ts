// Finding a target on a page and running one Playwright action on it, with typed errors classified
// from Playwright's error classes and the page's structure (how many elements match, are they visible).
import { Deferred, Duration, Effect, FiberRef, Option } from "effect"
import type { ElementHandle, FrameLocator, Locator, Page } from "playwright"
import { ActionFailed, ActionTimeout, InvalidInput, PageClosed, PageUnresponsive, TargetAmbiguous, TargetNotFound, TargetUnusable, type UnusableReason } from "../../../domain/errors.js"
import { describeTarget, type Locator as TargetLocator, type Target } from "../../../domain/target.js"
import { waitWithin } from "../../../services/Deadline.js"
import { ObservingClient } from "../../../services/Observer.js"
import type { ActionError } from "../../../services/Session.js"
import { type BrowserStateService } from "../lifecycle/browser.js"
import { BrowserCallFailed, firstLine, isPlaywrightTimeout } from "../calls.js"
import type { TargetElement } from "../../../domain/knowledge.js"
import { describeInSeparateFrames, REF_NOT_ON_PAGE, refInSeparateFrames, selectorInSeparateFrames, separateFrames } from "./frames.js"
import { describeExpression, describeInstallExpression, describeInstallKey, type DescribeAnswer, type DescribeArgs, type Described } from "../page-durable.js"
import { evaluateAcrossNavigation, evaluateInPage, hasInstalled, noteInstalled } from "../page-eval.js"
import { failIfStuck, knownStuck, unanswered, unresponsive } from "./responsive.js"
import { checkRefExpression, REF_ENGINE, walkInstallKey, type RefCheck } from "../page-script.js"
import type { ReadinessAction } from "../page/readiness.js"
import { QUIET_MS, watchReadiness, whyNotReady, type LookTarget, type NotReady } from "./readiness.js"
import { withCandidates, type MatchSource } from "./candidates.js"
import { tookRef } from "../lifecycle/ref-space.js"

/** How long describing a target may take before the action goes ahead without it. */
const DESCRIBE_TIMEOUT_MS = 1_000
/** Of that, how long the page may search for a selector before it settles for the best one so far. */
const SELECTOR_BUDGET_MS = 150

export type Action = "click" | "type" | "get_text" | "press_key" | "select_option" | "hover" | "drag" | "scroll" | "set_checked" | "upload_file"

const cssString = (value: string) => JSON.stringify(value)

/** At most this many refs are suggested when a ref is unknown (each document suggests as many at most). */
const SUGGESTED_REFS = 40

/** How long a check of the page (a ref, a count, a visibility) may take. */
const CHECK_TIMEOUT_MS = 3_000
const CHECK_TIMEOUT = Duration.millis(CHECK_TIMEOUT_MS)

/** Kept from an action's wait to find out why it failed (a count, a visibility check) before the call's deadline. */
const CLASSIFY_RESERVE_MS = 400

/** The readiness each action waits for before Playwright's own action runs (see readiness.ts); the others wait for nothing of ours. */
const READINESS: Partial<Record<Action, ReadinessAction>> = {
  click: "click",
  hover: "hover",
  type: "type",
  select_option: "select_option",
  set_checked: "set_checked",
  drag: "drag"
}

/**
 * Thrown by an action's own code when the page says the target can never take it as it is (typing into
 * a heading): answered as TargetUnusable at once, with the page's words.
 */
export class Refused extends Error {
  constructor(
    readonly reason: UnusableReason,
    readonly detail: string,
    /** What works on the target instead, when the page knows. */
    readonly instead?: string
  ) {
    super(detail)
  }
}

/** Reasons no wait can end: a refusal with one of them is answered as the target's state, not the browser's words. */
const UNUSABLE: ReadonlySet<string> = new Set(["disabled", "read-only", "not-editable"])

/** The error a target that is not ready answers with: the codes clients know, the reason in words. */
export const notReadyError = (action: Action, described: string, timeoutMs: number, notReady: NotReady) => {
  switch (notReady.reason) {
    case "unanswered":
      return new ActionTimeout({ action, target: described, timeoutMs })
    case "missing":
      return new TargetNotFound({
        target: described,
        detail: notReady.count === 0 ? `No element matches ${described} (the page showed none for ${QUIET_MS} ms, with nothing loading).` : `No element matches ${described} (waited ${timeoutMs} ms).`
      })
    case "ambiguous":
      return new TargetAmbiguous({ target: described, count: notReady.count ?? 2 })
    case "detached":
      return new TargetNotFound({ target: described, detail: `${described} is no longer in the page (it was removed or replaced).` })
    case "hidden":
      return new TargetNotFound({ target: described, detail: `${described} is in the page but ${notReady.detail.replace(/^it is /, "")}.` })
    case "disabled":
    case "read-only":
    case "not-editable":
      return new TargetUnusable({ action, target: described, reason: notReady.reason, detail: notReady.detail, ...(notReady.instead !== undefined ? { instead: notReady.instead } : {}) })
    default:
      return new ActionTimeout({ action, target: described, timeoutMs, reason: notReady.reason, detail: notReady.detail })
  }
}

/** The settings targeting reads: the attribute test ids live in. */
type TargetSettings = Pick<BrowserStateService["settings"], "testIdAttribute">

const selectorOf = (settings: TargetSettings, locator: TargetLocator): string => {
  switch (locator.kind) {
    case "a11yRef":
      return `${REF_ENGINE}=${locator.value}`
    case "testId":
      return `[${settings.testIdAttribute}=${cssString(locator.value)}]`
    case "selector":
      return locator.value
  }
}

/** The target as a Playwright locator, entering the same-origin iframes (by their refs) that hold a ref target. */
const locate = (settings: TargetSettings, page: Page, target: Target, frames: ReadonlyArray<string> = []): Locator => {
  let base: Page | FrameLocator = page
  for (const frame of frames) base = base.locator(`${REF_ENGINE}=${frame}`).contentFrame()
  const scope = target.within === undefined ? base : base.locator(selectorOf(settings, target.within))
  return scope.locator(selectorOf(settings, target.locator))
}

/** The ref's check, once more after the next document is in when the page was between two documents. */
const refCheck = (page: Page, ref: string, viewer?: string) =>
  Effect.tryPromise({
    try: (signal) => evaluateAcrossNavigation<RefCheck>(page, checkRefExpression(ref, viewer), { timeoutMs: CHECK_TIMEOUT_MS, signal }),
    catch: (cause): PageClosed | BrowserCallFailed =>
      unanswered(cause) ? new BrowserCallFailed({ cause }) : new PageClosed({ detail: "the page went away while checking the ref" })
  }).pipe(
    // Not in the top document: perhaps in a cross-origin frame, whose document has its own registry;
    // when in none, the refs worth suggesting are the top document's, then those frames'.
    Effect.flatMap((check) =>
      check.exists
        ? Effect.succeed(check)
        : Effect.promise(() => refInSeparateFrames(page, ref).catch(() => undefined)).pipe(
            Effect.map((found): RefCheck =>
              found === undefined ? check : found.exists ? found : { ...check, current: [...check.current, ...found.current].slice(0, SUGGESTED_REFS) }
            )
          )
    ),
    Effect.catchAll((failed): Effect.Effect<RefCheck, PageClosed | PageUnresponsive> =>
      failed instanceof PageClosed
        ? // Still no answer from a live page: as far as anyone can tell, the ref is not on the page.
          page.isClosed()
          ? Effect.fail(failed)
          : Effect.succeed<RefCheck>({ exists: false, current: [], frames: [] })
        : Effect.flatMap(unresponsive(page, `the ref ${ref} could not be checked`), (stuck) =>
            Option.isSome(stuck) ? Effect.fail(stuck.value) : Effect.succeed<RefCheck>({ exists: false, current: [], frames: [] })
          )
    )
  )

const describeArgs = (settings: TargetSettings, target: Target): DescribeArgs => ({
  locator: target.locator,
  within: target.within ?? null,
  testIdAttribute: settings.testIdAttribute,
  budgetMs: SELECTOR_BUDGET_MS
})

/**
 * The expression that describes the target, for an action's own script to run in its trip (see
 * direct.ts): the installing form on a document known not to have the describe function yet.
 */
const describeScript = (settings: TargetSettings, page: Page, target: Target): string =>
  (hasInstalled(page, describeInstallKey()) ? describeExpression : describeInstallExpression)(describeArgs(settings, target), walkInstallKey())

/**
 * The target's durable forms (see page-durable.ts), in one trip (two on a document that has not
 * installed the describe function yet); undefined when the page cannot say in time. `answered` is
 * what an action's own script already got from describeScript: a second trip only installs the
 * function when that document did not have it.
 */
const describe = (settings: TargetSettings, page: Page, target: Target, answered?: DescribeAnswer): Effect.Effect<TargetElement | undefined> => {
  const args = describeArgs(settings, target)
  // A ref the top document does not hold may be in a cross-origin frame, which describes it in its own document.
  const orInFrames = (answer: Described): Promise<TargetElement | undefined> =>
    answer.found
      ? Promise.resolve(answer.element)
      : target.locator.kind === "a11yRef" && answer.why === REF_NOT_ON_PAGE && separateFrames(page).length > 0
        ? describeInSeparateFrames(page, args)
        : Promise.resolve(undefined)
  const ask = async (): Promise<TargetElement | undefined> => {
    // A page known to be stuck is not asked: the action that follows says so at once.
    if (page.isClosed() || knownStuck(page)) return undefined
    const bound = { timeoutMs: DESCRIBE_TIMEOUT_MS }
    const fresh = answered === undefined && !hasInstalled(page, describeInstallKey())
    let answer = answered ?? (await evaluateInPage<DescribeAnswer>(page, (fresh ? describeInstallExpression : describeExpression)(args, walkInstallKey()), bound))
    if ("missing" in answer) answer = await evaluateInPage<Described>(page, describeInstallExpression(args, walkInstallKey()), bound)
    noteInstalled(page, describeInstallKey())
    return orInFrames(answer)
  }
  if (answered !== undefined && !("missing" in answered)) {
    noteInstalled(page, describeInstallKey())
    if (answered.found || page.isClosed() || knownStuck(page)) return Effect.succeed(answered.found ? answered.element : undefined)
  }
  return Effect.promise(() => ask().catch(() => undefined)).pipe(
    Effect.timeoutTo({ duration: DESCRIBE_TIMEOUT_MS, onSuccess: (element) => element, onTimeout: () => undefined })
  )
}

/** Actions whose target ref must still name what the client was told (page/told-names.ts); reads and scrolls need not. */
const ACTS_ON_NAMED: ReadonlySet<Action> = new Set(["click", "type", "press_key", "select_option", "hover", "drag", "set_checked", "upload_file"])

/** The answer for a ref whose element the page reused: it now shows another role or name than the client was told. */
const renamedError = (target: Target, ref: string, renamed: NonNullable<RefCheck["renamed"]>) => {
  const shown = (node: { readonly role: string; readonly name: string }) => `${node.role} ${JSON.stringify(node.name)}`
  const was = `${ref} was ${shown(renamed.was)} when last shown; it is now ${shown(renamed.now)} (the page reused the element).`
  return new TargetNotFound({
    target: describeTarget(target),
    detail:
      renamed.instead === undefined
        ? `${was} Find it again (mm_find) for its current ref.`
        : `${was} ${shown(renamed.was)} is ${renamed.instead} now.`,
    ...(renamed.instead !== undefined ? { availableRefs: [{ ref: renamed.instead, ...renamed.was }] } : {})
  })
}

/**
 * A ref must still be bound to an element of the active page; otherwise answer at once with the current refs.
 * For an action (`acting`), its target ref must also still have the role and name the acting client was told.
 * Gives the refs of the iframes around the target (its own ref's, else its scope's; none in the top document).
 */
const ensureRefs = (browser: BrowserStateService, page: Page, target: Target, acting = false) =>
  Effect.gen(function* () {
    const settings = browser.settings
    const frames: Partial<Record<"locator" | "within", ReadonlyArray<string>>> = {}
    // A test id the top document lacks may be in a cross-origin frame (the observations list those too).
    if (target.locator.kind === "testId" && target.within === undefined) {
      const selector = selectorOf(settings, target.locator)
      const chain = yield* Effect.promise(() => selectorInSeparateFrames(page, selector).catch(() => undefined))
      if (chain !== undefined) return chain
    }
    for (const role of ["within", "locator"] as const) {
      const locator = target[role]
      if (locator?.kind !== "a11yRef") continue
      const check = yield* refCheck(page, locator.value, acting && role === "locator" ? yield* FiberRef.get(ObservingClient) : undefined)
      if (check.renamed !== undefined) return yield* renamedError(target, locator.value, check.renamed)
      if (!check.exists) {
        // Refs are unique across the server's sessions: one this session never took is another session's (or made up).
        const live = yield* browser.current
        const ours = Option.isNone(live) || tookRef(live.value.refsTaken, locator.value)
        return yield* new TargetNotFound({
          target: describeTarget(target),
          detail: ours
            ? `Unknown a11yRef: ${locator.value} (its element left the page, or the ref came from another tab or an earlier page).`
            : `Unknown a11yRef: ${locator.value} (not a ref of this session: another session's, or never shown; each session has refs of its own).`,
          availableRefs: check.current
        })
      }
      frames[role] = check.frames
    }
    if (frames.locator !== undefined && frames.within !== undefined && frames.locator.join() !== frames.within.join()) {
      return yield* new TargetNotFound({
        target: describeTarget(target),
        detail: "The target and its within scope are in different frames; give a scope in the target's own frame, or none."
      })
    }
    return frames.locator ?? frames.within ?? []
  })

/** Playwright's words on a selector it cannot parse, without the name of the call that found out ("locator.count: "). */
const parseFailure = (error: unknown) => firstLine(error).replace(/^[\w.]+: /, "")

/**
 * The first selector of the target that Playwright cannot parse, as InvalidInput naming its field
 * (`prefix` names the target's own field in the input, "to." for a drop target); undefined when each
 * parses. Asked after a failure only: a selector that does not parse fails Playwright's call at once,
 * and the same count on the page's root that succeeds says the page was not the trouble.
 */
const selectorProblem = (page: Page, target: Target, prefix = "") =>
  Effect.gen(function* () {
    for (const [field, locator] of [["within.selector", target.within], ["selector", target.locator]] as const) {
      if (locator?.kind !== "selector") continue
      const failure = yield* Effect.promise(() =>
        page.locator(locator.value).count().then(
          () => undefined,
          (error: unknown) => (isPlaywrightTimeout(error) ? undefined : error)
        )
      ).pipe(Effect.timeoutTo({ duration: CHECK_TIMEOUT, onSuccess: (failure) => failure, onTimeout: () => undefined }))
      if (failure === undefined || page.isClosed()) continue
      const pageAnswers = yield* countSafely(page.locator(":root"))
      if (pageAnswers < 0) return undefined
      return new InvalidInput({ field: `${prefix}${field}`, problem: `is not a selector Playwright can parse: ${parseFailure(failure)}` })
    }
    return undefined
  })

// Both ask the page: bounded, so that a page that cannot answer does not hold the call.
const countSafely = (locator: Locator) =>
  Effect.promise(() => locator.count().catch(() => -1)).pipe(Effect.timeoutTo({ duration: CHECK_TIMEOUT, onSuccess: (n) => n, onTimeout: () => -1 }))
const visibleSafely = (locator: Locator) =>
  Effect.promise(() => locator.isVisible().catch(() => false)).pipe(
    Effect.timeoutTo({ duration: CHECK_TIMEOUT, onSuccess: (visible) => visible, onTimeout: () => false })
  )

/** Turns a failed Playwright action into the error that says what is wrong with the target. */
const classify = (action: Action, page: Page, locator: Locator, target: Target, timeoutMs: number, error: unknown) =>
  Effect.gen(function* () {
    const described = describeTarget(target)
    if (page.isClosed()) return new PageClosed({ detail: `the page closed during ${action} on ${described}`, during: action })
    if (error instanceof Refused) {
      return new TargetUnusable({ action, target: described, reason: error.reason, detail: error.detail, ...(error.instead !== undefined ? { instead: error.instead } : {}) })
    }
    // A page stuck in a script of its own lets every action time out: say so instead.
    if (isPlaywrightTimeout(error)) {
      const stuck = yield* unresponsive(page, `${action} on ${described} could not run`)
      if (Option.isSome(stuck)) return stuck.value
    }
    const count = yield* countSafely(locator)
    // A selector Playwright cannot parse fails at once, and no count of it answers.
    if (count < 0) {
      const invalid = yield* selectorProblem(page, target)
      if (invalid !== undefined) return invalid
    }
    if (count > 1) return new TargetAmbiguous({ target: described, count })
    if (count === 0) {
      return new TargetNotFound({ target: described, detail: `No element matches ${described} (waited ${timeoutMs} ms).` })
    }
    // Why it did not become ready or was refused (typing into a heading), as the page says now.
    const checks = READINESS[action]
    const why = checks === undefined ? undefined : yield* whyNotReady(locator, checks)
    if (why !== undefined && (isPlaywrightTimeout(error) || UNUSABLE.has(why.reason))) return notReadyError(action, described, timeoutMs, why)
    if (isPlaywrightTimeout(error)) {
      if (!(yield* visibleSafely(locator))) {
        return new TargetNotFound({
          target: described,
          detail: `${described} is in the page but not visible (waited ${timeoutMs} ms).`
        })
      }
      return new ActionTimeout({ action, target: described, timeoutMs })
    }
    return new ActionFailed({ action, target: described, detail: firstLine(error) })
  })

/** Playwright's options for one try: what is left of the action's wait, and the fiber's abort signal. */
type TryOptions = { timeout: number; signal: AbortSignal }

/**
 * Said by an action that has taken hold of its target (mm_drag once it pressed on the source): from then on
 * the target's readiness is no longer asked. A drag library makes its source untouchable while it drags
 * (pointer-events: none, a ghost over it, the source removed at the drop), and that is no reason to stop
 * the drag.
 */
export type Committed = () => void

/** The action through another element; `how` and `description` say which, for messages. */
type Through<A> = (
  via: { readonly element: ElementHandle; readonly how: string; readonly description: string },
  locator: Locator,
  options: TryOptions
) => Promise<A>

/**
 * Runs one action on the target of the active page, aborting it when the fiber is interrupted. While
 * Playwright's action waits for an action with a readiness (READINESS), the page is asked why the target
 * is not ready (see readiness.ts): a settled reason ends the wait at once with that reason, and with
 * `through`, a target a person would act on through another element (its label, its host, its drawn
 * control) is acted on through that element instead.
 */
const act = <A>(
  browser: BrowserStateService,
  action: Action,
  target: Target,
  timeoutMs: number,
  run: (locator: Locator, options: TryOptions, committed: Committed) => Promise<A>,
  /** The page the action started on: the fallback of a direct action never moves to another tab. */
  startedOn?: Page,
  through?: Through<A>
) =>
  Effect.gen(function* () {
    const page = startedOn ?? (yield* browser.activePage).page
    const described = describeTarget(target)
    if (page.isClosed()) return yield* new PageClosed({ detail: `the page closed during ${action} on ${described}`, during: action })
    yield* failIfStuck(page, `${action} on ${described} could not start`)
    const frames = yield* ensureRefs(browser, page, target, ACTS_ON_NAMED.has(action))
    const locator = locate(browser.settings, page, target, frames)
    // Within what the call has left, with time to say what went wrong.
    const waitMs = yield* waitWithin(timeoutMs, CLASSIFY_RESERVE_MS)
    // Our world finds the target as the direct path does when it is in the top document's tree (no frame chain to enter).
    const lookTarget: LookTarget | undefined =
      frames.length === 0 ? { locator: target.locator, within: target.within ?? null, testIdAttribute: browser.settings.testIdAttribute } : undefined
    return yield* attemptAction(action, page, locator, described, waitMs, run, through, lookTarget).pipe(
      Effect.map(({ value, via }) => ({ page, value, locator, ...(via !== undefined ? { via } : {}) })),
      Effect.catchTag("BrowserCallFailed", (error) =>
        Effect.flatMap(classify(action, page, locator, target, waitMs, error.cause), (classified) =>
          // A page that closed because the whole browser went away ends the session, not just the action.
          browser.refineClosed(Effect.fail<ActionError | PageClosed>(classified))
        )
      ),
      Effect.catchTag("TargetAmbiguous", (ambiguous) => Effect.flip(listAmbiguous(browser, page, locator)(ambiguous)))
    )
  })

/** The ambiguity with the target's first matches and their refs (session/candidates.ts). */
const listAmbiguous = (browser: BrowserStateService, page: Page, source: MatchSource) => (ambiguous: TargetAmbiguous) =>
  Effect.flatMap(Effect.option(browser.live), (live) =>
    withCandidates(page, Option.getOrUndefined(live), browser.refs, source, browser.settings.testIdAttribute)(ambiguous)
  )

/**
 * Playwright's action on the located target within waitMs; for an action with a readiness, raced with the
 * page's say on why the target is not ready, which ends the wait or acts through another element.
 */
const attemptAction = <A>(
  action: Action,
  page: Page,
  locator: Locator,
  described: string,
  waitMs: number,
  run: (locator: Locator, options: TryOptions, committed: Committed) => Promise<A>,
  through: Through<A> | undefined,
  lookTarget: LookTarget | undefined
): Effect.Effect<{ readonly value: A; readonly via?: string }, BrowserCallFailed | ActionError | PageClosed> => {
  const started = Date.now()
  const attempt = (go: (options: TryOptions) => Promise<A>) =>
    Effect.tryPromise({
      try: (signal) => go({ timeout: Math.max(1, waitMs - (Date.now() - started)), signal }),
      catch: (cause) => new BrowserCallFailed({ cause })
    })
  const checks = READINESS[action]
  // Playwright's action starts once the watch had its first look: a reason settled at once answers without it.
  // The watch ends (and never answers) once the action said it took hold of its target.
  return Effect.flatMap(Effect.zip(Deferred.make<void>(), Deferred.make<void>()), ([looked, held]) => Effect.raceFirst(
    Effect.map(
      Effect.zipRight(Deferred.await(looked), attempt((options) => run(locator, options, () => Deferred.unsafeDone(held, Effect.void)))),
      (value): { readonly value: A; readonly via?: string } => ({ value })
    ),
    Effect.raceFirst(
      Effect.map(watchReadiness(page, locator, checks, through !== undefined, { target: lookTarget, looked }), Option.some),
      Effect.as(Deferred.await(held), Option.none())
    ).pipe(
      Effect.catchTag("NotReady", (notReady) =>
        Effect.fail(page.isClosed() ? new PageClosed({ detail: `the page closed during ${action} on ${described}`, during: action }) : notReadyError(action, described, waitMs, notReady))
      ),
      Effect.flatMap((found) => (Option.isSome(found) ? Effect.succeed(found.value) : Effect.never)),
      Effect.flatMap((via) =>
        attempt((options) =>
          through === undefined ? Promise.reject(new Error("no action through another element")) : through({ element: via.element, how: via.how, description: via.via }, locator, options)
        ).pipe(
          Effect.map((value) => ({ value, via: via.via })),
          Effect.ensuring(Effect.promise(() => via.element.dispose().catch(() => undefined)))
        )
      )
    )
  ))
}

/**
 * Fails with the answer for a target that matches nothing once the page can no longer bring it (the
 * rule of watchReadiness), for a wait of its own that needs only the target to be there; never succeeds.
 */
const untilMissing = (page: Page, locator: Locator, target: Target, action: Action, timeoutMs: number) =>
  watchReadiness(page, locator, undefined, false).pipe(
    Effect.zipRight(Effect.never),
    Effect.catchTag("NotReady", (notReady) => Effect.fail(notReadyError(action, describeTarget(target), timeoutMs, notReady)))
  )

export type Targets = ReturnType<typeof targets>

/** Finding and acting on targets in one session: each step bound to the session's browser state and settings. */
export const targets = (browser: BrowserStateService) => {
  const settings = browser.settings
  return {
    locate: (page: Page, target: Target, frames?: ReadonlyArray<string>) => locate(settings, page, target, frames),
    /** `acting`: the target is an action's, whose ref must still name what the client was told. */
    ensureRefs: (page: Page, target: Target, acting = false) => ensureRefs(browser, page, target, acting),
    describe: (page: Page, target: Target, answered?: DescribeAnswer) => describe(settings, page, target, answered),
    describeScript: (page: Page, target: Target) => describeScript(settings, page, target),
    countSafely,
    selectorProblem,
    /** Lists the first matches of an ambiguous target with their refs, for a check of its own (an assertion, a drop target). */
    listAmbiguous: (page: Page, target: Target, frames: ReadonlyArray<string> = []) => listAmbiguous(browser, page, locate(settings, page, target, frames)),
    /** The same for matches the direct path found and noted in the page (page/actions.ts). */
    listNoted: (page: Page) => listAmbiguous(browser, page, "direct"),
    untilMissing,
    act: <A>(
      action: Action,
      target: Target,
      timeoutMs: number,
      run: (locator: Locator, options: TryOptions, committed: Committed) => Promise<A>,
      startedOn?: Page,
      through?: Through<A>
    ) => act(browser, action, target, timeoutMs, run, startedOn, through)
  }
}
