// Fail fast with the true reason (issue 19): every tool that takes a target answers a target that matches
// nothing on a quiet page with MM_TARGET_NOT_FOUND once the page has shown none for a while, not at its
// deadline; an unparsable selector is MM_INVALID_INPUT naming the field. The calls get a generous
// timeoutMs: the reason in the answer ("showed none", not "waited 30000 ms") proves it did not wait it out.
// Real Chromium, pages on 127.0.0.1.
import * as fs from "node:fs"
import * as path from "node:path"
import { expect, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { drag, scroll, setChecked, uploadFile } from "../../src/tools/gestures.js"
import { click, getText, hover, pressKey, selectOption, type, waitFor } from "../../src/tools/interaction.js"
import { expectTool } from "../../src/tools/assertions.js"
import { evaluate } from "../../src/tools/evaluate.js"
import { find } from "../../src/tools/find.js"
import { navigate } from "../../src/tools/navigation.js"
import { cleanup, launch } from "../../src/tools/session.js"
import { html, liveLayer, pageServer, testSettings } from "../support/browser.js"
import { call, codeOf } from "./support.js"

class Pages extends Context.Tag("test/FailFastPages")<Pages, { readonly url: (path: string) => string }>() {}

const PagesLive = Layer.scoped(
  Pages,
  Effect.map(
    pageServer({
      "/quiet": html(
        "Quiet",
        `<p id="here">Here</p>
         <input id="field" aria-label="Field">
         <div id="none" style="display:none">Invalid password</div>
         <section style="display:none"><p id="inside">Inside a hidden section</p></section>
         <p id="invisible" style="visibility:hidden">Invisible</p>
         <div id="flat" style="height:0;overflow:hidden">Clipped away</div>
         <div id="spill" style="height:0">Spills out in view</div>
         <p id="partly">Shown <span style="display:none">not shown</span></p>
         <input id="secret-field" type="hidden" value="token-123">
         <button id="late" onclick="setTimeout(() => { const p = document.createElement('p'); p.id = 'arrived'; p.textContent = 'Arrived'; document.body.append(p) }, 400)">Later</button>`
      ),
      // Still busy (a ticking count): a target it does not show yet may still come.
      "/busy": html("Busy", `<p id="here">Loading <span id="tick">0</span></p><script>setInterval(() => tick.textContent = Number(tick.textContent) + 1, 100)</script>`),
      // Each cause an action cannot get past (ids name them), and two it can: a box that scrolls its target into view, a target that moves, then settles.
      "/causes": html(
        "Causes",
        `<p id="out">none</p>
         <button class="same">Save</button><button class="same">Save</button><button class="same">Save</button>
         <label><input id="agree" type="checkbox" disabled> Agree</label>
         <input id="stamp" readonly value="2025-03-14" aria-label="Stamp">
         <button id="menu-item" style="display:none">Hidden item</button>
         <div style="position:relative;width:220px"><button id="veiled" onclick="document.getElementById('out').textContent = 'veiled'">Under a banner</button>
           <div id="veil" class="cookie-banner" style="position:absolute;inset:0;background:rgba(0,0,0,.3)">Accept cookies?</div></div>
         <div id="cut" style="width:200px;height:30px;overflow:clip;position:relative"><button id="below" style="position:absolute;top:80px">Cut off</button></div>
         <div id="box" style="height:60px;width:220px;overflow:auto"><div style="height:400px"></div><button id="deep" onmouseover="document.getElementById('out').textContent = 'deep'">Deep</button></div>
         <button id="leaving">Leaving</button><button id="remove" onclick="document.getElementById('leaving').remove()">Remove it</button>
         <button id="start" onclick="document.getElementById('mover').classList.add('go')">Start moving</button>
         <style>@keyframes slide { from { transform: translateX(0) } to { transform: translateX(200px) } } .go { animation: slide 600ms ease-out forwards }</style>
         <button id="mover" onclick="document.getElementById('out').textContent = 'caught'">Catch me</button>
         <button id="slider" style="position:fixed;left:-300px;top:40px" onclick="document.getElementById('out').textContent = 'slid'">Slides in</button>`
      )
    }),
    (server) => ({ url: (p: string) => `${server.url}${p}` })
  )
)

const settings = testSettings()
/** Generous: an answer with the right reason proves the call did not wait this long. */
const LONG = 30_000

/** A new session on the quiet page every test starts from. */
const openQuiet = Effect.gen(function* () {
  const { url } = yield* Pages
  expect(codeOf(yield* call(launch, { force: true }))).toBe("ok")
  expect(codeOf(yield* call(navigate, { screen: "url", url: url("/quiet") }))).toBe("ok")
})

layer(Layer.merge(liveLayer(settings), PagesLive), { timeout: 240_000, excludeTestServices: true })("fail fast with the true reason", (it) => {
  it.effect("every tool that takes a target answers a target that matches nothing on a quiet page with MM_TARGET_NOT_FOUND, not at its deadline", () =>
    Effect.gen(function* () {
      yield* openQuiet
      const file = path.join(settings.artifactsDir, "note.txt")
      fs.writeFileSync(file, "note")
      const missing = { selector: "#nope", timeoutMs: LONG }
      const attempts = [
        [getText, missing],
        [getText, { ...missing, all: true }],
        [pressKey, { ...missing, key: "Enter" }],
        [hover, missing],
        [selectOption, { ...missing, values: ["a"] }],
        [setChecked, { ...missing, checked: true }],
        [uploadFile, { ...missing, paths: [file] }],
        [drag, { ...missing, to: { selector: "#here" } }],
        [scroll, missing],
        [click, missing],
        [type, { ...missing, text: "x" }],
        [getText, { testId: "nope", timeoutMs: LONG }],
        [pressKey, { testId: "nope", key: "Enter", timeoutMs: LONG }]
      ] as const
      for (const [tool, args] of attempts) {
        const answered = yield* call(tool, args)
        const label = `${tool.name} ${JSON.stringify(args)}: ${answered.error?.message}`
        expect(answered.error?.code, label).toBe("MM_TARGET_NOT_FOUND")
        // Decided from what the page showed (nothing, with nothing on its way), not from the clock running out.
        expect(answered.error?.message, label).toMatch(/showed none/)
      }
      expect(codeOf(yield* call(cleanup))).toBe("ok")
    }))

  it.effect("an action that cannot succeed answers with its true reason: several matches, disabled, read-only, hidden, covered by which element, clipped, a ref whose element left", () =>
    Effect.gen(function* () {
      const { url } = yield* Pages
      expect(codeOf(yield* call(launch, { force: true }))).toBe("ok")
      expect(codeOf(yield* call(navigate, { screen: "url", url: url("/causes") }))).toBe("ok")
      const leaving = yield* call(find, { name: "Leaving" })
      const ref = /\[(e\d+)\]/.exec(JSON.stringify(leaving))?.[1]
      expect(ref, JSON.stringify(leaving)).toBeDefined()
      const attempts = [
        [click, { selector: "button.same" }, "MM_TARGET_AMBIGUOUS", /e\d+ button "Save", e\d+ button "Save", e\d+ button "Save"/],
        [setChecked, { selector: "#agree", checked: true }, "MM_TARGET_DISABLED", /it is disabled/],
        [type, { selector: "#stamp", text: "2025-04-01" }, "MM_TARGET_NOT_EDITABLE", /read-only/],
        [hover, { selector: "#menu-item" }, "MM_TARGET_NOT_FOUND", /not visible: display:none on it/],
        [click, { selector: "#veiled" }, "MM_CLICK_TIMEOUT", /covered by <div#veil class="cookie-banner"> "Accept cookies\?"/],
        [hover, { selector: "#veiled" }, "MM_HOVER_TIMEOUT", /covered by <div#veil/],
        [click, { selector: "#below" }, "MM_CLICK_TIMEOUT", /clipped by div#cut around it \(overflow: clip\)/]
      ] as const
      for (const [tool, args, code, says] of attempts) {
        const answered = yield* call(tool, { ...args, timeoutMs: LONG })
        const label = `${tool.name} ${JSON.stringify(args)}: ${answered.error?.message}`
        expect(answered.error?.code, label).toBe(code)
        expect(answered.error?.message, label).toMatch(says)
        // Said from what the page shows, not from the clock running out.
        expect(answered.error?.message, label).not.toMatch(/hidden, disabled, covered or moving|waited \d+ ms/)
      }
      // A ref whose element left the page.
      expect(codeOf(yield* call(click, { selector: "#remove" }))).toBe("ok")
      const gone = yield* call(click, { a11yRef: ref, timeoutMs: LONG })
      expect(gone.error?.code, gone.error?.message).toBe("MM_TARGET_NOT_FOUND")
      expect(gone.error?.message).toMatch(/left the page|no longer in the page/)
      // No element was acted on by any of them.
      expect((yield* call(getText, { selector: "#out" })).result.text).toBe("none")
      expect(codeOf(yield* call(cleanup))).toBe("ok")
    }))

  it.effect("what can still change is waited for: a target a scroll box brings into view, one that moves and then settles, one a script slides in, one that appears", () =>
    Effect.gen(function* () {
      const { url } = yield* Pages
      expect(codeOf(yield* call(launch, { force: true }))).toBe("ok")
      expect(codeOf(yield* call(navigate, { screen: "url", url: url("/causes") }))).toBe("ok")
      // Clipped by its scroll box now; Playwright's hover scrolls it into view.
      const deep = yield* call(hover, { selector: "#deep", timeoutMs: LONG })
      expect(codeOf(deep), deep.error?.message).toBe("ok")
      expect((yield* call(getText, { selector: "#out" })).result.text).toBe("deep")
      expect(codeOf(yield* call(click, { selector: "#start" }, { policy: "none" }))).toBe("ok")
      const caught = yield* call(click, { selector: "#mover", timeoutMs: LONG }, { policy: "none" })
      expect(codeOf(caught), caught.error?.message).toBe("ok")
      expect((yield* call(getText, { selector: "#out" })).result.text).toBe("caught")
      // A script slides it in from off-screen through its inline style, frame by frame, over 2.5 s, and nothing
      // else changes: a second into it the DOM looks quiet to settling, but what it shows is still moving.
      const slide = `(() => { const b = document.getElementById('slider'); const t0 = performance.now(); const step = (t) => { const p = Math.min(1, (t - t0) / 2500); b.style.left = (-300 + 320 * p) + 'px'; if (p < 1) requestAnimationFrame(step) }; requestAnimationFrame(step) })()`
      expect(codeOf(yield* call(evaluate, { expression: slide }, { policy: "none" }))).toBe("ok")
      yield* Effect.sleep("1200 millis")
      const slid = yield* call(click, { selector: "#slider", timeoutMs: LONG }, { policy: "none" })
      expect(codeOf(slid), slid.error?.message).toBe("ok")
      expect((yield* call(getText, { selector: "#out" })).result.text).toBe("slid")
      yield* openQuiet
      expect(codeOf(yield* call(click, { selector: "#late" }, { policy: "none" }))).toBe("ok")
      const arrived = yield* call(click, { selector: "#arrived", timeoutMs: LONG }, { policy: "none" })
      expect(codeOf(arrived), arrived.error?.message).toBe("ok")
      expect(codeOf(yield* call(cleanup))).toBe("ok")
    }))

  it.effect("a target that matches nothing yet is waited for as before: one a quiet page brings 400 ms into the click (its DOM quiet for a second, no input behind it), one a busy page brings 3 s later", () =>
    Effect.gen(function* () {
      const { url } = yield* Pages
      /** Schedules, from no input of a person's, a button that marks #here when clicked. */
      const bring = (id: string, afterMs: number) =>
        call(
          evaluate,
          { expression: `setTimeout(() => { const b = document.createElement('button'); b.id = '${id}'; b.textContent = 'Brought'; b.onclick = () => { document.getElementById('here').textContent = '${id}' }; document.body.append(b) }, ${afterMs})` },
          { policy: "none" }
        )
      yield* openQuiet
      expect(codeOf(yield* bring("brought", 1_400))).toBe("ok")
      // A second of a quiet DOM before the click: what the page shows says nothing of the timer that brings the target.
      yield* Effect.sleep("1 second")
      const brought = yield* call(click, { selector: "#brought", timeoutMs: LONG }, { policy: "none" })
      expect(codeOf(brought), brought.error?.message).toBe("ok")
      expect((yield* call(getText, { selector: "#here" })).result.text).toBe("brought")
      expect(codeOf(yield* call(navigate, { screen: "url", url: url("/busy") }))).toBe("ok")
      expect(codeOf(yield* bring("later", 3_000))).toBe("ok")
      const later = yield* call(click, { selector: "#later", timeoutMs: LONG }, { policy: "none" })
      expect(codeOf(later), later.error?.message).toBe("ok")
      expect((yield* call(getText, { selector: "#here" })).result.text).toBe("later")
      expect(codeOf(yield* call(cleanup))).toBe("ok")
    }))

  it.effect("a target the page is still bringing is waited for: get_text reads an element added 400 ms after a click", () =>
    Effect.gen(function* () {
      yield* openQuiet
      expect(codeOf(yield* call(click, { selector: "#late" }))).toBe("ok")
      const read = yield* call(getText, { selector: "#arrived", timeoutMs: LONG })
      expect(codeOf(read), read.error?.message).toBe("ok")
      expect(read.result.text).toBe("Arrived")
      expect(codeOf(yield* call(cleanup))).toBe("ok")
    }))

  it.effect("get_text of an element nobody sees reads empty and says how it is hidden; what shows reads as shown", () =>
    Effect.gen(function* () {
      yield* openQuiet
      const hidden = [
        ["#none", /display:none on it/],
        ["#inside", /display:none on section around it/],
        ["#invisible", /visibility:hidden on it/],
        ["#flat", /no size/],
        ["#secret-field", /display:none on it/]
      ] as const
      for (const [selector, how] of hidden) {
        const read = yield* call(getText, { selector, timeoutMs: LONG })
        expect(codeOf(read), `${selector}: ${read.error?.message}`).toBe("ok")
        expect(read.result.text, selector).toBe("")
        expect(read.result.hidden, selector).toMatch(how)
      }
      const shown = [
        ["#partly", "Shown"],
        ["#spill", "Spills out in view"],
        ["#here", "Here"]
      ] as const
      for (const [selector, text] of shown) {
        const read = yield* call(getText, { selector, timeoutMs: LONG })
        expect(codeOf(read), `${selector}: ${read.error?.message}`).toBe("ok")
        expect(read.result.text.trim(), selector).toBe(text)
        // No field for what is not there.
        expect(read.result, selector).not.toHaveProperty("hidden")
      }
      expect(codeOf(yield* call(cleanup))).toBe("ok")
    }))

  it.effect("an unparsable selector is MM_INVALID_INPUT naming the field and what is wrong, for every tool that takes one", () =>
    Effect.gen(function* () {
      yield* openQuiet
      const file = path.join(settings.artifactsDir, "note.txt")
      fs.writeFileSync(file, "note")
      const bad = (selector: string) => ({ selector, timeoutMs: LONG })
      const attempts = [
        [click, bad("div[[[")],
        [click, bad("nosuchengine=Buy")],
        [type, { ...bad("div[[["), text: "x" }],
        [getText, bad("div[[[")],
        [getText, { ...bad("xpath=//["), all: true }],
        [pressKey, { ...bad("div[[["), key: "Enter" }],
        [hover, bad("div[[[")],
        [selectOption, { ...bad("div[[["), values: ["a"] }],
        [setChecked, { ...bad("div[[["), checked: true }],
        [uploadFile, { ...bad("div[[["), paths: [file] }],
        [drag, { ...bad("div[[["), to: { selector: "#here" } }],
        [scroll, bad("div[[[")],
        [waitFor, bad("div[[[")],
        [expectTool, { ...bad("div[[["), condition: "visible" }]
      ] as const
      for (const [tool, args] of attempts) {
        const answered = yield* call(tool, args)
        const label = `${tool.name} ${JSON.stringify(args)}: ${answered.error?.message}`
        expect(answered.error?.code, label).toBe("MM_INVALID_INPUT")
        expect(answered.error?.message, label).toMatch(/"selector"/)
        expect(answered.error?.message, label).toMatch(/not a valid selector|parsing|Unknown engine|XPath/i)
      }
      // The drop target's selector and a scope's are named as such.
      const dropped = yield* call(drag, { selector: "#here", to: { selector: "div[[[" }, timeoutMs: LONG })
      expect(dropped.error?.code, dropped.error?.message).toBe("MM_INVALID_INPUT")
      expect(dropped.error?.message).toMatch(/"to\.selector"/)
      const scoped = yield* call(getText, { selector: "p", within: { selector: "div[[[" }, timeoutMs: LONG })
      expect(scoped.error?.code, scoped.error?.message).toBe("MM_INVALID_INPUT")
      expect(scoped.error?.message).toMatch(/"within\.selector"/)
      expect(codeOf(yield* call(cleanup))).toBe("ok")
    }))
})
