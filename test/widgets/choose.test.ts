// mm_select_option beyond a plain <select> target (issue 19), in real Chromium: an option's ref selects
// it in its own select; an ARIA listbox or custom combobox of real libraries (served from their npm builds
// by bench/widgets' corpus) is opened, its option found by name and clicked, and the answer is "ok" only
// once the widget showed the choice; each end state is read through the widget's own API. Hand-written
// pages give the failures their true reasons: no such option (the options listed), a value that names two
// options (MM_INVALID_INPUT), a popup that never opens, an option whose click the widget ignores.
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { serveWidgetCorpus } from "../../bench/widgets/corpus.js"
import { pages as corpusPages } from "../../bench/widgets/tasks.js"
import { widerPages } from "../../bench/widgets/wider.js"
import { accessibilitySnapshot } from "../../src/tools/discovery.js"
import { evaluate } from "../../src/tools/evaluate.js"
import { selectOption } from "../../src/tools/interaction.js"
import { navigate } from "../../src/tools/navigation.js"
import { html, liveLayer, testSettings } from "../support/browser.js"
import { pageHarness } from "../support/page-harness.js"
import { linesNamed } from "../page/parse.js"

const FRUITS = ["Apple", "Banana", "Cherry", "Pear", "Pear", "Plum", "Quince", "Raspberry", "Strawberry", "Tangerine", "Ugli", "Vanilla bean", "Watermelon"]

