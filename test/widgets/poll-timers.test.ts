// Pages that poll: a timer that re-schedules itself and changes nothing (a poll, a loop waiting for a
// condition) stops counting after its first runs, in the count of the short timers an input scheduled
// (page/timers.ts, the observation's settling) and in the reaction watch of an action read back
// (page/reaction.ts, mm_type's), while a chain whose runs change the page is followed as before and an
// action's own late effect is still in its answer. The counts are read in the page once the poll has run
// (a condition of the page, no clock). Real Chromium, 127.0.0.1.
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { Page } from "playwright"
import * as Browser from "../../src/adapters/playwright/lifecycle/browser.js"
import { callInMainWorld } from "../../src/adapters/playwright/main-world.js"
import { timersCode } from "../../src/adapters/playwright/observer/quiet.js"
import { PAGE } from "../../src/adapters/playwright/page-bundle.js"
import type { Envelope } from "../../src/domain/envelope.js"
import { runTool, type ToolResponse } from "../../src/runtime/runTool.js"
import type { AnyToolDefinition } from "../../src/runtime/tool.js"
import { click, type } from "../../src/tools/interaction.js"
import { html } from "../support/browser.js"
import { reactionWorld, statusMessage } from "./reaction-world.js"

/** A poll every 100 ms from the page's load, changing nothing but a variable. */
const poll = `<script>window.ticks = 0; (function poll() { window.ticks++; setTimeout(poll, 100) })()</script>`
/** A loop every `ms`: `idle` changes nothing but a variable, else it writes its count into #out each time. */
const loop = (idle: boolean, ms = 100) =>
  `window.ticks = 0; (function tick() { window.ticks++; ${idle ? "" : "out.textContent = String(window.ticks);"} setTimeout(tick, ${ms}) })()`

const pages: Record<string, string> = {
  "/poll-click": html(
    "Poll click",
    `<button id="save">Save</button>${statusMessage}${poll}
     <script>save.addEventListener('click', () => setTimeout(() => { msg.textContent = 'Saved at twelve.' }, 150))</script>`
  ),
  "/click-polls": html(
    "Click polls",
    `<button id="go">Go</button><button id="count">Count</button>${statusMessage}<p id="out"></p>
     <script>
       go.addEventListener('click', () => { msg.textContent = 'Watching.'; ${loop(true, 600)} })
       count.addEventListener('click', () => { msg.textContent = 'Counting.'; ${loop(false, 600)} })
     </script>`
  ),
  "/poll-type": html("Poll type", `<label>Name <input id="q"></label><p id="out"></p>${poll}`),
  "/poll-filter": html(
    "Poll filter",
    `<label>Fruit <input id="q" role="combobox" aria-controls="list"></label>
     <ul id="list"><li>Apple</li><li>Banana</li><li>Cherry</li></ul>${poll}
     <script>let pending; q.addEventListener('keyup', () => { clearTimeout(pending); pending = setTimeout(() => {
       for (const item of list.children) item.hidden = !item.textContent.toLowerCase().includes(q.value.toLowerCase())
     }, 300) })</script>`
  )
}

const world = reactionWorld("test/PollPages", pages)
const { open } = world

const call = (tool: AnyToolDefinition, args: Record<string, unknown> = {}) =>
  Effect.map(runTool(tool)(args), (response: ToolResponse<unknown>) => ({ envelope: response.envelope as Envelope<any>, text: JSON.stringify(response.envelope) }))

const onPage = <A>(use: (page: Page) => Promise<A>) =>
  Effect.gen(function* () {
    const { page } = yield* (yield* Browser.BrowserState).activePage
    return yield* Effect.promise(() => use(page))
  })

/** Until the page's loop has run `more` times more than now (a condition of the page). */
const ticksOn = (more: number) =>
  onPage(async (page) => {
    const now = (await page.evaluate("window.ticks")) as number
    await page.waitForFunction(`window.ticks >= ${now + more}`, undefined, { polling: 10, timeout: 10_000 })
  })

/** The short timers an input scheduled that the observation would still wait for (page/timers.ts). */
const inputTimers = onPage((page) => callInMainWorld(page, timersCode, "pending", [], -1))

