// The tasks of bench/widgets: one page per library (its distributed build, served by corpus.ts), and one
// or two tasks on it, each a few steps a person would take ("click the Size select, click Large") and a
// check of the end state that the page reported through the widget's own API. A step names its target
// the way a person reads the page: roles it may have and the words on it; the agent finds it in what
// the server answered.
import { css, js, page } from "./corpus.js"

/**
 * What a step acts on: one of these roles ("*": any, then only an exact name or text) with this name or
 * text, the earlier roles preferred; `near`: inside the row, item or header that reads it; `or`: what to
 * look for when nothing fits (the element showing an editor's placeholder, when no textbox has it).
 */
export interface Target {
  readonly role: ReadonlyArray<string>
  readonly name: string
  readonly near?: string
  readonly or?: Target
}

export type Step =
  | { readonly do: "click"; readonly target: Target }
  | { readonly do: "check"; readonly target: Target }
  | { readonly do: "type"; readonly target: Target; readonly text: string; readonly submit?: boolean }
  /** Reading the page: the target must be in what the server answered (a validation message), nothing is acted on. */
  | { readonly do: "see"; readonly target: Target }
  /** A key on the focused element (no target to find). */
  | { readonly do: "press"; readonly key: string }
  | { readonly do: "drag"; readonly target: Target; readonly to: Target }
  /**
   * Options chosen in a select-like widget, as one call where the server has a tool for it (ours), else as
   * the `clicks` a person makes (Playwright MCP's select tool takes a native <select> only).
   */
  | { readonly do: "select"; readonly target: Target; readonly values: ReadonlyArray<string>; readonly clicks: ReadonlyArray<Step> }

/** The states the page reported: its own ("main") and its framed form's ("frame"). */
export interface Reported {
  readonly main: any
  readonly frame: any
}

export interface Task {
  readonly id: string
  /** The package whose build the page runs (its version is read from node_modules). */
  readonly library: string
  readonly goal: string
  readonly path: string
  readonly steps: ReadonlyArray<Step>
  readonly done: (state: Reported) => boolean
}

/** Where the pages load the libraries' builds from (corpus.ts serves node_modules there). */
export const L = "/lib"
const SHOELACE = `${L}/@shoelace-style/shoelace/cdn`
const fmt = `const ymd = (d) => d.getFullYear() + "-" + String(d.getMonth() + 1).padStart(2, "0") + "-" + String(d.getDate()).padStart(2, "0")`

export const COUNTRIES = ["Austria", "Belgium", "Croatia", "Denmark", "Finland", "France", "Germany", "Greece", "Ireland", "Italy", "Netherlands", "Norway", "Poland", "Portugal", "Spain", "Sweden", "Switzerland"]
const FIRST = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi", "Ivan", "Judy", "Mallory", "Niaj", "Olivia", "Peggy", "Rupert", "Sybil", "Trent", "Victor", "Walter", "Zoe"]
/** Six people, the rows of the bench's and the tests' data grids. */
export const PEOPLE = [
  { name: "Alice", city: "Paris", age: 31 },
  { name: "Bob", city: "Berlin", age: 42 },
  { name: "Carol", city: "Madrid", age: 27 },
  { name: "Dave", city: "Rome", age: 35 },
  { name: "Erin", city: "Vienna", age: 29 },
  { name: "Frank", city: "Oslo", age: 51 }
]

