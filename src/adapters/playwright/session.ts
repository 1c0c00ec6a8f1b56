// Session over Playwright: actions on the active page with typed errors, classified from
// Playwright's error classes and the page's structure (how many elements match, are they visible).
import * as path from "node:path"
import { Duration, Effect, Layer, Option } from "effect"
import type { FrameLocator, Locator, Page, Request } from "playwright"
import {
  ActionFailed,
  ActionTimeout,
  InvalidConfig,
  NavigationFailed,
  NotificationTimeout,
  PageClosed,
  ScreenshotFailed,
  StateFailed,
  TabNotFound,
  TargetAmbiguous,
  TargetNotFound,
  WaitTimeout
} from "../../domain/errors.js"
import { describeTarget, type Locator as TargetLocator, type Target } from "../../domain/target.js"
import type { TabInfo } from "../../domain/observation.js"
import {
  Session,
  type ActionError,
  type ActionOptions,
  type Destination,
  type DialogChoice,
  type StorageArea,
  type TabSelector
} from "../../services/Session.js"
import { writeFileAtomic } from "../files.js"
import { BrowserCallFailed, BrowserState, firstLine, isPlaywrightTimeout, type LiveSession } from "./browser.js"
import { resolveScreenUrl } from "./launch.js"
import { finishClickScript, prepareActionScript, sameDocuments, type ClickVerdict, type DirectArgs, type DirectResult } from "./page-actions.js"
import { callExpression, evaluateAcrossNavigation, evaluateInPage } from "./page-eval.js"
import { checkRefExpression, isSensitiveField, readText, REF_ENGINE, stateReadArgs, type RefCheck } from "./page-script.js"

type Action = "click" | "type" | "get_text" | "press_key" | "select_option" | "hover"

type HistoryMove = Extract<Destination, { readonly screen: "back" | "forward" | "reload" }>
const isHistoryMove = (destination: Destination): destination is HistoryMove =>
  destination.screen === "back" || destination.screen === "forward" || destination.screen === "reload"

/** How long the page may take to say whether a target is ready before Playwright's path takes over. */
const PREPARE_TIMEOUT = Duration.seconds(2)

/** The longest a click waits for the document it started loading to commit. */
const COMMIT_WAIT = Duration.seconds(5)

const cssString = (value: string) => JSON.stringify(value)

/** Screenshot file names: letters, digits, dot, dash and underscore only; never a path. */
export const sanitizeFileName = (name: string): string => {
  const cleaned = name
    .replace(/\.png$/i, "")
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^[.-]+/, "")
    .slice(0, 100)
  return cleaned === "" ? "screenshot" : cleaned
}

/** Width and height from a PNG's IHDR chunk. */
const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) })

