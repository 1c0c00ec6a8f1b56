// The session report against real Chromium: a small session with a failure and a secret, mm_report and the
// report subcommand write the page, and Chromium opens it the way a person would.
import * as fs from "node:fs"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { chromium } from "playwright"
import { loginPage } from "../../demo/sample-app.js"
import { resolveExecutable } from "../../src/adapters/playwright/lifecycle/launch.js"
import { runReport } from "../../src/cli/report.js"
import { LOOPBACK_ARGS, liveLayer, pageServer, tempDir, testSettings } from "../support/browser.js"
import { call, ok } from "../support/calls.js"
import { linesNamed } from "../page/parse.js"

class Pages extends Context.Tag("test/ReportPages")<Pages, { readonly url: (path: string) => string }>() {}
const PagesLive = Layer.scoped(Pages, Effect.map(pageServer({ "/login": loginPage }), (server) => ({ url: (p: string) => `${server.url}${p}` })))

const settings = testSettings({ screenRules: [{ screen: "login", testId: "login-form" }] })


// The sample app signs in with this password: it must appear nowhere in a report.
const SECRET = "correct horse"

/** What a reader of the report sees in Chromium. */
const readInChromium = (file: string) =>
  Effect.promise(async () => {
    const executablePath = await Effect.runPromise(resolveExecutable(undefined, () => chromium.executablePath()))
    const browser = await chromium.launch({ executablePath, args: [...LOOPBACK_ARGS] })
    try {
      const page = await browser.newPage()
      await page.goto(pathToFileURL(file).href)
      const failed = page.locator("li.step.failed")
      const image = failed.locator("img")
      return {
        title: await page.title(),
        tools: await page.locator("li.step .tool").allTextContents(),
        outcomes: await page.locator("li.step .outcome").allTextContents(),
        failedCount: await failed.count(),
        failedText: await failed.innerText(),
        failedImageVisible: await image.isVisible(),
        failedImageWidth: await image.evaluate((element: HTMLImageElement) => element.naturalWidth),
        failureLink: await page.locator("ul.failures a").getAttribute("href"),
        failedId: await failed.getAttribute("id"),
        recipe: await page.locator("table tbody tr").allInnerTexts(),
        text: await page.locator("body").innerText(),
        scripts: await page.locator("script").count()
      }
    } finally {
      await browser.close()
    }
  })

layer(Layer.merge(liveLayer(settings), PagesLive), { timeout: 120_000, excludeTestServices: true })("session report in real Chromium", (it) => {
  describe("mm_report and the report subcommand", () => {
    it.effect("list the steps in order with the failure's code and screenshot, the recipe, and no secret anywhere", () =>
      Effect.gen(function* () {
        const { url } = yield* Pages
        const launched = yield* ok("mm_launch", { goal: "sign in as alice", flowTags: ["login"] })
        const sessionId = launched.result.sessionId as string
        yield* ok("mm_navigate", { screen: "url", url: url("/login") })
        const screen = yield* ok("mm_describe_screen")
        const ref = (role: string, name: string) => linesNamed(screen.snapshot ?? "", role, name)[0]!.ref!
        yield* ok("mm_type", { a11yRef: ref("textbox", "Username"), text: "alice" })
        yield* ok("mm_type", { testId: "password", text: SECRET })
        const missing = yield* call("mm_click", { testId: "no-such-button", timeoutMs: 500 })
        expect(missing.error?.code).toBe("MM_TARGET_NOT_FOUND")
        yield* ok("mm_click", { a11yRef: ref("button", "Sign in") })
        yield* ok("mm_wait_for", { testId: "welcome" })

        // The failure was photographed (a small JPEG under the artifacts dir); successes were not, by default.
        const last = yield* ok("mm_knowledge", { limit: 20 })
        expect(last.result.steps.map((step: any) => step.tool)).toEqual(["launch", "navigate", "describe_screen", "type", "type", "click", "click", "wait_for"])
        const shots = fs.readdirSync(path.join(settings.artifactsDir, "screenshots"))
        expect(shots).toHaveLength(1)
        expect(shots[0]).toMatch(/^step-.*-click\.jpg$/)

        const written = yield* ok("mm_knowledge", { export: "report" })
        expect(written.result).toMatchObject({ format: "report", sessionId, steps: 8, failed: 1, screenshots: 1 })
        // The older name writes the same file.
        expect((yield* ok("mm_report")).result.path).toBe(written.result.path)
        expect(written.result.path).toBe(path.join(settings.artifactsDir, "reports", `${sessionId}.html`))
        const html = fs.readFileSync(written.result.path, "utf8")
        expect(written.result.bytes).toBe(Buffer.byteLength(html))
        expect(html).not.toContain(SECRET)
        expect(html).toContain("data:image/jpeg;base64,")

        const seen = yield* readInChromium(written.result.path)
        expect(seen.title).toContain("sign in as alice")
        expect(seen.tools).toEqual(["launch", "navigate", "describe_screen", "type", "type", "click", "click", "wait_for"])
        expect(seen.outcomes.filter((outcome) => outcome !== "ok")).toEqual(["failed: MM_TARGET_NOT_FOUND"])
        expect(seen.failedCount).toBe(1)
        expect(seen.failedText).toContain("testId:no-such-button")
        expect(seen.failedText).toContain("MM_TARGET_NOT_FOUND")
        expect(seen.failedImageVisible).toBe(true)
        expect(seen.failedImageWidth).toBeGreaterThan(100)
        expect(seen.failureLink).toBe(`#${seen.failedId}`)
        expect(seen.text).toContain("‹secret›")
        expect(seen.text).not.toMatch(/13 characters/)
        expect(seen.text).not.toContain(SECRET)
        expect(seen.scripts).toBe(0)
        // The recipe: the successful actions with durable targets, the secret as a placeholder.
        expect(seen.recipe.map((row) => row.split("\t")[1])).toEqual(["mm_navigate", "mm_type", "mm_type", "mm_click", "mm_wait_for", "mm_wait_for"])
        expect(seen.text).toContain("{{password}}")

        // The subcommand writes the same page where it is told to.
        const out = path.join(tempDir(), "alice.html")
        const code = yield* Effect.promise(() => runReport([sessionId, "--artifacts-dir", settings.artifactsDir, `--out=${out}`], {}))
        expect(code).toBe(0)
        const fromCli = fs.readFileSync(out, "utf8")
        expect(fs.statSync(out).mode & 0o777).toBe(0o600)
        expect(fromCli).not.toContain(SECRET)
        expect((yield* readInChromium(out)).tools).toEqual(seen.tools)
        expect(yield* Effect.promise(() => runReport(["mm-no-such-session", "--artifacts-dir", settings.artifactsDir], {}))).toBe(1)
        yield* ok("mm_cleanup")
      }))
  })
})
