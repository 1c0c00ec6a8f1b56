// Hand-made pages with the DOM patterns of real widget libraries whose names and states the tree must
// give as browsers compute them: a date picker's aria-labelled day cells, a grid with sortable headers
// holding filter inputs, rich-text and code editors, web-component and label-drawn checkboxes and switches.
const doc = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`

const MONTH = "March"
const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

/** A month of day cells in the shape of flatpickr's: inline-block spans named by aria-label, after the weekday names. */
export const datePicker = doc(
  "Date picker",
  `<style>
    .calendar { width: 308px; font: 14px sans-serif }
    .cells { display: flex; flex-wrap: wrap }
    .weekday, .day { display: inline-block; width: 44px; height: 32px; text-align: center; line-height: 32px }
    .weekday { font-weight: bold }
    .day.prev { color: #aaa }
  </style>
  <input class="date-input" readonly placeholder="Pick a date" aria-label="Arrival date" value="">
  <div class="calendar">
    <div class="month"><span class="cur-month">${MONTH}</span> <span class="cur-year">2025</span></div>
    <div class="cells">
      ${WEEKDAYS.map((day) => `<span class="weekday">${day}</span>`).join("")}
      <span class="day prev" aria-label="February 24, 2025" tabindex="-1">24</span>
      <span class="day prev" aria-label="February 25, 2025" tabindex="-1">25</span>
      <span class="day prev" aria-label="February 26, 2025" tabindex="-1">26</span>
      <span class="day prev" aria-label="February 27, 2025" tabindex="-1">27</span>
      <span class="day prev" aria-label="February 28, 2025" tabindex="-1">28</span>
      ${Array.from({ length: 31 }, (_, i) => `<span class="day" aria-label="${MONTH} ${i + 1}, 2025" tabindex="-1"${i === 13 ? ' aria-current="date"' : ""}>${i + 1}</span>`).join("")}
      ${Array.from({ length: 6 }, (_, i) => `<span class="day next" aria-label="April ${i + 1}, 2025" tabindex="-1">${i + 1}</span>`).join("")}
    </div>
  </div>
  <script>
    for (const day of document.querySelectorAll(".day")) {
      day.addEventListener("click", () => { document.querySelector(".date-input").value = day.getAttribute("aria-label") })
    }
  </script>`
)

/** A data grid: headers with a sort state and a filter input each, rows of plain cells, a selected row. */
export const dataGrid = doc(
  "Data grid",
  `<table role="grid" aria-label="People">
    <thead>
      <tr>
        <th aria-sort="ascending"><span class="title">ID</span><div class="filter"><input placeholder="Filter…" aria-label="ID filter"></div></th>
        <th aria-sort="none"><span class="title">Name</span><div class="filter"><input placeholder="Filter…"></div></th>
        <th aria-sort="descending"><span class="title">Age</span></th>
      </tr>
    </thead>
    <tbody>
      <tr><td>1</td><td>Alice</td><td>31</td></tr>
      <tr aria-selected="true"><td>2</td><td>Bob</td><td>27</td></tr>
      <tr><td>3</td><td>Carol</td><td>45</td></tr>
    </tbody>
  </table>`
)

/** Form controls with states: pressed, current, invalid, required, read-only. */
export const formStates = doc(
  "Form states",
  `<nav aria-label="Sections"><a href="#home" aria-current="page">Home</a> <a href="#about">About</a></nav>
  <div role="toolbar" aria-label="Format"><button aria-pressed="true">Bold</button><button aria-pressed="false">Italic</button></div>
  <form aria-label="Sign up">
    <label>Email <input type="email" required aria-invalid="true" value="not-an-email"></label>
    <label>Member since <input readonly value="2021-04-01"></label>
    <label>Nickname <input></label>
    <label>Bio <textarea aria-readonly="true">Fixed bio</textarea></label>
    <label>Country <select required><option>Chile</option><option>Peru</option></select></label>
    <div role="tablist"><button role="tab" aria-selected="true">Profile</button><button role="tab" aria-selected="false">Billing</button></div>
  </form>`
)

/** A rich-text editor (an editing host with a placeholder, as Quill and Tiptap draw it) and a code editor's textbox. */
export const editors = doc(
  "Editors",
  `<style>
    .ql-editor.ql-blank::before { content: attr(data-placeholder); color: #999; position: absolute }
    .ql-editor, .cm-content { min-height: 40px; border: 1px solid #ccc; padding: 4px }
    .ProseMirror p.is-empty::before { content: attr(data-placeholder); color: #999; float: left; height: 0 }
  </style>
  <h2>Comment</h2>
  <div class="ql-container"><div class="ql-editor ql-blank" contenteditable="true" data-placeholder="Compose an epic..."><p><br></p></div></div>
  <div class="tiptap ProseMirror" contenteditable="true" translate="no"><p class="is-empty" data-placeholder="Write something …"><br class="ProseMirror-trailingBreak"></p></div>
  <div contenteditable="true" aria-label="Signature"><p>Kind regards</p></div>
  <div class="cm-editor"><div class="cm-scroller"><div class="cm-gutters" aria-hidden="true"><div>1</div></div>
    <div class="cm-content" role="textbox" aria-multiline="true" aria-label="Query" contenteditable="true" spellcheck="false"><div class="cm-line">SELECT 1</div></div></div></div>
  <div class="native-edit-context" role="textbox" aria-multiline="true" aria-roledescription="editor" tabindex="0" aria-placeholder="Type code here"
    style="width: 300px; height: 18px"></div>
  <pre><code>console.log("a code block")</code></pre>`
)

/**
 * Checkboxes and switches drawn by their components: a web component whose native box is visually hidden
 * in its shadow root (as Shoelace's), one with role="switch" on the hidden box, and light-DOM controls
 * whose box is clipped or hidden behind the label a person clicks.
 */
export const drawnControls = doc(
  "Drawn controls",
  `<style>
    .visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0 }
    .slider { display: inline-block; width: 30px; height: 16px; border-radius: 8px; background: #ccc }
    label { display: inline-flex; gap: 6px; align-items: center; cursor: pointer }
  </style>
  <x-checkbox>Accept terms</x-checkbox>
  <x-switch checked>Notifications</x-switch>
  <label class="toggle"><input type="checkbox" class="visually-hidden" role="switch"><span class="slider"></span> Dark mode</label>
  <input type="checkbox" id="newsletter" hidden checked><label for="newsletter" class="box">Newsletter</label>
  <script>
    const define = (tag, role) => customElements.define(tag, class extends HTMLElement {
      constructor() {
        super()
        const shadow = this.attachShadow({ mode: "open" })
        shadow.innerHTML =
          '<style>label { display: inline-flex; gap: 6px; align-items: center; cursor: pointer } ' +
          'input { position: absolute; opacity: 0; padding: 0; margin: 0; pointer-events: none } ' +
          '.control { display: inline-block; width: 16px; height: 16px; border: 1px solid #333 }</style>' +
          '<label part="base"><input type="checkbox"' + (role ? ' role="' + role + '"' : '') + '><span class="control" part="control"></span><span part="label"><slot></slot></span></label>'
        const input = shadow.querySelector("input")
        input.checked = this.hasAttribute("checked")
        input.addEventListener("change", () => this.toggleAttribute("checked", input.checked))
      }
    })
    define("x-checkbox", null)
    define("x-switch", "switch")
  </script>`
)

/**
 * cmdk's search field (shadcn/ui's command list and combobox): a combobox whose aria-labelledby and
 * label point at an empty label, so nothing names it but its placeholder; beside it a field named by
 * its aria-label that has a placeholder too.
 */
export const unnamedField = doc(
  "Unnamed field",
  `<div role="dialog" aria-label="Command">
    <label id="cmdk-label" for="cmdk-input" style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0,0,0,0)"></label>
    <input id="cmdk-input" role="combobox" aria-autocomplete="list" aria-expanded="true" aria-controls="list"
      aria-labelledby="cmdk-label" placeholder="Search framework..." autocomplete="off">
    <div role="listbox" id="list" aria-label="Suggestions"><div role="option">Next.js</div><div role="option">SvelteKit</div></div>
  </div>
  <input aria-label="Search the docs" placeholder="Type to search">`
)
