// Actions judged on the page's settled reaction, and failures that come fast with the true reason (the
// new-user trial of hand-written widgets): a checkbox the app unchecks again after a request or a timer
// is MM_SET_CHECKED_FAILED quoting the page's message, never ok; a select or a field the page sets back
// fails the same way; a target that is not there fails about a second after the page went quiet; a
// disabled, read-only or covered target is refused at once; sliders, spin buttons and ARIA listboxes
// get the hint that works for them; date inputs take their own format or are refused before anything
// is touched. Real Chromium, pages on 127.0.0.1.
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { Envelope } from "../../src/domain/envelope.js"
import { runTool, type ToolResponse } from "../../src/runtime/runTool.js"
import type { AnyToolDefinition } from "../../src/runtime/tool.js"
import { setChecked } from "../../src/tools/gestures.js"
import { click, selectOption, type } from "../../src/tools/interaction.js"
import { PAGE } from "../../src/adapters/playwright/page-bundle.js"
import type { Reaction } from "../../src/adapters/playwright/page/reaction.js"
import { html } from "../support/browser.js"
import { inPage, reactionWorld, statusMessage } from "./reaction-world.js"

const pages: Record<string, string> = {
  "/revert-timer": html(
    "Revert timer",
    `<label><input type="checkbox" id="gift"> Gift wrap</label>${statusMessage}
     <script>gift.addEventListener('change', (e) => { if (e.target.checked) setTimeout(() => { e.target.checked = false; msg.textContent = 'Gift wrap is not available for this item.' }, 300) })</script>`
  ),
  "/revert-fetch": html(
    "Revert fetch",
    `<label><input type="checkbox" id="gift"> Gift wrap</label>${statusMessage}
     <script>gift.addEventListener('change', (e) => { if (e.target.checked) fetch('/slow?ms=400').then((r) => r.json()).then(() => { e.target.checked = false; msg.textContent = 'Gift wrap is not available for this item.' }) })</script>`
  ),
  "/keeps": html(
    "Keeps",
    `<label><input type="checkbox" id="news"> Newsletter</label>${statusMessage}
     <script>news.addEventListener('change', (e) => fetch('/slow?ms=200').then(() => { msg.textContent = 'Saved.' }))</script>`
  ),
  "/revert-select": html(
    "Revert select",
    `<label>Size <select id="size"><option value="s">Small</option><option value="m">Medium</option><option value="l">Large</option></select></label>${statusMessage}
     <script>size.addEventListener('change', (e) => { if (e.target.value === 'l') setTimeout(() => { e.target.value = 's'; msg.textContent = 'Large is sold out.' }, 250) })</script>`
  ),
  "/still": html(
    "Still",
    `<h1>Shop</h1><button id="pay" disabled>Pay</button><label>Booking reference <input id="ref" value="BK-20931" readonly></label>
     <label>Arrival <input id="arrival" class="datepicker" value="2025-03-14" readonly></label>`
  ),
  // A modal as Bootstrap opens one: the backdrop fades in (a CSS transition, no DOM change while it runs)
  // and the dialog is shown on the fade's transitionend.
  "/fade-modal": html(
    "Fade modal",
    `<style>.backdrop { position: fixed; inset: 0; background: #000; opacity: 0; transition: opacity 400ms linear } .backdrop.in { opacity: .5 }</style>
     <button id="edit">Edit profile</button>
     <script>edit.addEventListener('click', () => {
       const backdrop = document.createElement('div'); backdrop.className = 'backdrop'; document.body.append(backdrop)
       backdrop.offsetWidth; backdrop.classList.add('in')
       backdrop.addEventListener('transitionend', () => {
         const dialog = document.createElement('div'); dialog.setAttribute('role', 'dialog'); dialog.setAttribute('aria-label', 'Profile editor')
         dialog.style.cssText = 'position: fixed; top: 20px; left: 20px; background: #fff; z-index: 2'
         dialog.innerHTML = '<label>Display name <input id="display"></label>'; document.body.append(dialog)
       }, { once: true })
     })</script>`
  ),
  // An editor's toolbar that writes its buttons' state again on every key, mostly to the value it had (Quill).
  "/toolbar": html(
    "Toolbar",
    `<button id="bold" aria-pressed="false">Bold</button><div id="editor" contenteditable="true"></div>
     <script>editor.addEventListener('input', () => bold.setAttribute('aria-pressed', bold.getAttribute('aria-pressed')))</script>`
  ),
  "/revert-type": html(
    "Revert type",
    `<label>Coupon <input id="coupon"></label>${statusMessage}
     <script>coupon.addEventListener('change', () => {}); coupon.addEventListener('input', (e) => { clearTimeout(window.t); window.t = setTimeout(() => { if (e.target.value === 'FREE') { e.target.value = ''; msg.textContent = 'This coupon has expired.' } }, 300) })</script>`
  )
}

const world = reactionWorld("test/ReactionPages", pages)
const { open } = world

const call = (tool: AnyToolDefinition, args: Record<string, unknown> = {}) =>
  Effect.map(runTool(tool)(args), (response: ToolResponse<unknown>) => ({ envelope: response.envelope as Envelope<any>, text: JSON.stringify(response.envelope) }))

