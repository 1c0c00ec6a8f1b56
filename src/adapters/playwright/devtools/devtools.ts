// The devtools port over Playwright: one tab's console (with uncaught errors and their stacks) and
// requests read from the session's rings, one request's details read from the browser on demand, the
// network mocks (mocks.ts) and mm_evaluate (evaluate.ts).
import { Effect, Option, Ref, Runtime } from "effect"
import { DeadlineExceeded, DiscoveryFailed, EvaluateFailed, PageClosed, RequestNotFound, shownUrl, TabNotFound } from "../../../domain/errors.js"
import type { ConsoleLevel, ConsoleQuery, EvaluateOptions, ConsoleReading, NetworkQuery, NetworkReading, PageTiming, SessionDevtools } from "../../../services/session/devtools.js"
import { Secrets } from "../../../services/Secrets.js"
import { BrowserState } from "../lifecycle/browser.js"
import { evaluateExpression } from "./evaluate.js"
import type { LiveSession } from "../lifecycle/live-session.js"
import * as Mocks from "./mocks.js"
import { findRequest, requestDetails, requestMatches, summaryOf, watchNetwork, NETWORK_PER_TAB } from "./network.js"
import { consoleOfTab, tabIdIn, type ConsoleEntry } from "../lifecycle/session-state.js"
import { checkRequest } from "../../../domain/url-policy.js"
import { policyOf } from "../lifecycle/policy.js"

/** How severe a console type is: 0 error, 1 warning, 2 info, 3 debug. */
export const severityOf = (type: string): number => {
  switch (type) {
    case "error":
    case "assert":
    case "pageerror":
      return 0
    case "warning":
    case "dropped":
      return 1
    case "debug":
      return 3
    default:
      return 2
  }
}

const threshold: Record<ConsoleLevel, number> = { error: 0, warning: 1, info: 2, debug: 3, all: 3 }

/** The newest `limit` of the entries that pass, oldest first, with how many older ones passed too. */
const newest = <A>(entries: ReadonlyArray<A>, passes: (entry: A) => boolean, limit: number) => {
  const matched = entries.filter(passes)
  const shown = matched.slice(Math.max(0, matched.length - limit))
  return { shown, more: matched.length - shown.length }
}

