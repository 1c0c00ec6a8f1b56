// mm_performance in real Chromium: the active page's navigation and paint timing and the resources it
// loaded, read from its Performance API; a reload says so; nothing to read before a launch.
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Schedule } from "effect"
import { navigate } from "../../src/tools/navigation.js"
import { performance } from "../../src/tools/performance.js"
import { launch } from "../../src/tools/session.js"
import { liveLayer, testSettings } from "../support/browser.js"
import { call, htmlPage, serveRoutes, type Served } from "./support.js"

class Pages extends Context.Tag("test/PerformancePages")<Pages, Served>() {}

const PagesLive = Layer.scoped(
  Pages,
  serveRoutes({
    "/timed": htmlPage("Timed", `<h1>Loaded</h1><p>Some text to paint.</p><img src="/pixel.svg" alt="pixel"><script src="/app.js"></script>`),
    "/pixel.svg": { headers: { "content-type": "image/svg+xml" }, body: `<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>` },
    "/app.js": { headers: { "content-type": "text/javascript" }, body: `document.title = "ran"` }
  })
)

/** mm_performance once the load event has ended (it may end a moment after the navigation returns). */
const timingAfterLoad = call(performance).pipe(
  Effect.filterOrFail((envelope) => envelope.result?.navigation?.load !== undefined, () => "still loading"),
  Effect.retry(Schedule.spaced("100 millis").pipe(Schedule.intersect(Schedule.recurs(50))))
)

describe("mm_performance", () => {
  layer(Layer.merge(liveLayer(testSettings({ caps: ["devtools"] })), PagesLive), { timeout: 120_000, excludeTestServices: true })("on a served page", (it) => {
    it.effect("reports the navigation's first byte, DOMContentLoaded and load in order, its bytes, and the resources it loaded", () =>
      Effect.gen(function* () {
        const pages = yield* Pages
        expect((yield* call(launch)).ok).toBe(true)
        expect((yield* call(navigate, { screen: "url", url: pages.url("/timed") })).ok).toBe(true)
        const { result } = yield* timingAfterLoad
        expect(result.url).toBe(pages.url("/timed"))
        expect(result.navigation.type).toBe("navigate")
        expect(result.navigation.responseStart).toBeGreaterThanOrEqual(0)
        expect(result.navigation.domContentLoaded).toBeGreaterThanOrEqual(result.navigation.responseStart)
        expect(result.navigation.load).toBeGreaterThanOrEqual(result.navigation.domContentLoaded)
        // Served with no-store: the document came over the network.
        expect(result.navigation.transferBytes).toBeGreaterThan(0)
        // At least the image and the script (the browser may count more of its own).
        expect(result.resources.count).toBeGreaterThanOrEqual(2)
        expect(result.resources.transferBytes).toBeGreaterThan(0)
        if (result.firstContentfulPaint !== undefined) expect(result.firstContentfulPaint).toBeGreaterThanOrEqual(result.firstPaint ?? 0)
      })
    )

    it.effect("after a reload the navigation is a reload", () =>
      Effect.gen(function* () {
        expect((yield* call(navigate, { screen: "reload" })).ok).toBe(true)
        const { result } = yield* timingAfterLoad
        expect(result.navigation.type).toBe("reload")
      })
    )
  })

  layer(liveLayer(testSettings({ caps: ["devtools"] })), { timeout: 60_000, excludeTestServices: true })("without a session", (it) => {
    it.effect("answers MM_NO_ACTIVE_SESSION", () =>
      Effect.gen(function* () {
        const envelope = yield* call(performance)
        expect(envelope.error?.code).toBe("MM_NO_ACTIVE_SESSION")
      })
    )
  })
})
