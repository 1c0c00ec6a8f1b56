// The direct path of an action: one page script says whether the target can be acted on at once
// (and prepares it), then real input follows through Playwright's mouse or keyboard, and a guard in
// the page says whether the input reached the target. Anything uncertain before the input goes to
// Playwright's own action; an input whose outcome is unknown fails with MM_ACTION_UNCONFIRMED and is
// never repeated. See "Acting on an element" in docs/architecture.md.
import { Duration, Effect, FiberRef, Option, Ref } from "effect"
import type { Page, Request } from "playwright"
import { ActionFailed, ActionUnconfirmed, PageClosed, PageUnresponsive } from "../../../domain/errors.js"
import { describeTarget, type Target } from "../../../domain/target.js"
import { type BrowserStateService } from "../lifecycle/browser.js"
import { ObservingClient } from "../../../services/Observer.js"
import { BrowserCallFailed, firstLine } from "../calls.js"
import { addNotice, type LiveSession } from "../lifecycle/live-session.js"
import {
  fieldReactionCode,
  finishGuardScript,
  measuredElement,
  prepareActionScript,
  sameDocuments,
  verifyMeasuredDeclaration,
  actionsInstallKey,
  type ActionsMissing,
  type DirectArgs,
  type DirectResult,
  type GuardVerdict,
  type Viewport
} from "../page-actions.js"
import {
  callExpression,
  callOnObject,
  devtoolsOf,
  evaluateInPage,
  evaluateToObject,
  hasInstalled,
  noteInstalled,
  releaseActionObjects,
  REPORT_BINDING,
  resolveNodeInWorld,
  takeReport
} from "../page-eval.js"
import { stateReadArgs } from "../page-script.js"
import { callInMainWorld, readyToStart, startInMainWorld } from "../main-world.js"
import type { FirstLook, Typed } from "../page/typing.js"
import { actThrough } from "./readiness.js"
import { clickWherePersonWould } from "./inner-control.js"
import { typeWithLastKey } from "./keystroke.js"
import { downloadsStartedOn } from "./downloads.js"
import { failIfStuck, unanswered, unresponsive } from "./responsive.js"
import type { TargetElement } from "../../../domain/knowledge.js"
import type { DescribeAnswer } from "../page-durable.js"
import type { Targets } from "./targets.js"

/** How long the page may take to say whether a target is ready before Playwright's path takes over. */
const PREPARE_TIMEOUT = Duration.seconds(2)

const NO_ANSWER = "no answer in time"

/** How long the page may take to say what its guard saw after the input. */
const FINISH_TIMEOUT = Duration.seconds(2)
/** How long a guard's report from another frame may lag behind the main frame's verdict (a busy browser). */
const REPORT_LAG = Duration.seconds(1)

/** The longest a click that reached a file input waits for the browser to announce its chooser, and how often it looks. */
const CHOOSER_WAIT = Duration.seconds(1)
const CHOOSER_POLL_MS = 20

/** The longest a click waits for the document it started loading to commit. */
const COMMIT_WAIT = Duration.seconds(5)
/** How long a click that asked for a download waits for it to start. */
const DOWNLOAD_WAIT = Duration.seconds(2)

/** A point on the page, in CSS pixels of the top viewport (what Playwright's mouse takes). */
interface Point {
  readonly x: number
  readonly y: number
}

/**
 * The point Playwright's click takes from an element's content quads: the middle of the first quad
 * that keeps an area once clipped to the viewport, cut to hundredths as Playwright sends it to the mouse.
 * `hit` is that point in whole page pixels, where the browser's hit test (which takes integers)
 * looks. None when no quad is in view.
 */
