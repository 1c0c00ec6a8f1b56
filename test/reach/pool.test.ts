// A pool of remote browsers (issue 23): the built server over Streamable HTTP with two real Playwright
// browser servers on 127.0.0.1 (launchServer, the protocol of `playwright run-server`). Placement on the
// least loaded one, one that is down at start and comes back, one killed under its sessions, and the
// endpoint headers: they reach the browser server (through a loopback proxy that records them) and
// nothing the server answers, records or logs holds them, also where a refusing server quotes them.
import { randomUUID } from "node:crypto"
import * as fs from "node:fs"
import * as http from "node:http"
import * as net from "node:net"
import * as path from "node:path"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { chromium, type BrowserServer } from "playwright"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { servePages, type RunningServer } from "../../demo/sample-app.js"
import { html, LOOPBACK_ARGS, tempDir } from "../support/browser.js"
import { binEntry, startHttpServer, type RunningHttpServer } from "../support/http-server.js"
import { executablePath } from "./helpers.js"

const pages = {
  "/": html("Home", "<p>home</p>"),
  "/who": html("Who", `<p data-testid="who">here</p>`)
}

/** A Playwright browser server on 127.0.0.1 (port 0: any), headless with the loopback flags. */
const browserServer = (port = 0, wsPath?: string): Promise<BrowserServer> =>
  chromium.launchServer({
    executablePath: executablePath(),
    headless: true,
    args: [...LOOPBACK_ARGS],
    host: "127.0.0.1",
    port,
    ...(wsPath !== undefined ? { wsPath } : {})
  })

/** A port nothing listens on now (asked of the system, then released). */
const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = net.createServer()
    probe.listen(0, "127.0.0.1", () => {
      const port = (probe.address() as net.AddressInfo).port
      probe.close(() => resolve(port))
    })
  })

interface RecordingProxy {
  /** ws://127.0.0.1:PORT/... (with a token in its query, to be kept out of everything too). */
  readonly url: string
  /** The headers of every upgrade request it forwarded. */
  readonly seen: Array<http.IncomingHttpHeaders>
  /** How many connections it dropped (dropOn). */
  readonly dropped: () => number
  readonly close: () => Promise<void>
}

/**
 * A loopback WebSocket proxy: records each upgrade request's headers and forwards the connection to `target`.
 * With `dropOn`, the first time the browser server sends a message holding that text, the proxy drops the
 * connection instead of passing it on (the browser server gone at that moment, as far as its client sees).
 */
const recordingProxy = (target: string, token: string, dropOn?: string) =>
  new Promise<RecordingProxy>((resolve) => {
    const seen: Array<http.IncomingHttpHeaders> = []
    let dropped = 0
    const sockets = new Set<net.Socket>()
    const server = http.createServer((_, response) => response.end())
    server.on("upgrade", (request: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
      seen.push({ ...request.headers })
      const to = new URL(target)
      const upstream = net.connect(Number(to.port), to.hostname, () => {
        const lines = [`GET ${to.pathname}${to.search} HTTP/1.1`]
        for (let index = 0; index < request.rawHeaders.length; index += 2) {
          const name = request.rawHeaders[index]!
          lines.push(`${name}: ${name.toLowerCase() === "host" ? to.host : request.rawHeaders[index + 1]}`)
        }
        upstream.write(`${lines.join("\r\n")}\r\n\r\n`)
        if (head.length > 0) upstream.write(head)
        let carry = ""
        upstream.on("data", (chunk: Buffer) => {
          const text = carry + chunk.toString("latin1")
          if (dropOn !== undefined && dropped === 0 && text.includes(dropOn)) {
            dropped++
            socket.destroy()
            upstream.destroy()
            return
          }
          carry = dropOn === undefined ? "" : text.slice(-dropOn.length)
          socket.write(chunk)
        })
        socket.pipe(upstream)
      })
      for (const end of [socket, upstream]) {
        sockets.add(end)
        end.on("error", () => undefined)
        end.on("close", () => {
          socket.destroy()
          upstream.destroy()
        })
      }
    })
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as net.AddressInfo).port
      resolve({
        url: `ws://127.0.0.1:${port}/pw?token=${token}`,
        seen,
        dropped: () => dropped,
        close: () =>
          new Promise((done) => {
            for (const socket of sockets) socket.destroy()
            server.close(() => done())
          })
      })
    })
  })

