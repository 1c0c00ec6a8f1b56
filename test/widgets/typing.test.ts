// mm_type judged on the page's settled reaction (a field the page empties after a debounce or resets
// after a fetch is MM_TYPE_FAILED quoting what it holds and the page's message, never ok), without
// failing what is right: a mask or a number format that rewrites the text (answered as `value`), an
// autocomplete that puts its choice in, a field emptied because `submit` sent it, a page that only
// answers with a message. Real Chromium, pages on 127.0.0.1.
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as Browser from "../../src/adapters/playwright/lifecycle/browser.js"
import { MAIN_WORLD_OBJECTS } from "../../src/adapters/playwright/main-world.js"
import { devtoolsOf } from "../../src/adapters/playwright/page-eval.js"
import { html } from "../support/browser.js"
import { call, ok } from "../support/calls.js"
import { inPage, reactionWorld, statusMessage } from "./reaction-world.js"

const pages: Record<string, string> = {
  "/revert-type": html(
    "Revert type",
    `<label>Coupon <input id="coupon"></label>${statusMessage}
     <script>coupon.addEventListener('input', (e) => { clearTimeout(window.t); window.t = setTimeout(() => { if (e.target.value === 'FREE') { e.target.value = ''; msg.textContent = 'This coupon has expired.' } }, 300) })</script>`
  ),
  "/reset-fetch": html(
    "Reset fetch",
    `<label>Username <input id="user" autocomplete="off"></label>${statusMessage}
     <script>user.addEventListener('input', (e) => { clearTimeout(window.t); window.t = setTimeout(() => fetch('/slow?ms=300').then((r) => r.json()).then(() => { if (e.target.value === 'admin') { e.target.value = ''; msg.textContent = 'That username is taken.' } }), 150) })</script>`
  ),
  "/quantity": html(
    "Quantity",
    `<label>Quantity <input id="qty" type="number"></label>${statusMessage}
     <script>qty.addEventListener('input', (e) => { clearTimeout(window.t); window.t = setTimeout(() => { if (Number(e.target.value) > 10) { e.target.value = '10'; msg.textContent = 'At most 10 per order.' } }, 250) })</script>`
  ),
  "/formats": html(
    "Formats",
    `<label>Phone <input id="phone"></label><label>Amount <input id="amount"></label><label>Full name <input id="fullname"></label>${statusMessage}
     <script>
       phone.addEventListener('input', (e) => {
         const d = e.target.value.replace(/\\D/g, '').slice(0, 10)
         e.target.value = d.length > 6 ? '(' + d.slice(0, 3) + ') ' + d.slice(3, 6) + '-' + d.slice(6) : d.length > 3 ? '(' + d.slice(0, 3) + ') ' + d.slice(3) : d
       })
       amount.addEventListener('input', (e) => { clearTimeout(window.t); window.t = setTimeout(() => { e.target.value = Number(e.target.value.replace(/,/g, '')).toLocaleString('en-US') }, 300) })
       fullname.addEventListener('input', (e) => { clearTimeout(window.n); window.n = setTimeout(() => fetch('/slow?ms=200').then(() => { msg.textContent = 'Looks good.' }), 200) })
     </script>`
  ),
  "/autocomplete": html(
    "Autocomplete",
    `<label>Country <input id="country" role="combobox" aria-autocomplete="list" aria-controls="list" aria-expanded="false"></label><ul id="list" role="listbox"></ul>
     <script>
       const all = ['Germany', 'Ghana', 'Greece']
       country.addEventListener('input', (e) => {
         clearTimeout(window.t)
         window.t = setTimeout(() => {
           const hits = all.filter((c) => c.toLowerCase().startsWith(e.target.value.toLowerCase()))
           list.innerHTML = hits.map((c) => '<li role="option">' + c + '</li>').join('')
           // One match left: the widget puts it in (its choice replaces what was typed).
           if (hits.length === 1) { e.target.value = hits[0]; list.innerHTML = '' }
         }, 250)
       })
     </script>`
  ),
  "/todo": html(
    "Todo",
    `<form id="f"><label>New todo <input id="todo" autocomplete="off"></label></form><ul id="items"></ul>
     <label>Message <textarea id="chat"></textarea></label><div id="log"></div><p id="typing"></p>
     <script>
       f.addEventListener('submit', (e) => { e.preventDefault(); const li = document.createElement('li'); li.textContent = todo.value; items.append(li); todo.value = '' })
       chat.addEventListener('input', () => { typing.textContent = 'typing…'; clearTimeout(window.t); window.t = setTimeout(() => { typing.textContent = '' }, 200) })
       chat.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); const p = document.createElement('p'); p.textContent = chat.value; log.append(p); chat.value = '' } })
     </script>`
  )
}

