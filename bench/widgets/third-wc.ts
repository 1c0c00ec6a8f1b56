// Tasks of bench/widgets on web-component families whose controls live in shadow roots: Vaadin (a combo
// box, a date picker with its scrolling month overlay, a grid with sorters and a selection column, a
// checkbox and a select), SAP UI5 Web Components (a combobox, a multi-combobox, a date picker, a switch)
// and Adobe's Spectrum Web Components (a picker, a switch, a combobox). They ship bare-import ESM, so each
// family is one esbuild bundle of its npm build (corpus.ts builds `wcBundles` once at start). Every page
// reports its state through the components' own properties.
import { js, page } from "./corpus.js"
import { any, COUNTRIES, PEOPLE, same, type Task } from "./tasks.js"

/** Entry sources of the bundles these pages load, by path (corpus.ts bundles them). */
export const wcBundles: Readonly<Record<string, string>> = {
  "/bundle/vaadin.js": `import "@vaadin/combo-box"; import "@vaadin/date-picker"; import "@vaadin/checkbox"; import "@vaadin/select";
    import "@vaadin/grid"; import "@vaadin/grid/vaadin-grid-sort-column.js"; import "@vaadin/grid/vaadin-grid-selection-column.js";`,
  "/bundle/ui5.js": `import "@ui5/webcomponents/dist/ComboBox.js"; import "@ui5/webcomponents/dist/ComboBoxItem.js";
    import "@ui5/webcomponents/dist/MultiComboBox.js"; import "@ui5/webcomponents/dist/MultiComboBoxItem.js";
    import "@ui5/webcomponents/dist/DatePicker.js"; import "@ui5/webcomponents/dist/Switch.js"; import "@ui5/webcomponents/dist/Label.js";
    // Offline: the English CLDR data from the package (its default loader fetches it from a CDN), no web fonts.
    import { registerLocaleDataLoader } from "@ui5/webcomponents-base/dist/asset-registries/LocaleData.js";
    import { setDefaultFontLoading } from "@ui5/webcomponents-base/dist/config/Fonts.js";
    import en from "@ui5/webcomponents-localization/dist/generated/assets/cldr/en.json";
    registerLocaleDataLoader("en", async () => en); setDefaultFontLoading(false);`,
  "/bundle/spectrum.js": `import "@spectrum-web-components/theme/sp-theme.js"; import "@spectrum-web-components/theme/theme-light.js";
    import "@spectrum-web-components/theme/scale-medium.js"; import "@spectrum-web-components/field-label/sp-field-label.js";
    import "@spectrum-web-components/picker/sp-picker.js"; import "@spectrum-web-components/menu/sp-menu-item.js";
    import "@spectrum-web-components/switch/sp-switch.js"; import "@spectrum-web-components/combobox/sp-combobox.js";`
}

const FLAVOURS = ["Chocolate", "Strawberry", "Vanilla", "Mint", "Pistachio"]
const $ = `const $ = (id) => document.getElementById(id)`

