// The widget fixture pages do what their header in pages.ts says, driven by Playwright itself (the
// oracle for the right behaviour): each control is found by getByRole with the name given there, the
// action a person takes works, and widgetState() reports it. Tests of our tools on these pages belong
// to the helpers that fix them (widget-actions, widget-names).
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser, Page } from "playwright"
import { serveCorpus, type Corpus } from "../page/corpus.js"
import { launchChromium } from "../page/oracle.js"
import { WIDGET_STATE, widgetPages } from "./pages.js"

let corpus: Corpus
let browser: Browser

beforeAll(async () => {
  corpus = await serveCorpus(widgetPages)
  browser = await launchChromium()
})

afterAll(async () => {
  await browser?.close()
  await corpus?.close()
})

const open = async (path: string): Promise<Page> => {
  const page = await browser.newPage()
  await page.goto(corpus.url + path)
  return page
}

const stateOf = (page: Page) => page.evaluate(WIDGET_STATE) as Promise<Record<string, unknown>>

describe("widget fixture pages", () => {
  it("web-component checkbox and switch: hidden native inputs in shadow roots, checked by a click on the control", async () => {
    const page = await open("/wc-checkbox")
    const checkbox = page.getByRole("checkbox", { name: "Subscribe to the newsletter", exact: true })
    const toggle = page.getByRole("switch", { name: "Email alerts", exact: true })
    await expect(checkbox.count()).resolves.toBe(1)
    await expect(toggle.count()).resolves.toBe(1)
    // The native inputs themselves take no pointer: a person clicks the drawn control or the label.
    await page.getByText("Subscribe to the newsletter").click()
    await page.getByText("Email alerts").click()
    expect(await stateOf(page)).toEqual({ subscribe: true, alerts: true })
    await page.close()
  })

  it("read-only field: Playwright refuses to fill it as not editable", async () => {
    const page = await open("/readonly-field")
    const field = page.getByRole("textbox", { name: "Departure date", exact: true })
    await expect(field.isEditable()).resolves.toBe(false)
    await expect(field.fill("2025-03-14", { timeout: 1_000 })).rejects.toThrow(/editable/)
    expect(await stateOf(page)).toEqual({ value: "" })
    await page.close()
  })

  it("day cells: found by their aria-label, a click selects the day", async () => {
    const page = await open("/day-cells")
    const day = page.getByLabel("March 14, 2025", { exact: true })
    await expect(day.count()).resolves.toBe(1)
    await day.click()
    expect(await stateOf(page)).toEqual({ selected: "2025-03-14" })
    await page.close()
  })

  it("debounced combobox: options filter 300 ms after the last key", async () => {
    const page = await open("/debounced-combobox")
    await page.getByRole("combobox", { name: "Country", exact: true }).pressSequentially("Port")
    await page.getByRole("option", { name: "Spain" }).waitFor({ state: "detached" })
    await page.getByRole("option", { name: "Portugal", exact: true }).click()
    expect(await stateOf(page)).toEqual({ value: "Portugal" })
    await page.close()
  })

  it("keyup filter: fill alone filters nothing, typed keys filter", async () => {
    const page = await open("/keyup-filter")
    const filter = page.getByRole("textbox", { name: "Filter by name", exact: true })
    await filter.fill("Bob")
    expect(await stateOf(page)).toEqual({ visible: ["Alice", "Bob", "Carol", "Dave", "Eve"] })
    await filter.fill("")
    await filter.pressSequentially("Bob")
    expect(await stateOf(page)).toEqual({ visible: ["Bob"] })
    await page.close()
  })

  it("header filter: headers named by their text, aria-sort follows a click, filters apply", async () => {
    const page = await open("/header-filter")
    for (const name of ["ID", "Name", "Email"]) await expect(page.getByRole("columnheader", { name, exact: true }).count()).resolves.toBe(1)
    const header = page.getByRole("columnheader", { name: "Name", exact: true })
    await header.getByText("Name", { exact: true }).click()
    await header.getByText("Name", { exact: true }).click()
    await expect(header.getAttribute("aria-sort")).resolves.toBe("descending")
    await header.getByRole("textbox").fill("o")
    expect(await stateOf(page)).toMatchObject({ sort: { key: "name", direction: "descending" }, visible: ["Carol", "Bob"] })
    await expect(page.getByRole("row").filter({ hasText: "Bob" }).getByRole("cell").allTextContents()).resolves.toEqual(["2", "Bob", "bob@example.test"])
    await page.close()
  })

  it("contenteditable editor: typed text and bold land in the editor", async () => {
    const page = await open("/contenteditable-editor")
    await expect(page.locator("[contenteditable]").getAttribute("data-placeholder")).resolves.toBe("Compose an epic...")
    await page.getByRole("button", { name: "Bold", exact: true }).click()
    await page.locator("[contenteditable]").pressSequentially("hello")
    expect(await stateOf(page)).toEqual({ text: "hello", bold: "hello" })
    await page.close()
  })

  it("code editor: a role=textbox that takes keystrokes, not fill", async () => {
    const page = await open("/code-editor")
    const editor = page.getByRole("textbox", { name: "Code", exact: true })
    await expect(editor.fill("x", { timeout: 1_000 })).rejects.toThrow(/not an <input>/)
    await editor.pressSequentially("let x = 1")
    expect(await stateOf(page)).toEqual({ text: "let x = 1" })
    await page.close()
  })

  it("late switch: checked two frames after the click", async () => {
    const page = await open("/late-switch")
    const toggle = page.getByRole("switch", { name: "Dark mode", exact: true })
    await toggle.click()
    await expect.poll(() => toggle.getAttribute("aria-checked")).toBe("true")
    expect(await stateOf(page)).toEqual({ on: true })
    await page.close()
  })

  it("covered select: the component's drawn control covers its combobox and opens it", async () => {
    const page = await open("/covered-select")
    const combobox = page.getByRole("combobox", { name: "Size", exact: true })
    await expect(combobox.click({ timeout: 1_000 })).rejects.toThrow(/intercepts pointer events/)
    await page.getByText("Choose a size").click()
    expect(await stateOf(page)).toEqual({ open: true, value: "" })
    await page.getByRole("option", { name: "Large", exact: true }).click()
    expect(await stateOf(page)).toEqual({ open: false, value: "large" })
    await page.close()
  })
})
