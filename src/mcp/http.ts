// MCP over Streamable HTTP: one SDK Server per client session (from makeMcpServer), Host and Origin
// checks against DNS rebinding, an optional bearer token, a limit of clients and their idle timeout.
import { createHash, randomUUID, timingSafeEqual } from "node:crypto"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js"
import { isInitializeRequest, type JSONRPCMessage, type RequestId } from "@modelcontextprotocol/sdk/types.js"
import { Effect, type ManagedRuntime } from "effect"
import type { ToolRegistryService } from "../runtime/registry.js"
import { makeMcpServer, type McpServerOptions } from "./server.js"

export const MCP_PATH = "/mcp"
const MAX_BODY_BYTES = 4 * 1024 * 1024
/** How long an idle keep-alive connection stays open (Node's default is 5 s); clients are told through Keep-Alive. */
const KEEP_ALIVE_MS = 65_000

export interface HttpOptions extends McpServerOptions {
  readonly port: number
  readonly host: string
  /** Host names accepted in Host and Origin; the bound host and the localhost forms when absent; "*" accepts any. */
  readonly allowedHosts?: ReadonlyArray<string> | undefined
  /** Every request must carry `Authorization: Bearer <token>`. */
  readonly authToken?: string | undefined
  /** A client session that sent nothing for this long is closed (0: never). */
  readonly idleTimeoutMs?: number | undefined
  /** At most this many client (HTTP) sessions at once (closed ones do not count); a new one beyond gets 503. Default 64. */
  readonly maxClients?: number | undefined
  /**
   * At the limit, a new client takes the place of the least recently active one idle (nothing in flight) for at
   * least this long: the SDK's client.close() sends no DELETE, and a crashed or one-call client sends nothing.
   * Default 30 s: longer than an agent's pause between two calls, so a client that is working keeps its place.
   */
  readonly evictAfterMs?: number | undefined
}

export const DEFAULT_MAX_CLIENTS = 64
export const DEFAULT_EVICT_AFTER_MS = 30_000

export interface HttpServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:8931/mcp (on this machine, for a server bound to every address). */
  readonly url: string
  /** The address really bound, e.g. http://0.0.0.0:8931/mcp. */
  readonly bound: string
  /** Closes every client session and the listener (the browser is the runtime's to close). */
  readonly close: () => Promise<void>
}

/** "[::1]" for "::1": host names as URL.hostname writes them. */
const bracketed = (host: string) => (host.includes(":") && !host.startsWith("[") ? `[${host}]` : host)

const hostnameOf = (value: string, withScheme: boolean): string | undefined => {
  try {
    return new URL(withScheme ? value : `http://${value}`).hostname.toLowerCase()
  } catch {
    return undefined
  }
}

/** The DNS-rebinding guard: the request's Host, and its Origin when present, must name an allowed host. */
export const checkHostAndOrigin = (
  headers: http.IncomingHttpHeaders,
  allowed: ReadonlySet<string>
): string | undefined => {
  if (allowed.has("*")) return undefined
  const host = headers.host === undefined ? undefined : hostnameOf(headers.host, false)
  if (host === undefined || !allowed.has(host)) return `Host ${JSON.stringify(headers.host ?? "")} is not allowed`
  const origin = headers.origin
  if (origin !== undefined) {
    const originHost = hostnameOf(origin, true)
    if (originHost === undefined || !allowed.has(originHost)) return `Origin ${JSON.stringify(origin)} is not allowed`
  }
  return undefined
}

const digest = (text: string) => createHash("sha256").update(text).digest()

const sendJsonRpcError = (response: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}) => {
  if (response.headersSent) return void response.end()
  response.writeHead(status, { "content-type": "application/json", ...headers })
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }))
}

const readBody = (request: http.IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Array<Buffer> = []
    let size = 0
    request.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) {
        reject(new Error("body too large"))
        request.destroy()
      } else chunks.push(chunk)
    })
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    request.on("error", reject)
  })

interface Client {
  readonly id: string
  readonly transport: StreamableHTTPServerTransport
  /** When the client last sent something or got an answer. */
  lastSeen: number
  /** Requests not answered yet: a client waiting for a long call is not idle. */
  readonly inFlight: Set<RequestId>
}

const isRequest = (message: JSONRPCMessage): message is Extract<JSONRPCMessage, { method: string; id: RequestId }> =>
  "method" in message && "id" in message

