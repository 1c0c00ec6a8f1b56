// mm_type judged on the page's settled reaction (a field the page empties after a debounce or resets
// after a fetch is MM_TYPE_FAILED quoting what it holds and the page's message, never ok), without
// failing what is right: a mask or a number format that rewrites the text (answered as `value`), an
// autocomplete that puts its choice in, a field emptied because `submit` sent it, a page that only
// answers with a message. Real Chromium, pages on 127.0.0.1.
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import * as KnowledgeFiles from "../../src/adapters/knowledge-files.js"
import * as DebuggerSession from "../../src/adapters/playwright/devtools/debugger-session.js"
import * as Browser from "../../src/adapters/playwright/lifecycle/browser.js"
import * as ObserverAdapter from "../../src/adapters/playwright/observer/observer.js"
import * as SessionAdapter from "../../src/adapters/playwright/session/session.js"
import { Config } from "../../src/services/Config.js"
import { Session } from "../../src/services/Session.js"
import { answerPage, listenLoopback, pathOf, send } from "../../demo/serve.js"
import { html, testSettings } from "../support/browser.js"
import { call, ok } from "../support/calls.js"

class Pages extends Context.Tag("test/TypingPages")<Pages, { readonly url: string }>() {}

const message = `<p id="msg" role="status"></p>`

const pages: Record<string, string> = {
  "/revert-type": html(
    "Revert type",
    `<label>Coupon <input id="coupon"></label>${message}
     <script>coupon.addEventListener('input', (e) => { clearTimeout(window.t); window.t = setTimeout(() => { if (e.target.value === 'FREE') { e.target.value = ''; msg.textContent = 'This coupon has expired.' } }, 300) })</script>`
  ),
  "/reset-fetch": html(
    "Reset fetch",
    `<label>Username <input id="user" autocomplete="off"></label>${message}
     <script>user.addEventListener('input', (e) => { clearTimeout(window.t); window.t = setTimeout(() => fetch('/slow?ms=300').then((r) => r.json()).then(() => { if (e.target.value === 'admin') { e.target.value = ''; msg.textContent = 'That username is taken.' } }), 150) })</script>`
  ),
  "/quantity": html(
    "Quantity",
    `<label>Quantity <input id="qty" type="number"></label>${message}
     <script>qty.addEventListener('input', (e) => { clearTimeout(window.t); window.t = setTimeout(() => { if (Number(e.target.value) > 10) { e.target.value = '10'; msg.textContent = 'At most 10 per order.' } }, 250) })</script>`
  ),
  "/formats": html(
    "Formats",
    `<label>Phone <input id="phone"></label><label>Amount <input id="amount"></label><label>Full name <input id="fullname"></label>${message}
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

const serve = Effect.acquireRelease(
  Effect.promise(() =>
    listenLoopback((request, response) => {
      if (pathOf(request) === "/slow") {
        const ms = Number(new URL(request.url ?? "/", "http://127.0.0.1").searchParams.get("ms") ?? 0)
        setTimeout(() => send(response, 200, "application/json", '{"ok":false}'), ms)
        return
      }
      if (!answerPage(pages, request, response)) send(response, 404, "text/plain", "not found")
    })
  ),
  (server) => Effect.promise(() => server.close())
)

const open = (path: string) =>
  Effect.gen(function* () {
    const { url } = yield* Pages
    if ((yield* (yield* Session).current)._tag === "None") yield* ok("launch")
    yield* ok("navigate", { screen: "url", url: `${url}${path}` })
  })

/** Reads the page through Playwright (never from our answers). */
const inPage = <A>(expression: string) =>
  Effect.gen(function* () {
    const { page } = yield* (yield* Browser.BrowserState).activePage
    return (yield* Effect.promise(() => page.evaluate(expression))) as A
  })

const settings = testSettings()
const live = Layer.mergeAll(
  Layer.merge(SessionAdapter.layer, ObserverAdapter.layer).pipe(Layer.provide(DebuggerSession.layer), Layer.provideMerge(Browser.layer)),
  KnowledgeFiles.layerFileSystem(settings.artifactsDir)
).pipe(Layer.provideMerge(Config.layer(settings)))

layer(Layer.merge(live, Layer.scoped(Pages, Effect.map(serve, (server) => ({ url: server.url })))), {
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

    it.effect("fields that submit emptied (a todo input, a chat box that reacts to typing): ok", () =>
      Effect.gen(function* () {
        yield* open("/todo")
        yield* ok("type", { selector: "#todo", text: "Buy milk", submit: true })
        expect(yield* inPage<Array<string>>("[todo.value, items.textContent]")).toEqual(["", "Buy milk"])
        yield* ok("type", { selector: "#chat", text: "Hello there", submit: true })
        expect(yield* inPage<Array<string>>("[chat.value, log.textContent]")).toEqual(["", "Hello there"])
      }))
  })
})
