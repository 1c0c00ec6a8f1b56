// Session tabs over Playwright: list them, switch the active one, close one, wait for the
// extension's notification window. Every answer is read from one snapshot of the session's tabs.
import { Effect, Option, Ref } from "effect"
import type { Page } from "playwright"
import { NotificationTimeout, shownUrl, TabNotFound } from "../../../domain/errors.js"
import type { TabInfo, Tabs } from "../../../domain/observation.js"
import type { SessionTabs, TabSelector } from "../../../services/Session.js"
import { BrowserState } from "../lifecycle/browser.js"
import { dropNewTabNotices, type LiveSession } from "../lifecycle/live-session.js"
import { roleIn, tabIdIn, type TabState } from "../lifecycle/session-state.js"

const openPages = (tabs: TabState) => tabs.pages.filter((page) => !page.isClosed())

const describeSelector = (selector: TabSelector) =>
  [
    selector.tabId !== undefined ? `id ${selector.tabId}` : undefined,
    selector.role !== undefined ? `role ${selector.role}` : undefined,
    selector.url !== undefined ? `URL prefix ${selector.url}` : undefined
  ]
    .filter((part) => part !== undefined)
    .join(" and ")

export const make = Effect.gen(function* () {
  const browser = yield* BrowserState

  const tabInfo = (live: LiveSession, page: Page) =>
    Effect.gen(function* () {
      const title = yield* Effect.promise(() => page.title().catch(() => ""))
      const tabs = yield* Ref.get(live.tabs)
      const info: TabInfo = {
        tabId: tabIdIn(tabs, page),
        role: roleIn(tabs, live.roleFacts, page),
        url: shownUrl(page.url()),
        title,
        active: page === tabs.active
      }
      return info
    })

  const activeTab = (live: LiveSession, tabs: TabState): Tabs["active"] => {
    const active = tabs.active !== undefined && !tabs.active.isClosed() ? tabs.active : undefined
    return active === undefined ? null : { tabId: tabIdIn(tabs, active), role: roleIn(tabs, live.roleFacts, active), url: shownUrl(active.url()) }
  }

  const matches = (live: LiveSession, tabs: TabState, page: Page, selector: TabSelector) =>
    (selector.tabId === undefined || tabIdIn(tabs, page) === selector.tabId) &&
    (selector.role === undefined || roleIn(tabs, live.roleFacts, page) === selector.role) &&
    (selector.url === undefined || page.url().startsWith(selector.url))

  const tabNotFound = (live: LiveSession, tabs: TabState, selector: TabSelector, extra = "") => {
    const open =
      openPages(tabs)
        .map((page) => `${tabIdIn(tabs, page)} ${shownUrl(page.url())} (${roleIn(tabs, live.roleFacts, page)})`)
        .join(", ") || "(none)"
    return new TabNotFound({ detail: `No open tab matches ${describeSelector(selector)}${extra}. Open tabs: ${open}.` })
  }

  const switchTab = (selector: TabSelector) =>
    Effect.gen(function* () {
      const live = yield* browser.live
      const tabs = yield* Ref.get(live.tabs)
      const candidates = openPages(tabs).filter((page) => matches(live, tabs, page, selector))
      // The extension home stands for "the extension"; otherwise the newest match is the one just opened.
      const page = tabs.homePage !== undefined && candidates.includes(tabs.homePage) ? tabs.homePage : candidates.at(-1)
      if (page === undefined) return yield* tabNotFound(live, tabs, selector)
      yield* browser.activate(live, page)
      yield* Effect.promise(() => page.bringToFront().catch(() => undefined))
      return yield* tabInfo(live, page)
    })

  const closeTab = (selector: TabSelector) =>
    Effect.gen(function* () {
      const live = yield* browser.live
      const tabs = yield* Ref.get(live.tabs)
      const matching = openPages(tabs).filter((page) => matches(live, tabs, page, selector))
      // Never the extension home, whatever the selector: closing it would leave the extension without its UI.
      const page = matching.filter((candidate) => candidate !== tabs.homePage).at(-1)
      if (page === undefined) {
        return yield* tabNotFound(live, tabs, selector, matching.length > 0 ? " except the extension home, which is never closed" : "")
      }
      const closed = yield* tabInfo(live, page)
      yield* Effect.promise(() => page.close().catch(() => undefined))
      return { closed: { ...closed, active: false }, active: activeTab(live, yield* Ref.get(live.tabs)) }
    })

  const waitForNotification = (options: { readonly timeoutMs: number }) =>
    Effect.gen(function* () {
      const live = yield* browser.live
      const newestNotification = Effect.map(Ref.get(live.tabs), (tabs) =>
        Option.fromNullable(openPages(tabs).filter((page) => roleIn(tabs, live.roleFacts, page) === "notification").at(-1))
      )
      // Polling rather than the "page" event: a window the extension opens may start as about:blank and only
      // later reach its notification URL, and one already open must count too.
      const found = yield* newestNotification.pipe(
        Effect.tap((found) => (Option.isNone(found) ? Effect.sleep("100 millis") : Effect.void)),
        Effect.repeat({ until: Option.isSome }),
        Effect.map(Option.getOrThrow),
        Effect.timeoutOption(options.timeoutMs)
      )
      if (Option.isNone(found)) {
        const tabs = yield* Ref.get(live.tabs)
        return yield* new NotificationTimeout({
          timeoutMs: options.timeoutMs,
          openTabs: openPages(tabs).map((candidate) => ({ role: roleIn(tabs, live.roleFacts, candidate), url: shownUrl(candidate.url()) }))
        })
      }
      const page = found.value
      yield* Effect.promise(() => page.waitForLoadState("load", { timeout: options.timeoutMs }).catch(() => undefined))
      yield* browser.activate(live, page)
      yield* dropNewTabNotices(live)
      return yield* tabInfo(live, page)
    })

  const tabs = Effect.gen(function* () {
    const live = yield* browser.live
    const snapshot = yield* Ref.get(live.tabs)
    const tracked = yield* Effect.forEach(openPages(snapshot), (page) => tabInfo(live, page), { concurrency: "unbounded" })
    return { active: activeTab(live, yield* Ref.get(live.tabs)), tracked }
  })

  const tabCount = Effect.flatMap(
    browser.current,
    Option.match({
      onNone: () => Effect.succeed(0),
      onSome: (live) => Effect.map(Ref.get(live.tabs), (snapshot) => openPages(snapshot).length)
    })
  )

  const browserEnded = Effect.flatMap(
    browser.current,
    Option.match({
      onNone: () => Effect.succeed(false),
      onSome: (live) => Effect.map(Ref.get(live.ended), Option.isSome)
    })
  )

  const service: SessionTabs = { tabs, tabCount, browserEnded, waitForNotification, switchTab, closeTab }
  return service
})
