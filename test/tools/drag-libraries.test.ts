// mm_drag on real drag-and-drop libraries, each from its npm build as its docs set it up: the drop done
// (read back from the library's own callback) answers dragged:true, a drop that changed nothing answers
// MM_DRAG_FAILED. Real Chromium, pages on 127.0.0.1.
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option } from "effect"
import { bundle } from "../../bench/widgets/corpus.js"
import { registryFor } from "../../src/cli.js"
import type { Envelope } from "../../src/domain/envelope.js"
import { runTool } from "../../src/runtime/runTool.js"
import { ToolView } from "../../src/runtime/visibility.js"
import { Session } from "../../src/services/Session.js"
import { corpusServer } from "../page/corpus.js"
import { html, liveLayer, testSettings } from "../support/browser.js"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")
const dist = (file: string) => `<script>${fs.readFileSync(path.join(root, "node_modules", file), "utf8").replaceAll("</script", "<\\/script")}</script>`
const ITEM = "padding:10px;margin:4px;border:1px solid #aaa;width:220px;list-style:none"

const pages = async (): Promise<Record<string, string>> => ({
  // hello-pangea/dnd (react-beautiful-dnd's fork): while it drags, its items take no pointer.
  "/pangea": html(
    "hello-pangea/dnd",
    `<div id="root"></div><output data-testid="order">Apple,Banana,Cherry,Date</output>
     <script>${(await bundle(`import * as React from "react"; import { createRoot } from "react-dom/client";
       import { DragDropContext, Droppable, Draggable } from "@hello-pangea/dnd"; window.PD = { React, createRoot, DragDropContext, Droppable, Draggable };`)).replaceAll("</script", "<\\/script")}</script>
     <script>
       const { React, createRoot, DragDropContext, Droppable, Draggable } = PD; const h = React.createElement
       const App = () => {
         const [items, setItems] = React.useState(["Apple", "Banana", "Cherry", "Date"])
         const onDragEnd = ({ source, destination }) => {
           if (!destination) return
           const next = items.slice(); const [moved] = next.splice(source.index, 1); next.splice(destination.index, 0, moved)
           document.querySelector("output").textContent = next.join(",")
           setItems(next)
         }
         return h(DragDropContext, { onDragEnd }, h(Droppable, { droppableId: "fruits" }, (drop) =>
           h("ul", { ref: drop.innerRef, ...drop.droppableProps, style: { padding: 0, width: 260 } },
             items.map((id, index) => h(Draggable, { key: id, draggableId: id, index }, (drag) =>
               h("li", { ref: drag.innerRef, ...drag.draggableProps, ...drag.dragHandleProps, "data-testid": id, style: { ...drag.draggableProps.style, padding: 10, margin: 4, border: "1px solid #aaa", listStyle: "none" } }, id))),
             drop.placeholder)))
       }
       createRoot(document.getElementById("root")).render(h(App))
     </script>`
  ),
  // interact.js: the file follows the pointer (over the drop zone as it is let go), and the drop removes it.
  "/interact": html(
    "interact.js",
    `<style>.file{${ITEM};touch-action:none;user-select:none}#bin{width:220px;height:120px;border:2px dashed #a33;margin-top:40px}</style>
     <div class="file" data-testid="notes">notes.txt</div><div id="bin" data-testid="bin">Trash</div><output data-testid="trashed"></output>
     ${dist("interactjs/dist/interact.min.js")}
     <script>
       interact(".file").draggable({ listeners: { move(event) {
         const t = event.target, x = (parseFloat(t.dataset.x) || 0) + event.dx, y = (parseFloat(t.dataset.y) || 0) + event.dy
         t.style.transform = "translate(" + x + "px, " + y + "px)"; t.dataset.x = x; t.dataset.y = y
       } } })
       interact("#bin").dropzone({ accept: ".file", overlap: "pointer", ondrop: (event) => {
         document.querySelector("output").textContent = event.relatedTarget.textContent; event.relatedTarget.remove()
       } })
     </script>`
  ),
  "/jquery-ui": html(
    "jQuery UI sortable",
    `<ul id="steps" style="padding:0">${["Build", "Test", "Tag", "Publish"].map((s) => `<li id="${s}" data-testid="${s}" style="${ITEM}">${s}</li>`).join("")}</ul>
     <output data-testid="steps">Build,Test,Tag,Publish</output>
     ${dist("jquery/dist/jquery.min.js")}${dist("jquery-ui/dist/jquery-ui.min.js")}
     <script>$("#steps").sortable({ update: () => (document.querySelector("output").textContent = $("#steps").sortable("toArray").join(",")) })</script>`
  ),
  // A card that flies back when let go where nothing takes it (revert: "invalid"), leaving left: 0px; top: 0px on
  // its relatively positioned self: the page looks as before the press.
  "/jquery-ui-revert": html(
    "jQuery UI draggable",
    `<div data-testid="card" id="card" style="${ITEM};width:120px">Card</div>
     <div data-testid="note" style="${ITEM};width:160px;margin-top:40px">A note (takes nothing)</div>
     <div data-testid="bin" id="bin" style="${ITEM};width:160px;margin-top:40px">Bin</div>
     <output data-testid="dropped">none</output>
     ${dist("jquery/dist/jquery.min.js")}${dist("jquery-ui/dist/jquery-ui.min.js")}
     <script>
       $("#card").draggable({ revert: "invalid", revertDuration: 100 })
       $("#bin").droppable({ drop: () => (document.querySelector("output").textContent = "card") })
     </script>`
  )
})

