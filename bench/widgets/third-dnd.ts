// A family of bench/widgets tasks for drag and drop beyond dnd-kit and one SortableJS list: the libraries
// apps drag with, each as its docs set it up. @hello-pangea/dnd (react-beautiful-dnd's fork: a sensor that
// waits for a few pixels, an item that animates to its place before onDragEnd), dragula (its mirror under
// the pointer, a move between two containers), Pragmatic drag and drop (Atlassian's, on the browser's own
// HTML5 drag and drop), jQuery UI (a sortable list, and a draggable dropped on a droppable), SortableJS with
// a shared group (a card moved between two Kanban lists, animated) and interact.js (a dropzone). React pages
// load an esbuild bundle of the npm build (corpus.ts builds `dndBundles` once at start); the others run from
// their dist files. Every page reports the library's own state (its callbacks, or the DOM order it keeps).
import { css, js, page } from "./corpus.js"
import { L, same, type Task } from "./tasks.js"

/** Entry sources of the bundles these pages load, by path (corpus.ts bundles them). */
export const dndBundles: Readonly<Record<string, string>> = {
  "/bundle/pangea.js": `import * as React from "react"; import { createRoot } from "react-dom/client";
    import { DragDropContext, Droppable, Draggable } from "@hello-pangea/dnd"; window.PD = { React, createRoot, DragDropContext, Droppable, Draggable };`,
  "/bundle/pragmatic.js": `import { draggable, dropTargetForElements, monitorForElements } from "@atlaskit/pragmatic-drag-and-drop/element/adapter";
    window.PDD = { draggable, dropTargetForElements, monitorForElements };`
}

const TASKS = ["Write report", "Call Alice", "Book flights", "Pay invoice"]
const DONE = ["Plan sprint", "Fix login"]
const CARD = `padding:10px;margin:4px;border:1px solid #aaa;background:#f6f6f6;width:220px;list-style:none;cursor:grab`
const BOARD = `<style>.board{display:flex;gap:24px}.column{min-height:200px;padding:8px;border:1px solid #ccc;width:250px;list-style:none;margin:0}.card{${CARD}}</style>`
/** The cards of each column, in the order the page shows them. */
const COLUMNS = `window.benchState = () => ({ todo: [...document.querySelectorAll("#todo > .card")].map((e) => e.textContent.trim()),
  done: [...document.querySelectorAll("#done > .card")].map((e) => e.textContent.trim()) })`
const board = (tag: string) =>
  `<div class="board"><section><h2>To do</h2><${tag} id="todo" class="column">${TASKS.map((t) => `<li class="card">${t}</li>`).join("")}</${tag}></section>
  <section><h2>Done</h2><${tag} id="done" class="column">${DONE.map((t) => `<li class="card">${t}</li>`).join("")}</${tag}></section></div>`

