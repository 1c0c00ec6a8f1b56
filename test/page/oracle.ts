// Playwright as the oracle for names and roles: each node of our walk must be found by
// getByRole(role, {name, exact: true}) (with its states), and Playwright's ariaSnapshot gives the size to compare.
import * as fs from "node:fs"
import { chromium, type Browser, type Page } from "playwright"
import { EXECUTABLE_CANDIDATES, LOOPBACK_ARGS } from "../../src/adapters/playwright/lifecycle/launch.js"
import { observeExpression, type ObserveArgs, type ObserveResult } from "../../src/adapters/playwright/page-script.js"
import type { A11yNode } from "../../src/domain/observation.js"

export const launchChromium = (): Promise<Browser> => {
  const executablePath = EXECUTABLE_CANDIDATES.find((candidate) => fs.existsSync(candidate))
  return chromium.launch({ headless: true, args: [...LOOPBACK_ARGS], ...(executablePath ? { executablePath } : {}) })
}

export const walkArgs = (overrides: Partial<ObserveArgs> = {}): ObserveArgs => ({
  nextRef: 1,
  // A block without end: these walks are alone in the page (the server's blocks: lifecycle/ref-space.ts).
  refEnd: Number.MAX_SAFE_INTEGER,
  testIdAttribute: "data-testid",
  testIdLimit: 0,
  a11yLimit: 5_000,
  rootSelector: null,
  screenRules: [],
  wantTestIds: false,
  wantA11y: true,
  changesOnly: false,
  ...overrides
})

let nextRef = 1
/** Our walk of the page (refs keep counting up across calls, as the server's do). */
export const walk = async (page: Page, overrides: Partial<ObserveArgs> = {}): Promise<ObserveResult> => {
  const result = await page.evaluate(observeExpression(walkArgs({ nextRef, ...overrides }))) as ObserveResult
  nextRef = result.nextRef
  return result
}

const CHECKED_ROLES = new Set(["checkbox", "menuitemcheckbox", "option", "radio", "switch", "menuitemradio", "treeitem"])
const EXPANDED_ROLES = new Set([
  "application", "button", "checkbox", "combobox", "gridcell", "link", "listbox", "menuitem", "row", "rowheader", "tab",
  "treeitem", "columnheader", "menuitemcheckbox", "menuitemradio", "switch"
])
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

export interface NameCheck {
  readonly checked: number
  readonly matched: number
  readonly skipped: number
  /**
   * Nodes Chromium gives but Playwright's role queries cannot find (not counted as checked): an editing
   * host (Chromium: an editable generic; we show it as the textbox it is), a label standing for its hidden
   * box, a textbox named by its aria-placeholder (Chromium names it so, Playwright leaves it unnamed).
   */
  readonly oursOnly: number
  readonly mismatches: ReadonlyArray<string>
}

/** Whether Playwright's role queries cannot see the node as we show it (see `NameCheck.oursOnly`). */
const beyondPlaywright = (page: Page, node: A11yNode): Promise<boolean> =>
  page
    .evaluate(({ ref, name }) => {
      const element = (window as any)[Symbol.for("browser-workflow-mcp")].byRef.get(ref) as HTMLElement
      if (element.localName === "label") return true
      if (element.isContentEditable && !element.hasAttribute("role")) return true
      const field = element.localName === "input" || element.localName === "textarea"
      const labelled = element.hasAttribute("aria-label") || element.hasAttribute("aria-labelledby") || element.hasAttribute("title")
      const placeholders = ["aria-placeholder", "placeholder", "data-placeholder"].map((attribute) => element.getAttribute(attribute)?.replace(/\s+/g, " ").trim())
      return !field && !labelled && name !== "" && placeholders.includes(name)
    }, { ref: node.ref, name: node.name })
    .catch(() => false)

/** Whether Playwright's role query with our role, name and states finds each node's own element. */
export const checkNames = async (page: Page, nodes: ReadonlyArray<A11yNode>): Promise<NameCheck> => {
  let checked = 0
  let matched = 0
  let skipped = 0
  let oursOnly = 0
  const mismatches: Array<string> = []
  for (const node of nodes) {
    // Generic blocks of text have no role to query by; collapsed runs are checked through their first node.
    if (node.role === "generic" || node.role === "iframe" || node.collapsed !== undefined) {
      skipped++
      continue
    }
    if (await beyondPlaywright(page, node)) {
      oursOnly++
      continue
    }
    checked++
    const truncated = node.name.endsWith("…")
    const name = truncated ? new RegExp(`^${escapeRegExp(node.name.slice(0, -1))}`) : node.name
    const options: Parameters<Page["getByRole"]>[1] = {
      name,
      exact: true,
      disabled: node.disabled ?? false,
      ...(node.checked !== undefined && node.checked !== "mixed" && CHECKED_ROLES.has(node.role) ? { checked: node.checked } : {}),
      ...(node.level !== undefined ? { level: node.level } : {}),
      ...(node.expanded !== undefined && EXPANDED_ROLES.has(node.role) ? { expanded: node.expanded } : {}),
      ...(node.selected !== undefined ? { selected: node.selected } : {})
    }
    const found = await page
      .getByRole(node.role as Parameters<Page["getByRole"]>[0], options)
      .evaluateAll(
        (elements, ref) => elements.includes((window as any)[Symbol.for("browser-workflow-mcp")].byRef.get(ref)),
        node.ref
      )
      .catch((error: Error) => `error: ${error.message.split("\n")[0]}`)
    if (found === true) matched++
    else {
      const actual = await page
        .evaluate(
          (ref) => {
            const element = (window as any)[Symbol.for("browser-workflow-mcp")].byRef.get(ref) as Element
            return element.outerHTML.slice(0, 160)
          },
          node.ref
        )
        .catch(() => "?")
      mismatches.push(`${node.role} ${JSON.stringify(node.name)} ${JSON.stringify(options)} ${found === false ? "not found" : found}: ${actual}`)
    }
  }
  return { checked, matched, skipped, oursOnly, mismatches }
}