export const wcPages: Readonly<Record<string, string>> = {
  "/vaadin-form": page(
    "Vaadin form",
    "",
    // In the body: the components append to document.body as they load.
    `${js("/bundle/vaadin.js")}<h1>Shipping</h1>
    <p><vaadin-combo-box id="country" label="Country" placeholder="Choose a country"></vaadin-combo-box></p>
    <p><vaadin-date-picker id="date" label="Delivery date" initial-position="2025-03-01"></vaadin-date-picker></p>
    <p><vaadin-select id="size" label="Size" placeholder="Choose a size"></vaadin-select></p>
    <p><vaadin-checkbox id="terms" label="I accept the terms"></vaadin-checkbox></p>
    <script>
      ${$}
      $("country").items = ${JSON.stringify(COUNTRIES)}
      $("size").items = [{ label: "Small", value: "small" }, { label: "Medium", value: "medium" }, { label: "Large", value: "large" }]
      window.benchState = () => ({ country: $("country").value || null, date: $("date").value || null, size: $("size").value || null, terms: $("terms").checked })
    </script>`
  ),
  "/vaadin-grid": page(
    "Vaadin Grid",
    "",
    // In the body: the components append to document.body as they load.
    `${js("/bundle/vaadin.js")}<h1>Team</h1>
    <vaadin-grid id="team" aria-label="Team" style="width:560px;height:320px">
      <vaadin-grid-selection-column></vaadin-grid-selection-column>
      <vaadin-grid-sort-column path="name" header="Name"></vaadin-grid-sort-column>
      <vaadin-grid-column path="city" header="City"></vaadin-grid-column>
      <vaadin-grid-sort-column path="age" header="Age"></vaadin-grid-sort-column>
    </vaadin-grid>
    <script>
      ${$}
      const team = ${JSON.stringify(PEOPLE)}
      let sort = null
      // The rows come from a data provider, so the grid's own sort order is what the page reports.
      $("team").dataProvider = (params, callback) => {
        const order = params.sortOrders.find((o) => o.direction)
        sort = order ? order.path + ":" + order.direction : null
        const rows = order ? team.slice().sort((a, b) => (a[order.path] < b[order.path] ? -1 : a[order.path] > b[order.path] ? 1 : 0) * (order.direction === "asc" ? 1 : -1)) : team
        callback(rows.slice(params.page * params.pageSize, (params.page + 1) * params.pageSize), rows.length)
        window.order = rows.map((r) => r.name)
      }
      window.order = team.map((r) => r.name)
      window.benchState = () => ({ sort, order: window.order, selected: $("team").selectedItems.map((r) => r.name).sort() })
    </script>`
  ),
  "/ui5-form": page(
    "UI5 Web Components",
    "",
    // In the body: the components append to document.body as they load.
    `${js("/bundle/ui5.js")}<h1>Order</h1>
    <p><ui5-label for="country" show-colon>Country</ui5-label> <ui5-combobox id="country" placeholder="Choose a country">
      ${COUNTRIES.map((c) => `<ui5-cb-item text="${c}"></ui5-cb-item>`).join("")}</ui5-combobox></p>
    <p><ui5-label for="flavours" show-colon>Flavours</ui5-label> <ui5-multi-combobox id="flavours" placeholder="Choose flavours">
      ${FLAVOURS.map((f) => `<ui5-mcb-item text="${f}"></ui5-mcb-item>`).join("")}</ui5-multi-combobox></p>
    <p><ui5-label for="date" show-colon>Delivery date</ui5-label> <ui5-date-picker id="date" format-pattern="yyyy-MM-dd" min-date="2025-03-01" max-date="2025-03-31"></ui5-date-picker></p>
    <p><ui5-label for="gift" show-colon>Gift wrap</ui5-label> <ui5-switch id="gift" accessible-name="Gift wrap"></ui5-switch></p>
    <script>
      ${$}
      window.benchState = () => ({
        country: $("country").value || null,
        flavours: [...$("flavours").querySelectorAll("ui5-mcb-item")].filter((i) => i.selected).map((i) => i.text).sort(),
        date: $("date").value || null,
        gift: $("gift").checked
      })
    </script>`
  ),
  "/spectrum": page(
    "Spectrum Web Components",
    "",
    // In the body: the components append to document.body as they load.
    `${js("/bundle/spectrum.js")}<sp-theme system="spectrum" color="light" scale="medium" style="display:block;padding:16px">
    <h1>Preferences</h1>
    <p><sp-field-label for="size">Size</sp-field-label>
      <sp-picker id="size" label="Choose a size"><sp-menu-item value="small">Small</sp-menu-item><sp-menu-item value="medium">Medium</sp-menu-item><sp-menu-item value="large">Large</sp-menu-item></sp-picker></p>
    <p><sp-switch id="alerts">Email alerts</sp-switch></p>
    <p><sp-field-label for="country">Country</sp-field-label> <sp-combobox id="country"></sp-combobox></p>
    </sp-theme>
    <script>
      ${$}
      $("country").options = ${JSON.stringify(COUNTRIES.map((c) => ({ value: c, itemText: c })))}
      window.benchState = () => ({ size: $("size").value || null, alerts: $("alerts").checked, country: $("country").value || null })
    </script>`
  )
}