export const clickPointOf = (
  quads: ReadonlyArray<ReadonlyArray<number>>,
  viewport: Viewport
): { readonly point: Point; readonly hit: Point } | undefined => {
  for (const quad of quads) {
    if (quad.length !== 8) continue
    const points = [0, 2, 4, 6].map((i) => ({
      x: Math.min(Math.max(quad[i]!, 0), viewport.width),
      y: Math.min(Math.max(quad[i + 1]!, 0), viewport.height)
    }))
    let area = 0
    for (let i = 0; i < 4; i++) {
      const a = points[i]!
      const b = points[(i + 1) % 4]!
      area += (a.x * b.y - b.x * a.y) / 2
    }
    if (Math.abs(area) <= 0.99) continue
    // Playwright cuts the middle to hundredths (toward zero) before it moves the mouse.
    const middle = { x: points.reduce((sum, p) => sum + p.x / 4, 0), y: points.reduce((sum, p) => sum + p.y / 4, 0) }
    const point = { x: Math.trunc(middle.x * 100) / 100, y: Math.trunc(middle.y * 100) / 100 }
    if (point.x < 0 || point.y < 0 || point.x >= viewport.width || point.y >= viewport.height) return undefined
    return { point, hit: { x: Math.round(point.x + viewport.scrollX), y: Math.round(point.y + viewport.scrollY) } }
  }
  return undefined
}

/**
 * Text split for typing as a person's last keystroke: all but the last character goes in as fill puts
 * it, the last as a real key (keydown, input, keyup). A last character that is a control character
 * (a newline, a tab) is not a key to press in a field: then all of it goes in as text.
 */
export const splitLastKey = (text: string): { readonly head: string; readonly last: string } => {
  const chars = Array.from(text)
  const last = chars.at(-1) ?? ""
  if (last === "" || last.codePointAt(0)! < 0x20 || last === "\u007f") return { head: text, last: "" }
  return { head: chars.slice(0, -1).join(""), last }
}

/**
 * What the direct path did: done, or handed over to Playwright before any input reached the page.
 * `described` is what the page said of the target right before the input (or before handing over).
 */
type Outcome =
  | {
      readonly _tag: "Done"
      readonly sensitive?: boolean
      readonly element?: TargetElement | undefined
      /** A type's token, under which the page keeps its field for the reads after it (page/typing.ts). */
      readonly token?: string
      /** A type's field drives a popup or shows suggestions: how long to wait for the app's first answer (page/typing.ts), 0 for none. */
      readonly firstMs?: number
      /** When a type's input started (epoch ms): the page's reaction is counted from then. */
      readonly inputAt?: number
      /** A type's page's reaction is watched in its main world (page-actions.ts fieldReactionCode). */
      readonly watched?: boolean
      /** A type into a field that drives no popup: the main world's first look at the reaction and our world's read-back, taken in the trip after the input. */
      readonly first?: FirstReads
    }
  | { readonly _tag: "HandOver"; readonly why: string; readonly described?: DescribeAnswer | undefined }

/**
 * What a type reads in the trip right after its input, beside the guard's verdict: the main world's first look at
 * the page's reaction (page/typing.ts firstFieldLook, null when it is gone) and our world's read-back of the field
 * (peekTypedState, null when it is gone; undefined when the verdict did not come with it).
 */
export interface FirstReads {
  readonly look: FirstLook | null
  readonly typed: Typed | null | undefined
}

const handOver = (why: string, described?: DescribeAnswer): Outcome => ({ _tag: "HandOver", why, described })

/** The description a prepared target came with, if any. */
const describedOf = (prepared: DirectResult): DescribeAnswer | undefined => (prepared.ready === false ? undefined : prepared.described)

/** What the direct path's steps share: the session's settings, the targeting they describe through, and the input tokens. */
interface DirectContext {
  readonly settings: BrowserStateService["settings"]
  readonly targeting: Targets
  /** `--action-path playwright` takes Playwright's path for every action. */
  readonly enabled: boolean
  readonly newToken: () => string
}

/** `notAfter` for the page: well before this side gives up, so that a late answer never focuses or arms anything behind Playwright's back. */
const deadlineForPage = (waitMs = Duration.toMillis(PREPARE_TIMEOUT)) => Date.now() + waitMs / 2

/**
 * Asks the page whether the target can be acted on at once, and prepares it (focus for typing,
 * a guard for clicking and typing). Anything unusual, including a page that answers late, is "not
 * ready"; a page that does not answer at all is MM_PAGE_UNRESPONSIVE. It waits at most a third of
 * the action's own time (at most PREPARE_TIMEOUT), so that Playwright's path keeps the rest.
 */
