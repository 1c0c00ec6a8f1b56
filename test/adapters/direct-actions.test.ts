// Click, type and wait_for act directly when the page says the target is ready, and hand anything
// unusual to Playwright. These pages put each edge in the way: covers, labels, disabled and moving
// buttons, text field kinds, shadow roots and text selectors, in real Chromium on 127.0.0.1.
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { runTool, type RunOptions } from "../../src/runtime/runTool.js"
import type { AnyToolDefinition } from "../../src/runtime/tool.js"
import { targetOf } from "../../src/domain/target.js"
import { KnowledgeStore } from "../../src/services/KnowledgeStore.js"
import { Observer } from "../../src/services/Observer.js"
import { Session } from "../../src/services/Session.js"
import { accessibilitySnapshot } from "../../src/tools/discovery.js"
import { click, getText, hover, pressKey, selectOption, type, waitFor } from "../../src/tools/interaction.js"
import { navigate } from "../../src/tools/navigation.js"
import { launch } from "../../src/tools/session.js"
import { html, liveLayer, pageServer, testSettings, readable } from "../support/browser.js"

// Each click handler counts into #log as "name=count"; get_text reads it back.
const counter = `<p id="log" role="status" data-testid="log" style="height:1.5em"></p>
<script>
  const counts = {}
  const count = (name) => {
    counts[name] = (counts[name] ?? 0) + 1
    document.getElementById("log").textContent = Object.entries(counts).map(([k, v]) => k + "=" + v).join(" ")
  }
</script>`

