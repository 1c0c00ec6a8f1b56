// What an agent reads through the tools: text of lists, tables and code in snapshots, collapsed runs
// whose refs still act, find, settling after a single-page app's route change, and the text budget.
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { accessibilitySnapshot, describeScreen } from "../../src/tools/discovery.js"
import { find } from "../../src/tools/find.js"
import { click, getText } from "../../src/tools/interaction.js"
import { Session } from "../../src/services/Session.js"
import { html, liveLayer, testSettings } from "../support/browser.js"
import { pageHarness } from "../support/page-harness.js"
import { parseSnapshot } from "./parse.js"

const pages = {
  "/reading": html(
    "Reading",
    `<h1>Groceries</h1>
     <ul><li><input type="checkbox" aria-label="done"> Buy milk</li><li>Walk the dog <button>Edit</button></li></ul>
     <table><thead><tr><th>Planet</th><th>Moons</th></tr></thead><tbody><tr><td>Earth</td><td>1</td></tr><tr><td>Mars</td><td>2</td></tr></tbody></table>
     <p>Run <code>npm test</code> before you push.</p>
     <pre><code>{ "status": 200, "body": "ok" }</code></pre>
     <div role="status">Saved 2 items</div>
     <input aria-label="City" value="Paris"><input type="password" aria-label="Password" value="pw-value-1">
     <form id="wallet-secret" aria-label="Wallet"><input aria-label="Plain" value="form-value-2"></form>`
  ),
  "/many": html(
    "Many",
    `<ul aria-label="Catalog">${Array.from({ length: 200 }, (_, i) => `<li>Item ${i + 1} <button onclick="document.getElementById('out').textContent='Opened ${i + 1}'">Open</button></li>`).join("")}</ul>
     <p id="out">Nothing opened</p>`
  ),
  "/spa": html(
    "Home",
    `<nav><a href="/spa/next" id="go">Next page</a></nav><main id="view"><p>Route one</p></main>
     <script>
       document.getElementById("go").addEventListener("click", (event) => {
         event.preventDefault()
         history.pushState({}, "", "/spa/next")
         document.getElementById("view").innerHTML = ""
         // A router that loads the next view a moment later, in two steps, as a lazy route and its data would.
         Promise.resolve().then(() => setTimeout(() => {
           document.title = "Next"
           document.getElementById("view").innerHTML = "<h2>Route two</h2>"
           setTimeout(() => { document.getElementById("view").insertAdjacentHTML("beforeend", "<p>Loaded details of route two</p><button>Continue</button>") }, 60)
         }, 40))
       })
     </script>`
  ),
  "/attach": html("Attach a file", `<label>Receipt <input type="file"></label><p>Attach the receipt of your order.</p>`),
  "/long-text": html("Long text", `<p>${"A sentence that goes on. ".repeat(200)}</p><button>After</button>`),
  "/wide": html(
    "Wide",
    Array.from({ length: 1_500 }, (_, i) => (i % 2 === 0 ? `<button>Action number ${i}</button>` : `<a href="#${i}">Link number ${i}</a>`)).join("")
  )
}

const { PagesLive, call, open } = pageHarness("test/SnapshotPages", pages)

const snapshotOf = Effect.map(call(accessibilitySnapshot), (envelope) => envelope.snapshot as string)