const prepare = (
  context: DirectContext,
  page: Page,
  action: DirectArgs["action"],
  target: Target,
  actionTimeoutMs: number,
  token = "",
  /** Also describe the target (its durable forms) in the same trip, once it is ready. */
  describe = false,
  /** Sends a message of ours right behind the prepare script's (it runs in the page after it). */
  behind?: () => void
): Effect.Effect<DirectResult, PageUnresponsive> => {
  if (!context.enabled) return Effect.succeed<DirectResult>({ ready: false, why: "the action path is playwright" })
  const { settings, targeting } = context
  const waitMs = Math.min(Duration.toMillis(PREPARE_TIMEOUT), Math.max(300, Math.floor(actionTimeoutMs / 3)))
  // A wait that is already satisfied is the whole action: the state read after it can come along.
  const readsState = action === "visible" || action === "hidden"
  return Effect.gen(function* () {
    // An action's ref must still name what the acting client was told (page/told-names.ts); a wait or a read need not.
    const viewer = action === "click" || action === "type" || action === "press" ? { viewer: yield* FiberRef.get(ObservingClient) } : {}
    const directArgs: DirectArgs = { action, locator: target.locator, within: target.within ?? null, testIdAttribute: settings.testIdAttribute, token, notAfter: deadlineForPage(waitMs), report: REPORT_BINDING, ...viewer }
    const script = (install: boolean) =>
      prepareActionScript(directArgs, {
        stateArgs: readsState ? stateReadArgs(settings) : null,
        describe: describe ? targeting.describeScript(page, target) : null,
        install
      })
    yield* failIfStuck(page, `${action} could not start`)
    const result = yield* askPrepared(page, script, waitMs, behind)
    if (result.ready !== false || result.why !== NO_ANSWER) return result
    // A page that does not answer a trivial script either is stuck in a script of its own: Playwright's path would only wait it out.
    const stuck = yield* unresponsive(page, `${action} could not start`)
    if (Option.isSome(stuck)) return yield* stuck.value
    return result
  })
}

/**
 * The page's answer to prepare's script within waitMs. The action functions are installed once per
 * document: on a new one they come along at once, and a document this process could not tell apart
 * answers `missing` (nothing was done there) for a second trip. A page whose timers are faked or
 * frozen never answers: after a while that too means "not ready".
 */
const askPrepared = (page: Page, script: (install: boolean) => string, waitMs: number, behind?: () => void): Effect.Effect<DirectResult> => {
  const key = actionsInstallKey()
  const ask = async (signal: AbortSignal): Promise<DirectResult> => {
    const options = { timeoutMs: waitMs, signal, onSent: behind }
    const fresh = !hasInstalled(page, key)
    let answer = await evaluateInPage<DirectResult | ActionsMissing>(page, script(fresh), options)
    if ("missing" in answer) answer = await evaluateInPage<DirectResult | ActionsMissing>(page, script(true), options)
    if ("missing" in answer) return { ready: false, why: "the page script could not be installed" }
    noteInstalled(page, key)
    return answer
  }
  return Effect.promise((signal) =>
    ask(signal).catch(
      (error: unknown): DirectResult => ({ ready: false, why: unanswered(error) ? NO_ANSWER : "the page could not answer" })
    )
  ).pipe(
    Effect.timeoutTo({
      duration: Duration.millis(waitMs),
      onSuccess: (result) => result,
      onTimeout: (): DirectResult => ({ ready: false, why: NO_ANSWER })
    })
  )
}

/**
 * A click point the page could not tell by itself (the target is inside frames, or inline in pieces): the
 * element's content quads give the point, the browser's hit test from the top document says what is
 * there, and the page checks that it is the element (or inside it) and that nothing moved, then arms
 * the guard. Any doubt (no quad in view, another element or frame there, no answer) is None.
 */
const measure = (page: Page, token: string, viewport: Viewport) =>
  Effect.tryPromise(async (): Promise<Point | undefined> => {
    const devtools = await devtoolsOf(page)
    try {
      const bound = { timeoutMs: Duration.toMillis(PREPARE_TIMEOUT) }
      const element = await evaluateToObject(page, callExpression(measuredElement, token), bound)
      if (element.objectId === undefined) return undefined
      const { quads } = await devtools.send("DOM.getContentQuads", { objectId: element.objectId })
      const measured = clickPointOf(quads, viewport)
      if (measured === undefined) return undefined
      const hit = await devtools.send("DOM.getNodeForLocation", {
        x: measured.hit.x,
        y: measured.hit.y,
        includeUserAgentShadowDOM: false,
        ignorePointerEventsNone: false
      })
      const hitObject = await resolveNodeInWorld(page, hit.backendNodeId, bound)
      if (hitObject === undefined) return undefined
      const verified = await callOnObject<DirectResult>(page, element.objectId, verifyMeasuredDeclaration(), [
        { objectId: hitObject },
        { value: { token, report: REPORT_BINDING, notAfter: deadlineForPage() } }
      ], bound)
      return verified.ready === true ? measured.point : undefined
    } finally {
      void releaseActionObjects(page)
    }
  }).pipe(
    Effect.timeoutOption(PREPARE_TIMEOUT),
    Effect.map(Option.flatMap(Option.fromNullable)),
    Effect.orElseSucceed(() => Option.none<Point>())
  )

