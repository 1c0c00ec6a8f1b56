// Bounded buffers in real Chromium: the console ring of each tab with its dropped count, a console
// flood that gets muted, and a page running an alert loop that can neither wedge the session nor
// flood the answers with notices.
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Schedule } from "effect"
import { CONSOLE_PER_TAB, MAX_NOTICES } from "../../src/adapters/playwright/lifecycle/session-state.js"
import { runTool, type RunOptions } from "../../src/runtime/runTool.js"
import type { AnyToolDefinition } from "../../src/runtime/tool.js"
import { Session } from "../../src/services/Session.js"
import { getState } from "../../src/tools/discovery.js"
import { click } from "../../src/tools/interaction.js"
import { navigate } from "../../src/tools/navigation.js"
import { launch } from "../../src/tools/session.js"
import { html, liveLayer, pageServer, testSettings, readable } from "../support/browser.js"

const LOGGED = 450

const pages = {
  "/logs": html(
    "Logs",
    `<button data-testid="more" onclick="console.warn('clicked', 1)">More</button>
     <script>for (let i = 0; i < ${LOGGED}; i++) console.log("m", i)</script>`
  ),
  "/quiet-logs": html("Quiet logs", `<script>console.log("quiet", 1, { a: 1, b: "x" }, [1, 2]); setTimeout(() => { throw new Error("boom") })</script>`),
  "/flood": html("Flood", `<p>flood</p><script>for (let i = 0; i < 30000; i++) console.log("flood", i)</script>`),
  "/alerts": html("Alerts", `<button data-testid="b">B</button><script>setInterval(() => alert(1), 0)</script>`),
  "/calm": html("Calm", `<p data-testid="calm">calm</p>`)
}

class Pages extends Context.Tag("test/Pages")<Pages, { readonly url: (path: string) => string }>() {}

const PagesLive = Layer.scoped(
  Pages,
  Effect.map(pageServer(pages), (server) => ({ url: (p: string) => `${server.url}${p}` }))
)

const call = (tool: AnyToolDefinition, args: Record<string, unknown> = {}, options?: RunOptions) =>
  Effect.map(runTool(tool)(args, options), (response) => readable(response))

const open = (p: string, args: Record<string, unknown> = {}) =>
  Effect.gen(function* () {
    const { url } = yield* Pages
    const session = yield* Session
    if ((yield* session.current)._tag === "None") expect((yield* call(launch)).ok).toBe(true)
    return yield* call(navigate, { screen: "url", url: url(p), ...args })
  })

/** Waits until the session has seen `count` more console messages than at `cursor`. */
const consoleReaches = (cursor: number, count: number) =>
  Effect.flatMap(Session, (session) =>
    session.consoleCursor.pipe(
      Effect.repeat({ schedule: Schedule.spaced("50 millis"), until: (seq) => seq >= cursor + count }),
      Effect.timeout("10 seconds")
    )
  )