export const wcTasks: ReadonlyArray<Task> = [
  {
    id: "vaadin-combo-box",
    library: "@vaadin/combo-box",
    goal: "choose Portugal as the country, typing to filter",
    path: "/vaadin-form",
    steps: [
      { do: "type", target: { role: ["combobox", "textbox"], name: "Country" }, text: "Por" },
      { do: "click", target: { role: ["option"], name: "Portugal", or: { role: any, name: "Portugal" } } }
    ],
    done: (s) => s.main?.country === "Portugal"
  },
  {
    id: "vaadin-date-picker",
    library: "@vaadin/date-picker",
    goal: "pick March 14, 2025 as the delivery date from the calendar",
    path: "/vaadin-form",
    steps: [
      { do: "click", target: { role: ["combobox", "textbox"], name: "Delivery date" } },
      { do: "click", target: { role: ["gridcell", "button"], name: "14 March 2025", or: { role: any, name: "March 14, 2025" } } }
    ],
    done: (s) => s.main?.date === "2025-03-14"
  },
  {
    id: "vaadin-select-check",
    library: "@vaadin/select",
    goal: "choose 'Large' as the size and accept the terms",
    path: "/vaadin-form",
    steps: [
      {
        do: "select",
        target: { role: ["combobox", "button"], name: "Size" },
        values: ["Large"],
        clicks: [
          { do: "click", target: { role: ["combobox", "button"], name: "Size" } },
          { do: "click", target: { role: ["option"], name: "Large" } }
        ]
      },
      { do: "check", target: { role: ["checkbox"], name: "I accept the terms" } }
    ],
    done: (s) => s.main?.size === "large" && s.main?.terms === true
  },
  {
    id: "vaadin-grid-sort-select",
    library: "@vaadin/grid",
    goal: "sort the team by Age, then select Bob's row",
    path: "/vaadin-grid",
    steps: [
      { do: "click", target: { role: ["columnheader", "button"], name: "Age", or: { role: any, name: "Age" } } },
      { do: "check", target: { role: ["checkbox"], name: "", near: "Bob" } }
    ],
    done: (s) => s.main?.sort === "age:asc" && same(s.main?.order, ["Carol", "Erin", "Alice", "Dave", "Bob", "Frank"]) && same(s.main?.selected, ["Bob"])
  },
  {
    id: "ui5-combobox",
    library: "@ui5/webcomponents",
    goal: "choose Portugal as the country, typing to filter",
    path: "/ui5-form",
    steps: [
      { do: "type", target: { role: ["combobox", "textbox"], name: "Country" }, text: "Por" },
      { do: "click", target: { role: ["option"], name: "Portugal", or: { role: any, name: "Portugal" } } }
    ],
    done: (s) => s.main?.country === "Portugal"
  },
  {
    id: "ui5-multi-combobox",
    library: "@ui5/webcomponents",
    goal: "choose Mint and Vanilla as flavours",
    path: "/ui5-form",
    steps: [
      {
        do: "select",
        target: { role: ["combobox"], name: "Flavours" },
        values: ["Mint", "Vanilla"],
        clicks: [
          { do: "click", target: { role: ["button"], name: "Show", near: "Flavours", or: { role: ["combobox"], name: "Flavours" } } },
          { do: "click", target: { role: ["option", "checkbox"], name: "Mint", or: { role: any, name: "Mint" } } },
          { do: "click", target: { role: ["option", "checkbox"], name: "Vanilla", or: { role: any, name: "Vanilla" } } }
        ]
      }
    ],
    done: (s) => same(s.main?.flavours, ["Mint", "Vanilla"])
  },
  {
    id: "ui5-date-picker",
    library: "@ui5/webcomponents",
    goal: "enter 2025-03-14 as the delivery date",
    path: "/ui5-form",
    steps: [{ do: "type", target: { role: ["textbox", "combobox"], name: "Delivery date" }, text: "2025-03-14", submit: true }],
    done: (s) => s.main?.date === "2025-03-14"
  },
  {
    id: "ui5-switch",
    library: "@ui5/webcomponents",
    goal: "turn on 'Gift wrap'",
    path: "/ui5-form",
    steps: [{ do: "check", target: { role: ["switch", "checkbox"], name: "Gift wrap" } }],
    done: (s) => s.main?.gift === true
  },
  {
    id: "spectrum-picker-switch",
    library: "@spectrum-web-components/picker",
    goal: "choose 'Large' as the size and turn on 'Email alerts'",
    path: "/spectrum",
    steps: [
      {
        do: "select",
        target: { role: ["combobox", "button"], name: "Size" },
        values: ["Large"],
        clicks: [
          { do: "click", target: { role: ["combobox", "button"], name: "Size" } },
          { do: "click", target: { role: ["option", "menuitem"], name: "Large" } }
        ]
      },
      { do: "check", target: { role: ["switch", "checkbox"], name: "Email alerts" } }
    ],
    done: (s) => s.main?.size === "large" && s.main?.alerts === true
  },
  {
    id: "spectrum-combobox",
    library: "@spectrum-web-components/combobox",
    goal: "choose Portugal as the country, typing to filter",
    path: "/spectrum",
    steps: [
      { do: "type", target: { role: ["combobox", "textbox"], name: "Country" }, text: "Por" },
      { do: "click", target: { role: ["option", "menuitem"], name: "Portugal", or: { role: any, name: "Portugal" } } }
    ],
    done: (s) => s.main?.country === "Portugal"
  }
]
