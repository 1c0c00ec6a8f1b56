// Patterns of the framework kits and editors in bench/widgets (third-fw.ts), each on a small hand-written
// page in real Chromium (no library code): a dropdown whose combobox is a visually hidden read-only
// input inside the box it draws, with a label whose click only focuses that input (PrimeReact); and an
// editor whose placeholder is words drawn over its empty editing host that take no pointer (Lexical).
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { accessibilitySnapshot } from "../../src/tools/discovery.js"
import { evaluate } from "../../src/tools/evaluate.js"
import { click, type } from "../../src/tools/interaction.js"
import { html, liveLayer, testSettings } from "../support/browser.js"
import { pageHarness } from "../support/page-harness.js"

/** A dropdown as PrimeReact draws it: its box opens the panel on a click that is not on the input; the input only takes the focus. */
const dropdown = (id: string, label: string, opens: boolean) => `
  <label for="${id}">${label}</label>
  <div class="dropdown" id="${id}-box" style="position:relative;display:flex;width:240px;height:36px;border:1px solid #999;margin-bottom:12px">
    <div style="position:absolute;width:1px;height:1px;margin:-1px;padding:0;border:0;overflow:hidden;clip:rect(0 0 0 0)"><input id="${id}" readonly aria-haspopup="listbox" aria-expanded="false"></div>
    <span class="value" style="flex:1;padding:8px">Select one</span><span class="trigger" aria-hidden="true" style="padding:8px">▾</span>
  </div>
  <script>
    document.getElementById("${id}-box").addEventListener("click", (event) => {
      if (event.target.tagName === "INPUT" || !${opens}) return
      document.getElementById("${id}").focus()
      document.getElementById("${id}").setAttribute("aria-expanded", "true")
      document.getElementById("panel").hidden = false
    })
  </script>`

/**
 * A dropdown as PrimeReact 10 renders it: its combobox is a read-only input in a 1×1 clipped wrapper
 * (p-hidden-accessible, which clips the input away entirely), beside a second such wrapper holding a
 * native select, then the drawn label and a trigger (role=button, aria-expanded). A click on the box that
 * is not on the input opens the panel and focuses the input; the label's click (forwarded to the input,
 * which focuses it) is ignored. With `offstage`, its hidden input sits where nothing of the box is drawn.
 */
const primeDropdown = (id: string, label: string, offstage: boolean) => `
  <div style="margin-bottom:16px"><label for="${id}" style="display:block">${label}</label>
  <div class="p-dropdown" id="${id}-root" style="display:inline-flex;position:relative;cursor:pointer;width:260px;border:1px solid #ccc;border-radius:6px;font-size:1rem;line-height:1.5">
    <div class="p-hidden-accessible"${offstage ? ' style="left:-10000px"' : ""}><input id="${id}" readonly aria-haspopup="listbox" tabindex="0" type="text"></div>
    <div class="p-hidden-accessible"><select tabindex="-1"><option value="" selected>Select a country</option></select></div>
    <span class="p-dropdown-label" tabindex="-1" style="display:block;white-space:nowrap;overflow:hidden;flex:1 1 auto;width:1%;padding:12px">Select a country</span>
    <div class="p-dropdown-trigger" role="button" aria-haspopup="listbox" aria-expanded="false" aria-label="Select a country" style="display:flex;align-items:center;justify-content:center;flex-shrink:0;width:48px">▾</div>
  </div></div>
  <script>
    document.getElementById("${id}-root").addEventListener("click", (event) => {
      if (event.target.tagName === "INPUT" || event.target.tagName === "SELECT") return
      document.getElementById("${id}").focus()
      document.querySelector("#${id}-root .p-dropdown-trigger").setAttribute("aria-expanded", "true")
      document.getElementById("${id}-panel").hidden = false
    })
  </script>
  <div id="${id}-panel" hidden><input placeholder="Search ${label.toLowerCase()}"><ul role="listbox"><li role="option">Portugal</li><li role="option">Spain</li></ul></div>`

const pages = {
  "/prime-dropdown": html(
    "Prime dropdown",
    `<style>.p-hidden-accessible{border:0;clip:rect(0 0 0 0);height:1px;margin:-1px;opacity:0;overflow:hidden;padding:0;pointer-events:none;position:absolute;white-space:nowrap;width:1px}</style>
    <h1>Booking</h1>
    ${primeDropdown("country", "Countries", false)}
    ${primeDropdown("region", "Regions", true)}
    <script>window.widgetState = () => ({ country: !document.getElementById("country-panel").hidden, region: !document.getElementById("region-panel").hidden, focused: (document.activeElement && document.activeElement.id) || null })</script>`
  ),
  "/hidden-field-dropdown": html(
    "Hidden field dropdown",
    `<h1>Booking</h1>
    ${dropdown("country", "Country", true)}
    ${dropdown("city", "City", false)}
    <div id="panel" hidden><input id="filter" placeholder="Search countries"><ul role="listbox"><li role="option">Portugal</li><li role="option">Spain</li></ul></div>
    <script>
      // A scroll anywhere while the panel is closed (a clipped wrapper scrolled to bring its input into view, as
      // Playwright's click on the input does; the focus the box gives its input scrolls it too, once open).
      document.addEventListener("scroll", () => { if (document.getElementById("panel").hidden) window.scrolled = true }, true)
      window.widgetState = () => ({ open: !document.getElementById("panel").hidden, focused: (document.activeElement && document.activeElement.id) || null, scrolled: window.scrolled === true })
    </script>`
  ),
  "/overlay-placeholder": html(
    "Overlay placeholder",
    `<h1>Notes</h1>
    <div style="position:relative;width:420px">
      <div id="editor" contenteditable="true" style="border:1px solid #ccc;min-height:100px;padding:8px;outline:none"><p><br></p></div>
      <div id="placeholder" style="position:absolute;top:9px;left:9px;color:#999;pointer-events:none;user-select:none">Enter some text…</div>
    </div>
    <script>
      const editor = document.getElementById("editor")
      editor.addEventListener("input", () => (document.getElementById("placeholder").style.display = editor.textContent === "" ? "" : "none"))
      window.widgetState = () => ({ text: editor.textContent })
    </script>`
  )
}

