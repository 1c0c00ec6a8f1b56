// Hand-written pages with the widget patterns of issue 19 (each a small copy of what a real library
// does, no library code), for the real-Chromium tests of widget-actions and widget-names. Serve them
// with `serveCorpus(widgetPages)` (test/page/corpus.ts) or `pageServer(widgetPages)`. Every page
// defines `window.widgetState()`, the widget's own state as JSON (read it with page.evaluate, never
// from our answers), which is what a test checks after an action.
//
// Page (path)                 pattern -> the right behaviour
// /wc-checkbox                web-component checkbox (<x-checkbox>) and switch (<x-switch>), each a
//                             visually hidden native input inside a shadow root (the checkbox clipped
//                             to 1px, the switch opacity 0 + pointer-events none, as Shoelace does)
//                             behind a drawn control -> the snapshot gives each control one ref
//                             (checkbox "Subscribe to the newsletter", switch "Email alerts"); one
//                             click or set_checked on it checks it (state: subscribe/alerts true),
//                             within about a second, and reports success only then.
// /readonly-field             a read-only date field (flatpickr's readonly input) -> type fails within
//                             about a second saying the field is read-only / not editable (not "hidden,
//                             disabled, covered or moving"); its state stays "" (value unchanged).
// /day-cells                  a calendar whose day cells are spans with aria-label="March 14, 2025"
//                             (flatpickr's markup) -> each day is findable by its full name (find
//                             {name: "March 14, 2025"} finds one), a run of days collapses only if
//                             find can still match each; clicking it selects it (state.selected
//                             "2025-03-14").
// /debounced-combobox         a combobox that filters its listbox 300 ms after the last key -> the
//                             answer to type "Port" already shows the filtered options (option
//                             "Portugal", no "Spain"); clicking "Portugal" sets state.value.
// /focus-combobox             a combobox that lists every option when it gets the focus and filters
//                             300 ms after the last key (Tom Select) -> the answer to type "Port"
//                             shows the filtered options (option "Portugal", no "Spain"), not the
//                             list the focus opened.
// /keyup-filter               a table filter that listens to keyup only (not input) -> after type
//                             "Bob" the table shows Bob's row only (state.visible ["Bob"]).
// /header-filter              column headers that hold a filter input, one with aria-sort; a click on
//                             a header's title sorts (aria-sort changes, rows reorder) -> headers are
//                             named by their text (columnheader "ID", "Name", "Email"), the sort
//                             state shows (aria-sort ascending/descending), find {role: "row", text:
//                             "Bob"} answers the row's cells with their text.
// /contenteditable-editor     a rich-text editor: a contenteditable div with a placeholder drawn by
//                             CSS from data-placeholder (Quill's markup), and a Bold button (aria-
//                             pressed) -> the editor is an editable textbox named by its placeholder
//                             ("Compose an epic..."), type "hello" into it works (state.text "hello").
// /code-editor                a code editor whose input is a div role="textbox" aria-label="Code" that
//                             takes keystrokes (keydown), not contenteditable -> it is in the page
//                             text as textbox "Code"; type "let x = 1" into it works (state.text).
// /late-switch                a switch (role=switch) that sets aria-checked two frames after the click
//                             -> set_checked / click answers success (it waits the frame or two), never
//                             MM_SET_CHECKED_FAILED while the switch is then checked (state.on true).
// /reorder-and-marks          a list whose items move in the DOM (a button moves Item 3 to the top, as
//                             SortableJS moves the element) and day cells chosen by a class only
//                             ("-selected-") -> the answer to the action shows the list in its new
//                             order and the chosen day as [selected] (state.order, state.selected);
//                             Save logs an error 50 ms after the click, changing nothing -> the
//                             click's own answer carries the error.
// /covered-select             a select-like button (<x-select>, role=combobox "Size") covered by the
//                             component's own drawn control (an overlay span inside the same shadow
//                             root that takes the click) -> a click on the combobox's ref acts through
//                             the overlay and opens the listbox within about a second (state.open);
//                             clicking option "Large" sets state.value "large".
const doc = (title: string, body: string, head = "") =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`

/** Publishes the widget state reader the tests call with page.evaluate. */
const state = (body: string) => `<script>window.widgetState = () => (${body})</script>`

const wcCheckbox = doc(
  "Web-component checkbox and switch",
  `<h1>Preferences</h1>
  <x-checkbox id="subscribe">Subscribe to the newsletter</x-checkbox>
  <x-switch id="alerts">Email alerts</x-switch>
  <script>
    const STYLE = '<style>label{display:inline-flex;align-items:center;gap:8px;cursor:pointer;padding:4px;font:16px sans-serif}' +
      '.control{display:inline-block;width:18px;height:18px;border:2px solid #555;border-radius:3px;background:#fff}' +
      ':host([checked]) .control{background:#0a6ed1;border-color:#0a6ed1}' +
      '.track{display:inline-block;width:36px;height:20px;border-radius:10px;background:#bbb;position:relative}' +
      '.track::after{content:"";position:absolute;left:2px;top:2px;width:16px;height:16px;border-radius:50%;background:#fff;transition:left .1s}' +
      ':host([checked]) .track{background:#0a6ed1} :host([checked]) .track::after{left:18px}' +
      '.clipped{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap;border:0}' +
      '.faded{position:absolute;opacity:0;padding:0;margin:0;pointer-events:none}</style>'
    class Toggle extends HTMLElement {
      connectedCallback() {
        if (this.shadowRoot) return
        const root = this.attachShadow({ mode: "open" })
        const sw = this.kind === "switch"
        root.innerHTML = STYLE + '<label part="base"><input type="checkbox"' + (sw ? ' role="switch" class="faded"' : ' class="clipped"') +
          '><span class="' + (sw ? 'track' : 'control') + '" part="control"></span><span part="label"><slot></slot></span></label>'
        this.input = root.querySelector("input")
        this.input.addEventListener("change", () => this.toggleAttribute("checked", this.input.checked))
      }
      get checked() { return this.input ? this.input.checked : false }
    }
    customElements.define("x-checkbox", class extends Toggle { get kind() { return "checkbox" } })
    customElements.define("x-switch", class extends Toggle { get kind() { return "switch" } })
  </script>
  ${state(`{ subscribe: document.getElementById("subscribe").checked, alerts: document.getElementById("alerts").checked }`)}`
)

const readonlyField = doc(
  "Read-only date field",
  `<h1>Book a flight</h1>
  <label for="departure">Departure date</label>
  <input id="departure" readonly placeholder="Select a date" style="cursor:pointer">
  <p>Pick the date in the calendar that opens on a click.</p>
  ${state(`{ value: document.getElementById("departure").value }`)}`
)

const dayCells = (() => {
  const month = "March"
  const days: Array<string> = []
  // flatpickr pads with the previous and next month's days (other aria-labels), 7 per week.
  for (const d of [24, 25, 26, 27, 28]) days.push(`<span class="day prev" aria-label="February ${d}, 2025" tabindex="-1">${d}</span>`)
  for (let d = 1; d <= 31; d++) days.push(`<span class="day" aria-label="${month} ${d}, 2025" tabindex="-1" data-date="2025-03-${String(d).padStart(2, "0")}">${d}</span>`)
  for (const d of [1, 2, 3, 4, 5, 6]) days.push(`<span class="day next" aria-label="April ${d}, 2025" tabindex="-1">${d}</span>`)
  return doc(
    "Calendar day cells",
    `<style>.cal{display:inline-block;font:14px sans-serif}.week,.days{display:grid;grid-template-columns:repeat(7,36px)}
      .day{cursor:pointer;text-align:center;line-height:32px}.day.prev,.day.next{color:#aaa}.day.selected{background:#0a6ed1;color:#fff}</style>
    <h1>Pick a date</h1>
    <div class="cal"><div class="month"><span class="cur-month">March</span> <span class="cur-year">2025</span></div>
      <div class="week">${["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].map((d) => `<span class="weekday">${d}</span>`).join("")}</div>
      <div class="days">${days.join("")}</div></div>
    <script>
      let selected = ""
      document.querySelector(".days").addEventListener("click", (event) => {
        const day = event.target.closest(".day[data-date]")
        if (!day) return
        document.querySelectorAll(".day.selected").forEach((d) => d.classList.remove("selected"))
        day.classList.add("selected")
        selected = day.dataset.date
      })
    </script>
    ${state(`{ selected }`)}`
  )
})()

const COUNTRIES = ["Austria", "Belgium", "France", "Germany", "Italy", "Poland", "Portugal", "Spain", "Sweden", "Switzerland"]

const debouncedCombobox = doc(
  "Debounced combobox",
  `<style>ul{list-style:none;padding:0;margin:0;border:1px solid #ccc;width:220px}li{padding:4px;cursor:pointer}</style>
  <h1>Shipping</h1>
  <label for="country">Country</label>
  <input id="country" role="combobox" aria-autocomplete="list" aria-expanded="true" aria-controls="countries" autocomplete="off">
  <ul id="countries" role="listbox" aria-label="Countries"></ul>
  <script>
    const all = ${JSON.stringify(COUNTRIES)}
    const input = document.getElementById("country")
    const list = document.getElementById("countries")
    let value = ""
    const render = (query) => {
      list.innerHTML = all.filter((c) => c.toLowerCase().includes(query.toLowerCase()))
        .map((c) => '<li role="option" aria-selected="' + (c === value) + '">' + c + '</li>').join("")
    }
    render("")
    let timer
    input.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(() => render(input.value), 300) })
    list.addEventListener("click", (event) => {
      const option = event.target.closest("[role=option]")
      if (!option) return
      value = option.textContent
      input.value = value
      render(value)
    })
  </script>
  ${state(`{ value }`)}`
)

/**
 * A combobox that fills its listbox with every option when it gets the focus and filters it 300 ms
 * after the last key (Tom Select's refreshThrottle): the page changes at the focus, before any key.
 */
const focusCombobox = doc(
  "Combobox that opens on focus",
  `<style>#countries{list-style:none;padding:0;margin:0;border:1px solid #ccc;width:220px}#countries li{padding:4px;cursor:pointer}</style>
  <h1>Shipping</h1>
  <label for="country">Country</label>
  <div class="wrapper"><input id="country" role="combobox" aria-haspopup="listbox" aria-expanded="false" aria-controls="countries" autocomplete="off"></div>
  <ul id="countries" role="listbox" aria-label="Countries" hidden></ul>
  <script>
    const all = ${JSON.stringify(COUNTRIES)}
    const input = document.getElementById("country")
    const list = document.getElementById("countries")
    let value = ""
    const render = (query) => {
      list.innerHTML = all.filter((c) => c.toLowerCase().includes(query.toLowerCase()))
        .map((c) => '<li role="option" aria-selected="' + (c === value) + '">' + c + '</li>').join("")
    }
    input.addEventListener("focus", () => {
      render("")
      list.hidden = false
      input.setAttribute("aria-expanded", "true")
      input.parentElement.classList.add("focus", "dropdown-active")
    })
    let timer
    input.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(() => render(input.value), 300) })
    list.addEventListener("click", (event) => {
      const option = event.target.closest("[role=option]")
      if (!option) return
      value = option.textContent
      input.value = value
      list.hidden = true
      input.setAttribute("aria-expanded", "false")
    })
  </script>
  ${state(`{ value }`)}`
)

const PEOPLE = [
  { id: 1, name: "Alice", email: "alice@example.test" },
  { id: 2, name: "Bob", email: "bob@example.test" },
  { id: 3, name: "Carol", email: "carol@example.test" },
  { id: 4, name: "Dave", email: "dave@example.test" },
  { id: 5, name: "Eve", email: "eve@example.test" }
]

const keyupFilter = doc(
  "Keyup filter",
  `<h1>People</h1>
  <input id="filter" placeholder="Filter by name" aria-label="Filter by name">
  <table><thead><tr><th>ID</th><th>Name</th></tr></thead><tbody id="rows"></tbody></table>
  <script>
    const people = ${JSON.stringify(PEOPLE)}
    const rows = document.getElementById("rows")
    let visible = []
    const render = (query) => {
      const shown = people.filter((p) => p.name.toLowerCase().includes(query.toLowerCase()))
      visible = shown.map((p) => p.name)
      rows.innerHTML = shown.map((p) => '<tr><td>' + p.id + '</td><td>' + p.name + '</td></tr>').join("")
    }
    render("")
    // Only keyup, as some grids' header filters do: setting the value or an input event alone filters nothing.
    document.getElementById("filter").addEventListener("keyup", (event) => render(event.target.value))
  </script>
  ${state(`{ visible }`)}`
)

const headerFilter = doc(
  "Header with filter inputs",
  `<style>th{text-align:left;padding:4px}th .title{cursor:pointer;user-select:none}th input{display:block;width:90px}</style>
  <h1>Team</h1>
  <table id="grid"><thead><tr>
    <th data-key="id" aria-sort="ascending"><div class="title">ID</div><input type="text" placeholder="Filter"></th>
    <th data-key="name" aria-sort="none"><div class="title">Name</div><input type="text" placeholder="Filter"></th>
    <th data-key="email" aria-sort="none"><div class="title">Email</div><input type="text" placeholder="Filter"></th>
  </tr></thead><tbody id="rows"></tbody></table>
  <script>
    const people = ${JSON.stringify(PEOPLE)}
    const rows = document.getElementById("rows")
    const headers = [...document.querySelectorAll("th")]
    let sort = { key: "id", direction: "ascending" }
    const filters = { id: "", name: "", email: "" }
    let visible = []
    const render = () => {
      const shown = people.filter((p) => Object.entries(filters).every(([k, f]) => String(p[k]).toLowerCase().includes(f.toLowerCase())))
      const sign = sort.direction === "ascending" ? 1 : -1
      shown.sort((a, b) => (a[sort.key] < b[sort.key] ? -sign : a[sort.key] > b[sort.key] ? sign : 0))
      visible = shown.map((p) => p.name)
      rows.innerHTML = shown.map((p) => '<tr><td>' + p.id + '</td><td>' + p.name + '</td><td>' + p.email + '</td></tr>').join("")
      for (const th of headers) th.setAttribute("aria-sort", th.dataset.key === sort.key ? sort.direction : "none")
    }
    render()
    for (const th of headers) {
      th.querySelector(".title").addEventListener("click", () => {
        const key = th.dataset.key
        sort = { key, direction: sort.key === key && sort.direction === "ascending" ? "descending" : "ascending" }
        render()
      })
      th.querySelector("input").addEventListener("input", (event) => { filters[th.dataset.key] = event.target.value; render() })
    }
  </script>
  ${state(`{ sort, filters, visible }`)}`
)

const contenteditableEditor = doc(
  "Contenteditable editor",
  `<style>.editor{border:1px solid #ccc;min-height:80px;padding:8px;font:15px sans-serif}
    .ql-blank::before{content:attr(data-placeholder);color:#999;font-style:italic;position:absolute;pointer-events:none}
    .toolbar button{width:28px;height:24px}.toolbar button[aria-pressed=true]{background:#cde}</style>
  <h1>New post</h1>
  <div class="toolbar"><button type="button" class="ql-bold" aria-label="Bold" aria-pressed="false"><b>B</b></button></div>
  <div class="editor"><div class="ql-editor ql-blank" contenteditable="true" data-placeholder="Compose an epic..."></div></div>
  <script>
    const editor = document.querySelector(".ql-editor")
    const bold = document.querySelector(".ql-bold")
    const blank = () => editor.classList.toggle("ql-blank", editor.textContent.length === 0)
    editor.addEventListener("input", blank)
    bold.addEventListener("mousedown", (event) => event.preventDefault())
    bold.addEventListener("click", () => {
      editor.focus()
      document.execCommand("bold")
      bold.setAttribute("aria-pressed", String(document.queryCommandState("bold")))
    })
  </script>
  ${state(`{ text: editor.textContent, bold: [...editor.querySelectorAll("b, strong")].map((b) => b.textContent).join("") }`)}`
)

const codeEditor = doc(
  "Code editor",
  `<style>.code{font:14px monospace;border:1px solid #ccc;min-height:60px;padding:6px;white-space:pre;outline:none}
    .code:focus{border-color:#0a6ed1}</style>
  <h1>Script</h1>
  <div class="code" id="code" role="textbox" aria-label="Code" aria-multiline="true" tabindex="0"></div>
  <script>
    // The editor keeps its own text and draws it; it takes keystrokes, not DOM edits (not contenteditable).
    const view = document.getElementById("code")
    let text = ""
    const draw = () => { view.innerHTML = text.split("\\n").map((line) => '<div class="line">' + (line.replace(/&/g, "&amp;").replace(/</g, "&lt;") || "<br>") + '</div>').join("") }
    draw()
    view.addEventListener("keydown", (event) => {
      if (event.ctrlKey || event.metaKey || event.altKey) {
        if ((event.ctrlKey || event.metaKey) && event.key === "a") { event.preventDefault(); view.dataset.all = "1" }
        return
      }
      if (view.dataset.all === "1" && (event.key.length === 1 || event.key === "Backspace" || event.key === "Delete")) { text = ""; delete view.dataset.all }
      if (event.key.length === 1) text += event.key
      else if (event.key === "Enter") text += "\\n"
      else if (event.key === "Backspace") text = text.slice(0, -1)
      else return
      event.preventDefault()
      draw()
    })
  </script>
  ${state(`{ text }`)}`
)

const lateSwitch = doc(
  "Late switch",
  `<style>.sw{display:inline-flex;gap:8px;align-items:center;border:0;background:none;font:16px sans-serif;cursor:pointer}
    .knob{width:36px;height:20px;border-radius:10px;background:#bbb}.sw[aria-checked=true] .knob{background:#0a6ed1}</style>
  <h1>Display</h1>
  <button type="button" class="sw" id="dark" role="switch" aria-checked="false"><span class="knob"></span>Dark mode</button>
  <script>
    const sw = document.getElementById("dark")
    let on = false
    // The component's state follows the click two animation frames later, as frameworks that batch updates do.
    sw.addEventListener("click", () => requestAnimationFrame(() => requestAnimationFrame(() => {
      on = !on
      sw.setAttribute("aria-checked", String(on))
    })))
  </script>
  ${state(`{ on }`)}`
)

/**
 * Element Plus's switch: a visually hidden checkbox input (role=switch) inside a wrapper that cancels the
 * click (preventDefault) and turns its model, class and aria-checked on a microtask later (Vue's nextTick),
 * its label outside. A click through the label reaches the input, whose property the browser undoes as the
 * click was cancelled: the property says off, the component says on. Beside it a switch the page refuses,
 * adding a comment (Vue's v-if placeholder) and a message.
 */
const cancelledSwitch = doc(
  "Cancelled switch",
  `<style>.switch{display:inline-flex;position:relative;cursor:pointer}.switch input{position:absolute;width:0;height:0;opacity:0;margin:0}
    .core{display:inline-block;width:40px;height:20px;border-radius:10px;background:#bbb}.switch.on .core{background:#409eff}</style>
  <h1>Shipment</h1>
  <p><label for="notify">Notify the recipient</label>
    <span class="switch" id="notify-wrap"><input type="checkbox" role="switch" id="notify" aria-checked="false"><span class="core"></span></span></p>
  <p><label for="locked">Express delivery</label>
    <span class="switch" id="locked-wrap"><input type="checkbox" role="switch" id="locked" aria-checked="false"><span class="core"></span></span></p>
  <p id="note"></p>
  <script>
    let notify = false, refused = 0
    const wrap = document.getElementById("notify-wrap"), input = document.getElementById("notify")
    wrap.addEventListener("click", (event) => {
      event.preventDefault()
      notify = !notify
      Promise.resolve().then(() => {
        input.checked = notify
        input.setAttribute("aria-checked", String(notify))
        wrap.classList.toggle("on", notify)
      })
    })
    document.getElementById("locked-wrap").addEventListener("click", (event) => {
      event.preventDefault()
      refused++
      document.getElementById("locked-wrap").appendChild(document.createComment("v-if"))
      document.getElementById("note").textContent = "Express delivery is not available for this parcel"
    })
  </script>
  ${state(`{ notify, refused }`)}`
)

const coveredSelect = doc(
  "Covered select",
  `<h1>Order</h1>
  <x-select id="size" label="Size"></x-select>
  <script>
    customElements.define("x-select", class extends HTMLElement {
      connectedCallback() {
        if (this.shadowRoot) return
        this.value = ""
        this.open = false
        const root = this.attachShadow({ mode: "open" })
        root.innerHTML = '<style>.box{position:relative;display:inline-block;font:15px sans-serif}' +
          '.trigger{width:180px;height:32px;text-align:left}' +
          '.drawn{position:absolute;inset:0;display:flex;align-items:center;padding:0 8px;background:#fff;border:1px solid #888;border-radius:4px;cursor:pointer}' +
          '[role=listbox]{border:1px solid #888;margin:2px 0 0;padding:0;list-style:none;width:180px}[role=listbox][hidden]{display:none}' +
          '[role=option]{padding:4px 8px;cursor:pointer}</style>' +
          '<label id="label">' + this.getAttribute("label") + '</label><div class="box">' +
          '<button class="trigger" role="combobox" aria-labelledby="label" aria-haspopup="listbox" aria-expanded="false" aria-controls="list"></button>' +
          '<span class="drawn" aria-hidden="true">Choose a size ▾</span></div>' +
          '<ul id="list" role="listbox" aria-labelledby="label" hidden>' +
          ['Small', 'Medium', 'Large'].map((s) => '<li role="option" data-value="' + s.toLowerCase() + '">' + s + '</li>').join('') + '</ul>'
        const trigger = root.querySelector(".trigger")
        const list = root.querySelector("[role=listbox]")
        const drawn = root.querySelector(".drawn")
        const show = (open) => { this.open = open; list.hidden = !open; trigger.setAttribute("aria-expanded", String(open)) }
        // The drawn control lies over the button and takes the pointer; the component opens from either.
        drawn.addEventListener("click", () => show(!this.open))
        trigger.addEventListener("click", () => show(!this.open))
        list.addEventListener("click", (event) => {
          const option = event.target.closest("[role=option]")
          if (!option) return
          this.value = option.dataset.value
          drawn.textContent = option.textContent + " ▾"
          show(false)
        })
      }
    })
  </script>
  ${state(`{ open: document.getElementById("size").open, value: document.getElementById("size").value }`)}`
)

/**
 * A sortable list whose items move in the DOM (SortableJS moves the element itself: same elements, new
 * order; a button does it here) and a day grid whose chosen day is a class only (Air Datepicker's
 * `-selected-`, no ARIA state).
 */
const reorderAndMarks = doc(
  "Reorder and class marks",
  `<style>.day{display:inline-block;width:28px;cursor:pointer}.day.-selected-{background:#36f;color:#fff}</style>
  <h1>Plan</h1>
  <ul id="tasks">${["Item 1", "Item 2", "Item 3", "Item 4", "Item 5"].map((item) => `<li>${item}</li>`).join("")}</ul>
  <button id="move" onclick="const list = document.getElementById('tasks'); list.prepend(list.children[2])">Move Item 3 to the top</button>
  <button id="save" onclick="setTimeout(() => console.error('Saving failed: the server said no'), 50)">Save</button>
  <div id="days">${Array.from({ length: 14 }, (_, i) => `<div class="day -day-">${i + 1}</div>`).join("")}</div>
  <script>
    document.getElementById("days").addEventListener("click", (event) => {
      const day = event.target.closest(".day")
      if (!day) return
      for (const other of document.querySelectorAll(".day")) other.classList.remove("-selected-")
      day.classList.add("-selected-")
    })
  </script>
  ${state(`{ order: Array.from(document.querySelectorAll("#tasks li"), (li) => li.textContent), selected: document.querySelector(".-selected-")?.textContent ?? null }`)}`
)

/** The pages by path, for serveCorpus / pageServer. */
export const widgetPages: Readonly<Record<string, string>> = {
  "/wc-checkbox": wcCheckbox,
  "/readonly-field": readonlyField,
  "/day-cells": dayCells,
  "/debounced-combobox": debouncedCombobox,
  "/focus-combobox": focusCombobox,
  "/keyup-filter": keyupFilter,
  "/header-filter": headerFilter,
  "/contenteditable-editor": contenteditableEditor,
  "/code-editor": codeEditor,
  "/late-switch": lateSwitch,
  "/cancelled-switch": cancelledSwitch,
  "/covered-select": coveredSelect,
  "/reorder-and-marks": reorderAndMarks
}

/** The expression a test evaluates in the page for the widget's own state (JSON). */
export const WIDGET_STATE = "window.widgetState()"
