// A fourth family of bench/widgets tasks: framework kits and editors that real apps are built on, not in
// the other families. Mantine (a searchable select whose input is the combobox, a date input whose popup
// is a calendar of day buttons), PrimeReact (a dropdown whose combobox is a visually hidden input behind
// the drawn control, with a filter box in its panel; a calendar; a data table that sorts on its headers),
// Vuetify on Vue (from their UMD builds: an autocomplete, a data table with a search field and sortable
// headers), Lexical (an editing host with a toolbar), dnd-kit (a sortable list moved by the pointer) and
// Downshift (a combobox that filters as one types). React, Lexical and dnd-kit pages load an esbuild
// bundle of the npm build (corpus.ts builds `fwBundles` once at start); Vuetify runs from dist/. Every
// page reports its state through the widget's own callbacks or models.
import { css, js, page } from "./corpus.js"
import { any, COUNTRIES, editor, L, same, type Task } from "./tasks.js"

/** Entry sources of the bundles these pages load, by path (corpus.ts bundles them). */
export const fwBundles: Readonly<Record<string, string>> = {
  "/bundle/mantine.js": `import * as React from "react"; import { createRoot } from "react-dom/client";
    import { MantineProvider, Select } from "@mantine/core"; import { DatePickerInput } from "@mantine/dates";
    window.MT = { React, createRoot, M: { MantineProvider, Select, DatePickerInput } };`,
  "/bundle/primereact.js": `import * as React from "react"; import { createRoot } from "react-dom/client";
    import { Dropdown } from "primereact/dropdown"; import { Calendar } from "primereact/calendar";
    import { DataTable } from "primereact/datatable"; import { Column } from "primereact/column";
    window.PR = { React, createRoot, P: { Dropdown, Calendar, DataTable, Column } };`,
  "/bundle/lexical.js": `import * as L from "lexical"; import { registerRichText, HeadingNode, QuoteNode } from "@lexical/rich-text";
    import { registerHistory, createEmptyHistoryState } from "@lexical/history"; import { mergeRegister } from "@lexical/utils";
    window.LX = { L, registerRichText, HeadingNode, QuoteNode, registerHistory, createEmptyHistoryState, mergeRegister };`,
  "/bundle/dndkit.js": `import * as React from "react"; import { createRoot } from "react-dom/client"; import * as Core from "@dnd-kit/core";
    import * as Sortable from "@dnd-kit/sortable"; import { CSS } from "@dnd-kit/utilities"; window.DK = { React, createRoot, Core, Sortable, CSS };`,
  "/bundle/downshift.js": `import * as React from "react"; import { createRoot } from "react-dom/client"; import { useCombobox } from "downshift";
    window.DS = { React, createRoot, useCombobox };`
}

const PEOPLE = [
  ["Alice", "Paris", 31],
  ["Bob", "Berlin", 42],
  ["Carol", "Madrid", 27],
  ["Dave", "Rome", 35],
  ["Erin", "Berlin", 29],
  ["Frank", "Oslo", 51],
  ["Grace", "Paris", 38],
  ["Mallory", "Berlin", 40]
] as const
const FRUITS = ["Apple", "Banana", "Cherry", "Damson", "Elderberry"]
const react = (global: string) => `const { React, createRoot } = ${global}; const h = React.createElement; let state = {};
  window.benchState = () => state; const mount = (App) => createRoot(document.getElementById("root")).render(h(App));`
const PRIME = `${L}/primereact/resources`

