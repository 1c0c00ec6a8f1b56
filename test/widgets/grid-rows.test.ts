// A data grid drawn in a shadow root (the pattern of Vaadin's grid), on a hand-written page in real Chromium:
// rows whose first cell holds a selection checkbox, and sortable headers whose label sits on a sorter
// element inside the header ("Sort by Age" around the word Age). "The checkbox in Bob's row" must be in
// our answers with its ref (a run of like rows must not hide it), find must answer Bob's row with its
// cells and its checkbox, and a header shows its name as Playwright's getByRole computes it.
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { accessibilitySnapshot } from "../../src/tools/discovery.js"
import { evaluate } from "../../src/tools/evaluate.js"
import { find } from "../../src/tools/find.js"
import { setChecked } from "../../src/tools/gestures.js"
import { click } from "../../src/tools/interaction.js"
import { html, liveLayer, testSettings } from "../support/browser.js"
import { PEOPLE } from "../../bench/widgets/tasks.js"
import { pageHarness } from "../support/page-harness.js"
import { launchChromium } from "../page/oracle.js"
import { linesNamed, parseSnapshot } from "../page/parse.js"


const gridPage = html(
  "Shadow grid",
  `<h1>Team</h1>
  <x-grid id="team" aria-label="Team"></x-grid>
  <script>
    const team = ${JSON.stringify(PEOPLE)}
    let sort = null
    const selected = new Set()
    customElements.define("x-grid", class extends HTMLElement {
      connectedCallback() {
        this.root = this.attachShadow({ mode: "open" })
        this.render()
      }
      render() {
        const rows = sort === null ? team : team.slice().sort((a, b) => a[sort] < b[sort] ? -1 : a[sort] > b[sort] ? 1 : 0)
        const header = (key, label) => '<th role="columnheader"' + (sort === key ? ' aria-sort="ascending"' : "") + '><span class="sorter" data-key="' + key + '" aria-label="Sort by ' + label + '"><span>' + label + "</span></span></th>"
        this.root.innerHTML = '<table role="treegrid"><thead><tr role="row"><th role="columnheader">Select</th>' + header("name", "Name") + '<th role="columnheader">City</th>' + header("age", "Age") + "</tr></thead><tbody>" +
          rows.map((r, i) => '<tr role="row"><td role="gridcell"><input type="checkbox" aria-label="Select Row ' + (i + 1) + '" data-name="' + r.name + '"' + (selected.has(r.name) ? " checked" : "") + '></td><td role="gridcell">' + r.name + '</td><td role="gridcell">' + r.city + '</td><td role="gridcell">' + r.age + "</td></tr>").join("") + "</tbody></table>"
        for (const s of this.root.querySelectorAll(".sorter")) s.addEventListener("click", () => { sort = s.dataset.key; this.render() })
        for (const box of this.root.querySelectorAll("input")) box.addEventListener("change", () => { box.checked ? selected.add(box.dataset.name) : selected.delete(box.dataset.name) })
      }
    })
    window.widgetState = () => ({ sort, selected: [...selected].sort() })
  </script>`
)

const { PagesLive, call, open } = pageHarness("test/GridRowPages", { "/grid": gridPage })

const snapshotOf = Effect.map(call(accessibilitySnapshot), (envelope) => envelope.snapshot as string)

/** The refs of the nodes inside the row line that holds a line reading `text`. */
const rowAround = (text: string, want: string) => {
  const lines = parseSnapshot(text)
  const at = lines.findIndex((line) => line.name === want || line.text === want)
  let top = at
  while (top >= 0 && lines[top]!.role !== "row") top--
  const inside = [lines[top]!]
  for (const line of lines.slice(top + 1)) {
    if (line.depth <= lines[top]!.depth) break
    inside.push(line)
  }
  return inside
}

layer(Layer.merge(liveLayer(testSettings()), PagesLive), { timeout: 120_000, excludeTestServices: true })("a grid in a shadow root", (it) => {
  describe("rows that hold a checkbox", () => {
    it.effect("the snapshot shows each row's checkbox with its ref beside the row's cells; the one in Bob's row selects Bob", () =>
      Effect.gen(function* () {
        yield* open("/grid")
        const text = yield* snapshotOf
        expect(text).not.toMatch(/row ×/)
        const row = rowAround(text, "Bob")
        expect(row.map((line) => line.name)).toEqual(expect.arrayContaining(["Bob", "Berlin", "42"]))
        const box = row.find((line) => line.role === "checkbox")
        expect(box?.name).toBe("Select Row 2")
        expect((yield* call(setChecked, { a11yRef: box!.ref, checked: true })).ok).toBe(true)
        expect((yield* call(evaluate, { expression: "window.widgetState()" })).result.value).toEqual({ sort: null, selected: ["Bob"] })
      }))

    it.effect("find {role: row, text: Bob} answers Bob's row with its cells and its checkbox's ref", () =>
      Effect.gen(function* () {
        yield* open("/grid")
        const found = yield* call(find, { role: "row", text: "Bob" })
        expect(found.result.found).toBe(1)
        const lines = parseSnapshot(found.snapshot as string)
        expect(lines.filter((line) => line.role === "gridcell").map((line) => line.name)).toEqual(["", "Bob", "Berlin", "42"])
        const [box] = lines.filter((line) => line.role === "checkbox")
        expect(box?.name).toBe("Select Row 2")
        // A find for the cell's text alone shows the same row whole.
        const byText = yield* call(find, { text: "Bob" })
        expect(linesNamed(byText.snapshot as string, "checkbox", "Select Row 2")[0]?.ref).toBe(box!.ref)
        expect((yield* call(setChecked, { a11yRef: box!.ref, checked: true })).ok).toBe(true)
        expect((yield* call(evaluate, { expression: "window.widgetState()" })).result.value).toEqual({ sort: null, selected: ["Bob"] })
      }))
  })

  describe("a header labelled by its sorter", () => {
    it.effect("a header shows the name getByRole gives it, next to its sorter's line, and keeps it once sorted", () =>
      Effect.gen(function* () {
        // Playwright's name for the header, from the same page.
        const theirs = yield* Effect.acquireUseRelease(
          Effect.promise(() => launchChromium()),
          (browser) =>
            Effect.promise(async () => {
              const page = await browser.newPage()
              await page.setContent(gridPage)
              return {
                sortByAge: await page.getByRole("columnheader", { name: "Sort by Age", exact: true }).count(),
                age: await page.getByRole("columnheader", { name: "Age" }).count()
              }
            }),
          (browser) => Effect.promise(() => browser.close())
        )
        expect(theirs).toEqual({ sortByAge: 1, age: 1 })
        yield* open("/grid")
        const [header] = linesNamed(yield* snapshotOf, "columnheader", "Sort by Age")
        expect(header?.ref).toBeDefined()
        const found = yield* call(find, { role: "columnheader", name: "Age" })
        expect(found.result.found).toBe(1)
        expect(linesNamed(found.snapshot as string, "columnheader", "Sort by Age")[0]?.ref).toBe(header!.ref)
        expect((yield* call(click, { a11yRef: header!.ref })).ok).toBe(true)
        expect((yield* call(evaluate, { expression: "window.widgetState()" })).result.value).toEqual({ sort: "age", selected: [] })
        const [sorted] = linesNamed(yield* snapshotOf, "columnheader", "Sort by Age")
        expect(sorted?.states).toContain("ascending")
      }))
  })
})