export const dndPages: Readonly<Record<string, string>> = {
  "/pangea": page(
    "hello-pangea/dnd",
    js("/bundle/pangea.js") + `<style>.item{${CARD}}</style>`,
    `<div id="root" style="padding:24px"></div>
    <script>
      const { React, createRoot, DragDropContext, Droppable, Draggable } = PD; const h = React.createElement
      let state = { order: ["Apple", "Banana", "Cherry", "Date", "Elderberry"], drops: 0 }
      window.benchState = () => state
      const App = () => {
        const [items, setItems] = React.useState(state.order)
        const onDragEnd = ({ source, destination }) => {
          state = { ...state, drops: state.drops + 1 }
          if (!destination) return
          const next = items.slice(); const [moved] = next.splice(source.index, 1); next.splice(destination.index, 0, moved)
          state = { ...state, order: next }
          setItems(next)
        }
        return h("div", null, h("h1", null, "Fruit ranking"),
          h(DragDropContext, { onDragEnd }, h(Droppable, { droppableId: "fruits" }, (drop) =>
            h("ul", { ref: drop.innerRef, ...drop.droppableProps, style: { padding: 0, width: 260 } },
              items.map((id, index) => h(Draggable, { key: id, draggableId: id, index }, (drag) =>
                h("li", { ref: drag.innerRef, ...drag.draggableProps, ...drag.dragHandleProps, className: "item" }, id))),
              drop.placeholder))))
      }
      createRoot(document.getElementById("root")).render(h(App))
    </script>`
  ),
  "/dragula": page(
    "dragula",
    css(`${L}/dragula/dist/dragula.min.css`) + js(`${L}/dragula/dist/dragula.min.js`) + BOARD,
    `<h1>Board</h1>${board("ul")}
    <script>
      const drake = dragula([document.getElementById("todo"), document.getElementById("done")])
      let drops = []
      drake.on("drop", (el, target) => drops.push(el.textContent.trim() + " -> " + target.id))
      ${COLUMNS.replace("({", "({ drops, ")}
    </script>`
  ),
  "/pragmatic": page(
    "Pragmatic drag and drop",
    js("/bundle/pragmatic.js") + BOARD,
    `<h1>Board</h1>${board("ul")}
    <script>
      const { draggable, dropTargetForElements, monitorForElements } = PDD
      let state = { todo: ${JSON.stringify(TASKS)}, done: ${JSON.stringify(DONE)} }
      window.benchState = () => state
      const render = () => {
        for (const column of ["todo", "done"]) {
          const list = document.getElementById(column)
          list.replaceChildren(...state[column].map((text) => {
            const card = document.createElement("li"); card.className = "card"; card.textContent = text
            draggable({ element: card, getInitialData: () => ({ text, from: column }) })
            return card
          }))
        }
      }
      for (const column of ["todo", "done"]) dropTargetForElements({ element: document.getElementById(column), getData: () => ({ column }) })
      monitorForElements({ onDrop: ({ source, location }) => {
        const target = location.current.dropTargets[0]
        if (!target || target.data.column === source.data.from) return
        const { text, from } = source.data
        state = { ...state, [from]: state[from].filter((t) => t !== text), [target.data.column]: [...state[target.data.column], text] }
        render()
      } })
      render()
    </script>`
  ),
  "/jquery-ui-dnd": page(
    "jQuery UI drag and drop",
    css(`${L}/jquery-ui/dist/themes/base/jquery-ui.min.css`) + js(`${L}/jquery/dist/jquery.min.js`) + js(`${L}/jquery-ui/dist/jquery-ui.min.js`) +
      `<style>#steps li{${CARD}}#bin{width:200px;height:100px;border:2px dashed #a33;margin-top:24px;padding:8px}#file{width:120px;padding:8px;border:1px solid #888;background:#eef}</style>`,
    `<h1>Release checklist</h1><ul id="steps" style="padding:0">${["Build", "Test", "Tag", "Publish"].map((s) => `<li id="step-${s.toLowerCase()}">${s}</li>`).join("")}</ul>
    <h2>Files</h2><div id="file">old-draft.txt</div><div id="bin">Recycle bin</div>
    <script>
      let binned = []
      $("#steps").sortable()
      $("#file").draggable({ revert: "invalid" })
      $("#bin").droppable({ drop: (event, ui) => binned.push(ui.draggable.text()) })
      window.benchState = () => ({ steps: $("#steps").sortable("toArray").map((id) => id.slice(5)), binned })
    </script>`
  ),
  "/sortable-kanban": page(
    "SortableJS board",
    js(`${L}/sortablejs/Sortable.min.js`) + BOARD,
    `<h1>Board</h1>${board("ul")}
    <script>
      const lists = ["todo", "done"].map((id) => Sortable.create(document.getElementById(id), { group: "board", animation: 150, dataIdAttr: "data-id" }))
      ${COLUMNS}
    </script>`
  ),
  "/interact": page(
    "interact.js",
    js(`${L}/interactjs/dist/interact.min.js`) +
      `<style>.file{width:140px;padding:8px;margin:6px;border:1px solid #888;background:#eef;touch-action:none;user-select:none}#bin{width:220px;height:120px;border:2px dashed #a33;margin-top:40px;padding:8px}</style>`,
    `<h1>Files</h1><div class="file">notes.txt</div><div class="file">draft.docx</div><div id="bin">Trash</div>
    <script>
      let trashed = []
      interact(".file").draggable({ listeners: { move(event) {
        const t = event.target, x = (parseFloat(t.dataset.x) || 0) + event.dx, y = (parseFloat(t.dataset.y) || 0) + event.dy
        t.style.transform = "translate(" + x + "px, " + y + "px)"; t.dataset.x = x; t.dataset.y = y
      } } })
      interact("#bin").dropzone({ accept: ".file", overlap: "pointer", ondrop: (event) => { trashed.push(event.relatedTarget.textContent); event.relatedTarget.remove() } })
      window.benchState = () => ({ trashed })
    </script>`
  )
}

