// Session navigation over Playwright: configured screens, URLs (in the active tab or a new one) and
// the active tab's history.
import { Effect, Ref } from "effect"
import type { Page } from "playwright"
import type { Settings } from "../../../domain/config.js"
import { fromPage, InvalidConfig, NavigationBlocked, NavigationFailed, PageClosed, shownUrl } from "../../../domain/errors.js"
import { checkNavigation, checkRequest, shortUrl } from "../../../domain/url-policy.js"
import type { Destination, SessionNavigation } from "../../../services/Session.js"
import { BrowserState, type BrowserStateService } from "../lifecycle/browser.js"
import { firstLine, isPlaywrightTimeout } from "../calls.js"
import { LOOPBACK_PROXY_ARG, resolveScreenUrl } from "../lifecycle/launch.js"
import { dropNewTabNotices, type LiveSession } from "../lifecycle/live-session.js"
import { devtoolsOf, rescuePage, silenceDialogs } from "../page-eval.js"
import { policyOf } from "../lifecycle/policy.js"
import { emulationApplied } from "./emulation-state.js"
import { DIALOG_RECENT_MS, tabOpened, withNotification } from "../lifecycle/session-state.js"

type HistoryMove = Extract<Destination, { readonly screen: "back" | "forward" | "reload" }>
const isHistoryMove = (destination: Destination): destination is HistoryMove =>
  destination.screen === "back" || destination.screen === "forward" || destination.screen === "reload"

/** `url` resolved against `base`, as a link's href is (unchanged when it cannot be). */
const resolvedAgainst = (url: string, base: string): string => {
  try {
    return new URL(url, base).href
  } catch {
    return url
  }
}

const destinationUrl = (settings: Settings, live: LiveSession, destination: Exclude<Destination, HistoryMove>) =>
  Effect.gen(function* () {
    if (destination.screen === "url") {
      // A relative URL ("/cart", "?page=2") goes where a link on the active page would take it.
      if (/^[a-z][a-z0-9+.-]*:/i.test(destination.url)) return destination.url
      const active = (yield* Ref.get(live.tabs)).active
      const base = active === undefined || active.isClosed() ? undefined : active.url()
      return base !== undefined && /^https?:/.test(base) ? resolvedAgainst(destination.url, base) : destination.url
    }
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
    const active = (yield* Ref.get(live.tabs)).active
    const activeOrigin = active !== undefined && /^https?:/.test(active.url()) ? new URL(active.url()).origin : undefined
    const url = value === undefined ? undefined : resolveScreenUrl(value, live.extension, settings.appUrl ?? activeOrigin)
    if (url === undefined) {
      return yield* new InvalidConfig({
        source: "screens",
        detail: `no ${destination.screen} screen is configured; set screens.${destination.screen} in the config file (a URL, or a path inside the extension or the app).`
      })
    }
    return url
  })

/**
 * Under --loopback-only (its closed local proxy among the browser's flags), a host other than 127.0.0.1
 * fails as the proxy's connection or an unresolved name: said as the flag's refusal, with the way to allow it.
 */
const outsideLoopback = (settings: Settings, url: string, error: unknown): NavigationBlocked | undefined => {
  const said = firstLine(error)
  // Its host-resolver rules resolve no name (localhost neither); any other host goes to the closed proxy.
  if (!settings.browserArgs.includes(LOOPBACK_PROXY_ARG) || !(said.includes("net::ERR_PROXY_CONNECTION_FAILED") || said.includes("net::ERR_NAME_NOT_RESOLVED"))) return undefined
  const host = URL.canParse(url) ? new URL(url).host : url
  return new NavigationBlocked({
    url: shortUrl(url),
    reason: `${host} is outside loopback, and --loopback-only keeps the browser on 127.0.0.1 (no name resolves, localhost neither).`,
    hint: "Serve the app on 127.0.0.1 and use that address, or start the server without --loopback-only to reach other hosts."
  })
}

/** The browser's own reason a page did not load (refused, reset, no such name...), which no policy gives. */
const OWN_LOAD_ERROR = /net::ERR_(?!ABORTED|BLOCKED_BY_CLIENT)[A-Z_]+/

/**
 * A page that did not load: a timeout says how long we waited, the policy's route (which aborts as
 * "blocked by client") says it refused a redirect or a page the navigation led to, --loopback-only's
 * proxy says it keeps the browser on this machine, anything else says what the browser said.
 */
const navigationFailed = (settings: Settings, url: string, timeoutMs: number, error: unknown, landed?: { readonly url: string; readonly live: LiveSession }) =>
  isPlaywrightTimeout(error)
    ? new NavigationFailed({ url, detail: `did not load within ${timeoutMs} ms` })
    : outsideLoopback(settings, url, error) ??
      (firstLine(error).includes("net::ERR_BLOCKED_BY_CLIENT") ||
        // The policy empties a tab that a redirect took to a refused URL, which interrupts the navigation.
        // (Never one the browser says it could not load itself: a refused connection leaves a blank tab blank.)
        (landed !== undefined &&
          landed.url !== url &&
          !OWN_LOAD_ERROR.test(firstLine(error)) &&
          (landed.url === "about:blank" || !checkRequest(policyOf(settings, landed.live.extension), landed.url).allowed))
      ? new NavigationBlocked({
          url: shortUrl(url),
          reason: "the navigation led to a URL the server's URL policy refuses (a redirect or the page itself).",
          hint: "The notices name it; --allowed-origins / --blocked-origins decide."
        })
      : new NavigationFailed({ url, detail: firstLine(error) }))