/** The pages by path; `?run=` carries the run id the page reports under. */
export const pages: Readonly<Record<string, string>> = {
  "/shoelace": page(
    "Shoelace",
    `${css(`${SHOELACE}/themes/light.css`)}<script type="module" src="${SHOELACE}/shoelace-autoloader.js"></script>`,
    `<h1>Notifications</h1>
    <p><sl-switch id="alerts">Email alerts</sl-switch></p>
    <p><sl-select id="size" label="Size" placeholder="Choose a size" style="width:240px">
      <sl-option value="small">Small</sl-option><sl-option value="medium">Medium</sl-option><sl-option value="large">Large</sl-option>
    </sl-select></p>
    <script>window.benchState = () => ({ alerts: document.getElementById("alerts").checked, size: document.getElementById("size").value })</script>`
  ),
  "/material": page(
    "Material Web",
    js("/bundle/material.js"),
    `<h1>Sign up</h1>
    <!-- As Material's docs ask for accessibility: the label wraps the control, and aria-label names the control inside its shadow root. -->
    <p><label><md-checkbox id="terms" touch-target="wrapper" aria-label="Accept the terms"></md-checkbox> Accept the terms</label></p>
    <p><label>Dark mode <md-switch id="dark" aria-label="Dark mode"></md-switch></label></p>
    <script>window.benchState = () => ({ terms: document.getElementById("terms").checked, dark: document.getElementById("dark").selected })</script>`
  ),
  "/flatpickr": page(
    "flatpickr",
    css(`${L}/flatpickr/dist/flatpickr.min.css`) + js(`${L}/flatpickr/dist/flatpickr.min.js`),
    `<h1>Book a flight</h1>
    <label for="departure">Departure date</label> <input id="departure" placeholder="Select a date">
    <script>
      ${fmt}
      const fp = flatpickr("#departure", { dateFormat: "Y-m-d", now: new Date(2025, 2, 1) })
      window.benchState = () => ({ dates: fp.selectedDates.map(ymd) })
    </script>`
  ),
  "/air-datepicker": page(
    "Air Datepicker",
    css(`${L}/air-datepicker/air-datepicker.css`) + js(`${L}/air-datepicker/air-datepicker.js`),
    `<h1>Your stay</h1><p>Pick the first and the last night.</p><div id="stay"></div>
    <script>
      ${fmt}
      const en = { days: ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"], daysShort: ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"],
        daysMin: ["Su", "Mo", "Tu", "We", "Th", "Fr", "Sa"], months: ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"],
        monthsShort: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"], today: "Today", clear: "Clear", dateFormat: "MM/dd/yyyy", timeFormat: "hh:mm aa", firstDay: 0 }
      const dp = new AirDatepicker("#stay", { inline: true, range: true, locale: en, startDate: new Date(2025, 2, 1) })
      window.benchState = () => ({ dates: dp.selectedDates.map(ymd) })
    </script>`
  ),
  "/tom-select": page(
    "Tom Select",
    css(`${L}/tom-select/dist/css/tom-select.css`) + js(`${L}/tom-select/dist/js/tom-select.complete.min.js`),
    `<h1>Shipping</h1>
    <label for="country">Country</label>
    <select id="country" placeholder="Choose a country"><option value="">Choose a country</option>
      ${COUNTRIES.map((c) => `<option value="${c.toLowerCase()}">${c}</option>`).join("")}</select>
    <script>
      const ts = new TomSelect("#country", {})
      window.benchState = () => ({ value: ts.getValue() })
    </script>`
  ),
  "/choices": page(
    "Choices.js",
    css(`${L}/choices.js/public/assets/styles/choices.min.css`) + js(`${L}/choices.js/public/assets/scripts/choices.min.js`),
    `<h1>Your favourite colours</h1>
    <label for="colors">Colors</label>
    <select id="colors" multiple>${["Red", "Green", "Blue", "Yellow", "Purple"].map((c) => `<option value="${c.toLowerCase()}">${c}</option>`).join("")}</select>
    <script>
      const choices = new Choices("#colors", { removeItemButton: true })
      window.benchState = () => ({ values: choices.getValue(true).slice().sort() })
    </script>`
  ),
  "/quill": page(
    "Quill",
    css(`${L}/quill/dist/quill.snow.css`) + js(`${L}/quill/dist/quill.js`),
    `<h1>New post</h1><div id="editor" style="height:160px"></div>
    <script>
      const quill = new Quill("#editor", { theme: "snow", placeholder: "Compose an epic..." })
      window.benchState = () => ({ text: quill.getText(), ops: quill.getContents().ops })
    </script>`
  ),
  "/codemirror": page(
    "CodeMirror",
    js("/bundle/codemirror.js"),
    `<h1>Script</h1><div id="code"></div>
    <script>
      const view = new CM.EditorView({ doc: "// write code here", parent: document.getElementById("code"),
        extensions: [CM.basicSetup, CM.EditorView.contentAttributes.of({ "aria-label": "Code" })] })
      window.benchState = () => ({ doc: view.state.doc.toString() })
    </script>`
  ),
  "/ag-grid": page(
    "AG Grid",
    js(`${L}/ag-grid-community/dist/ag-grid-community.min.js`),
    `<h1>Customers</h1><div id="grid" style="height:420px;width:640px"></div>
    <script>
      const first = ${JSON.stringify(FIRST)}
      const cities = ["Paris", "Berlin", "Madrid", "Rome", "Vienna", "Oslo", "Lisbon"]
      const rowData = Array.from({ length: 10000 }, (_, i) => ({ id: i + 1, name: first[(i * 7) % first.length] + " " + String.fromCharCode(65 + (i % 26)) + ".", city: cities[i % cities.length] }))
      const api = agGrid.createGrid(document.getElementById("grid"), {
        rowData,
        columnDefs: [{ field: "id", headerName: "ID", width: 100 }, { field: "name", headerName: "Name", filter: true, floatingFilter: true }, { field: "city", headerName: "City" }]
      })
      window.benchState = () => ({
        sort: api.getColumnState().filter((c) => c.sort).map((c) => c.colId + ":" + c.sort),
        filter: api.getFilterModel(),
        shown: api.getDisplayedRowCount()
      })
    </script>`
  ),
  "/tabulator": page(
    "Tabulator",
    css(`${L}/tabulator-tables/dist/css/tabulator.min.css`) + js(`${L}/tabulator-tables/dist/js/tabulator.min.js`),
    `<h1>Team</h1><div id="table"></div>
    <script>
      const table = new Tabulator("#table", { data: ${JSON.stringify(PEOPLE)}, layout: "fitColumns",
        columns: [{ title: "Name", field: "name", headerFilter: "input" }, { title: "City", field: "city", editor: "input" }, { title: "Age", field: "age" }] })
      let built = false
      table.on("tableBuilt", () => (built = true))
      window.benchState = () => built ? ({ filter: table.getHeaderFilterValue("name") || "", shown: table.getDataCount("active"), data: table.getData() }) : null
    </script>`
  ),
  "/sortable": page(
    "SortableJS",
    js(`${L}/sortablejs/Sortable.min.js`),
    `<style>#items li{padding:10px;margin:4px;border:1px solid #aaa;background:#f6f6f6;width:240px;cursor:grab;list-style:none}</style>
    <h1>Priorities</h1><ul id="items">${[1, 2, 3, 4, 5].map((n) => `<li data-id="${n}">Item ${n}</li>`).join("")}</ul>
    <script>
      const sortable = Sortable.create(document.getElementById("items"), { animation: 0 })
      window.benchState = () => ({ order: sortable.toArray() })
    </script>`
  ),
  "/frames": page(
    "Embedded forms",
    "",
    `<h1>Newsletter</h1>
    <iframe id="same" title="Newsletter form" style="width:420px;height:160px"></iframe>
    <h2>Consent</h2>
    <iframe id="cross" title="Consent form" style="width:420px;height:160px"></iframe>
    <script>
      const run = new URLSearchParams(location.search).get("run")
      const task = new URLSearchParams(location.search).get("task")
      const other = new URLSearchParams(location.search).get("other")
      // One task per frame: the other frame reports under a part of its own, which no check reads.
      document.getElementById("same").src = "/form?run=" + run + "&part=" + (task === "same" ? "frame" : "unused")
      document.getElementById("cross").src = other + "/consent?run=" + run + "&part=" + (task === "cross" ? "frame" : "unused")
      window.benchState = () => ({})
    </script>`
  ),
  "/form": page(
    "Newsletter form",
    "",
    `<form id="f"><label>Name <input name="name"></label> <button>Subscribe</button></form><p id="out"></p>
    <script>
      let submitted = null
      document.getElementById("f").addEventListener("submit", (event) => {
        event.preventDefault()
        submitted = new FormData(event.target).get("name")
        document.getElementById("out").textContent = "Thanks, " + submitted
      })
      window.benchState = () => ({ submitted })
    </script>`
  ),
  "/consent": page(
    "Consent form",
    "",
    `<form id="f"><label><input type="checkbox" name="agree"> I agree to the terms</label> <button>Send</button></form><p id="out"></p>
    <script>
      let sent = null
      document.getElementById("f").addEventListener("submit", (event) => {
        event.preventDefault()
        sent = { agreed: event.target.agree.checked }
        document.getElementById("out").textContent = "Sent"
      })
      window.benchState = () => ({ sent })
    </script>`
  )
}

