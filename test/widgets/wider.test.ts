// Patterns found by widening bench/widgets to more libraries (issue 19), each on a small hand-written page
// in real Chromium (no library code): an editor named by its label whose placeholder is drawn by CSS
// generated content (TinyMCE's body in its iframe), date cells labelled with other words than the day
// number they show (react-datepicker), and a text field that shows suggestions of its own
// 300 ms after the last key without any ARIA (jQuery UI's autocomplete: only autocomplete="off").
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { accessibilitySnapshot } from "../../src/tools/discovery.js"
import { evaluate } from "../../src/tools/evaluate.js"
import { find } from "../../src/tools/find.js"
import { click, type } from "../../src/tools/interaction.js"
import { html, liveLayer, testSettings } from "../support/browser.js"
import { pageHarness } from "../support/page-harness.js"
import { linesNamed } from "../page/parse.js"

const LANGUAGES = ["Java", "JavaScript", "Perl", "PHP", "Python", "Ruby", "Scala"]

const pages = {
  // The placeholder is the ::before content of the empty editing host, from an attribute; the host is named by aria-label.
  "/named-editor": html(
    "Named editor",
    `<style>.body{border:1px solid #ccc;min-height:80px;padding:8px}
      .body[data-empty]::before{content:attr(data-ph);color:#999;position:absolute;pointer-events:none}</style>
    <h1>New post</h1>
    <div class="body" contenteditable="true" aria-label="Rich Text Area" data-ph="Write your post" data-empty><p><br></p></div>
    <script>
      const body = document.querySelector(".body")
      body.addEventListener("input", () => body.toggleAttribute("data-empty", body.textContent.length === 0))
      window.widgetState = () => ({ text: body.textContent })
    </script>`
  ),
  // A month of gridcells labelled "Choose Friday, March 14th, 2025" that show the day's number (react-datepicker), and one labelled with the number as a word.
  "/labelled-days": html(
    "Labelled days",
    `<h1>March 2025</h1>
    <div role="grid" aria-label="Month"><div role="row">${Array.from({ length: 7 }, (_, i) => `<div role="gridcell" tabindex="-1" aria-label="Choose ${["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][i]}, March ${10 + i}th, 2025">${10 + i}</div>`).join("")}</div>
    <div role="row"><div role="gridcell" aria-label="March 21, 2025">21</div></div></div>
    <script>
      let picked = null
      document.querySelector("[role=grid]").addEventListener("click", (event) => (picked = event.target.closest("[role=gridcell]")?.textContent ?? null))
      window.widgetState = () => ({ picked })
    </script>`
  ),
  // A button that opens five weeks of day cells labelled "Choose Monday, March 3rd, 2025" that show the day's number.
  "/calendar-popup": html(
    "Calendar popup",
    `<button id="open">Pick a date</button>
    <script>
      const days = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
      let picked = null
      document.getElementById("open").addEventListener("click", () => {
        const grid = document.createElement("div")
        grid.setAttribute("role", "grid")
        grid.setAttribute("aria-label", "March 2025")
        grid.innerHTML = Array.from({ length: 5 }, (_, week) =>
          '<div role="row">' + days.map((day, i) => {
            const n = 3 + week * 7 + i
            const [month, shown] = n > 31 ? ["April", n - 31] : ["March", n]
            const th = shown % 10 === 1 && shown !== 11 ? "st" : shown % 10 === 2 && shown !== 12 ? "nd" : shown % 10 === 3 && shown !== 13 ? "rd" : "th"
            return '<div role="gridcell" aria-label="Choose ' + day + ", " + month + " " + shown + th + ', 2025">' + shown + "</div>"
          }).join("") + "</div>").join("")
        grid.addEventListener("click", (event) => (picked = event.target.closest("[role=gridcell]")?.textContent ?? null))
        document.body.append(grid)
      })
      window.widgetState = () => ({ picked })
    </script>`
  ),
  // Suggestions in a plain list appended to the body, 300 ms after the last key; the field has no role or aria-* of its own.
  "/suggestions": html(
    "Suggestions",
    `<label for="language">Favourite language</label> <input id="language" autocomplete="off">
    <script>
      const all = ${JSON.stringify(LANGUAGES)}
      const input = document.getElementById("language")
      const list = document.createElement("ul")
      document.body.append(list)
      let timer
      input.addEventListener("input", () => {
        clearTimeout(timer)
        timer = setTimeout(() => {
          const query = input.value.toLowerCase()
          list.innerHTML = query === "" ? "" : all.filter((l) => l.toLowerCase().startsWith(query)).map((l) => "<li>" + l + "</li>").join("")
        }, 300)
      })
      list.addEventListener("click", (event) => { input.value = event.target.textContent; list.innerHTML = "" })
    </script>`
  )
}

const { PagesLive, call, open } = pageHarness("test/WiderWidgetPages", pages)

const snapshotOf = Effect.map(call(accessibilitySnapshot), (envelope) => envelope.snapshot as string)

layer(Layer.merge(liveLayer(testSettings()), PagesLive), { timeout: 120_000, excludeTestServices: true })("patterns of more widget libraries", (it) => {
  describe("an editor whose placeholder CSS draws", () => {
    it.effect("an empty editor named by its label shows the placeholder it draws as its text, is found by it, and shows what is typed instead", () =>
      Effect.gen(function* () {
        yield* open("/named-editor")
        const [editor] = linesNamed(yield* snapshotOf, "textbox", "Rich Text Area")
        expect(editor?.text).toBe("Write your post")
        const found = yield* call(find, { text: "Write your post" })
        expect(found.result.found).toBe(1)
        expect(found.snapshot).toContain(`textbox "Rich Text Area" [${editor!.ref}]: Write your post`)
        expect((yield* call(type, { a11yRef: editor!.ref, text: "Hello" })).ok).toBe(true)
        expect((yield* call(evaluate, { expression: "window.widgetState()" })).result.value).toEqual({ text: "Hello" })
        expect(linesNamed(yield* snapshotOf, "textbox", "Rich Text Area")[0]?.text).toBe("Hello")
      }))
  })

  describe("a labelled cell that shows other words than its label", () => {
    it.effect("a gridcell labelled 'Choose Friday, March 14th, 2025' shows its 14, which find matches and a click picks; a label that says the text as a word shows none", () =>
      Effect.gen(function* () {
        yield* open("/labelled-days")
        const text = yield* snapshotOf
        const [day] = linesNamed(text, "gridcell", "Choose Friday, March 14th, 2025")
        expect(day?.text).toBe("14")
        expect(linesNamed(text, "gridcell", "March 21, 2025")[0]?.text).toBeUndefined()
        const found = yield* call(find, { text: "14" })
        expect(found.snapshot).toContain(`gridcell "Choose Friday, March 14th, 2025" [${day!.ref}]: 14`)
        expect((yield* call(click, { a11yRef: day!.ref })).ok).toBe(true)
        expect((yield* call(evaluate, { expression: "window.widgetState()" })).result.value).toEqual({ picked: "14" })
      }))
  })

  describe("a calendar that opens on a click", () => {
    it.effect("the click's answer shows the first week's first day whole and folds its other days and weeks to their numbers; find and click still reach any day", () =>
      Effect.gen(function* () {
        yield* open("/calendar-popup")
        const [button] = linesNamed(yield* snapshotOf, "button", "Pick a date")
        const opened = yield* call(click, { a11yRef: button!.ref })
        expect(opened.ok).toBe(true)
        const answer = opened.snapshot as string
        const lines = answer.split("\n")
        // The first week: its first day with its label (the pattern of the others), then its other six days by the numbers they show.
        const first = lines.findIndex((line) => line.includes('gridcell "Choose Monday, March 3rd, 2025"'))
        expect(first).toBeGreaterThan(0)
        expect(lines[first]).toMatch(/: 3$/)
        expect(lines[first + 1]).toMatch(/^\s*gridcell ×6 \[e\d+\.\.e\d+\]: 4 \| 5 \| 6 \| … \| 9$/)
        expect(lines[first + 2]).toMatch(/^\s*row ×4 \[/)
        expect(answer).not.toContain("Choose Tuesday")
        // A folded day is still found by its label and by its number, and a click on it picks it.
        const byName = yield* call(find, { name: "Choose Friday, March 7th, 2025" })
        expect(byName.result.found).toBe(1)
        const [friday] = linesNamed(byName.snapshot as string, "gridcell", "Choose Friday, March 7th, 2025")
        expect(friday?.text).toBe("7")
        const byText = yield* call(find, { text: "7", role: "gridcell" })
        expect(byText.snapshot as string).toContain(`gridcell "Choose Friday, March 7th, 2025" [${friday!.ref}]: 7`)
        expect((yield* call(click, { a11yRef: friday!.ref })).ok).toBe(true)
        expect((yield* call(evaluate, { expression: "window.widgetState()" })).result.value).toEqual({ picked: "7" })
      }))
  })

  describe("a field with suggestions of its own", () => {
    it.effect("a text field with autocomplete off that lists suggestions 300 ms after the last key: the answer to type shows them", () =>
      Effect.gen(function* () {
        yield* open("/suggestions")
        const typed = yield* call(type, { selector: "#language", text: "Jav" })
        expect(typed.ok).toBe(true)
        const seen = JSON.stringify(typed)
        expect(seen).toContain("JavaScript")
        expect(seen).not.toContain("Python")
      }))
  })
})
