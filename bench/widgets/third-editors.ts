// Tasks of bench/widgets on editors and a web-component kit that real apps use: Monaco (VS Code's editor,
// from its min/vs AMD build, typing through whatever input Chromium gives it: a textarea or an EditContext),
// TipTap on ProseMirror (an editing host with a toolbar, as an esbuild bundle, corpus.ts), and Fluent UI's
// web components (FAST, form-associated custom elements whose controls live in shadow roots). Each page
// reports its state through the widget's own API.
import { js, page } from "./corpus.js"
import { COUNTRIES, editor, L, same, type Task } from "./tasks.js"

const MONACO = `${L}/monaco-editor/min/vs`
const FLUENT = `<script type="module">
  import { provideFluentDesignSystem, allComponents } from "${L}/@fluentui/web-components/dist/web-components.min.js"
  provideFluentDesignSystem().register(allComponents)
</script>`
const TEAM = [
  { name: "Alice", city: "Paris", age: 31 },
  { name: "Bob", city: "Berlin", age: 42 },
  { name: "Carol", city: "Madrid", age: 27 },
  { name: "Dave", city: "Rome", age: 35 }
]
const SCRIPT = 'def greet(name):\n    return "Hello " + name\n\nprint(greet("world"))\n'

export const editorPages: Readonly<Record<string, string>> = {
  "/monaco": page(
    "Monaco",
    js(`${MONACO}/loader.js`),
    `<h1>Script</h1><div id="code" style="width:640px;height:240px;border:1px solid #ccc"></div>
    <script>
      let ed = null
      require.config({ paths: { vs: "${MONACO}" } })
      require(["vs/editor/editor.main"], () => {
        ed = monaco.editor.create(document.getElementById("code"), { value: ${JSON.stringify(SCRIPT)}, language: "python", minimap: { enabled: false } })
      })
      window.benchState = () => (ed ? { value: ed.getValue() } : null)
    </script>`
  ),
  "/tiptap": page(
    "TipTap",
    js("/bundle/tiptap.js"),
    `<h1>Notes</h1>
    <style>.toolbar button{margin-right:4px}.tiptap{border:1px solid #ccc;min-height:120px;padding:8px;width:480px}
      .tiptap p.is-editor-empty:first-child::before{content:attr(data-placeholder);float:left;color:#adb5bd;pointer-events:none;height:0}</style>
    <div class="toolbar"><button type="button" id="bold" aria-label="Bold"><b>B</b></button><button type="button" id="list" aria-label="Bullet list">• —</button></div>
    <div id="editor"></div>
    <script>
      const { Editor, StarterKit, Placeholder } = TT
      const editor = new Editor({ element: document.getElementById("editor"), extensions: [StarterKit, Placeholder.configure({ placeholder: "Write something…" })] })
      document.getElementById("bold").addEventListener("click", () => editor.chain().focus().toggleBold().run())
      document.getElementById("list").addEventListener("click", () => editor.chain().focus().toggleBulletList().run())
      window.benchState = () => ({ html: editor.getHTML(), text: editor.getText() })
    </script>`
  ),
  "/fluent": page(
    "Fluent UI",
    FLUENT,
    `<h1>Account settings</h1>
    <p><fluent-text-field id="full-name">Full name</fluent-text-field></p>
    <p><fluent-checkbox id="news">Subscribe to the newsletter</fluent-checkbox></p>
    <p><fluent-switch id="dark">Dark mode</fluent-switch></p>
    <fluent-radio-group id="plan" name="plan"><label slot="label">Plan</label>
      <fluent-radio value="free">Free</fluent-radio><fluent-radio value="pro">Pro</fluent-radio><fluent-radio value="team">Team</fluent-radio></fluent-radio-group>
    <p><label id="size-label">Size</label> <fluent-select id="size" aria-labelledby="size-label">
      <fluent-option value="small">Small</fluent-option><fluent-option value="medium">Medium</fluent-option><fluent-option value="large">Large</fluent-option>
    </fluent-select></p>
    <p><label for="country">Country</label> <fluent-combobox id="country" autocomplete="both" placeholder="Choose a country">
      ${COUNTRIES.map((c) => `<fluent-option>${c}</fluent-option>`).join("")}
    </fluent-combobox></p>
    <p><fluent-button id="delete" appearance="accent">Delete account</fluent-button> <span id="status">Active</span></p>
    <fluent-dialog id="confirm" hidden modal trap-focus aria-labelledby="confirm-title">
      <div style="padding:16px"><h2 id="confirm-title">Delete your account?</h2><p>This cannot be undone.</p>
      <fluent-button id="cancel">Cancel</fluent-button> <fluent-button id="yes" appearance="accent">Delete</fluent-button></div>
    </fluent-dialog>
    <h2>Team</h2><fluent-data-grid id="team" aria-label="Team" generate-header="default"></fluent-data-grid>
    <script>
      const $ = (id) => document.getElementById(id)
      let deleted = false, sort = null
      $("delete").addEventListener("click", () => ($("confirm").hidden = false))
      $("cancel").addEventListener("click", () => ($("confirm").hidden = true))
      $("yes").addEventListener("click", () => { deleted = true; $("status").textContent = "Deleted"; $("confirm").hidden = true })
      const team = ${JSON.stringify(TEAM)}
      const grid = $("team")
      grid.columnDefinitions = [{ columnDataKey: "name", title: "Name" }, { columnDataKey: "city", title: "City" }, { columnDataKey: "age", title: "Age" }]
      grid.rowsData = team
      // The app sorts when a column header is clicked (the grid leaves sorting to it), ascending first.
      grid.addEventListener("click", (event) => {
        const header = event.target.closest && event.target.closest("[cell-type='columnheader']")
        const key = header && header.columnDefinition && header.columnDefinition.columnDataKey
        if (!key) return
        const dir = sort && sort.key === key && sort.dir === "ascending" ? "descending" : "ascending"
        sort = { key, dir }
        grid.rowsData = team.slice().sort((a, b) => (a[key] < b[key] ? -1 : a[key] > b[key] ? 1 : 0) * (dir === "ascending" ? 1 : -1))
        grid.querySelectorAll("[cell-type='columnheader']").forEach((cell) => cell.removeAttribute("aria-sort"))
        header.setAttribute("aria-sort", dir)
      })
      window.benchState = () => ({
        name: $("full-name").value, news: $("news").checked, dark: $("dark").checked, plan: $("plan").value || null,
        size: $("size").value, country: $("country").value, deleted, dialogOpen: !$("confirm").hidden,
        sort: sort && sort.key + ":" + sort.dir, first: grid.rowsData[0] && grid.rowsData[0].name
      })
    </script>`
  )
}

