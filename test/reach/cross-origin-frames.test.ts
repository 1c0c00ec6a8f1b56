// Cross-origin (out-of-process) iframes beyond snapshots and ref clicks: find searches them, test ids in
// observations and testId targets reach into them, and their console messages and uncaught errors are
// heard (console_messages, and the errors of the call that caused them). Two loopback origins
// (127.0.0.1 on two ports), the frame's origin isolated in a process of its own (an origin-keyed agent
// cluster: see ORIGIN_KEYED); real Chromium.
import * as fs from "node:fs"
import { expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option } from "effect"
import { Session } from "../../src/services/Session.js"
import { chromium } from "playwright"
import { EXECUTABLE_CANDIDATES } from "../../src/adapters/playwright/lifecycle/launch.js"
import { corpusServer, ORIGIN_KEYED } from "../page/corpus.js"
import { linesNamed } from "../page/parse.js"
import { html, liveLayer, testSettings } from "../support/browser.js"
import { toolViewLayer, viewCall as call } from "../support/calls.js"

const host = (frameOrigin: string) =>
  html(
    "Host",
    `<h1>Host</h1>
     <button data-testid="top-button" onclick="console.error('top error logged')">Top</button>
     <iframe title="Payments" src="${frameOrigin}/pay" style="width:400px;height:200px"></iframe>`
  )

const pay = html(
  "Pay",
  `<button data-testid="pay" onclick="this.textContent = 'Paid'; console.log('paid', 42); console.error('frame error logged'); throw new Error('frame boom')">Pay now</button>
   <span data-testid="amount">42 EUR</span>`
)

class Pages extends Context.Tag("test/CrossOriginPages")<
  Pages,
  { readonly url: (path: string) => string; readonly frameOrigin: string; readonly browserArgs: ReadonlyArray<string> }
>() {}

const TestLayer = Layer.unwrapScoped(
  Effect.gen(function* () {
    const frameServer = yield* corpusServer({ "/pay": pay }, ORIGIN_KEYED)
    const main = yield* corpusServer({ "/host": host(frameServer.url) })
    const settings = testSettings()
    return Layer.mergeAll(
      liveLayer(settings),
      Layer.succeed(Pages, { url: (p: string) => `${main.url}${p}`, frameOrigin: frameServer.url, browserArgs: settings.browserArgs }),
      toolViewLayer(settings)
    )
  })
)

const openHost = Effect.gen(function* () {
  const { url } = yield* Pages
  const session = yield* Session
  if (Option.isNone(yield* session.current)) expect((yield* call("launch")).ok).toBe(true)
  const opened = yield* call("navigate", { screen: "url", url: url("/host") })
  expect(opened.ok).toBe(true)
})

layer(TestLayer, { timeout: 120_000, excludeTestServices: true })("cross-origin iframes in real Chromium", (it) => {
  it.effect("the fixture: the frame is out of process (Playwright gives it a DevTools session of its own), and its button is in the snapshot", () =>
    Effect.gen(function* () {
      const { url, browserArgs } = yield* Pages
      const ownSession = yield* Effect.promise(async () => {
        const executablePath = EXECUTABLE_CANDIDATES.find((candidate) => fs.existsSync(candidate))
        const browser = await chromium.launch({ ...(executablePath === undefined ? {} : { executablePath }), args: [...browserArgs] })
        try {
          const page = await browser.newPage()
          await page.goto(url("/host"))
          const frame = page.frames().find((candidate) => candidate !== page.mainFrame())!
          await frame.waitForLoadState()
          return await page.context().newCDPSession(frame).then(
            () => true,
            () => false
          )
        } finally {
          await browser.close()
        }
      })
      expect(ownSession).toBe(true)
      yield* openHost
      const snapshot = yield* call("accessibility_snapshot")
      expect(linesNamed(snapshot.snapshot, "button", "Pay now")).toHaveLength(1)
    }))

  it.effect("find searches inside the frame: its matches come under the frame's node, and their refs click", () =>
    Effect.gen(function* () {
      yield* openHost
      const found = yield* call("find", { text: "Pay now" })
      expect(found.ok).toBe(true)
      expect(found.result.found).toBe(1)
      const matches = found.snapshot as string
      expect(matches).toContain("Payments")
      const [button] = linesNamed(matches.replace(/▶ /g, ""), "button", "Pay now")
      expect(button?.ref).toMatch(/^e\d+$/)

      const buttons = yield* call("find", { role: "button" })
      expect(buttons.result.found).toBe(2)
      expect(buttons.snapshot).toContain("Top")
      expect(buttons.snapshot).toContain("Pay now")
      const one = yield* call("find", { role: "button", limit: 1 })
      expect(one.result.found).toBe(2)
      expect(one.snapshot).not.toContain("Pay now")

      const clicked = yield* call("click", { a11yRef: button!.ref })
      expect(clicked.ok).toBe(true)
      const paid = yield* call("find", { text: "Paid" })
      expect(paid.result.found).toBe(1)
    }))

  it.effect("test ids inside the frame are listed (with the frame's title) and testId targets reach them", () =>
    Effect.gen(function* () {
      yield* openHost
      const listed = yield* call("list_testids")
      expect(listed.ok).toBe(true)
      const items = listed.result.items as ReadonlyArray<{ testId: string; frame?: string; text?: string }>
      expect(items.find((item) => item.testId === "top-button")?.frame).toBeUndefined()
      expect(items.find((item) => item.testId === "pay")).toMatchObject({ frame: "Payments", text: "Pay now" })
      expect(items.find((item) => item.testId === "amount")).toMatchObject({ frame: "Payments", text: "42 EUR" })

      const text = yield* call("get_text", { testId: "amount" })
      expect(text.result.text).toBe("42 EUR")
      const clicked = yield* call("click", { testId: "pay" })
      expect(clicked.ok).toBe(true)
      expect((yield* call("get_text", { testId: "pay" })).result.text).toBe("Paid")
    }))

  it.effect("the frame's console and uncaught errors are heard, in console_messages and in the response of the call that caused them", () =>
    Effect.gen(function* () {
      yield* openHost
      const clicked = yield* call("click", { testId: "pay" })
      expect(clicked.ok).toBe(true)
      const told = (clicked.console ?? []).join("\n")
      expect(told).toContain("frame error logged")
      expect(told).toContain("frame boom")

      // The next call did nothing in the frame: it is not told those errors again.
      const top = yield* call("click", { testId: "top-button" })
      const topTold = (top.console ?? []).join("\n")
      expect(topTold).toContain("top error logged")
      expect(topTold).not.toContain("frame boom")

      const messages = yield* call("console_messages", { level: "all" })
      const texts = (messages.result.messages as ReadonlyArray<{ type: string; text: string }>).map((message) => `${message.type}: ${message.text}`)
      expect(texts.some((line) => line.startsWith("log: ") && line.includes("paid 42"))).toBe(true)
      expect(texts.some((line) => line.startsWith("error: ") && line.includes("frame error logged"))).toBe(true)
      expect(texts.some((line) => line.startsWith("pageerror: ") && line.includes("frame boom"))).toBe(true)
    }))
})
