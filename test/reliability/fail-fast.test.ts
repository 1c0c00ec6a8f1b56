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
