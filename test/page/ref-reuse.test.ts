// A ref names one element for the life of its document, even when the server's count of refs lags
// behind the page's: a walk whose answer the server never got (a timeout on a loaded machine, then a
// retry with the same count) must not make the next new element take a ref the client already holds.
// Found by bench/parallel under load: after a TodoMVC item was added, the text field's ref named the list.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser, Page } from "playwright"
import { observeExpression, type ObserveResult } from "../../src/adapters/playwright/page-script.js"
import { servePages, type RunningServer } from "../../demo/serve.js"
import { html } from "../support/browser.js"
import { launchChromium, walkArgs } from "./oracle.js"

// A TodoMVC-like page: the list and its footer only render once there is an item (as TodoMVC React's do).
const todo = html(
  "Todos",
  `<section><header><h1>todos</h1><input id="new" placeholder="What needs to be done?" aria-label="New todo"></header><div id="main"></div></section>
   <script>
     document.querySelector("#new").addEventListener("keydown", (event) => {
       if (event.key !== "Enter") return
       const main = document.querySelector("#main")
       if (main.firstChild === null) main.innerHTML = '<ul id="todo-list"></ul><footer><span>items left</span><button>Clear completed</button></footer>'
       const item = document.createElement("li")
       item.innerHTML = '<input type="checkbox" aria-label="Toggle"><label></label><button aria-label="Delete">x</button>'
       item.querySelector("label").textContent = event.target.value
       document.querySelector("#todo-list").append(item)
       event.target.value = ""
     })
   </script>`
)

let server: RunningServer
let browser: Browser
let page: Page

beforeAll(async () => {
  server = await servePages({ "/": todo })
  browser = await launchChromium()
  page = await browser.newPage()
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

const observe = (nextRef: number) => page.evaluate(observeExpression(walkArgs({ nextRef }))) as Promise<ObserveResult>
const refsIn = (result: ObserveResult): Array<string> => (result.a11y?.nodes ?? []).map((node) => node.ref)

/** Keeps, in the page, the element each ref names now (what the client was told). */
const remember = (refs: ReadonlyArray<string>) =>
  page.evaluate((refs) => {
    const registry = (window as any)[Symbol.for("browser-workflow-mcp")]
    ;(window as any).told = new Map(refs.map((ref) => [ref, registry.byRef.get(ref)]))
  }, refs)

/** The refs the client was told that now name another element (a gone element is fine: a stale ref). */
const moved = () =>
  page.evaluate(() => {
    const registry = (window as any)[Symbol.for("browser-workflow-mcp")]
    const told: Map<string, Element> = (window as any).told
    return [...told].filter(([ref, element]) => registry.byRef.has(ref) && registry.byRef.get(ref) !== element).map(([ref, element]) => `${ref}: ${element.localName} is now ${registry.byRef.get(ref).localName}`)
  })

describe("refs when the server's count lags", () => {
  it("a new element never takes a ref the client holds (a walk's answer lost, then a retry with the same count)", async () => {
    await page.goto(`${server.url}/`)
    // The first walk's answer never reaches the server; the retry starts from the same count.
    await observe(1)
    const told = await observe(1)
    const refs = refsIn(told)
    expect(refs.length).toBeGreaterThanOrEqual(2)
    await remember(refs)
    const field = (told.a11y?.nodes ?? []).find((node) => node.role === "textbox")!.ref

    for (const item of ["Buy milk", "Walk the dog", "Read a book"]) {
      await page.fill("#new", item)
      await page.press("#new", "Enter")
      const after = await observe(told.nextRef)
      expect(await moved()).toEqual([])
      // Every ref of this answer is one element's alone; the field keeps its ref.
      expect(new Set(refsIn(after)).size).toBe(refsIn(after).length)
      expect((after.a11y?.nodes ?? []).find((node) => node.role === "textbox")?.ref).toBe(field)
      const list = (after.a11y?.nodes ?? []).find((node) => node.role === "list")!.ref
      expect(refs).not.toContain(list)
    }
  })
})