const pages = {
  "/guarded": html(
    "Guarded",
    `${counter}
     <button data-testid="plain" onmousedown="if (Object.getOwnPropertySymbols(window).some((key) => String(key).includes('browser-workflow-mcp'))) count('seen')" onclick="count('plain')">Plain</button>
     <button data-testid="shy" onclick="count('shy')" style="margin-top:40px">Shy</button>
     <div id="cover" onclick="count('cover')" onpointerdown="count('coverdown')" style="display:none;position:fixed;inset:0;background:rgba(0,0,0,.2)"></div>
     <script>
       // The first time the pointer reaches Shy, a cover drops over the page for 400 ms.
       let covered = false
       document.querySelector("[data-testid=shy]").addEventListener("pointermove", () => {
         if (covered) return
         covered = true
         const cover = document.getElementById("cover")
         cover.style.display = "block"
         setTimeout(() => { cover.style.display = "none" }, 400)
       })
     </script>
     <input type="checkbox" id="agree" onclick="count('agree')"><label for="agree" data-testid="agree-label">I agree</label>
     <button data-testid="retitle" onclick="document.title = 'Retitled'">Retitle</button>
     <a data-testid="away" href="/waiting">Away</a>`
  ),
  "/waiting": html(
    "Waiting",
    `${counter}
     <button data-testid="arm" onclick="setTimeout(() => { document.querySelector('[data-testid=later]').disabled = false }, 300); document.querySelector('[data-testid=slide]').style.transform = 'translateX(200px)'">Arm</button>
     <button data-testid="later" disabled onclick="count('later')">Later</button>
     <button data-testid="slide" style="transition: transform 400ms linear" onclick="count('slide')">Slide</button>`
  ),
  "/frozen": html(
    "Frozen",
    `${counter}
     <button data-testid="frozen" onclick="count('frozen')">Frozen</button>
     <script>
       // As a page under a fake clock: animation frames and timers never fire.
       window.requestAnimationFrame = () => 0
       window.setTimeout = () => 0
     </script>`
  ),
  "/framed": html(
    "Framed",
    `<div style="height:1500px">Spacer</div>
     <iframe id="pay" title="Payment" src="/inner" style="border:7px solid #888;padding:5px;margin-left:40px;width:500px;height:300px"></iframe>
     <button id="drop-frame" onclick="document.getElementById('pay').remove()">Drop the frame</button>`
  ),
  "/inner": html(
    "Inner",
    `${counter}
     <label>Card <input id="card"></label>
     <button onmousedown="if (Object.getOwnPropertySymbols(window.top).some((key) => String(key).includes('browser-workflow-mcp'))) count('seen')" onclick="count('pay'); setTimeout(() => { document.getElementById('confirm').disabled = false }, 300)">Pay now</button>
     <button id="confirm" disabled onclick="count('confirm')">Confirm</button>`
  ),
  "/controls": html(
    "Controls",
    `${counter}
     <form onsubmit="event.preventDefault(); count('submitted:' + this.q.value)"><input name="q" data-testid="q" aria-label="Search"></form>
     <label>Country <select data-testid="country"><option value="fr">France</option><option value="de">Germany</option></select></label>
     <label>Toppings <select data-testid="toppings" multiple><option value="ham">Ham</option><option value="egg">Egg</option><option value="kale">Kale</option></select></label>
     <label>Secret <input type="password" data-testid="secret"></label>
     <p data-testid="note">A note</p>
     <div id="menu-root" style="display:inline-block"><button data-testid="menu">Menu</button>
       <ul id="menu" hidden><li><a href="#settings" data-testid="menu-settings">Settings</a></li></ul></div>
     <script>
       const root = document.getElementById("menu-root")
       root.addEventListener("mouseenter", () => { document.getElementById("menu").hidden = false })
       root.addEventListener("mouseleave", () => { document.getElementById("menu").hidden = true })
     </script>
     <button data-testid="delete" onclick="count(confirm('Delete item?') ? 'deleted' : 'kept')">Delete</button>
     <button data-testid="ask" onclick="count('name:' + prompt('Your name?'))">Ask</button>
     <button data-testid="warn" onclick="alert('Saved')">Warn</button>
     <button data-testid="later-confirm" onclick="setTimeout(() => count(confirm('Really?') ? 'really' : 'not really'), 100)">Later</button>
     <a href="/fields" data-testid="to-fields">Fields</a>
     <a href="/waiting?delay=700" data-testid="to-slow">Slow page</a>
     <button data-testid="arm-wrapped" onclick="setTimeout(() => { document.querySelector('[data-testid=wrapped]').disabled = false }, 300)">Arm</button>
     <button data-testid="wrapped" disabled onclick="count('wrapped')"><span data-testid="wrapped-label">Submit</span></button>
     <div id="outer-host"></div>
     <script>
       const outer = document.getElementById("outer-host").attachShadow({ mode: "open" })
       outer.innerHTML = '<div id="inner-host"></div>'
       outer.getElementById("inner-host").attachShadow({ mode: "open" }).innerHTML = '<p data-testid="spinner">Loading</p>'
     </script>`
  ),
  "/fields": html(
    "Fields",
    `<input data-testid="email" type="email" value="old@example.test">
     <input data-testid="search" type="search" value="old search">
     <textarea data-testid="notes">old
notes</textarea>
     <div data-testid="editable" contenteditable="true">old text</div>
     <input data-testid="locked" readonly value="locked">
     <p>Twice here</p><p>Twice there</p>`
  ),
  "/shadow": html(
    "Shadow",
    `${counter}
     <div id="host"></div>
     <p>Ready to go</p>
     <p>Twice here</p><p>Twice there</p>
     <p data-testid="gone" style="display:none">Gone</p>
     <script>
       const root = document.getElementById("host").attachShadow({ mode: "open" })
       root.innerHTML = '<button data-testid="inner">Inner</button>'
       root.querySelector("button").addEventListener("click", () => count("inner"))
     </script>`
  )
}

class Pages extends Context.Tag("test/DirectPages")<Pages, { readonly url: (path: string) => string }>() {}

const PagesLive = Layer.scoped(
  Pages,
  Effect.map(pageServer(pages), (server) => ({ url: (p: string) => `${server.url}${p}` }))
)

const call = (tool: AnyToolDefinition, args: Record<string, unknown> = {}, options: RunOptions = {}) =>
  Effect.map(runTool(tool)(args, options), (response) => readable(response))

const open = (p: string) =>
  Effect.gen(function* () {
    const { url } = yield* Pages
    const current = yield* (yield* Session).current
    if (current._tag === "None") expect((yield* call(launch, {})).ok).toBe(true)
    expect((yield* call(navigate, { screen: "url", url: url(p) })).ok).toBe(true)
  })

