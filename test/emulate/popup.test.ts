// A tab the page opens itself (a target=_blank link, window.open of a URL or of a blob) in real Chromium:
// its first inline script records what it sees and posts it to the opener over a BroadcastChannel (which
// works offline and without an opener). What the launch set (time zone, locale, viewport, user agent, the
// init scripts) and mm_emulate's offline and geolocation, which live on the context, are in force from that
// first script. mm_emulate's tab-level settings (colour scheme, time zone...) reach such a tab once it is
// open: docs/tools.md says so. A tab mm_navigate opens takes them all before its first script (an extension's
// popup: popup-extension.test.ts).
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { liveLayer, testSettings } from "../support/browser.js"
import { callsWith } from "../support/calls.js"
import { htmlPage, serveRoutes, type Served } from "../devtools/support.js"

/** The first inline script of every popup: what it sees, posted once geolocation answered (or failed). */
const probe = `<script>
  const seen = {
    scheme: matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light",
    online: navigator.onLine,
    timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    locale: Intl.DateTimeFormat().resolvedOptions().locale,
    viewport: innerWidth + "x" + innerHeight,
    agent: navigator.userAgent,
    init: String(window.__initMark),
    name: document.title
  }
  const post = (geo) => new BroadcastChannel("probe").postMessage({ ...seen, geo })
  navigator.geolocation.getCurrentPosition((p) => post(p.coords.latitude + "," + p.coords.longitude), (e) => post("error " + e.code), { timeout: 5000 })
</script>`

const popupHtml = (title: string) => `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${probe}</head><body>${title}</body></html>`

class Pages extends Context.Tag("test/PopupPages")<Pages, Served>() {}
const PagesLive = Layer.scoped(
  Pages,
  serveRoutes({
    "/opener": htmlPage(
      "Opener",
      `<a id="link" href="/popup?link" target="_blank">Open by link</a>
       <button id="open" onclick="window.open('/popup?open')">Open by window.open</button>
       <button id="blob" onclick="openBlob()">Open a blob</button>
       <script>
         window.reports = []
         new BroadcastChannel("probe").onmessage = (event) => window.reports.push(event.data)
         const blobHtml = ${JSON.stringify(popupHtml("blob")).replace(/</g, "\\x3c")}
         function openBlob() { window.open(URL.createObjectURL(new Blob([blobHtml], { type: "text/html" }))) }
       </script>`
    ),
    "/popup": { headers: { "content-type": "text/html" }, body: popupHtml("served") }
  })
)

const AGENT = "Mozilla/5.0 (X11; Linux x86_64) BWM-popup-test"
const settings = testSettings({
  caps: ["emulation", "evaluate"],
  timezone: "Asia/Tokyo",
  locale: "de-DE",
  viewportSize: { width: 640, height: 480 },
  userAgent: AGENT,
  initScripts: [{ file: "/virtual/mark.js", source: `window.__initMark = "init ran"` }]
})
const { ok } = callsWith(settings)

const inPage = (expression: string) => Effect.map(ok("mm_evaluate", { expression: `await (${expression})` }), (envelope) => envelope.result.value)

/** Clicks in the opener and answers the report of the popup it opened (the opener's tab active again). */
const openAndRead = (opener: string, selector: string) =>
  Effect.gen(function* () {
    yield* ok("mm_tabs", { action: "switch", url: opener })
    const before = (yield* inPage("window.reports.length")) as number
    yield* ok("mm_click", { selector })
    yield* ok("mm_tabs", { action: "switch", url: opener })
    yield* inPage(`new Promise((resolve) => { const wait = () => window.reports.length > ${before} ? resolve(true) : setTimeout(wait, 50); wait() })`)
    return (yield* inPage(`window.reports[${before}]`)) as Record<string, unknown>
  })

const launched = { timezone: "Asia/Tokyo", locale: "de-DE", viewport: "640x480", agent: AGENT, init: "init ran" }

describe("a tab the page opens starts under the session's environment", () => {
  layer(Layer.merge(liveLayer(settings), PagesLive), { timeout: 180_000, excludeTestServices: true })("popups", (it) => {
    it.effect("launch options, init scripts, mm_emulate's offline and geolocation are seen by a popup's first script", () =>
      Effect.gen(function* () {
        const pages = yield* Pages
        const opener = pages.url("/opener")
        yield* ok("mm_launch", { force: true })
        yield* ok("mm_navigate", { url: opener })
        yield* ok("mm_emulate", { geolocation: { latitude: 48.85, longitude: 2.35 } })

        for (const selector of ["#link", "#open", "#blob"]) {
          expect(yield* openAndRead(opener, selector), selector).toEqual({
            ...launched,
            scheme: "light",
            online: true,
            geo: "48.85,2.35",
            name: selector === "#blob" ? "blob" : "served"
          })
        }

        // Offline: a popup of a blob loads without the network and its first script sees it offline.
        yield* ok("mm_emulate", { offline: true })
        expect(yield* openAndRead(opener, "#blob")).toMatchObject({ ...launched, online: false, geo: "48.85,2.35" })
        yield* ok("mm_emulate", { offline: false })
        expect(yield* openAndRead(opener, "#open")).toMatchObject({ online: true, name: "served" })
      })
    )

    it.effect("mm_emulate's colour scheme reaches a popup once it is open; a tab mm_navigate opens has it from its first script", () =>
      Effect.gen(function* () {
        const pages = yield* Pages
        const opener = pages.url("/opener")
        yield* ok("mm_emulate", { colorScheme: "dark" })
        yield* openAndRead(opener, "#open")
        yield* ok("mm_tabs", { action: "switch", url: pages.url("/popup?open") })
        expect(yield* inPage(`matchMedia("(prefers-color-scheme: dark)").matches`)).toBe(true)

        // A tab the server opens waits for the emulation before loading its URL.
        yield* ok("mm_tabs", { action: "switch", url: opener })
        const before = (yield* inPage("window.reports.length")) as number
        yield* ok("mm_navigate", { url: pages.url("/popup?tab"), newTab: true })
        yield* ok("mm_tabs", { action: "switch", url: opener })
        yield* inPage(`new Promise((resolve) => { const wait = () => window.reports.length > ${before} ? resolve(true) : setTimeout(wait, 50); wait() })`)
        expect(yield* inPage(`window.reports[${before}]`)).toMatchObject({ ...launched, scheme: "dark", name: "served" })
        yield* ok("mm_emulate", { reset: true })
      })
    )
  })
})
