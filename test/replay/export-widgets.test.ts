// The Playwright export passes where the session passed (issue 19): a native date input typed "04/20/2025"
// holds 2025-04-20 (a time input typed "2:30 PM" 14:30), and the export fills that (Playwright's fill of
// "04/20/2025" leaves a date input empty);
// a web component's switch (open shadow root, its native checkbox visually hidden under the drawn knob, a
// label) checked by its ref and unchecked by its host's selector is exported as a person's click on what
// takes it (Playwright's setChecked on the hidden input times out, "intercepts pointer events"; on the host
// it answers "Not a checkbox or radio button"), its state read back. The export runs under Playwright's runner.
// Real Chromium, pages served on 127.0.0.1 by the test.
import * as fs from "node:fs"
import * as path from "node:path"
import { expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option } from "effect"
import { Session } from "../../src/services/Session.js"
import { exportSession } from "../../src/tools/knowledge.js"
import { corpusServer } from "../page/corpus.js"
import { html, liveLayer, testSettings } from "../support/browser.js"
import { ok, refOf } from "../support/calls.js"
import { REPO_ROOT, runPlaywrightTests, writePlaywrightConfig } from "../support/playwright-runner.js"

/** A switch as web components draw one: a label in an open shadow root, its checkbox 1 px and transparent, a knob drawn over it. */
const darkSwitch = `<script>
  customElements.define("dark-switch", class extends HTMLElement {
    constructor() {
      super()
      const root = this.attachShadow({ mode: "open" })
      root.innerHTML = \`<style>
          label { position: relative; display: inline-flex; align-items: center; gap: 8px; cursor: pointer; font: 16px sans-serif }
          input { position: absolute; left: 4px; top: 4px; width: 1px; height: 1px; margin: 0; opacity: 0 }
          .track { position: relative; width: 40px; height: 22px; border-radius: 11px; background: #bbb }
          .knob { position: absolute; left: 2px; top: 2px; width: 18px; height: 18px; border-radius: 50%; background: white; z-index: 1 }
          input:checked + .track { background: #2a7 }
          input:checked + .track .knob { left: 20px }
        </style><label><input type="checkbox"><span class="track"><span class="knob"></span></span><span class="text"><slot></slot></span></label>\`
      this.input = root.querySelector("input")
      this.input.addEventListener("change", () => this.dispatchEvent(new Event("change", { bubbles: true })))
    }
    get checked() { return this.input.checked }
    set checked(value) { this.input.checked = value }
  })
</script>`

const pages = {
  "/settings": html(
    "Settings",
    `${darkSwitch}<label for="start">Start date</label> <input id="start" type="date" data-testid="start">
    <label for="at">At</label> <input id="at" type="time" data-testid="at">
    <p><dark-switch id="dark">Dark mode</dark-switch></p>
    <p>Theme: <span data-testid="theme">light</span></p>
    <script>
      const dark = document.getElementById("dark")
      dark.addEventListener("change", () => { document.querySelector("[data-testid=theme]").textContent = dark.checked ? "dark" : "light" })
    </script>`
  )
}

class Pages extends Context.Tag("test/ExportWidgetsPages")<Pages, { readonly url: string }>() {}

const PagesLive = Layer.scoped(Pages, Effect.map(corpusServer(pages), (server) => ({ url: server.url })))

layer(Layer.mergeAll(liveLayer(testSettings()), PagesLive), { timeout: 180_000, excludeTestServices: true })("the Playwright export of hard widgets", (it) => {
  it.effect("a date typed as a person writes it and a web component's switch export to a test that Playwright's runner passes", () =>
    Effect.gen(function* () {
      const { url } = yield* Pages
      yield* ok("launch", { force: true })
      yield* ok("navigate", { screen: "url", url: `${url}/settings` })

      // The date: typed as a person writes it, held in the input's own form.
      const typed = yield* ok("type", { testId: "start", text: "04/20/2025", param: "start" })
      expect(typed.result.value).toBe("2025-04-20")
      yield* ok("expect", { testId: "start", condition: "value", expected: "2025-04-20" })
      const time = yield* ok("type", { testId: "at", text: "2:30 PM" })
      expect(time.result.value).toBe("14:30")
      yield* ok("expect", { testId: "at", condition: "value", expected: "14:30" })

      // The switch: checked by its ref (the hidden native checkbox), unchecked by its host, checked again by its ref.
      const toggle = yield* refOf("checkbox", "Dark mode")
      yield* ok("set_checked", { a11yRef: toggle, checked: true })
      yield* ok("expect", { testId: "theme", condition: "text", expected: "dark" })
      yield* ok("set_checked", { selector: "#dark", checked: false })
      yield* ok("expect", { testId: "theme", condition: "text", expected: "light" })
      yield* ok("set_checked", { a11yRef: yield* refOf("checkbox", "Dark mode"), checked: true })
      yield* ok("expect", { testId: "theme", condition: "text", expected: "dark" })
      // A click on its ref toggles it, as a person's click on the switch does.
      yield* ok("click", { a11yRef: yield* refOf("checkbox", "Dark mode") })
      yield* ok("expect", { testId: "theme", condition: "text", expected: "light" })

      const session = yield* Session
      const exported = yield* exportSession(Option.getOrThrow(yield* session.current).sessionId, "playwright")
      const code = exported.content
      // A param's default is what the input took; its variable, when set, is filled as it is.
      expect(code).toContain('.fill((process.env["BWM_PARAM_START"] ?? "2025-04-20"))')
      expect(code).not.toContain('.fill("04/20/2025")')
      expect(code).toContain('.fill("14:30")')
      expect(code).toContain('await setCheckedAsAPerson(page.getByRole("checkbox", { name: "Dark mode", exact: true }), true)')
      expect(code).toContain("const setCheckedAsAPerson = async (target: Locator, checked: boolean) => {")
      expect(code).toContain('await clickAsAPerson(page.getByRole("checkbox", { name: "Dark mode", exact: true }))')

      // Playwright's own runner on the export, against the same page.
      fs.mkdirSync(path.join(REPO_ROOT, ".tmp"), { recursive: true })
      const dir = fs.mkdtempSync(path.join(REPO_ROOT, ".tmp", "pw-widgets-"))
      fs.writeFileSync(path.join(dir, "flow.spec.ts"), code)
      const run = yield* runPlaywrightTests(writePlaywrightConfig(dir, { testTimeoutMs: 30_000 })).pipe(
        Effect.ensuring(Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true })))
      )
      expect(run.output, `${code}\n${run.output}`).toContain("1 passed")
      expect(run.status).toBe(0)
    }))
})
