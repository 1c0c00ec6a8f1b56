// mm_mock_network in real Chromium: a page that fetches /api/items gets the mock, a request no rule
// answers is in the log as a miss, rules survive navigations and apply to every tab, method rules,
// aborts, remove and clear, a URL the policy blocks is never answered by a mock, inside mm_run_steps,
// and the export of a mock as a Playwright route that runs.
import * as fs from "node:fs"
import { describe, expect, it, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option, Ref, Runtime, Schedule } from "effect"
import { chromium } from "playwright"
import * as Mocks from "../../src/adapters/playwright/devtools/mocks.js"
import type { LiveSession } from "../../src/adapters/playwright/lifecycle/live-session.js"
import { EXECUTABLE_CANDIDATES, LOOPBACK_ARGS } from "../../src/adapters/playwright/lifecycle/launch.js"
import { registryFor } from "../../src/cli.js"
import { KnowledgeStore } from "../../src/services/KnowledgeStore.js"
import { Session } from "../../src/services/Session.js"
import { mockNetwork, networkRequests } from "../../src/tools/devtools.js"
import { navigate } from "../../src/tools/navigation.js"
import { knowledgeExport } from "../../src/tools/knowledge.js"
import { launch } from "../../src/tools/session.js"
import { liveLayer, testSettings } from "../support/browser.js"
import { call, htmlPage, json, serveRoutes, type Served } from "./support.js"

const settings = testSettings({ caps: ["devtools"] })

/** A plain Playwright browser on the system's Chromium, with the loopback guards. */
const launchPlain = () => {
  const executablePath = EXECUTABLE_CANDIDATES.find((candidate) => fs.existsSync(candidate))
  return chromium.launch({ headless: true, args: [...LOOPBACK_ARGS], ...(executablePath ? { executablePath } : {}) })
}

/** Fetches /api/items and /api/other and shows what came back; the title says when both settled. */
const shopPage = htmlPage(
  "Shop",
  `<ul id="items"></ul><p id="other"></p>
   <script>
     Promise.all([
       fetch("/api/items").then((response) => response.json()).then((items) => {
         document.getElementById("items").textContent = items.map((item) => item.name).join(", ")
       }).catch((error) => { document.getElementById("items").textContent = "failed: " + error.message }),
       fetch("/api/other").then((response) => response.text()).then((text) => { document.getElementById("other").textContent = text })
     ]).then(() => { document.title = "ready" })
   </script>`
)

class Pages extends Context.Tag("test/MockPages")<Pages, Served>() {}
const PagesLive = Layer.scoped(
  Pages,
  serveRoutes({
    "/shop": shopPage,
    "/api/items": json([{ name: "real" }]),
    "/api/other": { headers: { "content-type": "text/plain" }, body: "other from the server" }
  })
)

const mock = (args: Record<string, unknown>) => call(mockNetwork, args)

/** Loads the shop in the active tab and answers what it showed once both fetches settled. */
const shop = (path = "/shop") =>
  Effect.gen(function* () {
    const pages = yield* Pages
    const session = yield* Session
    expect((yield* call(navigate, { screen: "url", url: pages.url(path) })).ok).toBe(true)
    yield* session.evaluate("document.title", { maxChars: 100 }).pipe(
      Effect.repeat({ schedule: Schedule.spaced("50 millis"), until: (result) => result.value === "ready" }),
      Effect.timeout("10 seconds")
    )
    const shown = yield* session.evaluate(`[document.getElementById("items").textContent, document.getElementById("other").textContent]`, {
      maxChars: 1_000
    })
    return shown.value as [string, string]
  })

