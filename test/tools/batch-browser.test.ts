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
      // The button is not there yet (a hidden one would be answered at once as not visible): a click waits for it.
      // Still busy (a ticking count): a target it does not show yet may still come, so a click waits for it.
      "/slow": html("Slow", `<p>Loading <span id="tick">0</span></p><script>setInterval(() => tick.textContent = Number(tick.textContent) + 1, 100)</script>`),
      "/console": html(
        "Console",
        `<button data-testid="log" onclick="console.log('clicked ' + 1); console.error('oops'); setTimeout(() => { throw new Error('boom') })">Log</button>`
      )
    }),
    (server) => ({ url: (p: string) => `${server.url}${p}` })
  )
)

/** The batch's envelope, and the text block with its steps' page texts ("" when none). */
const batch = (args: Record<string, unknown>) =>
  Effect.map(runTool(runSteps)(args), ({ envelope, attachments }) => ({
    ...(envelope as { ok: boolean; result: any; ms?: number }),
    text: attachments.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n")
  }))

/** The page text under one step's heading in a batch's text block. */
const section = (text: string, index: number) => text.split(/^## /m).find((part) => part.startsWith(`step ${index} `))

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
        // A snapshot step's page text is kept without observations, in the text block under its heading, not in the JSON.
        expect(first.result.steps[1].result).toBeUndefined()
        const submitRef = linesNamed(section(first.text, 1)!, "button", "Sign in")[0]!.ref
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
        expect(flow.result.summary).toEqual({ ok: true, total: 5, succeeded: 5 })
        expect(flow.result.steps[0].label).toBe("user")
        expect(flow.result.steps[4].result.text).toBe("Welcome, alice")
        // The one page text is the snapshot step 3 asked for, under its heading.
        expect(flow.text.match(/^## step/gm)).toHaveLength(1)
        expect(linesNamed(section(flow.text, 3) ?? "", "button", "Settings")).toHaveLength(1)
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
        const [, failed, state] = envelope.result.steps
        expect(failed.error.code).toBe("MM_TARGET_NOT_FOUND")
        expect(envelope.text.match(/^## step/gm)).toHaveLength(1)
        const page = section(envelope.text, 1) ?? ""
        expect(page).toMatch(/^testIds: .*\busername\b/m)
        expect(linesNamed(page, "button", "Sign in")).toHaveLength(1)
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
        expect(navigated.console).toBeUndefined()
        expect(clicked.console.slice(0, 2)).toEqual(["log: clicked 1", "error: oops"])
        // The uncaught error lands a tick later: in the click's window or the next step's, never lost.
        const errors = [...clicked.console, ...(waited.console ?? [])].filter((line: string) => line.startsWith("uncaught:"))
        expect(errors).toEqual(["uncaught: boom"])
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
        expect(skipped).toBeUndefined()
        expect(envelope.result.summary.notRun).toMatch(/^Not run: step 2: .*MM_BATCH_TIMEOUT/)
        expect(envelope.ms ?? 0).toBeLessThan(20_000)
        // The interrupted click is gone: revealing the button now does not trigger it.
        const after = yield* batch({ steps: [{ tool: "get_state" }] })
        expect(after.ok).toBe(true)
      }))
  })
})
