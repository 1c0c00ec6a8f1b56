// bench/widgets tasks on IBM's Carbon web components (lit, in shadow roots; an esbuild bundle of the npm
// build that corpus.ts builds once at start): a toggle, a checkbox, a dropdown and a filtering combo box.
// The page reports each component's own properties (`toggled`, `checked`, `value`).
import { js, page } from "./corpus.js"
import { any, COUNTRIES, type Task } from "./tasks.js"

const C = "@carbon/web-components/es/components"

/** Entry sources of the bundles these pages load, by path (corpus.ts bundles them). */
export const carbonBundles: Readonly<Record<string, string>> = {
  "/bundle/carbon.js": ["toggle", "checkbox", "dropdown", "combo-box"].map((name) => `import "${C}/${name}/index.js";`).join(" ")
}

export const carbonPages: Readonly<Record<string, string>> = {
  "/carbon": page(
    "Carbon",
    js("/bundle/carbon.js") + `<style>body{font-family:sans-serif;padding:24px;width:320px}.gap{height:16px}</style>`,
    `<h1>Preferences</h1>
    <cds-toggle id="wifi" label-text="Wi-Fi" label-a="On" label-b="Off"></cds-toggle>
    <div class="gap"></div>
    <cds-checkbox id="terms">I agree to the terms</cds-checkbox>
    <div class="gap"></div>
    <cds-dropdown id="size" title-text="Size" label="Choose a size">
      <cds-dropdown-item value="small">Small</cds-dropdown-item><cds-dropdown-item value="medium">Medium</cds-dropdown-item><cds-dropdown-item value="large">Large</cds-dropdown-item>
    </cds-dropdown>
    <div class="gap"></div>
    <cds-combo-box id="country" title-text="Country" label="Filter countries">
      ${COUNTRIES.map((c) => `<cds-combo-box-item value="${c}">${c}</cds-combo-box-item>`).join("")}
    </cds-combo-box>
    <script>
      const $ = (id) => document.getElementById(id)
      window.benchState = () => ({ wifi: $("wifi").toggled, terms: $("terms").checked, size: $("size").value || null, country: $("country").value || null })
    </script>`
  )
}

export const carbonTasks: ReadonlyArray<Task> = [
  {
    id: "carbon-toggle-checkbox",
    library: "@carbon/web-components",
    goal: "turn Wi-Fi on and agree to the terms",
    path: "/carbon",
    steps: [
      { do: "check", target: { role: ["switch", "checkbox"], name: "Wi-Fi" } },
      { do: "check", target: { role: ["checkbox"], name: "I agree to the terms" } }
    ],
    done: (s) => s.main?.wifi === true && s.main?.terms === true && s.main?.size === null
  },
  {
    id: "carbon-dropdown",
    library: "@carbon/web-components",
    goal: "choose Large as the size",
    path: "/carbon",
    steps: [
      {
        do: "select",
        target: { role: ["combobox", "button"], name: "Size" },
        values: ["Large"],
        clicks: [
          { do: "click", target: { role: ["combobox", "button"], name: "Size" } },
          { do: "click", target: { role: ["option"], name: "Large", or: { role: any, name: "Large" } } }
        ]
      }
    ],
    done: (s) => s.main?.size === "large"
  },
  {
    id: "carbon-combo-box",
    library: "@carbon/web-components",
    goal: "choose Portugal as the country, typing to filter",
    path: "/carbon",
    steps: [
      { do: "type", target: { role: ["combobox", "textbox"], name: "Country" }, text: "Por" },
      { do: "click", target: { role: ["option"], name: "Portugal", or: { role: any, name: "Portugal" } } }
    ],
    done: (s) => s.main?.country === "Portugal"
  }
]
