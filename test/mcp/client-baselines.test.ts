// Changes since the client last looked, over real Chromium: an agent that works one call at a time looks
// with mm_find and acts; the action's answer shows what changed since that search, not the whole page
// the client never read (issue 19). A client that never looked at the page gets all of it; a failure
// answers the whole page; each client of one server (Streamable HTTP, one shared browser) has its own
// record of what it saw, carried over a reload, and a page keeps the records of its 8 most recent clients.
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { servePages, type RunningServer } from "../../demo/sample-app.js"
import { appLayer, registryFor } from "../../src/cli/serve.js"
import { serveHttp, type HttpServer } from "../../src/mcp/http.js"
import { html, testSettings } from "../support/browser.js"

const pages = {
  "/": html(
    "Shop",
    `<h1>Shop</h1>
     <nav><a href="#a">Fruit</a> <a href="#b">Vegetables</a> <a href="#c">Bread</a></nav>
     <label>Search <input id="q"></label>
     <button data-testid="add" onclick="document.querySelector('#cart').textContent = 'Cart: ' + (++window.count)">Add to cart</button>
     <p id="cart">Cart: 0</p>
     <button data-testid="note" onclick="document.querySelector('#note').textContent = 'Noted'">Note</button>
     <p id="note">No note</p>
     <ul><li>Apples</li><li>Pears</li><li>Plums</li></ul>
     <footer><p>Open daily</p></footer>
     <script>window.count = 0</script>`
  )
}

let app: RunningServer
let runtime: ManagedRuntime.ManagedRuntime<any, any>
let server: HttpServer
const clients: Array<Client> = []

interface Answer {
  readonly envelope: any
  /** The page text after the envelope. */
  readonly text: string
}

const connect = async (): Promise<(name: string, args?: Record<string, unknown>) => Promise<Answer>> => {
  const client = new Client({ name: "baselines-test", version: "1.0.0" })
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)))
  clients.push(client)
  return async (name, args = {}) => {
    const result = await client.callTool({ name, arguments: args })
    const blocks = result.content as Array<{ type: string; text?: string }>
    return { envelope: JSON.parse(blocks[0]!.text!), text: blocks.slice(1).map((block) => block.text ?? "").join("\n") }
  }
}

const refOf = (text: string, line: RegExp) => {
  const ref = /\[(e\d+)\]/.exec(text.split("\n").find((candidate) => line.test(candidate)) ?? "")?.[1]
  if (ref === undefined) throw new Error(`no line matching ${line} in:\n${text}`)
  return ref
}

/** Lines of the whole page that a changes-only answer after a search must not repeat. */
const UNCHANGED = [/heading "Shop"/, /link "Vegetables"/, /textbox "Search"/, /Apples/, /Open daily/]

beforeAll(async () => {
  app = await servePages(pages)
  const settings = testSettings({ appUrl: `${app.url}/`, sharedBrowser: true })
  runtime = ManagedRuntime.make(appLayer(settings, "warning"))
  server = await serveHttp(registryFor(settings), runtime, { host: "127.0.0.1", port: 0 })
}, 60_000)

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined)
  await server?.close()
  await runtime?.dispose()
  await app?.close()
})

describe("changes since this client last looked", () => {
  it("one call at a time: find, then act; each client gets what changed since it looked, a failure the whole page", async () => {
    const first = await connect()
    const second = await connect()
    // The launch opens the app and says where it is, without the page: the client has seen nothing of it.
    const launched = await first("mm_launch")
    expect(launched.envelope.ok).toBe(true)
    expect(launched.text).toBe("")

    // The first client looks for its target, then acts: the answer is the change, not the page it did not read.
    const found = await first("mm_find", { text: "Add to cart" })
    const add = refOf(found.text, /button "Add to cart"/)
    const added = await first("mm_click", { a11yRef: add })
    expect(added.envelope.ok).toBe(true)
    expect(added.text).toMatch(/Cart: 1/)
    for (const line of UNCHANGED) expect(added.text).not.toMatch(line)
    // The search looked at the test ids too: they are not news either.
    expect(added.text).not.toMatch(/testIds:/)

    // The second client never looked at this page: its first action answers the whole page (it needs it).
    const noted = await second("mm_click", { testId: "note" })
    expect(noted.envelope.ok).toBe(true)
    expect(noted.text).toMatch(/Noted/)
    expect(noted.text).toMatch(/testIds: add, note/)
    for (const line of UNCHANGED) expect(noted.text).toMatch(line)

    // Now it has seen the page: its next answer is its change alone.
    const again = await second("mm_click", { a11yRef: add })
    expect(again.text).toMatch(/Cart: 2/)
    for (const line of [...UNCHANGED, /Noted/]) expect(again.text).not.toMatch(line)

    // The first client's record is its own: it is told of both changes made since it looked (the note the
    // second client made, the cart), and of nothing else; its ref still acts.
    const third = await first("mm_click", { a11yRef: add })
    expect(third.text).toMatch(/Cart: 3/)
    expect(third.text).toMatch(/Noted/)
    for (const line of UNCHANGED) expect(third.text).not.toMatch(line)

    // A failure answers the whole page, as before.
    const failed = await first("mm_click", { a11yRef: "e9999" })
    expect(failed.envelope.ok).toBe(false)
    for (const line of UNCHANGED) expect(failed.text).toMatch(line)

    // A reload makes a new document: each client's record carries over to it, so neither is answered the
    // whole page again. The first is told what the reload reset (the cart, the note) and nothing else.
    const reloaded = await first("mm_navigate", { screen: "reload" })
    expect(reloaded.envelope.ok).toBe(true)
    expect(reloaded.text).toMatch(/Cart: 0/)
    expect(reloaded.text).toMatch(/No note/)
    for (const line of UNCHANGED) expect(reloaded.text).not.toMatch(line)
    // The second client's record came along too: its action answers its change and what it had not seen.
    const afterReload = await second("mm_click", { a11yRef: add })
    expect(afterReload.envelope.ok).toBe(true)
    expect(afterReload.text).toMatch(/Cart: 1/)
    expect(afterReload.text).toMatch(/No note/)
    for (const line of UNCHANGED) expect(afterReload.text).not.toMatch(line)
  }, 120_000)

  it("a page keeps the records of its 8 most recent clients: one whose record went is answered the whole page again", async () => {
    const calls = await Promise.all(Array.from({ length: 9 }, () => connect()))
    // Each looks, the first one first: nine records, one too many.
    for (const call of calls) expect((await call("mm_find", { text: "Add to cart" })).envelope.ok).toBe(true)
    const [oldest, ...rest] = calls
    const kept = await rest[0]!("mm_click", { testId: "add" })
    for (const line of UNCHANGED) expect(kept.text).not.toMatch(line)
    // The first client's record went: it gets what it needs, the whole page.
    const evicted = await oldest!("mm_click", { testId: "add" })
    expect(evicted.envelope.ok).toBe(true)
    for (const line of UNCHANGED) expect(evicted.text).toMatch(line)
  }, 120_000)

  it("an accessibility snapshot counts as looking: the next action answers only what changed", async () => {
    const call = await connect()
    // The session from the first test is shared; this client looks with a snapshot first.
    const shown = await call("mm_describe_screen", {})
    expect(shown.envelope.ok).toBe(true)
    const note = await call("mm_click", { testId: "add" })
    expect(note.text).toMatch(/Cart: \d/)
    for (const line of UNCHANGED) expect(note.text).not.toMatch(line)
  }, 120_000)
})
