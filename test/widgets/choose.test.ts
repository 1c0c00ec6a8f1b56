// mm_select_option beyond a plain <select> target (issue 19), in real Chromium: an option's ref selects
// it in its own select.
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { accessibilitySnapshot } from "../../src/tools/discovery.js"
import { evaluate } from "../../src/tools/evaluate.js"
import { selectOption } from "../../src/tools/interaction.js"
import { html, liveLayer, testSettings } from "../support/browser.js"
import { pageHarness } from "../support/page-harness.js"
import { linesNamed } from "../page/parse.js"

const pages = {
  "/native": html(
    "Native",
    `<label for="size">Size</label> <select id="size" size="4"><option value="s">Small</option><option value="m">Medium</option><optgroup label="Big"><option value="l">Large</option></optgroup></select>
    <script>window.widgetState = () => ({ size: document.getElementById("size").value })</script>`
  )
}

const { PagesLive, call, open } = pageHarness("test/ChooseWidgetPages", pages)

const snapshotOf = Effect.map(call(accessibilitySnapshot), (envelope) => envelope.snapshot as string)
const widgetState = Effect.map(call(evaluate, { expression: "window.widgetState()" }), (envelope) => envelope.result.value)

layer(Layer.merge(liveLayer(testSettings()), PagesLive), { timeout: 120_000, excludeTestServices: true })("select_option on more than a select", (it) => {
  describe("an option of a native select", () => {
    it.effect("an option's ref selects that option in its select, and the answer says it went through the select", () =>
      Effect.gen(function* () {
        yield* open("/native")
        const [large] = linesNamed(yield* snapshotOf, "option", "Large")
        expect(large?.ref).toBeDefined()
        const answer = yield* call(selectOption, { a11yRef: large!.ref, values: ["Large"] })
        expect(answer.ok, JSON.stringify(answer)).toBe(true)
        expect(answer.result).toMatchObject({ selected: ["l"], via: "select" })
        expect(yield* widgetState).toEqual({ size: "l" })
      }))
  })
})