pages["/fields"] = html(
  "Fields",
  `<label>Arrival <input type="date" id="d"></label><label>At <input type="time" id="t"></label>
   <label>Pickup <input type="datetime-local" id="dt"></label><label>Billing month <input type="month" id="m"></label>
   <label>Sprint week <input type="week" id="w"></label><label>Volume <input type="range" id="r" min="0" max="100" step="10" value="20"></label>
   <label>Count <input type="number" id="n"></label>
   <div role="slider" id="s" tabindex="0" aria-label="Brightness" aria-valuemin="0" aria-valuemax="100" aria-valuenow="40" style="width:200px;height:10px;background:#ccc"></div>
   <div role="spinbutton" id="sp" tabindex="0" aria-label="Guests" aria-valuenow="2">2</div>
   <p id="changes"></p>
   <script>
     window.seen = []
     for (const input of document.querySelectorAll('input')) input.addEventListener('change', () => seen.push(input.id + '=' + input.value))
     s.addEventListener('keydown', (e) => {
       const now = Number(s.getAttribute('aria-valuenow'))
       const next = e.key === 'ArrowRight' || e.key === 'ArrowUp' ? now + 10 : e.key === 'ArrowLeft' || e.key === 'ArrowDown' ? now - 10 : e.key === 'Home' ? 0 : e.key === 'End' ? 100 : now
       s.setAttribute('aria-valuenow', String(Math.max(0, Math.min(100, next))))
     })
   </script>`
)

// A page that takes away whatever a script may have left on it: every symbol-keyed property of its window,
// at each focus, key and input and every few milliseconds, with the coupon field's debounced revert.
pages["/two-fields"] = html(
  "Two fields",
  `<label>Name <input id="name"></label><label>Coupon <input id="coupon"></label><label>Count <input id="count" type="number"></label><label><input id="agree" type="checkbox"> Agree</label>${statusMessage}
   <script>coupon.addEventListener('input', (e) => { clearTimeout(window.t); window.t = setTimeout(() => { if (e.target.value === 'FREE') { e.target.value = ''; msg.textContent = 'This coupon has expired.' } }, 300) })</script>`
)

pages["/scrubbing"] = html(
  "Scrubbing",
  `<label>Coupon <input id="coupon"></label>${statusMessage}
   <script>
     window.scrubbed = 0
     const scrub = () => { for (const key of Reflect.ownKeys(window)) if (typeof key === 'symbol') { delete window[key]; scrubbed++ } }
     for (const type of ['focusin', 'keydown', 'input', 'keyup']) document.addEventListener(type, scrub, true)
     setInterval(scrub, 5)
     coupon.addEventListener('input', (e) => { clearTimeout(window.t); window.t = setTimeout(() => { if (e.target.value === 'FREE') { e.target.value = ''; msg.textContent = 'This coupon has expired.' } }, 300) })
   </script>`
)

const world = reactionWorld("test/TypingPages", pages)
const { open } = world

