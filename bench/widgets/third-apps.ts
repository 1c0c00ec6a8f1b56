// A fifth family of bench/widgets tasks: what modern apps are assembled from, not in the other families.
// The shadcn/ui stack (Radix checkbox and switch: a button role=checkbox/switch with a hidden native input
// beside it; a Radix popover holding a react-day-picker calendar; cmdk's filtering command list in a
// popover, shadcn's combobox), Element Plus on Vue (a filterable select, a date picker; from its dist
// build), Slate (a contenteditable editor whose toolbar acts on mousedown) and Pikaday (a vanilla date
// picker bound to a text field). React and Slate pages load an esbuild bundle of the npm build (corpus.ts
// builds `appBundles` once at start); Element Plus and Pikaday run from their dist files. Every page
// reports its state through the widget's own callbacks, models or API.
import { css, js, page } from "./corpus.js"
import { any, COUNTRIES, editor, L, same, type Task } from "./tasks.js"

/** Entry sources of the bundles these pages load, by path (corpus.ts bundles them). */
export const appBundles: Readonly<Record<string, string>> = {
  "/bundle/shadcn.js": `import * as React from "react"; import { createRoot } from "react-dom/client";
    import * as Checkbox from "@radix-ui/react-checkbox"; import * as Switch from "@radix-ui/react-switch"; import * as Popover from "@radix-ui/react-popover";
    import * as DropdownMenu from "@radix-ui/react-dropdown-menu"; import * as Dialog from "@radix-ui/react-dialog"; import { DayPicker } from "react-day-picker"; import { Command } from "cmdk";
    window.SC = { React, createRoot, Checkbox, Switch, Popover, DropdownMenu, Dialog, DayPicker, Command };`,
  "/bundle/slate.js": `import * as React from "react"; import { createRoot } from "react-dom/client"; import { createEditor, Editor } from "slate";
    import { Slate, Editable, withReact } from "slate-react"; import { withHistory } from "slate-history";
    window.SL = { React, createRoot, createEditor, Editor, Slate, Editable, withReact, withHistory };`
}

const react = (global: string) => `const { React, createRoot } = ${global}; const h = React.createElement; let state = {};
  window.benchState = () => state; const mount = (App) => createRoot(document.getElementById("root")).render(h(App));`
const ymd = `const ymd = (d) => d ? d.getFullYear() + "-" + String(d.getMonth() + 1).padStart(2, "0") + "-" + String(d.getDate()).padStart(2, "0") : null`
const FRAMEWORKS = [
  ["next", "Next.js"],
  ["sveltekit", "SvelteKit"],
  ["nuxt", "Nuxt.js"],
  ["remix", "Remix"],
  ["astro", "Astro"]
]

