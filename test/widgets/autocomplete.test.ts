// mm_select_option on an autocomplete (issue 19's first-try widgets): an <input role="combobox"> whose
// listbox opens only once something is typed, filtered 300 ms after the last key, chooses its option on the
// first call (the start of the value typed, the option clicked, the input's value read back); a value it
// has no option for fails with the options typing showed. The session exports to a Playwright test that
// fills the combobox and clicks the option by role and name (Playwright's selectOption takes a <select>
// only), keeps selectOption for a native <select>, and passes under Playwright's own runner.
// Real Chromium, pages served on 127.0.0.1 by the test.
import * as fs from "node:fs"
import * as path from "node:path"
import { expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option } from "effect"
import { Session } from "../../src/services/Session.js"
import { exportSession } from "../../src/tools/knowledge.js"
import { corpusServer } from "../page/corpus.js"
import { html, liveLayer, testSettings } from "../support/browser.js"
import { call, ok, refOf } from "../support/calls.js"
import { REPO_ROOT, runPlaywrightTests, writePlaywrightConfig } from "../support/playwright-runner.js"

/** An autocomplete over cities: no popup on focus, click or arrow keys; the matches of what is typed, 300 ms after the last key. */
const autocomplete = `<label for="city">City</label> <input id="city" role="combobox" aria-controls="cities" aria-expanded="false" aria-autocomplete="list" autocomplete="off">
  <ul id="cities" role="listbox" aria-label="Cities" hidden></ul>
  <script>
    const all = ["Amsterdam", "Berlin", "Bergen", "Bordeaux", "Boston", "Paris"]
    const input = document.getElementById("city"), list = document.getElementById("cities")
    let timer
    const close = () => { list.hidden = true; input.setAttribute("aria-expanded", "false") }
    const filter = () => {
      const word = input.value.trim().toLowerCase()
      const matches = word === "" ? [] : all.filter((city) => city.toLowerCase().startsWith(word))
      list.innerHTML = matches.map((city) => '<li role="option">' + city + "</li>").join("")
      if (matches.length === 0) return close()
      list.hidden = false
      input.setAttribute("aria-expanded", "true")
    }
    input.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(filter, 300) })
    list.addEventListener("mousedown", (event) => event.preventDefault())
    list.addEventListener("click", (event) => {
      const option = event.target.closest("[role=option]")
      if (option === null) return
      input.value = option.textContent
      document.getElementById("chosen").textContent = option.textContent
      close()
    })
  </script>`

/** A combobox a click opens (a button-like one, nothing to type into) and a native select. */
const others = `<label id="size-label">Size</label>
  <div id="size" role="combobox" tabindex="0" aria-labelledby="size-label" aria-controls="sizes" aria-expanded="false">Pick one</div>
  <ul id="sizes" role="listbox" aria-label="Sizes" hidden><li role="option">Small</li><li role="option">Large</li></ul>
  <label for="color">Color</label> <select id="color"><option value="r">Red</option><option value="g">Green</option></select>
  <script>
    const box = document.getElementById("size"), sizes = document.getElementById("sizes")
    box.addEventListener("click", () => { sizes.hidden = !sizes.hidden; box.setAttribute("aria-expanded", String(!sizes.hidden)) })
    sizes.addEventListener("click", (event) => {
      const option = event.target.closest("[role=option]")
      if (option === null) return
      box.textContent = option.textContent
      document.getElementById("size-chosen").textContent = option.textContent
      sizes.hidden = true
      box.setAttribute("aria-expanded", "false")
    })
  </script>`

const pages = {
  "/trip": html("Trip", `${autocomplete}${others}<p>Chosen city: <span id="chosen" data-testid="chosen"></span></p><p>Chosen size: <span data-testid="size-chosen" id="size-chosen"></span></p>`)
}

class Pages extends Context.Tag("test/AutocompletePages")<Pages, { readonly url: string }>() {}

const PagesLive = Layer.scoped(Pages, Effect.map(corpusServer(pages), (server) => ({ url: server.url })))