layer(world.layer, { timeout: 180_000, excludeTestServices: true })(
  "actions judged on the page's settled reaction",
  (it) => {
    describe("no ok for a change the page undid", () => {
      for (const path of ["/revert-timer", "/revert-fetch"]) {
        it.effect(`set_checked on a checkbox the page unchecks again (${path.slice(8)}): MM_SET_CHECKED_FAILED with the page's message`, () =>
          Effect.gen(function* () {
            yield* open(path)
            const { envelope, text } = yield* call(setChecked, { selector: "#gift", checked: true })
            expect(envelope.ok).toBe(false)
            expect(envelope.error?.code).toBe("MM_SET_CHECKED_FAILED")
            expect(envelope.error?.message).toMatch(/set it back to unchecked|still unchecked/)
            expect(envelope.error?.message).toContain("Gift wrap is not available for this item.")
            // The answer never shows the box checked.
            expect(text).not.toMatch(/checkbox "Gift wrap"[^\n]*\[checked\]/)
            expect(yield* inPage<boolean>("gift.checked")).toBe(false)
          }))
      }

      it.effect("set_checked on a checkbox whose app saves it with a request: ok, and the state holds", () =>
        Effect.gen(function* () {
          yield* open("/keeps")
          const { envelope } = yield* call(setChecked, { selector: "#news", checked: true })
          expect(envelope.error).toBeUndefined()
          expect(yield* inPage<boolean>("news.checked")).toBe(true)
        }))

      it.effect("select_option on a select the page sets back: MM_SELECT_FAILED naming what it holds and the page's message", () =>
        Effect.gen(function* () {
          yield* open("/revert-select")
          const { envelope } = yield* call(selectOption, { selector: "#size", values: ["Large"] })
          expect(envelope.error?.code).toBe("MM_SELECT_FAILED")
          expect(envelope.error?.message).toContain("set it back")
          expect(envelope.error?.message).toContain("Large is sold out.")
          expect(yield* inPage<string>("size.value")).toBe("s")
          expect((yield* call(selectOption, { selector: "#size", values: ["Medium"] })).envelope.error).toBeUndefined()
          expect(yield* inPage<string>("size.value")).toBe("m")
        }))
    })

    it.effect("a click that fades a backdrop in before the dialog shows: the click's answer shows the dialog", () =>
      Effect.gen(function* () {
        yield* open("/fade-modal")
        const { envelope, text } = yield* call(click, { selector: "#edit" })
        expect(envelope.error).toBeUndefined()
        expect(text).toContain("Profile editor")
        expect(text).toContain("Display name")
      }))

    it.effect("the reaction watch counts an attribute changed, not one written again with the value it had", () =>
      Effect.gen(function* () {
        yield* open("/toolbar")
        // The watch as typing starts it, then the page's own input handler writes aria-pressed again; a microtask lets the observer report.
        const watched = (after: string) =>
          inPage<Reaction>(`(async () => {
            const editor = document.getElementById("editor"); const bold = document.getElementById("bold")
            ;(${PAGE.watchReaction})(editor, true)
            editor.textContent = "Hi"; editor.dispatchEvent(new InputEvent("input", { bubbles: true }))
            ${after}
            await Promise.resolve()
            const seen = (${PAGE.reactionNow})(editor); (${PAGE.stopReaction})(editor); return seen
          })()`)
        expect((yield* watched("")).changed).toBe(false)
        expect((yield* watched(`bold.setAttribute("aria-pressed", "true")`)).changed).toBe(true)
      }))

    describe("fail fast with the true reason", () => {
      it.effect("a target that matches nothing on a still page: MM_TARGET_NOT_FOUND about a second after the page went quiet, for click, type and a test id", () =>
        Effect.gen(function* () {
          yield* open("/still")
          for (const [tool, args] of [
            [click, { selector: "text=Checkout" }],
            [click, { testId: "checkout" }],
            [type, { selector: "#vol", text: "4" }]
          ] as const) {
            const { envelope } = yield* call(tool, { ...args, timeoutMs: 60_000 })
            expect(envelope.error?.code).toBe("MM_TARGET_NOT_FOUND")
            // Not its time running out: the page was seen quiet with none.
            expect(envelope.error?.message).toContain("with nothing loading")
          }
        }))

      it.effect("disabled and read-only are refused without waiting out the time; a read-only field hints a picker only when it looks like one", () =>
        Effect.gen(function* () {
          yield* open("/still")
          expect((yield* call(click, { selector: "#pay", timeoutMs: 60_000 })).envelope.error?.code).toBe("MM_TARGET_DISABLED")
          const plain = (yield* call(type, { selector: "#ref", text: "BK-1", timeoutMs: 60_000 })).envelope.error
          expect(plain?.code).toBe("MM_TARGET_NOT_EDITABLE")
          expect(plain?.message).not.toContain("picker it opens")
          const picker = (yield* call(type, { selector: "#arrival", text: "2025-04-01", timeoutMs: 60_000 })).envelope.error
          expect(picker?.message).toContain("picker it opens")
          expect(yield* inPage<Array<string>>("[ref.value, arrival.value]")).toEqual(["BK-20931", "2025-03-14"])
        }))
    })
  }
)