const isResponse = (message: JSONRPCMessage): message is Extract<JSONRPCMessage, { id: RequestId }> =>
  "id" in message && !("method" in message)

/** Keeps the client's in-flight requests and last activity (for --idle-timeout) as messages pass. */
const track = (client: Client) => {
  const transport = client.transport
  const deliver = transport.onmessage
  if (deliver === undefined) return
  const send = transport.send.bind(transport)
  transport.send = async (message, sendOptions) => {
    try {
      await send(message, sendOptions)
    } finally {
      // Also when the answer could not be delivered (the client's connection dropped): the call is over.
      if (isResponse(message)) {
        client.inFlight.delete(message.id)
        client.lastSeen = Date.now()
      }
    }
  }
  transport.onmessage = (message, extra) => {
    client.lastSeen = Date.now()
    if ("method" in message && message.method === "notifications/cancelled") {
      // A cancelled call gets no response: it is over now.
      const id = (message.params as { requestId?: unknown } | undefined)?.requestId
      if (typeof id === "string" || typeof id === "number") client.inFlight.delete(id)
    } else if (isRequest(message)) client.inFlight.add(message.id)
    deliver(message, extra)
  }
}

/** Closes, every so often, the client sessions idle (nothing in flight) for longer than idleTimeoutMs (0: none). */
const idleSweep = (clients: ReadonlyMap<string, Client>, idleTimeoutMs: number) => {
  if (idleTimeoutMs <= 0) return undefined
  const sweep = setInterval(
    () => {
      const now = Date.now()
      for (const client of clients.values()) {
        if (client.inFlight.size === 0 && now - client.lastSeen > idleTimeoutMs) {
          void client.transport.close().catch(() => undefined)
        }
      }
    },
    Math.min(60_000, Math.max(1_000, Math.floor(idleTimeoutMs / 4)))
  )
  sweep.unref()
  return sweep
}

/** The client to close for a new one: the least recently active with nothing in flight, idle at least evictAfterMs. */
const evictable = (clients: ReadonlyMap<string, Client>, evictAfterMs: number, now: number) => {
  let oldest: Client | undefined
  for (const client of clients.values()) {
    if (client.inFlight.size > 0 || now - client.lastSeen < evictAfterMs) continue
    if (oldest === undefined || client.lastSeen < oldest.lastSeen) oldest = client
  }
  return oldest
}

/**
 * Serves the registry over Streamable HTTP at /mcp until closed. Each client session gets its own SDK
 * Server; all of them run tools on the one runtime, whose session registry gives each client its own
 * browser sessions (or, with --shared-browser, the one they share).
 */