const { PagesLive, call, open } = pageHarness("test/FrameworkKitPatternPages", pages)

const state = Effect.map(call(evaluate, { expression: "window.widgetState()" }), (envelope) => envelope.result.value)

/** The page text of a whole snapshot, and the ref of its line with this role and name. */
const snapshotRef = (role: string, name: string) =>
  Effect.gen(function* () {
    const text = JSON.stringify(yield* call(accessibilitySnapshot, {})).replace(/\\n/g, "\n").replace(/\\"/g, '"')
    const line = text.split("\n").find((candidate) => candidate.includes(`${role} "${name}"`))
    expect(line, `${role} "${name}" in\n${text}`).toBeDefined()
    return { text, ref: line!.match(/\[(e\d+)\]/)![1]! }
  })

layer(Layer.merge(liveLayer(testSettings()), PagesLive), { timeout: 120_000, excludeTestServices: true })("patterns of framework kits and editors", (it) => {
  describe("a dropdown whose combobox is a visually hidden input inside the box it draws", () => {
    it.effect("a click on the input's ref clicks the drawn box (not the label, whose click only focuses it): the panel opens, nothing scrolled (Playwright's own click on the input never ran), and the answer shows it", () =>
      Effect.gen(function* () {
        yield* open("/hidden-field-dropdown")
        const { ref } = yield* snapshotRef("textbox", "Country")
        const clicked = yield* call(click, { a11yRef: ref, timeoutMs: 5_000 })
        expect(clicked.ok, JSON.stringify(clicked)).toBe(true)
        expect(yield* state).toEqual({ open: true, focused: "country", scrolled: false })
        expect(JSON.stringify(clicked)).toContain("Search countries")
      }))

    it.effect("a drawn box whose click does nothing: the click fails saying it had no effect, never success", () =>
      Effect.gen(function* () {
        yield* open("/hidden-field-dropdown")
        const { ref } = yield* snapshotRef("textbox", "City")
        const clicked = yield* call(click, { a11yRef: ref, timeoutMs: 5_000 })
        expect(clicked.ok).toBe(false)
        expect(clicked.error?.message).toContain("had no effect")
        expect(yield* state).toEqual({ open: false, focused: null, scrolled: false })
      }))
  })

  describe("a dropdown as PrimeReact 10 renders it: its input clipped away in a hidden wrapper, a hidden native select beside it", () => {
    it.effect("a click on the input's ref clicks the label the dropdown draws where the input would be: the panel opens, and the answer shows it", () =>
      Effect.gen(function* () {
        yield* open("/prime-dropdown")
        const { ref } = yield* snapshotRef("textbox", "Countries")
        const clicked = yield* call(click, { a11yRef: ref, timeoutMs: 5_000 })
        expect(clicked.ok, JSON.stringify(clicked)).toBe(true)
        expect(yield* state).toEqual({ country: true, region: false, focused: "country" })
        expect(JSON.stringify(clicked)).toContain("Search countries")
      }))

    it.effect("nothing drawn where its input would be: the click through its label only focuses it, opens nothing, and fails saying it had no effect", () =>
      Effect.gen(function* () {
        yield* open("/prime-dropdown")
        const { ref } = yield* snapshotRef("textbox", "Regions")
        const clicked = yield* call(click, { a11yRef: ref, timeoutMs: 5_000 })
        expect(clicked.ok, JSON.stringify(clicked)).toBe(false)
        expect(clicked.error?.message).toContain("had no effect")
        expect(yield* state).toEqual({ country: false, region: false, focused: "region" })
      }))
  })

  describe("an editor whose placeholder is drawn over its empty editing host", () => {
    it.effect("the editing host is a textbox named by the placeholder, the words show whole, and typing into it types into the editor", () =>
      Effect.gen(function* () {
        yield* open("/overlay-placeholder")
        const { text, ref } = yield* snapshotRef("textbox", "Enter some text…")
        expect(text).not.toContain("more chars")
        const typed = yield* call(type, { a11yRef: ref, text: "Hello world" })
        expect(typed.ok, JSON.stringify(typed)).toBe(true)
        expect(yield* state).toEqual({ text: "Hello world" })
      }))
  })
})
