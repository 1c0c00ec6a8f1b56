// The built command over Streamable HTTP (--port): DNS-rebinding and token checks, a flow with the SDK
// client, a client leaving blocks no other, --shared-browser, idle clients and sessions, the client limit.
import { randomUUID } from "node:crypto"
import * as fs from "node:fs"
import * as http from "node:http"
import * as net from "node:net"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { spawnSync } from "node:child_process"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { loginPage, servePages, type RunningServer } from "../demo/sample-app.js"
import { tempDir } from "./support/browser.js"
import { binEntry, browserPids, startHttpServer, waitUntil, type RunningHttpServer } from "./support/http-server.js"

const TOKEN = "test-token-1234"

const connect = async (url: string, token: string | null = TOKEN) => {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    ...(token === null ? {} : { requestInit: { headers: { authorization: `Bearer ${token}` } } })
  })
  const client = new Client({ name: "http-test", version: "1.0.0" })
  await client.connect(transport)
  return { client, transport }
}

const envelopeOf = (result: Awaited<ReturnType<Client["callTool"]>>) => {
  const content = result.content as Array<{ type: string; text?: string }>
  const envelope = JSON.parse(content[0]!.text!)
  expect(result.isError).toBe(!envelope.ok)
  return envelope
}

const initializeBody = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } }
})

/** A raw POST of initialize with the given headers (Host cannot be set through fetch). */
const rawInitialize = (url: string, headers: Record<string, string>) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const target = new URL(url)
    const request = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }
      },
      (response) => {
        let body = ""
        response.setEncoding("utf8")
        response.on("data", (chunk: string) => (body += chunk))
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }))
      }
    )
    request.on("error", reject)
    request.end(initializeBody)
  })