layer(Layer.merge(liveLayer(testSettings()), PagesLive), { timeout: 120_000, excludeTestServices: true })("pages with their text", (it) => {
  describe("snapshots", () => {
    it.effect("carry list items' text beside their controls, table rows, paragraphs, code blocks and status text", () =>
      Effect.gen(function* () {
        yield* open("/reading")
        const screen = yield* call(describeScreen)
        expect(screen.result.a11y).toBeUndefined()
        const text: string = screen.snapshot ?? ""
        const lines = parseSnapshot(text)
        const milk = lines.findIndex((line) => line.role === "listitem" && line.text === "Buy milk")
        expect(milk).toBeGreaterThan(-1)
        expect(lines[milk + 1]).toMatchObject({ role: "checkbox", name: "done", depth: lines[milk]!.depth + 1 })
        expect(lines.find((line) => line.role === "listitem" && line.text === "Walk the dog")).toBeDefined()
        expect(text).toMatch(/row \[e\d+\]: Planet \| Moons/)
        expect(text).toMatch(/row \[e\d+\]: Earth \| 1/)
        expect(lines.find((line) => line.role === "paragraph")?.text).toBe("Run npm test before you push.")
        expect(lines.some((line) => line.text === '{ "status": 200, "body": "ok" }')).toBe(true)
        expect(lines.find((line) => line.role === "status")?.text).toBe("Saved 2 items")
        expect(lines.find((line) => line.role === "heading")).toMatchObject({ name: "Groceries", states: ["level=1"] })
        // Field values show, unless the field or what is around it looks secret.
        expect(lines.find((line) => line.name === "City")?.text).toBe("Paris")
        expect(text).not.toContain("pw-value-1")
        expect(text).not.toContain("form-value-2")
      }))

    it.effect("collapse a run of like list items to one line with a ref range, and a ref from inside the range still clicks", () =>
      Effect.gen(function* () {
        yield* open("/many")
        const text = yield* snapshotOf
        const lines = parseSnapshot(text)
        const first = lines.find((line) => line.role === "listitem" && line.text === "Item 1")!
        const firstButton = lines[lines.indexOf(first) + 1]!
        expect(firstButton).toMatchObject({ role: "button", name: "Open" })
        const collapsed = /listitem ×199 \[e(\d+)\.\.e(\d+)\]: Item 2 \| Item 3 \| Item 4 \| … \| Item 200/.exec(text)
        expect(collapsed).not.toBeNull()
        const start = Number(collapsed![1])
        expect(Number(collapsed![2]) - start + 1).toBe(199 * 2)
        expect(text.split("\n").length).toBeLessThan(10)
        // Item n's button: the run lists each item, then its button.
        const ref57 = `e${start + 2 * (57 - 2) + 1}`
        expect((yield* call(click, { a11yRef: ref57 })).ok).toBe(true)
        expect((yield* call(getText, { selector: "#out" })).result.text).toBe("Opened 57")
        // find hands out the same ref for it.
        const found = yield* call(find, { text: "Item 57" })
        expect(found.result.found).toBe(1)
        expect(found.snapshot).toContain(`button "Open" [${ref57}]`)
      }))

    it.effect("cut a node's long text and a long page at their budgets with a marker, keeping the refs before it", () =>
      Effect.gen(function* () {
        yield* open("/long-text")
        const lines = parseSnapshot(yield* snapshotOf)
        const paragraph = lines.find((line) => line.role === "paragraph")!
        expect(paragraph.text).toMatch(/^A sentence that goes on\. .*…\[\d+ more chars\]$/)
        expect(paragraph.text!.length).toBeLessThan(340)
        expect(lines.find((line) => line.role === "button")?.name).toBe("After")

        yield* open("/wide")
        const wide = yield* call(accessibilitySnapshot, { limit: 2_000 })
        expect(wide.result.truncated).toBe(true)
        const text: string = wide.snapshot ?? ""
        expect(text.length).toBeLessThan(25_000)
        expect(text.split("\n").pop()).toMatch(/^… cut at 24000 characters: \d+ more nodes/)
        expect(text).toMatch(/^button "Action number 0" \[e\d+\]/)
      }))
  })

  describe("find", () => {
    it.effect("answers a text match with its ancestors and its children, in a few hundred bytes", () =>
      Effect.gen(function* () {
        yield* open("/many")
        const found = yield* call(find, { text: "item 120" })
        expect(found.ok).toBe(true)
        const matches: string = found.snapshot ?? ""
        expect(matches.split("\n")[0]).toMatch(/^list "Catalog" \[e\d+\]$/)
        // The 199 other items are not written.
        expect(matches).toMatch(/^list "Catalog" \[e\d+\]\n  ▶ listitem \[e\d+\]: Item 120\n    button "Open" \[e\d+\]$/)
        expect(Buffer.byteLength(matches)).toBeLessThan(300)
        const byRole = yield* call(find, { role: "button", limit: 3 })
        expect(byRole.result.found).toBe(200)
        expect(byRole.snapshot?.match(/▶/g)).toHaveLength(3)
        const nothing = yield* call(find, { name: "no such thing" })
        // Nothing matched: the count, and no text block.
        expect(nothing.result).toEqual({ found: 0 })
        expect(nothing.snapshot).toBeUndefined()
        const invalid = yield* call(find, {})
        expect(invalid.error?.code).toBe("MM_INVALID_INPUT")
        expect(invalid.error?.details?.field).toBe("text")
      }))

    it.effect("answers the page's state and what the page affords from the search's own read of the settled page", () =>
      Effect.gen(function* () {
        yield* open("/attach")
        const found = yield* call(find, { text: "receipt of your order" })
        expect(found.ok).toBe(true)
        expect(found.snapshot).toMatch(/▶ paragraph \[e\d+\]: Attach the receipt of your order\./)
        // The state read with the search: the page it searched, and its file input (mm_upload is offered).
        expect(found.observation?.state).toMatchObject({ currentUrl: expect.stringMatching(/\/attach$/), title: "Attach a file", isLoaded: true })
        expect((yield* (yield* Session).affordances).upload).toBe(true)
      }))
  })

  describe("settling", () => {
    it.effect("a click that changes route shows the content the app renders after pushState and a timer chain", () =>
      Effect.gen(function* () {
        yield* open("/spa")
        const clicked = yield* call(click, { selector: "#go" })
        expect(clicked.ok).toBe(true)
        const nodes = clicked.observation?.a11y?.nodes ?? []
        expect(clicked.observation?.a11y?.changesOnly).toBe(true)
        expect(nodes.some((node) => node.role === "heading" && node.name === "Route two")).toBe(true)
        expect(nodes.some((node) => node.text === "Loaded details of route two")).toBe(true)
        expect(nodes.some((node) => node.role === "button" && node.name === "Continue")).toBe(true)
        expect(clicked.observation?.state.currentUrl).toMatch(/\/spa\/next$/)
        expect(clicked.observation?.state.title).toBe("Next")
      }))
  })
})