layer(world.layer, {
  timeout: 180_000,
  excludeTestServices: true
})("mm_type judged on the page's settled reaction", (it) => {
  describe("no ok for text the page took away", () => {
    it.effect("a field the page empties 300 ms after the last key: MM_TYPE_FAILED quoting what it holds and the page's message", () =>
      Effect.gen(function* () {
        yield* open("/revert-type")
        const envelope = yield* call("type", { selector: "#coupon", text: "FREE" })
        expect(envelope.error?.code).toBe("MM_TYPE_FAILED")
        expect(envelope.error?.message).toContain('changed it to ""')
        expect(envelope.error?.message).toContain("This coupon has expired.")
        expect(yield* inPage<string>("coupon.value")).toBe("")
        // Another code stays: ok, and the field holds it.
        const kept = yield* ok("type", { selector: "#coupon", text: "SPRING" })
        expect(kept.result).toEqual({ typed: true })
        expect(yield* inPage<string>("coupon.value")).toBe("SPRING")
      }))

    it.effect("a field the page resets after a debounced request: MM_TYPE_FAILED with the page's message", () =>
      Effect.gen(function* () {
        yield* open("/reset-fetch")
        const envelope = yield* call("type", { selector: "#user", text: "admin" })
        expect(envelope.error?.code).toBe("MM_TYPE_FAILED")
        expect(envelope.error?.message).toContain("That username is taken.")
        expect(yield* inPage<string>("user.value")).toBe("")
        yield* ok("type", { selector: "#user", text: "ada" })
        expect(yield* inPage<string>("user.value")).toBe("ada")
      }))

    it.effect("a number field the page caps after a debounce (Playwright's fill path): MM_TYPE_FAILED naming the value it set", () =>
      Effect.gen(function* () {
        yield* open("/quantity")
        const envelope = yield* call("type", { selector: "#qty", text: "50" })
        expect(envelope.error?.code).toBe("MM_TYPE_FAILED")
        expect(envelope.error?.message).toContain('changed it to "10"')
        expect(envelope.error?.message).toContain("At most 10 per order.")
        expect((yield* ok("type", { selector: "#qty", text: "4" })).result).toEqual({ typed: true })
        expect(yield* inPage<string>("qty.value")).toBe("4")
      }))
  })

  describe("the watch in the page's main world, installed once per document", () => {
    it.effect("survives a page that deletes what is left on its window, a navigation, and the loss of its installed copy", () =>
      Effect.gen(function* () {
        const judged = Effect.gen(function* () {
          const envelope = yield* call("type", { selector: "#coupon", text: "FREE" })
          expect(envelope.error?.code).toBe("MM_TYPE_FAILED")
          expect(envelope.error?.message).toContain("This coupon has expired.")
          expect(yield* inPage<string>("coupon.value")).toBe("")
          expect((yield* ok("type", { selector: "#coupon", text: "SPRING" })).result).toEqual({ typed: true })
          expect(yield* inPage<string>("coupon.value")).toBe("SPRING")
        })
        yield* open("/scrubbing")
        yield* judged
        // The page did take things away (our reaction watch's symbol among them, the installed code is named by none).
        expect(yield* inPage<number>("scrubbed")).toBeGreaterThan(0)
        // A new document, then this one again: installed anew in each.
        yield* open("/revert-type")
        yield* judged
        yield* open("/scrubbing")
        yield* judged
        // Our DevTools session let go of the installed copy (as Runtime.disable does): the next type installs it again.
        const { page } = yield* (yield* Browser.BrowserState).activePage
        yield* Effect.promise(() => devtoolsOf(page).then((session) => session.send("Runtime.releaseObjectGroup", { objectGroup: MAIN_WORLD_OBJECTS })))
        yield* judged
      }))

    it.effect("watches the field being typed into (started behind the trip that focuses it), and ends when the direct path hands over", () =>
      Effect.gen(function* () {
        yield* open("/two-fields")
        yield* ok("type", { selector: "#name", text: "Ada" })
        // The focus was on #name until the coupon's prepare moved it: the watch saw the coupon's own input (it held the text).
        const envelope = yield* call("type", { selector: "#coupon", text: "FREE" })
        expect(envelope.error?.code).toBe("MM_TYPE_FAILED")
        expect(envelope.error?.message).toContain('changed it to ""')
        expect(envelope.error?.message).toContain("This coupon has expired.")
        expect((yield* ok("type", { selector: "#count", text: "5" })).result).toEqual({ typed: true })
        expect(yield* inPage<string>("count.value")).toBe("5")
        // A checkbox takes no text: the direct path hands over, and Playwright's refuses it before any watch of its own. The
        // watch started behind the direct path's prepare ended with the hand-over: the page's fetch and send are its own again.
        expect((yield* call("type", { selector: "#agree", text: "yes" })).error?.code).toBe("MM_TARGET_NOT_EDITABLE")
        expect(yield* inPage<boolean>("String(window.fetch).includes('[native code]') && String(XMLHttpRequest.prototype.send).includes('[native code]')")).toBe(true)
      }))
  })

  describe("what is right stays ok", () => {
    it.effect("a phone mask and a number format rewrite the text: ok, answering what the field shows", () =>
      Effect.gen(function* () {
        yield* open("/formats")
        const phone = yield* ok("type", { selector: "#phone", text: "5551234" })
        expect(phone.result.value).toBe("(555) 123-4")
        expect(yield* inPage<string>("phone.value")).toBe("(555) 123-4")
        const amount = yield* ok("type", { selector: "#amount", text: "1000" })
        expect(amount.result.value).toBe("1,000")
        expect(yield* inPage<string>("amount.value")).toBe("1,000")
        // A page that answers with a message after a request and keeps the text.
        const name = yield* ok("type", { selector: "#fullname", text: "Ada Lovelace" })
        expect(name.result).toEqual({ typed: true })
        expect(yield* inPage<string>("msg.textContent")).toBe("Looks good.")
      }))

    it.effect("an autocomplete that puts its one match in after a debounce: ok, answering its choice", () =>
      Effect.gen(function* () {
        yield* open("/autocomplete")
        const chosen = yield* ok("type", { selector: "#country", text: "ger" })
        expect(chosen.result.value).toBe("Germany")
        expect(yield* inPage<string>("country.value")).toBe("Germany")
        // Two matches: the text stays and the options are in the answer.
        const filtered = yield* ok("type", { selector: "#country", text: "g" })
        expect(filtered.result).toEqual({ typed: true })
        expect(JSON.stringify(filtered)).toContain("Ghana")
      }))

    it.effect("a number input still takes its number", () =>
      Effect.gen(function* () {
        yield* open("/fields")
        expect((yield* ok("type", { selector: "#n", text: "12" })).result).toEqual({ typed: true })
        expect(yield* inPage<string>("n.value")).toBe("12")
      }))

    it.effect("fields that submit emptied (a todo input, a chat box that reacts to typing): ok", () =>
      Effect.gen(function* () {
        yield* open("/todo")
        yield* ok("type", { selector: "#todo", text: "Buy milk", submit: true })
        expect(yield* inPage<Array<string>>("[todo.value, items.textContent]")).toEqual(["", "Buy milk"])
        yield* ok("type", { selector: "#chat", text: "Hello there", submit: true })
        expect(yield* inPage<Array<string>>("[chat.value, log.textContent]")).toEqual(["", "Hello there"])
      }))
  })

  describe("date, time, month and week inputs take the forms people write", () => {
    it.effect("a date in ISO or a common human form is set as YYYY-MM-DD, the value answered; other text is MM_INVALID_INPUT naming the format, the field untouched", () =>
      Effect.gen(function* () {
        yield* open("/fields")
        const us = yield* ok("type", { selector: "#d", text: "04/20/2025" })
        expect(us.result.value).toBe("2025-04-20")
        expect(yield* inPage<string>("d.value")).toBe("2025-04-20")
        expect((yield* ok("type", { selector: "#d", text: "20.04.2025" })).result.value).toBe("2025-04-20")
        expect((yield* ok("type", { selector: "#d", text: "April 21, 2025" })).result.value).toBe("2025-04-21")
        // The page's locale (en-US here) orders an ambiguous day and month.
        expect(yield* inPage<string>("navigator.language")).toBe("en-US")
        expect((yield* ok("type", { selector: "#d", text: "03/04/2025" })).result.value).toBe("2025-03-04")
        expect((yield* ok("type", { selector: "#d", text: "2025-04-22" })).result).toEqual({ typed: true })
        const refused = yield* call("type", { selector: "#d", text: "next Tuesday" })
        expect(refused.error?.code).toBe("MM_INVALID_INPUT")
        expect(refused.error?.message).toContain("a date input takes YYYY-MM-DD")
        expect(refused.error?.message).not.toContain("next Tuesday")
        expect(yield* inPage<string>("d.value")).toBe("2025-04-22")
        // The page heard each value set, as from a person.
        expect(yield* inPage<Array<string>>("seen.filter((s) => s.startsWith('d='))")).toEqual([
          "d=2025-04-20",
          "d=2025-04-20",
          "d=2025-04-21",
          "d=2025-03-04",
          "d=2025-04-22"
        ])
      }))

    it.effect("time, date and time, month and week: each set in its input's form", () =>
      Effect.gen(function* () {
        yield* open("/fields")
        expect((yield* ok("type", { selector: "#t", text: "2:30 PM" })).result.value).toBe("14:30")
        expect((yield* ok("type", { selector: "#dt", text: "04/20/2025 2:30 PM" })).result.value).toBe("2025-04-20T14:30")
        expect((yield* ok("type", { selector: "#m", text: "April 2025" })).result.value).toBe("2025-04")
        expect((yield* ok("type", { selector: "#w", text: "2025-W16" })).result).toEqual({ typed: true })
        expect(yield* inPage<Array<string>>("[t.value, dt.value, m.value, w.value]")).toEqual(["14:30", "2025-04-20T14:30", "2025-04", "2025-W16"])
        const refused = yield* call("type", { selector: "#t", text: "noon-ish" })
        expect(refused.error?.message).toContain("a time input takes HH:MM")
        expect(yield* inPage<string>("t.value")).toBe("14:30")
      }))
  })

  describe("sliders and spin buttons", () => {
    it.effect("a native range input takes a number on its step, answered when it moved to the nearest; one outside its bounds is refused naming them", () =>
      Effect.gen(function* () {
        yield* open("/fields")
        expect((yield* ok("type", { selector: "#r", text: "50" })).result).toEqual({ typed: true })
        expect(yield* inPage<string>("r.value")).toBe("50")
        expect((yield* ok("type", { selector: "#r", text: "56" })).result.value).toBe("60")
        const outside = yield* call("type", { selector: "#r", text: "500" })
        expect(outside.error?.code).toBe("MM_INVALID_INPUT")
        expect(outside.error?.message).toContain("a range input takes a number from 0 to 100 in steps of 10")
        expect(yield* inPage<Array<string>>("[r.value, ...seen.filter((s) => s.startsWith('r='))]")).toEqual(["60", "r=50", "r=60"])
      }))

    it.effect("a drawn slider or spin button: MM_TARGET_NOT_EDITABLE saying what it is and the keys that set it, which work", () =>
      Effect.gen(function* () {
        yield* open("/fields")
        const slider = (yield* call("type", { selector: "#s", text: "70" })).error
        expect(slider?.code).toBe("MM_TARGET_NOT_EDITABLE")
        expect(slider?.message).toContain("it is a slider drawn by the page")
        expect(slider?.message).toContain("now 40 of 0 to 100")
        expect(slider?.message).toContain("mm_press_key on it: ArrowRight")
        expect(slider?.message).not.toContain("mm_find")
        const spin = (yield* call("type", { selector: "#sp", text: "3" })).error
        expect(spin?.code).toBe("MM_TARGET_NOT_EDITABLE")
        expect(spin?.message).toContain("it is a spin button drawn by the page")
        expect(spin?.message).toContain("ArrowUp one step up")
        // What the error says works.
        yield* ok("press_key", { selector: "#s", key: "ArrowRight" })
        expect(yield* inPage<string>("s.getAttribute('aria-valuenow')")).toBe("50")
      }))
  })
})
