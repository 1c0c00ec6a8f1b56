// Real Chromium with the test extension fixtures: launch checks, the popup as home, and the notification
// window that closes itself. Each test builds its own live layer, so its browser closes when the test ends.
import { realpathSync, rmSync, symlinkSync } from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { extensionIdFrom } from "../src/adapters/playwright/lifecycle/launch.js"
import { runTool } from "../src/runtime/runTool.js"
import { Session } from "../src/services/Session.js"
import { getState } from "../src/tools/discovery.js"
import { click, getText } from "../src/tools/interaction.js"
import { navigate } from "../src/tools/navigation.js"
import { launch } from "../src/tools/session.js"
import { liveLayer, TAB_ID, tempDir, testSettings } from "./support/browser.js"

const fixturesDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures")
const MV3_EXTENSION = path.join(fixturesDir, "extension-mv3")
const MV2_EXTENSION = path.join(fixturesDir, "extension-mv2")

/** The id Chromium gives the MV3 fixture when loaded from its real path. */
const mv3Id = () => extensionIdFrom(realpathSync(MV3_EXTENSION))

/** A scratch directory for the length of one test. */
const withScratchDir = <A, E, R>(use: (dir: string) => Effect.Effect<A, E, R>) =>
  Effect.acquireUseRelease(Effect.sync(() => tempDir("bwm-extension-test-")), use, (dir) =>
    Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
  )

