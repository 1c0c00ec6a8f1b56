// An extension's popup opened by mm_navigate {screen: "popup"} in real Chromium (the probe fixture, MV3): its
// first classic script and its first module script record what they see. Each round sets another emulation
// and opens the popup in a new tab: both scripts see the whole of it, also offline, and the tab has one
// history entry (Back has nowhere to go, window.close() closes it). Changes made once the popup is open
// reach it too.
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { liveLayer, testSettings } from "../support/browser.js"
import { callsWith } from "../support/calls.js"

const PROBE = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "extension-probe")
const POPUP = /^chrome-extension:\/\/[a-p]{32}\/popup\.html$/
const ROUNDS = 16

const settings = testSettings({
  caps: ["emulation", "evaluate"],
  extension: PROBE,
  initScripts: [{ file: "/virtual/mark.js", source: `window.__initMark = "init ran"` }]
})
const { call, ok } = callsWith(settings)

const inPage = (expression: string) => Effect.map(ok("mm_evaluate", { expression: `await (${expression})` }), (envelope) => envelope.result.value)

/** How many tabs the session has open. */
const tabCount = Effect.map(ok("mm_tabs", { action: "list" }), (envelope) => Number(/^Found (\d+) tabs?/.exec(envelope.result.tabs)?.[1]))

/** Two environments the rounds alternate between, and what a script sees under each. */
const environments = [
  {
    set: { colorScheme: "dark", reducedMotion: "reduce", timezone: "Asia/Tokyo", locale: "fr-FR", viewport: { width: 500, height: 400 }, device: "Pixel 7", offline: true },
    seen: { scheme: "dark", motion: "reduce", timezone: "Asia/Tokyo", locale: "fr-FR", viewport: "500x400", online: false, init: "init ran" },
    agent: "Pixel 7"
  },
  {
    set: { colorScheme: "light", reducedMotion: "no-preference", timezone: "America/New_York", locale: "ja-JP", viewport: { width: 720, height: 520 }, offline: false },
    seen: { scheme: "light", motion: "no-preference", timezone: "America/New_York", locale: "ja-JP", viewport: "720x520", online: true, init: "init ran" },
    agent: "HeadlessChrome"
  }
] as const

describe("an extension popup the server opens runs its first script under the session's emulation", () => {
  layer(liveLayer(settings), { timeout: 300_000, excludeTestServices: true })("popup", (it) => {
    it.effect(`every setting of mm_emulate is seen by the popup's first classic and module script, ${ROUNDS} rounds`, () =>
      Effect.gen(function* () {
        yield* ok("mm_launch", { force: true })
        yield* ok("mm_emulate", { geolocation: { latitude: 48.85, longitude: 2.35 } })
        for (let round = 1; round <= ROUNDS; round++) {
          const environment = environments[round % 2]!
          yield* ok("mm_emulate", { reset: ["device"], ...environment.set })
          const opened = yield* ok("mm_navigate", { screen: "popup" })
          expect(opened.page?.url, `round ${round}`).toMatch(POPUP)
          const seen = (yield* inPage(`Promise.all([firstScript, firstModule, firstPosition])`)) as [Record<string, unknown>, Record<string, unknown>, string]
          for (const script of seen.slice(0, 2) as Array<Record<string, unknown>>) {
            expect(script, `round ${round}`).toMatchObject(environment.seen)
            expect(script.agent, `round ${round}`).toContain(environment.agent)
          }
          expect(seen[2], `round ${round}`).toBe("48.85,2.35")
          yield* ok("mm_tabs", { action: "close", url: opened.page!.url })
        }
        yield* ok("mm_emulate", { reset: true })
      })
    )

    it.effect("the popup's tab has one history entry: Back has no page to go to and window.close() closes it", () =>
      Effect.gen(function* () {
        yield* ok("mm_emulate", { colorScheme: "dark" })
        yield* ok("mm_navigate", { screen: "popup" })
        expect(yield* inPage("history.length")).toBe(1)
        const back = yield* call("mm_navigate", { screen: "back" })
        expect(back.error?.message).toContain("no previous page")
        const before = yield* tabCount
        yield* ok("mm_click", { testId: "close" })
        expect(yield* tabCount).toBe(before - 1)
        yield* ok("mm_emulate", { reset: true })
      })
    )

    it.effect("mm_emulate's changes made once the popup is open reach it", () =>
      Effect.gen(function* () {
        yield* ok("mm_navigate", { screen: "popup" })
        expect(yield* inPage("probeEnvironment()")).toMatchObject({ scheme: "light", motion: "no-preference", online: true, viewport: "1280x800" })
        for (const environment of environments) {
          yield* ok("mm_emulate", { reset: ["device"], ...environment.set })
          const now = (yield* inPage("probeEnvironment()")) as Record<string, unknown>
          expect(now).toMatchObject(environment.seen)
          expect(now.agent).toContain(environment.agent)
        }
        yield* ok("mm_emulate", { reset: true })
        expect(yield* inPage("probeEnvironment()")).toMatchObject({ scheme: "light", motion: "no-preference", online: true, viewport: "1280x800" })
      })
    )
  })
})
