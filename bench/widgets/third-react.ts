// A third family of bench/widgets tasks: React component kits that real apps are built on, each as
// an esbuild bundle of its npm build (corpus.ts builds `reactBundles` once at start): Ant Design (CSS in
// JS, virtual option lists, a table with sorters, filter dropdowns and pagination, a form in a modal),
// React Aria Components (Adobe's ARIA-exact widgets: a combobox, a date field of spinbutton segments, a
// sortable table) and Headless UI (a listbox anchored to its button). Every page reports its state
// through the widget's own callbacks.
import { js, page } from "./corpus.js"
import { any, COUNTRIES, same, type Task } from "./tasks.js"

/** Entry sources of the bundles these pages load, by path (corpus.ts bundles them). */
export const reactBundles: Readonly<Record<string, string>> = {
  "/bundle/antd.js": `import * as React from "react"; import { createRoot } from "react-dom/client"; import dayjs from "dayjs";
    import { Button, DatePicker, Form, Input, Modal, Select, Switch, Table } from "antd";
    window.AD = { React, createRoot, dayjs, A: { Button, DatePicker, Form, Input, Modal, Select, Switch, Table } };`,
  "/bundle/react-aria.js": `import * as React from "react"; import { createRoot } from "react-dom/client"; import * as R from "react-aria-components";
    import { CalendarDate } from "@internationalized/date"; window.RA = { React, createRoot, R, CalendarDate };`,
  "/bundle/headlessui.js": `import * as React from "react"; import { createRoot } from "react-dom/client"; import * as H from "@headlessui/react";
    window.HU = { React, createRoot, H };`
}

const PEOPLE = [
  ["Alice", "Paris", 31],
  ["Bob", "Berlin", 42],
  ["Carol", "Madrid", 27],
  ["Dave", "Rome", 35],
  ["Erin", "Berlin", 29],
  ["Frank", "Oslo", 51],
  ["Grace", "Paris", 38],
  ["Heidi", "Madrid", 24],
  ["Ivan", "Oslo", 46],
  ["Judy", "Rome", 33],
  ["Mallory", "Berlin", 40],
  ["Olivia", "Paris", 22]
]
const FLAVOURS = ["Chocolate", "Strawberry", "Vanilla", "Mint", "Pistachio"]
const ymd = `const ymd = (d) => d ? d.format("YYYY-MM-DD") : null`
const react = (global: string) => `const { React, createRoot } = ${global}; const h = React.createElement; let state = {};
  window.benchState = () => state; const mount = (App) => createRoot(document.getElementById("root")).render(h(App));`

