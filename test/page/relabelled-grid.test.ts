// A two-month range picker that, like antd's RangePicker, re-labels the same cell elements in place when
// the first day is picked (the panels move on to the next two months), driven over our tools one call at
// a time by a literal agent: it clicks the ref its latest answer shows for the day it wants. The answer
// to the first pick shows the reused cells with their new days and refs, so that ref picks the right day.
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { runTool } from "../../src/runtime/runTool.js"
import type { AnyToolDefinition } from "../../src/runtime/tool.js"
import { find } from "../../src/tools/find.js"
import { click } from "../../src/tools/interaction.js"
import { navigate } from "../../src/tools/navigation.js"
import { launch } from "../../src/tools/session.js"
import { html, liveLayer, pageServer, readable, testSettings } from "../support/browser.js"

// Two month grids of six Sunday-first weeks each (the days of the months around them included), their
// cells made once. Picking the start day shows the two months after its own (March 10: April and May),
// written into the same cells; picking the end day ends the range. #picked says what was picked.
const picker = html(
  "Range picker",
  `<h1>Your stay</h1>
   <div id="panels"></div>
   <p id="picked">picked:</p>
   <script>
     const months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
     let shown = new Date(2025, 2, 1)
     let start = null
     let end = null
     const iso = (date) => date.getFullYear() + "-" + String(date.getMonth() + 1).padStart(2, "0") + "-" + String(date.getDate()).padStart(2, "0")
     const panels = []
     for (let p = 0; p < 2; p++) {
       const caption = document.createElement("h2")
       const table = document.createElement("table")
       const head = table.createTHead().insertRow()
       for (const day of ["Su", "Mo", "Tu", "We", "Th", "Fr", "Sa"]) head.append(Object.assign(document.createElement("th"), { textContent: day }))
       const body = table.createTBody()
       const cells = []
       for (let week = 0; week < 6; week++) {
         const row = body.insertRow()
         for (let day = 0; day < 7; day++) {
           const cell = row.insertCell()
           cell.append(document.createElement("div"))
           cell.onclick = () => pick(cell.title)
           cells.push(cell)
         }
       }
       document.getElementById("panels").append(caption, table)
       panels.push({ caption, cells })
     }
     const render = () => {
       panels.forEach(({ caption, cells }, p) => {
         const month = new Date(shown.getFullYear(), shown.getMonth() + p, 1)
         caption.textContent = months[month.getMonth()] + " " + month.getFullYear()
         cells.forEach((cell, k) => {
           const date = new Date(month.getFullYear(), month.getMonth(), 1 - month.getDay() + k)
           cell.title = iso(date)
           cell.firstChild.textContent = String(date.getDate())
         })
       })
     }
     const pick = (day) => {
       if (start === null) {
         start = day
         const [year, month] = day.split("-").map(Number)
         shown = new Date(year, month, 1)
         render()
       } else end = day
       document.getElementById("picked").textContent = "picked: " + start + (end === null ? "" : " to " + end)
     }
     render()
   </script>`
)

class Pages extends Context.Tag("test/RelabelledGridPages")<Pages, { readonly url: string }>() {}
const PagesLive = Layer.scoped(
  Pages,
  Effect.map(pageServer({ "/": picker }), (server) => ({ url: `${server.url}/` }))
)

const call = (tool: AnyToolDefinition, args: Record<string, unknown> = {}) => Effect.map(runTool(tool)(args), (response) => readable(response))

/** The first ref a text shows for a node (`cell "14" [e39]`): where a literal agent looks the day up. */
const firstRef = (text: string | undefined, node: string): string => {
  const found = new RegExp(`${node.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\[(e\\d+)\\]`).exec(text ?? "")
  if (found === null) throw new Error(`no ${node} in:\n${text}`)
  return found[1]!
}

layer(Layer.merge(liveLayer(testSettings()), PagesLive), { timeout: 120_000, excludeTestServices: true })("a range picker that re-labels its cells", (it) => {
  describe("one call at a time", () => {
    it.effect("the ref the answer to the first pick shows for the wanted day picks that day (April 14, not the cell that showed 14)", () =>
      Effect.gen(function* () {
        const { url } = yield* Pages
        expect((yield* call(launch, {})).ok).toBe(true)
        expect((yield* call(navigate, { url })).ok).toBe(true)

        // The search for 10 shows the weeks around both tens (March 10 and April 10) with their cells' refs.
        const found = yield* call(find, { text: "10" })
        const march10 = firstRef(found.snapshot, 'cell "10"')
        const march14 = firstRef(found.snapshot, 'cell "14"')

        const first = yield* call(click, { a11yRef: march10 })
        expect(first.ok).toBe(true)
        // The answer is what changed (not the whole page) ...
        expect(first.snapshot).not.toContain("Your stay")
        expect(first.snapshot).toContain("April 2025")
        // ... and shows the cell that showed March 14 with the day it shows now, and the first 14 with its ref.
        expect(first.snapshot).toContain(`cell "18" [${march14}]`)
        const april14 = firstRef(first.snapshot, 'cell "14"')
        expect(april14).not.toBe(march14)
        // Days no told ref showed and none of whose names moved stay on their week's line.
        expect(first.snapshot).not.toContain('cell "20" [')

        expect((yield* call(click, { a11yRef: april14 })).ok).toBe(true)
        const picked = yield* call(find, { text: "picked:" })
        expect(picked.snapshot).toContain("picked: 2025-03-10 to 2025-04-14")
      })
    )
  })
})
