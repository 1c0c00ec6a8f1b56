// Patterns of the React component kits in bench/widgets (third-react.ts), each on a small hand-written
// page in real Chromium (no library code): a select whose search field says autocomplete="new-password"
// to keep the browser's autofill away, and whose popup keeps its options twice: as a listbox of no size
// for assistive technology (role=option, aria-label) and as the list it draws without roles; and a date
// field of spin button segments that take keys and move the focus on when one is full.
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { evaluate } from "../../src/tools/evaluate.js"
import { selectOption, type } from "../../src/tools/interaction.js"
import { html, liveLayer, testSettings } from "../support/browser.js"
import { pageHarness } from "../support/page-harness.js"

const COUNTRIES = ["Austria", "Belgium", "France", "Germany", "Poland", "Portugal", "Spain"]

const pages = {
  // The popup (appended to the body) opens on a click or a key; typing filters it. The listbox of no size holds
  // the active option and the next one only; the drawn list holds every match; a click on a drawn item chooses.
  "/search-select": html(
    "Search select",
    `<h1>Shipping</h1>
    <label for="country">Country</label>
    <span class="select"><span id="chosen"></span><input id="country" role="combobox" autocomplete="new-password" aria-autocomplete="list" aria-expanded="false" aria-haspopup="listbox" aria-controls="country_list"></span>
    <script>
      const all = ${JSON.stringify(COUNTRIES)}
      const input = document.getElementById("country")
      let chosen = null, popup = null
      const render = () => {
        const query = input.value.toLowerCase()
        const matches = all.filter((c) => c.toLowerCase().includes(query))
        popup.innerHTML = '<div role="listbox" id="country_list" style="height:0;width:0;overflow:hidden">' +
          matches.slice(0, 2).map((c, i) => '<div role="option" aria-label="' + c + '" aria-selected="' + (c === chosen) + '" id="country_list_' + i + '">' + c + '</div>').join("") + '</div>' +
          '<div class="list">' + matches.map((c) => '<div class="item" title="' + c + '"><div class="content">' + c + '</div></div>').join("") + '</div>'
      }
      const open = () => {
        if (popup) return
        popup = document.createElement("div")
        popup.style.cssText = "position:absolute;top:80px;left:10px;background:white;border:1px solid #ccc;width:200px"
        popup.addEventListener("click", (event) => {
          const item = event.target.closest(".item")
          if (!item) return
          chosen = item.title
          document.getElementById("chosen").textContent = chosen
          input.value = ""
          close()
        })
        document.body.append(popup)
        input.setAttribute("aria-expanded", "true")
        render()
      }
      const close = () => { popup?.remove(); popup = null; input.setAttribute("aria-expanded", "false") }
      input.addEventListener("click", open)
      input.addEventListener("keydown", open)
      input.addEventListener("input", () => { open(); render() })
      window.widgetState = () => ({ chosen })
    </script>`
  ),
  // Each segment takes digits from beforeinput (its default prevented), holds them in aria-valuenow and
  // moves the focus to the next segment once no further digit fits (its aria-valuemax).
  "/date-segments": html(
    "Date segments",
    `<h1>Task</h1><span id="due">Due date</span>
    <div role="group" aria-labelledby="due">${[["month", 12, "mm"], ["day", 31, "dd"], ["year", 9999, "yyyy"]]
      .map(([name, max, empty]) => `<span role="spinbutton" contenteditable="true" aria-label="${name}" aria-valuemin="1" aria-valuemax="${max}" data-empty="${empty}">${empty}</span>`)
      .join(" / ")}</div>
    <script>
      const segments = Array.from(document.querySelectorAll("[role=spinbutton]"))
      segments.forEach((segment, index) => {
        let entered = ""
        const max = Number(segment.getAttribute("aria-valuemax"))
        segment.addEventListener("focus", () => (entered = ""))
        segment.addEventListener("beforeinput", (event) => {
          event.preventDefault()
          for (const digit of (event.data ?? "").replace(/\\D/g, "")) {
            entered = Number(entered + digit) > max ? digit : entered + digit
            segment.setAttribute("aria-valuenow", String(Number(entered)))
            segment.textContent = entered
            if (Number(entered + "0") > max && index < segments.length - 1) segments[index + 1].focus()
          }
        })
      })
      const value = (name) => document.querySelector("[aria-label=" + name + "]").getAttribute("aria-valuenow")
      const pad = (text, width) => String(text).padStart(width, "0")
      window.widgetState = () => ({ date: value("month") && value("day") && value("year") ? pad(value("year"), 4) + "-" + pad(value("month"), 2) + "-" + pad(value("day"), 2) : null })
    </script>`
  )
}

const { PagesLive, call, open } = pageHarness("test/KitPatternPages", pages)

const state = Effect.map(call(evaluate, { expression: "window.widgetState()" }), (envelope) => envelope.result.value)

layer(Layer.merge(liveLayer(testSettings()), PagesLive), { timeout: 120_000, excludeTestServices: true })("patterns of React component kits", (it) => {
  describe("a select's search field that says autocomplete=new-password", () => {
    it.effect("what is typed into it is no secret: the answer shows the filtered options as they read", () =>
      Effect.gen(function* () {
        yield* open("/search-select")
        const typed = yield* call(type, { selector: "#country", text: "Por" })
        expect(typed.ok).toBe(true)
        expect(typed.result.sensitive).toBeUndefined()
        const seen = JSON.stringify(typed)
        expect(seen).toContain("Portugal")
        expect(seen).not.toContain("[secret")
      }))
  })

  describe("options kept twice: a listbox of no size and the list the popup draws", () => {
    it.effect("select_option clicks what the popup draws for the option, and answers once the widget shows it chosen", () =>
      Effect.gen(function* () {
        yield* open("/search-select")
        const chosen = yield* call(selectOption, { selector: "#country", values: ["Portugal"] })
        expect(chosen.ok).toBe(true)
        expect(yield* state).toEqual({ chosen: "Portugal" })
      }))
  })

  describe("a date field of spin button segments", () => {
    it.effect("typing 03142025 into its first segment fills the three as a person's keys do, and is judged by them", () =>
      Effect.gen(function* () {
        yield* open("/date-segments")
        const typed = yield* call(type, { selector: "[aria-label=month]", text: "03142025" })
        expect(typed.ok).toBe(true)
        expect(yield* state).toEqual({ date: "2025-03-14" })
      }))

    it.effect("text the segments do not take fails, saying what they hold", () =>
      Effect.gen(function* () {
        yield* open("/date-segments")
        const typed = yield* call(type, { selector: "[aria-label=month]", text: "next week" })
        expect(typed.ok).toBe(false)
        expect(JSON.stringify(typed)).toContain("mm dd yyyy")
        expect(yield* state).toEqual({ date: null })
      }))
  })
})