export const appPages: Readonly<Record<string, string>> = {
  // shadcn/ui's markup and classes, with a few lines of CSS standing in for its Tailwind ones.
  "/shadcn": page(
    "shadcn/ui",
    css(`${L}/react-day-picker/src/style.css`) +
      `<style>body{font-family:sans-serif}.row{display:flex;align-items:center;gap:8px;margin:12px 0}
        .checkbox{width:16px;height:16px;border:1px solid #333;border-radius:4px;padding:0;background:white}
        .checkbox[data-state=checked]{background:#111;color:white}
        .switch{width:36px;height:20px;border-radius:10px;border:0;background:#ccc;position:relative;padding:0}
        .switch[data-state=checked]{background:#111}.thumb{display:block;width:16px;height:16px;border-radius:8px;background:white;transform:translateX(2px)}
        .switch[data-state=checked] .thumb{transform:translateX(18px)}
        .popover{background:white;border:1px solid #ddd;border-radius:6px;padding:8px;box-shadow:0 4px 12px #0002}
        .trigger{width:240px;text-align:left;padding:6px 10px}
        [cmdk-input]{width:100%;border:0;border-bottom:1px solid #eee;padding:6px;outline:none}
        [cmdk-item]{padding:4px 8px;cursor:default}[cmdk-item][data-selected=true]{background:#eee}
        .item{padding:4px 8px 4px 24px;cursor:default;outline:none}.item[data-highlighted]{background:#eee}
        .overlay{position:fixed;inset:0;background:#0006}.dialog{position:fixed;top:30%;left:30%;background:white;padding:16px;border-radius:8px;width:320px}</style>` +
      js("/bundle/shadcn.js"),
    `<div id="root" style="padding:24px"></div>
    <script>
      ${react("SC")} const { Checkbox, Switch, Popover, DropdownMenu, Dialog, DayPicker, Command } = SC
      ${ymd}
      const frameworks = ${JSON.stringify(FRAMEWORKS)}
      state = { terms: false, airplane: false, date: null, framework: null, statusBar: false, profile: null }
      const set = (patch) => (state = { ...state, ...patch })
      const DateField = () => {
        const [date, setDate] = React.useState(undefined), [open, setOpen] = React.useState(false)
        return h(Popover.Root, { open, onOpenChange: setOpen },
          h(Popover.Trigger, { className: "trigger" }, date ? date.toDateString() : "Pick a date"),
          h(Popover.Portal, null, h(Popover.Content, { className: "popover", align: "start", sideOffset: 4 },
            h(DayPicker, { mode: "single", selected: date, defaultMonth: new Date(2025, 2, 1),
              onSelect: (d) => { set({ date: ymd(d) }); setDate(d); setOpen(false) } }))))
      }
      const FrameworkField = () => {
        const [value, setValue] = React.useState(""), [open, setOpen] = React.useState(false)
        const label = frameworks.find(([v]) => v === value)
        return h(Popover.Root, { open, onOpenChange: setOpen },
          h(Popover.Trigger, { className: "trigger", role: "combobox", "aria-expanded": open }, label ? label[1] : "Select framework..."),
          h(Popover.Portal, null, h(Popover.Content, { className: "popover", align: "start", sideOffset: 4 },
            h(Command, null, h(Command.Input, { placeholder: "Search framework..." }),
              h(Command.List, null, h(Command.Empty, null, "No framework found."),
                h(Command.Group, null, frameworks.map(([v, text]) => h(Command.Item, { key: v, value: v, keywords: [text],
                  onSelect: (current) => { const next = current === value ? "" : current; set({ framework: next || null }); setValue(next); setOpen(false) } }, text))))))))
      }
      const ViewMenu = () => {
        const [statusBar, setStatusBar] = React.useState(false), [panel, setPanel] = React.useState(true)
        return h(DropdownMenu.Root, null, h(DropdownMenu.Trigger, { className: "trigger" }, "View"),
          h(DropdownMenu.Portal, null, h(DropdownMenu.Content, { className: "popover", align: "start" },
            h(DropdownMenu.Label, null, "Appearance"), h(DropdownMenu.Separator),
            h(DropdownMenu.CheckboxItem, { className: "item", checked: statusBar, onCheckedChange: (v) => { set({ statusBar: v }); setStatusBar(v) } }, "Status Bar"),
            h(DropdownMenu.CheckboxItem, { className: "item", checked: panel, onCheckedChange: setPanel }, "Panel"))))
      }
      const ProfileDialog = () => {
        const [open, setOpen] = React.useState(false)
        return h(Dialog.Root, { open, onOpenChange: setOpen }, h(Dialog.Trigger, { className: "trigger" }, "Edit profile"),
          h(Dialog.Portal, null, h(Dialog.Overlay, { className: "overlay" }), h(Dialog.Content, { className: "dialog" },
            h(Dialog.Title, null, "Edit profile"), h(Dialog.Description, null, "Make changes to your profile here. Click save when you're done."),
            h("form", { onSubmit: (event) => { event.preventDefault(); set({ profile: new FormData(event.target).get("name") }); setOpen(false) } },
              h("div", { className: "row" }, h("label", { htmlFor: "name" }, "Name"), h("input", { id: "name", name: "name", defaultValue: "Pedro Duarte" })),
              h("button", { type: "submit" }, "Save changes")))))
      }
      mount(() => h("div", null, h("h1", null, "Settings"),
        h("div", { className: "row" },
          h(Checkbox.Root, { id: "terms", className: "checkbox", onCheckedChange: (v) => set({ terms: v === true }) }, h(Checkbox.Indicator, null, "✓")),
          h("label", { htmlFor: "terms" }, "Accept terms and conditions")),
        h("div", { className: "row" },
          h(Switch.Root, { id: "airplane", className: "switch", onCheckedChange: (v) => set({ airplane: v }) }, h(Switch.Thumb, { className: "thumb" })),
          h("label", { htmlFor: "airplane" }, "Airplane mode")),
        h("div", { className: "row" }, h("span", null, "Date of birth"), h(DateField)),
        h("div", { className: "row" }, h("span", null, "Framework"), h(FrameworkField)),
        h("div", { className: "row" }, h(ViewMenu), h(ProfileDialog))))
    </script>`
  ),
  "/element-plus": page(
    "Element Plus",
    css(`${L}/element-plus/dist/index.css`) + js(`${L}/vue/dist/vue.global.prod.js`) + js(`${L}/element-plus/dist/index.full.min.js`),
    `<div id="app" style="padding:24px;width:320px"></div>
    <script>
      const app = Vue.createApp({
        setup() {
          const country = Vue.ref(""), day = Vue.ref(null), notify = Vue.ref(false), insured = Vue.ref(false), tags = Vue.ref([]), sort = Vue.ref(null)
          const parcels = [{ id: "P-1", city: "Paris", weight: 12 }, { id: "P-2", city: "Berlin", weight: 3 }, { id: "P-3", city: "Rome", weight: 7 }]
          window.benchState = () => ({ country: country.value || null, day: day.value, notify: notify.value, insured: insured.value, tags: tags.value.slice().sort(), sort: sort.value,
            order: [...document.querySelectorAll("#parcels .el-table__body tr")].map((tr) => tr.cells[0].textContent.trim()) })
          const onSort = ({ prop, order }) => (sort.value = order ? prop + ":" + order : null)
          return { country, day, notify, insured, tags, parcels, onSort, labels: ["Fragile", "Heavy", "Perishable", "Urgent"], countries: ${JSON.stringify(COUNTRIES)}, start: new Date(2025, 2, 1) }
        },
        template: \`<h1>Shipment</h1>
          <el-form label-position="top">
            <el-form-item label="Country"><el-select v-model="country" filterable placeholder="Select a country">
              <el-option v-for="c in countries" :key="c" :label="c" :value="c"></el-option></el-select></el-form-item>
            <el-form-item label="Ship date"><el-date-picker v-model="day" type="date" placeholder="Pick a day" value-format="YYYY-MM-DD" :default-value="start"></el-date-picker></el-form-item>
            <el-form-item label="Notify the recipient"><el-switch v-model="notify"></el-switch></el-form-item>
            <el-form-item><el-checkbox v-model="insured">Insure the parcel</el-checkbox></el-form-item>
            <el-form-item label="Labels"><el-select v-model="tags" multiple placeholder="Add labels">
              <el-option v-for="l in labels" :key="l" :label="l" :value="l"></el-option></el-select></el-form-item>
          </el-form>
          <el-table id="parcels" :data="parcels" @sort-change="onSort" style="width:320px">
            <el-table-column prop="id" label="Parcel"></el-table-column><el-table-column prop="city" label="City"></el-table-column>
            <el-table-column prop="weight" label="Weight" sortable></el-table-column>
          </el-table>
          <el-form>
          </el-form>\`
      })
      app.use(ElementPlus).mount("#app")
    </script>`
  ),
  // Slate's rich-text example: marks toggled by a toolbar button on mousedown (which keeps the selection).
  "/slate": page(
    "Slate",
    js("/bundle/slate.js") +
      `<style>.toolbar button{margin-right:4px}.editor{border:1px solid #ccc;min-height:120px;padding:8px;width:480px}.editor p{margin:0}</style>`,
    `<div id="root" style="padding:24px"></div>
    <script>
      ${react("SL")}
      const toggleBold = (editor) => {
        const marks = SL.Editor.marks(editor)
        if (marks && marks.bold) SL.Editor.removeMark(editor, "bold")
        else SL.Editor.addMark(editor, "bold", true)
      }
      const renderLeaf = ({ attributes, children, leaf }) => h("span", attributes, leaf.bold ? h("strong", null, children) : children)
      const renderElement = ({ attributes, children }) => h("p", attributes, children)
      const App = () => {
        const [editor] = React.useState(() => SL.withHistory(SL.withReact(SL.createEditor())))
        window.benchState = () => ({ runs: editor.children.flatMap((block) => block.children).filter((leaf) => leaf.text !== "").map((leaf) => ({ text: leaf.text, bold: leaf.bold === true })) })
        return h("div", null, h("h1", null, "Notes"),
          h("div", { className: "toolbar" }, h("button", { type: "button", "aria-label": "Bold", onMouseDown: (event) => { event.preventDefault(); toggleBold(editor) } }, h("b", null, "B"))),
          h(SL.Slate, { editor, initialValue: [{ type: "paragraph", children: [{ text: "" }] }] },
            h(SL.Editable, { className: "editor", placeholder: "Write something…", renderLeaf, renderElement })))
      }
      mount(App)
    </script>`
  ),
  "/pikaday": page(
    "Pikaday",
    css(`${L}/pikaday/css/pikaday.css`) + js(`${L}/pikaday/pikaday.js`),
    `<h1>Trip</h1>
    <p><label for="departure">Departure</label> <input id="departure" type="text" placeholder="YYYY-MM-DD"></p>
    <script>
      ${ymd}
      const picker = new Pikaday({ field: document.getElementById("departure"), defaultDate: new Date(2025, 2, 1), toString: (d) => ymd(d) })
      window.benchState = () => ({ date: ymd(picker.getDate()), field: document.getElementById("departure").value })
    </script>`
  )
}