describe("mm_mock_network in real Chromium", () => {
  layer(Layer.merge(liveLayer(settings), PagesLive), { timeout: 120_000, excludeTestServices: true })("mocks", (it) => {
    it.effect("a page that fetches /api/items gets the mock; a request no rule answers is a miss in the log", () =>
      Effect.gen(function* () {
        const pages = yield* Pages
        expect((yield* call(launch)).ok).toBe(true)
        const added = yield* mock({ action: "add", url: "**/api/items", json: [{ name: "mocked a" }, { name: "mocked b" }] })
        expect(added.result).toEqual({ added: { id: "m1", url: "**/api/items", status: 200, bodyBytes: 41, hits: 0 } })
        expect(yield* shop()).toEqual(["mocked a, mocked b", "other from the server"])
        expect(pages.hits("/api/items")).toBe(0)

        const log = (yield* mock({ action: "log" })).result.log as Array<any>
        const items = log.find((entry) => entry.url === pages.url("/api/items"))
        expect(items).toMatchObject({ rule: "m1", method: "GET", type: "fetch", request: expect.stringMatching(/^r\d+$/) })
        const misses = log.filter((entry) => entry.rule === undefined).map((entry) => entry.url)
        expect(misses).toEqual(expect.arrayContaining([pages.url("/shop"), pages.url("/api/other")]))
        expect(misses).not.toContain(pages.url("/api/items"))

        const requests = (yield* call(networkRequests, { urlPattern: "/api/" })).result.requests
        expect(requests).toEqual([
          expect.objectContaining({ url: pages.url("/api/items"), status: 200, mocked: true }),
          expect.not.objectContaining({ mocked: true })
        ])
      }))

    it.effect("a rule survives navigations and applies to every tab (context routes)", () =>
      Effect.gen(function* () {
        expect(yield* shop()).toEqual(["mocked a, mocked b", "other from the server"])
        const pages = yield* Pages
        expect((yield* call(navigate, { screen: "url", url: pages.url("/shop"), newTab: true })).ok).toBe(true)
        expect(yield* shop()).toEqual(["mocked a, mocked b", "other from the server"])

        const rules = (yield* mock({ action: "list" })).result.rules
        expect(rules).toEqual([expect.objectContaining({ id: "m1", hits: 4 })])
        expect(pages.hits("/api/items")).toBe(0)
      }))

    it.effect("a method rule answers that method only; a status, headers and a text body; an abort fails the request", () =>
      Effect.gen(function* () {
        const pages = yield* Pages
        const post = yield* mock({ action: "add", url: "**/api/other", method: "post", body: "posted" })
        expect(post.result.added).toMatchObject({ id: "m2", method: "POST" })
        expect((yield* shop())[1]).toBe("other from the server")
        expect(yield* mock({ action: "add", url: pages.url("/api/other"), status: 202, headers: { "x-mocked": "yes" }, body: "text from the mock" })).toMatchObject({
          ok: true
        })
        expect((yield* shop())[1]).toBe("text from the mock")
        const details = yield* Effect.flatMap(Session, (session) => session.networkRequests({ urlPattern: "/api/other", limit: 1 }))
        expect(details.requests[0]).toMatchObject({ status: 202, mocked: true })
        const aborted = yield* mock({ action: "add", url: "**/api/items", abort: true })
        expect(aborted.result.added).toEqual({ id: "m4", url: "**/api/items", abort: true, hits: 0 })
        expect((yield* shop())[0]).toMatch(/^failed: /)
        const failed = yield* Effect.flatMap(Session, (session) => session.networkRequests({ urlPattern: "/api/items", limit: 1 }))
        expect(failed.requests[0]).toMatchObject({ failure: "net::ERR_FAILED", mocked: true })
      }))

    it.effect("remove and clear take rules away (the server answers again); unknown ids and bad input are named", () =>
      Effect.gen(function* () {
        const pages = yield* Pages
        expect((yield* mock({ action: "remove", id: "m4" })).result.removed).toMatchObject({ id: "m4", hits: 1 })
        expect((yield* shop())[0]).toBe("mocked a, mocked b")
        const unknown = yield* mock({ action: "remove", id: "m99" })
        expect(unknown.error).toMatchObject({ code: "MM_MOCK_NOT_FOUND", details: { id: "m99", available: ["m1", "m2", "m3"] } })
        expect((yield* mock({ action: "clear" })).result).toEqual({ cleared: 3 })
        expect(yield* shop()).toEqual(["real", "other from the server"])
        expect(pages.hits("/api/items")).toBe(1)
        expect((yield* mock({ action: "list" })).result).toEqual({ count: 0 })
        // Without rules nothing is intercepted: the log did not grow.
        const log = ((yield* mock({ action: "log", limit: 200 })).result.log ?? []) as Array<any>
        expect(log.some((entry) => entry.url === pages.url("/api/items") && entry.rule === undefined)).toBe(false)

        expect((yield* mock({ action: "add" })).error).toMatchObject({ code: "MM_INVALID_INPUT", details: { field: "url" } })
        expect((yield* mock({ action: "add", url: "**/{a" })).error).toMatchObject({ code: "MM_INVALID_INPUT", details: { field: "url" } })
        expect((yield* mock({ action: "add", url: "**/x", json: {}, body: "x" })).error).toMatchObject({ details: { field: "body" } })
        expect((yield* mock({ action: "remove" })).error).toMatchObject({ details: { field: "id" } })
      }))

    it.effect("inside mm_run_steps: add, navigate, read the log", () =>
      Effect.gen(function* () {
        const pages = yield* Pages
        const runSteps = registryFor(settings).lookup("mm_run_steps")!
        const envelope = yield* call(runSteps, {
          steps: [
            { tool: "mm_mock_network", args: { action: "add", url: "**/api/items", json: [{ name: "from a batch" }] } },
            { tool: "mm_navigate", args: { screen: "url", url: pages.url("/shop") } },
            { tool: "mm_wait_for", args: { selector: "text=from a batch" } },
            { tool: "mm_mock_network", args: { action: "log", limit: 5 } }
          ],
          includeObservations: "none"
        })
        expect(envelope.ok).toBe(true)
        expect(envelope.result.steps[3].result.log).toContainEqual(expect.objectContaining({ url: pages.url("/api/items"), rule: "m5" }))
      }))

    it.effect("a recorded mock exports to a batch and to a Playwright route; the exported lines run with plain Playwright", () =>
      Effect.gen(function* () {
        const pages = yield* Pages
        expect((yield* call(launch, { force: true })).ok).toBe(true)
        expect((yield* mock({ action: "add", url: "**/api/items", method: "GET", json: [{ name: "exported" }], headers: { "x-mock": "1" } })).ok).toBe(true)
        expect((yield* mock({ action: "log" })).ok).toBe(true)
        expect(yield* shop()).toEqual(["exported", "other from the server"])

        const batch = JSON.parse((yield* call(knowledgeExport, { format: "batch" })).result.content)
        expect(batch.steps[0]).toEqual({
          tool: "mm_mock_network",
          args: { action: "add", url: "**/api/items", method: "GET", headers: { "x-mock": "1" }, json: [{ name: "exported" }] }
        })
        // The last step checks the page the flow ended on.
        expect(batch.steps.map((step: any) => step.tool)).toEqual(["mm_mock_network", "mm_navigate", "mm_wait_for"])

        const exported = yield* call(knowledgeExport, { format: "playwright" })
        const content: string = exported.result.content
        expect(content).toContain(
          `await page.context().route("**/api/items", (route) => route.request().method() === "GET" ? route.fulfill({ status: 200, headers: {"x-mock":"1"}, contentType: "application/json", body: "[{\\"name\\":\\"exported\\"}]" }) : route.fallback())`
        )
        // @playwright/test is not installed here: the test's body runs as a plain Playwright script.
        // Up to the end-of-flow check, whose expect(page) lines need the test runner.
        expect(content).toContain("await expect(page).toHaveURL(")
        const body = content.slice(content.indexOf("async ({ page }) => {") + "async ({ page }) => {".length, content.indexOf("// The page the flow ended on."))
        const shown = yield* Effect.promise(async () => {
          const browser = await launchPlain()
          try {
            const page = await browser.newPage()
            const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: Array<string>) => (page: unknown) => Promise<void>
            await new AsyncFunction("page", body)(page)
            await page.waitForFunction(() => document.title === "ready")
            return await page.locator("#items").textContent()
          } finally {
            await browser.close()
          }
        })
        expect(shown).toBe("exported")
        expect(pages.hits("/api/items")).toBe(1)
      }))

    it.effect("recorded with secret headers redacted: Authorization, Cookie and token-like names never reach the step memory", () =>
      Effect.gen(function* () {
        const headers = { Authorization: "Bearer s3cr3t-value", "Set-Cookie": "sid=c00kie-value", "X-Api-Token": "t0ken-value", "X-Plain": "visible" }
        expect((yield* mock({ action: "add", url: "**/api/secret", headers, body: "ok" })).ok).toBe(true)
        const session = yield* Session
        const store = yield* KnowledgeStore
        const steps = yield* store.steps(Option.getOrThrow(yield* session.current).sessionId)
        const recorded = steps.filter((step) => step.tool.name === "mock_network").at(-1)!
        expect(recorded.tool.input.headers).toEqual({
          Authorization: "[REDACTED]",
          "Set-Cookie": "[REDACTED]",
          "X-Api-Token": "[REDACTED]",
          "X-Plain": "visible"
        })
        const text = JSON.stringify(steps)
        for (const secret of ["s3cr3t-value", "c00kie-value", "t0ken-value"]) expect(text).not.toContain(secret)
      }))
  })
})

