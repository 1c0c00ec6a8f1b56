// Screenshot names across a server's sessions (issue 20): a screenshot never replaces a file another
// session wrote. Two clients' sessions on different pages take `page` (one after the other, then both at
// once): each answer's path holds that call's own image, a session taking a name again replaces its own
// file as before, and each session's report embeds its own images only. Real Chromium, pages served on
// 127.0.0.1, the app layer in process; each page's box has its own size, read back from the PNG files.
import * as fs from "node:fs"
import * as path from "node:path"
import { ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { servePages, type RunningServer } from "../../demo/sample-app.js"
import { appLayer, registryFor } from "../../src/cli/serve.js"
import { makeMcpServer } from "../../src/mcp/server.js"
import { html, testSettings } from "../support/browser.js"
import { connectWithText } from "../support/mcp-client.js"

const box = (title: string, width: number, height: number, colour: string) =>
  html(title, `<h1>${title}</h1><div id="box" style="position:absolute;left:8px;top:80px;width:${width}px;height:${height}px;background:${colour}"></div>`)

/** Session s's box and session w's: an element screenshot of each is a PNG of exactly that size. */
const S_BOX = { width: 120, height: 40 }
const W_BOX = { width: 60, height: 90 }
const pages = {
  "/": html("Home", "<p>home</p>"),
  "/s": box("Sierra", S_BOX.width, S_BOX.height, "#c00"),
  "/w": box("Whiskey", W_BOX.width, W_BOX.height, "#00c")
}

/** Width and height from a PNG's header. */
const pngSize = (png: Buffer) => {
  expect(png.subarray(1, 4).toString("latin1")).toBe("PNG")
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) }
}

const sizeOfFile = (file: string) => pngSize(fs.readFileSync(file))

/** The sizes of the PNG images a report embeds. */
const embeddedSizes = (reportFile: string) =>
  [...fs.readFileSync(reportFile, "utf8").matchAll(/data:image\/png;base64,([A-Za-z0-9+/=]+)/g)].map((match) => pngSize(Buffer.from(match[1]!, "base64")))

let app: RunningServer
beforeAll(async () => {
  app = await servePages(pages)
})
afterAll(async () => {
  await app?.close()
})

describe("screenshot names across sessions", () => {
  it("two sessions taking the same name each keep their own image, one after the other and at once; each report embeds its own", async () => {
    const settings = testSettings({ appUrl: `${app.url}/` })
    const runtime = ManagedRuntime.make(appLayer(settings, "warning"))
    const s = await connectWithText(makeMcpServer(registryFor(settings), runtime), "screenshot-names-s")
    const w = await connectWithText(makeMcpServer(registryFor(settings), runtime), "screenshot-names-w")
    try {
      await s.ok("mm_launch", { url: `${app.url}/s` })
      await w.ok("mm_launch", { url: `${app.url}/w` })
      const shotsDir = path.resolve(settings.artifactsDir, "screenshots")

      // The first taker of a name gets it, as a single session always did.
      const first = await s.ok("mm_screenshot", { name: "page", selector: "#box" })
      expect(first.result.path).toBe(path.join(shotsDir, "page.png"))
      expect(first.result).toMatchObject(S_BOX)
      // Another session's `page` never replaces it.
      const other = await w.ok("mm_screenshot", { name: "page", selector: "#box" })
      expect(other.result.path).not.toBe(first.result.path)
      expect(path.dirname(other.result.path)).toBe(shotsDir)
      expect(sizeOfFile(first.result.path)).toEqual(S_BOX)
      expect(sizeOfFile(other.result.path)).toEqual(W_BOX)
      // A session taking its name again replaces its own file, as before; the other's stays.
      const again = await s.ok("mm_screenshot", { name: "page", selector: "#box" })
      expect(again.result.path).toBe(first.result.path)
      const otherAgain = await w.ok("mm_screenshot", { name: "page", selector: "#box" })
      expect(otherAgain.result.path).toBe(other.result.path)
      expect(sizeOfFile(first.result.path)).toEqual(S_BOX)
      expect(sizeOfFile(other.result.path)).toEqual(W_BOX)

      // Both at once, a name neither has taken: two files, each holding its own session's image.
      const [sBoth, wBoth] = await Promise.all([
        s.ok("mm_screenshot", { name: "both", selector: "#box" }),
        w.ok("mm_screenshot", { name: "both", selector: "#box" })
      ])
      expect(sBoth.result.path).not.toBe(wBoth.result.path)
      expect(sizeOfFile(sBoth.result.path)).toEqual(S_BOX)
      expect(sizeOfFile(wBoth.result.path)).toEqual(W_BOX)
      expect(fs.readdirSync(shotsDir).filter((name) => !name.startsWith(".")).sort()).toHaveLength(4)

      // Each session's report embeds its own images, never the other's.
      const sReport = await s.ok("mm_knowledge", { export: "report" })
      const wReport = await w.ok("mm_knowledge", { export: "report" })
      expect(sReport.result.screenshots).toBe(2)
      expect(wReport.result.screenshots).toBe(2)
      const sImages = embeddedSizes(sReport.result.path)
      const wImages = embeddedSizes(wReport.result.path)
      expect(sImages.length).toBeGreaterThan(0)
      expect(wImages.length).toBeGreaterThan(0)
      expect(sImages.every((size) => size.width === S_BOX.width && size.height === S_BOX.height), JSON.stringify(sImages)).toBe(true)
      expect(wImages.every((size) => size.width === W_BOX.width && size.height === W_BOX.height), JSON.stringify(wImages)).toBe(true)
    } finally {
      await s.client.close()
      await w.client.close()
      await runtime.dispose()
    }
  })

  it("a PDF too: another session's name keeps its file, the session's own name is replaced", async () => {
    const settings = testSettings({ appUrl: `${app.url}/`, caps: ["pdf"] })
    const runtime = ManagedRuntime.make(appLayer(settings, "warning"))
    const s = await connectWithText(makeMcpServer(registryFor(settings), runtime, { caps: ["pdf"] }), "pdf-names-s")
    const w = await connectWithText(makeMcpServer(registryFor(settings), runtime, { caps: ["pdf"] }), "pdf-names-w")
    try {
      await s.ok("mm_launch", { url: `${app.url}/s` })
      await w.ok("mm_launch", { url: `${app.url}/w` })
      const first = await s.ok("mm_save_pdf", { name: "doc" })
      expect(first.result.path).toBe(path.resolve(settings.artifactsDir, "pdf", "doc.pdf"))
      const other = await w.ok("mm_save_pdf", { name: "doc" })
      expect(other.result.path).not.toBe(first.result.path)
      expect(fs.readFileSync(first.result.path, "latin1")).toContain("Sierra")
      expect(fs.readFileSync(other.result.path, "latin1")).toContain("Whiskey")
      expect((await s.ok("mm_save_pdf", { name: "doc" })).result.path).toBe(first.result.path)
    } finally {
      await s.client.close()
      await w.client.close()
      await runtime.dispose()
    }
  })
})