const pages = {
  "/native": html(
    "Native",
    `<label for="size">Size</label> <select id="size" size="4"><option value="s">Small</option><option value="m">Medium</option><optgroup label="Big"><option value="l">Large</option></optgroup></select>
    <script>window.widgetState = () => ({ size: document.getElementById("size").value })</script>`
  ),
  // A listbox that keeps several (a click toggles aria-selected), two options of one name, and Plum, whose click the widget ignores.
  "/listbox": html(
    "Listbox",
    `<div role="listbox" aria-label="Fruit" aria-multiselectable="true">${FRUITS.map((f, i) => `<div role="option" id="o${i}" aria-selected="false">${f}</div>`).join("")}</div>
    <script>
      document.querySelector("[role=listbox]").addEventListener("click", (event) => {
        const option = event.target.closest("[role=option]")
        if (option && option.textContent !== "Plum") option.setAttribute("aria-selected", String(option.getAttribute("aria-selected") !== "true"))
      })
      window.widgetState = () => Array.from(document.querySelectorAll("[aria-selected=true]"), (o) => o.textContent)
    </script>`
  ),
  // An editable combobox over 60 cities that lists the first five on focus and filters 200 ms after the last key.
  "/cities": html(
    "Cities",
    `<label for="city">City</label> <input id="city" role="combobox" aria-controls="cities" aria-expanded="false" autocomplete="off">
    <ul id="cities" role="listbox" hidden></ul>
    <script>
      const all = Array.from({ length: 60 }, (_, i) => "City " + String(i + 1).padStart(2, "0")).concat(["Lisbon", "Porto"])
      const input = document.getElementById("city"), list = document.getElementById("cities")
      let chosen = null, timer
      const show = () => {
        const word = input.value.toLowerCase()
        list.innerHTML = all.filter((c) => c.toLowerCase().includes(word)).slice(0, 5).map((c) => '<li role="option">' + c + "</li>").join("")
        list.hidden = false
        input.setAttribute("aria-expanded", "true")
      }
      input.addEventListener("focus", show)
      input.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(show, 200) })
      list.addEventListener("mousedown", (event) => event.preventDefault())
      list.addEventListener("click", (event) => {
        const option = event.target.closest("[role=option]")
        chosen = input.value = option.textContent
        list.hidden = true
        input.setAttribute("aria-expanded", "false")
      })
      window.widgetState = () => ({ chosen })
    </script>`
  ),
  // Options named with their state first (as UI5's multi-combobox names them): "Not Selected, Mint", text "Mint".
  "/stated": html(
    "Stated",
    `<div role="listbox" aria-label="Flavour" aria-multiselectable="true">${["Mint", "Vanilla", "Mint chip"].map((f, i) => `<div role="option" id="s${i}" aria-selected="false" aria-label="Not Selected, ${f}">${f}</div>`).join("")}
    <div role="option" aria-selected="false" aria-label="Not Selected, Lime">Lime</div><div role="option" aria-selected="false" aria-label="Selected, Lime">Lime</div></div>
    <script>
      document.querySelector("[role=listbox]").addEventListener("click", (event) => {
        const option = event.target.closest("[role=option]")
        if (!option) return
        const on = option.getAttribute("aria-selected") !== "true"
        option.setAttribute("aria-selected", String(on))
        option.setAttribute("aria-label", (on ? "Selected, " : "Not Selected, ") + option.textContent)
      })
      window.widgetState = () => Array.from(document.querySelectorAll("[aria-selected=true]"), (o) => o.textContent)
    </script>`
  ),
  // A button that says it pops up a listbox and opens nothing.
  "/dead": html("Dead", `<button aria-haspopup="listbox" aria-expanded="false">Colour</button>`),
  // Element Plus's multiple select: a read-only combobox input under the placeholder its component draws over
  // it (which takes the pointer and shows the chosen labels); a click on the component opens the listbox, an option's click toggles it.
  "/covered-multi": html(
    "Covered multi",
    `<style>.select{position:relative;width:220px;height:28px;border:1px solid #999}.select input{width:180px;height:24px;border:0}
      .placeholder{position:absolute;inset:0;padding:4px;background:white}</style>
    <div class="select" id="labels"><div class="input-wrapper"><input role="combobox" readonly aria-label="Labels" aria-expanded="false" aria-controls="list" aria-haspopup="listbox"></div>
      <div class="placeholder">Add labels</div></div>
    <ul role="listbox" id="list" aria-multiselectable="true" hidden>${["Fragile", "Heavy", "Urgent"].map((l) => `<li role="option" aria-selected="false">${l}</li>`).join("")}</ul>
    <script>
      const select = document.getElementById("labels"), input = select.querySelector("input"), list = document.getElementById("list")
      select.addEventListener("click", () => { list.hidden = !list.hidden; input.setAttribute("aria-expanded", String(!list.hidden)) })
      list.addEventListener("click", (event) => {
        const option = event.target.closest("[role=option]")
        option.setAttribute("aria-selected", String(option.getAttribute("aria-selected") !== "true"))
        select.querySelector(".placeholder").textContent = widgetState().join(", ") || "Add labels"
      })
      window.widgetState = () => Array.from(list.querySelectorAll("[aria-selected=true]"), (o) => o.textContent)
    </script>`
  )
}

const { PagesLive, call, open } = pageHarness("test/ChooseWidgetPages", pages)

class Corpus extends Context.Tag("test/ChooseWidgetCorpus")<Corpus, { readonly url: string }>() {}
const CorpusLive = Layer.scoped(
  Corpus,
  Effect.acquireRelease(Effect.promise(() => serveWidgetCorpus({ ...corpusPages, ...widerPages })), (corpus) => Effect.promise(() => corpus.close()))
)

const snapshotOf = Effect.map(call(accessibilitySnapshot), (envelope) => envelope.snapshot as string)
const evaluated = (expression: string) => Effect.map(call(evaluate, { expression }), (envelope) => envelope.result.value)
const widgetState = evaluated("window.widgetState()")

/** The ref of the first node with one of the roles and the name. */
const refOf = (roles: ReadonlyArray<string>, name: string) =>
  Effect.gen(function* () {
    const snapshot = yield* snapshotOf
    const line = roles.flatMap((role) => linesNamed(snapshot, role, name)).find((candidate) => candidate.ref !== undefined)
    expect(line?.ref, `${roles.join("/")} "${name}" in\n${snapshot}`).toBeDefined()
    return line!.ref!
  })

