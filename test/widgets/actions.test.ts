// Actions on hard widgets (issue 19), in real Chromium on the fixture pages of pages.ts and a page of
// causes: a control that cannot take the pointer is acted on where a person would and reports success
// only with its effect; an action that cannot succeed says why (covered by which element, disabled,
// read-only, how it is hidden); typing fires a person's key events and its answer shows the app's reaction.
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import * as Browser from "../../src/adapters/playwright/lifecycle/browser.js"
import { Session } from "../../src/services/Session.js"
import type { Envelope } from "../../src/domain/envelope.js"
import { runTool, type ToolResponse } from "../../src/runtime/runTool.js"
import type { AnyToolDefinition } from "../../src/runtime/tool.js"
import { accessibilitySnapshot } from "../../src/tools/discovery.js"
import { setChecked } from "../../src/tools/gestures.js"
import { click, selectOption, type } from "../../src/tools/interaction.js"
import { navigate } from "../../src/tools/navigation.js"
import { launch } from "../../src/tools/session.js"
import { corpusServer } from "../page/corpus.js"
import { html, testSettings } from "../support/browser.js"
import { refOf } from "../support/calls.js"
import { WIDGET_STATE, widgetPages } from "./pages.js"
import { liveSessionLayer } from "../support/live-session.js"

class Pages extends Context.Tag("test/WidgetActionPages")<Pages, { readonly url: string }>() {}

/** Each cause an action cannot get past, on one page (ids name them), plus a label whose click does nothing. */
const causes = html(
  "Causes",
  `<style>button{width:120px;height:30px;margin:4px;display:block}</style>
   <button id="under">Under the overlay</button>
   <div class="overlay" style="position:absolute;left:0;top:0;width:200px;height:50px;background:rgba(0,0,0,.3)"></div>
   <button id="off" disabled>Disabled</button>
   <button id="gone" style="display:none">Display none</button>
   <div style="visibility:hidden"><button id="ghost">Ghost</button></div>
   <button id="flat" style="height:0;padding:0;border:0;overflow:hidden">Flat</button>
   <div id="box" style="position:relative;width:60px;height:30px;overflow:hidden"><button id="clipped" style="position:absolute;left:-200px">Clipped</button></div>
   <button id="far" style="position:absolute;left:-9999px;top:200px">Far away</button>
   <label id="dead" onclick="event.preventDefault()"><input type="checkbox" id="terms" style="display:none"> Accept the terms</label>
   <input id="stamp" readonly value="2025-03-14" aria-label="Stamp">
   <h2 id="heading">A heading</h2>
   <select id="size" aria-label="Size"><option value="s">Small</option><option value="m">Medium</option><option value="xl" disabled>Huge</option></select>`
)

const call = (tool: AnyToolDefinition, args: Record<string, unknown> = {}) =>
  Effect.map(runTool(tool)(args, { policy: "none" }), (response) => response.envelope as Envelope<any>)

/** The call with the observation the client gets after it (its page text). */
const callSeen = (tool: AnyToolDefinition, args: Record<string, unknown> = {}) =>
  Effect.map(runTool(tool)(args), (response: ToolResponse<unknown>) => ({ envelope: response.envelope as Envelope<any>, text: JSON.stringify(response.envelope) }))

const open = (path: string) =>
  Effect.gen(function* () {
    const { url } = yield* Pages
    if ((yield* (yield* Session).current)._tag === "None") expect((yield* call(launch, {})).ok).toBe(true)
    expect((yield* call(navigate, { screen: "url", url: `${url}${path}` })).ok).toBe(true)
  })

/** The page as an answer shows it (its snapshot text). */
const pageText = (envelope: Envelope<any>): string => String((envelope as any).snapshot ?? JSON.stringify(envelope))

/** The widget's own state, read through Playwright (never from our answers). */
const widgetState = Effect.gen(function* () {
  const { page } = yield* (yield* Browser.BrowserState).activePage
  return (yield* Effect.promise(() => page.evaluate(WIDGET_STATE))) as Record<string, unknown>
})

const settings = testSettings()

/** The live session with its BrowserState in reach, for reading the widget's own state. */
const live = liveSessionLayer(settings)