export const dndTasks: ReadonlyArray<Task> = [
  {
    id: "pangea-reorder",
    library: "@hello-pangea/dnd",
    goal: "move Cherry to the top of the ranking",
    path: "/pangea",
    steps: [{ do: "drag", target: { role: ["listitem", "button"], name: "Cherry" }, to: { role: ["listitem", "button"], name: "Apple" } }],
    done: (s) => same(s.main?.order, ["Cherry", "Apple", "Banana", "Date", "Elderberry"])
  },
  {
    id: "dragula-board",
    library: "dragula",
    goal: "move 'Call Alice' to the Done column",
    path: "/dragula",
    steps: [{ do: "drag", target: { role: ["listitem"], name: "Call Alice" }, to: { role: ["listitem"], name: "Fix login" } }],
    done: (s) => s.main?.done?.length === 3 && s.main.done.includes("Call Alice") && same(s.main?.todo, ["Write report", "Book flights", "Pay invoice"])
  },
  {
    id: "pragmatic-board",
    library: "@atlaskit/pragmatic-drag-and-drop",
    goal: "move 'Book flights' to the Done column",
    path: "/pragmatic",
    steps: [{ do: "drag", target: { role: ["listitem"], name: "Book flights" }, to: { role: ["listitem"], name: "Fix login" } }],
    done: (s) => same(s.main?.done, [...DONE, "Book flights"]) && !s.main?.todo?.includes("Book flights")
  },
  {
    id: "jquery-ui-sortable",
    library: "jquery-ui",
    goal: "move the 'Publish' step above 'Test'",
    path: "/jquery-ui-dnd",
    steps: [{ do: "drag", target: { role: ["listitem"], name: "Publish" }, to: { role: ["listitem"], name: "Test" } }],
    done: (s) => same(s.main?.steps, ["build", "publish", "test", "tag"])
  },
  {
    id: "jquery-ui-droppable",
    library: "jquery-ui",
    goal: "drop old-draft.txt into the recycle bin",
    path: "/jquery-ui-dnd",
    steps: [{ do: "drag", target: { role: ["*"], name: "old-draft.txt" }, to: { role: ["*"], name: "Recycle bin" } }],
    done: (s) => same(s.main?.binned, ["old-draft.txt"])
  },
  {
    id: "sortable-kanban",
    library: "sortablejs",
    goal: "move 'Pay invoice' to the Done column",
    path: "/sortable-kanban",
    steps: [{ do: "drag", target: { role: ["listitem"], name: "Pay invoice" }, to: { role: ["listitem"], name: "Plan sprint" } }],
    done: (s) => s.main?.done?.length === 3 && s.main.done.includes("Pay invoice") && same(s.main?.todo, ["Write report", "Call Alice", "Book flights"])
  },
  {
    id: "interact-dropzone",
    library: "interactjs",
    goal: "drag draft.docx into the Trash",
    path: "/interact",
    steps: [{ do: "drag", target: { role: ["*"], name: "draft.docx" }, to: { role: ["*"], name: "Trash" } }],
    done: (s) => same(s.main?.trashed, ["draft.docx"])
  }
]
