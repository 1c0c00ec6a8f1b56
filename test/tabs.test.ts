// Tabs in real Chromium with the MV3 test extension and a web app on 127.0.0.1: the notification round
// trip, mm_tabs (list, switch, close; never the extension home), its old names (list_tabs, switch_to_tab,
// close_tab, still callable), the popup as a tab and extension storage.
import { realpathSync } from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { extensionIdFrom } from "../src/adapters/playwright/lifecycle/launch.js"
import { runTool, type ToolResponse } from "../src/runtime/runTool.js"
import type { AnyToolDefinition, ToolServices } from "../src/runtime/tool.js"
import { getState } from "../src/tools/discovery.js"
import { extensionStorage } from "../src/tools/extension.js"
import { click } from "../src/tools/interaction.js"
import { navigate } from "../src/tools/navigation.js"
import { launch } from "../src/tools/session.js"
import { closeTab, listTabs, switchToTab, tabs, waitForNotification } from "../src/tools/tabs.js"
import { html, liveLayer, pageServer, TAB_ID, testSettings, readable } from "./support/browser.js"

const MV3_EXTENSION = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures", "extension-mv3")
const extensionId = extensionIdFrom(realpathSync(MV3_EXTENSION))
const homeUrl = `chrome-extension://${extensionId}/popup.html`
const notificationUrl = `chrome-extension://${extensionId}/notification.html`

/** A web app page that asks the extension (externally_connectable) to open its notification window. */
const appPages = {
  "/app": html(
    "Shop",
    `<button data-testid="pay" onclick="chrome.runtime.sendMessage('${extensionId}', { type: 'open-notification' })">Pay</button>`
  ),
  "/docs": html("Docs", `<p>Documentation</p>`),
  "/about": html("About us", `<p>About</p>`)
}

const call = (tool: AnyToolDefinition, args: Record<string, unknown> = {}) =>
  Effect.map(
    runTool(tool)(args) as Effect.Effect<ToolResponse, never, ToolServices>,
    (response) => readable(response)
  )

const ok = (tool: AnyToolDefinition, args: Record<string, unknown> = {}) =>
  Effect.tap(call(tool, args), (envelope) => {
    expect(envelope.error).toBeUndefined()
    expect(envelope.ok).toBe(true)
  })

const extensionSession = liveLayer(testSettings({ extension: MV3_EXTENSION }))