export const make = Effect.gen(function* () {
  const browser = yield* BrowserState
  // Bodies are cut here: the secrets' values go before the cut, so it never shows part of one.
  const secrets = Option.getOrElse(yield* Effect.serviceOption(Secrets), () => Secrets.none)
  const runSync = Runtime.runSync(yield* Effect.runtime<never>())
  // The URL policy (--allowed-origins, --blocked-origins) narrows what a mock may answer (see mocks.ts on
  // the order of routes); the extension's own origin only matters for chrome-extension: URLs, never mocked.
  const policy = policyOf(browser.settings, undefined)
  const mocks = Mocks.make(runSync, (url) => Mocks.httpOnly(url) && checkRequest(policy, url).allowed)

  /** The tab asked for (also a closed one: what it logged is kept), or the active one. */
  const tabOf = (live: LiveSession, tabId: string | undefined) =>
    Effect.gen(function* () {
      const tabs = yield* Ref.get(live.tabs)
      if (tabId === undefined) {
        const page = tabs.active
        if (page === undefined) return yield* new PageClosed({ detail: "no tab is active (every tab of the session is closed); pass tabId" })
        return { tabId: tabIdIn(tabs, page), page }
      }
      for (const [page, id] of tabs.tabIds) if (id === tabId) return { tabId, page }
      const open = tabs.pages.filter((page) => !page.isClosed()).map((page) => `${tabIdIn(tabs, page)} ${shownUrl(page.url())}`)
      return yield* new TabNotFound({ detail: `No tab ${tabId} in this session. Open tabs: ${open.join(", ") || "(none)"}.` })
    })

  const consoleMessages = (query: ConsoleQuery) =>
    Effect.gen(function* () {
      const live = yield* browser.live
      const tab = yield* tabOf(live, query.tabId)
      const { messages, dropped } = consoleOfTab(yield* Ref.get(live.console), tab.tabId, query.since)
      const { shown, more } = newest(messages, (entry: ConsoleEntry) => severityOf(entry.type) <= threshold[query.level], query.limit)
      const url = tab.page.isClosed() ? (messages.at(-1)?.url ?? "") : shownUrl(tab.page.url())
      const reading: ConsoleReading = {
        tabId: tab.tabId,
        url,
        messages: shown.map((entry) => ({
          time: entry.time ?? 0,
          type: entry.type,
          text: entry.text,
          ...(entry.stack !== undefined ? { stack: entry.stack } : {})
        })),
        dropped,
        more
      }
      return reading
    })

  const networkRequests = (query: NetworkQuery) =>
    Effect.gen(function* () {
      const live = yield* browser.live
      const startedNow = (yield* Ref.get(live.network)).since === undefined
      if (startedNow) watchNetwork(runSync, live)
      const tab = yield* tabOf(live, query.tabId)
      const ring = (yield* Ref.get(live.network)).rings.get(tab.page) ?? { entries: [], dropped: 0 }
      const { shown, more } = newest(ring.entries, requestMatches(query), query.limit)
      const reading: NetworkReading = {
        tabId: tab.tabId,
        requests: shown.map(summaryOf),
        dropped: ring.dropped,
        more,
        ...(startedNow ? { startedNow: true } : {})
      }
      return reading
    })

  const networkRequest = (id: string, options: { readonly bodyChars: number }) =>
    Effect.gen(function* () {
      const live = yield* browser.live
      const log = yield* Ref.get(live.network)
      const entry = findRequest(log, id)
      if (entry === undefined) {
        return yield* new RequestNotFound({
          id,
          detail:
            log.since === undefined
              ? "requests are not being captured yet; call mm_network_requests first (or start the server with --caps devtools to capture from launch)."
              : Number(id.slice(1)) >= log.nextId
                ? "no request has been given that id yet; ids come from mm_network_requests."
                : `its tab's ring let it go (each tab keeps its newest ${NETWORK_PER_TAB}).`
        })
      }
      const tabId = tabIdIn(yield* Ref.get(live.tabs), entry.page)
      return yield* Effect.tryPromise({
        try: () => requestDetails(entry, tabId, options.bodyChars, secrets),
        catch: (error) => new RequestNotFound({ id, detail: `the browser no longer has it (${String(error).split("\n")[0]?.slice(0, 200)}).` })
      })
    })

  const evaluate = (expression: string, options: EvaluateOptions) =>
    Effect.gen(function* () {
      const { page } = yield* browser.activePage
      return yield* Effect.tryPromise({
        try: (signal) => evaluateExpression(page, expression, options, signal),
        catch: (error) =>
          page.isClosed()
            ? new PageClosed({ detail: "the page closed while the expression ran" })
            : error instanceof EvaluateFailed || error instanceof DeadlineExceeded
              ? error
              : new EvaluateFailed({ exception: String(error).split("\n")[0]!.slice(0, 1_000) })
      })
    })

  const pageTiming = Effect.gen(function* () {
    const { page } = yield* browser.activePage
    return yield* Effect.tryPromise({
      try: () => page.evaluate(readPageTiming),
      catch: (error) =>
        page.isClosed()
          ? new PageClosed({ detail: "the page closed while its timing was read" })
          : new DiscoveryFailed({ detail: `its timing could not be read: ${String(error).split("\n")[0]!.slice(0, 300)}` })
    })
  })

  const service: SessionDevtools = {
    consoleMessages: (query) => browser.refineClosed(consoleMessages(query)),
    networkRequests: (query) => browser.refineClosed(networkRequests(query)),
    networkRequest,
    addMock: (rule) => Effect.flatMap(browser.live, (live) => mocks.add(live, rule)),
    removeMock: (id) => Effect.flatMap(browser.live, (live) => mocks.remove(live, id)),
    clearMocks: Effect.flatMap(browser.live, (live) => mocks.clear(live)),
    mocks: (limit) => Effect.flatMap(browser.live, (live) => mocks.read(live, limit)),
    evaluate: (expression, options) => browser.refineClosed(evaluate(expression, options)),
    pageTiming: () => browser.refineClosed(pageTiming)
  }
  return service
})

/** Runs in the page: its Performance API's navigation, paint and resource entries, whole milliseconds. */
const readPageTiming = (): PageTiming => {
  const ms = (value: number) => Math.round(value)
  const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined
  const paint = (name: string) => performance.getEntriesByName(name, "paint")[0]?.startTime
  const firstPaint = paint("first-paint")
  const firstContentfulPaint = paint("first-contentful-paint")
  const resources = performance.getEntriesByType("resource") as Array<PerformanceResourceTiming>
  return {
    url: location.href,
    ...(navigation === undefined
      ? {}
      : {
          navigation: {
            type: navigation.type,
            responseStart: ms(navigation.responseStart),
            domContentLoaded: ms(navigation.domContentLoadedEventEnd),
            ...(navigation.loadEventEnd > 0 ? { load: ms(navigation.loadEventEnd) } : {}),
            transferBytes: navigation.transferSize
          }
        }),
    ...(firstPaint === undefined ? {} : { firstPaint: ms(firstPaint) }),
    ...(firstContentfulPaint === undefined ? {} : { firstContentfulPaint: ms(firstContentfulPaint) }),
    resources: { count: resources.length, transferBytes: resources.reduce((sum, entry) => sum + entry.transferSize, 0) }
  }
}