class Pages extends Context.Tag("test/DragLibraryPages")<Pages, { readonly url: (path: string) => string }>() {}

const TestLayer = Layer.unwrapScoped(
  Effect.gen(function* () {
    const main = yield* corpusServer(yield* Effect.promise(pages))
    const settings = testSettings({ caps: ["testing"] })
    return Layer.mergeAll(
      liveLayer(settings),
      Layer.succeed(Pages, { url: (p: string) => `${main.url}${p}` }),
      Layer.succeed(ToolView, ToolView.make(registryFor(settings), { caps: settings.caps }))
    )
  })
)

const call = (name: string, args: Record<string, unknown> = {}) =>
  Effect.gen(function* () {
    const view = yield* ToolView
    const tool = view.registry.lookup(name)
    if (tool === undefined) throw new Error(`no tool ${name}`)
    return (yield* runTool(tool)(args)).envelope as Envelope<any>
  })

const open = (p: string) =>
  Effect.gen(function* () {
    const { url } = yield* Pages
    const session = yield* Session
    if (Option.isNone(yield* session.current)) expect((yield* call("launch")).ok).toBe(true)
    expect((yield* call("navigate", { screen: "url", url: url(p) })).ok).toBe(true)
  })

const text = (testId: string) => Effect.map(call("get_text", { testId }), (envelope) => envelope.result?.text)

layer(TestLayer, { timeout: 180_000, excludeTestServices: true })("drag on real drag-and-drop libraries", (it) => {
  it.effect("hello-pangea/dnd: an item whose list takes no pointer while it drags is dropped where the hand lets go", () =>
    Effect.gen(function* () {
      yield* open("/pangea")
      expect((yield* call("drag", { testId: "Cherry", to: { testId: "Apple" } })).result).toEqual({ dragged: true })
      expect(yield* text("order")).toBe("Cherry,Apple,Banana,Date")
    }))

  it.effect("interact.js: a file that covers the drop zone as it is let go, removed by the drop, is dragged", () =>
    Effect.gen(function* () {
      yield* open("/interact")
      // Within a deadline shorter than Playwright's wait for a drop target that takes the pointer (the file covers it).
      expect((yield* call("drag", { testId: "notes", to: { testId: "bin" }, timeoutMs: 8_000 })).result).toEqual({ dragged: true })
      expect(yield* text("trashed")).toBe("notes.txt")
    }))

  it.effect("jQuery UI sortable: a step moved up is dragged; one dropped on itself changed nothing", () =>
    Effect.gen(function* () {
      yield* open("/jquery-ui")
      expect((yield* call("drag", { testId: "Publish", to: { testId: "Test" } })).result).toEqual({ dragged: true })
      expect(yield* text("steps")).toBe("Build,Publish,Test,Tag")
      const onItself = yield* call("drag", { testId: "Tag", to: { testId: "Tag" } })
      expect(onItself.error?.code).toBe("MM_DRAG_FAILED")
      expect(yield* text("steps")).toBe("Build,Publish,Test,Tag")
    }))

  it.effect("jQuery UI draggable with revert: a card let go where nothing takes it flies back, which changed nothing; onto its droppable it is dragged", () =>
    Effect.gen(function* () {
      yield* open("/jquery-ui-revert")
      const reverted = yield* call("drag", { testId: "card", to: { testId: "note" } })
      expect(reverted.error?.code).toBe("MM_DRAG_FAILED")
      expect(yield* text("dropped")).toBe("none")
      expect((yield* call("drag", { testId: "card", to: { testId: "bin" } })).result).toEqual({ dragged: true })
      expect(yield* text("dropped")).toBe("card")
    }))
})