describe("tabs with the test extension and a web app", () => {
  it.live("app page → extension notification → Confirm closes it → the active tab falls back to the extension home", () =>
    Effect.gen(function* () {
      const app = yield* pageServer(appPages)
      yield* ok(launch)
      const opened = yield* ok(navigate, { screen: "url", url: `${app.url}/app`, newTab: true })
      expect(opened.page?.url).toBe(`${app.url}/app`)
      expect(opened.notices).toBeUndefined()

      const asked = yield* ok(click, { testId: "pay" })
      expect(asked.observation?.state.currentUrl).toBe(`${app.url}/app`)

      const found = yield* ok(waitForNotification, { timeoutMs: 10_000 })
      expect(found.result).toEqual({ found: true, pageUrl: notificationUrl, title: "BWM Test Extension Notification" })
      // The notification is now the tab tools act on, and the observation is of it.
      expect(found.observation?.state.currentUrl).toBe(notificationUrl)
      expect(found.observation?.testIds?.map((item: any) => item.testId)).toContain("confirm")

      const state = yield* ok(getState)
      expect(state.result.tabs.active).toEqual({ tabId: TAB_ID, role: "notification", url: notificationUrl })
      expect(state.result.tabs.tracked.map((tab: any) => tab.role).sort()).toEqual(["app", "extension", "notification"])

      const confirmed = yield* ok(click, { testId: "confirm" })
      expect(confirmed.result.pageClosedAfterClick).toBe(true)
      expect(confirmed.notices).toEqual([`The active tab closed; tools now act on ${homeUrl} (extension).`])

      const after = yield* ok(getState)
      expect(after.result.tabs.active).toEqual({ tabId: TAB_ID, role: "extension", url: homeUrl })
      expect(after.result.tabs.tracked.map((tab: any) => tab.url).sort()).toEqual([homeUrl, `${app.url}/app`].sort())
    }).pipe(Effect.scoped, Effect.provide(extensionSession)))

  it.live("wait_for_notification with nothing coming fails with MM_NOTIFICATION_TIMEOUT listing the open tabs", () =>
    Effect.gen(function* () {
      yield* ok(launch)
      const envelope = yield* call(waitForNotification, { timeoutMs: 1_000 })
      expect(envelope.ok).toBe(false)
      expect(envelope.error?.code).toBe("MM_NOTIFICATION_TIMEOUT")
      expect(envelope.error?.message).toContain(`${homeUrl} (extension)`)
      expect(envelope.error?.details).toEqual({ timeoutMs: 1_000, openTabs: [{ role: "extension", url: homeUrl }] })

      const outOfRange = yield* call(waitForNotification, { timeoutMs: 500 })
      expect(outOfRange.error?.code).toBe("MM_INVALID_INPUT")
    }).pipe(Effect.provide(extensionSession)))

  it.live("mm_tabs lists, switches and closes with one tool: lines to read, the tab switched to with its page, the tab closed", () =>
    Effect.gen(function* () {
      const app = yield* pageServer(appPages)
      yield* ok(launch)
      yield* ok(navigate, { screen: "url", url: `${app.url}/docs`, newTab: true })
      yield* ok(navigate, { screen: "url", url: `${app.url}/about`, newTab: true })

      const listed = yield* ok(tabs, { action: "list" })
      const lines = (listed.result.tabs as string).split("\n")
      expect(lines[0]).toBe("Found 3 tabs")
      expect(lines[1]).toMatch(new RegExp(`^- t\\d+ \\[extension\\] BWM Test Extension Popup ${homeUrl}$`))
      expect(lines[3]).toMatch(new RegExp(`^\\* (t\\d+) \\[app\\] About us ${app.url}/about$`))
      // Nothing said twice: the lines only.
      expect(Object.keys(listed.result)).toEqual(["tabs"])
      const docsId = /^- (t\d+) \[app\] Docs/.exec(lines[2]!)![1]!

      // A switch answers the tab and observes its page.
      const switched = yield* ok(tabs, { action: "switch", tabId: docsId })
      expect(switched.result).toEqual({ tab: { tabId: docsId, role: "app", url: `${app.url}/docs`, title: "Docs", active: true } })
      expect(switched.observation?.state.currentUrl).toBe(`${app.url}/docs`)
      // Its page was observed when it opened: what changed since (nothing), refs as they were.
      expect(switched.snapshot).toBe("(no change on the page)")
      expect((yield* ok(tabs, { action: "switch", role: "dapp" })).result.tab).toMatchObject({ url: `${app.url}/about` })

      const closed = yield* ok(tabs, { action: "close", url: `${app.url}/about` })
      expect(closed.result).toEqual({
        closed: { tabId: TAB_ID, role: "app", url: `${app.url}/about`, title: "About us", active: false },
        active: { tabId: TAB_ID, role: "extension", url: homeUrl }
      })
      const home = yield* call(tabs, { action: "close", role: "extension" })
      expect(home.error?.message).toContain("extension home, which is never closed")

      // Bad combinations name the field.
      expect((yield* call(tabs, { action: "switch" })).error).toMatchObject({ code: "MM_INVALID_INPUT", details: { field: "tabId" } })
      expect((yield* call(tabs, { action: "list", role: "app" })).error).toMatchObject({ code: "MM_INVALID_INPUT", details: { field: "action" } })
      expect((yield* call(tabs, { action: "close", url: "x", filter: "y" })).error?.code).toBe("MM_INVALID_INPUT")
      expect((yield* call(tabs, { action: "open" })).error).toMatchObject({ code: "MM_INVALID_INPUT", details: { field: "action" } })
      // list takes list_tabs' options.
      const grouped = yield* ok(tabs, { action: "list", groupBy: "role", filter: "docs" })
      expect(grouped.result.tabs).toContain("## app (1)")
    }).pipe(Effect.scoped, Effect.provide(extensionSession)))

  it.live("switch_to_tab by role (dapp alias) or URL prefix, close_tab by either, and the extension home is never closed", () =>
    Effect.gen(function* () {
      const app = yield* pageServer(appPages)
      yield* ok(launch)
      yield* ok(navigate, { screen: "url", url: `${app.url}/docs`, newTab: true })
      yield* ok(navigate, { screen: "url", url: `${app.url}/about`, newTab: true })

      const toHome = yield* ok(switchToTab, { role: "extension" })
      expect(toHome.result).toEqual({
        switched: true,
        tab: { tabId: TAB_ID, role: "extension", url: homeUrl, title: "BWM Test Extension Popup", active: true }
      })
      expect(toHome.observation?.state.currentUrl).toBe(homeUrl)

      // "dapp" is upstream's name for the web app; the newest app tab wins.
      const toApp = yield* ok(switchToTab, { role: "dapp" })
      expect(toApp.result.tab).toMatchObject({ role: "app", url: `${app.url}/about`, active: true })

      const toDocs = yield* ok(switchToTab, { url: `${app.url}/do` })
      expect(toDocs.result.tab).toMatchObject({ url: `${app.url}/docs`, title: "Docs" })

      const missing = yield* call(switchToTab, { role: "notification" })
      expect(missing.error?.code).toBe("MM_TAB_NOT_FOUND")
      expect(missing.error?.message).toMatch(new RegExp(`t\\d+ ${app.url}/docs \\(app\\)`))
      expect((yield* call(switchToTab, {})).error?.code).toBe("MM_INVALID_INPUT")
      expect((yield* call(switchToTab, { role: "window" })).error?.code).toBe("MM_INVALID_INPUT")

      for (const selector of [{ role: "extension" }, { url: "chrome-extension://" }]) {
        const refused = yield* call(closeTab, selector)
        expect(refused.error?.code).toBe("MM_TAB_NOT_FOUND")
        expect(refused.error?.message).toContain("extension home, which is never closed")
      }

      // Closing the active docs tab: tools fall back to the extension home, and the response says so.
      const closedDocs = yield* ok(closeTab, { url: `${app.url}/docs` })
      expect(closedDocs.result).toEqual({
        closed: true,
        tab: { tabId: TAB_ID, role: "app", url: `${app.url}/docs`, title: "Docs", active: false },
        active: { tabId: TAB_ID, role: "extension", url: homeUrl }
      })
      expect(closedDocs.notices).toEqual([`The active tab closed; tools now act on ${homeUrl} (extension).`])

      const closedApp = yield* ok(closeTab, { role: "app" })
      expect(closedApp.result.tab.url).toBe(`${app.url}/about`)
      expect(closedApp.notices).toBeUndefined()
      const state = yield* ok(getState)
      expect(state.result.tabs.tracked.map((tab: any) => tab.url)).toEqual([homeUrl])
    }).pipe(Effect.scoped, Effect.provide(extensionSession)))

  it.live("tab ids stay with their tab across navigations, are never reused, and switch_to_tab and close_tab take them", () =>
    Effect.gen(function* () {
      const app = yield* pageServer(appPages)
      yield* ok(launch)
      yield* ok(navigate, { screen: "url", url: `${app.url}/docs`, newTab: true })
      yield* ok(navigate, { screen: "url", url: `${app.url}/about`, newTab: true })
      const listed = (yield* ok(listTabs)).result.groups[0].tabs as Array<{ tabId: string; url: string }>
      const ids = listed.map((tab) => tab.tabId)
      expect(new Set(ids).size).toBe(3)
      const docsId = listed.find((tab) => tab.url === `${app.url}/docs`)!.tabId
      const aboutId = listed.find((tab) => tab.url === `${app.url}/about`)!.tabId

      // The about tab goes to the docs page too: two tabs, same URL, told apart by id.
      yield* ok(navigate, { screen: "url", url: `${app.url}/docs` })
      const toDocs = yield* ok(switchToTab, { tabId: docsId })
      expect(toDocs.result.tab).toMatchObject({ tabId: docsId, url: `${app.url}/docs`, active: true })
      const both = yield* ok(switchToTab, { tabId: aboutId, url: `${app.url}/docs` })
      expect(both.result.tab).toMatchObject({ tabId: aboutId, active: true })

      const closed = yield* ok(closeTab, { tabId: aboutId })
      expect(closed.result.tab.tabId).toBe(aboutId)
      const gone = yield* call(switchToTab, { tabId: aboutId })
      expect(gone.error?.code).toBe("MM_TAB_NOT_FOUND")
      expect(gone.error?.message).toContain(`id ${aboutId}`)
      expect((yield* call(closeTab, { tabId: "3" })).error).toMatchObject({ code: "MM_INVALID_INPUT", details: { field: "tabId" } })

      yield* ok(navigate, { screen: "url", url: `${app.url}/about`, newTab: true })
      const after = (yield* ok(listTabs)).result.groups[0].tabs as Array<{ tabId: string }>
      const fresh = after.map((tab) => tab.tabId).filter((id) => !ids.includes(id))
      expect(fresh).toHaveLength(1)
      expect(ids).not.toContain(fresh[0])
    }).pipe(Effect.scoped, Effect.provide(extensionSession)))

  it.live("without an extension home, closing the active tab falls back to an app tab", () =>
    Effect.gen(function* () {
      const app = yield* pageServer(appPages)
      return yield* Effect.gen(function* () {
        yield* ok(launch)
        yield* ok(navigate, { screen: "url", url: `${app.url}/about`, newTab: true })
        const closed = yield* ok(closeTab, { url: `${app.url}/about` })
        expect(closed.result.active).toEqual({ tabId: TAB_ID, role: "app", url: `${app.url}/docs` })
        expect(closed.notices).toEqual([`The active tab closed; tools now act on ${app.url}/docs (app).`])
      }).pipe(Effect.provide(liveLayer(testSettings({ appUrl: `${app.url}/docs` }))))
    }).pipe(Effect.scoped))

  it.live("closing the last tab on purpose: reads and actions answer MM_PAGE_CLOSED (the browser runs on), and a new tab goes on", () =>
    Effect.gen(function* () {
      const app = yield* pageServer(appPages)
      return yield* Effect.gen(function* () {
        yield* ok(launch)
        yield* ok(closeTab, { url: `${app.url}/docs` })
        const state = yield* call(getState)
        expect(state.error?.code).toBe("MM_PAGE_CLOSED")
        expect(state.error?.message).toContain("every tab of the session is closed")
        expect((yield* call(click, { testId: "pay" })).error?.code).toBe("MM_PAGE_CLOSED")
        yield* ok(navigate, { screen: "url", url: `${app.url}/about`, newTab: true })
        expect((yield* ok(getState)).result.state.url).toBe(`${app.url}/about`)
      }).pipe(Effect.provide(liveLayer(testSettings({ appUrl: `${app.url}/docs` }))))
    }).pipe(Effect.scoped))

  it.live("list_tabs filters by a case-insensitive regex on URL or title, groups by role or host and orders within groups", () =>
    Effect.gen(function* () {
      const app = yield* pageServer(appPages)
      const appHost = new URL(app.url).host
      yield* ok(launch)
      yield* ok(navigate, { screen: "url", url: `${app.url}/docs`, newTab: true })
      yield* ok(navigate, { screen: "url", url: `${app.url}/about`, newTab: true })
      yield* ok(navigate, { screen: "popup" })

      const all = yield* ok(listTabs)
      expect(all.result.total).toBe(4)
      expect(all.result.groups.map((group: any) => group.key)).toEqual(["all"])
      // Opening order when no orderBy; the popup tab opened last is active.
      expect(all.result.groups[0].tabs.map((tab: any) => tab.title)).toEqual([
        "BWM Test Extension Popup",
        "Docs",
        "About us",
        "BWM Test Extension Popup"
      ])
      expect(all.result.text.split("\n")[0]).toBe("Found 4 tabs")
      const popupTab = all.result.groups[0].tabs[3]
      expect(all.result.text).toContain(`* ${popupTab.tabId} [extension] BWM Test Extension Popup ${homeUrl}`)

      const filtered = yield* ok(listTabs, { filter: "ABOUT|docs" })
      expect(filtered.result.groups[0].tabs.map((tab: any) => tab.url)).toEqual([`${app.url}/docs`, `${app.url}/about`])
      const byTitle = yield* ok(listTabs, { filter: "^about us$" })
      expect(byTitle.result.total).toBe(1)

      const byRole = yield* ok(listTabs, { groupBy: "role", orderBy: "title" })
      expect(byRole.result.groups.map((group: any) => [group.key, group.tabs.map((tab: any) => tab.title)])).toEqual([
        ["extension", ["BWM Test Extension Popup", "BWM Test Extension Popup"]],
        ["app", ["About us", "Docs"]]
      ])
      expect(byRole.result.text).toContain("## app (2)")

      const byHost = yield* ok(listTabs, { groupBy: "host", orderBy: "url" })
      expect(byHost.result.groups.map((group: any) => group.key)).toEqual([appHost, extensionId].sort())
      expect(byHost.result.groups.find((group: any) => group.key === appHost).tabs.map((tab: any) => tab.url)).toEqual([
        `${app.url}/about`,
        `${app.url}/docs`
      ])

      const none = yield* ok(listTabs, { filter: "nothing-like-this" })
      expect(none.result).toEqual({ total: 0, groups: [], text: "No tabs found matching the criteria." })

      const invalid = yield* call(listTabs, { filter: "([unclosed" })
      expect(invalid.error?.code).toBe("MM_INVALID_INPUT")
      expect(invalid.error?.details?.field).toBe("filter")
      expect(invalid.error?.message).toContain("not a valid regular expression")
    }).pipe(Effect.scoped, Effect.provide(extensionSession)))

  it.live("get_state reports the extension, navigate popup opens its popup page as a tab, and extension_storage reads with secrets redacted", () =>
    Effect.gen(function* () {
      yield* ok(launch)
      const state = yield* ok(getState)
      expect(state.result.extension).toEqual({ id: extensionId, name: "BWM Test Extension", version: "1.0.0", manifestVersion: 3 })

      const popup = yield* ok(navigate, { screen: "popup" })
      expect(popup.page?.url).toBe(homeUrl)
      const tabs = yield* ok(getState)
      expect(tabs.result.tabs.tracked.map((tab: any) => tab.role)).toEqual(["extension", "extension"])

      // onInstalled seeds storage shortly after the service worker starts.
      const local = yield* call(extensionStorage, {}).pipe(
        Effect.repeat({ until: (envelope) => envelope.result?.values?.ready === true, times: 50 }),
        Effect.delay("10 millis")
      )
      expect(local.result).toEqual({
        area: "local",
        keys: ["apiKey", "greeting", "profile", "ready"],
        values: { apiKey: "[REDACTED]", greeting: "hello", profile: { name: "Ada", password: "[REDACTED]" }, ready: true }
      })
      expect(JSON.stringify(local)).not.toContain("sk-test-secret")

      const some = yield* ok(extensionStorage, { keys: ["greeting", "missing"] })
      expect(some.result.values).toEqual({ greeting: "hello" })
      expect((yield* ok(extensionStorage, { area: "sync" })).result.values).toEqual({ theme: "dark" })
      expect((yield* ok(extensionStorage, { area: "session" })).result.values).toEqual({ step: "installed" })
      expect((yield* call(extensionStorage, { area: "managed" })).error?.code).toBe("MM_INVALID_INPUT")
    }).pipe(Effect.provide(extensionSession)))

  it.live("without an extension, get_state has no extension field and popup and extension_storage say no extension is loaded", () =>
    Effect.gen(function* () {
      yield* ok(launch)
      expect((yield* ok(getState)).result.extension).toBeUndefined()
      const popup = yield* call(navigate, { screen: "popup" })
      expect(popup.error?.code).toBe("MM_INVALID_CONFIG")
      expect(popup.error?.message).toContain("no extension is loaded")
      // extension_storage is not available without an extension: the gate says how to load one.
      const storage = yield* call(extensionStorage, {})
      expect(storage.error?.code).toBe("MM_TOOL_UNAVAILABLE")
      expect(storage.error?.message).toContain("needs a session with an extension loaded")
    }).pipe(Effect.provide(liveLayer(testSettings()))))
})
