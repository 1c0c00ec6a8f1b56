// mm_emulate in real Chromium, each setting observed by the page itself: offline (navigator.onLine, a
// failing fetch), network and CPU throttling (a timed fetch and a timed loop, compared as ratios to the
// same work unthrottled, never to a clock), media features (matchMedia), geolocation, viewport and device,
// time zone and locale (Intl); a tab opened later takes what is in force; reset; a time zone the launch
// fixed is refused naming --timezone, a device's scale, touch and mobile mode are said to need --device. Then the emulation replays in a fresh browser and exports to Playwright.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { liveLayer, testSettings } from "../support/browser.js"
import { callsWith } from "../support/calls.js"
import { htmlPage, serveRoutes, type Served } from "../devtools/support.js"
import { REPO_ROOT, runPlaywrightTests, writePlaywrightConfig } from "../support/playwright-runner.js"

class Pages extends Context.Tag("test/EmulatePages")<Pages, Served>() {}
const PagesLive = Layer.scoped(
  Pages,
  serveRoutes({
    "/page": htmlPage("Emulate", `<h1>Environment</h1>`),
    "/check": htmlPage(
      "Check",
      `<button>Check</button><p id="status">unchecked</p>
       <script>
         document.querySelector("button").addEventListener("click", () => {
           const scheme = matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light"
           document.getElementById("status").textContent = [scheme, Intl.DateTimeFormat().resolvedOptions().timeZone, navigator.onLine ? "online" : "offline", innerWidth].join(" ")
         })
       </script>`
    ),
    "/data": { headers: { "content-type": "application/octet-stream" }, body: "x".repeat(100_000) }
  })
)

const settings = testSettings({ caps: ["emulation", "evaluate"] })
const { call, ok } = callsWith(settings)

/** What an expression gives in the active page (mm_evaluate). */
const inPage = (expression: string) => Effect.map(ok("mm_evaluate", { expression: `await (${expression})` }), (envelope) => envelope.result.value)

/** The page's own measure of a 100 KB fetch, in ms. */
const timedFetch = inPage(`(async () => { const t = performance.now(); await (await fetch("/data?" + Math.random())).arrayBuffer(); return performance.now() - t })()`)

/** The page's own measure of a fixed loop, in ms. */
const timedLoop = inPage(`(() => { const t = performance.now(); let x = 0; for (let i = 0; i < 2e7; i++) x += i % 7; return performance.now() - t })()`)

