// mm_evaluate in real Chromium: off unless --caps evaluate (not listed, and a call says how to enable
// it) while console_messages is listed by default; results as JSON within caps; bound by its deadline
// (a busy loop is terminated, a promise that never settles is abandoned, the page answers afterwards);
// exceptions as MM_EVALUATE_FAILED; recorded with a secret-looking expression redacted; inside mm_run_steps.
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option } from "effect"
import { registryFor } from "../../src/cli.js"
import { ToolView, visibleTools } from "../../src/runtime/visibility.js"
import { KnowledgeStore } from "../../src/services/KnowledgeStore.js"
import { Session } from "../../src/services/Session.js"
import { evaluate } from "../../src/tools/evaluate.js"
import { navigate } from "../../src/tools/navigation.js"
import { launch } from "../../src/tools/session.js"
import { liveLayer, testSettings } from "../support/browser.js"
import { call, htmlPage, serveRoutes, type Served } from "./support.js"

const settings = testSettings({ caps: ["evaluate"] })

class Pages extends Context.Tag("test/EvaluatePages")<Pages, Served>() {}
const PagesLive = Layer.scoped(
  Pages,
  serveRoutes({
    "/page": htmlPage(
      "Evaluate",
      `<div id="box" class="card wide">box</div>
       <script>
         window.big = Array.from({ length: 500 }, (_, i) => ({ i, label: "item " + i }))
         window.deep = { a: { b: { c: { d: { e: { f: { g: { h: 1 } } } } } } } }
         window.cyclic = { name: "me" }; window.cyclic.self = window.cyclic
       </script>`
    )
  })
)

/** The served names a client would be listed with these caps. */
const listedWith = (caps: ReadonlyArray<string>) =>
  Effect.map(visibleTools(registryFor(settings).tools).pipe(Effect.provideService(ToolView, ToolView.make(registryFor(settings), { caps }))), (tools) =>
    tools.map((tool) => tool.name)
  )