const log = Effect.map(call(getText, { testId: "log" }), (envelope) => envelope.result.text as string)

layer(Layer.merge(liveLayer(testSettings()), PagesLive), { timeout: 120_000, excludeTestServices: true })(
  "direct actions in real Chromium",
  (it) => {
    describe("click", () => {
      it.effect("a ready button gets real mouse events once; the page sees nothing of ours (registry, guard)", () =>
        Effect.gen(function* () {
          yield* open("/guarded")
          yield* call(accessibilitySnapshot, {})
          expect((yield* call(click, { testId: "plain" })).ok).toBe(true)
          expect(yield* log).toBe("plain=1")
        }))

      it.effect("a cover that drops when the pointer arrives gets no event; the click lands once it lifts", () =>
        Effect.gen(function* () {
          yield* open("/guarded")
          expect((yield* call(click, { testId: "shy", timeoutMs: 5_000 })).ok).toBe(true)
          expect(yield* log).toBe("shy=1")
        }))

      it.effect("a label checks its checkbox once: the click the browser forwards to the box is not blocked", () =>
        Effect.gen(function* () {
          yield* open("/guarded")
          expect((yield* call(click, { testId: "agree-label" })).ok).toBe(true)
          expect(yield* log).toBe("agree=1")
        }))

      it.effect("a disabled button is clicked once enabled, a sliding one once it stops", () =>
        Effect.gen(function* () {
          yield* open("/waiting")
          expect((yield* call(click, { testId: "arm" })).ok).toBe(true)
          expect((yield* call(click, { testId: "later", timeoutMs: 5_000 })).ok).toBe(true)
          expect((yield* call(click, { testId: "slide", timeoutMs: 5_000 })).ok).toBe(true)
          expect(yield* log).toBe("later=1 slide=1")
        }))

      it.effect("the state after a click is the page's as the click left it, also when the click navigated", () =>
        Effect.gen(function* () {
          yield* open("/guarded")
          const retitled = yield* call(click, { testId: "retitle" }, { policy: "none" })
          expect(retitled.observation?.state).toMatchObject({ title: "Retitled", isLoaded: true })
          const waited = yield* call(waitFor, { testId: "retitle" }, { policy: "none" })
          expect(waited.observation?.state.title).toBe("Retitled")
          const away = yield* call(click, { testId: "away" }, { policy: "none" })
          expect(away.ok).toBe(true)
          expect((yield* call(waitFor, { testId: "arm" }, { policy: "none" })).observation?.state).toMatchObject({
            title: "Waiting",
            currentUrl: expect.stringMatching(/\/waiting$/)
          })
        }))

      it.effect("a library user may click before anything observed the page; the observation afterwards is whole", () =>
        Effect.gen(function* () {
          yield* open("/guarded")
          const { url } = yield* Pages
          const session = yield* Session
          yield* session.navigate({ screen: "url", url: url("/guarded") }, { timeoutMs: 10_000 })
          yield* session.click(targetOf({ testId: "plain" }), { timeoutMs: 5_000 })
          yield* session.click(targetOf({ testId: "retitle" }), { timeoutMs: 5_000 })
          const observation = yield* (yield* Observer).observe({ testIds: true, a11y: true })
          expect(observation.state.title).toBe("Retitled")
          expect(observation.a11y?.nodes.some((node) => node.role === "button" && node.name === "Plain")).toBe(true)
        }))

      it.effect("a page whose timers never fire still gets its click, through Playwright", () =>
        Effect.gen(function* () {
          yield* open("/frozen")
          expect((yield* call(click, { testId: "frozen" })).ok).toBe(true)
          expect(yield* log).toBe("frozen=1")
        }))

      it.effect("a test id inside an open shadow root is found and clicked", () =>
        Effect.gen(function* () {
          yield* open("/shadow")
          expect((yield* call(click, { testId: "inner" })).ok).toBe(true)
          expect(yield* log).toBe("inner=1")
        }))
    })

    describe("same-origin iframes", () => {
      it.effect("nodes inside are observed with refs; click, type, read and wait act on them, directly or through Playwright", () =>
        Effect.gen(function* () {
          yield* open("/framed")
          const observer = yield* Observer
          const snapshot = yield* call(accessibilitySnapshot, {})
          // The frame is a node of the text, with its content below it.
          expect(snapshot.snapshot).toMatch(/\niframe "Payment" \[e\d+\]\n(  .*\n)*  button "Pay now" \[e\d+\]/)
          const nodes = (yield* observer.accessibility({})).nodes
          const byName = (name: string) => nodes.find((node) => node.name === name)!
          expect(byName("Pay now")).toMatchObject({ role: "button", path: ["iframe: Payment"] })
          expect(byName("Card")).toMatchObject({ role: "textbox", path: ["iframe: Payment"] })

          // Below the fold, inside a frame with a border and padding: the click lands on the button.
          expect((yield* call(click, { a11yRef: byName("Pay now").ref })).ok).toBe(true)
          // Confirm is disabled for 300 ms more: Playwright waits for it inside the frame.
          expect((yield* call(click, { a11yRef: byName("Confirm").ref, timeoutMs: 5_000 })).ok).toBe(true)
          expect((yield* call(type, { a11yRef: byName("Card").ref, text: "4242" })).ok).toBe(true)
          expect((yield* call(getText, { a11yRef: byName("Card").ref })).result.text).toBe("4242")
          const after = (yield* observer.accessibility({})).nodes
          expect(after.find((node) => node.role === "status")).toMatchObject({ text: "pay=1 confirm=1", path: ["iframe: Payment"] })
          expect((yield* call(waitFor, { a11yRef: byName("Pay now").ref })).ok).toBe(true)

          // A scope in the top document cannot hold a target inside the frame.
          const heading = nodes.find((node) => node.role === "button" && node.name === "Drop the frame")!
          const mixed = yield* call(click, { a11yRef: byName("Pay now").ref, within: { a11yRef: heading.ref }, timeoutMs: 300 })
          expect(mixed.error?.code).toBe("MM_TARGET_NOT_FOUND")
          expect(mixed.error?.message).toContain("different frames")

          yield* call(click, { selector: "#drop-frame" })
          const stale = yield* call(click, { a11yRef: byName("Pay now").ref, timeoutMs: 300 })
          expect(stale.error?.code).toBe("MM_TARGET_NOT_FOUND")
          expect((yield* call(waitFor, { a11yRef: byName("Card").ref, state: "hidden" })).ok).toBe(true)
        }))
    })

    describe("keys, options, hover and history", () => {
      it.effect("Enter submits the focused field, options are chosen by value or label, hover opens a menu", () =>
        Effect.gen(function* () {
          yield* open("/controls")
          expect((yield* call(type, { testId: "q", text: "shoes" })).ok).toBe(true)
          expect((yield* call(pressKey, { key: "Enter" })).result).toEqual({ pressed: true })
          expect(yield* log).toBe("submitted:shoes=1")
          expect((yield* call(pressKey, { testId: "q", key: "Enter" })).result).toEqual({ pressed: true })
          expect(yield* log).toBe("submitted:shoes=2")
          // A paragraph cannot take the focus: the key is refused rather than sent to the field that has it.
          const onNote = yield* call(pressKey, { testId: "note", key: "a", timeoutMs: 1_000 })
          expect(onNote.error?.code).toBe("MM_PRESS_KEY_FAILED")
          expect(onNote.error?.message).toContain("cannot take the keyboard focus")
          expect((yield* call(getText, { testId: "q" })).result.text).toBe("shoes")

          expect((yield* call(selectOption, { testId: "country", values: ["Germany"] })).result.selected).toEqual(["de"])
          // A select reads as it shows: its chosen option's label.
          expect((yield* call(getText, { testId: "country" })).result.text).toBe("Germany")
          expect((yield* call(selectOption, { testId: "toppings", values: ["egg", "Kale"] })).result.selected).toEqual(["egg", "kale"])
          const missing = yield* call(selectOption, { testId: "country", values: ["Atlantis"], timeoutMs: 5_000 })
          expect(missing.error?.code).toBe("MM_SELECT_FAILED")
          expect(missing.error?.message).toContain('no enabled option has the value or label "Atlantis"; the options are "France" (value "fr"), "Germany" (value "de")')

          expect((yield* call(waitFor, { testId: "menu-settings", state: "hidden" })).ok).toBe(true)
          const hovered = yield* call(hover, { testId: "menu" })
          expect(hovered.result).toEqual({ hovered: true })
          expect(hovered.observation?.testIds?.map((item: { testId: string }) => item.testId)).toContain("menu-settings")
        }))

      it.effect("dialogs an action opens are dismissed with a notice, or answered as the action asks; a prompt's answer is not stored", () =>
        Effect.gen(function* () {
          yield* open("/controls")
          const kept = yield* call(click, { testId: "delete" })
          expect(kept.ok).toBe(true)
          expect(kept.notices).toEqual([
            'A confirm dialog was dismissed (page text: "Delete item?"). To accept it, pass dialog: {"accept": true} (and promptText for a prompt) to the click, key, type, select or hover that opens it.'
          ])
          expect((yield* call(click, { testId: "delete", dialog: { accept: true } })).notices?.[0]).toBe('A confirm dialog was accepted (page text: "Delete item?").')
          expect((yield* call(click, { testId: "ask", dialog: { accept: true, promptText: "Ada" } })).ok).toBe(true)
          expect((yield* call(click, { testId: "warn" })).notices).toEqual(['An alert dialog was dismissed (page text: "Saved").'])
          expect(yield* log).toBe("kept=1 deleted=1 name:Ada=1")
          // A confirm that comes after the click returned (a fetch, a timer) still gets the click's answer.
          expect((yield* call(click, { testId: "later-confirm", dialog: { accept: true } })).ok).toBe(true)
          expect((yield* call(waitFor, { selector: "text=really=1" })).ok).toBe(true)
          expect(yield* log).toBe("kept=1 deleted=1 name:Ada=1 really=1")

          const current = yield* (yield* Session).current
          const steps = yield* (yield* KnowledgeStore).steps(current._tag === "Some" ? current.value.sessionId : "")
          const asked = steps.find((step) => step.tool.name === "click" && step.tool.target?.testId === "ask")
          expect(asked?.tool.input).toMatchObject({ dialog: { accept: true, promptText: "[REDACTED]" } })
          // The page shows the name (its own business); the step's input never holds it.
          expect(JSON.stringify(asked?.tool)).not.toContain("Ada")
        }))

      it.effect("a character pressed in a password field is not stored, a named key is", () =>
        Effect.gen(function* () {
          yield* open("/controls")
          expect((yield* call(pressKey, { testId: "secret", key: "x" })).result.sensitive).toBe(true)
          expect((yield* call(pressKey, { testId: "secret", key: "Digit5" })).ok).toBe(true)
          expect((yield* call(pressKey, { testId: "secret", key: "Tab" })).ok).toBe(true)
          const current = yield* (yield* Session).current
          const sessionId = current._tag === "Some" ? current.value.sessionId : ""
          const steps = yield* (yield* KnowledgeStore).steps(sessionId)
          const presses = steps.filter((step) => step.tool.name === "press_key").slice(-3)
          expect(presses.map((step) => step.tool.input.key)).toEqual(["[REDACTED]", "[REDACTED]", "Tab"])
        }))

      it.effect("a click on a link to a slow page returns once the new page committed, as Playwright's click does", () =>
        Effect.gen(function* () {
          yield* open("/controls")
          const clicked = yield* call(click, { testId: "to-slow" }, { policy: "none" })
          expect(clicked.ok).toBe(true)
          expect(clicked.observation?.state.currentUrl).toMatch(/\/waiting\?delay=700$/)
        }))

      it.effect("a label inside a disabled button waits for the button, and a nested shadow root is looked into", () =>
        Effect.gen(function* () {
          yield* open("/controls")
          expect((yield* call(click, { testId: "arm-wrapped" })).ok).toBe(true)
          expect((yield* call(click, { testId: "wrapped-label", timeoutMs: 5_000 })).ok).toBe(true)
          expect(yield* log).toBe("wrapped=1")
          // The spinner sits two shadow roots down and stays: not hidden.
          expect((yield* call(waitFor, { testId: "spinner", state: "hidden", timeoutMs: 300 })).error?.code).toBe("MM_WAIT_TIMEOUT")
        }))

      it.effect("back, forward and reload move through the tab's history; past either end is MM_NAVIGATION_FAILED", () =>
        Effect.gen(function* () {
          yield* open("/controls")
          expect((yield* call(click, { testId: "to-fields" })).ok).toBe(true)
          expect((yield* call(waitFor, { testId: "email" })).ok).toBe(true)
          const back = yield* call(navigate, { screen: "back" })
          expect(back.page?.url).toMatch(/\/controls$/)
          const forward = yield* call(navigate, { screen: "forward" })
          expect(forward.page?.url).toMatch(/\/fields$/)
          expect((yield* call(navigate, { screen: "reload" })).page?.url).toMatch(/\/fields$/)
          const end = yield* call(navigate, { screen: "forward" })
          expect(end.error?.code).toBe("MM_NAVIGATION_FAILED")
          expect(end.error?.message).toContain("no next page")
        }))
    })

    describe("type", () => {
      it.effect("replaces the text of email and search inputs, textareas and contenteditable; empty text clears", () =>
        Effect.gen(function* () {
          yield* open("/fields")
          for (const testId of ["email", "search", "notes"]) {
            expect((yield* call(type, { testId, text: `new ${testId}` })).ok).toBe(true)
            expect((yield* call(getText, { testId })).result.text).toBe(`new ${testId}`)
          }
          expect((yield* call(type, { testId: "editable", text: "new text" })).ok).toBe(true)
          expect((yield* call(getText, { testId: "editable" })).result.text).toBe("new text")
          expect((yield* call(type, { testId: "search", text: "" })).ok).toBe(true)
          expect((yield* call(getText, { testId: "search" })).result.text).toBe("")
        }))

      it.effect("a read-only field is left alone; too short a time to tell why is a time-out", () =>
        Effect.gen(function* () {
          yield* open("/fields")
          const locked = yield* call(type, { testId: "locked", text: "changed", timeoutMs: 300 })
          // 300 ms leaves no time to see the reason settle (widgets/actions.test.ts: MM_TARGET_NOT_EDITABLE with time to).
          expect(["MM_TYPE_TIMEOUT", "MM_TARGET_NOT_EDITABLE"]).toContain(locked.error?.code)
          expect((yield* call(getText, { testId: "locked" })).result.text).toBe("locked")
        }))
    })

    describe("wait_for", () => {
      it.effect("text= finds text already shown, two matches are waited for as any, and hidden or missing elements are hidden", () =>
        Effect.gen(function* () {
          yield* open("/shadow")
          // The page has a shadow root, so text waits go through Playwright: same answers.
          expect((yield* call(waitFor, { selector: "text=ready to GO", timeoutMs: 1_000 })).ok).toBe(true)
          // Two visible matches: wait_for waits for any of them.
          const twiceInShadowPage = yield* call(waitFor, { selector: "text=Twice", timeoutMs: 1_000 })
          expect(twiceInShadowPage.ok, JSON.stringify(twiceInShadowPage.error)).toBe(true)
          expect(twiceInShadowPage.result).toEqual({ found: true })
          yield* open("/guarded")
          expect((yield* call(waitFor, { selector: "text=i   AGREE", timeoutMs: 1_000 })).ok).toBe(true)
          yield* open("/fields")
          expect((yield* call(waitFor, { selector: "text=Twice", timeoutMs: 1_000 })).result).toEqual({ found: true })
          expect((yield* call(waitFor, { testId: "gone-for-good", state: "hidden", timeoutMs: 300 })).ok).toBe(true)
          yield* open("/shadow")
          expect((yield* call(waitFor, { testId: "gone", state: "hidden", timeoutMs: 300 })).ok).toBe(true)
          expect((yield* call(waitFor, { testId: "gone", timeoutMs: 300 })).error?.code).toBe("MM_WAIT_TIMEOUT")
        }))
    })
  }
)
