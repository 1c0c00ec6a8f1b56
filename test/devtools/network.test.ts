// mm_network_requests and mm_network_request in real Chromium: failed requests (a closed port, a 500),
// filters, one request's details with secret headers redacted and bodies cut, a bounded ring per tab,
// the capture from launch with --caps devtools (or from the first call without), inside mm_run_steps.
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Schedule } from "effect"
import { registryFor } from "../../src/cli.js"
import { Session } from "../../src/services/Session.js"
import { networkRequest, networkRequests } from "../../src/tools/devtools.js"
import { click } from "../../src/tools/interaction.js"
import { navigate } from "../../src/tools/navigation.js"
import { launch } from "../../src/tools/session.js"
import { NETWORK_PER_TAB } from "../../src/adapters/playwright/devtools/network.js"
import { liveLayer, testSettings } from "../support/browser.js"
import { call, closedPort, htmlPage, json, serveRoutes, type Served } from "./support.js"

interface NetPages extends Served {
  readonly closed: number
}
class Pages extends Context.Tag("test/NetworkPages")<Pages, NetPages>() {}

const PagesLive = Layer.scoped(
  Pages,
  Effect.gen(function* () {
    const closed = yield* closedPort()
    const served = yield* serveRoutes({
      "/net": htmlPage(
        "Network",
        `<button data-testid="post" onclick="fetch('/api/data', { method: 'POST', headers: { Authorization: 'Bearer s3cret', 'content-type': 'application/json', 'X-Trace': 'abc' }, body: JSON.stringify({ user: 'alice', password: 'hunter2' }) }).then((response) => response.json()).then(() => document.title = 'posted')">Post</button>
         <button data-testid="fail" onclick="fetch('/boom').then(() => document.title = 'failed')">500</button>
         <button data-testid="refused" onclick="fetch('http://127.0.0.1:${closed}/nothing').catch(() => document.title = 'refused')">Refused</button>
         <button data-testid="image" onclick="fetch('/pixel.png').then(() => document.title = 'image')">Image</button>`
      ),
      "/many": htmlPage(
        "Many",
        // 20 at a time up to the ring's size (fewer round trips on a busy machine), the last 20 one by one so the newest is known.
        `<script>(async () => {
           for (let i = 0; i < ${NETWORK_PER_TAB}; i += 20) await Promise.all(Array.from({ length: 20 }, (_, j) => fetch('/ping?i=' + (i + j))))
           for (let i = ${NETWORK_PER_TAB}; i < ${NETWORK_PER_TAB + 20}; i++) await fetch('/ping?i=' + i)
           document.title = 'done'
         })()</script>`
      ),
      "/api/data": (_request, body) =>
        json(
          { token: "t0ps3cret", echo: JSON.parse(body).user, items: Array.from({ length: 200 }, (_, i) => `item number ${i}`) },
          { headers: { "set-cookie": "session=abc123; HttpOnly", "x-served-by": "test" } }
        ),
      "/boom": { status: 500, headers: { "content-type": "text/plain" }, body: "server exploded" },
      "/pixel.png": { headers: { "content-type": "image/png" }, body: "\u0089PNG-not-really" },
      "/ping": { headers: { "content-type": "text/plain" }, body: "pong" }
    })
    return { ...served, closed }
  })
)

const requestsOf = (args: Record<string, unknown> = {}) =>
  Effect.map(call(networkRequests, args), (envelope) => {
    expect(envelope.ok).toBe(true)
    return envelope.result as { tabId: string; requests: Array<any>; dropped?: number; more?: number; startedNow?: boolean }
  })

/** Waits until the active tab's title says the page's fetch settled. */
const titled = (title: string) =>
  Effect.flatMap(Session, (session) =>
    session.evaluate("document.title", { maxChars: 100 }).pipe(
      Effect.repeat({ schedule: Schedule.spaced("50 millis"), until: (result) => result.value === title }),
      Effect.timeout("15 seconds")
    )
  )

const open = (path: string) =>
  Effect.gen(function* () {
    const pages = yield* Pages
    if ((yield* Effect.flatMap(Session, (session) => session.current))._tag === "None") expect((yield* call(launch)).ok).toBe(true)
    expect((yield* call(navigate, { screen: "url", url: pages.url(path) })).ok).toBe(true)
  })

