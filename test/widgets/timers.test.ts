// Answers that include the app's reaction when it comes through a short timer the action scheduled:
// a click whose effect is a setTimeout 150 ms later, with no request, no animation and no DOM change
// until then; a key whose handler logs an error 50 ms later; a chain of such timers. The answer to the
// action shows the effect (or carries the console line), never the next call's. Real Chromium, 127.0.0.1.
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { Envelope } from "../../src/domain/envelope.js"
import { runTool, type ToolResponse } from "../../src/runtime/runTool.js"
import type { AnyToolDefinition } from "../../src/runtime/tool.js"
import { click, pressKey, type } from "../../src/tools/interaction.js"
import { html } from "../support/browser.js"
import { inPage, reactionWorld, statusMessage } from "./reaction-world.js"

const pages: Record<string, string> = {
  "/late-click": html(
    "Late click",
    `<button id="save">Save</button>${statusMessage}
     <script>save.addEventListener('click', () => setTimeout(() => { msg.textContent = 'Saved at twelve.' }, 150))</script>`
  ),
  "/late-key": html(
    "Late key",
    `<label>Search <input id="q"></label>
     <script>q.addEventListener('keyup', (e) => { if (e.key === 'Enter') setTimeout(() => console.error('searched for ' + q.value), 50) })</script>`
  ),
  "/late-search": html(
    "Late search",
    `<label>Search <input id="q"></label>
     <script>q.addEventListener('keyup', (e) => { if (e.key === 'Enter') setTimeout(() => console.error('no results for ' + q.value), 400) })</script>`
  ),
  // A click that starts a ticker (a timer that reschedules itself forever) and an interval: the answer
  // comes, with the first tick in it; neither keeps the page busy past the cap.
  "/ticker": html(
    "Ticker",
    `<button id="start">Start</button>${statusMessage}<p id="ticks">0</p>
     <script>start.addEventListener('click', () => {
       const tick = () => { ticks.textContent = String(Number(ticks.textContent) + 1); setTimeout(tick, 100) }
       setTimeout(() => { msg.textContent = 'Ticker started.'; tick() }, 100)
       setInterval(() => { document.title = 'Ticker ' + ticks.textContent }, 50)
     })</script>`
  ),
  // A page that puts its own setTimeout in place after it loaded (a fake clock, a zone), keeping the one it found.
  "/own-timers": html(
    "Own timers",
    `<button id="later">Later</button><button id="swap">Swap</button>${statusMessage}
     <script>
       later.addEventListener('click', () => setTimeout(() => { msg.textContent = 'Done later.' }, 150))
       swap.addEventListener('click', () => {
         const found = window.setTimeout
         window.setTimeout = function (fn, ms, ...rest) { window.ownCalls = (window.ownCalls || 0) + 1; return found.call(window, fn, ms, ...rest) }
         setTimeout(() => { msg.textContent = 'Swapped.' }, 150)
       })
     </script>`
  ),
  "/chain": html(
    "Chain",
    `<button id="go">Go</button>${statusMessage}
     <script>go.addEventListener('click', () => setTimeout(() => setTimeout(() => { msg.textContent = 'Chain done.' }, 120), 120))</script>`
  )
}

const world = reactionWorld("test/TimerPages", pages)
const { open } = world

const call = (tool: AnyToolDefinition, args: Record<string, unknown> = {}) =>
  Effect.map(runTool(tool)(args), (response: ToolResponse<unknown>) => ({ envelope: response.envelope as Envelope<any>, text: JSON.stringify(response.envelope) }))

layer(world.layer, { timeout: 180_000, excludeTestServices: true })("answers that include a short timer's effect", (it) => {
  it.effect("a click whose effect comes 150 ms later through a timer: the click's answer shows it", () =>
    Effect.gen(function* () {
      yield* open("/late-click")
      const { envelope, text } = yield* call(click, { selector: "#save" })
      expect(envelope.error).toBeUndefined()
      expect(text).toContain("Saved at twelve.")
    }))

  it.effect("a click whose effect comes through a chain of two timers: the click's answer shows it", () =>
    Effect.gen(function* () {
      yield* open("/chain")
      const { envelope, text } = yield* call(click, { selector: "#go" })
      expect(envelope.error).toBeUndefined()
      expect(text).toContain("Chain done.")
    }))

  it.effect("Enter whose keyup handler logs an error 50 ms later: the press's answer carries the line, the next call's does not", () =>
    Effect.gen(function* () {
      yield* open("/late-key")
      yield* call(type, { selector: "#q", text: "tea" })
      const pressed = yield* call(pressKey, { selector: "#q", key: "Enter" })
      expect(pressed.envelope.error).toBeUndefined()
      expect(pressed.envelope.console?.join("\n")).toContain("searched for tea")
      const next = yield* call(click, { selector: "#q" })
      expect(next.text).not.toContain("searched for tea")
    }))

  it.effect("Enter whose keyup handler logs an error 400 ms later (a search): the press's answer carries the line", () =>
    Effect.gen(function* () {
      yield* open("/late-search")
      yield* call(type, { selector: "#q", text: "tea" })
      const pressed = yield* call(pressKey, { selector: "#q", key: "Enter" })
      expect(pressed.envelope.error).toBeUndefined()
      expect(pressed.envelope.console?.join("\n")).toContain("no results for tea")
    }))

  it.effect("a click that starts a timer rescheduling itself forever and an interval: the answer comes with the first tick, and the page keeps ticking", () =>
    Effect.gen(function* () {
      yield* open("/ticker")
      const { envelope, text } = yield* call(click, { selector: "#start" })
      expect(envelope.error).toBeUndefined()
      expect(text).toContain("Ticker started.")
      const ticks = yield* inPage<number>("Number(ticks.textContent)")
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 300)))
      expect(yield* inPage<number>("Number(ticks.textContent)")).toBeGreaterThan(ticks)
      // The next call on the ticking page answers too (its deadline holds).
      expect((yield* call(click, { selector: "#start" })).envelope.error).toBeUndefined()
    }))

  it.effect("a page that puts its own setTimeout in place: its timers run through it, and a click's late effect is still in the answer", () =>
    Effect.gen(function* () {
      yield* open("/own-timers")
      // Nothing of ours among the page's globals.
      expect(yield* inPage<Array<string>>("Object.getOwnPropertySymbols(window).map(String).filter((name) => /browser-workflow|bwm/i.test(name))")).toEqual([])
      const swapped = yield* call(click, { selector: "#swap" })
      expect(swapped.envelope.error).toBeUndefined()
      expect(swapped.text).toContain("Swapped.")
      expect(yield* inPage<number>("window.ownCalls")).toBe(1)
      const later = yield* call(click, { selector: "#later" })
      expect(later.text).toContain("Done later.")
      expect(yield* inPage<number>("window.ownCalls")).toBeGreaterThanOrEqual(2)
    }))
})