export const reactPages: Readonly<Record<string, string>> = {
  "/antd-select": page(
    "Ant Design Select",
    js("/bundle/antd.js"),
    `<div id="root" style="padding:24px;width:360px"></div>
    <script>
      ${react("AD")} const { A } = AD
      const options = (list) => list.map((label) => ({ value: label, label }))
      state = { country: null, flavours: [] }
      mount(() => h(A.Form, { layout: "vertical" }, h("h1", null, "Order"),
        h(A.Form.Item, { label: "Country", name: "country" },
          h(A.Select, { showSearch: true, placeholder: "Choose a country", options: options(${JSON.stringify(COUNTRIES)}), onChange: (v) => (state = { ...state, country: v }) })),
        h(A.Form.Item, { label: "Flavours", name: "flavours" },
          h(A.Select, { mode: "multiple", placeholder: "Choose flavours", options: options(${JSON.stringify(FLAVOURS)}), onChange: (v) => (state = { ...state, flavours: v.slice().sort() }) }))))
    </script>`
  ),
  "/antd-dates": page(
    "Ant Design RangePicker",
    js("/bundle/antd.js"),
    `<div id="root" style="padding:24px;width:420px"></div>
    <script>
      ${react("AD")} const { A, dayjs } = AD
      ${ymd}
      state = { dates: null }
      mount(() => h(A.Form, { layout: "vertical" }, h("h1", null, "Your stay"),
        h(A.Form.Item, { label: "Nights", name: "stay" },
          h(A.DatePicker.RangePicker, { defaultPickerValue: [dayjs("2025-03-01"), dayjs("2025-04-01")], onChange: (v) => (state = { dates: v ? v.map(ymd) : null }) }))))
    </script>`
  ),
  "/antd-table": page(
    "Ant Design Table",
    js("/bundle/antd.js"),
    `<div id="root" style="padding:24px;width:560px"></div>
    <script>
      ${react("AD")} const { A } = AD
      const data = ${JSON.stringify(PEOPLE)}.map(([name, city, age]) => ({ key: name, name, city, age }))
      const cities = [...new Set(data.map((p) => p.city))].sort()
      state = { page: 1, cities: null, sort: null, shown: data.slice(0, 5).map((p) => p.name) }
      const columns = [
        { title: "Name", dataIndex: "name" },
        { title: "City", dataIndex: "city", filters: cities.map((c) => ({ text: c, value: c })), onFilter: (value, row) => row.city === value },
        { title: "Age", dataIndex: "age", sorter: (a, b) => a.age - b.age }
      ]
      mount(() => h("div", null, h("h1", null, "Team"), h(A.Table, { columns, dataSource: data, pagination: { pageSize: 5 },
        onChange: (pagination, filters, sorter, extra) => {
          const rows = extra.currentDataSource
          state = { page: pagination.current, cities: filters.city ?? null, sort: sorter.order ? sorter.field + ":" + sorter.order : null,
            shown: rows.slice((pagination.current - 1) * 5, pagination.current * 5).map((p) => p.name) }
        } })))
    </script>`
  ),
  "/antd-form": page(
    "Ant Design Form",
    js("/bundle/antd.js"),
    `<div id="root" style="padding:24px"></div>
    <script>
      ${react("AD")} const { A } = AD
      state = { open: false, failed: 0, saved: null }
      const App = () => {
        const [open, setOpen] = React.useState(false)
        const [form] = A.Form.useForm()
        const show = (next) => { state = { ...state, open: next }; setOpen(next) }
        return h("div", null, h("h1", null, "Users"), h(A.Button, { type: "primary", onClick: () => show(true) }, "New user"),
          h(A.Modal, { title: "New user", open, okText: "Create", onOk: () => form.submit(), onCancel: () => show(false) },
            h(A.Form, { form, layout: "vertical", name: "user",
              onFinish: (values) => { state = { ...state, saved: values }; show(false) },
              onFinishFailed: () => (state = { ...state, failed: state.failed + 1 }) },
              h(A.Form.Item, { label: "Username", name: "username", rules: [{ required: true, message: "Please enter a username" }] }, h(A.Input)),
              h(A.Form.Item, { label: "Email", name: "email", rules: [{ required: true, message: "Please enter an email" }, { type: "email", message: "That is not an email" }] }, h(A.Input)),
              h(A.Form.Item, { label: "Newsletter", name: "newsletter", valuePropName: "checked", initialValue: false }, h(A.Switch)))))
      }
      mount(App)
    </script>`
  ),
  "/rac-combobox": page(
    "React Aria ComboBox",
    js("/bundle/react-aria.js") +
      `<style>.popover{background:white;border:1px solid #ccc;min-width:200px;max-height:240px;overflow:auto}.item{padding:4px 8px}.item[data-focused]{background:#def}</style>`,
    `<div id="root" style="padding:24px"></div>
    <script>
      ${react("RA")} const { R } = RA
      state = { country: null }
      mount(() => h("div", null, h("h1", null, "Shipping"),
        h(R.ComboBox, { onSelectionChange: (key) => (state = { country: key }) },
          h(R.Label, null, "Country"), h("div", null, h(R.Input), h(R.Button, null, "▾")),
          h(R.Popover, { className: "popover" }, h(R.ListBox, null,
            ${JSON.stringify(COUNTRIES)}.map((c) => h(R.ListBoxItem, { key: c, id: c, className: "item" }, c)))))))
    </script>`
  ),
  "/rac-date": page(
    "React Aria DatePicker",
    js("/bundle/react-aria.js") +
      `<style>.group{display:inline-flex;gap:4px;border:1px solid #999;padding:4px}.segments{display:flex}.popover{background:white;border:1px solid #ccc;padding:8px}</style>`,
    `<div id="root" style="padding:24px"></div>
    <script>
      ${react("RA")} const { R } = RA
      state = { date: null }
      mount(() => h("div", null, h("h1", null, "Task"),
        h(R.DatePicker, { onChange: (d) => (state = { date: d ? d.toString() : null }) },
          h(R.Label, null, "Due date"),
          h(R.Group, { className: "group" }, h(R.DateInput, { className: "segments" }, (segment) => h(R.DateSegment, { segment })), h(R.Button, null, "▾")),
          h(R.Popover, { className: "popover" }, h(R.Dialog, null, h(R.Calendar, null,
            h("header", null, h(R.Button, { slot: "previous" }, "◀"), h(R.Heading), h(R.Button, { slot: "next" }, "▶")),
            h(R.CalendarGrid, null, (date) => h(R.CalendarCell, { date }))))))))
    </script>`
  ),
  "/rac-table": page(
    "React Aria Table",
    js("/bundle/react-aria.js") + `<style>th,td{padding:4px 12px;text-align:left}</style>`,
    `<div id="root" style="padding:24px"></div>
    <script>
      ${react("RA")} const { R } = RA
      const rows = ${JSON.stringify(PEOPLE.slice(0, 6))}.map(([name, city, age]) => ({ id: name, name, city, age }))
      state = { sort: null, order: rows.map((r) => r.name) }
      const App = () => {
        const [sort, setSort] = React.useState(undefined)
        const sorted = sort ? rows.slice().sort((a, b) => (a[sort.column] < b[sort.column] ? -1 : a[sort.column] > b[sort.column] ? 1 : 0) * (sort.direction === "descending" ? -1 : 1)) : rows
        state = { sort: sort ? sort.column + ":" + sort.direction : null, order: sorted.map((r) => r.name) }
        return h("div", null, h("h1", null, "Team"),
          h(R.Table, { "aria-label": "Team", sortDescriptor: sort, onSortChange: setSort },
            h(R.TableHeader, null,
              h(R.Column, { id: "name", isRowHeader: true, allowsSorting: true }, "Name"),
              h(R.Column, { id: "city" }, "City"),
              h(R.Column, { id: "age", allowsSorting: true }, "Age")),
            h(R.TableBody, { items: sorted }, (row) => h(R.Row, { id: row.id }, h(R.Cell, null, row.name), h(R.Cell, null, row.city), h(R.Cell, null, String(row.age))))))
      }
      mount(App)
    </script>`
  ),
  "/headless-listbox": page(
    "Headless UI Listbox",
    js("/bundle/headlessui.js") +
      `<style>.options{background:white;border:1px solid #ccc;width:220px;list-style:none;margin:0;padding:4px}.option{padding:4px 8px;cursor:default}.option[data-focus]{background:#def}.button{width:220px;text-align:left}</style>`,
    `<div id="root" style="padding:24px"></div>
    <script>
      ${react("HU")} const { H } = HU
      const people = ["Durward Reynolds", "Kenton Towne", "Therese Wunsch", "Benedict Kessler", "Katelyn Rohan"]
      state = { assignee: null }
      const App = () => {
        const [value, setValue] = React.useState(null)
        return h("div", null, h("h1", null, "Issue"),
          h(H.Field, null, h(H.Label, null, "Assignee"),
            h(H.Listbox, { value, onChange: (v) => { state = { assignee: v }; setValue(v) } },
              h(H.ListboxButton, { className: "button" }, value ?? "Nobody"),
              h(H.ListboxOptions, { anchor: "bottom start", className: "options" },
                people.map((p) => h(H.ListboxOption, { key: p, value: p, className: "option" }, p))))))
      }
      mount(App)
    </script>`
  )
}