/**
 * A redirect hop is not routed (Playwright routes the first request of a chain): a page that ended up
 * on a refused URL is replaced by about:blank before anything reads it, and the navigation is refused.
 */
const landedAllowed = (settings: Settings, live: LiveSession, page: Page, requested: string, timeoutMs: number) =>
  Effect.gen(function* () {
    const landed = page.url()
    if (landed === requested || landed.startsWith("chrome-error://")) return
    // The policy's own listener may have emptied the tab already (a redirect cannot lead to about:blank).
    if (landed === "about:blank") {
      return yield* new NavigationBlocked({
        url: shortUrl(requested),
        reason: "it redirected to a URL the server's URL policy refuses.",
        hint: "The notices name it; --allowed-origins / --blocked-origins decide."
      })
    }
    const verdict = checkRequest(policyOf(settings, live.extension), landed)
    if (verdict.allowed) return
    yield* Effect.promise(() => page.goto("about:blank", { timeout: timeoutMs }).catch(() => undefined))
    return yield* new NavigationBlocked({
      url: shortUrl(requested),
      reason: `it redirected (${fromPage("URL", landed)}), and ${verdict.reason}`,
      hint: verdict.hint
    })
  })

/** Refuses, before anything loads, a URL the server's policy does not allow. */
const allowed = (settings: Settings, live: LiveSession, url: string) =>
  Effect.gen(function* () {
    const verdict = checkNavigation(policyOf(settings, live.extension), url)
    if (!verdict.allowed) return yield* new NavigationBlocked({ url: shortUrl(url), reason: verdict.reason, hint: verdict.hint })
  })

/** How long after a new tab's navigation was aborted its download may still be announced. */
const DOWNLOAD_AFTER_ABORT_MS = 1_000

/**
 * Loads `url` in the page; true when the URL answered with a file instead (Playwright's goto fails with
 * "Download is starting" and the download goes on: the call's answer names it).
 */
const gotoOrDownload = (page: Page, url: string, timeoutMs: number, signal: AbortSignal): Promise<boolean> =>
  page.goto(url, { waitUntil: "load", timeout: timeoutMs, signal }).then(
    () => false,
    (error: unknown) => {
      if (firstLine(error).includes("Download is starting")) return true
      throw error
    }
  )

/**
 * Opens a URL in a new tab as a top-level target with a single history entry, as a browser would
 * open a popup, so that the page may close itself with window.close(). The tab opens blank and takes
 * the session's emulation before its URL loads, so that the URL's first script runs under all of it
 * (a target created with its URL runs its first document while the emulation is still being sent).
 */
const openTab = (settings: Settings, live: LiveSession, anchor: Page | undefined, url: string, timeoutMs: number) =>
  Effect.tryPromise({
    try: async (signal) => {
      if (anchor === undefined) {
        const page = await live.context.newPage()
        await emulationApplied(page)
        return { page, downloaded: await gotoOrDownload(page, url, timeoutMs, signal) }
      }
      const cdp = await live.context.newCDPSession(anchor)
      try {
        const opened = live.context.waitForEvent("page", { timeout: timeoutMs })
        // In the session's own context: a browser shared by sessions has others (and a default one).
        const { targetInfo } = await cdp.send("Target.getTargetInfo")
        await cdp.send("Target.createTarget", {
          url: "about:blank",
          ...(targetInfo.browserContextId !== undefined ? { browserContextId: targetInfo.browserContextId } : {})
        })
        const page = await opened
        await emulationApplied(page)
        if (/^https?:/i.test(url)) {
          // Playwright neither routes nor reports the first load of a target created with its URL, so
          // mm_mock_network's rules and the request log would miss it: a web page replaces the blank
          // document with its URL, which keeps the single history entry.
          // A URL that answers with a file starts a download and leaves the tab blank: that ends the wait too.
          const landed = page.waitForURL((current) => current.href !== "about:blank", { waitUntil: "load", timeout: timeoutMs })
          const download = page.waitForEvent("download", { timeout: timeoutMs })
          download.catch(() => undefined)
          landed.catch(() => undefined)
          const [downloaded] = await Promise.all([
            Promise.race([
              // The navigation a download ends is aborted, a moment before the download is announced.
              landed.then(
                () => false,
                (error: unknown) =>
                  Promise.race([
                    download.then(() => true),
                    new Promise<never>((_, reject) => setTimeout(() => reject(error), DOWNLOAD_AFTER_ABORT_MS))
                  ])
              ),
              download.then(() => true)
            ]),
            page.evaluate((target) => location.replace(target), url).catch(() => undefined)
          ])
          return { page, downloaded }
        } else {
          // A blank page may not take itself to an extension's page (nor to data: or file:): the browser
          // navigates, and the blank entry is dropped so that Back does not lead to it.
          await page.goto(url, { waitUntil: "load", timeout: timeoutMs, signal })
          await (await devtoolsOf(page)).send("Page.resetNavigationHistory")
        }
        return { page, downloaded: false }
      } finally {
        await cdp.detach().catch(() => undefined)
      }
    },
    catch: (error) => navigationFailed(settings, url, timeoutMs, error)
  })

