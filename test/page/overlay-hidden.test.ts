// A popup that hides the page behind it from assistive technology the way overlay libraries do (aria-hidden
// on everything outside it: Vaadin's overlays, Radix's hideOthers, react-aria), driven one call at a time by
// an agent that has only seen a search's matches. When the popup closes, the page behind it comes back as it
// was: the answer shows what changed (the field the pick filled), not the whole page the agent never asked
// for. A part of the page that an action really hid and shows again (display: none) is news, and is shown.
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { runTool } from "../../src/runtime/runTool.js"
import type { AnyToolDefinition } from "../../src/runtime/tool.js"
import { find } from "../../src/tools/find.js"
import { click } from "../../src/tools/interaction.js"
import { launch } from "../../src/tools/session.js"
import { html, liveLayer, pageServer, readable, testSettings } from "../support/browser.js"

const form = html(
  "Shipping",
  `<div id="page">
     <h1>Shipping</h1>
     <label>Country <input value="Norway"></label>
     <label>Notes <textarea>Leave at the door</textarea></label>
     <button id="open" aria-haspopup="dialog">Delivery date</button>
     <output id="date">no date</output>
     <button id="toggle" aria-expanded="true">Details</button>
     <div id="panel"><p>Ships in two days</p></div>
   </div>
   <div id="overlay" role="dialog" aria-label="Calendar" hidden><button id="day">March 14</button></div>
   <script>
     const page = document.getElementById("page")
     const overlay = document.getElementById("overlay")
     document.getElementById("open").onclick = () => {
       overlay.hidden = false
       page.setAttribute("aria-hidden", "true")
     }
     document.getElementById("day").onclick = () => {
       document.getElementById("date").textContent = "2025-03-14"
       overlay.hidden = true
       page.removeAttribute("aria-hidden")
     }
     const toggle = document.getElementById("toggle")
     toggle.onclick = () => {
       const panel = document.getElementById("panel")
       panel.hidden = !panel.hidden
       toggle.setAttribute("aria-expanded", String(!panel.hidden))
     }
   </script>`
)

class Pages extends Context.Tag("test/OverlayHiddenPages")<Pages, { readonly url: string }>() {}
const PagesLive = Layer.scoped(
  Pages,
  Effect.map(pageServer({ "/": form }), (server) => ({ url: `${server.url}/` }))
)

const call = (tool: AnyToolDefinition, args: Record<string, unknown> = {}) => Effect.map(runTool(tool)(args), (response) => readable(response))

const refOf = (text: string | undefined, node: string): string => {
  const found = new RegExp(`${node} (?:\\[[a-z=0-9]+\\] )*\\[(e\\d+)\\]`).exec(text ?? "")
  if (found === null) throw new Error(`no ${node} in:\n${text}`)
  return found[1]!
}

layer(Layer.merge(liveLayer(testSettings()), PagesLive), { timeout: 120_000, excludeTestServices: true })("a popup that hides the page behind it", (it) => {
  describe("one call at a time, after a search", () => {
    it.effect("the page coming back from behind the popup is no news; a panel shown again is", () =>
      Effect.gen(function* () {
        const { url } = yield* Pages
        expect((yield* call(launch, { url })).ok).toBe(true)
        const found = yield* call(find, { text: "Delivery date" })
        const opened = yield* call(click, { a11yRef: refOf(found.snapshot, 'button "Delivery date"') })
        expect(opened.ok).toBe(true)
        const picked = yield* call(click, { a11yRef: refOf(opened.snapshot, 'button "March 14"') })
        expect(picked.ok).toBe(true)
        // What the pick changed, and the popup gone ...
        expect(picked.snapshot).toContain("2025-03-14")
        expect(picked.snapshot).toContain("gone:")
        // ... not the page the agent never saw, which only came back from behind the popup as it was.
        expect(picked.snapshot).not.toContain("Shipping")
        expect(picked.snapshot).not.toContain("Country")
        expect(picked.snapshot).not.toContain("Leave at the door")

        // A panel an action hid (display: none) and shows again is the action's effect: shown.
        const details = yield* call(find, { text: "Details" })
        const toggle = refOf(details.snapshot, 'button "Details"')
        expect((yield* call(click, { a11yRef: toggle })).ok).toBe(true)
        const reopened = yield* call(click, { a11yRef: toggle })
        expect(reopened.ok).toBe(true)
        expect(reopened.snapshot).toContain("Ships in two days")
      })
    )
  })
})