layer(
  Layer.merge(live, Layer.scoped(Pages, Effect.map(corpusServer({ ...widgetPages, "/causes": causes }), (server) => ({ url: server.url })))),
  { timeout: 180_000, excludeTestServices: true }
)("actions on hard widgets", (it) => {
  describe("act where a person would", () => {
    it.effect("a web component's checkbox and switch (hidden inputs in shadow roots): one click and one set_checked each, success only with the state changed", () =>
      Effect.gen(function* () {
        yield* open("/wc-checkbox")
        const subscribe = yield* refOf("checkbox", "Subscribe to the newsletter")
        const clicked = yield* call(click, { a11yRef: subscribe, timeoutMs: 5_000 })
        expect(clicked.error).toBeUndefined()
        expect(yield* widgetState).toEqual({ subscribe: true, alerts: false })
        const alerts = yield* refOf("switch", "Email alerts")
        expect((yield* call(setChecked, { a11yRef: alerts, checked: true, timeoutMs: 5_000 })).error).toBeUndefined()
        expect(yield* widgetState).toEqual({ subscribe: true, alerts: true })
        expect((yield* call(setChecked, { a11yRef: subscribe, checked: false, timeoutMs: 5_000 })).error).toBeUndefined()
        expect(yield* widgetState).toEqual({ subscribe: false, alerts: true })
        // Already as wanted: nothing to do, still success.
        expect((yield* call(setChecked, { a11yRef: alerts, checked: true, timeoutMs: 5_000 })).error).toBeUndefined()
        expect(yield* widgetState).toEqual({ subscribe: false, alerts: true })
      }))

    it.effect("a switch that takes its state two frames after the click: set_checked succeeds, never a false MM_SET_CHECKED_FAILED", () =>
      Effect.gen(function* () {
        yield* open("/late-switch")
        const dark = yield* refOf("switch", "Dark mode")
        expect((yield* call(setChecked, { a11yRef: dark, checked: true })).error).toBeUndefined()
        expect(yield* widgetState).toEqual({ on: true })
        expect((yield* call(setChecked, { a11yRef: dark, checked: false })).error).toBeUndefined()
        expect(yield* widgetState).toEqual({ on: false })
      }))

    it.effect("a switch whose component cancels the click and keeps aria-checked (Element Plus): set_checked succeeds and the tree shows it on; a refusal names the page's words, never a comment", () =>
      Effect.gen(function* () {
        yield* open("/cancelled-switch")
        const notify = yield* refOf("switch", "Notify the recipient")
        expect((yield* call(setChecked, { a11yRef: notify, checked: true, timeoutMs: 5_000 })).error).toBeUndefined()
        expect(yield* widgetState).toEqual({ notify: true, refused: 0 })
        const seen = yield* call(accessibilitySnapshot)
        expect(pageText(seen)).toMatch(/switch "Notify the recipient" \[checked\]/)
        expect((yield* call(setChecked, { a11yRef: notify, checked: false, timeoutMs: 5_000 })).error).toBeUndefined()
        expect(yield* widgetState).toEqual({ notify: false, refused: 0 })
        const refused = yield* call(setChecked, { a11yRef: yield* refOf("switch", "Express delivery"), checked: true, timeoutMs: 3_000 })
        expect(refused.error?.code).toBe("MM_SET_CHECKED_FAILED")
        expect(refused.error?.message).toContain('the page now says "Express delivery is not available for this parcel"')
        expect(refused.error?.message).not.toContain("v-if")
      }))

    it.effect("a select-like button under its component's drawn control: the click goes through the drawn control and opens it", () =>
      Effect.gen(function* () {
        yield* open("/covered-select")
        const size = yield* refOf("combobox", "Size")
        expect((yield* call(click, { a11yRef: size, timeoutMs: 5_000 })).error).toBeUndefined()
        expect(yield* widgetState).toEqual({ open: true, value: "" })
      }))

    it.effect("a label whose click the page cancels: the click through it fails, never success without the effect", () =>
      Effect.gen(function* () {
        yield* open("/causes")
        const clicked = yield* call(click, { selector: "#terms", timeoutMs: 3_000 })
        expect(clicked.ok).toBe(false)
        expect(clicked.error?.code).toBe("MM_CLICK_FAILED")
        expect(clicked.error?.message).toContain("had no effect")
        const checked = yield* call(setChecked, { selector: "#terms", checked: true, timeoutMs: 3_000 })
        expect(checked.error?.code).toBe("MM_SET_CHECKED_FAILED")
        expect(checked.error?.message).toContain("still unchecked")
      }))
  })

  describe("fail fast with the true reason", () => {
    const cases: ReadonlyArray<{ readonly selector: string; readonly code: string; readonly says: ReadonlyArray<string> }> = [
      { selector: "#under", code: "MM_CLICK_TIMEOUT", says: ["covered by <div class=\"overlay\">", "intercepts pointer events"] },
      { selector: "#off", code: "MM_TARGET_DISABLED", says: ["it is disabled"] },
      { selector: "#gone", code: "MM_TARGET_NOT_FOUND", says: ["not visible: display:none on it"] },
      { selector: "#ghost", code: "MM_TARGET_NOT_FOUND", says: ["visibility:hidden on div"] },
      { selector: "#flat", code: "MM_TARGET_NOT_FOUND", says: ["no size"] },
      { selector: "#clipped", code: "MM_CLICK_TIMEOUT", says: ["clipped by div#box", "overflow: hidden"] },
      { selector: "#far", code: "MM_CLICK_TIMEOUT", says: ["off-screen"] }
    ]
    for (const cause of cases) {
      it.effect(`click on ${cause.selector}: ${cause.code} saying ${cause.says.join(", ")}`, () =>
        Effect.gen(function* () {
          yield* open("/causes")
          const clicked = yield* call(click, { selector: cause.selector, timeoutMs: 20_000 })
          expect(clicked.error?.code).toBe(cause.code)
          for (const words of cause.says) expect(clicked.error?.message).toContain(words)
          expect(clicked.error?.message).not.toContain("hidden, disabled, covered or moving")
        }))
    }

    it.effect("typing into a read-only field answers MM_TARGET_NOT_EDITABLE with reason read-only, and the field keeps its value", () =>
      Effect.gen(function* () {
        yield* open("/readonly-field")
        const typed = yield* call(type, { selector: "#departure", text: "2025-03-14", timeoutMs: 20_000 })
        expect(typed.error?.code).toBe("MM_TARGET_NOT_EDITABLE")
        expect(typed.error?.message).toContain("read-only")
        expect(typed.error?.details?.reason).toBe("read-only")
        expect(yield* widgetState).toEqual({ value: "" })
      }))

    it.effect("typing into a heading answers MM_TARGET_NOT_EDITABLE saying it is no field, without Playwright's words", () =>
      Effect.gen(function* () {
        yield* open("/causes")
        const typed = yield* call(type, { selector: "#heading", text: "hello", timeoutMs: 20_000 })
        expect(typed.error?.code).toBe("MM_TARGET_NOT_EDITABLE")
        expect(typed.error?.details?.reason).toBe("not-editable")
        expect(typed.error?.message).toContain('<h2#heading> "A heading", not a field')
        expect(typed.error?.message).not.toContain("locator.")
        const { page } = yield* (yield* Browser.BrowserState).activePage
        expect(yield* Effect.promise(() => page.textContent("#heading"))).toBe("A heading")
      }))

    it.effect("select_option with a value no enabled option has: MM_SELECT_FAILED listing the options, the select unchanged", () =>
      Effect.gen(function* () {
        yield* open("/causes")
        const selected = yield* call(selectOption, { selector: "#size", values: ["Large"], timeoutMs: 60_000 })
        expect(selected.error?.code).toBe("MM_SELECT_FAILED")
        expect(selected.error?.message).toContain('no enabled option has the value or label "Large"')
        expect(selected.error?.message).toContain('"Small" (value "s"), "Medium" (value "m"), "Huge" (value "xl") disabled')
        // A disabled option is no choice either.
        expect((yield* call(selectOption, { selector: "#size", values: ["Huge"], timeoutMs: 60_000 })).error?.code).toBe("MM_SELECT_FAILED")
        const { page } = yield* (yield* Browser.BrowserState).activePage
        expect(yield* Effect.promise(() => page.inputValue("#size"))).toBe("s")
        // A value that is there still works.
        expect((yield* call(selectOption, { selector: "#size", values: ["Medium"] })).error).toBeUndefined()
        expect(yield* Effect.promise(() => page.inputValue("#size"))).toBe("m")
      }))

    it.effect("select_option on a selector that matches nothing on a still page: MM_TARGET_NOT_FOUND before its time runs out", () =>
      Effect.gen(function* () {
        yield* open("/causes")
        const selected = yield* call(selectOption, { selector: "#no-such-select", values: ["s"], timeoutMs: 60_000 })
        expect(selected.error?.code).toBe("MM_TARGET_NOT_FOUND")
        expect(selected.error?.message).toContain("with nothing loading")
      }))
  })

  describe("the answer shows what changed", () => {
    it.effect("a list reordered in place: the answer lists it in its new order; a day chosen by a class only: the answer shows it selected", () =>
      Effect.gen(function* () {
        yield* open("/reorder-and-marks")
        const move = yield* refOf("button", "Move Item 3 to the top")
        const moved = yield* callSeen(click, { a11yRef: move })
        expect(moved.envelope.error).toBeUndefined()
        expect(yield* widgetState).toMatchObject({ order: ["Item 3", "Item 1", "Item 2", "Item 4", "Item 5"] })
        const text = pageText(moved.envelope)
        expect(text, text).not.toContain("no change on the page")
        const items = ["Item 3", "Item 1", "Item 2", "Item 4", "Item 5"].map((item) => text.indexOf(`: ${item}`))
        expect(items.every((at) => at >= 0), text).toBe(true)
        expect([...items].sort((a, b) => a - b)).toEqual(items)
        // A day chosen by a class only, after a look at the page: the answer shows it, and not the list again.
        yield* call(accessibilitySnapshot, {})
        const chosen = yield* callSeen(click, { selector: "#days .day:nth-child(7)" })
        expect(yield* widgetState).toMatchObject({ selected: "7" })
        const after = pageText(chosen.envelope)
        expect(after, after).toMatch(/generic \[selected\] \[e\d+\]: 7/)
        expect(after).not.toContain("Item 1")
      }))
  })

  describe("the answer carries the page's errors", () => {
    it.effect("an error the page logs 50 ms after a click, with nothing else changing, is in that click's answer", () =>
      Effect.gen(function* () {
        yield* open("/reorder-and-marks")
        const save = yield* refOf("button", "Save")
        const saved = yield* callSeen(click, { a11yRef: save })
        expect(saved.envelope.error).toBeUndefined()
        expect(JSON.stringify(saved.envelope.console ?? []), saved.text).toContain("Saving failed: the server said no")
      }))
  })

  describe("typing as a person types", () => {
    it.effect("a filter that listens to keyup filters after type", () =>
      Effect.gen(function* () {
        yield* open("/keyup-filter")
        expect((yield* call(type, { selector: "#filter", text: "Bob" })).error).toBeUndefined()
        expect(yield* widgetState).toEqual({ visible: ["Bob"] })
      }))

    it.effect("a combobox that filters 300 ms after the last key: the answer to type already shows the filtered options", () =>
      Effect.gen(function* () {
        yield* open("/debounced-combobox")
        const typed = yield* callSeen(type, { selector: "#country", text: "Port" })
        expect(typed.envelope.error).toBeUndefined()
        expect(typed.text).toContain("Portugal")
        expect(typed.text).not.toContain("Spain")
      }))

    it.effect("a combobox that lists every option at the focus and filters 300 ms after the last key: the answer shows the filtered options", () =>
      Effect.gen(function* () {
        yield* open("/focus-combobox")
        const country = yield* refOf("combobox", "Country")
        const typed = yield* callSeen(type, { a11yRef: country, text: "Port" })
        expect(typed.envelope.error).toBeUndefined()
        expect(typed.text).toContain("Portugal")
        expect(typed.text).not.toContain("Spain")
      }))
  })
})
