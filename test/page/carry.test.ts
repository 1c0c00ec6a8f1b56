// Refs across a new document at the same URL (reload, back): an element with the same durable identity
// keeps its ref, resolved in the new document, and the observation reports only what changed; a ref whose
// element moved among like siblings, or left, is stale (MM_TARGET_NOT_FOUND) and never acts on another element.
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import type { A11yNode } from "../../src/domain/observation.js"
import { runTool } from "../../src/runtime/runTool.js"
import type { AnyToolDefinition } from "../../src/runtime/tool.js"
import { Session } from "../../src/services/Session.js"
import { accessibilitySnapshot } from "../../src/tools/discovery.js"
import { click, getText } from "../../src/tools/interaction.js"
import { navigate } from "../../src/tools/navigation.js"
import { launch } from "../../src/tools/session.js"
import { html, liveLayer, pageServer, readable, testSettings } from "../support/browser.js"

/**
 * A list and a row of like buttons rendered from this path's localStorage; "Prepare" changes what the
 * next load renders (the current document stays as it is). Every button says which one was clicked.
 */
const listPage = (title: string) =>
  html(
    title,
    `<h1>${title}</h1>
     <ul aria-label="Items"></ul>
     <div id="row"></div>
     <p id="out">none</p>
     <button id="prepare" onclick="localStorage.setItem(location.pathname, JSON.stringify({ items: ['Plums', 'Apples'], same: 2 }))">Prepare</button>
     <script>
       const saved = JSON.parse(localStorage.getItem(location.pathname) ?? '{"items":["Apples","Pears","Plums"],"same":3}')
       document.querySelector("ul").innerHTML = saved.items.map((item) => "<li>" + item + " <button data-which='delete " + item + "'>Delete</button></li>").join("")
       document.querySelector("#row").innerHTML = Array.from({ length: saved.same }, (_, i) => "<button data-which='same " + i + "'>Same</button>").join("")
       document.addEventListener("click", (event) => {
         const which = event.target.closest("[data-which]")
         if (which) document.querySelector("#out").textContent = "clicked " + which.dataset.which
       })
     </script>`
  )

const pages = {
  "/kept": listPage("Kept"),
  "/changed": listPage("Changed"),
  "/away": listPage("Away"),
  "/elsewhere": html("Elsewhere", `<h1>Elsewhere</h1><a href="/away">Back to the list</a>`)
}

class Pages extends Context.Tag("test/CarryPages")<Pages, { readonly url: (path: string) => string }>() {}
const PagesLive = Layer.scoped(
  Pages,
  Effect.map(pageServer(pages), (server) => ({ url: (p: string) => `${server.url}${p}` }))
)

const call = (tool: AnyToolDefinition, args: Record<string, unknown> = {}) => Effect.map(runTool(tool)(args), (response) => readable(response))

const open = (p: string) =>
  Effect.gen(function* () {
    const { url } = yield* Pages
    const session = yield* Session
    if ((yield* session.current)._tag === "None") expect((yield* call(launch, {})).ok).toBe(true)
    const opened = yield* call(navigate, { url: url(p) })
    expect(opened.ok).toBe(true)
    return opened.observation?.a11y?.nodes ?? []
  })

/** The refs of the nodes that match, in page order. */
const refsOf = (nodes: ReadonlyArray<A11yNode>, role: string, name: string, text?: string) =>
  nodes.filter((node) => node.role === role && node.name === name && (text === undefined || node.text === text)).map((node) => node.ref)

/** The Delete button of each list item, by the item's text (the button follows its item's node). */
const deleteRefs = (nodes: ReadonlyArray<A11yNode>): Record<string, string> => {
  const refs: Record<string, string> = {}
  nodes.forEach((node, i) => {
    if (node.role === "listitem" && node.text !== undefined && nodes[i + 1]?.name === "Delete") refs[node.text] = nodes[i + 1]!.ref
  })
  return refs
}

const outText = Effect.map(call(getText, { selector: "#out" }), (read) => read.result?.text as string)