export const fwPages: Readonly<Record<string, string>> = {
  "/mantine": page(
    "Mantine",
    css(`${L}/@mantine/core/styles.css`) + css(`${L}/@mantine/dates/styles.css`) + js("/bundle/mantine.js"),
    `<div id="root" style="padding:24px;width:320px"></div>
    <script>
      ${react("MT")} const { M } = MT
      state = { country: null, due: null }
      mount(() => h(M.MantineProvider, null, h("h1", null, "Shipment"),
        h(M.Select, { label: "Country", placeholder: "Pick a country", searchable: true, data: ${JSON.stringify(COUNTRIES)},
          onChange: (v) => (state = { ...state, country: v }) }),
        h("div", { style: { height: 16 } }),
        h(M.DatePickerInput, { label: "Due date", placeholder: "Pick a date", defaultDate: "2025-03-01",
          onChange: (v) => (state = { ...state, due: v }) })))
    </script>`
  ),
  "/primereact": page(
    "PrimeReact",
    css(`${PRIME}/themes/lara-light-blue/theme.css`) + css(`${PRIME}/primereact.min.css`) + js("/bundle/primereact.js"),
    `<div id="root" style="padding:24px;width:520px"></div>
    <script>
      ${react("PR")} const { P } = PR
      const rows = ${JSON.stringify(PEOPLE.slice(0, 6))}.map(([name, city, age]) => ({ name, city, age }))
      state = { country: null, start: null, order: rows.map((r) => r.name) }
      const ymd = (d) => d ? d.getFullYear() + "-" + String(d.getMonth() + 1).padStart(2, "0") + "-" + String(d.getDate()).padStart(2, "0") : null
      const App = () => {
        const [country, setCountry] = React.useState(null)
        const [start, setStart] = React.useState(null)
        return h("div", null, h("h1", null, "Booking"),
          h("div", { style: { marginBottom: 16 } }, h("label", { htmlFor: "country", style: { display: "block" } }, "Country"),
            h(P.Dropdown, { inputId: "country", value: country, options: ${JSON.stringify(COUNTRIES)}, filter: true, filterPlaceholder: "Search countries", placeholder: "Select a country", style: { width: 260 },
              onChange: (e) => { state = { ...state, country: e.value }; setCountry(e.value) } })),
          h("div", { style: { marginBottom: 16 } }, h("label", { htmlFor: "start", style: { display: "block" } }, "Start date"),
            h(P.Calendar, { inputId: "start", value: start, viewDate: start ?? new Date(2025, 2, 1), dateFormat: "yy-mm-dd",
              onChange: (e) => { state = { ...state, start: ymd(e.value) }; setStart(e.value) } })),
          h("h2", null, "Guests"),
          h(P.DataTable, { value: rows, onValueChange: (sorted) => (state = { ...state, order: sorted.map((r) => r.name) }) },
            h(P.Column, { field: "name", header: "Name", sortable: true }),
            h(P.Column, { field: "city", header: "City" }),
            h(P.Column, { field: "age", header: "Age", sortable: true })))
      }
      mount(App)
    </script>`
  ),
  "/vuetify": page(
    "Vuetify",
    css(`${L}/vuetify/dist/vuetify.min.css`) + js(`${L}/vue/dist/vue.global.prod.js`) +
      // Vuetify 4's UMD build reads process.env.NODE_ENV as a bundler would have replaced it.
      `<script>window.process = { env: { NODE_ENV: "production" } }</script>` + js(`${L}/vuetify/dist/vuetify.min.js`),
    `<div id="app"></div>
    <script>
      const people = ${JSON.stringify(PEOPLE)}.map(([name, city, age]) => ({ name, city, age }))
      const app = Vue.createApp({
        setup() {
          const country = Vue.ref(null), search = Vue.ref(""), sortBy = Vue.ref([])
          const headers = [{ title: "Name", key: "name" }, { title: "City", key: "city" }, { title: "Age", key: "age" }]
          window.benchState = () => ({ country: country.value, search: search.value, sortBy: sortBy.value,
            shown: [...document.querySelectorAll("#team tbody tr")].map((tr) => tr.cells[0] && tr.cells[0].textContent) })
          return { country, search, sortBy, headers, people, countries: ${JSON.stringify(COUNTRIES)} }
        },
        template: \`<v-app><v-main><v-container style="max-width:560px">
          <h1>Team</h1>
          <v-autocomplete v-model="country" label="Country" :items="countries"></v-autocomplete>
          <v-text-field v-model="search" label="Search" hide-details></v-text-field>
          <v-data-table id="team" :headers="headers" :items="people" :search="search" v-model:sort-by="sortBy" hide-default-footer></v-data-table>
        </v-container></v-main></v-app>\`
      })
      app.use(Vuetify.createVuetify()).mount("#app")
    </script>`
  ),
  "/lexical": page(
    "Lexical",
    js("/bundle/lexical.js") +
      `<style>.toolbar button{margin-right:4px}.shell{position:relative;width:480px}
        #editor{border:1px solid #ccc;min-height:120px;padding:8px;outline:none}#editor p{margin:0}
        .placeholder{position:absolute;top:9px;left:9px;color:#999;pointer-events:none;user-select:none}.bold{font-weight:bold}</style>`,
    `<h1>Notes</h1>
    <div class="toolbar"><button type="button" id="bold" aria-label="Format bold"><b>B</b></button></div>
    <div class="shell"><div id="editor" contenteditable="true"></div><div class="placeholder" id="placeholder">Enter some text…</div></div>
    <script>
      const { L } = LX
      const editor = L.createEditor({ namespace: "bench", nodes: [LX.HeadingNode, LX.QuoteNode], theme: { text: { bold: "bold" } }, onError: (e) => { throw e } })
      editor.setRootElement(document.getElementById("editor"))
      LX.mergeRegister(LX.registerRichText(editor), LX.registerHistory(editor, LX.createEmptyHistoryState(), 300))
      editor.registerUpdateListener(({ editorState }) => {
        const empty = editorState.read(() => L.$getRoot().getTextContent() === "")
        document.getElementById("placeholder").style.display = empty ? "" : "none"
      })
      document.getElementById("bold").addEventListener("click", () => editor.dispatchCommand(L.FORMAT_TEXT_COMMAND, "bold"))
      window.benchState = () => editor.getEditorState().read(() => ({
        text: L.$getRoot().getTextContent(),
        runs: L.$getRoot().getAllTextNodes().map((node) => ({ text: node.getTextContent(), bold: node.hasFormat("bold") }))
      }))
    </script>`
  ),
  "/dndkit": page(
    "dnd-kit",
    js("/bundle/dndkit.js") + `<style>.item{padding:10px;margin:4px;border:1px solid #aaa;background:#f6f6f6;width:240px;list-style:none;touch-action:none}</style>`,
    `<div id="root" style="padding:24px"></div>
    <script>
      ${react("DK")} const { Core, Sortable, CSS } = DK
      state = { order: ${JSON.stringify(FRUITS)} }
      const Item = ({ id }) => {
        const { attributes, listeners, setNodeRef, transform, transition } = Sortable.useSortable({ id })
        return h("li", { ref: setNodeRef, className: "item", style: { transform: CSS.Transform.toString(transform), transition }, ...attributes, ...listeners }, id)
      }
      const App = () => {
        const [items, setItems] = React.useState(state.order)
        const sensors = Core.useSensors(Core.useSensor(Core.PointerSensor), Core.useSensor(Core.KeyboardSensor, { coordinateGetter: Sortable.sortableKeyboardCoordinates }))
        const onDragEnd = ({ active, over }) => {
          if (!over || active.id === over.id) return
          const next = Sortable.arrayMove(items, items.indexOf(active.id), items.indexOf(over.id))
          state = { order: next }
          setItems(next)
        }
        return h("div", null, h("h1", null, "Fruit ranking"),
          h(Core.DndContext, { sensors, collisionDetection: Core.closestCenter, onDragEnd },
            h(Sortable.SortableContext, { items, strategy: Sortable.verticalListSortingStrategy },
              h("ul", { style: { padding: 0 } }, items.map((id) => h(Item, { key: id, id }))))))
      }
      mount(App)
    </script>`
  ),
  "/downshift": page(
    "Downshift",
    js("/bundle/downshift.js") + `<style>ul.menu{list-style:none;margin:0;padding:0;width:240px;border:1px solid #ccc;max-height:240px;overflow:auto}ul.menu:empty{border:0}li.hl{background:#def}</style>`,
    `<div id="root" style="padding:24px"></div>
    <script>
      ${react("DS")} const { useCombobox } = DS
      const all = ${JSON.stringify(COUNTRIES)}
      state = { country: null }
      const App = () => {
        const [items, setItems] = React.useState(all)
        const c = useCombobox({ items,
          onInputValueChange: ({ inputValue }) => setItems(all.filter((x) => x.toLowerCase().startsWith((inputValue || "").toLowerCase()))),
          onSelectedItemChange: ({ selectedItem }) => (state = { country: selectedItem ?? null }) })
        return h("div", null, h("h1", null, "Shipping"),
          h("label", c.getLabelProps(), "Country"),
          h("div", null, h("input", { ...c.getInputProps(), placeholder: "Type a country" }), h("button", { ...c.getToggleButtonProps(), "aria-label": "toggle menu" }, "▾")),
          h("ul", { ...c.getMenuProps(), className: "menu" }, c.isOpen ? items.map((item, index) =>
            h("li", { key: item, ...c.getItemProps({ item, index }), className: c.highlightedIndex === index ? "hl" : "" }, item)) : null))
      }
      mount(App)
    </script>`
  )
}

