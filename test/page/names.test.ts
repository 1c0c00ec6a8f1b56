// Names and roles against Playwright's own role queries, on real third-party apps (Swagger UI,
// TodoMVC React and Vue) and hand-made tricky pages: every node we name must be found by
// getByRole(role, {name, exact: true}) with its states. Also prints our snapshot's size next to
// Playwright's ariaSnapshot for the same pages.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser, Page } from "playwright"
import { renderNodes } from "../../src/domain/snapshot-text.js"
import type { A11yNode } from "../../src/domain/observation.js"
import { serveCorpus, type Corpus } from "./corpus.js"
import { checkNames, launchChromium, walk, type NameCheck } from "./oracle.js"
import { hugePage, trickyNames } from "./tricky.js"
import * as widgetPatterns from "./widget-patterns.js"
import { widgetPages } from "../widgets/pages.js"

let corpus: Corpus
let browser: Browser
const totals = { checked: 0, matched: 0, skipped: 0, oursOnly: 0 }
const sizes: Array<string> = []

beforeAll(async () => {
  corpus = await serveCorpus({
    "/tricky": trickyNames,
    "/huge": hugePage(),
    ...widgetPages,
    ...Object.fromEntries(Object.entries(widgetPatterns).map(([name, html]) => [`/widgets/${name}`, html]))
  })
  browser = await launchChromium()
})

afterAll(async () => {
  await browser?.close()
  await corpus?.close()
  process.stderr.write(
    `names against getByRole: ${totals.matched}/${totals.checked} nodes found (${totals.skipped} generic or collapsed not queried, ${totals.oursOnly} beyond Playwright's role queries)\n` +
      `snapshot characters, ours vs Playwright's ariaSnapshot (default and ai mode):\n${sizes.join("\n")}\n`
  )
})

const checkPage = async (label: string, page: Page): Promise<NameCheck> => {
  const result = await walk(page)
  const nodes = result.a11y!.nodes as ReadonlyArray<A11yNode>
  const check = await checkNames(page, nodes)
  totals.checked += check.checked
  totals.matched += check.matched
  totals.skipped += check.skipped
  totals.oursOnly += check.oursOnly
  const ours = renderNodes(nodes).text.length
  const theirs = (await page.locator("body").ariaSnapshot()).length
  // The AI mode is what Playwright MCP hands an agent: refs on every node.
  const ai = (await page.locator("body").ariaSnapshot({ mode: "ai" })).length
  sizes.push(
    `  ${label.padEnd(30)} ours ${String(ours).padStart(6)}  ariaSnapshot ${String(theirs).padStart(6)}  ai mode ${String(ai).padStart(6)}  (${nodes.length} nodes)`
  )
  return check
}

const addTodos = async (page: Page) => {
  const input = page.getByPlaceholder("What needs to be done?")
  for (const item of ["Buy milk", "Walk the dog", "Write tests"]) {
    await input.fill(item)
    await input.press("Enter")
  }
  await page.locator(".toggle").nth(1).check()
}

