// More tasks of bench/widgets, on widget libraries of other families and kinds than tasks.ts has: web
// components with lazily loaded parts and overlays (Ionic), jQuery plugins (Select2, jQuery UI, jsTree),
// a range slider (noUiSlider), a rich-text editor inside an iframe (TinyMCE), a spreadsheet grid
// (Handsontable), Bootstrap's modal and dropdown, and React components (react-select, Radix Select, Material
// UI's select and autocomplete, react-datepicker). Each page serves the library's distributed build
// from node_modules (the React pages as esbuild bundles, corpus.ts) and reports its state through the
// widget's own API.
import { css, js, page } from "./corpus.js"
import { any, COUNTRIES, editor, L, same, type Task } from "./tasks.js"

const JQUERY = js(`${L}/jquery/dist/jquery.min.js`)
const LANGUAGES = ["ActionScript", "AppleScript", "Asp", "BASIC", "C", "C++", "Clojure", "COBOL", "Erlang", "Fortran", "Groovy", "Haskell", "Java", "JavaScript", "Lisp", "Perl", "PHP", "Python", "Ruby", "Scala", "Scheme"]
const PEOPLE = [
  ["Alice", "Paris", 31],
  ["Bob", "Berlin", 42],
  ["Carol", "Madrid", 27],
  ["Dave", "Rome", 35],
  ["Erin", "Vienna", 29],
  ["Frank", "Oslo", 51]
]