describe("Chrome extension sessions", () => {
  it.live("the popup opened at launch is read only once the extension is ready: its stored greeting shows, 20 launches of 20", () =>
    // Each round has a browser of its own: two at a time, as two clients on one machine would launch.
    Effect.forEach(
      Array.from({ length: 20 }, (_, index) => index + 1),
      (round) =>
        Effect.gen(function* () {
          expect((yield* runTool(launch)({})).envelope.ok).toBe(true)
          const greeting = (yield* runTool(getText)({ testId: "popup-greeting", timeoutMs: 2_000 })).envelope.result?.text
          expect(greeting, `round ${round}`).toBe("Greeting: hello")
        }).pipe(Effect.provide(liveLayer(testSettings({ extension: MV3_EXTENSION }))), Effect.scoped),
      { concurrency: 2, discard: true }
    ), { timeout: 300_000 })

  it.live("launching with the MV3 extension reports the id derived from its real path and opens its popup as the active tab", () =>
    withScratchDir((dir) => {
      const linked = path.join(dir, "linked-extension")
      symlinkSync(MV3_EXTENSION, linked, "dir")
      return Effect.gen(function* () {
        const id = mv3Id()
        // The configured path is a symlink; the id must come from the directory it points to.
        expect(extensionIdFrom(linked)).not.toBe(id)

        const { envelope } = yield* runTool(launch)({})
        expect(envelope.error).toBeUndefined()
        expect(envelope.ok).toBe(true)
        expect(envelope.result?.extensionId).toBe(id)
        expect(envelope.result?.state.url).toBe(`chrome-extension://${id}/popup.html`)
        // The title proves Chromium really served the popup under that id (a wrong id shows an error page).
        expect(envelope.result?.state.title).toBe("BWM Test Extension Popup")

        const state = yield* runTool(getState)({})
        expect(state.envelope.result?.tabs.active).toEqual({ tabId: TAB_ID, role: "extension", url: `chrome-extension://${id}/popup.html` })
      }).pipe(Effect.provide(liveLayer(testSettings({ extension: linked }))))
    }))

  it.live("clicking a button in the extension popup works and the observation after the click shows the new count", () =>
    Effect.gen(function* () {
      const launched = yield* runTool(launch)({})
      expect(launched.envelope.ok).toBe(true)

      const first = yield* runTool(click)({ testId: "popup-increment" })
      expect(first.envelope.error).toBeUndefined()
      expect(first.envelope.result).toEqual({ clicked: true })
      expect(first.observation?.testIds).toContainEqual(expect.objectContaining({ testId: "popup-count", text: "1" }))
      // The agent reads the change as text: the count's new value.
      expect(first.envelope.snapshot).toMatch(/: 1$/m)

      yield* runTool(click)({ testId: "popup-increment" })
      const count = yield* runTool(getText)({ testId: "popup-count" })
      expect(count.envelope.result?.text).toBe("2")
    }).pipe(Effect.provide(liveLayer(testSettings({ extension: MV3_EXTENSION })))))

  it.live("launching with a Manifest V2 extension fails with MM_LAUNCH_FAILED saying Manifest V3 is required, and leaves no session behind", () =>
    Effect.gen(function* () {
      const { envelope } = yield* runTool(launch)({})
      expect(envelope.ok).toBe(false)
      expect(envelope.error?.code).toBe("MM_LAUNCH_FAILED")
      expect(envelope.error?.details).toEqual({ reason: "UnsupportedManifest" })
      expect(envelope.error?.message).toContain("Manifest V2")
      expect(envelope.error?.message).toContain("Manifest V3")
      expect(envelope.error?.message).toContain(realpathSync(MV2_EXTENSION))

      const session = yield* Session
      expect(Option.isNone(yield* session.current)).toBe(true)

      // Nothing half-started blocks the next launch.
      const retry = yield* runTool(launch)({ extensionPath: MV3_EXTENSION })
      expect(retry.envelope.error).toBeUndefined()
      expect(retry.envelope.result?.extensionId).toBe(mv3Id())
    }).pipe(Effect.provide(liveLayer(testSettings({ extension: MV2_EXTENSION })))))

  it.live("launching with a missing extension directory fails with MM_LAUNCH_FAILED naming the directory", () =>
    withScratchDir((dir) => {
      const missing = path.join(dir, "no-such-extension")
      return Effect.gen(function* () {
        const { envelope } = yield* runTool(launch)({})
        expect(envelope.ok).toBe(false)
        expect(envelope.error?.code).toBe("MM_LAUNCH_FAILED")
        expect(envelope.error?.details).toEqual({ reason: "ExtensionNotFound" })
        expect(envelope.error?.message).toContain(missing)

        const session = yield* Session
        expect(Option.isNone(yield* session.current)).toBe(true)
      }).pipe(Effect.provide(liveLayer(testSettings({ extension: missing }))))
    }))

  it.live("a notification page whose Confirm button closes it hands the active tab back to the extension home with a notice", () =>
    Effect.gen(function* () {
      const id = mv3Id()
      const homeUrl = `chrome-extension://${id}/popup.html`
      const notificationUrl = `chrome-extension://${id}/notification.html`
      expect((yield* runTool(launch)({})).envelope.ok).toBe(true)

      const opened = yield* runTool(navigate)({ screen: "notification" })
      expect(opened.envelope.error).toBeUndefined()
      expect(opened.envelope.result).toEqual({ navigated: true })
      expect(opened.envelope.page).toMatchObject({ url: notificationUrl, tab: TAB_ID })
      // Opening the tab was this call's own doing: no "new tab" notice.
      expect(opened.envelope.notices).toBeUndefined()

      const tabsWithNotification = yield* runTool(getState)({})
      expect(tabsWithNotification.envelope.result?.tabs.active).toEqual({ tabId: TAB_ID, role: "notification", url: notificationUrl })
      expect(tabsWithNotification.envelope.result?.tabs.tracked.map((tab) => tab.url).sort()).toEqual(
        [homeUrl, notificationUrl].sort()
      )

      const confirmed = yield* runTool(click)({ testId: "confirm" })
      expect(confirmed.envelope.error).toBeUndefined()
      expect(confirmed.envelope.result?.pageClosedAfterClick).toBe(true)
      // The tab closed during this call, so this call's response says where tools act now.
      expect(confirmed.envelope.notices).toEqual([
        `The active tab closed; tools now act on ${homeUrl} (extension).`
      ])
      expect(confirmed.envelope.page?.url).toBe(homeUrl)

      const after = yield* runTool(getState)({})
      expect(after.envelope.result?.state.url).toBe(homeUrl)
      expect(after.envelope.result?.tabs.active).toEqual({ tabId: TAB_ID, role: "extension", url: homeUrl })
      expect(after.envelope.result?.tabs.tracked.map((tab) => tab.url)).toEqual([homeUrl])
      // Notices are delivered once.
      expect(after.envelope.notices).toBeUndefined()
    }).pipe(Effect.provide(liveLayer(testSettings({ extension: MV3_EXTENSION })))))

  it.live("a notification window the extension opens itself is tracked as a notification tab and announced, while the active tab stays put", () =>
    Effect.gen(function* () {
      const id = mv3Id()
      const homeUrl = `chrome-extension://${id}/popup.html`
      const notificationUrl = `chrome-extension://${id}/notification.html`
      expect((yield* runTool(launch)({})).envelope.ok).toBe(true)

      // The popup asks the service worker, which opens the window with chrome.windows.create: it may land after the click returns.
      const asked = yield* runTool(click)({ testId: "popup-open-notification" })
      expect(asked.envelope.error).toBeUndefined()
      const notices = [...(asked.envelope.notices ?? [])]
      const { envelope } = yield* runTool(getState)({}).pipe(
        Effect.tap(({ envelope }) => notices.push(...(envelope.notices ?? []))),
        Effect.delay("100 millis"),
        Effect.repeat({ until: ({ envelope }) => (envelope.result?.tabs.tracked.length ?? 0) >= 2, times: 100 })
      )

      expect(notices).toEqual([`A new tab opened (page URL: "${notificationUrl}").`])
      expect(envelope.result?.tabs.tracked).toContainEqual(
        { tabId: TAB_ID, role: "notification", url: notificationUrl, title: "BWM Test Extension Notification", active: false }
      )
      expect(envelope.result?.tabs.active).toEqual({ tabId: TAB_ID, role: "extension", url: homeUrl })
    }).pipe(Effect.provide(liveLayer(testSettings({ extension: MV3_EXTENSION })))))
})
