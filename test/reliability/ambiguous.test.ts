// MM_TARGET_AMBIGUOUS lists the first matches with refs (issue 19): a target that names several elements
// answers with up to five of them (ref, role, short name) and how many match, and each listed ref names
// its element in the next call. Real Chromium, pages on 127.0.0.1.
import { expect, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { registryFor } from "../../src/cli.js"
import { expectTool } from "../../src/tools/assertions.js"
import { drag } from "../../src/tools/gestures.js"
import { click, getText } from "../../src/tools/interaction.js"
import { navigate } from "../../src/tools/navigation.js"
import { launch } from "../../src/tools/session.js"
import { html, liveLayer, pageServer, testSettings } from "../support/browser.js"
import { call, codeOf } from "./support.js"

/** `count` buttons that say "Buy", each writing its number into #out when clicked. */
const buyButtons = (count: number) =>
  Array.from({ length: count }, (_, i) => `<button class="buy" onclick="document.getElementById('out').textContent = 'bought ${i + 1}'">Buy</button>`).join("")

class Pages extends Context.Tag("test/AmbiguousPages")<Pages, { readonly url: (path: string) => string }>() {}

const PagesLive = Layer.scoped(
  Pages,
  Effect.map(
    pageServer({
      "/three": html("Three", `<p id="out">none</p>${buyButtons(3)}`),
      "/twelve": html("Twelve", `<p id="out">none</p>${buyButtons(12)}`),
      "/mixed": html(
        "Mixed",
        `<p id="out">none</p>
         <button class="buy" style="display:none">Buy hidden</button>
         <button class="buy" aria-label="${"A very long accessible name ".repeat(10)}">Buy</button>
         <div class="row">Row one</div><div class="row">Row two</div>`
      )
    }),
    (server) => ({ url: (p: string) => `${server.url}${p}` })
  )
)

const settings = testSettings()
const runSteps = registryFor(settings).lookup("mm_run_steps")!

const open = (path: string) =>
  Effect.gen(function* () {
    const { url } = yield* Pages
    expect(codeOf(yield* call(launch, { force: true }))).toBe("ok")
    expect(codeOf(yield* call(navigate, { screen: "url", url: url(path) }))).toBe("ok")
  })

const outText = Effect.map(call(getText, { selector: "#out" }), (read) => read.result.text)

layer(Layer.merge(liveLayer(settings), PagesLive), { timeout: 240_000, excludeTestServices: true })("an ambiguous target lists its matches with refs", (it) => {
  it.effect("a click on a CSS selector that matches 3 buttons lists all 3 with refs, and each ref clicks its own button", () =>
    Effect.gen(function* () {
      yield* open("/three")
      const answered = yield* call(click, { selector: "button.buy", timeoutMs: 10_000 })
      expect(answered.error?.code).toBe("MM_TARGET_AMBIGUOUS")
      expect(answered.error?.details).toMatchObject({ count: 3 })
      const refs = answered.error?.details?.refs as Array<string>
      expect(refs).toHaveLength(3)
      expect(new Set(refs).size).toBe(3)
      for (const ref of refs) expect(answered.error?.message).toContain(`${ref} button "Buy"`)
      expect(answered.error?.message).not.toContain("more")
      // Each listed ref names its own button (in document order), in the next call.
      for (const [i, ref] of refs.entries()) {
        expect(codeOf(yield* call(click, { a11yRef: ref }))).toBe("ok")
        expect(yield* outText).toBe(`bought ${i + 1}`)
      }
    }))

  it.effect("12 matches: the first 5 are listed with the total, and a listed ref works in the next call", () =>
    Effect.gen(function* () {
      yield* open("/twelve")
      const answered = yield* call(click, { selector: "text=Buy", timeoutMs: 10_000 })
      expect(answered.error?.code).toBe("MM_TARGET_AMBIGUOUS")
      expect(answered.error?.details?.count).toBe(12)
      const refs = answered.error?.details?.refs as Array<string>
      expect(refs).toHaveLength(5)
      expect(answered.error?.message).toContain("matches 12 elements")
      expect(answered.error?.message).toContain("and 7 more")
      // Compact: five short lines' worth, not the page.
      expect(answered.error!.message.length).toBeLessThan(400)
      expect(codeOf(yield* call(click, { a11yRef: refs[4] }))).toBe("ok")
      expect(yield* outText).toBe("bought 5")
    }))

  it.effect("names are cut short, a hidden match says so, and a nameless match shows its words", () =>
    Effect.gen(function* () {
      yield* open("/mixed")
      const buttons = yield* call(click, { selector: "button.buy", timeoutMs: 10_000 })
      expect(buttons.error?.code).toBe("MM_TARGET_AMBIGUOUS")
      expect(buttons.error?.message).toMatch(/e\d+ button "Buy hidden" \(hidden\)/)
      expect(buttons.error?.message).toMatch(/e\d+ button "A very long accessible name[^"]{0,20}…"/)
      expect(buttons.error?.message).not.toContain("name ".repeat(3))
      const rows = yield* call(getText, { selector: "div.row", timeoutMs: 10_000 })
      expect(rows.error?.code).toBe("MM_TARGET_AMBIGUOUS")
      expect(rows.error?.message).toMatch(/e\d+ generic "Row one", e\d+ generic "Row two"/)
      const [, second] = rows.error?.details?.refs as Array<string>
      expect((yield* call(getText, { a11yRef: second! })).result.text).toBe("Row two")
    }))

  it.effect("mm_expect and a drag's drop target list the matches too", () =>
    Effect.gen(function* () {
      yield* open("/three")
      const expected = yield* call(expectTool, { condition: "visible", selector: "button.buy", timeoutMs: 5_000 })
      expect(expected.error?.code).toBe("MM_TARGET_AMBIGUOUS")
      expect(expected.error?.details?.refs).toHaveLength(3)
      const dragged = yield* call(drag, { selector: "#out", to: { selector: "button.buy" }, timeoutMs: 5_000 })
      expect(dragged.error?.code).toBe("MM_TARGET_AMBIGUOUS")
      expect(dragged.error?.details?.refs).toHaveLength(3)
    }))

  it.effect("inside mm_run_steps: the failed step's error lists the matches, and a second batch clicks by a listed ref", () =>
    Effect.gen(function* () {
      const { url } = yield* Pages
      expect(codeOf(yield* call(launch, { force: true }))).toBe("ok")
      const batch = yield* call(runSteps, {
        steps: [
          { tool: "mm_navigate", args: { screen: "url", url: url("/twelve") } },
          { tool: "mm_click", args: { selector: "button.buy" } }
        ],
        includeObservations: "none"
      })
      expect(batch.error?.code).toBe("MM_BATCH_FAILED")
      const failed = batch.result.steps[1]
      expect(failed.error?.code).toBe("MM_TARGET_AMBIGUOUS")
      const refs = failed.error?.details?.refs as Array<string>
      expect(refs).toHaveLength(5)
      expect(failed.error?.message).toContain(`${refs[2]} button "Buy"`)
      const next = yield* call(runSteps, { steps: [{ tool: "mm_click", args: { a11yRef: refs[2] } }], includeObservations: "none" })
      expect(next.ok).toBe(true)
      expect(yield* outText).toBe("bought 3")
    }))
})