export const make = Effect.gen(function* () {
  const browser = yield* BrowserState
  const settings = browser.settings

  const selectorOf = (locator: TargetLocator): string => {
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
  const locate = (page: Page, target: Target, frames: ReadonlyArray<string> = []): Locator => {
    let base: Page | FrameLocator = page
    for (const frame of frames) base = base.locator(`${REF_ENGINE}=${frame}`).contentFrame()
    const scope = target.within === undefined ? base : base.locator(selectorOf(target.within))
    return scope.locator(selectorOf(target.locator))
  }

  /** The ref's check, once more after the next document is in when the page was between two documents. */
  const refCheck = (page: Page, ref: string) =>
    Effect.tryPromise({
      try: () => evaluateAcrossNavigation<RefCheck>(page, checkRefExpression(ref)),
      catch: () => new PageClosed({ detail: "the page went away while checking the ref" })
    }).pipe(
      Effect.catchAll((closed) =>
        // Still no answer from a live page: as far as anyone can tell, the ref is not on the page.
        page.isClosed() ? Effect.fail(closed) : Effect.succeed<RefCheck>({ exists: false, current: [], frames: [] })
      )
    )

  /**
   * A ref must still be bound to an element of the active page; otherwise answer at once with the current refs.
   * Gives the refs of the iframes around the target (its own ref's, else its scope's; none in the top document).
   */
  const ensureRefs = (page: Page, target: Target) =>
    Effect.gen(function* () {
      const frames: Partial<Record<"locator" | "within", ReadonlyArray<string>>> = {}
      for (const role of ["within", "locator"] as const) {
        const locator = target[role]
        if (locator?.kind !== "a11yRef") continue
        const check = yield* refCheck(page, locator.value)
        if (!check.exists) {
          return yield* new TargetNotFound({
            target: describeTarget(target),
            detail: `Unknown a11yRef: ${locator.value} (its element left the page, or the ref came from another tab or an earlier page).`,
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

  const countSafely = (locator: Locator) => Effect.promise(() => locator.count().catch(() => -1))
  const visibleSafely = (locator: Locator) => Effect.promise(() => locator.isVisible().catch(() => false))

  /** Turns a failed Playwright action into the error that says what is wrong with the target. */
  const classify = (action: Action, page: Page, locator: Locator, target: Target, timeoutMs: number, error: unknown) =>
    Effect.gen(function* () {
      const described = describeTarget(target)
      if (page.isClosed()) return new PageClosed({ detail: `the page closed during ${action} on ${described}`, during: action })
      const count = yield* countSafely(locator)
      if (count > 1) return new TargetAmbiguous({ target: described, count })
      if (count === 0) {
        return new TargetNotFound({ target: described, detail: `No element matches ${described} (waited ${timeoutMs} ms).` })
      }
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

  /** Runs one action on the target of the active page, aborting it when the fiber is interrupted. */
  const act = <A>(
    action: Action,
    target: Target,
    timeoutMs: number,
    run: (locator: Locator, options: { timeout: number; signal: AbortSignal }) => Promise<A>,
    /** The page the action started on: the fallback of a direct action never moves to another tab. */
    startedOn?: Page
  ) =>
    Effect.gen(function* () {
      const page = startedOn ?? (yield* browser.activePage).page
      if (page.isClosed()) {
        return yield* new PageClosed({ detail: `the page closed during ${action} on ${describeTarget(target)}`, during: action })
      }
      const frames = yield* ensureRefs(page, target)
      const locator = locate(page, target, frames)
      return yield* Effect.tryPromise({
        try: (signal) => run(locator, { timeout: timeoutMs, signal }),
        catch: (cause) => new BrowserCallFailed({ cause })
      }).pipe(
        Effect.map((value) => ({ page, value, locator })),
        Effect.catchTag("BrowserCallFailed", (error) =>
          Effect.flatMap(classify(action, page, locator, target, timeoutMs, error.cause), (classified) =>
            Effect.fail<ActionError | PageClosed>(classified)
          )
        )
      )
    })

  let clickTokens = 0

  /**
   * Asks the page whether the target can be acted on at once, and prepares it (focus for typing,
   * a guard for clicking). Anything unusual, including a page that cannot answer, is "not ready".
   */
  const prepare = (live: LiveSession, page: Page, action: DirectArgs["action"], target: Target, token = "") => {
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
        notAfter: Date.now() + Duration.toMillis(PREPARE_TIMEOUT) / 2
      },
      isSensitiveField,
      readsState ? stateReadArgs(live.nextRef, settings) : null
    )
    // A page whose timers are faked or frozen never answers: after a while that too means "not ready".
    return Effect.promise(() =>
      evaluateInPage<DirectResult>(page, script).catch((): DirectResult => ({ ready: false, why: "the page could not answer" }))
    ).pipe(
      Effect.timeoutTo({
        duration: PREPARE_TIMEOUT,
        onSuccess: (result) => result,
        onTimeout: (): DirectResult => ({ ready: false, why: "no answer in time" })
      })
    )
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
        const unchanged = yield* Effect.promise(() => evaluateInPage<boolean>(page, callExpression(sameDocuments, token)).catch(() => false))
        if (!unchanged) return
        const waitMs = Math.min(timeoutMs, Duration.toMillis(COMMIT_WAIT))
        const arrived = yield* Effect.promise(() => watcher.committed).pipe(Effect.timeoutOption(Duration.millis(waitMs)))
        if (Option.isNone(arrived)) {
          live.notices.push(`The click started loading another page, which had not arrived after ${waitMs} ms; the observation shows the page as it is.`)
        }
      })
    )

  const finishClickIn = (live: LiveSession, page: Page, token: string) =>
    Effect.promise(
      (): Promise<ClickVerdict> =>
        evaluateInPage<ClickVerdict>(page, finishClickScript(token, stateReadArgs(live.nextRef, settings))).catch(
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
      const prepared = yield* prepare(live, page, "click", target, token)
      if (prepared.ready && prepared.x !== undefined && prepared.y !== undefined) {
        if ((yield* clickAt(live, page, target, token, prepared.x, prepared.y, options.timeoutMs)) === "done") return { page }
        live.lastRead = undefined
        yield* Effect.logDebug("click: the target was covered when the mouse went down; retrying with Playwright")
      }
      return yield* act("click", target, options.timeoutMs, (locator, opts) => locator.click(opts), page)
    })

  /** Runs an action with its choice for the dialogs its page opens in force (until the next action's). */
  const withDialogs = <A, E>(live: LiveSession, page: Page, choice: DialogChoice | undefined, action: Effect.Effect<A, E>) =>
    Effect.zipRight(
      Effect.sync(() => {
        live.dialogChoice = choice === undefined ? undefined : { page, ...choice }
      }),
      action
    )

  /** The same for an action that starts from the active page. */
  const onActivePage = <A, E>(choice: DialogChoice | undefined, action: Effect.Effect<A, E>) =>
    Effect.flatMap(browser.activePage, ({ live, page }) => withDialogs(live, page, choice, action))

  const click = (target: Target, options: ActionOptions) =>
    Effect.flatMap(browser.activePage, ({ live, page }) => withDialogs(live, page, options.dialog, clickPage(live, page, target, options))).pipe(
      Effect.map(({ page }) => ({ pageClosedAfterClick: page.isClosed() })),
      // A confirm button that closes its own popup: the click did its job.
      Effect.catchTag("PageClosed", (error) =>
        error.during === "click" ? Effect.succeed({ pageClosedAfterClick: true }) : Effect.fail(error)
      )
    )

  const type = (target: Target, text: string, options: ActionOptions) => onActivePage(options.dialog, typeNow(target, text, options))

  const typeNow = (target: Target, text: string, options: ActionOptions) =>
    Effect.gen(function* () {
      const { live, page } = yield* browser.activePage
      const prepared = yield* prepare(live, page, "type", target)
      if (prepared.ready) {
        // The field has the focus and its text is selected: typing replaces it, as Playwright's fill does.
        yield* Effect.tryPromise({
          try: () => (text === "" ? page.keyboard.press("Delete") : page.keyboard.insertText(text)),
          catch: (cause) =>
            page.isClosed()
              ? new PageClosed({ detail: `the page closed during type on ${describeTarget(target)}`, during: "type" })
              : new ActionFailed({ action: "type", target: describeTarget(target), detail: firstLine(cause) })
        })
        return { sensitive: prepared.sensitive ?? true }
      }
      const { locator } = yield* act("type", target, options.timeoutMs, (field, opts) => field.fill(text, opts), page)
      const sensitive = yield* Effect.promise(() =>
        locator.evaluate(isSensitiveField, undefined, { timeout: 2_000 }).catch(() => true)
      )
      return { sensitive }
    })

  const pressKey = (target: Target | undefined, key: string, options: ActionOptions) =>
    onActivePage(options.dialog, pressKeyNow(target, key, options))

  /**
   * Whether the focused element (down through shadow roots and frames) looks secret; a frame that
   * cannot be read counts as secret, and so does a page that cannot answer.
   */
  const focusIsSecret = (page: Page) =>
    Effect.promise(() =>
      page.isClosed()
        ? Promise.resolve(true)
        : evaluateInPage<boolean>(
            page,
            `(() => {
              const isSensitive = ${isSensitiveField.toString()}
              let element = document.activeElement
              for (;;) {
                if (element && element.shadowRoot && element.shadowRoot.activeElement) { element = element.shadowRoot.activeElement; continue }
                if (element && (element.localName === "iframe" || element.localName === "frame")) {
                  let inner = null
                  try { inner = element.contentDocument } catch { inner = null }
                  if (inner === null) return true
                  if (inner.activeElement && inner.activeElement !== inner.body) { element = inner.activeElement; continue }
                }
                break
              }
              return element ? isSensitive(element) : false
            })()`
          ).catch(() => true)
    )

  const pressKeyNow = (target: Target | undefined, key: string, options: ActionOptions) =>
    Effect.gen(function* () {
      const { page } = yield* browser.activePage
      // A key typed into a secret field is part of the secret: where the focus is before and after the key both count.
      let sensitive = target === undefined ? yield* focusIsSecret(page) : false
      if (target !== undefined) {
        const { locator } = yield* act("press_key", target, options.timeoutMs, (field, opts) => field.press(key, opts), page)
        sensitive = yield* Effect.promise(() => locator.evaluate(isSensitiveField, undefined, { timeout: 2_000 }).catch(() => true))
      } else {
        yield* Effect.tryPromise({
          try: () => page.keyboard.press(key),
          catch: (cause) =>
            page.isClosed()
              ? new PageClosed({ detail: "the page closed while a key was pressed", during: "press_key" })
              : new ActionFailed({ action: "press_key", target: "the focused element", detail: firstLine(cause) })
        })
      }
      if (!sensitive) sensitive = yield* focusIsSecret(page)
      return { sensitive }
    })

  const selectOption = (target: Target, values: ReadonlyArray<string>, options: ActionOptions) =>
    onActivePage(
      options.dialog,
      act("select_option", target, options.timeoutMs, (locator, opts) =>
        // Each value matches an option by its value or by its label, as Playwright's own string form does.
        locator.selectOption([...values], opts)
      ).pipe(
        Effect.map(({ value }): ReadonlyArray<string> => value),
        // Playwright waits for a missing option until the time runs out: say which options there are.
        Effect.catchTag("ActionTimeout", (timeout) => missingOptions(target, values, timeout))
      )
    )

  /** After a select timed out: MM_SELECT_FAILED naming the values no enabled option has, with the options there are. */
  const missingOptions = (target: Target, values: ReadonlyArray<string>, timeout: ActionTimeout) =>
    Effect.gen(function* () {
      const { page } = yield* browser.activePage
      const frames = yield* ensureRefs(page, target).pipe(Effect.orElseSucceed(() => []))
      const options = yield* Effect.promise(() =>
        locate(page, target, frames)
          .evaluate(
            (element) =>
              element instanceof HTMLSelectElement
                ? Array.from(element.options, (option) => ({ value: option.value, label: option.label, disabled: option.disabled }))
                : null,
            undefined,
            { timeout: 2_000 }
          )
          .catch(() => null)
      )
      if (options === null) return yield* timeout
      const missing = values.filter((value) => !options.some((option) => !option.disabled && (option.value === value || option.label === value)))
      if (missing.length === 0) return yield* timeout
      const listed = options.slice(0, 30).map((option) => `${JSON.stringify(option.label)}${option.value !== option.label ? ` (value ${JSON.stringify(option.value)})` : ""}${option.disabled ? " disabled" : ""}`)
      return yield* new ActionFailed({
        action: "select_option",
        target: describeTarget(target),
        detail: `no enabled option has the value or label ${missing.map((value) => JSON.stringify(value)).join(", ")}; the options are ${listed.join(", ") || "none"}${options.length > 30 ? ", ..." : ""}`
      })
    })

  const hover = (target: Target, options: ActionOptions) =>
    onActivePage(options.dialog, act("hover", target, options.timeoutMs, (locator, opts) => locator.hover(opts)).pipe(Effect.asVoid))

  const getText = (target: Target, options: { readonly timeoutMs: number }) =>
    act("get_text", target, options.timeoutMs, (locator, opts) => locator.evaluate(readText, undefined, opts)).pipe(
      Effect.map(({ value }) => value)
    )

  const waitFor = (target: Target, state: "visible" | "hidden", options: { readonly timeoutMs: number }) =>
    Effect.gen(function* () {
      const { live, page } = yield* browser.activePage
      const described = describeTarget(target)
      const prepared = yield* prepare(live, page, state, target)
      if (prepared.ready) {
        if (prepared.page !== undefined) live.lastRead = { page, result: prepared.page }
        return
      }
      const refCheck = yield* Effect.either(ensureRefs(page, target))
      if (refCheck._tag === "Left") {
        // A ref whose element left the page is as hidden as it gets.
        if (state === "hidden" && refCheck.left._tag === "TargetNotFound") return
        return yield* refCheck.left
      }
      const locator = locate(page, target, refCheck.right)
      yield* Effect.tryPromise({
        try: (signal) => locator.waitFor({ state, timeout: options.timeoutMs, signal }),
        catch: (cause) => new BrowserCallFailed({ cause })
      }).pipe(
        Effect.catchTag("BrowserCallFailed", (error) =>
          Effect.gen(function* () {
            if (page.isClosed()) return yield* new PageClosed({ detail: `the page closed while waiting for ${described}` })
            const count = yield* countSafely(locator)
            if (count > 1) return yield* new TargetAmbiguous({ target: described, count })
            yield* Effect.logDebug("wait_for failed", firstLine(error.cause))
            return yield* new WaitTimeout({ target: described, state, timeoutMs: options.timeoutMs })
          })
        )
      )
    })

  const destinationUrl = (live: LiveSession, destination: Exclude<Destination, HistoryMove>) =>
    Effect.gen(function* () {
      if (destination.screen === "url") return destination.url
      if (destination.screen === "home") return live.homeUrl
      if (destination.screen === "popup") {
        // An action popup cannot be a Playwright page; its page opened as a tab is the closest thing.
        if (live.extension?.popupPath === undefined) {
          return yield* new InvalidConfig({
            source: "extension",
            detail:
              live.extension === undefined
                ? "no extension is loaded, so there is no popup; launch with extensionPath or --extension."
                : `the extension ${live.extension.name} declares no action popup (action.default_popup in manifest.json).`
          })
        }
        return `chrome-extension://${live.extension.id}/${live.extension.popupPath}`
      }
      const configured = settings.screens[destination.screen]
      const fallback =
        destination.screen === "notification" && live.extension !== undefined ? "notification.html" : undefined
      const value = configured ?? fallback
      // Relative screens resolve against the extension, else the app, else the page the session is on.
      const activeOrigin = live.active !== undefined && /^https?:/.test(live.active.url()) ? new URL(live.active.url()).origin : undefined
      const url = value === undefined ? undefined : resolveScreenUrl(value, live.extension, settings.appUrl ?? activeOrigin)
      if (url === undefined) {
        return yield* new InvalidConfig({
          source: "screens",
          detail: `no ${destination.screen} screen is configured; set screens.${destination.screen} in the config file (a URL, or a path inside the extension or the app).`
        })
      }
      return url
    })

  /** A page that did not load: a timeout says how long we waited, anything else says what the browser said. */
  const navigationFailed = (url: string, timeoutMs: number, error: unknown) =>
    new NavigationFailed({ url, detail: isPlaywrightTimeout(error) ? `did not load within ${timeoutMs} ms` : firstLine(error) })

  /**
   * Opens a URL in a new tab as a top-level target with a single history entry, as a browser would
   * open a popup, so that the page may close itself with window.close().
   */
  const openTab = (live: LiveSession, url: string, timeoutMs: number) =>
    Effect.tryPromise({
      try: async (signal) => {
        const anchor = live.pages.find((page) => !page.isClosed())
        if (anchor === undefined) {
          const page = await live.context.newPage()
          await page.goto(url, { waitUntil: "load", timeout: timeoutMs, signal })
          return page
        }
        const cdp = await live.context.newCDPSession(anchor)
        try {
          const opened = live.context.waitForEvent("page", { timeout: timeoutMs })
          await cdp.send("Target.createTarget", { url })
          const page = await opened
          await page.waitForLoadState("load", { timeout: timeoutMs })
          return page
        } finally {
          await cdp.detach().catch(() => undefined)
        }
      },
      catch: (error) => navigationFailed(url, timeoutMs, error)
    })

  /** Back, forward or reload in the active tab; going past either end of its history is an error, not a no-op. */
  const moveInHistory = (move: "back" | "forward" | "reload", timeoutMs: number) =>
    Effect.gen(function* () {
      const { page } = yield* browser.activePage
      const before = page.url()
      const options = { waitUntil: "load" as const, timeout: timeoutMs }
      const response = yield* Effect.tryPromise({
        try: (signal) =>
          move === "back"
            ? page.goBack({ ...options, signal })
            : move === "forward"
              ? page.goForward({ ...options, signal })
              : page.reload({ ...options, signal }),
        catch: (error) =>
          page.isClosed() ? new PageClosed({ detail: `the page closed while going ${move}` }) : navigationFailed(move, timeoutMs, error)
      })
      // Playwright answers null both at the end of the history and for a same-document entry: the URL tells them apart.
      if (response === null && move !== "reload" && page.url() === before) {
        return yield* new NavigationFailed({ url: move, detail: `this tab has no ${move === "back" ? "previous" : "next"} page in its history` })
      }
      return { currentUrl: page.url() }
    })

  const navigate = (destination: Destination, options: { readonly timeoutMs: number }) =>
    Effect.gen(function* () {
      if (isHistoryMove(destination)) return yield* moveInHistory(destination.screen, options.timeoutMs)
      const live = yield* browser.live
      const url = yield* destinationUrl(live, destination)
      const opensTab =
        destination.screen === "notification" ||
        destination.screen === "popup" ||
        (destination.screen === "url" && destination.newTab === true) ||
        live.active === undefined ||
        live.active.isClosed()
      if (opensTab) {
        const page = yield* openTab(live, url, options.timeoutMs)
        // A tab we open is a notification only when asked for one, whoever Chromium says opened it.
        if (destination.screen === "notification") live.notificationPages.add(page)
        else live.notificationPages.delete(page)
        browser.activate(live, page)
        dropNewTabNotice(live)
        if (page.url().startsWith("chrome-error://")) return yield* new NavigationFailed({ url, detail: "the page could not be loaded" })
        return { currentUrl: page.url() }
      }
      const page = live.active!
      yield* Effect.tryPromise({
        try: (signal) => page.goto(url, { waitUntil: "load", timeout: options.timeoutMs, signal }),
        catch: (error) =>
          page.isClosed()
            ? new PageClosed({ detail: `the page closed while navigating to ${url}` })
            : navigationFailed(url, options.timeoutMs, error)
      })
      return { currentUrl: page.url() }
    })

  const screenshot = (options: { readonly name: string; readonly fullPage: boolean; readonly selector?: string | undefined }) =>
    Effect.gen(function* () {
      const { page } = yield* browser.activePage
      const file = path.resolve(settings.artifactsDir, "screenshots", `${sanitizeFileName(options.name)}.png`)
      const png = yield* Effect.tryPromise({
        try: (signal) =>
          options.selector === undefined
            ? page.screenshot({ fullPage: options.fullPage, timeout: 15_000, signal } as Parameters<Page["screenshot"]>[0])
            : page.locator(options.selector).screenshot({ timeout: 15_000, signal } as Parameters<Locator["screenshot"]>[0]),
        catch: (error) =>
          page.isClosed()
            ? new PageClosed({ detail: "the page closed before the screenshot" })
            : options.selector !== undefined && isPlaywrightTimeout(error)
              ? new TargetNotFound({ target: `selector:${options.selector}`, detail: `No visible element matches selector:${options.selector}.` })
              : new ScreenshotFailed({ detail: firstLine(error) })
      })
      yield* Effect.tryPromise({
        try: () => writeFileAtomic(file, png),
        catch: (error) => new ScreenshotFailed({ detail: `cannot write ${file}: ${firstLine(error)}` })
      })
      return { path: file, ...pngSize(png), base64: png.toString("base64") }
    })

  /** A new tab this call opened or picked up is its own doing, not news. */
  const dropNewTabNotice = (live: LiveSession) => {
    live.notices = live.notices.filter((notice) => !notice.startsWith("A new tab opened"))
  }

  const openPages = (live: LiveSession) => live.pages.filter((page) => !page.isClosed())

  const tabInfo = (live: LiveSession, page: Page) =>
    Effect.promise(() => page.title().catch(() => "")).pipe(
      Effect.map(
        (title): TabInfo => ({
          tabId: browser.tabIdOf(live, page),
          role: browser.roleOf(live, page),
          url: page.url(),
          title,
          active: page === live.active
        })
      )
    )

  const activeTab = (live: LiveSession) => {
    const active = live.active !== undefined && !live.active.isClosed() ? live.active : undefined
    return active === undefined ? null : { tabId: browser.tabIdOf(live, active), role: browser.roleOf(live, active), url: active.url() }
  }

  const matches = (live: LiveSession, page: Page, selector: TabSelector) =>
    (selector.tabId === undefined || browser.tabIdOf(live, page) === selector.tabId) &&
    (selector.role === undefined || browser.roleOf(live, page) === selector.role) &&
    (selector.url === undefined || page.url().startsWith(selector.url))

  const describeSelector = (selector: TabSelector) =>
    [
      selector.tabId !== undefined ? `id ${selector.tabId}` : undefined,
      selector.role !== undefined ? `role ${selector.role}` : undefined,
      selector.url !== undefined ? `URL prefix ${selector.url}` : undefined
    ]
      .filter((part) => part !== undefined)
      .join(" and ")

  const listOpen = (live: LiveSession) =>
    openPages(live)
      .map((page) => `${browser.tabIdOf(live, page)} ${page.url()} (${browser.roleOf(live, page)})`)
      .join(", ") || "(none)"

  const tabNotFound = (live: LiveSession, selector: TabSelector, extra = "") =>
    new TabNotFound({ detail: `No open tab matches ${describeSelector(selector)}${extra}. Open tabs: ${listOpen(live)}.` })

  const switchTab = (selector: TabSelector) =>
    Effect.gen(function* () {
      const live = yield* browser.live
      const candidates = openPages(live).filter((page) => matches(live, page, selector))
      // The extension home stands for "the extension"; otherwise the newest match is the one just opened.
      const page = live.homePage !== undefined && candidates.includes(live.homePage) ? live.homePage : candidates.at(-1)
      if (page === undefined) return yield* tabNotFound(live, selector)
      browser.activate(live, page)
      yield* Effect.promise(() => page.bringToFront().catch(() => undefined))
      return yield* tabInfo(live, page)
    })

  const closeTab = (selector: TabSelector) =>
    Effect.gen(function* () {
      const live = yield* browser.live
      const matching = openPages(live).filter((page) => matches(live, page, selector))
      // Never the extension home, whatever the selector: closing it would leave the extension without its UI.
      const page = matching.filter((candidate) => candidate !== live.homePage).at(-1)
      if (page === undefined) {
        return yield* tabNotFound(live, selector, matching.length > 0 ? " except the extension home, which is never closed" : "")
      }
      const closed = yield* tabInfo(live, page)
      yield* Effect.promise(() => page.close().catch(() => undefined))
      return { closed: { ...closed, active: false }, active: activeTab(live) }
    })

  const waitForNotification = (options: { readonly timeoutMs: number }) =>
    Effect.gen(function* () {
      const live = yield* browser.live
      const newestNotification = Effect.sync(() =>
        Option.fromNullable(openPages(live).filter((page) => browser.roleOf(live, page) === "notification").at(-1))
      )
      // Polling rather than the "page" event: a window the extension opens may start as about:blank and only
      // later reach its notification URL, and one already open must count too.
      const page = yield* newestNotification.pipe(
        Effect.tap((found) => (Option.isNone(found) ? Effect.sleep("100 millis") : Effect.void)),
        Effect.repeat({ until: Option.isSome }),
        Effect.map(Option.getOrThrow),
        Effect.timeoutFail({
          duration: options.timeoutMs,
          onTimeout: () =>
            new NotificationTimeout({
              timeoutMs: options.timeoutMs,
              openTabs: openPages(live).map((candidate) => ({ role: browser.roleOf(live, candidate), url: candidate.url() }))
            })
        })
      )
      yield* Effect.promise(() => page.waitForLoadState("load", { timeout: options.timeoutMs }).catch(() => undefined))
      browser.activate(live, page)
      dropNewTabNotice(live)
      return yield* tabInfo(live, page)
    })

  const extension = Effect.map(browser.live, (live) =>
    Option.map(Option.fromNullable(live.extension), (info) => ({
      id: info.id,
      name: info.name,
      version: info.version,
      manifestVersion: info.manifestVersion
    }))
  )

  const extensionStorage = (area: StorageArea, keys: ReadonlyArray<string> | undefined) =>
    Effect.gen(function* () {
      const live = yield* browser.live
      const info = live.extension
      if (info === undefined) {
        return yield* new InvalidConfig({
          source: "extension",
          detail: "no extension is loaded in this session; launch with extensionPath or start the server with --extension."
        })
      }
      const prefix = `chrome-extension://${info.id}/`
      const read = ({ area, keys }: { area: string; keys: Array<string> | null }) =>
        (globalThis as any).chrome.storage[area].get(keys) as Promise<Record<string, unknown>>
      const arg = { area, keys: keys === undefined ? null : [...keys] }
      const worker = live.context.serviceWorkers().find((candidate) => candidate.url().startsWith(prefix))
      // An idle MV3 worker may have been stopped; any open page of the extension has the same chrome.storage.
      const page = openPages(live).find((candidate) => candidate.url().startsWith(prefix))
      const evaluate =
        worker !== undefined
          ? () => worker.evaluate(read, arg)
          : page !== undefined
            ? () => page.evaluate(read, arg)
            : undefined
      if (evaluate === undefined) {
        return yield* new StateFailed({
          detail: "the extension's service worker is not running and none of its pages is open; call mm_navigate with screen home or popup, then retry"
        })
      }
      return yield* Effect.tryPromise({
        try: evaluate,
        catch: (error) => new StateFailed({ detail: `chrome.storage.${area} could not be read: ${firstLine(error)}` })
      }).pipe(
        Effect.timeoutFail({
          duration: "10 seconds",
          onTimeout: () => new StateFailed({ detail: `chrome.storage.${area} did not answer within 10 s` })
        })
      )
    })

  const tabs = Effect.gen(function* () {
    const live = yield* browser.live
    const tracked = yield* Effect.forEach(openPages(live), (page) => tabInfo(live, page), { concurrency: "unbounded" })
    return { active: activeTab(live), tracked }
  })

  return Session.of({
    current: Effect.map(browser.current, Option.map((live) => live.info)),
    launch: browser.launch,
    cleanup: browser.close,
    navigate,
    click,
    type,
    waitFor,
    getText,
    pressKey,
    selectOption,
    hover,
    screenshot,
    tabs,
    tabCount: Effect.map(browser.current, Option.match({ onNone: () => 0, onSome: (live) => openPages(live).length })),
    waitForNotification,
    switchTab,
    closeTab,
    extension,
    extensionStorage,
    consoleCursor: Effect.map(browser.current, Option.match({ onNone: () => 0, onSome: (live) => live.consoleSeq })),
    consoleSince: (cursor) =>
      Effect.map(
        browser.current,
        Option.match({
          onNone: () => [],
          onSome: (live) => live.console.filter((entry) => entry.seq > cursor).map(({ type, text, url }) => ({ type, text, url }))
        })
      ),
    takeNotices: Effect.map(
      browser.current,
      Option.match({
        onNone: (): ReadonlyArray<string> => [],
        onSome: (live): ReadonlyArray<string> => live.notices.splice(0, live.notices.length)
      })
    )
  })
})

export const layer = Layer.effect(Session, make)
