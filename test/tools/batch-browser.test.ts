// mm_run_steps in real Chromium: a login flow, a failing step observed on failure, a deadline mid-step.
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { loginPage } from "../../demo/sample-app.js"
import { registryFor } from "../../src/cli.js"
import { runTool } from "../../src/runtime/runTool.js"
import { launch } from "../../src/tools/session.js"
import { linesNamed } from "../page/parse.js"
import { html, liveLayer, pageServer, testSettings } from "../support/browser.js"

const settings = testSettings()
const registry = registryFor(settings)
const runSteps = registry.lookup("mm_run_steps")!

class Pages extends Context.Tag("test/BatchPages")<Pages, { readonly url: (path: string) => string }>() {}
const PagesLive = Layer.scoped(
  Pages,
  Effect.map(
    pageServer({
      "/login": loginPage,
      "/slow": html("Slow", `<button data-testid="late" hidden>Late</button>`),
      "/console": html(
        "Console",
        `<button data-testid="log" onclick="console.log('clicked ' + 1); console.error('oops'); setTimeout(() => { throw new Error('boom') })">Log</button>`
      )
    }),
    (server) => ({ url: (p: string) => `${server.url}${p}` })
  )
)

const batch = (args: Record<string, unknown>) =>
  Effect.map(runTool(runSteps)(args), ({ envelope }) => envelope as { ok: boolean; result: any })

describe("mm_run_steps in real Chromium", () => {
  layer(Layer.merge(liveLayer(settings), PagesLive), { timeout: 120_000, excludeTestServices: true })("batches", (it) => {
    it.effect("runs a login flow in one call, with a ref from an earlier step's snapshot", () =>
      Effect.gen(function* () {
        const { url } = yield* Pages
        expect((yield* runTool(launch)({})).envelope.ok).toBe(true)
        const first = yield* batch({
          steps: [
            { tool: "mm_navigate", args: { screen: "url", url: url("/login") } },
            { tool: "mm_accessibility_snapshot", args: { rootSelector: "form" } }
          ],
          includeObservations: "none"
        })
        const submitRef = linesNamed(first.result.steps[1].result.snapshot, "button", "Sign in")[0]!.ref
        const flow = yield* batch({
          steps: [
            { tool: "mm_type", args: { testId: "username", text: "alice" }, label: "user" },
            { tool: "mm_type", args: { testId: "password", text: "correct horse" } },
            { tool: "mm_click", args: { a11yRef: submitRef } },
            { tool: "mm_wait_for", args: { testId: "welcome" }, expectation: { includeSnapshot: true, snapshotSelector: "#dashboard" } },
            { tool: "mm_get_text", args: { testId: "welcome" } }
          ],
          stopOnError: true,
          includeObservations: "none"
        })
        expect(flow.ok).toBe(true)
        expect(flow.result.summary).toMatchObject({ ok: true, total: 5, succeeded: 5, failed: 0, skipped: 0 })
        expect(flow.result.steps[0].label).toBe("user")
        expect(flow.result.steps[4].result.text).toBe("Welcome, alice")
        expect(flow.result.steps[3].snapshot.nodes.some((node: any) => node.name === "Settings")).toBe(true)
        expect(flow.result.steps.every((step: any) => step.observation === undefined)).toBe(true)
      }))

    it.effect("a failing step carries the full observation with includeObservations failures, and the others none", () =>
      Effect.gen(function* () {
        const { url } = yield* Pages
        const envelope = yield* batch({
          steps: [
            { tool: "navigate", args: { screen: "url", url: url("/login") } },
            { tool: "click", args: { testId: "no-such-button", timeoutMs: 300 } },
            { tool: "get_state" }
          ],
          includeObservations: "failures"
        })
        const [navigated, failed, state] = envelope.result.steps
        expect(navigated.observation).toBeUndefined()
        expect(failed.error.code).toBe("MM_TARGET_NOT_FOUND")
        expect(failed.observation.testIds.map((item: any) => item.testId)).toContain("username")
        expect(failed.observation.a11y.nodes.length).toBeGreaterThan(0)
        expect(state.ok).toBe(true)
        expect(envelope.result.summary).toMatchObject({ succeeded: 2, failed: 1 })
      }))

    it.effect("expectation.includeConsole adds the console messages and page errors logged during that step only", () =>
      Effect.gen(function* () {
        const { url } = yield* Pages
        const envelope = yield* batch({
          steps: [
            { tool: "navigate", args: { screen: "url", url: url("/console") }, expectation: { includeConsole: true } },
            { tool: "click", args: { testId: "log" }, expectation: { includeConsole: true } },
            { tool: "wait_for", args: { testId: "log" }, expectation: { includeConsole: true } }
          ],
          includeObservations: "none"
        })
        const [navigated, clicked, waited] = envelope.result.steps
        expect(navigated.console).toEqual([])
        expect(clicked.console.slice(0, 2)).toEqual([
          { type: "log", text: "clicked 1", url: url("/console") },
          { type: "error", text: "oops", url: url("/console") }
        ])
        // The uncaught error lands a tick later: in the click's window or the next step's, never lost.
        const errors = [...clicked.console, ...waited.console].filter((message: any) => message.type === "pageerror")
        expect(errors.map((message: any) => message.text)).toEqual(["boom"])
      }))

    it.effect("the batch deadline interrupts a click still waiting in the browser and skips what follows", () =>
      Effect.gen(function* () {
        const { url } = yield* Pages
        const envelope = yield* batch({
          steps: [
            { tool: "navigate", args: { screen: "url", url: url("/slow") } },
            { tool: "click", args: { testId: "late", timeoutMs: 60_000 } },
            { tool: "get_state" }
          ],
          batchTimeoutMs: 2_000,
          includeObservations: "none"
        })
        const [, interrupted, skipped] = envelope.result.steps
        expect(interrupted.error.code).toBe("MM_BATCH_TIMEOUT")
        expect(skipped).toMatchObject({ meta: { skipped: true }, error: { code: "MM_BATCH_TIMEOUT" } })
        expect(envelope.result.summary.durationMs).toBeLessThan(20_000)
        // The interrupted click is gone: revealing the button now does not trigger it.
        const after = yield* batch({ steps: [{ tool: "get_state" }] })
        expect(after.result.summary.ok).toBe(true)
      }))
  })
})