/**
 * What the guard saw: the page's own answer after the input, or, when the document went away or
 * did not answer, the report it sent at the first event. Undefined when nothing says.
 */
const verdictOf = (context: DirectContext, page: Page, token: string, typed?: string) =>
  Effect.gen(function* () {
    const answer = yield* Effect.promise(() =>
      evaluateInPage<GuardVerdict>(page, finishGuardScript(token, stateReadArgs(context.settings), typed), {
        timeoutMs: Duration.toMillis(FINISH_TIMEOUT)
      }).then(
        (verdict): GuardVerdict | undefined => verdict,
        () => undefined
      )
    ).pipe(Effect.timeoutTo({ duration: FINISH_TIMEOUT, onSuccess: (verdict) => verdict, onTimeout: () => undefined }))
    let report = takeReport(page, token)
    if (answer !== undefined && answer.seen) return answer
    // A frame's guard reports through a binding, which a busy browser delivers after the main frame answered.
    for (let waited = 0; report === undefined && waited < Duration.toMillis(REPORT_LAG) && !page.isClosed(); waited += CHOOSER_POLL_MS) {
      yield* Effect.sleep(CHOOSER_POLL_MS)
      report = takeReport(page, token)
    }
    if (report === "target" || report === "other") {
      const fromReport: GuardVerdict = { seen: true, hit: report === "target", navigating: false }
      return fromReport
    }
    return answer
  })

/**
 * Resolves once the page commits a new document in a frame, a download starts, or a navigation
 * request ends without a document (a 204, a failure; a redirect is not an end).
 */
const watchCommit = (page: Page) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      let done = () => {}
      const committed = new Promise<void>((resolve) => (done = resolve))
      const onCommit = () => done()
      const timers: Array<ReturnType<typeof setTimeout>> = []
      const onRequestEnd = (request: Request) => {
        if (!request.isNavigationRequest()) return
        // A document that arrives is committed a moment after its request ends; a redirect goes on elsewhere.
        timers.push(setTimeout(() => request.redirectedTo() === null && done(), 250))
      }
      page.on("framenavigated", onCommit)
      page.on("download", onCommit)
      page.on("requestfinished", onRequestEnd)
      page.on("requestfailed", onRequestEnd)
      const dispose = () => {
        page.off("framenavigated", onCommit)
        page.off("download", onCommit)
        page.off("requestfinished", onRequestEnd)
        page.off("requestfailed", onRequestEnd)
        for (const timer of timers) clearTimeout(timer)
      }
      return { committed, dispose }
    }),
    (watcher) => Effect.sync(watcher.dispose)
  )

/**
 * A download the click asked for has started (Chromium decides a moment after the click), or after
 * DOWNLOAD_WAIT it is left to the call's end: its answer lists the downloads that started by then.
 */
const awaitDownload = (page: Page, timeoutMs: number, downloadsBefore: number) =>
  Effect.scoped(
    Effect.flatMap(watchCommit(page), (watcher) =>
      downloadsStartedOn(page) > downloadsBefore
        ? Effect.void
        : Effect.promise(() => watcher.committed).pipe(Effect.timeoutOption(Duration.millis(Math.min(timeoutMs, Duration.toMillis(DOWNLOAD_WAIT)))))
    )
  )

/**
 * Listening from now on, then asking whether the click's documents are still shown: no commit can
 * slip between. A navigation that never commits (cancelled, or ended before we listened) is waited
 * for at most COMMIT_WAIT, and a notice says so.
 */
