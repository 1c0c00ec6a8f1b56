// A walk hands out refs only within the block of numbers the server reserved for it (lifecycle/ref-space.ts):
// past the block's end it stops as at its node cap (truncated), also when the page's own count is ahead of
// the block's start, so it never numbers into another session's block. And the space's bookkeeping: blocks
// never overlap, what a walk did not use goes back only when no later block was taken, a failed walk keeps its.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser, Page } from "playwright"
import { observeExpression, type ObserveResult } from "../../src/adapters/playwright/page-script.js"
import { emptyRanges, inBlock, make, noteRange, tookRef } from "../../src/adapters/playwright/lifecycle/ref-space.js"
import { servePages, type RunningServer } from "../../demo/serve.js"
import { html } from "../support/browser.js"
import { launchChromium, walkArgs } from "./oracle.js"

const buttons = (count: number, from = 0) => Array.from({ length: count }, (_, i) => `<h2>Part ${from + i}</h2><button>Go ${from + i}</button>`).join("")

let server: RunningServer
let browser: Browser
let page: Page

beforeAll(async () => {
  server = await servePages({ "/": html("Blocks", `<main id="main">${buttons(10)}</main>`) })
  browser = await launchChromium()
  page = await browser.newPage()
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

const observe = (nextRef: number, refEnd: number) => page.evaluate(observeExpression(walkArgs({ nextRef, refEnd }))) as Promise<ObserveResult>
const numbers = (result: ObserveResult): Array<number> => (result.a11y?.nodes ?? []).map((node) => Number(node.ref.slice(1)))
const bound = () => page.evaluate(() => [...(window as any)[Symbol.for("browser-workflow-mcp")].byRef.keys()] as Array<string>)

describe("a walk within its block of ref numbers", () => {
  it("stops at the block's end, truncated, and says how far it numbered", async () => {
    await page.goto(`${server.url}/`)
    const cut = await observe(1, 6)
    expect(cut.a11y?.truncated).toBe(true)
    expect(numbers(cut).length).toBeGreaterThan(0)
    expect(Math.max(...numbers(cut))).toBeLessThan(6)
    expect(cut.nextRef).toBeLessThanOrEqual(6)
    // Nothing bound in the page past the block either.
    expect((await bound()).every((ref) => Number(ref.slice(1)) < 6)).toBe(true)
  })

  it("numbers past the page's own count, and still not past the block's end", async () => {
    await page.goto(`${server.url}/`)
    const whole = await observe(1, 1_000)
    expect(whole.a11y?.truncated).toBe(false)
    const count = whole.nextRef
    expect(count).toBeGreaterThan(20)
    // New elements; a block that starts below the page's count (the page is ahead): numbering goes on from
    // the page's count, and stops at the block's end.
    await page.evaluate((more) => document.getElementById("main")!.insertAdjacentHTML("beforeend", more), buttons(10, 10))
    const later = await observe(5, count + 3)
    const fresh = numbers(later).filter((number) => number >= count)
    expect(fresh.length).toBe(3)
    expect(later.a11y?.truncated).toBe(true)
    expect(Math.max(...numbers(later))).toBeLessThan(count + 3)
    // A block entirely below the page's count hands out nothing new (a walk of what already has refs).
    const none = await observe(1, count)
    expect(numbers(none).every((number) => number < count + 3)).toBe(true)
    expect((await bound()).every((ref) => Number(ref.slice(1)) < count + 3)).toBe(true)
  })
})

describe("the ref space", () => {
  it("blocks never overlap; what a walk did not use goes back only when no later block was taken", () => {
    const space = make()
    const a = space.reserve(2_000)
    expect(a).toEqual({ start: 1, end: 2_001 })
    space.release(a, 11)
    // Alone: the next block starts right after what a used.
    const b = space.reserve(2_000)
    expect(b.start).toBe(11)
    // Two at once: c is taken while b runs; b's rest cannot go back, c's can.
    const c = space.reserve(2_000)
    expect(c.start).toBe(b.end)
    space.release(b, 20)
    expect(space.reserve(0).start).toBe(c.end)
    space.release(c, c.start + 5)
    expect(space.reserve(0).start).toBe(c.start + 5)
  })

  it("a walk that failed keeps its whole block; a page that numbered past its block moves the space on", async () => {
    const space = make()
    const failed = inBlock(space, 100, undefined, () => Promise.reject(new Error("no answer")))
    await expect(failed).rejects.toThrow("no answer")
    expect(space.reserve(0).start).toBe(101)
    const block = space.reserve(10)
    space.release(block, 500)
    expect(space.reserve(0).start).toBe(500)
  })

  it("a session's record of the numbers it took: ranges merged where they touch, vaguer past its bound, never losing one", async () => {
    const space = make()
    const record = emptyRanges()
    await inBlock(space, 2_000, record, async (block) => ({ nextRef: block.start + 4 }))
    await inBlock(space, 2_000, record, async (block) => ({ nextRef: block.start + 3 }))
    expect(record.ranges).toEqual([[1, 8]])
    expect(tookRef(record, "e7")).toBe(true)
    expect(tookRef(record, "e8")).toBe(false)
    await inBlock(space, 10, record, () => Promise.reject(new Error("timeout"))).catch(() => undefined)
    expect(record.ranges).toEqual([[1, 18]])
    const many = emptyRanges()
    for (let i = 0; i < 300; i++) noteRange(many, i * 10, i * 10 + 2)
    expect(many.ranges.length).toBeLessThanOrEqual(256)
    for (let i = 0; i < 300; i++) expect(tookRef(many, `e${i * 10 + 1}`)).toBe(true)
  })
})
