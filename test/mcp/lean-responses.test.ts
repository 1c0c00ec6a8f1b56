// Lean responses, over the SDK client and real Chromium: no empty field anywhere ([], {}, "" or null),
// the page (url, title, tab) only when it changed, a click or navigation that changes the page answers
// the new URL and title with the console errors raised since the client's previous response, and
// describe_screen says where the page is once. The envelope's schema leaves every field but ok optional.
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js"
import { ManagedRuntime, Schema, SchemaAST } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { servePages, type RunningServer } from "../../demo/sample-app.js"
import { appLayer, registryFor } from "../../src/cli/serve.js"
import { envelopeSchema } from "../../src/domain/envelope.js"
import { makeMcpServer } from "../../src/mcp/server.js"
import { html, testSettings } from "../support/browser.js"

const pages = {
  "/": html(
    "Shop",
    `<h1>Shop</h1>
     <label>Search <input id="q" data-testid="q"></label>
     <select data-testid="size" aria-label="Size"><option value="s">Small</option><option value="m">Medium</option></select>
     <button data-testid="add" onclick="document.querySelector('#cart').textContent = 'Cart: 1'">Add to cart</button>
     <p id="cart" data-testid="cart">Cart: 0</p>
     <button data-testid="fail" onclick="console.error('payment widget failed'); document.querySelector('#cart').textContent = 'Cart: error'">Pay</button>
     <button data-testid="route" onclick="history.pushState({}, '', '/orders'); setTimeout(() => { document.title = 'Orders'; document.querySelector('main').innerHTML = '<h2>Your orders</h2><ul><li>Order 1</li><li>Order 2</li></ul>'; console.error('orders: 1 failed to load') }, 60)">Orders</button>
     <a href="/about" data-testid="about">About us</a>
     <ul><li data-testid="item">Apples</li><li data-testid="item">Pears</li></ul>
     <main></main>
     <script>document.querySelector('#q').addEventListener('keydown', (e) => { if (e.key === 'Enter') document.querySelector('#cart').textContent = 'Searched: ' + e.target.value })</script>`
  ),
  "/about": html("About", `<h1>About us</h1><p>We sell fruit.</p><script>console.error("about: tracker blocked")</script>`)
}

/** Every place in a JSON value that is empty: [], {}, "" or null, by its path. */
const emptyPaths = (value: unknown, path = "$"): Array<string> => {
  if (value === null || value === "") return [path]
  if (Array.isArray(value)) return value.length === 0 ? [path] : value.flatMap((item, i) => emptyPaths(item, `${path}[${i}]`))
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
    return entries.length === 0 ? [path] : entries.flatMap(([key, item]) => emptyPaths(item, `${path}.${key}`))
  }
  return []
}

interface Response {
  readonly envelope: any
  /** Every text block after the envelope (the page as text), joined. */
  readonly text: string
  readonly blocks: ReadonlyArray<{ type: string; text?: string }>
}

let app: RunningServer
let runtime: ManagedRuntime.ManagedRuntime<any, any>
let client: Client
const responses: Array<{ name: string; response: Response }> = []

/** The envelope without `ms`, which a slow call (1 s or more, e.g. on a loaded machine) adds. */
const withoutMs = (envelope: Record<string, unknown>) => {
  const { ms, ...rest } = envelope
  expect(ms === undefined || (typeof ms === "number" && ms >= 1_000)).toBe(true)
  return rest
}

const call = async (name: string, args: Record<string, unknown> = {}): Promise<Response> => {
  const result = await client.callTool({ name, arguments: args })
  const blocks = result.content as Array<{ type: string; text?: string }>
  const envelope = JSON.parse(blocks[0]!.text!)
  const response = {
    envelope: { ...withoutMs(envelope), ...(envelope.ms !== undefined ? { ms: envelope.ms } : {}) },
    text: blocks.slice(1).filter((block) => block.type === "text").map((block) => block.text).join("\n"),
    blocks
  }
  responses.push({ name, response })
  return response
}

const refOf = (text: string, line: RegExp) => {
  const found = text.split("\n").find((candidate) => line.test(candidate))
  const ref = found === undefined ? undefined : /\[(e\d+)\]/.exec(found)?.[1]
  if (ref === undefined) throw new Error(`no line matching ${line} in:\n${text}`)
  return ref
}

beforeAll(async () => {
  app = await servePages(pages)
  // One session both clients share (the second one below reads the first one's page).
  const settings = testSettings({ appUrl: `${app.url}/`, sharedBrowser: true })
  runtime = ManagedRuntime.make(appLayer(settings, "warning"))
  const server = makeMcpServer(registryFor(settings), runtime)
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  client = new Client({ name: "lean-test", version: "1.0.0" })
  await server.connect(serverSide)
  await client.connect(clientSide)
}, 60_000)

afterAll(async () => {
  await call("mm_cleanup").catch(() => undefined)
  await client.close()
  await runtime.dispose()
  await app.close()
})