const awaitCommit = (live: LiveSession, page: Page, token: string, timeoutMs: number, downloadsBefore: number) =>
  Effect.scoped(
    Effect.gen(function* () {
      const watcher = yield* watchCommit(page)
      // The navigation became a download (an attachment) before we listened: no document will come.
      if (downloadsStartedOn(page) > downloadsBefore) return
      const unchanged = yield* Effect.promise(() => evaluateInPage<boolean>(page, callExpression(sameDocuments, token), { timeoutMs: Duration.toMillis(PREPARE_TIMEOUT) }).catch(() => false))
      if (!unchanged) return
      const waitMs = Math.min(timeoutMs, Duration.toMillis(COMMIT_WAIT))
      const arrived = yield* Effect.promise(() => watcher.committed).pipe(Effect.timeoutOption(Duration.millis(waitMs)))
      if (Option.isNone(arrived)) {
        yield* addNotice(
          live,
          `The click started loading another page, which had not arrived after ${waitMs} ms; the observation shows the page as it is.`
        )
      }
    })
  )

/**
 * After the input: done when the first trusted event reached the target; handed over when the
 * guard stopped it (nothing reached the page's elements, so Playwright's try is not a second one);
 * otherwise MM_ACTION_UNCONFIRMED, never a success nor a second try.
 */
const concluded = (
  context: DirectContext,
  live: LiveSession,
  page: Page,
  action: "click" | "type" | "press_key",
  target: Target,
  token: string,
  dispatched: { readonly _tag: "Left"; readonly left: BrowserCallFailed } | { readonly _tag: "Right" },
  /** A type's text: the verdict comes with the field's read-back (finishGuardScript). */
  typed?: string
) =>
  Effect.gen(function* () {
    const verdict = yield* verdictOf(context, page, token, typed)
    if (verdict !== undefined && verdict.seen) {
      if (!verdict.hit) return { navigating: false, choosing: false, outcome: handOver(`the first ${action} event would have reached another element`) }
      if (verdict.page !== undefined) live.lastRead = { page, result: verdict.page }
      return {
        navigating: verdict.navigating,
        downloading: verdict.downloading === true,
        choosing: verdict.choosing === true,
        typed: verdict.typed,
        outcome: { _tag: "Done" } as Outcome
      }
    }
    const described = describeTarget(target)
    if (dispatched._tag === "Left") {
      if (page.isClosed()) return yield* new PageClosed({ detail: `the page closed during ${action} on ${described}`, during: action })
      return yield* new ActionFailed({ action, target: described, detail: firstLine(dispatched.left.cause) })
    }
    return yield* new ActionUnconfirmed({
      action,
      target: described,
      detail:
        verdict === undefined
          ? "the page did not say whether it reached the target (it went away or did not answer)"
          : "no event of it arrived where the target is (it may have landed in another frame)"
    })
  })

/**
 * The file chooser a click opened: the browser announces it a moment after the click's events. Waited
 * for at most CHOOSER_WAIT (a page that opens none in the end only costs that).
 */
const awaitChooser = (live: LiveSession, page: Page) =>
  Effect.gen(function* () {
    for (let waited = 0; waited < Duration.toMillis(CHOOSER_WAIT); waited += CHOOSER_POLL_MS) {
      if ((yield* Ref.get(live.fileChooser))?.page() === page || page.isClosed()) return
      yield* Effect.sleep(CHOOSER_POLL_MS)
    }
  })

/** Real input, with the fiber's interruption passed on. */
const input = (run: () => Promise<void>) =>
  Effect.tryPromise({ try: run, catch: (cause) => new BrowserCallFailed({ cause }) }).pipe(
    Effect.map(() => ({ _tag: "Right" }) as const),
    Effect.catchAll((left) => Effect.succeed({ _tag: "Left", left } as const))
  )