export const reactTasks: ReadonlyArray<Task> = [
  {
    id: "antd-select-search",
    library: "antd",
    goal: "choose Portugal as the country, typing to search",
    path: "/antd-select",
    steps: [
      { do: "type", target: { role: ["combobox", "textbox"], name: "Country" }, text: "Por" },
      { do: "click", target: { role: ["option"], name: "Portugal", or: { role: any, name: "Portugal" } } }
    ],
    done: (s) => s.main?.country === "Portugal"
  },
  {
    id: "antd-select-multi",
    library: "antd",
    goal: "choose Mint and Vanilla as flavours",
    path: "/antd-select",
    steps: [
      {
        do: "select",
        target: { role: ["combobox"], name: "Flavours" },
        values: ["Mint", "Vanilla"],
        clicks: [
          { do: "click", target: { role: ["combobox"], name: "Flavours" } },
          { do: "click", target: { role: ["option"], name: "Mint", or: { role: any, name: "Mint" } } },
          { do: "click", target: { role: ["option"], name: "Vanilla", or: { role: any, name: "Vanilla" } } }
        ]
      }
    ],
    done: (s) => same(s.main?.flavours, ["Mint", "Vanilla"])
  },
  {
    id: "antd-range-picker",
    library: "antd",
    // After the first date the panels show the next two months (April, May): April 14 is the first "14".
    goal: "pick March 10 to April 14, 2025 as the nights",
    path: "/antd-dates",
    steps: [
      { do: "click", target: { role: ["textbox", "combobox"], name: "Nights" } },
      { do: "click", target: { role: any, name: "10" } },
      { do: "click", target: { role: any, name: "14" } }
    ],
    done: (s) => same(s.main?.dates, ["2025-03-10", "2025-04-14"])
  },
  {
    id: "antd-table-filter",
    library: "antd",
    goal: "show only the people in Berlin, through the City column's filter",
    path: "/antd-table",
    steps: [
      { do: "click", target: { role: ["button"], name: "filter", near: "City" } },
      { do: "click", target: { role: ["menuitem", "checkbox"], name: "Berlin" } },
      { do: "click", target: { role: ["button"], name: "OK" } }
    ],
    done: (s) => same(s.main?.cities, ["Berlin"]) && same(s.main?.shown, ["Bob", "Erin", "Mallory"])
  },
  {
    id: "antd-table-sort-page",
    library: "antd",
    goal: "sort the table by Age, then go to page 2",
    path: "/antd-table",
    steps: [
      { do: "click", target: { role: ["columnheader"], name: "Age" } },
      { do: "click", target: { role: ["listitem", "link", "button"], name: "2" } }
    ],
    done: (s) => s.main?.sort === "age:ascend" && s.main?.page === 2 && same(s.main?.shown, ["Judy", "Dave", "Grace", "Mallory", "Bob"])
  },
  {
    id: "antd-modal-form",
    library: "antd",
    goal: "open 'New user', submit it empty, read the validation message, fill it in with the newsletter on and create",
    path: "/antd-form",
    steps: [
      { do: "click", target: { role: ["button"], name: "New user" } },
      { do: "click", target: { role: ["button"], name: "Create" } },
      { do: "see", target: { role: any, name: "Please enter a username" } },
      { do: "type", target: { role: ["textbox"], name: "Username" }, text: "ada" },
      { do: "type", target: { role: ["textbox"], name: "Email" }, text: "ada@example.com" },
      { do: "check", target: { role: ["switch", "checkbox"], name: "Newsletter" } },
      { do: "click", target: { role: ["button"], name: "Create" } }
    ],
    done: (s) => s.main?.failed >= 1 && s.main?.open === false && same(s.main?.saved, { username: "ada", email: "ada@example.com", newsletter: true })
  },
  {
    id: "rac-combobox",
    library: "react-aria-components",
    goal: "choose Portugal as the country, typing to filter",
    path: "/rac-combobox",
    steps: [
      { do: "type", target: { role: ["combobox", "textbox"], name: "Country" }, text: "Por" },
      { do: "click", target: { role: ["option"], name: "Portugal" } }
    ],
    done: (s) => s.main?.country === "Portugal"
  },
  {
    id: "rac-date-field",
    library: "react-aria-components",
    goal: "type 03/14/2025 into the Due date field's segments",
    path: "/rac-date",
    steps: [{ do: "type", target: { role: ["spinbutton"], name: "month" }, text: "03142025" }],
    done: (s) => s.main?.date === "2025-03-14"
  },
  {
    id: "rac-table-sort",
    library: "react-aria-components",
    goal: "sort the team by Age, ascending",
    path: "/rac-table",
    steps: [{ do: "click", target: { role: ["columnheader"], name: "Age" } }],
    done: (s) => s.main?.sort === "age:ascending" && same(s.main?.order, ["Carol", "Erin", "Alice", "Dave", "Bob", "Frank"])
  },
  {
    id: "headless-listbox",
    library: "@headlessui/react",
    goal: "choose Therese Wunsch as the assignee",
    path: "/headless-listbox",
    steps: [
      {
        do: "select",
        target: { role: ["combobox", "button"], name: "Assignee" },
        values: ["Therese Wunsch"],
        clicks: [
          { do: "click", target: { role: ["combobox", "button"], name: "Assignee" } },
          { do: "click", target: { role: ["option"], name: "Therese Wunsch" } }
        ]
      }
    ],
    done: (s) => s.main?.assignee === "Therese Wunsch"
  }
]