/** Opens a corpus page (launching on a page of our own first). */
const visit = (path: string) =>
  Effect.gen(function* () {
    const { url } = yield* Corpus
    yield* open("/dead")
    expect((yield* call(navigate, { screen: "url", url: `${url}${path}` })).ok).toBe(true)
  })

/** select_option on the widget named `name`, which must answer ok with the names chosen, via the listbox. */
const choose = (roles: ReadonlyArray<string>, name: string, values: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const answer = yield* call(selectOption, { a11yRef: yield* refOf(roles, name), values })
    expect(answer.ok, JSON.stringify(answer)).toBe(true)
    expect(answer.result).toMatchObject({ selected: values, via: "listbox" })
  })

/** The widget's state as the page reports it through the library's API, once it holds `expected` (a frame or two late is fine). */
const stateBecomes = (expression: string, expected: unknown) =>
  Effect.gen(function* () {
    let last: unknown
    for (let i = 0; i < 20; i++) {
      last = yield* evaluated(expression)
      if (JSON.stringify(last) === JSON.stringify(expected)) return
      yield* Effect.sleep(50)
    }
    expect(last).toEqual(expected)
  })

const COMBO = ["combobox", "button"]

layer(Layer.mergeAll(liveLayer(testSettings()), PagesLive, CorpusLive), { timeout: 180_000, excludeTestServices: true })("select_option on more than a select", (it) => {
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

  describe("a combobox under its component's drawn placeholder", () => {
    it.effect("select_option opens it through the placeholder a person clicks, and chooses two options", () =>
      Effect.gen(function* () {
        yield* open("/covered-multi")
        const answer = yield* call(selectOption, { a11yRef: yield* refOf(["combobox"], "Labels"), values: ["Fragile", "Urgent"], timeoutMs: 8_000 })
        expect(answer.ok, JSON.stringify(answer)).toBe(true)
        expect(yield* widgetState).toEqual(["Fragile", "Urgent"])
      }))
  })

  describe("real widget libraries, each end state read through the library", () => {
    it.effect("Shoelace sl-select (web component, listbox in its shadow root, slotted options)", () =>
      Effect.gen(function* () {
        yield* visit("/shoelace")
        yield* choose(COMBO, "Size", ["Large"])
        yield* stateBecomes(`document.getElementById("size").value`, "large")
      }))

    it.effect("Tom Select (editable combobox over a native select)", () =>
      Effect.gen(function* () {
        yield* visit("/tom-select")
        yield* choose(COMBO, "Country", ["Portugal"])
        yield* stateBecomes("ts.getValue()", "portugal")
      }))

    it.effect("Select2 (jQuery plugin; popup appended to the body, search field in it)", () =>
      Effect.gen(function* () {
        yield* visit("/select2")
        // Select2's combobox is named by its placeholder; the ref may be the box that shows the value inside it.
        yield* choose(["combobox", "textbox"], "Choose a country", ["Portugal"])
        yield* stateBecomes(`$("#country").val()`, "portugal")
      }))

    it.effect("Choices.js multiple: two values, each a chip", () =>
      Effect.gen(function* () {
        yield* visit("/choices")
        // Its combobox has no name: the search field inside it does.
        yield* choose(["searchbox"], "Colors", ["Red", "Blue"])
        yield* stateBecomes("choices.getValue(true).slice().sort()", ["blue", "red"])
      }))

    it.effect("react-select isMulti: two values, the menu opened again for the second", () =>
      Effect.gen(function* () {
        yield* visit("/react-select")
        yield* choose(COMBO, "Flavour", ["Mint", "Vanilla"])
        yield* stateBecomes("window.benchState().values", ["mint", "vanilla"])
      }))

    it.effect("Radix Select (a button trigger, listbox in a portal)", () =>
      Effect.gen(function* () {
        yield* visit("/radix-select")
        yield* choose(COMBO, "Fruit", ["Banana"])
        yield* stateBecomes("window.benchState().value", "banana")
      }))

    it.effect("Material UI Select and Autocomplete", () =>
      Effect.gen(function* () {
        yield* visit("/mui")
        yield* choose(COMBO, "Age", ["Twenty"])
        yield* stateBecomes("window.benchState().age", 20)
        yield* choose(COMBO, "Country", ["Portugal"])
        yield* stateBecomes("window.benchState().country", "Portugal")
      }))
  })

  describe("an editable combobox whose option shows only once typed", () => {
    it.effect("the value is typed into the combobox, the filtered option clicked, and the choice seen", () =>
      Effect.gen(function* () {
        yield* open("/cities")
        yield* choose(["combobox"], "City", ["Porto"])
        expect(yield* widgetState).toEqual({ chosen: "Porto" })
      }))
  })

  describe("failures with their true reasons, never a false ok", () => {
    it.effect("a multi-select listbox: two options toggled on; a value naming two options is MM_INVALID_INPUT; an unknown one lists the options; an ignored click fails", () =>
      Effect.gen(function* () {
        yield* open("/listbox")
        const fruit = yield* refOf(["listbox"], "Fruit")
        const both = yield* call(selectOption, { a11yRef: fruit, values: ["apple", "Cherry"] })
        expect(both.ok, JSON.stringify(both)).toBe(true)
        expect(both.result).toMatchObject({ selected: ["Apple", "Cherry"], via: "listbox" })
        expect(yield* widgetState).toEqual(["Apple", "Cherry"])

        const twice = yield* call(selectOption, { a11yRef: fruit, values: ["Pear"] })
        expect(twice.ok).toBe(false)
        expect(twice.error?.code).toBe("MM_INVALID_INPUT")
        expect(twice.error?.message).toContain('"Pear", "Pear"')

        // Never a part of a name: "Vanilla" is not "Vanilla bean".
        const unknown = yield* call(selectOption, { a11yRef: fruit, values: ["Vanilla"] })
        expect(unknown.ok).toBe(false)
        expect(unknown.error?.code).toBe("MM_SELECT_FAILED")
        expect(unknown.error?.message).toContain('no option is named "Vanilla"; the options are "Apple", "Banana"')
        expect(unknown.error?.message).toContain("(13 in all)")

        const ignored = yield* call(selectOption, { a11yRef: fruit, values: ["Plum"] })
        expect(ignored.ok).toBe(false)
        expect(ignored.error?.message).toContain('"Plum" was clicked, but the widget did not show it chosen')
        expect(yield* widgetState).toEqual(["Apple", "Cherry"])
      }))

    it.effect("options named with their state first are found by their own label; two that match only so are ambiguous", () =>
      Effect.gen(function* () {
        yield* open("/stated")
        const flavour = yield* refOf(["listbox"], "Flavour")
        const mint = yield* call(selectOption, { a11yRef: flavour, values: ["Mint"] })
        expect(mint.ok, JSON.stringify(mint)).toBe(true)
        expect(mint.result).toMatchObject({ selected: ["Mint"] })
        // "Mint", not "Mint chip": the state word comes off, never a part of the label.
        expect(yield* widgetState).toEqual(["Mint"])
        const lime = yield* call(selectOption, { a11yRef: flavour, values: ["Lime"] })
        expect(lime.ok).toBe(false)
        expect(lime.error?.message).toContain("Lime")
        expect(yield* widgetState).toEqual(["Mint"])
      }))

    it.effect("a popup button that opens nothing says so", () =>
      Effect.gen(function* () {
        yield* open("/dead")
        const answer = yield* call(selectOption, { a11yRef: yield* refOf(["button"], "Colour"), values: ["Red"] })
        expect(answer.ok).toBe(false)
        expect(answer.error?.message).toContain("its popup did not open")
      }))
  })
})
