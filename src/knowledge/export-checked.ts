// The Playwright export's set_checked: what mm_set_checked does (session/interactions.ts setChecked), written
// once as a function at the top of a test that checks boxes. Playwright's setChecked waits for the element
// itself to take the pointer, so it times out on a web component's native checkbox, visually hidden under the
// knob its component draws ("intercepts pointer events"), and refuses the component's host ("Not a checkbox or
// radio button"). The function uses it when the control takes the pointer; else it clicks where a person
// would (the control's label, else its component's host), and reads the state back as the session does.

/** The function's name in the exported test. */
export const CHECK_HELPER = "setCheckedAsAPerson"

/** The step's line: check or uncheck `target` (a Playwright locator expression). */
export const checkLine = (target: string, checked: boolean): string => `await ${CHECK_HELPER}(${target}, ${checked})`

/** Whether an exported step's lines check a box (the test then needs the function). */
export const checksIn = (lines: ReadonlyArray<string>): boolean => lines.some((line) => line.startsWith(`await ${CHECK_HELPER}(`))

/** The function, as lines of the exported test. */
export const checkHelperLines: ReadonlyArray<string> = [
  `/**`,
  ` * Checks or unchecks as browser-workflow-mcp's mm_set_checked does: Playwright's setChecked when the control takes`,
  ` * the pointer; else (a web component's native input hidden under its drawn knob, or the component's host) a click`,
  ` * where a person clicks (its label, else the component's host), then its state read back.`,
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
  `  // What a person clicks: the control when the point at its middle is its own, else its label's, else its component's host.`,
  `  const clicked = await target.evaluateHandle((element: Element): Element => {`,
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
  `  })`,
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