describe("accessible names match Playwright's getByRole", () => {
  it("on hand-made pages with hidden text, labels, fieldsets, tables, shadow roots and CSS content", async () => {
    const page = await browser.newPage()
    await page.goto(`${corpus.url}/tricky`)
    const check = await checkPage("tricky names (hand-made)", page)
    expect(check.mismatches).toEqual([])
    expect(check.checked).toBeGreaterThan(60)
    const nodes = (await walk(page)).a11y!.nodes
    const named = (role: string) => nodes.filter((node) => node.role === role).map((node) => node.name)
    // Spaces where blocks meet, nothing hidden, labelledby of a hidden element, fallbacks.
    expect(named("button")).toEqual(
      expect.arrayContaining(["One Two", "Visible", "Label from a hidden element", "First Second", "Before Middle", "Content after", "Line break"])
    )
    expect(named("textbox")).toEqual(expect.arrayContaining(["Wrapped label", "Label by for", "limit", "Title only", "Locked field"]))
    expect(nodes.find((node) => node.name === "Locked button")?.disabled).toBe(true)
    expect(nodes.find((node) => node.name === "Legend button")?.disabled).toBeUndefined()
    expect(nodes.find((node) => node.name === "Aria disabled child")?.disabled).toBe(true)
    expect(nodes.find((node) => node.role === "combobox")).toMatchObject({ name: "Show entries", text: "25" })
    await page.close()
  })

  it("on Swagger UI after Try it out and Execute (operation buttons, parameters, the response body)", async () => {
    const page = await browser.newPage()
    await page.goto(`${corpus.url}/swagger/`)
    await page.locator(".opblock").first().waitFor()
    const closed = await checkPage("Swagger UI, operations list", page)
    expect(closed.mismatches).toEqual([])
    await page.locator(".opblock-summary-control").first().click()
    await page.getByRole("button", { name: "Try it out" }).click()
    await page.getByPlaceholder("limit").fill("2")
    await page.getByRole("button", { name: "Execute" }).click()
    await page.locator(".live-responses-table .response-col_status").first().waitFor()
    const check = await checkPage("Swagger UI, after Execute", page)
    expect(check.mismatches).toEqual([])
    const nodes = (await walk(page)).a11y!.nodes
    expect(nodes.some((node) => node.role === "button" && node.name === "GET /planets Get all planets")).toBe(true)
    expect(nodes.find((node) => node.role === "textbox" && node.name === "limit")?.text).toBe("2")
    expect(nodes.some((node) => node.text?.includes('"name": "Venus"'))).toBe(true)
    await page.close()
  })

  for (const framework of ["react", "vue"]) {
    it(`on TodoMVC ${framework}: each item's checkbox sits under the item's text`, async () => {
      const page = await browser.newPage()
      await page.goto(`${corpus.url}/todomvc/${framework}/`)
      await addTodos(page)
      const check = await checkPage(`TodoMVC ${framework}, 3 items`, page)
      expect(check.mismatches).toEqual([])
      const nodes = (await walk(page)).a11y!.nodes
      const item = nodes.findIndex((node) => node.role === "listitem" && node.text === "Walk the dog")
      expect(item).toBeGreaterThan(-1)
      expect(nodes[item + 1]).toMatchObject({ role: "checkbox", checked: true, depth: (nodes[item]!.depth ?? 0) + 1 })
      await page.close()
    })
  }

  for (const name of Object.keys(widgetPatterns)) {
    it(`on the widget pattern page ${name}`, async () => {
      const page = await browser.newPage()
      await page.goto(`${corpus.url}/widgets/${name}`)
      const check = await checkPage(`widget pattern ${name}`, page)
      expect(check.mismatches).toEqual([])
      expect(check.checked).toBeGreaterThan(0)
      await page.close()
    })
  }

  it("on the shared widget pages (test/widgets): web components, day cells, header filters, editors", async () => {
    for (const path of Object.keys(widgetPages)) {
      const page = await browser.newPage()
      await page.goto(`${corpus.url}${path}`)
      const check = await checkPage(`widgets ${path}`, page)
      expect(check.mismatches).toEqual([])
      await page.close()
    }
  })

  it("on a page with a 1 MB text node, a 100k-character label and 300 nested tree items, within the caps", async () => {
    const page = await browser.newPage()
    await page.goto(`${corpus.url}/huge`)
    const nodes = (await walk(page)).a11y!.nodes
    const paragraph = nodes.find((node) => node.role === "paragraph")!
    expect(paragraph.text!.length).toBeLessThan(400)
    expect(paragraph.text).toMatch(/…\[\d+ more chars\]$/)
    const button = nodes.find((node) => node.role === "button")!
    expect(button.name.length).toBeLessThanOrEqual(150)
    expect(button.name.endsWith("…")).toBe(true)
    expect(nodes.filter((node) => node.role === "treeitem").length).toBeGreaterThan(250)
    const check = await checkNames(page, nodes.filter((node) => node.role === "button"))
    expect(check.mismatches).toEqual([])
    await page.close()
  })
})