layer(Layer.merge(liveLayer(testSettings()), PagesLive), { timeout: 120_000, excludeTestServices: true })("refs across documents", (it) => {
  describe("a reload", () => {
    it.effect("of an unchanged page reports no change, and every ref acts on its element in the new document", () =>
      Effect.gen(function* () {
        const nodes = yield* open("/kept")
        const deletes = deleteRefs(nodes)
        const same = refsOf(nodes, "button", "Same")
        expect(Object.keys(deletes)).toEqual(["Apples", "Pears", "Plums"])
        expect(same).toHaveLength(3)

        const reloaded = yield* call(navigate, { screen: "reload" })
        expect(reloaded.ok).toBe(true)
        const a11y = reloaded.observation?.a11y
        expect(a11y?.changesOnly).toBe(true)
        expect(a11y?.nodes).toEqual([])
        expect(a11y?.removed ?? []).toEqual([])
        expect(a11y?.unchanged).toBeGreaterThan(8)
        // The whole page, asked for, shows the same refs.
        const snapshot = yield* call(accessibilitySnapshot)
        expect(snapshot.snapshot).toContain(`[${deletes.Pears}]`)
        expect(snapshot.snapshot).toContain(`[${same[1]}]`)

        expect((yield* call(click, { a11yRef: deletes.Pears })).ok).toBe(true)
        expect(yield* outText).toBe("clicked delete Pears")
        expect((yield* call(click, { a11yRef: same[1] })).ok).toBe(true)
        expect(yield* outText).toBe("clicked same 1")
      }))

    it.effect("after items moved and left: a moved item keeps its ref, a left one and a changed run of like siblings are stale", () =>
      Effect.gen(function* () {
        const nodes = yield* open("/changed")
        const deletes = deleteRefs(nodes)
        const items = Object.fromEntries(nodes.filter((node) => node.role === "listitem").map((node) => [node.text, node.ref]))
        const same = refsOf(nodes, "button", "Same")
        expect(same).toHaveLength(3)
        const prepare = refsOf(nodes, "button", "Prepare")[0]!
        expect((yield* call(click, { a11yRef: prepare })).ok).toBe(true)

        // The next document lists Plums, Apples (Pears left, Plums moved first) and two "Same" buttons instead of three.
        const reloaded = yield* call(navigate, { screen: "reload" })
        expect(reloaded.ok).toBe(true)
        const a11y = reloaded.observation!.a11y!
        expect(a11y.changesOnly).toBe(true)
        const removed = a11y.removed ?? []
        for (const ref of [items.Pears, deletes.Pears, ...same]) expect(removed).toContain(ref)
        for (const ref of [items.Plums, items.Apples, deletes.Plums, deletes.Apples]) expect(removed).not.toContain(ref)
        const newSame = refsOf(a11y.nodes, "button", "Same")
        expect(newSame).toHaveLength(2)
        for (const ref of newSame) expect(same).not.toContain(ref)
        // The "clicked" text is the same as before the reload: not reported.
        expect(a11y.nodes.some((node) => node.role === "heading")).toBe(false)

        // Stale refs answer the existing code and act on nothing.
        for (const ref of [deletes.Pears, ...same]) {
          const stale = yield* call(click, { a11yRef: ref })
          expect(stale.ok).toBe(false)
          expect(stale.error?.code).toBe("MM_TARGET_NOT_FOUND")
        }
        expect(yield* outText).toBe("none")
        // The moved item's button is still the same element.
        expect((yield* call(click, { a11yRef: deletes.Plums })).ok).toBe(true)
        expect(yield* outText).toBe("clicked delete Plums")
        expect((yield* call(click, { a11yRef: newSame[1] })).ok).toBe(true)
        expect(yield* outText).toBe("clicked same 1")
      }))
  })

  describe("back", () => {
    it.effect("to a page seen before reports only what changed, with its refs", () =>
      Effect.gen(function* () {
        const nodes = yield* open("/away")
        const deletes = deleteRefs(nodes)
        const { url } = yield* Pages
        const elsewhere = yield* call(navigate, { url: url("/elsewhere") })
        expect(elsewhere.observation?.a11y?.nodes.some((node) => node.role === "heading" && node.name === "Elsewhere")).toBe(true)
        const back = yield* call(navigate, { screen: "back" })
        expect(back.ok).toBe(true)
        expect(back.observation?.state.currentUrl).toBe(url("/away"))
        expect(back.observation?.a11y?.nodes).toEqual([])
        expect((yield* call(click, { a11yRef: deletes.Apples })).ok).toBe(true)
        expect(yield* outText).toBe("clicked delete Apples")
      }))
  })
})