describe("Streamable HTTP", () => {
  let app: RunningServer
  let server: RunningHttpServer
  const marker = randomUUID()

  beforeAll(async () => {
    expect(fs.existsSync(binEntry), "run npm run build first").toBe(true)
    app = await servePages({ "/": loginPage })
    server = await startHttpServer(["--app-url", `${app.url}/`, "--auth-token", TOKEN], marker)
  })
  afterAll(async () => {
    await server?.stop()
    await app?.close()
  })

  it("listens on 127.0.0.1 at /mcp", () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/)
  })

  it("--host 0.0.0.0 without --auth-token and --allowed-hosts exits 2 at start; with them, stderr names the address really bound", async () => {
    const refused = spawnSync(process.execPath, [binEntry, "--port", "0", "--host", "0.0.0.0", "--artifacts-dir", tempDir()], {
      encoding: "utf8",
      timeout: 30_000
    })
    expect(refused.status).toBe(2)
    expect(refused.stderr).toContain("--host 0.0.0.0 listens beyond this machine")
    expect(refused.stderr).toContain("--auth-token")
    expect(refused.stderr).not.toContain("listening on")
    const exposed = await startHttpServer(["--host", "0.0.0.0", "--auth-token", TOKEN, "--allowed-hosts", "localhost,127.0.0.1"], marker)
    try {
      expect(exposed.stderr()).toMatch(/listening on http:\/\/0\.0\.0\.0:(\d+)\/mcp \(this machine: http:\/\/127\.0\.0\.1:\1\/mcp\)/)
    } finally {
      await exposed.stop()
    }
  })

  it("refuses a request without the bearer token, or with a wrong one, with 401", async () => {
    const without = await rawInitialize(server.url, {})
    expect(without.status).toBe(401)
    expect(without.body).toContain("Bearer")
    const wrong = await rawInitialize(server.url, { authorization: "Bearer nope" })
    expect(wrong.status).toBe(401)
    await expect(connect(server.url, null)).rejects.toThrow()
    const right = await rawInitialize(server.url, { authorization: `Bearer ${TOKEN}` })
    expect(right.status).toBe(200)
  })

  it("refuses a foreign Host or Origin with 403 (DNS rebinding), and accepts the localhost forms", async () => {
    const port = new URL(server.url).port
    const auth = { authorization: `Bearer ${TOKEN}` }
    const rebound = await rawInitialize(server.url, { ...auth, host: `evil.example:${port}` })
    expect(rebound.status).toBe(403)
    expect(rebound.body).toContain("evil.example")
    const origin = await rawInitialize(server.url, { ...auth, origin: "http://evil.example" })
    expect(origin.status).toBe(403)
    const nullOrigin = await rawInitialize(server.url, { ...auth, origin: "null" })
    expect(nullOrigin.status).toBe(403)
    const local = await rawInitialize(server.url, { ...auth, host: `localhost:${port}`, origin: "http://localhost:6274" })
    expect(local.status).toBe(200)
  })

  it("keeps an idle connection open past Node's 5 s: a request sent on it after 6 s is answered (a lagging client got 'fetch failed')", async () => {
    const target = new URL(server.url)
    const socket = net.connect(Number(target.port), target.hostname)
    socket.setEncoding("utf8")
    let received = ""
    socket.on("data", (chunk: string) => (received += chunk))
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()))
    const ask = async () => {
      const before = received.length
      socket.write(`GET /elsewhere HTTP/1.1\r\nHost: ${target.host}\r\nConnection: keep-alive\r\n\r\n`)
      expect(await waitUntil(() => /\r\n\r\n[\s\S]*$/.test(received.slice(before)) && received.slice(before).includes("HTTP/1.1 "), 10_000)).toBe(true)
      return received.slice(before)
    }
    try {
      const first = await ask()
      expect(first).toMatch(/^HTTP\/1\.1 40\d/)
      expect(first.toLowerCase()).toContain("keep-alive: timeout=65")
      await new Promise((resolve) => setTimeout(resolve, 6_000))
      expect(socket.destroyed).toBe(false)
      expect(await ask()).toMatch(/^HTTP\/1\.1 40\d/)
    } finally {
      socket.destroy()
      await closed
    }
  })

  it("answers 404 for another path and for an unknown session", async () => {
    const other = await rawInitialize(server.url.replace("/mcp", "/other"), { authorization: `Bearer ${TOKEN}` })
    expect(other.status).toBe(404)
    const stale = await rawInitialize(server.url, { authorization: `Bearer ${TOKEN}`, "mcp-session-id": "no-such-session" })
    expect(stale.status).toBe(404)
  })

  it("runs a flow with the SDK client: launch, type, click, wait, read", async () => {
    const { client, transport } = await connect(server.url)
    try {
      expect(transport.sessionId).toBeDefined()
      const { tools } = await client.listTools()
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["mm_launch", "mm_cleanup", "mm_run_steps"]))
      const launched = envelopeOf(await client.callTool({ name: "mm_launch", arguments: { goal: "http flow" } }))
      expect(launched.ok).toBe(true)
      expect(browserPids(marker).length).toBeGreaterThan(0)
      for (const [name, args] of [
        ["mm_type", { testId: "username", text: "alice" }],
        ["mm_type", { testId: "password", text: "correct horse" }],
        ["mm_click", { testId: "login-submit" }],
        ["mm_wait_for", { selector: "text=Welcome, alice" }]
      ] as const) {
        expect(envelopeOf(await client.callTool({ name, arguments: args })).ok, name).toBe(true)
      }
      const text = envelopeOf(await client.callTool({ name: "mm_get_text", arguments: { testId: "welcome" } }))
      expect(text.result.text).toBe("Welcome, alice")
      expect(envelopeOf(await client.callTool({ name: "mm_cleanup", arguments: {} })).result.cleanedUp).toBe(true)
    } finally {
      await transport.terminateSession()
      await client.close()
    }
  })

  it("a client that leaves without ending its session blocks no other: the next one launches at once", async () => {
    const first = await connect(server.url)
    const launched = envelopeOf(await first.client.callTool({ name: "mm_launch", arguments: {} }))
    expect(launched.ok).toBe(true)
    // Gone without mm_cleanup and without ending its HTTP session.
    await first.client.close()
    const second = await connect(server.url)
    try {
      const own = envelopeOf(await second.client.callTool({ name: "mm_launch", arguments: {} }))
      expect(own.ok).toBe(true)
      expect(own.result.sessionId).not.toBe(launched.result.sessionId)
      expect(envelopeOf(await second.client.callTool({ name: "mm_cleanup", arguments: {} })).result.cleanedUp).toBe(true)
      // The first one's session is closed by the id it was given, as any client holding the id may.
      const closed = envelopeOf(await second.client.callTool({ name: "mm_cleanup", arguments: { session: launched.result.sessionId } }))
      expect(closed.result.cleanedUp).toBe(true)
    } finally {
      await second.transport.terminateSession().catch(() => undefined)
      await second.client.close()
    }
  })
})