describe("mm_emulate in real Chromium", () => {
  layer(Layer.merge(liveLayer(settings), PagesLive), { timeout: 180_000, excludeTestServices: true })("on a served page", (it) => {
    it.effect("offline: navigator.onLine is false and fetches fail; offline false brings the network back", () =>
      Effect.gen(function* () {
        const pages = yield* Pages
        yield* ok("mm_launch", { force: true })
        yield* ok("mm_navigate", { url: pages.url("/page") })
        expect(yield* inPage("navigator.onLine")).toBe(true)
        const offline = yield* ok("mm_emulate", { offline: true })
        expect(offline.result).toEqual({ emulating: { offline: true } })
        expect(yield* inPage("navigator.onLine")).toBe(false)
        expect(yield* inPage(`fetch("/data").then(() => "loaded", () => "failed")`)).toBe("failed")
        const online = yield* ok("mm_emulate", { offline: false })
        expect(online.result).toEqual({ emulating: {} })
        expect(yield* inPage("navigator.onLine")).toBe(true)
      })
    )

    it.effect("network throttling makes the page's own timed fetch slower by far, in this tab and in one opened later", () =>
      Effect.gen(function* () {
        const pages = yield* Pages
        yield* timedFetch // warm the connection
        const plain = Math.max(yield* timedFetch, yield* timedFetch)
        yield* ok("mm_emulate", { network: { latencyMs: 600, downloadKbps: 800, uploadKbps: 800 } })
        const throttled = yield* timedFetch
        expect(throttled).toBeGreaterThan(3 * plain)
        // A tab opened after the call is throttled too.
        yield* ok("mm_navigate", { url: pages.url("/page"), newTab: true })
        const inNewTab = yield* timedFetch
        yield* ok("mm_emulate", { reset: ["network"] })
        const after = Math.max(yield* timedFetch, yield* timedFetch)
        expect(inNewTab).toBeGreaterThan(3 * after)
        expect(throttled).toBeGreaterThan(3 * after)
      })
    )

    it.effect("CPU throttling makes the page's own timed loop slower than the same loop unthrottled", () =>
      Effect.gen(function* () {
        // Chromium's throttling adds (rate - 1) times the loop's CPU time, whatever else the machine runs; a loaded
        // machine slows the plain loop too (by its share of a core), so the rate is the highest and each figure the
        // best of a few: throttled / plain stays above 1 + 19 x that share.
        const best = Effect.map(Effect.all([timedLoop, timedLoop, timedLoop]), (times) => Math.min(...times))
        yield* timedLoop
        const plain = yield* best
        yield* ok("mm_emulate", { cpuThrottling: 20 })
        const throttled = Math.min(yield* timedLoop, yield* timedLoop)
        yield* ok("mm_emulate", { cpuThrottling: 1 })
        const after = yield* best
        expect(throttled).toBeGreaterThan(2 * plain)
        expect(throttled).toBeGreaterThan(2 * after)
      })
    )

    it.effect("color scheme, reduced motion, geolocation, viewport, time zone and locale in one call, seen by the page; then a reset", () =>
      Effect.gen(function* () {
        const answer = yield* ok("mm_emulate", {
          colorScheme: "dark",
          reducedMotion: "reduce",
          geolocation: { latitude: 48.8584, longitude: 2.2945 },
          viewport: { width: 500, height: 400 },
          timezone: "Asia/Tokyo",
          locale: "de-DE"
        })
        expect(answer.result.emulating).toEqual({
          colorScheme: "dark",
          reducedMotion: "reduce",
          geolocation: { latitude: 48.8584, longitude: 2.2945 },
          viewport: { width: 500, height: 400 },
          timezone: "Asia/Tokyo",
          locale: "de-DE"
        })
        expect(answer.result.notApplied).toBeUndefined()
        expect(yield* inPage(`matchMedia("(prefers-color-scheme: dark)").matches && matchMedia("(prefers-reduced-motion: reduce)").matches`)).toBe(true)
        expect(
          yield* inPage(`new Promise((resolve, reject) => navigator.geolocation.getCurrentPosition((p) => resolve([p.coords.latitude, p.coords.longitude]), (e) => reject(new Error(e.message))))`)
        ).toEqual([48.8584, 2.2945])
        expect(yield* inPage("[innerWidth, innerHeight]")).toEqual([500, 400])
        expect(yield* inPage("Intl.DateTimeFormat().resolvedOptions().timeZone")).toBe("Asia/Tokyo")
        expect(yield* inPage("(1234.5).toLocaleString()")).toBe("1.234,5")

        const reset = yield* ok("mm_emulate", { reset: true })
        expect(reset.result).toEqual({ emulating: {} })
        expect(yield* inPage(`matchMedia("(prefers-color-scheme: dark)").matches`)).toBe(false)
        expect(yield* inPage("innerWidth")).toBe(1280)
        expect(yield* inPage("Intl.DateTimeFormat().resolvedOptions().timeZone")).not.toBe("Asia/Tokyo")
        expect(yield* inPage("(1234.5).toLocaleString()")).not.toBe("1.234,5")
        expect(yield* inPage(`navigator.permissions.query({ name: "geolocation" }).then((p) => p.state)`)).not.toBe("granted")
      })
    )

    it.effect("a named device sets its viewport and user agent; an unknown one is MM_INVALID_INPUT naming close names", () =>
      Effect.gen(function* () {
        const before = yield* inPage("navigator.userAgent")
        const answer = yield* ok("mm_emulate", { device: "pixel 7" })
        expect(answer.result.emulating).toEqual({ device: "Pixel 7" })
        expect(answer.result.notApplied).toEqual(['device: its scale factor 2.625, touch and mobile mode need a new session started with --device "Pixel 7"'])
        expect(yield* inPage("innerWidth")).toBe(412)
        expect(yield* inPage("navigator.userAgent")).toContain("Pixel 7")
        yield* ok("mm_emulate", { reset: ["device"] })
        expect(yield* inPage("innerWidth")).toBe(1280)
        expect(yield* inPage("navigator.userAgent")).toBe(before)
        const unknown = yield* call("mm_emulate", { device: "Pixle 7" })
        expect(unknown.error?.code).toBe("MM_INVALID_INPUT")
        expect(unknown.error?.message).toContain('"Pixle 7" is not in Playwright\'s device list; closest: "Pixel 7"')
        expect(unknown.error?.message).not.toMatch(/\bis is\b/)
      })
    )
  })

  layer(Layer.merge(liveLayer(testSettings({ caps: ["emulation", "evaluate"], timezone: "Europe/Berlin", device: "Pixel 7" })), PagesLive), {
    timeout: 120_000,
    excludeTestServices: true
  })("a session launched with --timezone and --device", (it) => {
    it.effect("a time zone alone is refused with MM_EMULATION_FAILED naming --timezone; with another setting it is listed in notApplied", () =>
      Effect.gen(function* () {
        const pages = yield* Pages
        yield* ok("mm_launch", { force: true })
        yield* ok("mm_navigate", { url: pages.url("/page") })
        const refused = yield* call("mm_emulate", { timezone: "Asia/Tokyo" })
        expect(refused.error?.code).toBe("MM_EMULATION_FAILED")
        expect(refused.error?.message).toContain('needs a new session started with --timezone "Asia/Tokyo"')
        const partly = yield* ok("mm_emulate", { timezone: "Asia/Tokyo", colorScheme: "dark" })
        expect(partly.result.emulating).toEqual({ colorScheme: "dark" })
        expect(partly.result.notApplied).toEqual([expect.stringContaining("timezone: needs a new session started with --timezone")])
        expect(yield* inPage("Intl.DateTimeFormat().resolvedOptions().timeZone")).toBe("Europe/Berlin")
        expect(yield* inPage(`matchMedia("(prefers-color-scheme: dark)").matches`)).toBe(true)
      })
    )

    it.effect("a device is said to need a new session for what its scale, touch and mobile mode differ from the launch's, also a desktop one after a phone", () =>
      Effect.gen(function* () {
        const desktop = yield* ok("mm_emulate", { device: "Desktop Chrome" })
        expect(desktop.result.notApplied).toEqual(['device: its scale factor 1, no touch and desktop mode need a new session started with --device "Desktop Chrome"'])
        expect(yield* inPage("innerWidth")).toBe(1280)
        expect(yield* inPage("devicePixelRatio")).toBe(2.625)
        // The launch's own device: nothing it cannot take.
        const same = yield* ok("mm_emulate", { device: "Pixel 7" })
        expect(same.result.emulating).toMatchObject({ device: "Pixel 7" })
        expect(same.result.notApplied).toBeUndefined()
        expect(yield* inPage("navigator.userAgent")).toContain("Pixel 7")
      })
    )
  })

  layer(Layer.merge(liveLayer(testSettings({ caps: ["emulation"] })), PagesLive), { timeout: 180_000, excludeTestServices: true })("replay and export", (it) => {
    it.effect("a recorded emulation replays in a fresh browser, and its Playwright export passes under npx playwright test", () =>
      Effect.gen(function* () {
        const pages = yield* Pages
        const launched = yield* ok("mm_launch", { force: true, goal: "check the page in the dark, in Tokyo, offline" })
        const sessionId = launched.result.sessionId as string
        yield* ok("mm_navigate", { url: pages.url("/check") })
        yield* ok("mm_emulate", {
          colorScheme: "dark",
          timezone: "Asia/Tokyo",
          viewport: { width: 600, height: 500 },
          network: "fast-4g",
          cpuThrottling: 2,
          geolocation: { latitude: 35.68, longitude: 139.76 }
        })
        yield* ok("mm_emulate", { offline: true })
        yield* ok("mm_click", { selector: "button" })
        const read = yield* ok("mm_get_text", { selector: "#status" })
        expect(read.result.text).toBe("dark Asia/Tokyo offline 600")

        const exported = (yield* ok("mm_knowledge", { session: sessionId, export: "playwright" })).result.content as string
        expect(exported).toContain(`await page.emulateMedia({ colorScheme: "dark" })`)
        expect(exported).toContain(`await cdp.send("Emulation.setTimezoneOverride", { timezoneId: "Asia/Tokyo" })`)
        expect(exported).toContain(`await page.context().setOffline(true)`)
        expect(exported).toContain(`await page.setViewportSize({"width":600,"height":500})`)
        expect(exported).toContain(`await cdp.send("Network.emulateNetworkConditions", {"offline":false,"latency":165,"downloadThroughput":1012500,"uploadThroughput":168750})`)
        expect(exported).toContain(`await cdp.send("Emulation.setCPUThrottlingRate", { rate: 2 })`)
        expect(exported).toContain(`await page.context().setGeolocation({"latitude":35.68,"longitude":139.76})`)

        // A fresh browser: the replay launches one and applies the emulation as recorded; the read is checked.
        yield* ok("mm_cleanup")
        const replayed = yield* ok("mm_replay", { sessionId, keepSession: true })
        expect(replayed.result.summary).toMatchObject({ ok: true, total: 7, succeeded: 7 })
        const again = yield* ok("mm_get_text", { selector: "#status" })
        expect(again.result.text).toBe("dark Asia/Tokyo offline 600")
        yield* ok("mm_cleanup")

        const dir = path.join(REPO_ROOT, "test-artifacts", `emulate-specs-${process.pid}`)
        fs.mkdirSync(dir, { recursive: true })
        fs.writeFileSync(path.join(dir, "emulate.spec.ts"), exported)
        const config = writePlaywrightConfig(dir)
        const run = yield* runPlaywrightTests(config)
        expect(run.status, `${run.output}\n${exported}`).toBe(0)
        expect(run.output).toMatch(/1 passed/)
        fs.rmSync(dir, { recursive: true, force: true })
      })
    )
  })
})