describe("mm_evaluate in real Chromium", () => {
  layer(Layer.merge(liveLayer(settings), PagesLive), { timeout: 120_000, excludeTestServices: true })("evaluate", (it) => {
    it.effect("off by default: not listed and a call says to start with --caps evaluate; console_messages is listed by default, the network tools with --caps devtools", () =>
      Effect.gen(function* () {
        const pages = yield* Pages
        expect((yield* call(launch)).ok).toBe(true)
        expect((yield* call(navigate, { screen: "url", url: pages.url("/page") })).ok).toBe(true)
        const byDefault = yield* listedWith([])
        expect(byDefault).toContain("console_messages")
        for (const tool of ["evaluate", "network_requests", "network_request", "mock_network"]) expect(byDefault).not.toContain(tool)
        expect(yield* listedWith(["evaluate"])).toContain("evaluate")
        expect(yield* listedWith(["devtools"])).toEqual(expect.arrayContaining(["network_requests", "network_request", "mock_network"]))
        const refused = yield* call(evaluate, { expression: "1 + 1" }).pipe(
          Effect.provideService(ToolView, ToolView.make(registryFor(settings), { caps: [] }))
        )
        expect(refused.error).toMatchObject({ code: "MM_TOOL_UNAVAILABLE" })
        expect(refused.error.message).toContain("--caps evaluate")
      }))

    it.effect("answers JSON within caps: primitives, DOM nodes, many items, deep and cyclic values, long strings", () =>
      Effect.gen(function* () {
        const value = (expression: string, extra: Record<string, unknown> = {}) =>
          Effect.map(call(evaluate, { expression, ...extra }), (envelope) => {
            expect(envelope.ok).toBe(true)
            return envelope.result as { type: string; value?: unknown; cut?: boolean }
          })
        expect(yield* value("document.title")).toEqual({ type: "string", value: "Evaluate" })
        expect(yield* value("const x = 20; await Promise.resolve(x + 1) * 2")).toEqual({ type: "number", value: 42 })
        expect(yield* value("() => location.pathname")).toEqual({ type: "string", value: "/page" })
        // A promise handed back unawaited is awaited: its value, not {"type": "Promise"}.
        expect(yield* value("new Promise((resolve) => setTimeout(() => resolve({ later: 7 }), 20))")).toEqual({ type: "Object", value: { later: 7 } })
        expect(yield* value("fetch(location.href).then((response) => response.status)")).toEqual({ type: "number", value: 200 })
        expect(yield* value("undefined")).toEqual({ type: "undefined" })
        expect(yield* value("document.getElementById('box')")).toEqual({ type: "HTMLDivElement", value: "<div#box.card.wide>" })
        const big = yield* value("window.big")
        expect(big).toMatchObject({ type: "array", cut: true })
        expect(big.value).toHaveLength(101)
        expect((big.value as Array<unknown>).at(-1)).toBe("…[cut: 400 more items]")
        const deep = yield* value("window.deep")
        expect(deep.cut).toBe(true)
        expect(JSON.stringify(deep.value)).toContain('"[Object]"')
        expect(yield* value("window.cyclic")).toEqual({ type: "Object", value: { name: "me", self: "[Circular]" } })
        const long = yield* value("'x'.repeat(50000)", { maxChars: 500 })
        expect(long.cut).toBe(true)
        expect((long.value as string).length).toBeLessThan(600)
        expect(long.value).toMatch(/…\[cut: 49500 more characters\]$/)
        const bounded = yield* value("window.big.map((item) => item.label)", { maxChars: 1_000 })
        expect(JSON.stringify(bounded.value).length).toBeLessThan(1_300)
      }))

    it.effect("an exception is MM_EVALUATE_FAILED with its message and first frames", () =>
      Effect.gen(function* () {
        const thrown = yield* call(evaluate, { expression: "function inner() { throw new TypeError('no such thing') }\ninner()" })
        expect(thrown.error.code).toBe("MM_EVALUATE_FAILED")
        expect(thrown.error.message).toContain("TypeError: no such thing")
        expect(thrown.error.message).toContain("at inner")
        const rejected = yield* call(evaluate, { expression: "await Promise.reject(new Error('rejected later'))" })
        expect(rejected.error.message).toContain("Error: rejected later")
        const unawaited = yield* call(evaluate, { expression: "Promise.reject(new Error('rejected unawaited'))" })
        expect(unawaited.error.message).toContain("Error: rejected unawaited")
      }))

    it.effect("bound by its deadline: a busy loop is terminated and a promise that never settles is abandoned; the page answers afterwards", () =>
      Effect.gen(function* () {
        const busy = yield* call(evaluate, { expression: "while (true) {}", timeoutMs: 300 })
        expect(busy.ok).toBe(false)
        expect(busy.error.code).toBe("MM_TIMEOUT")
        const never = yield* call(evaluate, { expression: "await new Promise(() => {})", timeoutMs: 300 })
        expect(never.error.code).toBe("MM_TIMEOUT")
        const neverUnawaited = yield* call(evaluate, { expression: "new Promise(() => {})", timeoutMs: 300 })
        expect(neverUnawaited.error.code).toBe("MM_TIMEOUT")
        // The page is not held: it answers the next call.
        expect((yield* call(evaluate, { expression: "document.title" })).result).toEqual({ type: "string", value: "Evaluate" })
      }))

    it.effect("recorded: the expression, or [REDACTED] when it looks like it holds a secret; the export skips that step", () =>
      Effect.gen(function* () {
        expect((yield* call(evaluate, { expression: "localStorage.setItem('apiToken', 'sk-live-0123456789abcdef')" })).ok).toBe(true)
        const session = yield* Session
        const store = yield* KnowledgeStore
        const current = yield* session.current
        const steps = yield* store.steps(Option.getOrThrow(current).sessionId)
        const evaluations = steps.filter((step) => step.tool.name === "evaluate").map((step) => step.tool.input.expression)
        expect(evaluations).toContain("document.title")
        expect(evaluations.at(-1)).toBe("[REDACTED]")
        expect(JSON.stringify(steps)).not.toContain("sk-live-0123456789abcdef")
      }))

    it.effect("inside mm_run_steps", () =>
      Effect.gen(function* () {
        const runSteps = registryFor(settings).lookup("mm_run_steps")!
        const envelope = yield* call(runSteps, {
          steps: [
            { tool: "mm_evaluate", args: { expression: "document.getElementById('box').textContent = 'changed'" } },
            { tool: "mm_evaluate", args: { expression: "document.getElementById('box').textContent" } }
          ],
          includeObservations: "none"
        })
        expect(envelope.ok).toBe(true)
        expect(envelope.result.steps[1].result).toEqual({ type: "string", value: "changed" })
      }))
  })
})