describe("Streamable HTTP with --shared-browser", () => {
  it("every client drives the one browser, which stays open when a client leaves; SIGTERM closes it", async () => {
    const app = await servePages({ "/": loginPage })
    const marker = randomUUID()
    const server = await startHttpServer(["--app-url", `${app.url}/`, "--shared-browser"], marker)
    try {
      const first = await connect(server.url, null)
      const second = await connect(server.url, null)
      expect(envelopeOf(await first.client.callTool({ name: "mm_launch", arguments: {} })).ok).toBe(true)
      expect(envelopeOf(await second.client.callTool({ name: "mm_type", arguments: { testId: "username", text: "bob" } })).ok).toBe(true)
      const again = envelopeOf(await second.client.callTool({ name: "mm_launch", arguments: {} }))
      expect(again.error.code).toBe("MM_SESSION_ALREADY_RUNNING")
      await first.transport.terminateSession()
      await first.client.close()
      const text = envelopeOf(await second.client.callTool({ name: "mm_get_text", arguments: { testId: "username" } }))
      expect(text.result.text).toBe("bob")
      expect(browserPids(marker).length).toBeGreaterThan(0)

      expect(await server.stop()).toBe(143)
      expect(await waitUntil(() => browserPids(marker).length === 0, 15_000)).toBe(true)
      await second.client.close().catch(() => undefined)
    } finally {
      await server.stop()
      await app.close()
    }
  })
})

describe("Streamable HTTP idle sessions", () => {
  it("a client that sends nothing for --idle-timeout seconds loses its HTTP session, and its browser session its lease", async () => {
    const app = await servePages({ "/": loginPage })
    const marker = randomUUID()
    const server = await startHttpServer(["--app-url", `${app.url}/`, "--idle-timeout", "1", "--session-idle-timeout", "2"], marker)
    try {
      const { client } = await connect(server.url, null)
      expect(envelopeOf(await client.callTool({ name: "mm_launch", arguments: {} })).ok).toBe(true)
      expect(browserPids(marker).length).toBeGreaterThan(0)
      expect(await waitUntil(() => browserPids(marker).length === 0, 15_000), server.stderr()).toBe(true)
      await expect(client.callTool({ name: "mm_get_state", arguments: {} })).rejects.toThrow(/404|not found/i)
      await client.close()
    } finally {
      await server.stop()
      await app.close()
    }
  })
})

describe("Streamable HTTP client limit", () => {
  it("--max-clients: an initialize beyond the limit gets 503 saying so; a closed session frees its place", async () => {
    const server = await startHttpServer(["--max-clients", "2"], randomUUID())
    try {
      const first = await connect(server.url, null)
      const second = await connect(server.url, null)
      const over = await rawInitialize(server.url, { host: new URL(server.url).host })
      expect(over.status).toBe(503)
      expect(JSON.parse(over.body).error.message).toContain("Too many clients: this server holds at most 2 HTTP sessions at once (--max-clients)")
      // The sessions already open still work.
      expect((await second.client.listTools()).tools.length).toBeGreaterThan(0)
      await first.transport.terminateSession()
      await first.client.close()
      const third = await connect(server.url, null)
      expect((await third.client.listTools()).tools.length).toBeGreaterThan(0)
      await Promise.all([second.client.close(), third.client.close()])
    } finally {
      await server.stop()
    }
  })
})