layer(Layer.mergeAll(liveLayer(testSettings()), PagesLive), { timeout: 180_000, excludeTestServices: true })("select_option on an autocomplete", (it) => {
  it.effect("chooses on the first call by typing the start of the value; a missing option lists what typing showed; the export fills and clicks the option and passes under Playwright's runner", () =>
    Effect.gen(function* () {
      const { url } = yield* Pages
      yield* ok("launch", { force: true })
      yield* ok("navigate", { screen: "url", url: `${url}/trip` })

      // The city: the popup opens only once typed into; the input's value shows the choice.
      const city = yield* refOf("combobox", "City")
      const chosen = yield* ok("select_option", { a11yRef: city, values: ["Berlin"] })
      expect(chosen.result).toMatchObject({ selected: ["Berlin"], via: "listbox", typed: true })
      yield* ok("expect", { a11yRef: city, condition: "value", expected: "Berlin" })
      yield* ok("expect", { testId: "chosen", condition: "text", expected: "Berlin" })

      // A city it has no option for: typed, its start shows Berlin and Bergen, and the answer lists them.
      const missing = yield* call("select_option", { a11yRef: city, values: ["Bergamo"] })
      expect(missing.ok, JSON.stringify(missing)).toBe(false)
      expect(missing.error?.code).toBe("MM_SELECT_FAILED")
      expect(missing.error?.message).toContain('no option is named "Bergamo"')
      expect(missing.error?.message).toContain('"Berlin", "Bergen"')

      // A city whose start matches nothing: the list never shows; the answer says so, not that the popup failed.
      const none = yield* call("select_option", { a11yRef: city, values: ["Narnia"] })
      expect(none.error?.code).toBe("MM_SELECT_FAILED")
      expect(none.error?.message).toContain('no option may start with "Nar"')

      // Once more, after the failures left text typed: chosen again, from what it holds.
      const again = yield* ok("select_option", { a11yRef: city, values: ["Boston"] })
      expect(again.result).toMatchObject({ selected: ["Boston"], via: "listbox", typed: true })
      yield* ok("expect", { a11yRef: city, condition: "value", expected: "Boston" })

      // A combobox a click opens (nothing typed) and a native select.
      const size = yield* ok("select_option", { a11yRef: yield* refOf("combobox", "Size"), values: ["Large"] })
      expect(size.result).toMatchObject({ selected: ["Large"], via: "listbox" })
      expect(size.result.typed).toBeUndefined()
      yield* ok("expect", { testId: "size-chosen", condition: "text", expected: "Large" })
      const color = yield* ok("select_option", { a11yRef: yield* refOf("combobox", "Color"), values: ["Green"] })
      expect(color.result).toMatchObject({ selected: ["g"] })
      expect(color.result.via).toBeUndefined()

      const session = yield* Session
      const exported = yield* exportSession(Option.getOrThrow(yield* session.current).sessionId, "playwright")
      const code = exported.content
      expect(code).toContain('.fill("Berlin")')
      expect(code).toContain('await page.getByRole("option", { name: "Berlin", exact: true }).click()')
      expect(code).toContain('await page.getByRole("option", { name: "Large", exact: true }).click()')
      expect(code).toContain('.selectOption(["Green"])')
      expect(code).not.toContain('selectOption(["Berlin"])')
      expect(code).not.toContain('selectOption(["Large"])')
      expect(code).not.toContain("Bergamo")

      // Playwright's own runner on the export, against the same page.
      fs.mkdirSync(path.join(REPO_ROOT, ".tmp"), { recursive: true })
      const dir = fs.mkdtempSync(path.join(REPO_ROOT, ".tmp", "pw-autocomplete-"))
      fs.writeFileSync(path.join(dir, "flow.spec.ts"), code)
      const run = yield* runPlaywrightTests(writePlaywrightConfig(dir, { testTimeoutMs: 60_000 })).pipe(
        Effect.ensuring(Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true })))
      )
      expect(run.output, `${code}\n${run.output}`).toContain("1 passed")
      expect(run.status).toBe(0)
    }))
})