describe("lean responses", () => {
  it("the envelope's schema makes every field but ok optional", () => {
    const ast = envelopeSchema(Schema.Struct({ done: Schema.Boolean })).ast as SchemaAST.TypeLiteral
    const required = ast.propertySignatures.filter((signature) => !signature.isOptional).map((signature) => String(signature.name))
    expect(required).toEqual(["ok"])
  })

  it("a session's responses: the page when it changed, console errors since the previous response, nothing empty", async () => {
    const launched = await call("mm_launch")
    expect(launched.envelope.ok).toBe(true)
    expect(launched.envelope.result.state).toMatchObject({ url: `${app.url}/`, title: "Shop" })
    // The first page's tab is the session's only one, and a launch takes its second or more: neither is news.
    expect(launched.envelope.result.state.tab).toBeUndefined()
    expect(launched.envelope.ms).toBeUndefined()
    // The launch result says where the page is: not again beside it.
    expect(launched.envelope.page).toBeUndefined()

    // Reading does not repeat the page.
    const cart = await call("mm_get_text", { testId: "cart" })
    expect(withoutMs(cart.envelope)).toEqual({ ok: true, result: { text: "Cart: 0" } })
    const items = await call("mm_get_text", { testId: "item", all: true })
    expect(withoutMs(items.envelope)).toEqual({ ok: true, result: { texts: ["Apples", "Pears"] } })

    // A click that changes the page's content but not where it is: what changed, no page; its result
    // ({clicked: true}) only confirms what the text shows, so the JSON says {"ok":true} alone.
    const added = await call("mm_click", { testId: "add" })
    expect(withoutMs(added.envelope)).toEqual({ ok: true })
    expect(added.text).toContain("Cart: 1")

    const typed = await call("mm_type", { testId: "q", text: "kiwi", submit: true })
    expect(withoutMs(typed.envelope)).toEqual({ ok: true })
    expect(typed.text).toContain("Searched: kiwi")
    // A result that says more than the text keeps its place.
    expect((await call("mm_select_option", { testId: "size", values: ["Medium"] })).envelope.result).toEqual({ selected: ["m"] })
    expect((await call("mm_hover", { testId: "add" })).envelope.ok).toBe(true)
    const pressed = await call("mm_press_key", { key: "Tab" })
    expect(withoutMs(pressed.envelope)).toEqual({ ok: true })
    expect(pressed.text).not.toBe("")
    expect((await call("mm_wait_for", { testId: "item" })).envelope.ok).toBe(true)

    // An error raised by the click comes with the click's response, once.
    const failed = await call("mm_click", { testId: "fail" })
    expect(failed.envelope.console).toEqual(["error: payment widget failed"])
    expect(failed.envelope.page).toBeUndefined()
    expect((await call("mm_get_text", { testId: "cart" })).envelope.console).toBeUndefined()

    // A route change rendered a moment later: the new URL and title, the content, and the error it raised.
    const routed = await call("mm_click", { testId: "route" })
    expect(routed.envelope.page).toEqual({ url: `${app.url}/orders`, title: "Orders" })
    expect(routed.envelope.console).toEqual(["error: orders: 1 failed to load"])
    expect(routed.text).toContain("Order 2")

    // A navigation: new URL and title, and the error the new page logged while loading.
    const about = await call("mm_navigate", { url: `${app.url}/about` })
    expect(about.envelope.page).toEqual({ url: `${app.url}/about`, title: "About" })
    expect(about.envelope.console).toEqual(["error: about: tracker blocked"])
    const home = await call("mm_navigate", { url: `${app.url}/` })
    expect(home.envelope.page).toEqual({ url: `${app.url}/`, title: "Shop" })
    // The same page again: nothing to say about it.
    expect((await call("mm_navigate", { screen: "reload" })).envelope.page).toBeUndefined()

    // Another tab: its id is news.
    const opened = await call("mm_navigate", { url: `${app.url}/about`, newTab: true })
    expect(opened.envelope.page).toMatchObject({ url: `${app.url}/about`, title: "About", tab: expect.stringMatching(/^t\d+$/) })
    expect((await call("mm_tabs", { action: "list" })).envelope.result.tabs).toMatch(/^Found 2 tabs\n/)
    const switched = await call("mm_tabs", { action: "switch", url: `${app.url}/` })
    expect(switched.envelope.ok).toBe(true)
    expect((await call("mm_tabs", { action: "close", url: `${app.url}/about` })).envelope.ok).toBe(true)

    // The rest of the page tools, for the emptiness check below.
    const snapshot = await call("mm_accessibility_snapshot")
    const addRef = refOf(snapshot.text, /button "Add to cart"/)
    // Every match shown, each marked ▶: no count beside them. Over the limit, the count says how many in all.
    const found = await call("mm_find", { text: "Pears" })
    expect(withoutMs(found.envelope)).toEqual({ ok: true })
    expect(found.text.match(/▶/g)).toHaveLength(1)
    const some = await call("mm_find", { role: "button", limit: 1 })
    expect(some.envelope.result).toEqual({ found: 3 })
    expect(some.text.match(/▶/g)).toHaveLength(1)
    expect((await call("mm_click", { a11yRef: addRef })).envelope.ok).toBe(true)
    expect((await call("mm_list_testids")).envelope.result.items.length).toBeGreaterThan(3)
    expect((await call("mm_screenshot", { name: "lean" })).envelope.ok).toBe(true)
    expect((await call("mm_get_state")).envelope.result.state).toMatchObject({ url: `${app.url}/`, title: "Shop" })
    const batch = await call("mm_run_steps", {
      steps: [
        { tool: "mm_click", args: { testId: "add" } },
        { tool: "mm_get_text", args: { testId: "cart" } },
        { tool: "mm_click", args: { testId: "about" } }
      ]
    })
    expect(batch.envelope.ok).toBe(true)
    expect(batch.envelope.result.steps.at(-1).page).toEqual({ url: `${app.url}/about`, title: "About" })
    // A page without test ids: the unlisted list_testids answers no items field, not an empty list.
    const noIds = await call("mm_list_testids")
    expect(noIds.envelope.ok).toBe(true)
    expect(noIds.envelope.result).toBeUndefined()
    expect((await call("mm_knowledge_last", { n: 3 })).envelope.ok).toBe(true)

    // Failures: the error, the whole page as text; still nothing empty.
    const missing = await call("mm_click", { testId: "nope", timeoutMs: 300 })
    expect(missing.envelope.error.code).toBe("MM_TARGET_NOT_FOUND")
    expect(missing.text).toContain('heading "About us"')
    expect((await call("mm_click", { testId: "a", selector: "b" })).envelope.error.code).toBe("MM_INVALID_INPUT")

    for (const { name, response } of responses) {
      expect(emptyPaths(response.envelope), `${name}: ${JSON.stringify(response.envelope)}`).toEqual([])
      for (const block of response.blocks) if (block.type === "text") expect(block.text, name).not.toBe("")
    }
    expect(responses.length).toBeGreaterThanOrEqual(28)
  }, 120_000)

  it("describe_screen says where the page is once: in its result, not beside it", async () => {
    expect((await call("mm_navigate", { url: `${app.url}/about` })).envelope.ok).toBe(true)
    const described = await call("mm_describe_screen")
    expect(described.envelope.ok).toBe(true)
    expect(described.envelope.page).toBeUndefined()
    expect(described.envelope.result.state).toMatchObject({ url: `${app.url}/about`, title: "About" })
    const everything = described.blocks.map((block) => block.text ?? "").join("\n")
    expect(everything.split(`${app.url}/about`).length - 1).toBe(1)
    // The page as text comes once too: as the text block after the JSON, as an action's, not inside the result.
    expect(described.envelope.result.snapshot).toBeUndefined()
    expect(described.blocks.filter((block) => block.type === "text")).toHaveLength(2)
    expect(described.text).toContain('heading "About us"')
    expect(described.blocks[0]!.text).not.toMatch(/heading|\[e\d+\]/)
    expect(emptyPaths(described.envelope)).toEqual([])
  }, 60_000)

  it("with structured output, the page text is the envelope's snapshot and every result matches its output schema", async () => {
    // A second client on the same browser, asking for output schemas: the SDK client checks each
    // structuredContent against the tool's outputSchema and throws when one does not match.
    const server = makeMcpServer(registryFor(testSettings({ appUrl: `${app.url}/` })), runtime, { structuredOutput: true })
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    const structured = new Client({ name: "lean-structured", version: "1.0.0" })
    await server.connect(serverSide)
    await structured.connect(clientSide)
    try {
      const listed = await structured.listTools()
      for (const name of ["mm_describe_screen", "mm_find"]) {
        const schema = listed.tools.find((candidate) => candidate.name === name)!.outputSchema as any
        // The page text is not a field of the result: the envelope's snapshot carries it.
        expect(Object.keys(schema.properties.result.properties), name).not.toContain("snapshot")
        expect(Object.keys(schema.properties.result.properties), name).not.toContain("matches")
        expect(schema.properties.snapshot.type, name).toBe("string")
      }
      for (const [name, args] of [
        ["mm_describe_screen", {}],
        ["mm_describe_screen", { rootSelector: "body" }],
        ["mm_find", { text: "About" }]
      ] as const) {
        const result = await structured.callTool({ name, arguments: args })
        const content = result.structuredContent as { ok: boolean; result?: Record<string, unknown>; snapshot?: string }
        expect(content.ok, name).toBe(true)
        expect(content.snapshot, name).toContain("About us")
        expect(content.result?.snapshot, name).toBeUndefined()
        const blocks = result.content as Array<{ type: string; text?: string }>
        expect(blocks[1]?.text, name).toBe(content.snapshot)
      }
    } finally {
      await structured.close()
    }
  }, 60_000)
})
