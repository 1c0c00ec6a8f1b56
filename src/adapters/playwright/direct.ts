// The direct path of an action: one page script says whether the target can be acted on at once
// (and prepares it), then real input follows through Playwright's mouse; anything unusual goes to
// Playwright's own action. See "Acting on an element" in docs/architecture.md.
import { Duration, Effect, Option } from "effect"
import type { Page, Request } from "playwright"
import { ActionFailed, PageUnresponsive } from "../../domain/errors.js"
import { describeTarget, type Target } from "../../domain/target.js"
import { BrowserCallFailed, firstLine, type BrowserStateService } from "./browser.js"
import { addNotice, type LiveSession } from "./live-session.js"
import { finishClickScript, prepareActionScript, sameDocuments, type ClickVerdict, type DirectArgs, type DirectResult } from "./page-actions.js"
import { callExpression, evaluateInPage } from "./page-eval.js"
import { isSensitiveField, stateReadArgs } from "./page-script.js"
import { failIfStuck, unanswered, unresponsive } from "./responsive.js"
import type { Targets } from "./targets.js"

/** How long the page may take to say whether a target is ready before Playwright's path takes over. */
const PREPARE_TIMEOUT = Duration.seconds(2)

const NO_ANSWER = "no answer in time"

/** The longest a click waits for the document it started loading to commit. */
const COMMIT_WAIT = Duration.seconds(5)

export const directActions = (browser: BrowserStateService, targeting: Targets) => {
  const settings = browser.settings
  let clickTokens = 0

  /**
   * Asks the page whether the target can be acted on at once, and prepares it (focus for typing,
   * a guard for clicking). Anything unusual, including a page that answers late, is "not ready"; a
   * page that does not answer at all is MM_PAGE_UNRESPONSIVE. It waits at most a third of the
   * action's own time (at most PREPARE_TIMEOUT), so that Playwright's path keeps the rest.
   */
  const prepare = (
    live: LiveSession,
    page: Page,
    action: DirectArgs["action"],
    target: Target,
    actionTimeoutMs: number,
    token = ""
  ): Effect.Effect<DirectResult, PageUnresponsive> => {
    const waitMs = Math.min(Duration.toMillis(PREPARE_TIMEOUT), Math.max(300, Math.floor(actionTimeoutMs / 3)))
    // A wait that is already satisfied is the whole action: the state read after it can come along.
    const readsState = action === "visible" || action === "hidden"
    const script = prepareActionScript(
      {
        action,
        locator: target.locator,
        within: target.within ?? null,
        testIdAttribute: settings.testIdAttribute,
        token,
        // Well before this side gives up, so that a late answer never focuses or arms anything behind Playwright's back.
        notAfter: Date.now() + waitMs / 2
      },
      isSensitiveField,
      readsState ? stateReadArgs(live.nextRef, settings) : null
    )
    // A page whose timers are faked or frozen never answers: after a while that too means "not ready".
    const asked = Effect.promise((signal) =>
      evaluateInPage<DirectResult>(page, script, { timeoutMs: waitMs, signal }).catch(
        (error: unknown): DirectResult => ({ ready: false, why: unanswered(error) ? NO_ANSWER : "the page could not answer" })
      )
    ).pipe(
      Effect.timeoutTo({
        duration: Duration.millis(waitMs),
        onSuccess: (result) => result,
        onTimeout: (): DirectResult => ({ ready: false, why: NO_ANSWER })
      })
    )
    return Effect.gen(function* () {
      yield* failIfStuck(page, `${action} could not start`)
      const result = yield* asked
      if (result.ready || result.why !== NO_ANSWER) return result
      // A page that does not answer a trivial script either is stuck in a script of its own: Playwright's path would only wait it out.
      const stuck = yield* unresponsive(page, `${action} could not start`)
      if (Option.isSome(stuck)) return yield* stuck.value
      return result
    })
  }

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
   * Listening from now on, then asking whether the click's documents are still shown: no commit can
   * slip between. A navigation that never commits (cancelled, or ended before we listened) is waited
   * for at most COMMIT_WAIT, and a notice says so.
   */
  const awaitCommit = (live: LiveSession, page: Page, token: string, timeoutMs: number) =>
    Effect.scoped(
      Effect.gen(function* () {
        const watcher = yield* watchCommit(page)
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

  const finishClickIn = (live: LiveSession, page: Page, token: string) =>
    Effect.promise(
      (): Promise<ClickVerdict> =>
        evaluateInPage<ClickVerdict>(page, finishClickScript(token, stateReadArgs(live.nextRef, settings)), {
          timeoutMs: Duration.toMillis(PREPARE_TIMEOUT)
        }).catch(
          // The old document went away with the guard: the click reached its target and navigated.
          (): ClickVerdict => ({ ok: true, navigating: false })
        )
    ).pipe(
      Effect.timeoutTo({
        duration: PREPARE_TIMEOUT,
        onSuccess: (verdict) => verdict,
        onTimeout: (): ClickVerdict => ({ ok: true, navigating: false })
      })
    )

  /** The direct click: "done", or "blocked" when its first mouse event would have reached another element. */
  const clickAt = (live: LiveSession, page: Page, target: Target, token: string, x: number, y: number, timeoutMs: number) =>
    Effect.gen(function* () {
      const dispatched = yield* Effect.tryPromise({
        try: () => page.mouse.click(x, y),
        catch: (cause) => new BrowserCallFailed({ cause })
      }).pipe(Effect.either)
      if (dispatched._tag === "Left") {
        if (page.isClosed()) return "done" as const
        yield* finishClickIn(live, page, token)
        return yield* new ActionFailed({ action: "click", target: describeTarget(target), detail: firstLine(dispatched.left.cause) })
      }
      const verdict = yield* finishClickIn(live, page, token)
      if (!verdict.ok) return "blocked" as const
      if (verdict.page !== undefined) live.lastRead = { page, result: verdict.page }
      // As Playwright's click: a navigation the click started has committed before the click is done.
      if (verdict.navigating) yield* awaitCommit(live, page, token, timeoutMs)
      return "done" as const
    })

  const clickPage = (live: LiveSession, page: Page, target: Target, options: { readonly timeoutMs: number }) =>
    Effect.gen(function* () {
      const token = `${process.pid}-${++clickTokens}`
      const prepared = yield* prepare(live, page, "click", target, options.timeoutMs, token)
      if (prepared.ready && prepared.x !== undefined && prepared.y !== undefined) {
        if ((yield* clickAt(live, page, target, token, prepared.x, prepared.y, options.timeoutMs)) === "done") return { page }
        live.lastRead = undefined
        yield* Effect.logDebug("click: the target was covered when the mouse went down; retrying with Playwright")
      }
      return yield* targeting.act("click", target, options.timeoutMs, (locator, opts) => locator.click(opts), page)
    })

  return { prepare, clickPage }
}
