// Many browser sessions in one server (issue 20), through the built command with the SDK client over
// Streamable HTTP and stdio, real Chromium on pages served on 127.0.0.1: isolation between clients,
// addressing by id and name, ownership in mm_sessions, the lease, the limit, a browser of its own for an
// extension, a crash of one browser, and SIGTERM leaving nothing behind.
import { randomUUID } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { execFileSync } from "node:child_process"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { servePages, type RunningServer } from "../demo/sample-app.js"
import { html, tempDir } from "./support/browser.js"
import { connectHttp, binEntry, browserPids, startHttpServer, waitUntil, type RunningHttpServer } from "./support/http-server.js"

const connect = (url: string) => connectHttp(url, "sessions-test")

const envelopeOf = (result: Awaited<ReturnType<Client["callTool"]>>) => {
  const content = result.content as Array<{ type: string; text?: string }>
  return { ...JSON.parse(content[0]!.text!), snapshot: content[1]?.text ?? "" }
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => envelopeOf(await client.callTool({ name, arguments: args }))

const ok = async (client: Client, name: string, args: Record<string, unknown> = {}) => {
  const envelope = await call(client, name, args)
  expect(envelope.error, `${name} ${JSON.stringify(args)}`).toBeUndefined()
  return envelope
}

/** A process's command line ("" once it is gone). */
const argsOf = (pid: number) => {
  try {
    return execFileSync("ps", ["-o", "args=", "-p", String(pid)], { encoding: "utf8" })
  } catch {
    return ""
  }
}

/** Browser main processes (not renderers, GPU or utility processes) started with the marker. */
const mainBrowserPids = (marker: string) => browserPids(marker).filter((pid) => !argsOf(pid).includes("--type=") && argsOf(pid) !== "")

const pages = {
  "/": html("Home", "<p>home</p>"),
  "/a": html("Page A", `<p data-testid="who">alpha</p><script>console.error("error from a")</script>`),
  "/b": html("Page B", `<p data-testid="who">bravo</p><script>console.error("error from b")</script>`),
  // About 50 MB of JS heap, held by the page.
  "/heavy": html("Heavy", `<p>heavy</p><script>window.held = Array.from({ length: 1_000_000 }, (_, i) => ({ i, s: "item " + i }))</script>`),
  "/todo": html(
    "Todo",
    `<input data-testid="new"><button data-testid="add" onclick="const i=document.querySelector('[data-testid=new]');const li=document.createElement('li');li.textContent=i.value;document.querySelector('ul').append(li);i.value=''">Add</button><ul data-testid="list"></ul>`
  )
}

describe("many sessions over Streamable HTTP", () => {
  let app: RunningServer
  let server: RunningHttpServer
  const marker = randomUUID()

  beforeAll(async () => {
    expect(fs.existsSync(binEntry), "run npm run build first").toBe(true)
    app = await servePages(pages)
    server = await startHttpServer(["--app-url", `${app.url}/`, "--private-knowledge"], marker)
  })
  afterAll(async () => {
    await server?.stop()
    await app?.close()
  })

  it("two clients launch and act at once; neither sees the other's page, tabs, console, steps or sessions", async () => {
    const [a, b] = await Promise.all([connect(server.url), connect(server.url)])
    try {
      const [launchedA, launchedB] = await Promise.all([ok(a.client, "mm_launch", { name: "mine" }), ok(b.client, "mm_launch", { name: "mine" })])
      const idA: string = launchedA.result.sessionId
      // A browser this server launched is not named (only a remote one is: test/reach/pool.test.ts).
      expect(launchedA.result).not.toHaveProperty("browser")
      const idB: string = launchedB.result.sessionId
      expect(idA).not.toBe(idB)
      // At least 96 random bits after the time part.
      expect(idA).toMatch(/^mm-[0-9a-z]+-[A-Za-z0-9_-]{16,}$/)
      const [navA, navB] = await Promise.all([
        ok(a.client, "mm_navigate", { url: `${app.url}/a` }),
        ok(b.client, "mm_navigate", { url: `${app.url}/b` })
      ])
      expect(navA.console?.join("\n") ?? "").toContain("error from a")
      expect(navA.console?.join("\n") ?? "").not.toContain("error from b")
      expect(navB.console?.join("\n") ?? "").not.toContain("error from a")
      const [textA, textB] = await Promise.all([
        ok(a.client, "mm_get_text", { testId: "who" }),
        ok(b.client, "mm_get_text", { testId: "who", session: "mine" })
      ])
      expect(textA.result.text).toBe("alpha")
      expect(textB.result.text).toBe("bravo")
      const tabsA = await ok(a.client, "mm_tabs", { action: "list" })
      expect(tabsA.result.tabs).toContain("/a")
      expect(tabsA.result.tabs).not.toContain("/b")
      const consoleB = await ok(b.client, "mm_console_messages", {})
      expect(JSON.stringify(consoleB.result)).not.toContain("error from a")

      // mm_sessions shows each client only its own session.
      const listedA = await ok(a.client, "mm_sessions", {})
      expect(listedA.result.sessions.map((session: { id: string }) => session.id)).toEqual([idA])
      expect(listedA.result.sessions[0]).toMatchObject({ name: "mine", title: "Page A", current: true })
      const listedB = await ok(b.client, "mm_sessions", {})
      expect(listedB.result.sessions.map((session: { id: string }) => session.id)).toEqual([idB])
      // Memory per session: the JS heap of its own pages; a page that holds 50 MB shows in its session only.
      const heapA: number = listedA.result.sessions[0].heapMb
      expect(heapA).toBeGreaterThan(0)
      await ok(b.client, "mm_navigate", { url: `${app.url}/heavy` })
      const heavyB: number = (await ok(b.client, "mm_sessions", {})).result.sessions[0].heapMb
      const againA: number = (await ok(a.client, "mm_sessions", {})).result.sessions[0].heapMb
      expect(heavyB).toBeGreaterThan(heapA + 20)
      expect(againA).toBeLessThan(heavyB - 20)
      await ok(b.client, "mm_navigate", { url: `${app.url}/b` })
      // A name reaches only the client's own sessions: b's "mine" is b's.
      expect((await ok(b.client, "mm_get_state", { session: "mine" })).result.state.url).toContain("/b")
      // Still once b named a's session by its id (a's is named "mine" too, and a can choose its name): names are b's own first.
      expect((await ok(b.client, "mm_get_state", { session: idA })).result.state.url).toContain("/a")
      expect((await ok(b.client, "mm_get_state", { session: "mine" })).result.state.url).toContain("/b")
      expect((await ok(a.client, "mm_get_state", { session: "mine" })).result.state.url).toContain("/a")

      // --private-knowledge: each client's step memory holds only its own sessions.
      const knownA = JSON.stringify((await ok(a.client, "mm_knowledge_sessions", {})).result)
      expect(knownA).toContain(idA)
      expect(knownA).not.toContain(idB)

      await Promise.all([ok(a.client, "mm_cleanup", {}), ok(b.client, "mm_cleanup", {})])
      expect((await ok(a.client, "mm_sessions", {})).result).toEqual({ none: "You have no session: mm_launch starts one." })
    } finally {
      for (const { client, transport } of [a, b]) {
        await transport.terminateSession().catch(() => undefined)
        await client.close()
      }
    }
  })

  it("one call, one client: launch in one client, go on in the next ones with the session id; a guess finds nothing", async () => {
    const first = await connect(server.url)
    const launched = await ok(first.client, "mm_launch", {})
    const session: string = launched.result.sessionId
    await first.client.close()

    const second = await connect(server.url)
    await ok(second.client, "mm_navigate", { url: `${app.url}/todo`, session })
    await ok(second.client, "mm_type", { testId: "new", text: "milk", session })
    await ok(second.client, "mm_click", { testId: "add", session })
    // Its own list stays its own: the id it named is there, nothing else.
    expect((await ok(second.client, "mm_sessions", {})).result.sessions.map((listed: { id: string }) => listed.id)).toEqual([session])
    await second.client.close()

    const third = await connect(server.url)
    try {
      // Without the id the session is not this client's: no session runs for it.
      expect((await call(third.client, "mm_get_text", { testId: "list" })).error.code).toBe("MM_NO_ACTIVE_SESSION")
      const guessed = await call(third.client, "mm_get_text", { testId: "list", session: `${session.slice(0, -2)}xx` })
      expect(guessed.error.code).toBe("MM_SESSION_NOT_FOUND")
      const none = await call(third.client, "mm_sessions", {})
      expect(none.ok).toBe(true)
      expect(none.result).toEqual({ none: "You have no session: mm_launch starts one." })
      expect((await ok(third.client, "mm_get_text", { testId: "list", session })).result.text).toBe("milk")
      // Named by its id, the session is one this client may use: a call without one says so, and how to make it current.
      const unnamed = await call(third.client, "mm_get_state", {})
      expect(unnamed.error.code).toBe("MM_NO_ACTIVE_SESSION")
      expect(unnamed.error.message).toBe(
        'mm_get_state needs a current session: 1 session you may use runs (mm_sessions lists it; action "switch" makes one current, or pass session: "<id or name>"), or call mm_launch to start one.'
      )
      expect((await ok(third.client, "mm_cleanup", { session })).result.cleanedUp).toBe(true)
      const closed = await call(third.client, "mm_get_state", { session })
      expect(closed.error.code).toBe("MM_SESSION_NOT_FOUND")
      // It says why the session is gone: another client (this one) closed it.
      expect(closed.error.message).toContain("it was closed by mm_cleanup of another client")
      // A client's own current session, closed: the next call says which and why, and what to do.
      const own: string = (await ok(third.client, "mm_launch", {})).result.sessionId
      await ok(third.client, "mm_cleanup", {})
      const after = await call(third.client, "mm_get_state", {})
      expect(after.error.code).toBe("MM_NO_ACTIVE_SESSION")
      expect(after.error.message).toBe(
        `mm_get_state needs a running session: your current one (${own}) was closed by mm_cleanup. Call mm_launch to start a new one.`
      )
    } finally {
      await third.transport.terminateSession().catch(() => undefined)
      await third.client.close()
    }
  })
})

describe("session lease, limit and browsers", () => {
  it("a client gone without ending: its session is gone within the lease, and never counted against the next client", async () => {
    const app = await servePages(pages)
    const marker = randomUUID()
    const server = await startHttpServer(["--app-url", `${app.url}/`, "--session-idle-timeout", "2", "--max-sessions", "1"], marker)
    try {
      const gone = await connect(server.url)
      const session: string = (await ok(gone.client, "mm_launch", {})).result.sessionId
      await gone.client.close()
      const next = await connect(server.url)
      // The limit is 1 and that session is open: MM_SESSION_LIMIT, naming none of this client's.
      const refused = await call(next.client, "mm_launch", {})
      expect(refused.error.code).toBe("MM_SESSION_LIMIT")
      expect(refused.error.message).toContain("--max-sessions")
      // Within the lease, it closes (its context, and the shared browser with its last context).
      expect(await waitUntil(() => mainBrowserPids(marker).length === 0, 20_000), server.stderr()).toBe(true)
      const leased = await call(next.client, "mm_get_state", { session })
      expect(leased.error.code).toBe("MM_SESSION_NOT_FOUND")
      expect(leased.error.message).toContain("it was closed after 2 s without a call (its idle lease, --session-idle-timeout)")
      const own = await ok(next.client, "mm_launch", { name: "one" })
      const over = await call(next.client, "mm_launch", {})
      expect(over.error.message).toContain(`yours: ${own.result.sessionId} (one)`)
      // Its one session is its current one: mm_cleanup (listed in every state) closes it, no session argument needed.
      expect(over.error.message).toContain("your current one; close it with mm_cleanup")
      expect((await ok(next.client, "mm_cleanup", {})).result.cleanedUp).toBe(true)
      await ok(next.client, "mm_launch", {})
      await next.client.close()
    } finally {
      await server.stop()
      await app.close()
    }
  })

  it("an extension session gets a browser of its own; killing it leaves the other session working", async () => {
    const app = await servePages(pages)
    const marker = randomUUID()
    const extension = path.resolve(import.meta.dirname, "fixtures/extension-mv3")
    const server = await startHttpServer(["--app-url", `${app.url}/`], marker)
    try {
      await server.explaining(async () => {
        const { client } = await connect(server.url)
        const web = (await ok(client, "mm_launch", { name: "web" })).result.sessionId
        const shared = mainBrowserPids(marker)
        expect(shared).toHaveLength(1)
        const ext = (await ok(client, "mm_launch", { name: "ext", extensionPath: extension })).result.sessionId
        expect(ext).not.toBe(web)
        const own = mainBrowserPids(marker).filter((pid) => !shared.includes(pid))
        expect(own).toHaveLength(1)
        process.kill(own[0]!, "SIGKILL")
        expect(await waitUntil(() => mainBrowserPids(marker).length === 1, 15_000)).toBe(true)
        expect((await call(client, "mm_get_state", { session: "ext" })).error.code).toBe("MM_BROWSER_CLOSED")
        await ok(client, "mm_navigate", { url: `${app.url}/a`, session: "web" })
        expect((await ok(client, "mm_get_text", { testId: "who", session: "web" })).result.text).toBe("alpha")
        // The dead session is listed as ended, and closing it leaves the other one alone.
        const listed = (await ok(client, "mm_sessions", {})).result.sessions
        expect(listed.find((session: { id: string }) => session.id === ext)).toMatchObject({ ended: true })
        await ok(client, "mm_cleanup", { session: "ext" })
        expect((await call(client, "mm_get_state", { session: ext })).error.message).toContain(
          "it ended when its browser died (MM_BROWSER_CLOSED), and was closed by mm_cleanup"
        )
        expect((await ok(client, "mm_get_state", { session: "web" })).result.state.url).toContain("/a")
        await client.close()
      })
    } finally {
      await server.stop()
      await app.close()
    }
  })

  it("SIGTERM with 4 sessions open leaves no browser and no profile behind", async () => {
    const app = await servePages(pages)
    const marker = randomUUID()
    const server = await startHttpServer(["--app-url", `${app.url}/`, "--browser-per-session"], marker)
    try {
      const { client } = await connect(server.url)
      await Promise.all([1, 2, 3, 4].map((index) => ok(client, "mm_launch", { name: `s${index}` })))
      expect(mainBrowserPids(marker)).toHaveLength(4)
      const profiles = browserPids(marker)
        .map((pid) => /--user-data-dir=(\S+)/.exec(argsOf(pid))?.[1])
        .filter((dir): dir is string => dir !== undefined)
      expect(new Set(profiles).size).toBe(4)
      expect(await server.stop()).toBe(143)
      expect(await waitUntil(() => browserPids(marker).length === 0, 15_000)).toBe(true)
      for (const dir of profiles) expect(fs.existsSync(dir), dir).toBe(false)
      await client.close().catch(() => undefined)
    } finally {
      await server.stop()
      await app.close()
    }
  })
})

describe("many sessions over stdio", () => {
  it("four launches at once under --max-sessions 2: one name, one session; the refused launch counts the ones starting", async () => {
    const app = await servePages(pages)
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [binEntry, "--app-url", `${app.url}/`, "--artifacts-dir", tempDir(), "--loopback-only", "--max-sessions", "2"],
      stderr: "pipe"
    })
    const client = new Client({ name: "sessions-race", version: "1.0.0" })
    await client.connect(transport)
    try {
      expect((await ok(client, "mm_sessions", {})).result).toEqual({ none: "You have no session: mm_launch starts one." })
      const answers = await Promise.all(["d", "d", "e", "f"].map((name) => call(client, "mm_launch", { name })))
      const launched = answers.filter((answer) => answer.error === undefined)
      const refused = answers.filter((answer) => answer.error !== undefined)
      expect(launched).toHaveLength(2)
      const named = refused.find((answer) => answer.error.code === "MM_INVALID_INPUT")
      expect(named?.error.message, JSON.stringify(refused)).toContain('you have a session named "d"')
      const limited = refused.filter((answer) => answer.error.code === "MM_SESSION_LIMIT")
      expect(limited.length, JSON.stringify(refused)).toBeGreaterThan(0)
      for (const answer of limited) {
        expect(answer.error.message).not.toContain("none of them is yours")
        expect(answer.error.message).toContain("yours: ")
      }
      const listed: Array<{ name: string }> = (await ok(client, "mm_sessions", {})).result.sessions
      expect(listed).toHaveLength(2)
      expect(new Set(listed.map((session) => session.name)).size).toBe(2)
      expect(listed.map((session) => session.name)).toContain("d")
    } finally {
      await client.close()
      await app.close()
    }
  })

  it("one stdio client runs three sessions in parallel batches, each ending with exactly its own items", async () => {
    const app = await servePages(pages)
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [binEntry, "--app-url", `${app.url}/`, "--artifacts-dir", tempDir(), "--loopback-only"],
      stderr: "pipe"
    })
    const client = new Client({ name: "sessions-stdio", version: "1.0.0" })
    await client.connect(transport)
    try {
      const names = ["red", "green", "blue"]
      const ids = await Promise.all(names.map(async (name) => (await ok(client, "mm_launch", { name })).result.sessionId as string))
      expect(new Set(ids).size).toBe(3)
      const batches = await Promise.all(
        names.map((name) =>
          ok(client, "mm_run_steps", {
            session: name,
            includeObservations: "none",
            steps: [
              { tool: "mm_navigate", args: { url: `${app.url}/todo` } },
              ...[1, 2, 3].flatMap((item) => [
                { tool: "mm_type", args: { testId: "new", text: `${name}-${item}` } },
                { tool: "mm_click", args: { testId: "add" } }
              ]),
              { tool: "mm_get_text", args: { testId: "list" } }
            ]
          })
        )
      )
      batches.forEach((batch, index) => {
        expect(batch.ok).toBe(true)
        const name = names[index]!
        const text: string = batch.result.steps.at(-1).result.text
        expect(text.match(/[a-z]+-\d/g)).toEqual([`${name}-1`, `${name}-2`, `${name}-3`])
      })
      const listed = (await ok(client, "mm_sessions", {})).result.sessions
      expect(listed.map((session: { name: string }) => session.name).sort()).toEqual(["blue", "green", "red"])
      // The current session is the one launched last; switching makes another current.
      await ok(client, "mm_sessions", { action: "switch", session: "red" })
      expect((await ok(client, "mm_get_text", { testId: "list" })).result.text.match(/[a-z]+-\d/g)).toEqual(["red-1", "red-2", "red-3"])
    } finally {
      await client.close()
      await app.close()
    }
  })
})