export const appTasks: ReadonlyArray<Task> = [
  {
    id: "radix-checkbox",
    library: "@radix-ui/react-checkbox",
    goal: "accept the terms and conditions",
    path: "/shadcn",
    steps: [{ do: "check", target: { role: ["checkbox"], name: "Accept terms and conditions" } }],
    done: (s) => s.main?.terms === true && s.main?.airplane === false
  },
  {
    id: "radix-switch",
    library: "@radix-ui/react-switch",
    goal: "turn airplane mode on",
    path: "/shadcn",
    steps: [{ do: "check", target: { role: ["switch", "checkbox"], name: "Airplane mode" } }],
    done: (s) => s.main?.airplane === true && s.main?.terms === false
  },
  {
    id: "shadcn-date-picker",
    library: "react-day-picker",
    goal: "pick March 14, 2025 as the date of birth from the popover calendar",
    path: "/shadcn",
    steps: [
      { do: "click", target: { role: ["button", "combobox"], name: "Pick a date" } },
      { do: "click", target: { role: ["button", "gridcell"], name: "March 14th, 2025", or: { role: any, name: "14" } } }
    ],
    done: (s) => s.main?.date === "2025-03-14"
  },
  {
    id: "cmdk-combobox",
    library: "cmdk",
    goal: "choose SvelteKit as the framework, searching for it",
    path: "/shadcn",
    steps: [
      { do: "click", target: { role: ["combobox", "button"], name: "Select framework..." } },
      { do: "type", target: { role: ["combobox", "textbox"], name: "Search framework..." }, text: "svel" },
      { do: "click", target: { role: ["option"], name: "SvelteKit" } }
    ],
    done: (s) => s.main?.framework === "sveltekit"
  },
  {
    id: "element-select-filter",
    library: "element-plus",
    goal: "choose Portugal as the country, typing to filter",
    path: "/element-plus",
    steps: [
      { do: "type", target: { role: ["combobox", "textbox"], name: "Country" }, text: "Por" },
      { do: "click", target: { role: ["option"], name: "Portugal", or: { role: any, name: "Portugal" } } }
    ],
    done: (s) => s.main?.country === "Portugal"
  },
  {
    id: "element-date-picker",
    library: "element-plus",
    goal: "pick March 14, 2025 as the ship date",
    path: "/element-plus",
    steps: [
      { do: "click", target: { role: ["textbox", "combobox"], name: "Ship date" } },
      { do: "click", target: { role: ["gridcell", "cell", "button"], name: "14", or: { role: any, name: "14" } } }
    ],
    done: (s) => s.main?.day === "2025-03-14"
  },
  {
    id: "radix-dropdown-checkbox-item",
    library: "@radix-ui/react-dropdown-menu",
    goal: "show the status bar from the View menu",
    path: "/shadcn",
    steps: [
      { do: "click", target: { role: ["button"], name: "View" } },
      { do: "click", target: { role: ["menuitemcheckbox", "menuitem"], name: "Status Bar" } }
    ],
    done: (s) => s.main?.statusBar === true
  },
  {
    id: "radix-dialog-form",
    library: "@radix-ui/react-dialog",
    goal: "rename the profile to Ada Lovelace in the Edit profile dialog and save",
    path: "/shadcn",
    steps: [
      { do: "click", target: { role: ["button"], name: "Edit profile" } },
      { do: "type", target: { role: ["textbox"], name: "Name" }, text: "Ada Lovelace" },
      { do: "click", target: { role: ["button"], name: "Save changes" } }
    ],
    done: (s) => s.main?.profile === "Ada Lovelace"
  },
  {
    id: "element-switch-checkbox",
    library: "element-plus",
    goal: "turn on 'Notify the recipient' and tick 'Insure the parcel'",
    path: "/element-plus",
    steps: [
      { do: "check", target: { role: ["switch", "checkbox"], name: "Notify the recipient" } },
      { do: "check", target: { role: ["checkbox"], name: "Insure the parcel" } }
    ],
    done: (s) => s.main?.notify === true && s.main?.insured === true && s.main?.country === null
  },
  {
    id: "element-select-multiple",
    library: "element-plus",
    goal: "label the parcel Fragile and Urgent",
    path: "/element-plus",
    steps: [
      {
        do: "select",
        target: { role: ["combobox"], name: "Labels" },
        values: ["Fragile", "Urgent"],
        clicks: [
          { do: "click", target: { role: ["combobox"], name: "Labels" } },
          { do: "click", target: { role: ["option"], name: "Fragile", or: { role: any, name: "Fragile" } } },
          { do: "click", target: { role: ["option"], name: "Urgent", or: { role: any, name: "Urgent" } } }
        ]
      }
    ],
    done: (s) => same(s.main?.tags, ["Fragile", "Urgent"])
  },
  {
    id: "element-table-sort",
    library: "element-plus",
    goal: "sort the parcels by weight, lightest first",
    path: "/element-plus",
    steps: [{ do: "click", target: { role: ["columnheader"], name: "Weight" } }],
    done: (s) => s.main?.sort === "weight:ascending" && same(s.main?.order, ["P-2", "P-3", "P-1"])
  },
  {
    id: "slate-bold-word",
    library: "slate-react",
    goal: "type 'Hello world' in the note and make 'world' bold with the toolbar",
    path: "/slate",
    steps: [
      { do: "type", target: editor("Write something…"), text: "Hello world" },
      { do: "press", key: "Control+Shift+ArrowLeft" },
      { do: "click", target: { role: ["button"], name: "Bold" } }
    ],
    done: (s) => same(s.main?.runs, [{ text: "Hello ", bold: false }, { text: "world", bold: true }])
  },
  {
    id: "pikaday-date",
    library: "pikaday",
    goal: "pick March 14, 2025 as the departure",
    path: "/pikaday",
    steps: [
      { do: "click", target: { role: ["textbox"], name: "Departure" } },
      { do: "click", target: { role: ["button", "gridcell"], name: "14" } }
    ],
    done: (s) => s.main?.date === "2025-03-14" && s.main?.field === "2025-03-14"
  }
]
