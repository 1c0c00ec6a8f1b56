// Changes-only page text on a real page: after an action, only what changed, and every line either
// indented under the node that really holds it or at the left when that node is not shown. A changed
// item never takes a sibling's node under it.
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { expandRefRuns } from "../../src/domain/snapshot-text.js"
import { runTool } from "../../src/runtime/runTool.js"
import type { AnyToolDefinition } from "../../src/runtime/tool.js"
import { find } from "../../src/tools/find.js"
import { click } from "../../src/tools/interaction.js"
import { navigate } from "../../src/tools/navigation.js"
import { launch } from "../../src/tools/session.js"
import { html, liveLayer, pageServer, readable, testSettings } from "../support/browser.js"

const page = html(
  "Changes",
  `<h1>Changes</h1>
   <ul aria-label="Tasks">
     <li>Alpha <button aria-pressed="false">A</button></li>
     <li>Beta <button aria-pressed="false">B</button></li>
     <li>Gamma <button aria-pressed="false">C</button></li>
   </ul>
   <ol aria-label="Steps"><li>One</li><li id="two">Two</li><li>Three</li></ol>
   <button id="after" onclick="const l = document.querySelectorAll('ul li'); l[0].firstChild.textContent = 'Alpha changed '; l[1].querySelector('button').setAttribute('aria-pressed', 'true')">Item, then inside the next</button>
   <button id="before" onclick="const l = document.querySelectorAll('ul li'); l[0].querySelector('button').setAttribute('aria-pressed', 'true'); l[1].firstChild.textContent = 'Beta changed '">Inside an item, then the next</button>
   <button id="one" onclick="document.getElementById('two').textContent = 'Two changed'">One item</button>
   <button id="nest" onclick="document.getElementById('two').innerHTML = 'Two <ul><li>nested a <button>Open</button></li><li>nested b</li></ul>'">Nest</button>
   <button id="remove" onclick="document.getElementById('two').remove()">Remove</button>
   <table aria-label="Team"><tbody id="team">
     <tr id="r1" aria-labelledby="h1"><th id="h1" scope="row">Alice</th><td>Paris</td><td>31</td></tr>
     <tr id="r2" aria-labelledby="h2"><th id="h2" scope="row">Carol</th><td>Madrid</td><td>27</td></tr>
   </tbody></table>
   <button id="sort" onclick="const t = document.getElementById('team'); t.prepend(document.getElementById('r2'))">Sort by age</button>
   <button id="recolor" onclick="document.querySelector('#r1 td').textContent = 'Lyon'">Change one cell</button>`
)

class Pages extends Context.Tag("test/ChangesPages")<Pages, { readonly url: string }>() {}
const PagesLive = Layer.scoped(
  Pages,
  Effect.map(pageServer({ "/": page }), (server) => ({ url: `${server.url}/` }))
)

const call = (tool: AnyToolDefinition, args: Record<string, unknown> = {}) => Effect.map(runTool(tool)(args), (response) => readable(response))

/** The page text's node lines (not the notes in parentheses), refs replaced by "e#". */
const linesOf = (text: string | undefined) =>
  (text ?? "")
    .split("\n")
    .filter((line) => !line.startsWith("("))
    .map((line) => line.replace(/\[e\d+\]/g, "[e#]"))