/** The direct click, or why it handed over before any event reached the page. */
const directClick = (context: DirectContext, live: LiveSession, page: Page, target: Target, timeoutMs: number) =>
  Effect.gen(function* () {
    const token = context.newToken()
    const prepared = yield* prepare(context, page, "click", target, timeoutMs, token, true)
    const described = describedOf(prepared)
    let point: Point | undefined
    if (prepared.ready === true && prepared.x !== undefined && prepared.y !== undefined) point = { x: prepared.x, y: prepared.y }
    else if (prepared.ready === "measure") point = Option.getOrUndefined(yield* measure(page, token, prepared.viewport))
    else return handOver(prepared.ready === false ? prepared.why : "not ready", described)
    if (point === undefined) return handOver("the browser's geometry did not confirm the target at its click point", described)
    const { x, y } = point
    // A document without the describe function installs it now, before the input changes anything.
    const element = yield* context.targeting.describe(page, target, described)
    const downloadsBefore = downloadsStartedOn(page)
    const dispatched = yield* input(() => page.mouse.click(x, y))
    const { navigating, downloading, choosing, outcome } = yield* concluded(context, live, page, "click", target, token, dispatched)
    // As Playwright's click: a navigation the click started has committed before the click is done; a download it asked for has started.
    if (navigating) yield* awaitCommit(live, page, token, timeoutMs, downloadsBefore)
    else if (downloading === true) yield* awaitDownload(page, timeoutMs, downloadsBefore)
    // A chooser the click opened is announced with the click's own answer.
    if (choosing) yield* awaitChooser(live, page)
    return outcome._tag === "Done" ? { ...outcome, element } : { ...outcome, described }
  })

const clickPage = (
  context: DirectContext,
  live: LiveSession,
  page: Page,
  target: Target,
  options: { readonly timeoutMs: number; readonly count?: number | undefined }
) =>
  Effect.gen(function* () {
    const { targeting } = context
    const count = options.count ?? 1
    // A double or triple click (dblclick, word and line selection) is Playwright's: one mouse sequence with rising click counts.
    if (count > 1) {
      const element = yield* targeting.describe(page, target)
      yield* targeting.act("click", target, options.timeoutMs, (locator, opts) => locator.click({ ...opts, clickCount: count }), page)
      return { page, element }
    }
    const outcome = yield* directClick(context, live, page, target, options.timeoutMs)
    if (outcome._tag === "Done") return { page, element: outcome.element }
    live.lastRead = undefined
    yield* Effect.logDebug(`click: ${outcome.why}; Playwright's click takes over`)
    const element = yield* targeting.describe(page, target, outcome.described)
    // Where a person clicks: a header's one control that names it (inner-control.ts); else its label, host or drawn control if it cannot take the pointer.
    yield* targeting.act("click", target, options.timeoutMs, clickWherePersonWould(page), page, (via, locator, opts) =>
      actThrough(locator, via, () => via.element.click(opts), opts)
    )
    return { page, element }
  })

/**
 * A type's prepare, with the main world's watch of the page's reaction started right behind its script (readyToStart):
 * when the watch started (the document's clock), false when it did not or is not known to have.
 */
const prepareWithWatch = (context: DirectContext, page: Page, target: Target, timeoutMs: number, token: string) =>
  Effect.gen(function* () {
    const start = context.enabled
      ? yield* Effect.promise(() => readyToStart<number>(page, fieldReactionCode, "start", { timeoutMs: 1_000 }).catch(() => undefined))
      : undefined
    let started: Promise<number | false> | undefined
    const behind = () => {
      // Once: a prepare sent again (a document that lacked the actions) runs after it, which the check of the clocks sees.
      if (start !== undefined && started === undefined) started = start().catch(() => false)
    }
    const prepared = yield* prepare(context, page, "type", target, timeoutMs, token, true, behind)
    const answer = started === undefined ? false : yield* Effect.promise(() => started!)
    const startedAt: number | false = typeof answer === "number" ? answer : false
    return { prepared, startedAt }
  })

/**
 * The direct type: the field has the focus and its text selected; the text goes in as Playwright's
 * fill puts it (insertText, or Delete for none) and the guard says whether it reached the field.
 */