export const widerPages: Readonly<Record<string, string>> = {
  "/ionic": page(
    "Ionic",
    css(`${L}/@ionic/core/css/ionic.bundle.css`) + `<script type="module" src="${L}/@ionic/core/dist/ionic/ionic.esm.js"></script>`,
    `<ion-app><ion-content class="ion-padding">
      <h1>Settings</h1>
      <ion-list>
        <ion-item><ion-toggle id="wifi">Wi-Fi</ion-toggle></ion-item>
        <ion-item><ion-select id="size" label="Size" placeholder="Choose a size">
          <ion-select-option value="small">Small</ion-select-option><ion-select-option value="medium">Medium</ion-select-option><ion-select-option value="large">Large</ion-select-option>
        </ion-select></ion-item>
      </ion-list>
    </ion-content></ion-app>
    <script>window.benchState = () => ({ wifi: document.getElementById("wifi").checked, size: document.getElementById("size").value ?? null })</script>`
  ),
  "/select2": page(
    "Select2",
    css(`${L}/select2/dist/css/select2.min.css`) + JQUERY + js(`${L}/select2/dist/js/select2.min.js`),
    `<h1>Shipping</h1>
    <p><label for="country">Country</label>
    <select id="country" style="width:260px"><option value="">Choose a country</option>
      ${COUNTRIES.map((c) => `<option value="${c.toLowerCase()}">${c}</option>`).join("")}</select></p>
    <script>
      $("#country").select2({ placeholder: "Choose a country" })
      window.benchState = () => ({ value: $("#country").val() })
    </script>`
  ),
  "/jquery-ui": page(
    "jQuery UI",
    css(`${L}/jquery-ui/dist/themes/base/jquery-ui.min.css`) + JQUERY + js(`${L}/jquery-ui/dist/jquery-ui.min.js`),
    `<h1>Profile</h1>
    <div id="tabs"><ul><li><a href="#about">About</a></li><li><a href="#skills">Skills</a></li></ul>
      <div id="about"><p>Tell us about yourself.</p></div>
      <div id="skills"><label for="language">Favourite language</label> <input id="language"></div>
    </div>
    <script>
      $("#tabs").tabs()
      $("#language").autocomplete({ source: ${JSON.stringify(LANGUAGES)} })
      let chosen = null
      $("#language").on("autocompleteselect", (event, ui) => (chosen = ui.item.value))
      window.benchState = () => ({ tab: $("#tabs").tabs("option", "active"), chosen, value: $("#language").val() })
    </script>`
  ),
  "/jstree": page(
    "jsTree",
    css(`${L}/jstree/dist/themes/default/style.min.css`) + JQUERY + js(`${L}/jstree/dist/jstree.min.js`),
    `<h1>Files</h1><div id="tree"></div>
    <script>
      $("#tree").jstree({ core: { data: [
        { id: "docs", text: "Documents", children: [{ id: "report", text: "Report.pdf" }, { id: "budget", text: "Budget.xlsx" }] },
        { id: "pics", text: "Pictures", children: [{ id: "cat", text: "Cat.jpg" }] },
        { id: "notes", text: "Notes.txt" }
      ] } })
      window.benchState = () => ({ selected: $("#tree").jstree("get_selected"), open: $("#tree").jstree("is_open", "docs") })
    </script>`
  ),
  "/nouislider": page(
    "noUiSlider",
    css(`${L}/nouislider/dist/nouislider.min.css`) + js(`${L}/nouislider/dist/nouislider.min.js`),
    `<h1>Filter by price</h1><div id="price" style="width:400px;margin:40px 20px"></div>
    <script>
      const slider = document.getElementById("price")
      noUiSlider.create(slider, { start: [20, 80], connect: true, step: 1, range: { min: 0, max: 100 },
        handleAttributes: [{ "aria-label": "Minimum price" }, { "aria-label": "Maximum price" }] })
      window.benchState = () => ({ value: slider.noUiSlider.get(true) })
    </script>`
  ),
  "/tinymce": page(
    "TinyMCE",
    js(`${L}/tinymce/tinymce.min.js`),
    `<h1>New post</h1><textarea id="post"></textarea>
    <script>
      let editor = null
      tinymce.init({ selector: "#post", license_key: "gpl", base_url: "${L}/tinymce", suffix: ".min", menubar: false, statusbar: false,
        promotion: false, toolbar: "bold italic", placeholder: "Write your post", height: 240 }).then(([e]) => (editor = e))
      window.benchState = () => editor ? ({ html: editor.getContent(), text: editor.getContent({ format: "text" }) }) : null
    </script>`
  ),
  "/handsontable": page(
    "Handsontable",
    css(`${L}/handsontable/styles/handsontable.min.css`) + css(`${L}/handsontable/styles/ht-theme-main.min.css`) + js(`${L}/handsontable/dist/handsontable.full.min.js`),
    `<h1>Team</h1><div id="sheet" class="ht-theme-main"></div>
    <script>
      const hot = new Handsontable(document.getElementById("sheet"), { data: ${JSON.stringify(PEOPLE)}, colHeaders: ["Name", "City", "Age"],
        rowHeaders: true, columnSorting: true, height: "auto", width: 480, licenseKey: "non-commercial-and-evaluation" })
      window.benchState = () => ({ data: hot.getSourceData(), sort: hot.getPlugin("columnSorting").getSortConfig().map((c) => c.column + ":" + c.sortOrder) })
    </script>`
  ),
  "/react-select": page(
    "react-select",
    js("/bundle/react-select.js"),
    `<h1>Order</h1><label for="flavour-input" id="flavour-label">Flavour</label><div id="root" style="width:280px"></div>
    <script>
      const { React, createRoot, Select } = RS
      const options = ["Chocolate", "Strawberry", "Vanilla", "Mint", "Pistachio"].map((label) => ({ value: label.toLowerCase(), label }))
      let picked = []
      const App = () => {
        const [value, setValue] = React.useState([])
        return React.createElement(Select, { inputId: "flavour-input", "aria-labelledby": "flavour-label", isMulti: true, options, value,
          onChange: (next) => { picked = next.map((o) => o.value); setValue(next) } })
      }
      createRoot(document.getElementById("root")).render(React.createElement(App))
      window.benchState = () => ({ values: picked.slice().sort() })
    </script>`
  ),
  "/bootstrap": page(
    "Bootstrap",
    css(`${L}/bootstrap/dist/css/bootstrap.min.css`) + js(`${L}/bootstrap/dist/js/bootstrap.bundle.min.js`),
    `<div class="container py-3"><h1>Account</h1>
      <p>Name: <span id="name">Anonymous</span></p>
      <button type="button" class="btn btn-primary" data-bs-toggle="modal" data-bs-target="#profile">Edit profile</button>
      <div class="dropdown d-inline-block"><button class="btn btn-secondary dropdown-toggle" type="button" data-bs-toggle="dropdown" aria-expanded="false">Actions</button>
        <ul class="dropdown-menu"><li><a class="dropdown-item" href="#" data-action="export">Export</a></li><li><a class="dropdown-item" href="#" data-action="archive">Archive</a></li><li><a class="dropdown-item" href="#" data-action="delete">Delete</a></li></ul></div>
      <div class="modal fade" id="profile" tabindex="-1" aria-labelledby="profile-title" aria-hidden="true"><div class="modal-dialog"><div class="modal-content">
        <div class="modal-header"><h2 class="modal-title fs-5" id="profile-title">Edit profile</h2><button type="button" class="btn-close" data-bs-dismiss="modal" aria-label="Close"></button></div>
        <div class="modal-body"><label for="display" class="form-label">Display name</label><input id="display" class="form-control"></div>
        <div class="modal-footer"><button type="button" class="btn btn-secondary" data-bs-dismiss="modal">Cancel</button><button type="button" class="btn btn-primary" id="save">Save changes</button></div>
      </div></div></div></div>
    <script>
      let saved = null, action = null
      const modal = bootstrap.Modal.getOrCreateInstance(document.getElementById("profile"))
      document.getElementById("save").addEventListener("click", () => { saved = document.getElementById("display").value; document.getElementById("name").textContent = saved; modal.hide() })
      document.querySelector(".dropdown-menu").addEventListener("click", (event) => { const item = event.target.closest("[data-action]"); if (item) { event.preventDefault(); action = item.dataset.action } })
      window.benchState = () => ({ saved, open: modal._isShown, action })
    </script>`
  ),
  "/radix-select": page(
    "Radix Select",
    js("/bundle/radix-select.js"),
    `<h1>Lunch</h1><div id="root"></div>
    <style>.content{background:white;border:1px solid #ccc;padding:4px}.item{padding:4px 8px;cursor:pointer}.item[data-highlighted]{background:#def}</style>
    <script>
      const { React, createRoot, Select } = RX
      const h = React.createElement
      let picked = null
      const fruits = ["Apple", "Banana", "Cherry", "Grape", "Mango"]
      const App = () => h(Select.Root, { onValueChange: (v) => (picked = v) },
        h(Select.Trigger, { "aria-label": "Fruit", style: { width: 200 } }, h(Select.Value, { placeholder: "Pick a fruit" }), h(Select.Icon, null, "▾")),
        h(Select.Portal, null, h(Select.Content, { className: "content", position: "popper", sideOffset: 4 },
          h(Select.Viewport, null, fruits.map((f) => h(Select.Item, { key: f, value: f.toLowerCase(), className: "item" }, h(Select.ItemText, null, f)))))))
      createRoot(document.getElementById("root")).render(h(App))
      window.benchState = () => ({ value: picked })
    </script>`
  ),
  "/mui": page(
    "Material UI",
    js("/bundle/mui.js"),
    `<div id="root" style="padding:24px;width:320px"></div>
    <script>
      const { React, createRoot, M } = MUI
      const h = React.createElement
      let age = null, country = null
      const countries = ${JSON.stringify(COUNTRIES)}
      const App = () => {
        const [value, setValue] = React.useState("")
        return h("div", null, h("h1", null, "Survey"),
          h(M.FormControl, { fullWidth: true, margin: "normal" }, h(M.InputLabel, { id: "age-label" }, "Age"),
            h(M.Select, { labelId: "age-label", label: "Age", value, onChange: (e) => { age = e.target.value; setValue(e.target.value) } },
              h(M.MenuItem, { value: 10 }, "Ten"), h(M.MenuItem, { value: 20 }, "Twenty"), h(M.MenuItem, { value: 30 }, "Thirty"))),
          h(M.Autocomplete, { options: countries, onChange: (e, v) => (country = v), renderInput: (params) => h(M.TextField, { ...params, label: "Country", margin: "normal" }) }))
      }
      createRoot(document.getElementById("root")).render(h(App))
      window.benchState = () => ({ age, country })
    </script>`
  ),
  "/react-datepicker": page(
    "react-datepicker",
    css(`${L}/react-datepicker/dist/react-datepicker.css`) + js("/bundle/react-datepicker.js"),
    `<h1>Task</h1><label for="due">Due date</label><div id="root"></div>
    <script>
      const { React, createRoot, DatePicker } = RD
      const h = React.createElement
      ${`const ymd = (d) => d.getFullYear() + "-" + String(d.getMonth() + 1).padStart(2, "0") + "-" + String(d.getDate()).padStart(2, "0")`}
      let picked = null
      const App = () => {
        const [date, setDate] = React.useState(null)
        return h(DatePicker, { id: "due", selected: date, placeholderText: "Select a date", openToDate: new Date(2025, 2, 1), onChange: (d) => { picked = d && ymd(d); setDate(d) } })
      }
      createRoot(document.getElementById("root")).render(h(App))
      window.benchState = () => ({ date: picked })
    </script>`
  )
}