layer(Layer.merge(liveLayer(testSettings()), PagesLive), { timeout: 120_000, excludeTestServices: true })("changes-only text", (it) => {
  describe("after a click", () => {
    it.effect("keeps every line at its true place: siblings before and after, nested changes, removed nodes", () =>
      Effect.gen(function* () {
        const { url } = yield* Pages
        expect((yield* call(launch, {})).ok).toBe(true)
        const opened = yield* call(navigate, { url })
        expect(opened.ok).toBe(true)

        // An item changed, and the button inside its next sibling: the button is not the item's child.
        const after = yield* call(click, { selector: "#after" })
        expect(linesOf(after.snapshot)).toEqual(["listitem [e#]: Alpha changed", 'button "B" [pressed] [e#]'])

        // A button inside an item, then the next item: neither under the other.
        const before = yield* call(click, { selector: "#before" })
        expect(linesOf(before.snapshot)).toEqual(['button "A" [pressed] [e#]', "listitem [e#]: Beta changed"])

        // One item of a list changes, its next sibling stays: that item alone.
        const one = yield* call(click, { selector: "#one" })
        expect(linesOf(one.snapshot)).toEqual(["listitem [e#]: Two changed"])

        // Nested: the new list under its item, its items under it, a button under its item.
        const nested = yield* call(click, { selector: "#nest" })
        expect(linesOf(nested.snapshot)).toEqual([
          "listitem [e#]: Two",
          "  list [e#]",
          "    listitem [e#]: nested a",
          '      button "Open" [e#]',
          "    listitem [e#]: nested b"
        ])
        const refs = [...(nested.snapshot ?? "").matchAll(/\[(e\d+)\]/g)].map((match) => match[1]!)

        // Removed: every ref that left is listed as gone, and nothing else is shown.
        const removed = yield* call(click, { selector: "#remove" })
        const gone = expandRefRuns(/\(gone: ([^)]*)\)/.exec(removed.snapshot ?? "")?.[1]?.split(" ") ?? [])
        expect([...gone].sort()).toEqual([...refs].sort())
        expect(linesOf(removed.snapshot)).toEqual([])
      })
    )
  })

  describe("rows named by their row header", () => {
    it.effect("a row shown again whole after a sort goes on one line; a row with one changed cell keeps that cell's line", () =>
      Effect.gen(function* () {
        yield* call(launch, { url: (yield* Pages).url })
        const sorted = yield* call(click, { selector: "#sort" })
        expect(sorted.ok).toBe(true)
        const lines = linesOf(sorted.snapshot)
        expect(lines).toContain("  row [e#]: Carol | Madrid | 27")
        expect(lines).toContain("  row [e#]: Alice | Paris | 31")
        const changed = yield* call(click, { selector: "#recolor" })
        expect(changed.ok).toBe(true)
        // Only the changed cell is shown, at the left (its row is unchanged and not shown).
        expect(linesOf(changed.snapshot)).toEqual(['cell "Lyon" [e#]'])
      }))
  })

  describe("after a search", () => {
    it.effect("a search counts as looking: the next action answers what changed since, and a node that left before it is still told gone", () =>
      Effect.gen(function* () {
        const { url } = yield* Pages
        // A page the client has not seen: the navigation answers nothing of it.
        const opened = yield* Effect.map(runTool(navigate)({ url: `${url}?searched` }, { policy: "none" }), readable)
        expect(opened.ok).toBe(true)
        expect(opened.snapshot).toBeUndefined()

        // It looks for one button, then clicks it: the answer is the change, not the page it never read.
        const found = yield* call(find, { text: "One item" })
        const button = /button "One item" \[(e\d+)\]/.exec(found.snapshot ?? "")?.[1]
        expect(button).toBeDefined()
        const one = yield* call(click, { a11yRef: button })
        expect(linesOf(one.snapshot)).toEqual(["listitem [e#]: Two changed"])
        const two = /\[(e\d+)\]/.exec(one.snapshot ?? "")![1]!

        // The item leaves in a call that answers nothing; a search follows; the next answer still says it left.
        expect((yield* Effect.map(runTool(click)({ selector: "#remove" }, { policy: "none" }), readable)).ok).toBe(true)
        expect((yield* call(find, { text: "Alpha" })).ok).toBe(true)
        const after = yield* call(click, { selector: "#after" })
        expect(linesOf(after.snapshot)).toEqual(["listitem [e#]: Alpha changed", 'button "B" [pressed] [e#]'])
        expect(after.snapshot).toContain(`(gone: ${two})`)
      })
    )

    it.effect("a node the search saw but did not show is not told gone when it leaves (the client never had its ref)", () =>
      Effect.gen(function* () {
        const { url } = yield* Pages
        expect((yield* Effect.map(runTool(navigate)({ url: `${url}?unshown` }, { policy: "none" }), readable)).ok).toBe(true)
        // The search shows the Tasks list's first item, not the Steps list.
        const found = yield* call(find, { text: "Alpha" })
        expect(found.snapshot).toContain("Alpha")
        expect(found.snapshot).not.toContain("Two")
        const removed = yield* call(click, { selector: "#remove" })
        expect(removed.ok).toBe(true)
        expect(removed.snapshot ?? "").not.toContain("gone")
      })
    )
  })
})