const clickAndWait = (testId: string, title: string) =>
  Effect.gen(function* () {
    expect((yield* call(click, { testId })).ok).toBe(true)
    yield* titled(title)
  })

describe("mm_network_requests in real Chromium", () => {
  layer(Layer.merge(liveLayer(testSettings({ caps: ["devtools"] })), PagesLive), { timeout: 120_000, excludeTestServices: true })(
    "with --caps devtools",
    (it) => {
      it.effect("lists a tab's requests from the first one, with status, type, time and the failure of one that got no response", () =>
        Effect.gen(function* () {
          const pages = yield* Pages
          yield* open("/net")
          yield* clickAndWait("post", "posted")
          yield* clickAndWait("fail", "failed")
          yield* clickAndWait("refused", "refused")
          const { tabId, requests, startedNow, dropped } = yield* requestsOf()
          expect(tabId).toBe("t1")
          expect(startedNow).toBeUndefined()
          expect(dropped).toBeUndefined()
          const byUrl = (url: string) => requests.find((request) => request.url === url)
          expect(byUrl(pages.url("/net"))).toMatchObject({ method: "GET", type: "document", status: 200 })
          expect(byUrl(pages.url("/api/data"))).toMatchObject({ method: "POST", type: "fetch", status: 200 })
          expect(byUrl(pages.url("/boom"))).toMatchObject({ type: "fetch", status: 500 })
          const refused = byUrl(`http://127.0.0.1:${pages.closed}/nothing`)
          expect(refused.status).toBeUndefined()
          expect(refused.failure).toBe("net::ERR_CONNECTION_REFUSED")
          for (const request of requests) {
            expect(request.id).toMatch(/^r\d+$/)
            expect(request.ms).toBeGreaterThanOrEqual(0)
          }
        }))

      it.effect("filters by failures, status, method and URL (glob or substring)", () =>
        Effect.gen(function* () {
          const pages = yield* Pages
          const urls = (args: Record<string, unknown>) => Effect.map(requestsOf(args), (reading) => reading.requests.map((request) => request.url))
          expect(yield* urls({ failedOnly: true })).toEqual([pages.url("/boom"), `http://127.0.0.1:${pages.closed}/nothing`])
          expect(yield* urls({ status: 500 })).toEqual([pages.url("/boom")])
          expect(yield* urls({ method: "post" })).toEqual([pages.url("/api/data")])
          expect(yield* urls({ urlPattern: "**/api/*" })).toEqual([pages.url("/api/data")])
          expect(yield* urls({ urlPattern: "BOOM" })).toEqual([pages.url("/boom")])
          expect(yield* urls({ urlPattern: "http://127.0.0.1:*/net" })).toEqual([pages.url("/net")])
          const limited = yield* requestsOf({ limit: 1 })
          expect(limited.requests).toHaveLength(1)
          expect(limited.more).toBe(3)
        }))

      it.effect("one request's details: secret headers redacted, secret body fields redacted, the body cut to bodyChars, timing", () =>
        Effect.gen(function* () {
          const pages = yield* Pages
          const post = (yield* requestsOf({ method: "POST" })).requests[0]
          const details = yield* call(networkRequest, { id: post.id, bodyChars: 300 })
          expect(details.ok).toBe(true)
          const result = details.result
          // The id is the caller's own and is not echoed.
          expect(result.id).toBeUndefined()
          expect(result).toMatchObject({ tabId: "t1", method: "POST", url: pages.url("/api/data"), status: 200, statusText: "OK" })
          expect(result.requestHeaders.authorization).toBe("[REDACTED]")
          expect(result.requestHeaders["x-trace"]).toBe("abc")
          expect(JSON.parse(result.requestBody)).toEqual({ user: "alice", password: "[REDACTED]" })
          expect(result.responseHeaders["set-cookie"]).toBe("[REDACTED]")
          expect(result.responseHeaders["x-served-by"]).toBe("test")
          expect(result.responseBody.startsWith('{"token":"[REDACTED]","echo":"alice","items":["item number 0"')).toBe(true)
          expect(result.responseBody).toMatch(/…\[cut: \d+ more characters\]$/)
          expect(result.responseBody.length).toBeLessThan(360)
          expect(JSON.stringify(result)).not.toContain("s3cret")
          expect(JSON.stringify(result)).not.toContain("hunter2")
          expect(JSON.stringify(result)).not.toContain("abc123")
          expect(result.timing.totalMs).toBeGreaterThanOrEqual(0)
          expect(result.pending).toBeUndefined()
        }))

      it.effect("a failed request's details carry the failure and no response; a binary body is described, not shown; an unknown id is MM_REQUEST_NOT_FOUND", () =>
        Effect.gen(function* () {
          yield* clickAndWait("image", "image")
          const failed = (yield* requestsOf({ failedOnly: true })).requests.find((request) => request.failure !== undefined)
          const details = (yield* call(networkRequest, { id: failed.id })).result
          expect(details.failure).toBe("net::ERR_CONNECTION_REFUSED")
          expect(details.responseHeaders).toBeUndefined()
          expect(details.responseBody).toBeUndefined()
          const image = (yield* requestsOf({ urlPattern: "pixel" })).requests[0]
          const imageDetails = (yield* call(networkRequest, { id: image.id })).result
          expect(imageDetails.responseBody).toBeUndefined()
          expect(imageDetails.notes).toEqual([expect.stringMatching(/^response body: .*image\/png, not shown \(not text\)$/)])
          // The page never read the 500's body: it is not complete, and the answer says so instead of waiting.
          const unread = (yield* requestsOf({ status: 500 })).requests[0]
          const unreadDetails = (yield* call(networkRequest, { id: unread.id })).result
          expect(unreadDetails).toMatchObject({ status: 500, pending: true, notes: ["response body: not complete yet (the page has not read all of it)"] })
          const unknown = yield* call(networkRequest, { id: "r99999" })
          expect(unknown.error.code).toBe("MM_REQUEST_NOT_FOUND")
          const malformed = yield* call(networkRequest, { id: "12" })
          expect(malformed.error).toMatchObject({ code: "MM_INVALID_INPUT", details: { field: "id" } })
        }))

      it.effect("each tab keeps its newest requests and counts the ones it let go; another tab's requests are its own", () =>
        Effect.gen(function* () {
          const pages = yield* Pages
          const { url } = pages
          expect((yield* call(navigate, { screen: "url", url: url("/many"), newTab: true })).ok).toBe(true)
          yield* titled("done")
          const reading = yield* requestsOf({ limit: 300 })
          expect(reading.tabId).toBe("t2")
          expect(reading.requests).toHaveLength(NETWORK_PER_TAB)
          // The document and 320 fetches (a new tab's first load is captured too): 21 let go.
          expect(reading.dropped).toBe(21)
          expect(reading.requests.at(-1).url).toBe(url(`/ping?i=${NETWORK_PER_TAB + 19}`))
          const first = yield* requestsOf({ tabId: "t1" })
          expect(first.requests.some((request) => request.url.includes("/ping"))).toBe(false)
        }))

      it.effect("inside mm_run_steps", () =>
        Effect.gen(function* () {
          const runSteps = registryFor(testSettings()).lookup("mm_run_steps")!
          const envelope = yield* call(runSteps, {
            steps: [
              { tool: "mm_network_requests", args: { tabId: "t1", failedOnly: true } },
              { tool: "mm_network_requests", args: { tabId: "t1", status: 500 } }
            ],
            includeObservations: "none"
          })
          expect(envelope.ok).toBe(true)
          expect(envelope.result.steps[0].result.requests).toHaveLength(2)
          expect(envelope.result.steps[1].result.requests.map((request: any) => request.status)).toEqual([500])
        }))
    }
  )

  layer(Layer.merge(liveLayer(testSettings()), PagesLive), { timeout: 120_000, excludeTestServices: true })("without --caps devtools", (it) => {
    it.effect("nothing is captured until the first call, which says so; from then on requests are captured", () =>
      Effect.gen(function* () {
        const pages = yield* Pages
        yield* open("/net")
        const first = yield* requestsOf()
        expect(first).toMatchObject({ tabId: "t1", startedNow: true })
        expect(first.requests).toBeUndefined()
        yield* clickAndWait("fail", "failed")
        const second = yield* requestsOf()
        expect(second.startedNow).toBeUndefined()
        expect(second.requests).toEqual([expect.objectContaining({ url: pages.url("/boom"), status: 500 })])
      }))
  })
})