const TINY = editor("Write your post")

export const widerTasks: ReadonlyArray<Task> = [
  {
    id: "ionic-toggle",
    library: "@ionic/core",
    goal: "turn on Wi-Fi",
    path: "/ionic",
    steps: [{ do: "check", target: { role: ["switch", "checkbox"], name: "Wi-Fi" } }],
    done: (s) => s.main?.wifi === true
  },
  {
    id: "ionic-select",
    library: "@ionic/core",
    goal: "choose 'Large' in the Size select (an alert with radio buttons and OK)",
    path: "/ionic",
    steps: [
      { do: "click", target: { role: ["combobox", "button"], name: "Size" } },
      { do: "click", target: { role: ["radio", "option"], name: "Large" } },
      { do: "click", target: { role: ["button"], name: "OK" } }
    ],
    done: (s) => s.main?.size === "large"
  },
  {
    id: "select2-country",
    library: "select2",
    goal: "choose 'Portugal' in the Country select, searching for it",
    path: "/select2",
    steps: [
      {
        do: "select",
        target: { role: ["combobox"], name: "Country" },
        values: ["Portugal"],
        clicks: [
          { do: "click", target: { role: ["combobox"], name: "Country" } },
          { do: "type", target: { role: ["searchbox", "textbox", "combobox"], name: "" }, text: "Port" },
          { do: "click", target: { role: ["option"], name: "Portugal" } }
        ]
      }
    ],
    done: (s) => s.main?.value === "portugal"
  },
  {
    id: "jquery-ui-autocomplete",
    library: "jquery-ui",
    goal: "on the Skills tab, type 'Jav' in Favourite language and choose JavaScript",
    path: "/jquery-ui",
    steps: [
      { do: "click", target: { role: ["tab"], name: "Skills" } },
      { do: "type", target: { role: ["textbox", "combobox"], name: "Favourite language" }, text: "Jav" },
      { do: "click", target: { role: ["option", "menuitem", "listitem"], name: "JavaScript" } }
    ],
    done: (s) => s.main?.tab === 1 && s.main?.chosen === "JavaScript" && s.main?.value === "JavaScript"
  },
  {
    id: "jstree-select",
    library: "jstree",
    goal: "open the Documents folder and select Report.pdf",
    path: "/jstree",
    steps: [
      { do: "click", target: { role: ["treeitem"], name: "Documents" } },
      { do: "press", key: "ArrowRight" },
      { do: "click", target: { role: ["treeitem"], name: "Report.pdf" } }
    ],
    done: (s) => same(s.main?.selected, ["report"]) && s.main?.open === true
  },
  {
    id: "nouislider-max",
    library: "nouislider",
    goal: "raise the maximum price to 100",
    path: "/nouislider",
    steps: [
      { do: "click", target: { role: ["slider"], name: "Maximum price" } },
      { do: "press", key: "End" }
    ],
    done: (s) => same(s.main?.value, [20, 100])
  },
  {
    id: "tinymce-type",
    library: "tinymce",
    goal: "type 'Hello world' in the editor (inside its iframe)",
    path: "/tinymce",
    steps: [{ do: "type", target: TINY, text: "Hello world" }],
    done: (s) => s.main?.text === "Hello world"
  },
  {
    id: "tinymce-bold",
    library: "tinymce",
    goal: "type 'hello' in the editor and make it bold",
    path: "/tinymce",
    steps: [
      { do: "type", target: TINY, text: "hello" },
      { do: "press", key: "Control+a" },
      { do: "click", target: { role: ["button"], name: "Bold" } }
    ],
    done: (s) => s.main?.html === "<p><strong>hello</strong></p>"
  },
  {
    id: "handsontable-edit",
    library: "handsontable",
    goal: "change Alice's city to Lisbon",
    path: "/handsontable",
    steps: [
      { do: "click", target: { role: ["gridcell", "cell"], name: "Paris", near: "Alice" } },
      { do: "press", key: "Enter" },
      { do: "type", target: { role: ["textbox"], name: "" }, text: "Lisbon", submit: true }
    ],
    done: (s) => s.main?.data?.[0]?.[1] === "Lisbon"
  },
  {
    id: "handsontable-sort",
    library: "handsontable",
    goal: "sort the sheet by Age, ascending",
    path: "/handsontable",
    steps: [{ do: "click", target: { role: ["columnheader"], name: "Age" } }],
    done: (s) => same(s.main?.sort, ["2:asc"])
  },
  {
    id: "bootstrap-modal",
    library: "bootstrap",
    goal: "open 'Edit profile', set the display name to Ada and save",
    path: "/bootstrap",
    steps: [
      { do: "click", target: { role: ["button"], name: "Edit profile" } },
      { do: "type", target: { role: ["textbox"], name: "Display name" }, text: "Ada" },
      { do: "click", target: { role: ["button"], name: "Save changes" } }
    ],
    done: (s) => s.main?.saved === "Ada" && s.main?.open === false
  },
  {
    id: "bootstrap-dropdown",
    library: "bootstrap",
    goal: "choose Archive in the Actions menu",
    path: "/bootstrap",
    steps: [
      { do: "click", target: { role: ["button"], name: "Actions" } },
      { do: "click", target: { role: ["menuitem", "link", "button"], name: "Archive" } }
    ],
    done: (s) => s.main?.action === "archive"
  },
  {
    id: "radix-select",
    library: "@radix-ui/react-select",
    goal: "choose Banana as the fruit",
    path: "/radix-select",
    steps: [
      {
        do: "select",
        target: { role: ["combobox", "button"], name: "Fruit" },
        values: ["Banana"],
        clicks: [
          { do: "click", target: { role: ["combobox", "button"], name: "Fruit" } },
          { do: "click", target: { role: ["option"], name: "Banana" } }
        ]
      }
    ],
    done: (s) => s.main?.value === "banana"
  },
  {
    id: "mui-select",
    library: "@mui/material",
    goal: "choose Twenty as the age",
    path: "/mui",
    steps: [
      {
        do: "select",
        target: { role: ["combobox", "button"], name: "Age" },
        values: ["Twenty"],
        clicks: [
          { do: "click", target: { role: ["combobox", "button"], name: "Age" } },
          { do: "click", target: { role: ["option"], name: "Twenty" } }
        ]
      }
    ],
    done: (s) => s.main?.age === 20
  },
  {
    id: "mui-autocomplete",
    library: "@mui/material",
    goal: "choose Portugal as the country, typing to filter",
    path: "/mui",
    steps: [
      { do: "type", target: { role: ["combobox", "textbox"], name: "Country" }, text: "Por" },
      { do: "click", target: { role: ["option"], name: "Portugal" } }
    ],
    done: (s) => s.main?.country === "Portugal"
  },
  {
    id: "react-datepicker",
    library: "react-datepicker",
    goal: "pick March 14, 2025 as the due date",
    path: "/react-datepicker",
    steps: [
      { do: "click", target: { role: ["textbox"], name: "Due date" } },
      { do: "click", target: { role: any, name: "14" } }
    ],
    done: (s) => s.main?.date === "2025-03-14"
  },
  {
    id: "react-select-multi",
    library: "react-select",
    goal: "choose Mint and Vanilla as flavours",
    path: "/react-select",
    steps: [
      {
        do: "select",
        target: { role: ["combobox", "textbox"], name: "Flavour" },
        values: ["Mint", "Vanilla"],
        clicks: [
          { do: "type", target: { role: ["combobox", "textbox"], name: "Flavour" }, text: "Mi" },
          { do: "click", target: { role: ["option"], name: "Mint" } },
          { do: "type", target: { role: ["combobox", "textbox"], name: "Flavour" }, text: "Van" },
          { do: "click", target: { role: ["option"], name: "Vanilla" } }
        ]
      }
    ],
    done: (s) => same(s.main?.values, ["mint", "vanilla"])
  }
]
