// Patterns of the web-component kits in bench/widgets (third-wc.ts), each on a small hand-written page in
// real Chromium (no library code): a picker button (aria-haspopup="true") whose listbox opens in its
// shadow root; a multi-select combobox whose popup opens from Alt+ArrowDown, not from a click.
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { accessibilitySnapshot } from "../../src/tools/discovery.js"
import { evaluate } from "../../src/tools/evaluate.js"
import { selectOption } from "../../src/tools/interaction.js"
import { liveLayer, testSettings } from "../support/browser.js"
import { pageHarness } from "../support/page-harness.js"
import { linesNamed } from "../page/parse.js"
import { shadowKitPages } from "./shadow-kit-pages.js"

const { PagesLive, call, open } = pageHarness("test/ShadowKitPages", shadowKitPages)
const widgetState = Effect.map(call(evaluate, { expression: "widgetState()" }), (envelope) => envelope.result.value as Record<string, unknown>)
const snapshotOf = Effect.map(call(accessibilitySnapshot), (envelope) => envelope.snapshot as string)

layer(Layer.merge(liveLayer(testSettings()), PagesLive), { timeout: 120_000, excludeTestServices: true })("web-component kits in shadow roots", (it) => {
  describe("select_option", () => {
    it.effect("a picker whose button says aria-haspopup=\"true\" is opened, and the option chosen in the listbox it shows", () =>
      Effect.gen(function* () {
        yield* open("/picker")
        const [button] = linesNamed(yield* snapshotOf, "button", "Size")
        expect(button).toBeDefined()
        const answer = yield* call(selectOption, { a11yRef: button!.ref, values: ["Large"] })
        expect(answer.ok).toBe(true)
        expect(answer.result.selected).toEqual(["Large"])
        expect(yield* widgetState).toEqual({ size: "large" })
      }))

    it.effect("a combobox that a click does not open is opened with Alt+ArrowDown, its value left alone, and both options chosen", () =>
      Effect.gen(function* () {
        yield* open("/multi-combo")
        const [field] = linesNamed(yield* snapshotOf, "combobox", "Flavours")
        expect(field).toBeDefined()
        const answer = yield* call(selectOption, { a11yRef: field!.ref, values: ["Mint", "Vanilla"] })
        expect(answer.ok).toBe(true)
        expect(answer.result.selected).toEqual(["Mint", "Vanilla"])
        expect(yield* widgetState).toEqual({ flavours: ["Mint", "Vanilla"], field: "" })
      }))
  })
})