/** The bundle of the editors that ship only bare-import ESM (TipTap), by path, for corpus.ts to build. */
export const editorBundles: Readonly<Record<string, string>> = {
  "/bundle/tiptap.js": `import { Editor } from "@tiptap/core"; import StarterKit from "@tiptap/starter-kit"; import { Placeholder } from "@tiptap/extensions"; window.TT = { Editor, StarterKit, Placeholder };`
}

const MONACO_EDITOR = { role: ["textbox"], name: "Editor content" }
const NOTE = editor("Write something…")

export const editorTasks: ReadonlyArray<Task> = [
  {
    id: "monaco-type",
    library: "monaco-editor",
    goal: "replace the code with 'print(42)'",
    path: "/monaco",
    steps: [{ do: "type", target: MONACO_EDITOR, text: "print(42)" }],
    done: (s) => s.main?.value === "print(42)"
  },
  {
    id: "monaco-replace-all",
    library: "monaco-editor",
    goal: "with the editor's find and replace (Ctrl+H), rename greet to welcome everywhere",
    path: "/monaco",
    steps: [
      { do: "click", target: MONACO_EDITOR },
      { do: "press", key: "Control+h" },
      { do: "type", target: { role: ["textbox"], name: "Find" }, text: "greet" },
      { do: "type", target: { role: ["textbox"], name: "Replace" }, text: "welcome" },
      { do: "click", target: { role: ["button"], name: "Replace All" } }
    ],
    done: (s) => s.main?.value === SCRIPT.replaceAll("greet", "welcome")
  },
  {
    id: "tiptap-bold-word",
    library: "@tiptap/core",
    goal: "type 'Hello world' in the note and make 'world' bold with the toolbar",
    path: "/tiptap",
    steps: [
      { do: "type", target: NOTE, text: "Hello world" },
      { do: "press", key: "Control+Shift+ArrowLeft" },
      { do: "click", target: { role: ["button"], name: "Bold" } }
    ],
    done: (s) => s.main?.html === "<p>Hello <strong>world</strong></p>"
  },
  {
    id: "tiptap-list",
    library: "@tiptap/core",
    goal: "type 'Milk' in the note and make it a bullet list",
    path: "/tiptap",
    steps: [
      { do: "type", target: NOTE, text: "Milk" },
      { do: "click", target: { role: ["button"], name: "Bullet list" } }
    ],
    // TipTap keeps an empty paragraph after a list that ends the document (its TrailingNode).
    done: (s) => s.main?.html?.replace(/<p><\/p>$/, "") === "<ul><li><p>Milk</p></li></ul>"
  },
  {
    id: "fluent-checkbox-switch",
    library: "@fluentui/web-components",
    goal: "subscribe to the newsletter and turn on Dark mode",
    path: "/fluent",
    steps: [
      { do: "check", target: { role: ["checkbox"], name: "Subscribe to the newsletter" } },
      { do: "check", target: { role: ["switch", "checkbox"], name: "Dark mode" } }
    ],
    done: (s) => s.main?.news === true && s.main?.dark === true
  },
  {
    id: "fluent-name-plan",
    library: "@fluentui/web-components",
    goal: "type 'Ada Lovelace' as the full name and pick the Pro plan",
    path: "/fluent",
    steps: [
      { do: "type", target: { role: ["textbox"], name: "Full name" }, text: "Ada Lovelace" },
      { do: "click", target: { role: ["radio"], name: "Pro" } }
    ],
    done: (s) => s.main?.name === "Ada Lovelace" && s.main?.plan === "pro"
  },
  {
    id: "fluent-select",
    library: "@fluentui/web-components",
    goal: "choose Large as the size",
    path: "/fluent",
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
    id: "fluent-combobox",
    library: "@fluentui/web-components",
    goal: "choose Portugal as the country, typing to filter",
    path: "/fluent",
    steps: [
      { do: "type", target: { role: ["combobox", "textbox"], name: "Country", or: { role: ["combobox", "textbox"], name: "Choose a country" } }, text: "Por" },
      { do: "click", target: { role: ["option"], name: "Portugal" } }
    ],
    done: (s) => s.main?.country === "Portugal"
  },
  {
    id: "fluent-dialog",
    library: "@fluentui/web-components",
    goal: "delete the account, confirming in the dialog",
    path: "/fluent",
    steps: [
      { do: "click", target: { role: ["button"], name: "Delete account" } },
      { do: "click", target: { role: ["button"], name: "Delete" } }
    ],
    done: (s) => s.main?.deleted === true && s.main?.dialogOpen === false
  },
  {
    id: "fluent-grid-sort",
    library: "@fluentui/web-components",
    goal: "sort the Team grid by Age",
    path: "/fluent",
    steps: [{ do: "click", target: { role: ["columnheader"], name: "Age" } }],
    done: (s) => s.main?.sort === "age:ascending" && same(s.main?.first, "Carol")
  }
]