/** Starts the reaction watch on #q as an action read back does (page/reaction.ts), and reads its count of timers. */
const watchField = onPage((page) => page.evaluate(`(${PAGE.watchReaction})(document.querySelector('#q'), true)`))
const reactionTimers = onPage((page) => page.evaluate(`(${PAGE.reactionNow})(document.querySelector('#q')).timers`) as Promise<number>)
const stopWatch = onPage((page) => page.evaluate(`(${PAGE.stopReaction})(document.querySelector('#q'))`))

layer(world.layer, { timeout: 180_000, excludeTestServices: true })("pages that poll", (it) => {
  it.effect("a click on a page that polls: the effect its own 150 ms timer brings is in its answer", () =>
    Effect.gen(function* () {
      yield* open("/poll-click")
      const { envelope, text } = yield* call(click, { selector: "#save" })
      expect(envelope.error).toBeUndefined()
      expect(text).toContain("Saved at twelve.")
    }))

  it.effect("a click that starts a poll changing nothing: its answer shows the click's effect, and the poll stops counting once its first timer's run changed nothing", () =>
    Effect.gen(function* () {
      yield* open("/click-polls")
      const { envelope, text } = yield* call(click, { selector: "#go" })
      expect(envelope.error).toBeUndefined()
      expect(text).toContain("Watching.")
      yield* open("/click-polls")
      // A person's click (not ours, so that nothing waits for the chain): once its first timer ran, nothing is counted.
      yield* onPage((page) => page.click("#go"))
      yield* onPage((page) => page.waitForFunction("window.ticks >= 2", undefined, { polling: 5, timeout: 10_000 }))
      expect(yield* inputTimers).toBe(0)
    }))

  it.effect("a click that starts a loop writing the page each time: its next run is still counted (a chain that leads somewhere)", () =>
    Effect.gen(function* () {
      yield* open("/click-polls")
      yield* onPage((page) => page.click("#count"))
      // Its first timer ran and wrote the page; the next is due 600 ms later, within the horizon.
      yield* onPage((page) => page.waitForFunction("window.ticks === 2", undefined, { polling: 5, timeout: 10_000 }))
      expect(yield* inputTimers).toBe(1)
    }))

  it.effect("the reaction watch of an action read back stops counting a poll that changes nothing, and mm_type on that page answers with the text typed", () =>
    Effect.gen(function* () {
      yield* open("/poll-type")
      yield* watchField
      yield* ticksOn(3)
      expect(yield* reactionTimers).toBe(0)
      yield* stopWatch
      const typed = yield* call(type, { selector: "#q", text: "Ann" })
      expect(typed.envelope.error).toBeUndefined()
      expect(yield* onPage((page) => page.evaluate("q.value"))).toBe("Ann")
    }))

  it.effect("the reaction watch keeps counting a loop whose runs write the page", () =>
    Effect.gen(function* () {
      yield* open("/poll-type")
      yield* watchField
      // A loop begun after the watch, writing its count each time (a ticker, a countdown).
      yield* onPage((page) => page.evaluate(`(() => { const out = document.querySelector('#out'); ${loop(false)} })()`))
      yield* ticksOn(3)
      expect(yield* reactionTimers).toBe(1)
      yield* stopWatch
    }))

  it.effect("the reaction watch keeps counting a loop whose runs start a request, though they change nothing in the DOM", () =>
    Effect.gen(function* () {
      yield* open("/poll-type")
      yield* watchField
      yield* onPage((page) =>
        page.evaluate(`window.ticks = 0; (function ask() { window.ticks++; fetch('/slow?ms=0'); setTimeout(ask, 100) })()`)
      )
      yield* ticksOn(3)
      expect(yield* reactionTimers).toBe(1)
      yield* stopWatch
    }))

  it.effect("a filter applied 300 ms after the last key, on a page that polls: the answer to mm_type shows the list filtered", () =>
    Effect.gen(function* () {
      yield* open("/poll-filter")
      const { envelope, text } = yield* call(type, { selector: "#q", text: "ban" })
      expect(envelope.error).toBeUndefined()
      // Apple and Cherry hidden by the filter: gone from the answer, which shows what changed.
      expect(text).toMatch(/\(gone: e\d+ e\d+\)/)
      expect(text).not.toContain("Apple")
    }))
})
