// mm_console_messages in real Chromium: messages and uncaught errors with their stacks, each with the
// call that was running (a timer's error is not blamed on the next call), the level filter, since the
// last navigation, per tab, bounded with the dropped count, and inside mm_run_steps.
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Schedule } from "effect"
import { registryFor } from "../../src/cli.js"
import { ToolView } from "../../src/runtime/visibility.js"
import { Session } from "../../src/services/Session.js"
import { consoleMessages } from "../../src/tools/devtools.js"
import { click } from "../../src/tools/interaction.js"
import { navigate } from "../../src/tools/navigation.js"
import { launch } from "../../src/tools/session.js"
import { liveLayer, testSettings } from "../support/browser.js"
import { call, htmlPage, serveRoutes, type Served } from "./support.js"

const settings = testSettings()
const runSteps = registryFor(settings).lookup("mm_run_steps")!

class Pages extends Context.Tag("test/ConsolePages")<Pages, Served>() {}
const PagesLive = Layer.scoped(
  Pages,
  serveRoutes({
    "/console": htmlPage(
      "Console",
      `<button data-testid="log" onclick="console.log('clicked', 1); console.warn('careful'); console.debug('details'); console.error('bad thing')">Log</button>
       <button data-testid="explode" onclick="explode()">Explode</button>
       <button data-testid="later" onclick="setTimeout(function lateTimer() { throw new Error('late boom') }, 2500)">Later</button>
       <button data-testid="soon" onclick="setTimeout(function soonTimer() { throw new Error('soon boom') }, 300); setTimeout(function () { document.body.insertAdjacentHTML('beforeend', '<p>settled</p>') }, 1200)">Soon</button>
       <script>
         function inner() { throw new Error("boom in handler") }
         function explode() { inner() }
         console.log("loaded")
       </script>`
    ),
    "/other": htmlPage("Other", `<script>console.log("other page")</script>`),
    "/many": htmlPage("Many", `<script>for (let i = 0; i < 450; i++) console.log("m", i)</script>`)
  })
)

/** Waits (without a tool call, so nothing is recorded meanwhile) until the active tab logged a message with this text. */
const logged = (text: string) =>
  Effect.flatMap(Session, (session) =>
    session.consoleMessages({ level: "all", since: "all", limit: 200 }).pipe(
      Effect.repeat({ schedule: Schedule.spaced("50 millis"), until: (reading) => reading.messages.some((message) => message.text === text) }),
      Effect.timeout("10 seconds")
    )
  )

const messagesOf = (args: Record<string, unknown> = {}) =>
  Effect.map(call(consoleMessages, args), (envelope) => {
    expect(envelope.ok).toBe(true)
    return envelope.result as { tabId: string; url: string; messages: Array<any>; dropped?: number; more?: number }
  })

