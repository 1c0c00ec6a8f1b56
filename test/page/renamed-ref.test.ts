// A ref acts only on the element it named when the client was last told of it. A calendar that shows the
// next month by reusing its cells (React keeps the nodes and changes their text) leaves an old ref on a
// cell that now shows another day: the answer to the action that moved it shows the reused cells with
// their new names; a cell re-labelled while no answer showed it is refused with the stale-ref answer,
// naming what the ref was and is, and the ref that now has the name the client was told when exactly one has it.
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import type { Settings } from "../../src/domain/config.js"
import { runTool } from "../../src/runtime/runTool.js"
import type { AnyToolDefinition } from "../../src/runtime/tool.js"
import { evaluate } from "../../src/tools/evaluate.js"
import { find } from "../../src/tools/find.js"
import { click } from "../../src/tools/interaction.js"
import { navigate } from "../../src/tools/navigation.js"
import { launch } from "../../src/tools/session.js"
import { html, liveLayer, pageServer, readable, testSettings } from "../support/browser.js"

// Days 1..35 in five rows; the first pick moves every cell four days on (the same cells, new text), as a
// range picker shows the next months once the start is picked. Every pick is logged in #picked.
const calendar = html(
  "Calendar",
  `<h1>Pick a range</h1>
   <table aria-label="Days"><tbody id="days"></tbody></table>
   <p id="picked">picked:</p>
   <button id="play" onclick="this.textContent = this.textContent === 'Play' ? 'Pause' : 'Play'">Play</button>
   <script>
     let shift = 0
     const body = document.getElementById("days")
     for (let row = 0; row < 5; row++) {
       const tr = document.createElement("tr")
       for (let col = 0; col < 7; col++) {
         const td = document.createElement("td")
         td.dataset.i = String(row * 7 + col)
         td.onclick = () => {
           document.getElementById("picked").textContent += " " + td.textContent
           if (shift === 0) { shift = 4; render() }
         }
         tr.append(td)
       }
       body.append(tr)
     }
     const render = () => { for (const td of body.querySelectorAll("td")) td.textContent = String(Number(td.dataset.i) + 1 + shift) }
     render()
   </script>`
)

class Pages extends Context.Tag("test/RenamedRefPages")<Pages, { readonly url: string }>() {}
const PagesLive = Layer.scoped(
  Pages,
  Effect.map(pageServer({ "/": calendar }), (server) => ({ url: `${server.url}/` }))
)

const call = (tool: AnyToolDefinition, args: Record<string, unknown> = {}) => Effect.map(runTool(tool)(args), (response) => readable(response))

/** The ref a text shows for a node (`cell "14" [e39]`). */
const refIn = (text: string | undefined, node: string): string => {
  const found = new RegExp(`${node.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\[(e\\d+)\\]`).exec(text ?? "")
  if (found === null) throw new Error(`no ${node} in:\n${text}`)
  return found[1]!
}

const pickedText = (url: string) => Effect.map(call(find, { text: "picked:" }), (found) => `${url} ${found.snapshot ?? ""}`)

for (const actionPath of ["auto", "playwright"] satisfies ReadonlyArray<Settings["actionPath"]>) {
  layer(Layer.merge(liveLayer(testSettings({ actionPath, caps: ["evaluate"] })), PagesLive), { timeout: 120_000, excludeTestServices: true })(`a reused element's ref (${actionPath})`, (it) => {
    describe("the page reused the element", () => {
      it.effect("the answer to the pick that re-labels the cells shows the reused cells with their new names and refs, and its ref for the day acts", () =>
        Effect.gen(function* () {
          const { url } = yield* Pages
          expect((yield* call(launch, {})).ok).toBe(true)
          expect((yield* call(navigate, { url })).ok).toBe(true)

          // The find shows the row of "10" with its cells and their refs.
          const found = yield* call(find, { text: "10" })
          const ten = refIn(found.snapshot, 'cell "10"')
          const fourteen = refIn(found.snapshot, 'cell "14"')

          // The first pick moves every cell on: the cell that showed 14 shows 18 now, and the one that showed 10 shows 14.
          const first = yield* call(click, { a11yRef: ten })
          expect(first.ok).toBe(true)
          expect(first.snapshot).toContain(`cell "18" [${fourteen}]`)
          expect(refIn(first.snapshot, 'cell "14"')).toBe(ten)

          // The ref the answer shows for 14 acts on the cell that shows 14.
          expect((yield* call(click, { a11yRef: refIn(first.snapshot, 'cell "14"') })).ok).toBe(true)
          expect(yield* pickedText(url)).toContain("picked: 10 14")
        })
      )

      it.effect("a ref whose cell the page re-labelled with no answer showing it is refused, offering the cell that shows the day it was told", () =>
        Effect.gen(function* () {
          const { url } = yield* Pages
          expect((yield* call(navigate, { url })).ok).toBe(true)
          const found = yield* call(find, { text: "10" })
          const ten = refIn(found.snapshot, 'cell "10"')
          const fourteen = refIn(found.snapshot, 'cell "14"')

          // The page picks 10 by itself (its script, which answers nothing of the page): the cells move on unseen.
          expect((yield* call(evaluate, { expression: `document.querySelector('td[data-i="9"]').click()` })).ok).toBe(true)

          const stale = yield* call(click, { a11yRef: fourteen })
          expect(stale.ok).toBe(false)
          expect(stale.error?.code).toBe("MM_TARGET_NOT_FOUND")
          expect(stale.error?.message).toContain(`${fourteen} was cell "14" when last shown; it is now cell "18" (the page reused the element).`)
          // Exactly one cell shows 14 now (the one that showed 10): its ref is offered, and it acts.
          expect(stale.error?.message).toContain(`cell "14" is ${ten} now.`)
          expect(yield* pickedText(url)).toContain("picked: 10")
          expect(yield* pickedText(url)).not.toContain("18")

          const offered = yield* call(click, { a11yRef: ten })
          expect(offered.ok).toBe(true)
          expect(yield* pickedText(url)).toContain("picked: 10 14")
        })
      )

      it.effect("a ref whose new name an answer showed acts, and so does a plain ref", () =>
        Effect.gen(function* () {
          const { url } = yield* Pages
          expect((yield* call(navigate, { url })).ok).toBe(true)
          const whole = yield* call(find, { role: "button", name: "Play" })
          const play = refIn(whole.snapshot, 'button "Play"')
          const first = yield* call(click, { a11yRef: play })
          expect(first.ok).toBe(true)
          // The answer told the new name with the ref: the ref acts on it.
          expect(first.snapshot).toContain(`button "Pause" [${play}]`)
          expect((yield* call(click, { a11yRef: play })).ok).toBe(true)
          const after = yield* call(find, { role: "button", name: "Play" })
          expect(refIn(after.snapshot, 'button "Play"')).toBe(play)
        })
      )
    })
  })
}
