// mm_storage and --init-script in real Chromium. mm_storage lists the session's cookies with a session
// cookie's value redacted, and clears one origin's cookies, localStorage, sessionStorage and IndexedDB (as
// the page then reads them) while another origin keeps its own; without an origin it clears the session.
// An --init-script runs before the page's first inline script, in the top page and in an iframe.
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { REDACTED } from "../../src/domain/redaction.js"
import { liveLayer, testSettings } from "../support/browser.js"
import { callsWith } from "../support/calls.js"
import { htmlPage, serveRoutes, type Served } from "../devtools/support.js"

/** Two origins (two servers on 127.0.0.1): the store page sets everything the clearing removes. */
class Pages extends Context.Tag("test/StoragePages")<Pages, { readonly a: Served; readonly b: Served }>() {}

const storePage = htmlPage(
  "Store",
  `<h1>Store</h1>
   <script>
     document.cookie = "session_id=s3cr3t-value; path=/"
     document.cookie = "theme=dark; path=/"
     localStorage.setItem("draft", "hello")
     sessionStorage.setItem("step", "2")
     window.dbReady = new Promise((resolve) => {
       const open = indexedDB.open("notes", 1)
       open.onupgradeneeded = () => open.result.createObjectStore("notes")
       open.onsuccess = () => { open.result.close(); resolve(true) }
     })
   </script>`
)

const initPage = htmlPage(
  "Init",
  `<h1 id="seen"></h1>
   <iframe src="/frame" title="inner"></iframe>
   <script>document.getElementById("seen").textContent = "first script saw " + String(window.__initMark)</script>`
)

const PagesLive = Layer.scoped(
  Pages,
  Effect.all({
    a: serveRoutes({ "/store": storePage, "/init": initPage, "/boom": htmlPage("Boom", "<h1>Boom</h1>"), "/frame": htmlPage("Frame", `<script>window.frameSaw = window.__initMark</script>`) }),
    b: serveRoutes({ "/store": storePage, "/read": htmlPage("Read", "<h1>Read</h1>") })
  })
)

const initScript = { file: "/virtual/mark.js", source: `window.__initMark = "set by init script at " + location.pathname` }
const throwing = { file: "/virtual/throws.js", source: `if (location.pathname === "/boom") {\n  throw new Error("init failed here")\n}` }
const settings = testSettings({ caps: ["storage", "evaluate"], initScripts: [initScript, throwing] })
const { call, ok } = callsWith(settings)

const inPage = (expression: string) => Effect.map(ok("mm_evaluate", { expression: `await (${expression})` }), (envelope) => envelope.result.value)

/** What the store page's origin holds, as the page reads it. */
const held = inPage(`(async () => ({
  cookie: document.cookie,
  local: localStorage.getItem("draft"),
  session: sessionStorage.getItem("step"),
  databases: (await indexedDB.databases()).map((db) => db.name)
}))()`)

const full = { cookie: "session_id=s3cr3t-value; theme=dark", local: "hello", session: "2", databases: ["notes"] }
const empty = { cookie: "", local: null, session: null, databases: [] }

describe("mm_storage and --init-script in real Chromium", () => {
  layer(Layer.merge(liveLayer(settings), PagesLive), { timeout: 180_000, excludeTestServices: true })("two origins", (it) => {
    it.effect("an init script runs before the page's first script, in the page and in its iframe", () =>
      Effect.gen(function* () {
        const { a } = yield* Pages
        yield* ok("mm_launch", { force: true })
        yield* ok("mm_navigate", { url: a.url("/init") })
        expect(yield* inPage(`document.getElementById("seen").textContent`)).toBe("first script saw set by init script at /init")
        expect(yield* inPage(`document.querySelector("iframe").contentWindow.frameSaw`)).toBe("set by init script at /frame")
      })
    )

    it.effect("an init script that throws is named, with its line, in the console line of the call", () =>
      Effect.gen(function* () {
        const { a } = yield* Pages
        const boom = yield* ok("mm_navigate", { url: a.url("/boom") })
        expect(boom.console).toEqual(["uncaught: init failed here (--init-script /virtual/throws.js:2)"])
      })
    )

    it.effect("cookies: every cookie of the origin, a session cookie's value redacted", () =>
      Effect.gen(function* () {
        const { a, b } = yield* Pages
        yield* ok("mm_navigate", { url: b.url("/store") })
        yield* inPage("window.dbReady")
        yield* ok("mm_navigate", { url: a.url("/store") })
        yield* inPage("window.dbReady")
        expect(yield* held).toEqual(full)
        const listed = yield* ok("mm_storage", { action: "cookies", origin: a.origin })
        // Both servers are on 127.0.0.1: cookies are per host, not per port.
        const byName = Object.fromEntries(listed.result.cookies.map((cookie: any) => [cookie.name, cookie.value]))
        expect(byName).toEqual({ session_id: REDACTED, theme: "dark" })
        expect(listed.result.cookies[0]).toMatchObject({ domain: "127.0.0.1", path: "/" })
        expect(JSON.stringify(listed)).not.toContain("s3cr3t-value")
      })
    )

    it.effect("clear with an origin empties that origin's storage and leaves another origin's; without one, everything", () =>
      Effect.gen(function* () {
        const { a, b } = yield* Pages
        const cleared = yield* ok("mm_storage", { action: "clear", origin: a.url("/store"), cookies: false })
        expect(cleared.result).toEqual({ cleared: { cookies: 0, origins: [a.origin] } })
        expect(yield* held).toEqual({ ...empty, cookie: full.cookie })
        // The other origin keeps its own (a page that sets nothing reads it).
        yield* ok("mm_navigate", { url: b.url("/read") })
        expect(yield* held).toEqual(full)
        const all = yield* ok("mm_storage", { action: "clear" })
        // Reading which origins hold storage opens no tab the agent would hear of.
        expect(all.notices).toBeUndefined()
        expect(all.result.cleared.cookies).toBe(2)
        expect(all.result.cleared.origins).toEqual(expect.arrayContaining([a.origin, b.origin]))
        expect(yield* held).toEqual(empty)
        yield* ok("mm_navigate", { url: a.url("/init") })
        expect(yield* inPage(`localStorage.length + sessionStorage.length`)).toBe(0)
        const none = yield* ok("mm_storage", { action: "cookies" })
        expect(none.result).toEqual({ count: 0 })
        // Nothing to clear is refused, not answered as done.
        const nothing = yield* call("mm_storage", { action: "clear", cookies: false, storage: false })
        expect(nothing.error?.code).toBe("MM_INVALID_INPUT")
        expect(nothing.error?.message).toContain("nothing to clear")
      })
    )
  })
})