layer(Layer.merge(liveLayer(testSettings()), PagesLive), { timeout: 120_000, excludeTestServices: true })("bounded buffers in real Chromium", (it) => {
  describe("console", () => {
    it.effect("each tab keeps its newest messages; what it let go is one 'dropped' entry with the count", () =>
      Effect.gen(function* () {
        const session = yield* Session
        yield* open("/calm")
        const cursor = yield* session.consoleCursor
        yield* open("/logs")
        yield* consoleReaches(cursor, LOGGED)
        const messages = yield* session.consoleSince(cursor)
        expect(messages[0]).toEqual({
          type: "dropped",
          text: `${LOGGED - CONSOLE_PER_TAB} messages were dropped (each tab keeps its newest ${CONSOLE_PER_TAB}).`,
          url: ""
        })
        expect(messages.slice(1)).toHaveLength(CONSOLE_PER_TAB)
        expect(messages[1]).toMatchObject({ type: "log", text: `m ${LOGGED - CONSOLE_PER_TAB}` })
        expect(messages.at(-1)).toMatchObject({ type: "log", text: `m ${LOGGED - 1}` })

        // Later messages come after a later cursor, without the ones before it.
        const later = yield* session.consoleCursor
        expect((yield* call(click, { testId: "more" })).ok).toBe(true)
        yield* consoleReaches(later, 1)
        expect(yield* session.consoleSince(later)).toEqual([expect.objectContaining({ type: "warning", text: "clicked 1" })])
      }))

    it.effect("messages read as the console prints them, and uncaught errors are recorded too", () =>
      Effect.gen(function* () {
        const session = yield* Session
        const cursor = yield* session.consoleCursor
        yield* open("/quiet-logs")
        yield* consoleReaches(cursor, 2)
        const messages = yield* session.consoleSince(cursor)
        expect(messages[0]).toMatchObject({ type: "log", text: 'quiet 1 {a: 1, b: x} [1, 2]' })
        expect(messages[1]).toMatchObject({ type: "pageerror", text: "boom" })
        expect(messages[0]!.url).toMatch(/\/quiet-logs$/)
      }))

    it.effect("a page that floods its console is muted with a notice, and the session keeps answering", () =>
      Effect.gen(function* () {
        const session = yield* Session
        const cursor = yield* session.consoleCursor
        const opened = yield* open("/flood")
        expect(opened.ok).toBe(true)
        const state = yield* call(getState, {}, { deadlineMs: 10_000 })
        expect(state.ok).toBe(true)
        const notices = [...(opened.notices ?? []), ...(state.notices ?? [])]
        expect(notices.some((notice: string) => /console is muted/.test(notice))).toBe(true)
        const messages = yield* session.consoleSince(cursor)
        // What was recorded before the mute, and the mute itself; far fewer than the page logged.
        expect(messages.length).toBeLessThanOrEqual(CONSOLE_PER_TAB + 1)
        expect(messages.some((message) => message.type === "dropped" && /muted/.test(message.text))).toBe(true)
        // The next document of the tab is heard again.
        const next = yield* session.consoleCursor
        yield* open("/quiet-logs")
        yield* consoleReaches(next, 1)
      }))
  })

  describe("dialogs", () => {
    it.effect("a page running an alert loop: navigate and get_state keep answering, notices stay few and counted", () =>
      Effect.gen(function* () {
        const opened = yield* open("/alerts", { timeoutMs: 5_000 })
        expect(opened.ok).toBe(true)
        yield* Effect.sleep("2 seconds")
        const state = yield* call(getState, {}, { deadlineMs: 5_000 })
        expect(state.ok).toBe(true)
        const notices: Array<string> = [...(opened.notices ?? []), ...(state.notices ?? [])]
        expect(notices.length).toBeLessThanOrEqual(2 * (MAX_NOTICES + 1))
        expect(notices.some((notice) => /^An alert dialog was dismissed \(page text: "1"\)\. \(x\d+\)$/.test(notice))).toBe(true)
        expect(notices.some((notice) => /opens dialogs in a loop/.test(notice))).toBe(true)
        // The loop is over for this document: the page stays and acts normally.
        expect((yield* call(click, { testId: "b" }, { deadlineMs: 5_000 })).ok).toBe(true)
        const away = yield* open("/calm", { timeoutMs: 5_000 })
        expect(away.ok).toBe(true)
        expect(away.page?.url).toMatch(/\/calm$/)
      }))

    it.effect("navigating away from an alert loop right away works too", () =>
      Effect.gen(function* () {
        expect((yield* open("/alerts", { timeoutMs: 5_000 })).ok).toBe(true)
        const away = yield* open("/calm", { timeoutMs: 5_000 })
        expect(away.ok).toBe(true)
        const state = yield* call(getState, {}, { deadlineMs: 5_000 })
        expect(state.result.state.url).toMatch(/\/calm$/)
      }))
  })
})