/**
 * A browser server that refuses every connection and quotes the request's headers in its answer's status
 * line (the part of a refused handshake Playwright's error keeps): their values must still reach no one.
 */
const echoingEndpoint = (token: string) =>
  new Promise<{ readonly url: string; readonly close: () => Promise<void> }>((resolve) => {
    const server = http.createServer((_, response) => response.end())
    server.on("upgrade", (request: http.IncomingMessage, socket: net.Socket) => {
      const quoted = Object.entries(request.headers).filter(([name]) => name === "authorization" || name === "x-echo").map(([name, value]) => `${name}=${String(value)}`)
      socket.end(`HTTP/1.1 401 refused ${quoted.join(" ")}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`)
    })
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as net.AddressInfo).port
      resolve({ url: `ws://127.0.0.1:${port}/pw?token=${token}`, close: () => new Promise((done) => server.close(() => done())) })
    })
  })

interface Caller {
  readonly client: Client
  /** Every text any call answered, for the header check. */
  readonly answers: Array<string>
  readonly call: (name: string, args?: Record<string, unknown>) => Promise<any>
  readonly ok: (name: string, args?: Record<string, unknown>) => Promise<any>
}

const connect = async (url: string): Promise<Caller> => {
  const client = new Client({ name: "pool-test", version: "1.0.0" })
  await client.connect(new StreamableHTTPClientTransport(new URL(url)))
  const answers: Array<string> = []
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await client.callTool({ name, arguments: args })
    const content = result.content as Array<{ type: string; text?: string }>
    answers.push(...content.map((part) => part.text ?? ""))
    return JSON.parse(content[0]!.text!)
  }
  const ok = async (name: string, args: Record<string, unknown> = {}) => {
    const envelope = await call(name, args)
    expect(envelope.error, `${name} ${JSON.stringify(args)}`).toBeUndefined()
    return envelope
  }
  return { client, answers, call, ok }
}

/** Where each listed session runs, by id. */
const placement = async (caller: Caller): Promise<Record<string, string>> => {
  const listed = (await caller.ok("mm_sessions")).result.sessions ?? []
  return Object.fromEntries(listed.map((session: { id: string; browser: string }) => [session.id, session.browser]))
}

const hostPort = (endpoint: string) => new URL(endpoint).host

/** Every file under a directory, as text. */
const filesUnder = (dir: string): Array<{ file: string; text: string }> =>
  fs.readdirSync(dir, { recursive: true, withFileTypes: true }).flatMap((entry) => {
    if (!entry.isFile()) return []
    const file = path.join(entry.parentPath, entry.name)
    return [{ file, text: fs.readFileSync(file).toString("utf8") }]
  })

