// More tasks of bench/widgets, on widget libraries of other families and kinds than tasks.ts has: web
// components with lazily loaded parts and overlays (Ionic), jQuery plugins (Select2, jQuery UI, jsTree),
// a range slider (noUiSlider), a rich-text editor inside an iframe (TinyMCE), a spreadsheet grid
// (Handsontable), and a React component (react-select). Each page serves the library's distributed build
// from node_modules (react-select as one esbuild bundle, corpus.ts) and reports its state through the
// widget's own API.
import { css, js, page } from "./corpus.js"
import type { Task, Target } from "./tasks.js"

const L = "/lib"
const JQUERY = js(`${L}/jquery/dist/jquery.min.js`)
const COUNTRIES = ["Austria", "Belgium", "Croatia", "Denmark", "Finland", "France", "Germany", "Greece", "Ireland", "Italy", "Netherlands", "Norway", "Poland", "Portugal", "Spain", "Sweden", "Switzerland"]
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
  )
}

const any = ["*"]
const TINY: Target = { role: ["textbox"], name: "Write your post", or: { role: any, name: "Write your post" } }
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

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
      { do: "click", target: { role: ["combobox"], name: "Country" } },
      { do: "type", target: { role: ["searchbox", "textbox", "combobox"], name: "" }, text: "Port" },
      { do: "click", target: { role: ["option"], name: "Portugal" } }
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
    id: "react-select-multi",
    library: "react-select",
    goal: "choose Mint and Vanilla as flavours",
    path: "/react-select",
    steps: [
      { do: "type", target: { role: ["combobox", "textbox"], name: "Flavour" }, text: "Mi" },
      { do: "click", target: { role: ["option"], name: "Mint" } },
      { do: "type", target: { role: ["combobox", "textbox"], name: "Flavour" }, text: "Van" },
      { do: "click", target: { role: ["option"], name: "Vanilla" } }
    ],
    done: (s) => same(s.main?.values, ["mint", "vanilla"])
  }
]