describe("mocks and the URL policy", () => {
  it("a mock never answers a URL the policy blocks: the rule passes it on and the policy's route (set up first) blocks it", async () => {
    const browser = await launchPlain()
    const served = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const pages = yield* serveRoutes({ "/page": htmlPage("Page", "<p>page</p>"), "/api/items": json([{ name: "real" }]) })
          const context = yield* Effect.promise(() => browser.newContext())
          // The policy: set up at launch, before any mock; it blocks one path.
          yield* Effect.promise(() =>
            context.route("**", (route) => (route.request().url().includes("/api/items") ? route.abort("blockedbyclient") : route.fallback()))
          )
          const live = { context, mocks: yield* Ref.make(Mocks.emptyMocks) } as unknown as LiveSession
          const runSync = Runtime.runSync(yield* Effect.runtime<never>())
          const mocks = Mocks.make(runSync, (url) => Mocks.httpOnly(url) && !url.includes("/api/items"))
          yield* mocks.add(live, { url: "**/api/items", status: 200, headers: {}, body: "[]", contentType: "application/json", abort: false })
          const page = yield* Effect.promise(() => context.newPage())
          yield* Effect.promise(() => page.goto(pages.url("/page")))
          const outcome = yield* Effect.promise(() =>
            page.evaluate(() =>
              fetch("/api/items").then(
                (response) => `answered ${response.status}`,
                () => "blocked"
              )
            )
          )
          const reading = yield* mocks.read(live, 50)
          return { outcome, reading, hits: pages.hits("/api/items") }
        })
      )
    ).finally(() => browser.close())
    expect(served.outcome).toBe("blocked")
    expect(served.hits).toBe(0)
    expect(served.reading.rules).toEqual([expect.objectContaining({ id: "m1", hits: 0 })])
    expect(served.reading.log).toContainEqual(expect.objectContaining({ rule: "m1", blocked: true }))
  })
})