describe("a pool of two browser servers", () => {
  let app: RunningServer
  let server: RunningHttpServer
  let caller: Caller
  let second: BrowserServer
  let first: BrowserServer | undefined
  let firstUrl: string
  const marker = randomUUID()

  beforeAll(async () => {
    expect(fs.existsSync(binEntry), "run npm run build first").toBe(true)
    app = await servePages(pages)
    second = await browserServer()
    // The first one is configured but not started: it comes up in the test.
    firstUrl = `ws://127.0.0.1:${await freePort()}/pool-first`
    server = await startHttpServer(["--ws-endpoint", firstUrl, "--ws-endpoint", second.wsEndpoint(), "--max-sessions", "12"], marker)
    caller = await connect(server.url)
  })
  afterAll(async () => {
    await caller?.client.close()
    await server?.stop()
    await first?.close().catch(() => undefined)
    await second?.close().catch(() => undefined)
    await app?.close()
  })

  const closeAll = async () => {
    for (const id of Object.keys(await placement(caller))) await caller.ok("mm_sessions", { action: "close", session: id })
  }

  it("a browser server down at start is skipped; once it answers, later sessions are placed on it", async () => {
    const launched = await caller.ok("mm_launch", {})
    expect(await placement(caller)).toEqual({ [launched.result.sessionId]: hostPort(second.wsEndpoint()) })
    expect(server.stderr()).toContain(`could not connect to the browser at ws://${hostPort(firstUrl)} (--ws-endpoint)`)

    const url = new URL(firstUrl)
    first = await browserServer(Number(url.port), url.pathname)
    // Skipped for a while (a backoff), then tried again: some launch soon lands there.
    let landed: string | undefined
    for (let attempt = 0; attempt < 20 && landed === undefined; attempt++) {
      const next = (await caller.ok("mm_launch", {})).result.sessionId as string
      if ((await placement(caller))[next] === hostPort(firstUrl)) landed = next
      else await new Promise((resolve) => setTimeout(resolve, 500))
    }
    expect(landed).toBeDefined()
    await caller.ok("mm_navigate", { url: `${app.url}/who`, session: landed })
    expect((await caller.ok("mm_get_text", { testId: "who", session: landed })).result.text).toBe("here")
    await closeAll()
  })

  it("each new session goes to the browser server with the fewest sessions", async () => {
    const a = hostPort(firstUrl)
    const b = hostPort(second.wsEndpoint())
    const launches: Array<{ sessionId: string; browser?: string }> = []
    for (let index = 0; index < 4; index++) launches.push((await caller.ok("mm_launch", {})).result)
    const ids = launches.map((launched) => launched.sessionId)
    const placed = await placement(caller)
    expect(ids.map((id) => placed[id])).toEqual([a, b, a, b])
    // mm_launch says where the session landed, as mm_sessions does.
    expect(launches.map((launched) => launched.browser)).toEqual([a, b, a, b])
    // Two of the first's close: the next two go there, the first having fewer until both have two again.
    await caller.ok("mm_sessions", { action: "close", session: ids[0] })
    await caller.ok("mm_sessions", { action: "close", session: ids[2] })
    const more = [(await caller.ok("mm_launch", {})).result.sessionId, (await caller.ok("mm_launch", {})).result.sessionId]
    const now = await placement(caller)
    expect(more.map((id) => now[id])).toEqual([a, a])
    // Launches at the same moment spread too.
    const together = await Promise.all([0, 1, 2, 3].map(() => caller.ok("mm_launch", {})))
    const after = await placement(caller)
    const counts = Object.values(after).reduce<Record<string, number>>((all, where) => ({ ...all, [where]: (all[where] ?? 0) + 1 }), {})
    expect(together).toHaveLength(4)
    expect(counts).toEqual({ [a]: 4, [b]: 4 })
    await closeAll()

    // A launch with slowMo gets a connection of its own (slowMo is per connection), counted where it runs.
    const slow = (await caller.ok("mm_launch", { slowMo: 1 })).result.sessionId as string
    const plain = (await caller.ok("mm_launch", {})).result.sessionId as string
    expect(await placement(caller)).toEqual({ [slow]: a, [plain]: b })
    await caller.ok("mm_navigate", { url: `${app.url}/who`, session: slow })
    expect((await caller.ok("mm_get_text", { testId: "who", session: slow })).result.text).toBe("here")
    await closeAll()
  })

  it("a browser server killed under its sessions: they answer MM_BROWSER_CLOSED at once, the other's go on, new ones avoid it", async () => {
    const a = hostPort(firstUrl)
    const b = hostPort(second.wsEndpoint())
    const onA = (await caller.ok("mm_launch", {})).result.sessionId as string
    const onB = (await caller.ok("mm_launch", {})).result.sessionId as string
    expect(await placement(caller)).toEqual({ [onA]: a, [onB]: b })
    for (const session of [onA, onB]) await caller.ok("mm_navigate", { url: `${app.url}/who`, session })

    first!.process().kill("SIGKILL")
    // The connection's end closes its contexts: every call on them answers MM_BROWSER_CLOSED.
    const codes: Array<string> = []
    for (let attempt = 0; attempt < 50 && codes.at(-1) !== "MM_BROWSER_CLOSED"; attempt++) {
      codes.push((await caller.call("mm_get_state", { session: onA })).error?.code ?? "ok")
      if (codes.at(-1) !== "MM_BROWSER_CLOSED") await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(codes.at(-1)).toBe("MM_BROWSER_CLOSED")
    expect(codes.filter((code) => code !== "MM_BROWSER_CLOSED" && code !== "MM_PAGE_CLOSED")).toEqual([])
    const closed = await caller.call("mm_get_text", { testId: "who", session: onA })
    expect(closed.error.code).toBe("MM_BROWSER_CLOSED")
    expect(closed.error.message).toContain(`the browser server at ${a} went away`)
    expect(closed.error.message).toContain("mm_launch")

    // The other server's session goes on as if nothing happened.
    expect((await caller.ok("mm_get_text", { testId: "who", session: onB })).result.text).toBe("here")
    await caller.ok("mm_navigate", { url: `${app.url}/`, session: onB })
    // Listed where it ran, ended; its step records stay.
    const listed = (await caller.ok("mm_sessions")).result.sessions
    expect(listed.find((session: { id: string }) => session.id === onA)).toMatchObject({ browser: a, ended: true })
    expect(listed.find((session: { id: string }) => session.id === onB)).not.toHaveProperty("ended")
    expect(JSON.stringify((await caller.ok("mm_knowledge_sessions")).result)).toContain(onA)
    // New sessions go to the one that answers.
    const next = (await caller.ok("mm_launch", {})).result.sessionId as string
    expect((await placement(caller))[next]).toBe(b)
    expect(server.stderr()).toContain(`the browser server at ${a} went away`)
    await closeAll()
  })
})

describe("endpoint headers", () => {
  const allSecret = `all-${randomUUID()}`
  const oneSecret = `one-${randomUUID()}`
  const queryToken = `query-${randomUUID()}`
  const deadSecret = `dead-${randomUUID()}`
  const echoSecret = `echo-${randomUUID()}`
  let dead: string
  let echoing: { readonly url: string; readonly close: () => Promise<void> }
  let app: RunningServer
  let servers: Array<BrowserServer> = []
  let proxies: Array<RecordingProxy> = []
  let server: RunningHttpServer
  let artifacts: string

  beforeAll(async () => {
    app = await servePages(pages)
    servers = await Promise.all([browserServer(), browserServer()])
    proxies = await Promise.all(servers.map((browser) => recordingProxy(browser.wsEndpoint(), queryToken)))
    artifacts = tempDir()
    // Nothing listens there: the first launch tries it first and logs why it failed.
    dead = `ws://127.0.0.1:${await freePort()}/pw?token=${queryToken}`
    // Then one that refuses, quoting the headers it got.
    echoing = await echoingEndpoint(queryToken)
    const headers = {
      "*": { Authorization: `Bearer ${allSecret}` },
      [proxies[0]!.url]: { "X-Pool-Token": oneSecret },
      [hostPort(dead)]: { "X-Dead": deadSecret },
      [hostPort(echoing.url)]: { "X-Echo": echoSecret }
    }
    server = await startHttpServer(
      ["--ws-endpoint", dead, "--ws-endpoint", echoing.url, "--ws-endpoint", proxies[0]!.url, "--ws-endpoint", proxies[1]!.url, "--artifacts-dir", artifacts, "--save-har", "--log-level", "debug"],
      randomUUID(),
      { BWM_ENDPOINT_HEADERS: JSON.stringify(headers) }
    )
  })
  afterAll(async () => {
    await server?.stop()
    for (const proxy of proxies) await proxy.close()
    await echoing?.close()
    for (const browser of servers) await browser.close().catch(() => undefined)
    await app?.close()
  })

  it("reach the browser servers they are meant for, and appear in no answer, record, report or log", async () => {
    const caller = await connect(server.url)
    const ids: Array<string> = []
    for (let index = 0; index < 2; index++) {
      const id = (await caller.ok("mm_launch", {})).result.sessionId as string
      ids.push(id)
      await caller.ok("mm_navigate", { url: `${app.url}/who`, session: id })
      await caller.ok("mm_get_text", { testId: "who", session: id })
    }
    expect(server.stderr()).toContain(`could not connect to the browser at ws://${hostPort(dead)} (--ws-endpoint)`)
    // The refusal quoted both of its headers, each value replaced by its marker in the log.
    expect(server.stderr()).toContain(
      `could not connect to the browser at ws://${hostPort(echoing.url)} (--ws-endpoint): WebSocket error: ws://${hostPort(echoing.url)}/pw 401 refused authorization=[secret:endpoint-header:Authorization] x-echo=[secret:endpoint-header:X-Echo]`
    )
    const placed = await placement(caller)
    expect(new Set(Object.values(placed))).toEqual(new Set(proxies.map((proxy) => hostPort(proxy.url))))
    // The one for all reached both; the first's own only the first.
    expect(proxies[0]!.seen.map((headers) => [headers.authorization, headers["x-pool-token"]])).toEqual([[`Bearer ${allSecret}`, oneSecret]])
    expect(proxies[1]!.seen.map((headers) => [headers.authorization, headers["x-pool-token"]])).toEqual([[`Bearer ${allSecret}`, undefined]])

    // A browser server that goes away is logged and answered about, by host:port only.
    await proxies[0]!.close()
    const ended = await caller.call("mm_get_state", { session: ids[0] })
    expect(["MM_BROWSER_CLOSED", "MM_PAGE_CLOSED"]).toContain(ended.error?.code)
    await caller.ok("mm_launch", {})
    expect(server.stderr()).toContain(`the browser server at ${hostPort(proxies[0]!.url)} went away`)
    await caller.call("mm_report", { session: ids[1] })
    for (const id of ids) await caller.call("mm_cleanup", { session: id })
    await caller.client.close()
    await server.stop()

    const written = filesUnder(artifacts)
    expect(written.length).toBeGreaterThan(0)
    const everything = [...caller.answers, server.stderr(), ...written.map((entry) => entry.text)]
    for (const secret of [allSecret, oneSecret, deadSecret, echoSecret, queryToken]) {
      expect(everything.filter((text) => text.includes(secret))).toEqual([])
    }
  })
})

describe("a browser server that goes away while a session starts on it", () => {
  let app: RunningServer
  let browser: BrowserServer
  let proxies: Array<RecordingProxy> = []
  let server: RunningHttpServer

  beforeAll(async () => {
    app = await servePages(pages)
    browser = await browserServer()
    // The first drops its connection as the context is created, the second as the first tab is.
    proxies = await Promise.all(['"type":"BrowserContext"', '"type":"Page"'].map((dropOn) => recordingProxy(browser.wsEndpoint(), randomUUID(), dropOn)))
    server = await startHttpServer([...proxies.flatMap((proxy) => ["--ws-endpoint", proxy.url]), "--ws-endpoint", browser.wsEndpoint()], randomUUID())
  })
  afterAll(async () => {
    await server?.stop()
    for (const proxy of proxies) await proxy.close()
    await browser?.close().catch(() => undefined)
    await app?.close()
  })

  it("the session starts on another one: the launch does not fail", async () => {
    const caller = await connect(server.url)
    const launched = await caller.ok("mm_launch", {})
    // Placed on the first (all equal), whose context never came; then on the second, whose first tab never came.
    expect(proxies.map((proxy) => proxy.dropped())).toEqual([1, 1])
    expect(server.stderr()).toContain(`the browser at ws://${hostPort(proxies[0]!.url)} did not open a context`)
    expect(server.stderr()).toContain(`the browser server at ${hostPort(proxies[1]!.url)} went away while a session started on it`)
    await caller.ok("mm_navigate", { url: `${app.url}/who`, session: launched.result.sessionId })
    expect((await caller.ok("mm_get_text", { testId: "who", session: launched.result.sessionId })).result.text).toBe("here")
    await caller.client.close()
  })
})
