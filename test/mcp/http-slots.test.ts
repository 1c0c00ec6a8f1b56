// --max-clients through the built command over Streamable HTTP, real Chromium on pages served on 127.0.0.1:
// a client that went away without DELETE gives its place to a new one once idle for --client-evict-after
// (its browser session stays, reachable by id); a client with a call in flight never does; when none may
// go, an initialize gets 503 naming that minimum, and the call CLI says the server is full (exit 3).
import { execFile } from "node:child_process"
import { randomUUID } from "node:crypto"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { describe, expect, it } from "vitest"
import { connectHttp, binEntry, startHttpServer } from "../support/http-server.js"

const connect = (url: string) => connectHttp(url, "http-slots-test")

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => {
  const content = (await client.callTool({ name, arguments: args })).content as Array<{ type: string; text?: string }>
  const envelope = JSON.parse(content[0]!.text!)
  expect(envelope.error, `${name} ${JSON.stringify(args)}`).toBeUndefined()
  return envelope
}

/** Pages on 127.0.0.1: "/" answers at once, "/hold" only once released (a call in flight as long as the test wants). */
const servePages = async () => {
  const held: Array<http.ServerResponse> = []
  const arrived: Array<() => void> = []
  const server = http.createServer((request, response) => {
    if (request.url === "/hold") {
      held.push(response)
      for (const done of arrived.splice(0)) done()
      return
    }
    response.writeHead(200, { "content-type": "text/html" })
    response.end(`<title>Home</title><p data-testid="who">home</p>`)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    /** Resolves once `count` requests for /hold are held. */
    holding: (count: number) =>
      new Promise<void>((resolve) => {
        const check = () => (held.length >= count ? resolve() : arrived.push(check))
        check()
      }),
    release: () => {
      for (const response of held.splice(0)) {
        response.writeHead(200, { "content-type": "text/html" })
        response.end(`<title>Held</title><p>released</p>`)
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
}

const rawInitialize = async (url: string) => {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } }
    })
  })
  return { status: response.status, body: await response.text() }
}

const runCall = (url: string) =>
  new Promise<{ code: number | null; stderr: string }>((resolve) => {
    execFile(process.execPath, [binEntry, "call", "mm_get_state", "{}", "--server", url], (error, _stdout, stderr) =>
      resolve({ code: error === null ? 0 : (error as { code?: number }).code ?? null, stderr })
    )
  })

describe("HTTP client slots", () => {
  it("an idle client without DELETE makes room for a new one; a client with a call in flight never; 503 only when none may go", async () => {
    const pages = await servePages()
    const server = await startHttpServer(["--app-url", `${pages.url}/`, "--max-clients", "2", "--client-evict-after", "1"], randomUUID())
    try {
      // A launches and goes quiet without DELETE (as the SDK's client.close() does, or a crash).
      const a = await connect(server.url)
      const idA: string = (await call(a.client, "mm_launch", {})).result.sessionId
      // B launches and starts a call that stays in flight.
      const b = await connect(server.url)
      await call(b.client, "mm_launch", {})
      const slowB = call(b.client, "mm_navigate", { url: `${pages.url}/hold` })
      await pages.holding(1)
      // Let A be idle for longer than the minimum (1 s); B, in flight, is idle as long.
      await new Promise((resolve) => setTimeout(resolve, 1_500))

      // A third client connects: A's place is given to it, not B's; A's browser session stays, reachable by id.
      const c = await connect(server.url)
      expect((await call(c.client, "mm_get_state", { session: idA })).result.state.url).toBe(`${pages.url}/`)
      expect(server.stderr()).toContain("closed an HTTP client idle for")
      expect(server.stderr()).toContain("to make room for a new one (--max-clients 2); its browser sessions stay")
      // A, evicted, gets the SDK's "session not found" (HTTP 404).
      await expect(a.client.listTools()).rejects.toThrow(/404|not found/i)

      // C starts a call in flight too: now no client may go, however long they wait.
      await call(c.client, "mm_launch", {})
      const slowC = call(c.client, "mm_navigate", { url: `${pages.url}/hold` })
      await pages.holding(2)
      await new Promise((resolve) => setTimeout(resolve, 1_500))
      const full = await rawInitialize(server.url)
      expect(full.status).toBe(503)
      expect(JSON.parse(full.body).error.message).toContain("none has been idle with nothing in flight for 1 s (--client-evict-after)")
      const cli = await runCall(server.url)
      expect(cli.code).toBe(3)
      expect(cli.stderr).toContain("the server is full (HTTP 503)")

      // Released, both calls answer: B and C kept their places.
      pages.release()
      expect(JSON.stringify(await slowB)).toContain(`${pages.url}/hold`)
      expect(JSON.stringify(await slowC)).toContain(`${pages.url}/hold`)
      for (const { client, transport } of [b, c]) {
        await call(client, "mm_cleanup", {})
        await transport.terminateSession()
        await client.close()
      }
      await a.client.close()
      // A's session, left behind, is still there for whoever holds its id.
      const d = await connect(server.url)
      await call(d.client, "mm_cleanup", { session: idA })
      await d.transport.terminateSession()
      await d.client.close()
    } finally {
      pages.release()
      await server.stop()
      await pages.close()
    }
  })
})