export const fwTasks: ReadonlyArray<Task> = [
  {
    id: "mantine-select-search",
    library: "@mantine/core",
    goal: "choose Portugal as the country, typing to search",
    path: "/mantine",
    steps: [
      { do: "type", target: { role: ["combobox", "textbox"], name: "Country" }, text: "Por" },
      { do: "click", target: { role: ["option"], name: "Portugal", or: { role: any, name: "Portugal" } } }
    ],
    done: (s) => s.main?.country === "Portugal"
  },
  {
    id: "mantine-date-input",
    library: "@mantine/dates",
    goal: "pick March 14, 2025 as the due date",
    path: "/mantine",
    steps: [
      { do: "click", target: { role: ["button", "textbox", "combobox"], name: "Due date" } },
      { do: "click", target: { role: ["button", "gridcell"], name: "14", or: { role: any, name: "14" } } }
    ],
    done: (s) => s.main?.due === "2025-03-14"
  },
  {
    id: "prime-dropdown-filter",
    library: "primereact",
    goal: "choose Portugal as the country, through the dropdown's filter box",
    path: "/primereact",
    steps: [
      { do: "click", target: { role: ["combobox", "textbox", "button"], name: "Country" } },
      { do: "type", target: { role: ["textbox", "searchbox"], name: "Search countries" }, text: "Por" },
      { do: "click", target: { role: ["option"], name: "Portugal" } }
    ],
    done: (s) => s.main?.country === "Portugal"
  },
  {
    id: "prime-calendar",
    library: "primereact",
    goal: "pick March 14, 2025 as the start date",
    path: "/primereact",
    steps: [
      { do: "click", target: { role: ["combobox", "textbox"], name: "Start date" } },
      { do: "click", target: { role: ["gridcell", "button"], name: "14", or: { role: any, name: "14" } } }
    ],
    done: (s) => s.main?.start === "2025-03-14"
  },
  {
    id: "prime-table-sort-desc",
    library: "primereact",
    goal: "sort the guests by Age, oldest first",
    path: "/primereact",
    steps: [
      { do: "click", target: { role: ["columnheader"], name: "Age" } },
      { do: "click", target: { role: ["columnheader"], name: "Age" } }
    ],
    done: (s) => same(s.main?.order, ["Frank", "Bob", "Dave", "Alice", "Erin", "Carol"])
  },
  {
    id: "vuetify-autocomplete",
    library: "vuetify",
    goal: "choose Portugal as the country, typing to filter",
    path: "/vuetify",
    steps: [
      { do: "type", target: { role: ["combobox", "textbox"], name: "Country" }, text: "Por" },
      { do: "click", target: { role: ["option"], name: "Portugal", or: { role: any, name: "Portugal" } } }
    ],
    done: (s) => s.main?.country === "Portugal"
  },
  {
    id: "vuetify-table-search-sort",
    library: "vuetify",
    goal: "show only the people in Berlin with the search field, sorted by Age",
    path: "/vuetify",
    steps: [
      { do: "type", target: { role: ["textbox", "searchbox"], name: "Search" }, text: "Berlin" },
      { do: "click", target: { role: ["columnheader"], name: "Age" } }
    ],
    done: (s) => s.main?.search === "Berlin" && same(s.main?.sortBy, [{ key: "age", order: "asc" }]) && same(s.main?.shown, ["Erin", "Mallory", "Bob"])
  },
  {
    id: "lexical-bold-word",
    library: "lexical",
    goal: "type 'Hello world' in the note and make 'world' bold with the toolbar",
    path: "/lexical",
    steps: [
      { do: "type", target: editor("Enter some text…"), text: "Hello world" },
      { do: "press", key: "Control+Shift+ArrowLeft" },
      { do: "click", target: { role: ["button"], name: "Format bold" } }
    ],
    done: (s) => same(s.main?.runs, [{ text: "Hello ", bold: false }, { text: "world", bold: true }])
  },
  {
    id: "dndkit-sortable",
    library: "@dnd-kit/sortable",
    goal: "move Cherry to the top of the ranking",
    path: "/dndkit",
    steps: [{ do: "drag", target: { role: ["listitem", "button"], name: "Cherry" }, to: { role: ["listitem", "button"], name: "Apple" } }],
    done: (s) => s.main?.order?.[0] === "Cherry"
  },
  {
    id: "downshift-combobox",
    library: "downshift",
    goal: "choose Portugal as the country, typing to filter",
    path: "/downshift",
    steps: [
      { do: "type", target: { role: ["combobox", "textbox"], name: "Country" }, text: "Por" },
      { do: "click", target: { role: ["option"], name: "Portugal" } }
    ],
    done: (s) => s.main?.country === "Portugal"
  }
]