describe("mm_console_messages in real Chromium", () => {
  layer(Layer.merge(liveLayer(settings), PagesLive), { timeout: 120_000, excludeTestServices: true })("console", (it) => {
    it.effect("each message carries its time and the call that was running; uncaught errors carry their stacks; a timer's error is not blamed on the next call", () =>
      Effect.gen(function* () {
        const pages = yield* Pages
        expect((yield* call(launch)).ok).toBe(true)
        expect((yield* call(navigate, { screen: "url", url: pages.url("/console") })).ok).toBe(true)
        expect((yield* call(click, { testId: "log" })).ok).toBe(true)
        expect((yield* call(click, { testId: "explode" })).ok).toBe(true)
        expect((yield* call(click, { testId: "later" })).ok).toBe(true)
        yield* logged("late boom")

        const { tabId, url, messages } = yield* messagesOf({ level: "all" })
        expect(tabId).toBe("t1")
        expect(url).toBe(pages.url("/console"))
        const byText = (text: string) => messages.find((message) => message.text === text)
        expect(byText("loaded")).toMatchObject({ type: "log", call: "mm_navigate" })
        for (const [text, type] of [
          ["clicked 1", "log"],
          ["careful", "warning"],
          ["details", "debug"],
          ["bad thing", "error"]
        ]) {
          expect(byText(text!)).toMatchObject({ type, call: "mm_click testId:log" })
        }
        const thrown = byText("boom in handler")
        expect(thrown).toMatchObject({ type: "pageerror", call: "mm_click testId:explode" })
        expect(thrown.stack.split("\n")[0]).toMatch(/^at inner \(/)
        expect(thrown.stack).toMatch(/at explode \(/)
        // Thrown 2.5 s after its click (past the short timers a click waits for), while no call ran: it came after that click.
        const late = byText("late boom")
        expect(late).toMatchObject({ type: "pageerror", call: "after mm_click testId:later" })
        expect(late.stack).toMatch(/at lateTimer \(/)
        for (const message of messages) expect(message.time).toMatch(/^\d\d:\d\d:\d\d\.\d\d\d$/)
        // Oldest first, as heard.
        expect(messages.map((message) => message.time)).toEqual([...messages.map((message) => message.time)].sort())
        expect(messages.indexOf(thrown)).toBeLessThan(messages.indexOf(late))
      }))

    it.effect("level is the least severe level shown: error, warning, info (the default, all but debug), debug or all", () =>
      Effect.gen(function* () {
        const texts = (level?: string) =>
          Effect.map(messagesOf(level === undefined ? {} : { level }), (reading) => reading.messages.map((message) => message.text))
        expect(yield* texts("error")).toEqual(["bad thing", "boom in handler", "late boom"])
        expect(yield* texts("warning")).toEqual(["careful", "bad thing", "boom in handler", "late boom"])
        expect(yield* texts()).toEqual(["loaded", "clicked 1", "careful", "bad thing", "boom in handler", "late boom"])
        expect(yield* texts("debug")).toEqual(yield* texts("all"))
        expect(yield* texts("all")).toContain("details")
      }))

    it.effect("by default only the messages since the tab's last navigation; since all keeps the earlier page's", () =>
      Effect.gen(function* () {
        const pages = yield* Pages
        expect((yield* call(navigate, { screen: "url", url: pages.url("/other") })).ok).toBe(true)
        yield* logged("other page")
        const since = yield* messagesOf()
        expect(since.messages.map((message) => message.text)).toEqual(["other page"])
        expect(since.url).toBe(pages.url("/other"))
        const all = yield* messagesOf({ since: "all" })
        expect(all.messages.map((message) => message.text)).toEqual([
          "loaded",
          "clicked 1",
          "careful",
          "bad thing",
          "boom in handler",
          "late boom",
          "other page"
        ])
      }))

    it.effect("messages are per tab: the active tab by default, another by tabId, an unknown tab is MM_TAB_NOT_FOUND", () =>
      Effect.gen(function* () {
        const pages = yield* Pages
        expect((yield* call(navigate, { screen: "url", url: pages.url("/console"), newTab: true })).ok).toBe(true)
        yield* logged("loaded")
        const second = yield* messagesOf()
        expect(second.tabId).toBe("t2")
        expect(second.messages.map((message) => message.text)).toEqual(["loaded"])
        const first = yield* messagesOf({ tabId: "t1" })
        expect(first).toMatchObject({ tabId: "t1", url: pages.url("/other") })
        expect(first.messages.map((message) => message.text)).toEqual(["other page"])
        const unknown = yield* call(consoleMessages, { tabId: "t99" })
        expect(unknown.error.code).toBe("MM_TAB_NOT_FOUND")
        expect(unknown.error.message).toContain("No tab t99")
      }))

    it.effect("the answer is bounded: the newest `limit`, how many older ones match (more) and how many the tab let go (dropped)", () =>
      Effect.gen(function* () {
        const pages = yield* Pages
        expect((yield* call(navigate, { screen: "url", url: pages.url("/many") })).ok).toBe(true)
        yield* logged("m 449")
        const reading = yield* messagesOf()
        expect(reading.messages).toHaveLength(50)
        expect(reading.messages[0].text).toBe("m 400")
        expect(reading.messages.at(-1).text).toBe("m 449")
        // The ring keeps 200 per tab: 250 went, 150 of those kept are older than the newest 50.
        expect(reading.dropped).toBe(250)
        expect(reading.more).toBe(150)
        const errors = yield* messagesOf({ level: "error" })
        // Lean: nothing matched, so no messages field at all.
        expect(errors.messages).toBeUndefined()
        expect(errors.more).toBeUndefined()
      }))

    it.effect("a timer's error that fires while the next step only reads (a wait_for) is the click's, not the wait's", () =>
      Effect.gen(function* () {
        const pages = yield* Pages
        // The served registry tells which tools only read, as it does for every MCP call.
        const served = registryFor(settings)
        const envelope = yield* call(served.lookup("mm_run_steps")!, {
          steps: [
            { tool: "mm_navigate", args: { screen: "url", url: pages.url("/console") } },
            { tool: "mm_click", args: { testId: "soon" } },
            { tool: "mm_wait_for", args: { selector: "text=settled" } },
            { tool: "mm_console_messages", args: { level: "error" } }
          ],
          includeObservations: "none"
        }).pipe(Effect.provideService(ToolView, ToolView.make(served)))
        expect(envelope.ok).toBe(true)
        const messages = envelope.result.steps[3].result.messages
        expect(messages).toEqual([expect.objectContaining({ type: "pageerror", text: "soon boom", call: "after mm_click testId:soon" })])
        expect(messages[0].stack).toMatch(/at soonTimer \(/)
      }))

    it.effect("inside mm_run_steps: a step reads the errors of the step before it, attributed to that step", () =>
      Effect.gen(function* () {
        const pages = yield* Pages
        const envelope = yield* call(runSteps, {
          steps: [
            { tool: "mm_navigate", args: { screen: "url", url: pages.url("/console") } },
            { tool: "mm_click", args: { testId: "log" } },
            { tool: "mm_console_messages", args: { level: "error" } }
          ],
          includeObservations: "none"
        })
        expect(envelope.ok).toBe(true)
        const read = envelope.result.steps[2]
        expect(read.ok).toBe(true)
        expect(read.result.messages).toEqual([expect.objectContaining({ type: "error", text: "bad thing", call: "mm_click testId:log" })])
      }))
  })
})
