// A code editor whose input is a caret-sized element (issue 19: Monaco's EditContext element is a
// role="textbox" div 0 px wide and a line high, inside the editor a person sees): the page text shows it
// as a textbox with a ref, mm_type types into it, mm_click goes through the editor around it and
// succeeds only when the input took the focus. Real Chromium, a hand-written page on 127.0.0.1.
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import * as Browser from "../../src/adapters/playwright/lifecycle/browser.js"
import type { Envelope } from "../../src/domain/envelope.js"
import { runTool } from "../../src/runtime/runTool.js"
import type { AnyToolDefinition } from "../../src/runtime/tool.js"
import { Session } from "../../src/services/Session.js"
import { accessibilitySnapshot } from "../../src/tools/discovery.js"
import { click, type } from "../../src/tools/interaction.js"
import { navigate } from "../../src/tools/navigation.js"
import { launch } from "../../src/tools/session.js"
import { corpusServer } from "../page/corpus.js"
import { html, testSettings } from "../support/browser.js"
import { liveSessionLayer } from "../support/live-session.js"

class Pages extends Context.Tag("test/EditorPages")<Pages, { readonly url: string }>() {}

/**
 * The editor keeps its text and draws it in aria-hidden lines; its input takes keys (keydown), not DOM
 * edits. `focusing`: a press on the editor puts the focus in the input, as editors do; else it does nothing.
 */
const editorPage = (focusing: boolean) =>
  html(
    "Caret editor",
    `<h1>Script</h1>
     <div id="editor" style="position:relative;width:400px;height:100px;border:1px solid #999;font:14px monospace">
       <div id="input" role="textbox" aria-label="Code" aria-multiline="true" tabindex="0"
         style="position:absolute;left:8px;top:4px;width:0;height:18px;overflow:hidden;outline:none"></div>
       <div id="lines" aria-hidden="true" style="padding:4px 8px;white-space:pre">// old code</div>
     </div>
     <button id="other">Other</button>
     <script>
       let text = "// old code", all = false
       const input = document.getElementById("input"), lines = document.getElementById("lines")
       ${focusing ? `document.getElementById("editor").addEventListener("mousedown", (event) => { event.preventDefault(); input.focus() })` : ""}
       input.addEventListener("keydown", (event) => {
         if ((event.ctrlKey || event.metaKey) && event.key === "a") { all = true; event.preventDefault(); return }
         if (event.ctrlKey || event.metaKey || event.altKey) return
         if (all && (event.key.length === 1 || event.key === "Backspace" || event.key === "Delete")) { text = ""; all = false }
         if (event.key.length === 1) text += event.key
         else if (event.key === "Backspace") text = text.slice(0, -1)
         else return
         event.preventDefault()
         lines.textContent = text
       })
       window.widgetState = () => ({ text, focused: document.activeElement === input })
     </script>`
  )

const call = (tool: AnyToolDefinition, args: Record<string, unknown> = {}) =>
  Effect.map(runTool(tool)(args, { policy: "none" }), (response) => response.envelope as Envelope<any>)

const open = (path: string) =>
  Effect.gen(function* () {
    const { url } = yield* Pages
    if ((yield* (yield* Session).current)._tag === "None") expect((yield* call(launch, {})).ok).toBe(true)
    expect((yield* call(navigate, { screen: "url", url: `${url}${path}` })).ok).toBe(true)
  })

/** The editor's own state, read through Playwright (never from our answers). */
const editorState = Effect.gen(function* () {
  const { page } = yield* (yield* Browser.BrowserState).activePage
  return (yield* Effect.promise(() => page.evaluate("window.widgetState()"))) as { text: string; focused: boolean }
})

/** The ref of the page text's line for textbox "Code". */
const codeRef = Effect.gen(function* () {
  const answer = yield* call(accessibilitySnapshot, {})
  const snapshot = ((answer as any).snapshot ?? JSON.stringify(answer)) as string
  const line = snapshot.split("\n").find((candidate) => candidate.includes('textbox "Code"'))
  expect(line, snapshot).toMatch(/\[e\d+\]/)
  return line!.match(/\[(e\d+)\]/)![1]!
})

const settings = testSettings()

const live = liveSessionLayer(settings)

layer(
  Layer.merge(live, Layer.scoped(Pages, Effect.map(corpusServer({ "/editor": editorPage(true), "/dead-editor": editorPage(false) }), (server) => ({ url: server.url })))),
  { timeout: 180_000, excludeTestServices: true }
)("a code editor's caret-sized input", (it) => {
  describe("act where a person would", () => {
    it.effect("the page text shows it as textbox \"Code\" with a ref; type replaces the editor's text", () =>
      Effect.gen(function* () {
        yield* open("/editor")
        const code = yield* codeRef
        const typed = yield* call(type, { a11yRef: code, text: "let x = 1", timeoutMs: 10_000 })
        expect(typed.error).toBeUndefined()
        expect(yield* editorState).toEqual({ text: "let x = 1", focused: true })
      }))

    it.effect("a click on it goes through the editor around it and succeeds with the input focused", () =>
      Effect.gen(function* () {
        yield* open("/editor")
        const code = yield* codeRef
        expect((yield* call(click, { selector: "#other" })).error).toBeUndefined()
        expect((yield* editorState).focused).toBe(false)
        const clicked = yield* call(click, { a11yRef: code, timeoutMs: 10_000 })
        expect(clicked.error).toBeUndefined()
        expect(yield* editorState).toEqual({ text: "// old code", focused: true })
      }))

    it.effect("an editor whose surface takes no click: the click through it fails saying it had no effect, never success", () =>
      Effect.gen(function* () {
        yield* open("/dead-editor")
        const code = yield* codeRef
        const clicked = yield* call(click, { a11yRef: code, timeoutMs: 5_000 })
        expect(clicked.ok).toBe(false)
        expect(clicked.error?.message).toContain("had no effect")
        expect((yield* editorState).focused).toBe(false)
      }))
  })
})