const directType = (context: DirectContext, live: LiveSession, page: Page, target: Target, text: string, timeoutMs: number) =>
  Effect.gen(function* () {
    const token = context.newToken()
    // The page's own timers and requests are in its main world: the watch of its reaction starts there, on the field prepare
    // focuses, sent right behind prepare's script so that it runs after it in the page (one trip for both).
    const { prepared, startedAt } = yield* prepareWithWatch(context, page, target, timeoutMs, token)
    const described = describedOf(prepared)
    if (prepared.ready !== true) {
      if (startedAt !== false) yield* Effect.promise(() => callInMainWorld(page, fieldReactionCode, "stop", [], undefined, { timeoutMs: 1_000 }).catch(() => undefined))
      return handOver(prepared.ready === false ? prepared.why : "not ready", described)
    }
    // A document without the describe function installs it now, before the input changes anything.
    const element = yield* context.targeting.describe(page, target, described)
    const { head, last } = splitLastKey(text)
    // The watch counts only when it started after prepare focused the field (the clocks are the document's); else it starts again now.
    const watched =
      (startedAt !== false && prepared.at !== undefined && startedAt > prepared.at) ||
      (yield* Effect.promise(() => startInMainWorld<number>(page, fieldReactionCode, "start", { timeoutMs: 1_000 }).then((at) => at !== false, () => false)))
    const inputAt = Date.now()
    // What fill does (the selection replaced by the text), the last character as a person's keystroke, in one trip.
    const dispatched = yield* input(() => (text === "" ? page.keyboard.press("Delete") : typeWithLastKey(page, head, last)))
    // A field that drives no popup is read back at once: the main world's first look at the reaction goes out beside
    // the guard's verdict, which brings our world's read-back (one trip for the three; their order does not matter:
    // the look finds the reaction over only when the page did nothing since the input, so the field was as read).
    const firstMs = prepared.firstMs ?? 0
    const early = watched && firstMs === 0
    const looking = early ? callInMainWorld<FirstLook | null>(page, fieldReactionCode, "look", [text], null, { timeoutMs: 1_000 }).catch(() => null) : undefined
    const { outcome, typed } = yield* concluded(context, live, page, "type", target, token, dispatched, early ? text : undefined)
    const look = looking === undefined ? undefined : yield* Effect.promise(() => looking)
    if (outcome._tag !== "Done") return { ...outcome, described }
    const first: FirstReads | undefined = look === undefined ? undefined : { look, typed }
    const done: Outcome = { _tag: "Done", sensitive: prepared.sensitive ?? true, element, token, firstMs, inputAt, watched, ...(first !== undefined ? { first } : {}) }
    return done
  })

/**
 * The direct key press on a target: it holds the focus (prepare gives it when it lacks it, as Playwright's
 * press does) and the guard is armed; the key goes in as a person's keystroke and the guard says whether
 * its first event reached the target. A navigation the key started (Enter submitting a form) has
 * committed before it is done, as after a click.
 */
const directPress = (context: DirectContext, live: LiveSession, page: Page, target: Target, key: string, timeoutMs: number) =>
  Effect.gen(function* () {
    const token = context.newToken()
    const prepared = yield* prepare(context, page, "press", target, timeoutMs, token)
    if (prepared.ready !== true) return handOver(prepared.ready === false ? prepared.why : "not ready")
    const downloadsBefore = downloadsStartedOn(page)
    const dispatched = yield* input(() => page.keyboard.press(key))
    const { navigating, downloading, outcome } = yield* concluded(context, live, page, "press_key", target, token, dispatched)
    if (navigating) yield* awaitCommit(live, page, token, timeoutMs, downloadsBefore)
    else if (downloading === true) yield* awaitDownload(page, timeoutMs, downloadsBefore)
    const done: Outcome = { _tag: "Done", sensitive: prepared.sensitive ?? true }
    return outcome._tag === "Done" ? done : outcome
  })

export type DirectActions = ReturnType<typeof directActions>

/** The direct path of one session: its steps bound to the session's settings, targeting and input tokens. */
export const directActions = (browser: BrowserStateService, targeting: Targets) => {
  let tokens = 0
  const context: DirectContext = {
    settings: browser.settings,
    targeting,
    enabled: browser.settings.actionPath !== "playwright",
    newToken: () => `${process.pid}-${++tokens}`
  }
  return {
    enabled: context.enabled,
    prepare: (
      page: Page,
      action: DirectArgs["action"],
      target: Target,
      actionTimeoutMs: number,
      token?: string,
      describe?: boolean
    ) => prepare(context, page, action, target, actionTimeoutMs, token, describe),
    clickPage: (live: LiveSession, page: Page, target: Target, options: { readonly timeoutMs: number; readonly count?: number | undefined }) =>
      clickPage(context, live, page, target, options),
    directType: (live: LiveSession, page: Page, target: Target, text: string, timeoutMs: number) => directType(context, live, page, target, text, timeoutMs),
    directPress: (live: LiveSession, page: Page, target: Target, key: string, timeoutMs: number) => directPress(context, live, page, target, key, timeoutMs)
  }
}
