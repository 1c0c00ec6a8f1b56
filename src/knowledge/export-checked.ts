// The Playwright export's set_checked, and its click on a checkbox, radio or switch: what the session does
// (session/interactions.ts setChecked, and its click through the element a person clicks), written once as
// functions at the top of a test that needs them. Playwright's setChecked and click wait for the element
// itself to take the pointer, so they time out on a web component's native checkbox, visually hidden under
// the knob its component draws ("intercepts pointer events"), and setChecked refuses the component's host
// ("Not a checkbox or radio button"). These act on the control when it takes the pointer; else they click
// where a person would (the control's label, else its component's host); a check reads the state back.

import type { TestHelper } from "./export-helpers.js"

/** The functions' names in the exported test. */
const WHERE = "whereAPersonClicks"
export const CHECK_HELPER = "setCheckedAsAPerson"
export const CLICK_HELPER = "clickAsAPerson"

/** The roles of a control a click toggles: its click is exported through CLICK_HELPER. */
export const TOGGLE_ROLES: ReadonlySet<string> = new Set(["checkbox", "radio", "switch"])

/** The step's line: check or uncheck `target` (a Playwright locator expression). */
export const checkLine = (target: string, checked: boolean): string => `await ${CHECK_HELPER}(${target}, ${checked})`

/** The step's line: click a checkbox, radio or switch `target` where a person clicks it. */
export const toggleClickLine = (target: string): string => `await ${CLICK_HELPER}(${target})`

const whereLines: ReadonlyArray<string> = [
  `/** Where a person clicks a checkbox, radio or switch: the control when the point at its middle is its own, else its label, else its component's host. */`,
  `const ${WHERE} = (target: Locator) =>`,
  `  target.evaluateHandle((element: Element): Element => {`,
  `    const takes = (node: Element): boolean => {`,
  `      node.scrollIntoView({ block: "center", inline: "center" })`,
  `      const box = node.getBoundingClientRect()`,
  `      if (box.width < 4 || box.height < 4) return false`,
  `      const x = box.x + box.width / 2`,
  `      const y = box.y + box.height / 2`,
  `      let hit = node.ownerDocument.elementFromPoint(x, y)`,
  `      while (hit?.shadowRoot) {`,
  `        const deeper = hit.shadowRoot.elementFromPoint(x, y)`,
  `        if (deeper === null || deeper === hit) break`,
  `        hit = deeper`,
  `      }`,
  `      for (let at: Node | null = hit; at !== null; at = at.parentNode ?? (at instanceof ShadowRoot ? at.host : null)) if (at === node) return true`,
  `      return false`,
  `    }`,
  `    if (takes(element)) return element`,
  `    const label = element instanceof HTMLInputElement ? [...(element.labels ?? [])].find(takes) : undefined`,
  `    if (label !== undefined) return label`,
  `    const root = element.getRootNode()`,
  `    return root instanceof ShadowRoot ? root.host : element`,
  `  })`
]

const checkLines: ReadonlyArray<string> = [
  `/**`,
  ` * Checks or unchecks as browser-workflow-mcp's mm_set_checked does: Playwright's setChecked when the control takes`,
  ` * the pointer; else (a web component's native input hidden under its drawn knob, or the component's host) a click`,
  ` * where a person clicks, then its state read back.`,
  ` */`,
  `const ${CHECK_HELPER} = async (target: Locator, checked: boolean) => {`,
  `  // The state: the control's own (checked, aria-checked), its label's control's, the host's \`checked\`, or the one checkbox in its shadow root.`,
  `  const state = () =>`,
  `    target.evaluate((element: Element): boolean | null => {`,
  `      const of = (node: Element): boolean | null => {`,
  `        if (node instanceof HTMLInputElement && (node.type === "checkbox" || node.type === "radio")) return node.checked`,
  `        const aria = node.getAttribute("aria-checked")`,
  `        return aria === "true" || aria === "mixed" ? true : aria === "false" ? false : null`,
  `      }`,
  `      const own = of(element)`,
  `      if (own !== null) return own`,
  `      const control = element instanceof HTMLLabelElement ? element.control : element.closest("label")?.control`,
  `      const viaLabel = control ? of(control) : null`,
  `      if (viaLabel !== null) return viaLabel`,
  `      if (typeof (element as { checked?: unknown }).checked === "boolean") return (element as { checked: boolean }).checked`,
  `      const inner = element.shadowRoot?.querySelectorAll("input[type=checkbox], input[type=radio], [role=checkbox], [role=switch], [role=radio]")`,
  `      return inner !== undefined && inner.length === 1 ? of(inner[0]!) : null`,
  `    })`,
  `  if ((await state()) === checked) return`,
  `  const clicked = await ${WHERE}(target)`,
  `  // Playwright's setChecked takes a checkbox or radio input, or an element with such a role.`,
  `  const roles = ["checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"]`,
  `  const own = await target.evaluate(`,
  `    (element, [node, roles]) => node === element && (element instanceof HTMLInputElement || roles.includes(element.getAttribute("role") ?? "")),`,
  `    [clicked, roles] as const`,
  `  )`,
  `  if (own) await target.setChecked(checked)`,
  `  else await clicked.asElement()!.click()`,
  `  await expect.poll(state).toBe(checked)`,
  `}`
]

const clickLines: ReadonlyArray<string> = [
  `/** Clicks a checkbox, radio or switch as browser-workflow-mcp's mm_click does: where a person clicks it. */`,
  `const ${CLICK_HELPER} = async (target: Locator) => (await ${WHERE}(target)).asElement()!.click()`
]

const where: TestHelper = { name: WHERE, lines: whereLines, types: ["Locator"] }

/** The functions a test that checks, or clicks a toggle, declares (with the one both call). */
export const checkHelpers: ReadonlyArray<TestHelper> = [
  where,
  { name: CHECK_HELPER, lines: checkLines, types: ["Locator"], uses: [where] },
  { name: CLICK_HELPER, lines: clickLines, types: ["Locator"], uses: [where] }
]
