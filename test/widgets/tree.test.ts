// A tree item's ref clicks the item's own label (issue 19), in real Chromium: an expanded treeitem's box
// holds its nested group, so the middle of that box would land on a child item. On a hand-written ARIA
// tree (role=treeitem on the <li> that holds its group: the case the label point is for) and on jsTree
// served from its npm build (role=treeitem on each row's anchor, its <li> role=none: the point must stay
// right there too).
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { serveWidgetCorpus } from "../../bench/widgets/corpus.js"
import { widerPages } from "../../bench/widgets/wider.js"
import { accessibilitySnapshot } from "../../src/tools/discovery.js"
import { evaluate } from "../../src/tools/evaluate.js"
import { click, pressKey } from "../../src/tools/interaction.js"
import { navigate } from "../../src/tools/navigation.js"
import { html, liveLayer, testSettings } from "../support/browser.js"
import { pageHarness } from "../support/page-harness.js"
import { linesNamed } from "../page/parse.js"

const pages = {
  // Documents is expanded: its box holds three children, and its middle is on the second of them.
  "/tree": html(
    "Tree",
    `<style>li{padding:2px 0} ul{margin:0}</style>
    <ul role="tree" aria-label="Files">
      <li role="treeitem" id="docs" aria-expanded="true"><span>Documents</span>
        <ul role="group">
          <li role="treeitem" id="report">Report.pdf</li>
          <li role="treeitem" id="budget">Budget.xlsx</li>
          <li role="treeitem" id="notes">Notes.txt</li>
        </ul>
      </li>
      <li role="treeitem" id="pics">Pictures</li>
    </ul>
    <script>
      let selected = null
      document.querySelector("[role=tree]").addEventListener("click", (event) => {
        selected = event.target.closest("[role=treeitem]").id
        for (const item of document.querySelectorAll("[role=treeitem]")) item.setAttribute("aria-selected", String(item.id === selected))
      })
      window.widgetState = () => ({ selected })
    </script>`
  )
}

const { PagesLive, call, open } = pageHarness("test/TreeWidgetPages", pages)

class Corpus extends Context.Tag("test/TreeWidgetCorpus")<Corpus, { readonly url: string }>() {}
const CorpusLive = Layer.scoped(
  Corpus,
  Effect.acquireRelease(Effect.promise(() => serveWidgetCorpus(widerPages)), (corpus) => Effect.promise(() => corpus.close()))
)

const refOf = (role: string, name: string) =>
  Effect.gen(function* () {
    const snapshot = (yield* call(accessibilitySnapshot)).snapshot as string
    const [line] = linesNamed(snapshot, role, name)
    expect(line?.ref, `${role} "${name}" in\n${snapshot}`).toBeDefined()
    return line!.ref!
  })

const evaluated = (expression: string) => Effect.map(call(evaluate, { expression }), (envelope) => envelope.result.value)

layer(Layer.mergeAll(liveLayer(testSettings()), PagesLive, CorpusLive), { timeout: 120_000, excludeTestServices: true })("a tree item's click point", (it) => {
  describe("a hand-written ARIA tree", () => {
    it.effect("an expanded item's ref clicks its own label, not the child in the middle of its box; a child's ref clicks the child", () =>
      Effect.gen(function* () {
        yield* open("/tree")
        expect((yield* call(click, { a11yRef: yield* refOf("treeitem", "Documents") })).ok).toBe(true)
        expect(yield* evaluated("window.widgetState()")).toEqual({ selected: "docs" })
        expect((yield* call(click, { a11yRef: yield* refOf("treeitem", "Budget.xlsx") })).ok).toBe(true)
        expect(yield* evaluated("window.widgetState()")).toEqual({ selected: "budget" })
      }))
  })

  describe("jsTree", () => {
    it.effect("once Documents is open, its ref selects Documents (not Report.pdf below its label), and Report.pdf's selects Report.pdf", () =>
      Effect.gen(function* () {
        const { url } = yield* Corpus
        yield* open("/tree")
        expect((yield* call(navigate, { screen: "url", url: `${url}/jstree` })).ok).toBe(true)
        expect((yield* call(click, { a11yRef: yield* refOf("treeitem", "Documents") })).ok).toBe(true)
        expect((yield* call(pressKey, { key: "ArrowRight" })).ok).toBe(true)
        expect(yield* evaluated(`$("#tree").jstree("is_open", "docs")`)).toBe(true)
        expect((yield* call(click, { a11yRef: yield* refOf("treeitem", "Report.pdf") })).ok).toBe(true)
        expect(yield* evaluated(`$("#tree").jstree("get_selected")`)).toEqual(["report"])
        expect((yield* call(click, { a11yRef: yield* refOf("treeitem", "Documents") })).ok).toBe(true)
        expect(yield* evaluated(`$("#tree").jstree("get_selected")`)).toEqual(["docs"])
      }))
  })
})