export const serveHttp = async <R, ER>(
  registry: ToolRegistryService,
  runtime: ManagedRuntime.ManagedRuntime<R, ER>,
  options: HttpOptions
): Promise<HttpServer> => {
  const allowed = new Set(
    (options.allowedHosts ?? [bracketed(options.host), "localhost", "127.0.0.1", "[::1]"]).map((host) => bracketed(host).toLowerCase())
  )
  const expectedToken = options.authToken === undefined ? undefined : digest(`Bearer ${options.authToken}`)
  const clients = new Map<string, Client>()
  const maxClients = options.maxClients ?? DEFAULT_MAX_CLIENTS
  const evictAfterMs = options.evictAfterMs ?? DEFAULT_EVICT_AFTER_MS
  /** At the limit: closes the MCP transport of an idle client (its browser sessions stay, reachable by id); false when none may go. */
  const makeRoom = () => {
    const now = Date.now()
    const victim = evictable(clients, evictAfterMs, now)
    if (victim === undefined || victim.transport.sessionId === undefined) return false
    clients.delete(victim.transport.sessionId)
    void victim.transport.close().catch(() => undefined)
    const line = `closed an HTTP client idle for ${Math.round((now - victim.lastSeen) / 1000)} s with nothing in flight to make room for a new one (--max-clients ${maxClients}); its browser sessions stay`
    void runtime.runPromise(Effect.logWarning(line)).catch(() => undefined)
    return true
  }
  /** Initialize requests being answered: sessions about to exist, counted against the limit. */
  let opening = 0
  const newClient = async (): Promise<Client> => {
    let client: Client | undefined
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        clients.set(sessionId, client!)
      },
      // The client ended its HTTP session (DELETE): close its transport.
      onsessionclosed: () => {
        setImmediate(() => void transport.close().catch(() => undefined))
      }
    })
    client = { id: randomUUID(), transport, lastSeen: Date.now(), inFlight: new Set() }
    const server = makeMcpServer(registry, runtime, options)
    // A client that leaves does not close its browser sessions: another client may go on with one by its
    // id; their idle lease (--session-idle-timeout) closes them.
    transport.onclose = () => {
      if (transport.sessionId !== undefined) clients.delete(transport.sessionId)
    }
    await server.connect(transport)
    track(client)
    return client
  }

  const handle = async (request: http.IncomingMessage, response: http.ServerResponse) => {
    const url = new URL(request.url ?? "/", "http://localhost")
    const refused = checkHostAndOrigin(request.headers, allowed)
    if (refused !== undefined) return sendJsonRpcError(response, 403, `Forbidden: ${refused}; see --allowed-hosts`)
    if (expectedToken !== undefined) {
      const given = digest(request.headers.authorization ?? "")
      if (!timingSafeEqual(given, expectedToken)) {
        return sendJsonRpcError(response, 401, "Unauthorized: send Authorization: Bearer <token>", { "www-authenticate": "Bearer" })
      }
    }
    if (url.pathname !== MCP_PATH) return sendJsonRpcError(response, 404, `Not found: the MCP endpoint is ${MCP_PATH}`)
    const sessionHeader = request.headers["mcp-session-id"]
    const sessionId = Array.isArray(sessionHeader) ? sessionHeader[0] : sessionHeader
    let body: unknown
    if (request.method === "POST") {
      const text = await readBody(request).catch(() => undefined)
      if (text === undefined) return sendJsonRpcError(response, 413, "Request body too large or unreadable")
      try {
        body = JSON.parse(text)
      } catch {
        return sendJsonRpcError(response, 400, "Parse error: the body is not JSON")
      }
    }
    if (sessionId !== undefined) {
      const client = clients.get(sessionId)
      if (client === undefined) return sendJsonRpcError(response, 404, "Session not found; initialize a new one")
      client.lastSeen = Date.now()
      return client.transport.handleRequest(request, response, body)
    }
    if (request.method === "POST" && isInitializeRequest(body)) {
      if (clients.size + opening >= maxClients && !makeRoom()) {
        return sendJsonRpcError(
          response,
          503,
          `Too many clients: this server holds at most ${maxClients} HTTP sessions at once (--max-clients), and none has been idle with nothing in flight for ${Math.round(evictAfterMs / 1000)} s (--client-evict-after), the least a client is left before a new one takes its place; end one (HTTP DELETE) or retry once one is idle that long, then initialize again`,
          { "retry-after": "5" }
        )
      }
      opening += 1
      try {
        const client = await newClient()
        return await client.transport.handleRequest(request, response, body)
      } finally {
        opening -= 1
      }
    }
    return sendJsonRpcError(response, 400, "Bad request: send initialize first, then the Mcp-Session-Id it returns")
  }

  const server = http.createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      void runtime.runPromise(Effect.logError("HTTP request failed", String(error))).catch(() => undefined)
      sendJsonRpcError(response, 500, "Internal server error")
    })
  })
  // Node closes a connection idle for 5 s; a client whose event loop lags (an agent between turns, a loaded machine)
  // can send its next request on it as it closes and get "fetch failed". Keep idle connections well past any pause.
  server.keepAliveTimeout = KEEP_ALIVE_MS
  server.headersTimeout = KEEP_ALIVE_MS + 1_000
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port, options.host, () => {
      server.off("error", reject)
      resolve()
    })
  })

  const sweep = idleSweep(clients, options.idleTimeoutMs ?? 0)

  const address = server.address() as AddressInfo
  return {
    url: `http://${bracketed(options.host === "0.0.0.0" || options.host === "::" ? "127.0.0.1" : options.host)}:${address.port}${MCP_PATH}`,
    bound: `http://${bracketed(address.address)}:${address.port}${MCP_PATH}`,
    close: async () => {
      if (sweep !== undefined) clearInterval(sweep)
      await Promise.all([...clients.values()].map((client) => client.transport.close().catch(() => undefined)))
      clients.clear()
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
    }
  }
}