export const any = ["*"]
/** A rich-text editor found by its placeholder: a textbox of that name, else whatever shows the words. */
export const editor = (placeholder: string): Target => ({ role: ["textbox"], name: placeholder, or: { role: any, name: placeholder } })
const EDITOR = editor("Compose an epic...")
export const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

export const tasks: ReadonlyArray<Task> = [
  {
    id: "shoelace-switch",
    library: "@shoelace-style/shoelace",
    goal: "turn on the 'Email alerts' switch",
    path: "/shoelace",
    steps: [{ do: "check", target: { role: ["switch", "checkbox"], name: "Email alerts" } }],
    done: (s) => s.main?.alerts === true
  },
  {
    id: "shoelace-select",
    library: "@shoelace-style/shoelace",
    goal: "choose 'Large' in the Size select",
    path: "/shoelace",
    steps: [
      {
        do: "select",
        target: { role: ["combobox", "button"], name: "Size" },
        values: ["Large"],
        clicks: [
          { do: "click", target: { role: ["combobox", "button"], name: "Size" } },
          { do: "click", target: { role: ["option"], name: "Large" } }
        ]
      }
    ],
    done: (s) => s.main?.size === "large"
  },
  {
    id: "material-checkbox",
    library: "@material/web",
    goal: "check 'Accept the terms'",
    path: "/material",
    steps: [{ do: "check", target: { role: ["checkbox"], name: "Accept the terms" } }],
    done: (s) => s.main?.terms === true
  },
  {
    id: "material-switch",
    library: "@material/web",
    goal: "turn on 'Dark mode'",
    path: "/material",
    steps: [{ do: "check", target: { role: ["switch", "checkbox"], name: "Dark mode" } }],
    done: (s) => s.main?.dark === true
  },
  {
    id: "flatpickr-date",
    library: "flatpickr",
    goal: "pick March 14, 2025 as the departure date",
    path: "/flatpickr",
    steps: [
      { do: "click", target: { role: ["textbox"], name: "Departure date" } },
      { do: "click", target: { role: any, name: "March 14, 2025" } }
    ],
    done: (s) => same(s.main?.dates, ["2025-03-14"])
  },
  {
    id: "air-datepicker-range",
    library: "air-datepicker",
    goal: "select the stay from March 3 to March 7, 2025",
    path: "/air-datepicker",
    steps: [
      { do: "click", target: { role: any, name: "3" } },
      { do: "click", target: { role: any, name: "7" } }
    ],
    done: (s) => same(s.main?.dates, ["2025-03-03", "2025-03-07"])
  },
  {
    id: "tom-select-country",
    library: "tom-select",
    goal: "choose 'Portugal' in the Country combobox",
    path: "/tom-select",
    steps: [
      {
        do: "select",
        target: { role: ["combobox", "textbox", "searchbox"], name: "Country" },
        values: ["Portugal"],
        clicks: [
          { do: "type", target: { role: ["combobox", "textbox", "searchbox"], name: "Country" }, text: "Port" },
          { do: "click", target: { role: ["option"], name: "Portugal" } }
        ]
      }
    ],
    done: (s) => s.main?.value === "portugal"
  },
  {
    id: "choices-multi",
    library: "choices.js",
    goal: "select 'Red' and 'Blue' in Colors",
    path: "/choices",
    steps: [
      {
        do: "select",
        target: { role: ["combobox", "searchbox", "textbox"], name: "Colors" },
        values: ["Red", "Blue"],
        clicks: [
          { do: "click", target: { role: ["combobox", "searchbox", "textbox"], name: "Colors" } },
          { do: "click", target: { role: ["option"], name: "Red" } },
          { do: "click", target: { role: ["option"], name: "Blue" } }
        ]
      }
    ],
    done: (s) => same(s.main?.values, ["blue", "red"])
  },
  {
    id: "quill-type",
    library: "quill",
    goal: "type 'Hello world' in the editor",
    path: "/quill",
    steps: [{ do: "type", target: EDITOR, text: "Hello world" }],
    done: (s) => s.main?.text === "Hello world\n"
  },
  {
    id: "quill-bold",
    library: "quill",
    goal: "type 'hello' in the editor and make it bold",
    path: "/quill",
    steps: [
      { do: "type", target: EDITOR, text: "hello" },
      { do: "press", key: "Control+a" },
      { do: "click", target: { role: ["button"], name: "bold" } }
    ],
    done: (s) => s.main?.ops?.length === 2 && s.main.ops[0].insert === "hello" && s.main.ops[0].attributes?.bold === true && s.main.ops[1].insert === "\n"
  },
  {
    id: "codemirror-type",
    library: "codemirror",
    goal: "replace the code with 'let x = 1'",
    path: "/codemirror",
    steps: [{ do: "type", target: { role: ["textbox"], name: "Code" }, text: "let x = 1" }],
    done: (s) => s.main?.doc === "let x = 1"
  },
  {
    id: "ag-grid-sort",
    library: "ag-grid-community",
    goal: "sort the grid by Name, descending (10,000 virtual rows)",
    path: "/ag-grid",
    steps: [
      { do: "click", target: { role: ["columnheader"], name: "Name" } },
      { do: "click", target: { role: ["columnheader"], name: "Name" } }
    ],
    done: (s) => same(s.main?.sort, ["name:desc"])
  },
  {
    id: "ag-grid-filter",
    library: "ag-grid-community",
    goal: "filter the grid to the name Bob",
    path: "/ag-grid",
    steps: [{ do: "type", target: { role: ["textbox", "searchbox"], name: "Name Filter" }, text: "Bob" }],
    done: (s) => s.main?.filter?.name?.filter === "Bob" && s.main?.shown > 0 && s.main?.shown < 10000
  },
  {
    id: "tabulator-filter",
    library: "tabulator-tables",
    goal: "filter the table to Bob with the Name header filter",
    path: "/tabulator",
    steps: [{ do: "type", target: { role: ["searchbox", "textbox"], name: "", near: "Name" }, text: "Bob" }],
    done: (s) => s.main?.filter === "Bob" && s.main?.shown === 1
  },
  {
    id: "tabulator-edit",
    library: "tabulator-tables",
    goal: "change Alice's city to Lisbon",
    path: "/tabulator",
    steps: [
      { do: "click", target: { role: ["gridcell", "cell"], name: "Paris", near: "Alice" } },
      { do: "type", target: { role: ["textbox"], name: "", near: "Alice" }, text: "Lisbon", submit: true }
    ],
    done: (s) => s.main?.data?.[0]?.city === "Lisbon"
  },
  {
    id: "sortable-move",
    library: "sortablejs",
    goal: "move 'Item 3' to the top of the list",
    path: "/sortable",
    steps: [{ do: "drag", target: { role: ["listitem"], name: "Item 3" }, to: { role: ["listitem"], name: "Item 1" } }],
    done: (s) => s.main?.order?.[0] === "3"
  },
  {
    id: "iframe-same-origin",
    library: "(same-origin iframe)",
    goal: "subscribe 'Ada' in the embedded newsletter form",
    path: "/frames?task=same",
    steps: [
      { do: "type", target: { role: ["textbox"], name: "Name" }, text: "Ada" },
      { do: "click", target: { role: ["button"], name: "Subscribe" } }
    ],
    done: (s) => s.frame?.submitted === "Ada"
  },
  {
    id: "iframe-cross-origin",
    library: "(cross-origin iframe)",
    goal: "agree to the terms and send, in the cross-origin consent form",
    path: "/frames?task=cross",
    steps: [
      { do: "check", target: { role: ["checkbox"], name: "I agree to the terms" } },
      { do: "click", target: { role: ["button"], name: "Send" } }
    ],
    done: (s) => s.frame?.sent?.agreed === true
  }
]