/**
 * A page that opened a dialog a moment ago may open one more while it is being left, and Chromium
 * cannot answer a dialog of a document that is being replaced: the navigation would wait on it for
 * ever. Such a page's dialogs are silenced first (it is being left anyway). A page that does not
 * answer at all gets the script that holds it stopped (DevTools' Runtime.terminateExecution).
 */
const quietBeforeLeaving = (live: LiveSession, page: Page) =>
  Effect.gen(function* () {
    // A page stuck in a script of its own (while (true)) cannot be left until that script stops.
    if (yield* Effect.promise(() => rescuePage(page))) {
      yield* Effect.logInfo("the page did not answer; its running script was stopped before leaving it")
      return
    }
    const last = (yield* Ref.get(live.dialogRates)).get(page)?.last
    if (last === undefined || Date.now() - last > DIALOG_RECENT_MS) return
    yield* Effect.promise(() => silenceDialogs(page)).pipe(Effect.timeoutOption("1 second"))
  })

/** Back, forward or reload in the active tab; going past either end of its history is an error, not a no-op. */
const moveInHistory = (browser: BrowserStateService, move: "back" | "forward" | "reload", timeoutMs: number) =>
  Effect.gen(function* () {
    const { live, page } = yield* browser.activePage
    yield* quietBeforeLeaving(live, page)
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
        page.isClosed() ? new PageClosed({ detail: `the page closed while going ${move}` }) : navigationFailed(browser.settings, move, timeoutMs, error)
    })
    // Playwright answers null both at the end of the history and for a same-document entry: the URL tells them apart.
    if (response === null && move !== "reload" && page.url() === before) {
      return yield* new NavigationFailed({ url: move, detail: `this tab has no ${move === "back" ? "previous" : "next"} page in its history` })
    }
    return { currentUrl: shownUrl(page.url()) }
  })

const navigate = (browser: BrowserStateService, destination: Destination, options: { readonly timeoutMs: number }) =>
  Effect.gen(function* () {
    if (isHistoryMove(destination)) return yield* moveInHistory(browser, destination.screen, options.timeoutMs)
    const live = yield* browser.live
    const url = yield* destinationUrl(browser.settings, live, destination)
    yield* allowed(browser.settings, live, url)
    const tabs = yield* Ref.get(live.tabs)
    const active = tabs.active !== undefined && !tabs.active.isClosed() ? tabs.active : undefined
    const opensTab =
      destination.screen === "notification" ||
      destination.screen === "popup" ||
      (destination.screen === "url" && destination.newTab === true) ||
      active === undefined
    if (opensTab) {
      const anchor = tabs.pages.find((page) => !page.isClosed())
      const { page, downloaded } = yield* openTab(browser.settings, live, anchor, url, options.timeoutMs)
      // A new tab that only downloaded a file closes, as a browser closes it, unless it is the only tab.
      if (downloaded && active !== undefined) {
        yield* Effect.promise(() => page.close().catch(() => undefined))
        return { currentUrl: shownUrl(active.url()) }
      }
      // A tab we open is a notification only when asked for one, whoever Chromium says opened it.
      yield* Ref.update(live.tabs, (current) => ({
        ...withNotification(tabOpened(current, page), page, destination.screen === "notification"),
        active: page
      }))
      yield* dropNewTabNotices(live)
      yield* landedAllowed(browser.settings, live, page, url, options.timeoutMs)
      if (page.url().startsWith("chrome-error://")) return yield* new NavigationFailed({ url, detail: "the page could not be loaded" })
      return { currentUrl: shownUrl(page.url()) }
    }
    const page = active
    yield* quietBeforeLeaving(live, page)
    // A URL that answers with a file starts a download (the call's answer names it) and leaves the tab where it was.
    const downloaded = yield* Effect.tryPromise({
      try: (signal) => gotoOrDownload(page, url, options.timeoutMs, signal),
      catch: (error) =>
        page.isClosed()
          ? new PageClosed({ detail: `the page closed while navigating to ${url}` })
          : navigationFailed(browser.settings, url, options.timeoutMs, error, { url: page.url(), live })
    })
    if (!downloaded) yield* landedAllowed(browser.settings, live, page, url, options.timeoutMs)
    return { currentUrl: shownUrl(page.url()) }
  })

export const make = Effect.gen(function* () {
  const browser = yield* BrowserState
  const navigation: SessionNavigation = {
    navigate: (destination, options) => browser.refineClosed(navigate(browser, destination, options))
  }
  return navigation
})
