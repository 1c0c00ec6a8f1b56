// What a person can reach is what the snapshot offers: while a modal dialog is open the page behind it
// is left out (counted, its refs kept), a select drawn as a list box shows its options with the chosen
// ones marked, and get_text reads a select by its chosen labels and a drawn slider by its value.
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { runTool } from "../../src/runtime/runTool.js"
import type { AnyToolDefinition } from "../../src/runtime/tool.js"
import { describeScreen } from "../../src/tools/discovery.js"
import { click, getText, pressKey, selectOption } from "../../src/tools/interaction.js"
import { navigate } from "../../src/tools/navigation.js"
import { launch } from "../../src/tools/session.js"
import { html, liveLayer, pageServer, readable, testSettings } from "../support/browser.js"

const modalPage = html(
  "Contacts",
  `<h1>Contacts</h1><ul><li>Ada Lovelace</li></ul>
   <button id="add" onclick="document.getElementById('bd').hidden = false">Add contact</button>
   <button id="native" onclick="document.getElementById('nd').showModal()">Native dialog</button>
   <div id="bd" hidden style="position:fixed;inset:0;background:rgba(0,0,0,.4)">
     <div role="dialog" aria-modal="true" aria-label="New contact" style="background:#fff;margin:60px auto;width:300px">
       <label>Full name <input id="nm"></label>
       <button onclick="document.getElementById('bd').hidden = true">Cancel</button>
     </div>
   </div>
   <dialog id="nd"><p>Native</p><button onclick="this.closest('dialog').close()">Close</button></dialog>
   <div role="dialog" aria-modal="true" aria-label="Never shown" hidden><button>Hidden</button></div>`
)

const listsPage = html(
  "Lists",
  `<label for="langs">Languages</label>
   <select multiple id="langs" size="4"><option value="en">English</option><option value="fr">French</option><option value="de">German</option><option value="es">Spanish</option></select>
   <label for="one">Country</label>
   <select id="one"><option value="no">Norway</option><option value="se" selected>Sweden</option></select>
   <div role="slider" id="vol" tabindex="0" aria-label="Volume" aria-valuemin="0" aria-valuemax="100" aria-valuenow="40" style="width:200px;height:10px;background:#ccc"></div>
   <div role="slider" id="temp" tabindex="0" aria-label="Temperature" aria-valuenow="20" aria-valuetext="20 °C" style="width:200px;height:10px;background:#ccc"></div>`
)

class Pages extends Context.Tag("test/ModalPages")<Pages, { readonly url: string }>() {}
const PagesLive = Layer.scoped(
  Pages,
  Effect.map(pageServer({ "/modal": modalPage, "/lists": listsPage }), (server) => ({ url: server.url }))
)

const call = (tool: AnyToolDefinition, args: Record<string, unknown> = {}) => Effect.map(runTool(tool)(args), (response) => readable(response))

layer(Layer.merge(liveLayer(testSettings()), PagesLive), { timeout: 120_000, excludeTestServices: true })("reachable page text", (it) => {
  describe("a modal dialog", () => {
    it.effect("hides the page behind it while open, says how much, and keeps the refs behind it valid", () =>
      Effect.gen(function* () {
        const { url } = yield* Pages
        expect((yield* call(launch, {})).ok).toBe(true)
        const opened = yield* call(navigate, { url: `${url}/modal` })
        expect(opened.snapshot).toContain('button "Add contact"')
        expect(opened.snapshot).not.toContain("Never shown")
        const addRef = /button "Add contact" \[(e\d+)\]/.exec(opened.snapshot ?? "")![1]!

        const shown = yield* call(click, { a11yRef: addRef })
        expect(shown.ok).toBe(true)
        expect(shown.snapshot).toMatch(/^dialog "New contact" \[e\d+\]/)
        expect(shown.snapshot).toMatch(/\(\d+ nodes behind the modal dialog left out until it closes\)/)

        const whole = yield* call(describeScreen, {})
        expect(whole.snapshot).toMatch(/^dialog "New contact" \[e\d+\]\n {2}textbox "Full name"/)
        expect(whole.snapshot).not.toContain("Add contact")
        expect(whole.snapshot).not.toContain("Ada Lovelace")
        expect(whole.snapshot).toContain("nodes behind the modal dialog left out")

        // Closing it: the page behind was never gone, so nothing of it is listed again or as gone.
        const closed = yield* call(click, { selector: "text=Cancel" })
        expect(closed.ok).toBe(true)
        expect(closed.snapshot).not.toContain(addRef)
        expect(closed.snapshot).not.toContain("Ada Lovelace")
        const again = yield* call(click, { a11yRef: addRef })
        expect(again.ok).toBe(true)
        yield* call(pressKey, { key: "Escape" })
        yield* call(click, { selector: "text=Cancel" })

        // A native dialog opened with showModal() is modal too.
        const native = yield* call(click, { selector: "#native" })
        expect(native.ok).toBe(true)
        const nativeWhole = yield* call(describeScreen, {})
        expect(nativeWhole.snapshot).toMatch(/^dialog \[e\d+\]/)
        expect(nativeWhole.snapshot).toContain('button "Close"')
        expect(nativeWhole.snapshot).not.toContain("Add contact")
      }))
  })

  describe("lists and values", () => {
    it.effect("a list box select shows its options, the chosen ones marked; get_text reads labels and slider values", () =>
      Effect.gen(function* () {
        const { url } = yield* Pages
        const opened = yield* call(navigate, { url: `${url}/lists` })
        expect(opened.snapshot).toMatch(/listbox "Languages" \[e\d+\]\n {2}option "English" \[e\d+\]\n {2}option "French"/)
        // A drop-down select shows its value, not its options.
        expect(opened.snapshot).toMatch(/combobox "Country" \[e\d+\]: Sweden/)
        expect(opened.snapshot).not.toContain('option "Norway"')

        const selected = yield* call(selectOption, { selector: "#langs", values: ["fr", "es"] })
        expect(selected.ok).toBe(true)
        expect(selected.snapshot).toMatch(/option "French" \[selected\]/)
        expect(selected.snapshot).toMatch(/option "Spanish" \[selected\]/)

        expect((yield* call(getText, { selector: "#langs" })).result).toEqual({ text: "French, Spanish" })
        expect((yield* call(getText, { selector: "#one" })).result).toEqual({ text: "Sweden" })
        expect((yield* call(getText, { selector: "#vol" })).result).toEqual({ text: "40" })
        expect((yield* call(getText, { selector: "#temp" })).result).toEqual({ text: "20 °C" })
      }))
  })
})
