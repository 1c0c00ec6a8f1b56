// MCP over Streamable HTTP: one SDK Server per client session (from makeMcpServer), Host and Origin
// checks against DNS rebinding, an optional bearer token, and the one-browser rule between clients.
import { createHash, randomUUID, timingSafeEqual } from "node:crypto"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js"
import { isInitializeRequest, type JSONRPCMessage, type RequestId } from "@modelcontextprotocol/sdk/types.js"
import { Effect, type ManagedRuntime, Option } from "effect"
import { BrowserInUse, toErrorInfo } from "../domain/errors.js"
import type { ToolRegistryService } from "../runtime/registry.js"
import type { ToolServices } from "../runtime/tool.js"
import { Session } from "../services/Session.js"
import { makeMcpServer, toCallToolResult, type McpServerOptions } from "./server.js"

export const MCP_PATH = "/mcp"
const MAX_BODY_BYTES = 4 * 1024 * 1024

export interface HttpOptions extends McpServerOptions {
  readonly port: number
  readonly host: string
  /** Host names accepted in Host and Origin; the bound host and the localhost forms when absent; "*" accepts any. */
  readonly allowedHosts?: ReadonlyArray<string> | undefined
  /** Every request must carry `Authorization: Bearer <token>`. */
  readonly authToken?: string | undefined
  /** Every client drives the one browser; otherwise it belongs to the client whose call started it. */
  readonly sharedBrowser?: boolean | undefined
  /** A client session that sent nothing for this long is closed (0: never). */
  readonly idleTimeoutMs?: number | undefined
  /** At most this many client sessions at once (closed ones do not count); a new one beyond gets 503. Default 64. */
  readonly maxSessions?: number | undefined
}

export const DEFAULT_MAX_SESSIONS = 64

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

/** A small lock: the calls that may start the browser run one at a time, so its owner is known. */
const makeLock = () => {
  let tail: Promise<void> = Promise.resolve()
  return <A>(task: () => Promise<A>): Promise<A> => {
    const run = tail.then(task)
    tail = run.then(
      () => undefined,
      () => undefined
    )
    return run
  }
}

const isRequest = (message: JSONRPCMessage): message is Extract<JSONRPCMessage, { method: string; id: RequestId }> =>
  "method" in message && "id" in message

const isResponse = (message: JSONRPCMessage): message is Extract<JSONRPCMessage, { id: RequestId }> =>
  "id" in message && !("method" in message)

/**
 * Serves the registry over Streamable HTTP at /mcp until closed. Each client session gets its own SDK
 * Server; all of them run tools on the one runtime, so they share the one browser of SPEC-07. Unless
 * `sharedBrowser`, the browser belongs to the client whose call started it: another client's calls of
 * tools that may touch it are answered MM_BROWSER_IN_USE (read-only tools without a session still run),
 * and it closes when its client's session ends (DELETE, idle timeout).
 */
export const serveHttp = async <ER>(
  registry: ToolRegistryService,
  runtime: ManagedRuntime.ManagedRuntime<ToolServices, ER>,
  options: HttpOptions
): Promise<HttpServer> => {
  const allowed = new Set(
    (options.allowedHosts ?? [bracketed(options.host), "localhost", "127.0.0.1", "[::1]"]).map((host) => bracketed(host).toLowerCase())
  )
  const expectedToken = options.authToken === undefined ? undefined : digest(`Bearer ${options.authToken}`)
  const clients = new Map<string, Client>()
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS
  /** Initialize requests being answered: sessions about to exist, counted against the limit. */
  let opening = 0
  /** Browser session id to the client that owns it. */
  const owners = new Map<string, string>()
  const serialized = makeLock()
  let closing = false

  const currentSession = () =>
    runtime.runPromise(Effect.flatMap(Session, (session) => session.current)).then(Option.getOrUndefined)

  const closeBrowserOf = async (client: Client) => {
    if (options.sharedBrowser === true || closing) return
    const current = await currentSession()
    if (current !== undefined && owners.get(current.sessionId) === client.id) {
      owners.delete(current.sessionId)
      await runtime.runPromise(
        Effect.flatMap(Session, (session) => session.cleanup).pipe(
          Effect.zipLeft(Effect.logInfo("closed the browser of an HTTP client that left")),
          Effect.annotateLogs("sessionId", current.sessionId)
        )
      )
    }
  }

  /** Calls a client may make while another client's browser session runs: read-only ones that need no browser. */
  const touchesBrowser = (name: string) => {
    const tool = registry.lookup(name)
    return tool !== undefined && !(tool.annotations.readOnly && !tool.requiresSession)
  }

  /** Wraps the transport the SDK Server reads from and writes to, to apply the one-browser rule. */
  const guard = (client: Client) => {
    const transport = client.transport
    const deliver = transport.onmessage
    if (deliver === undefined) return
    const send = transport.send.bind(transport)
    const pending = new Map<RequestId, () => void>()
    transport.send = async (message, sendOptions) => {
      try {
        await send(message, sendOptions)
      } finally {
        // Also when the answer could not be delivered (the client's connection dropped): the call is over.
        if (isResponse(message)) {
          client.inFlight.delete(message.id)
          client.lastSeen = Date.now()
          pending.get(message.id)?.()
        }
      }
    }
    const refuse = (id: RequestId, sessionId: string) => {
      const envelope = {
        ok: false as const,
        error: toErrorInfo(new BrowserInUse({ sessionId }))
      }
      return transport.send({ jsonrpc: "2.0", id, result: toCallToolResult({ envelope, attachments: [] }) }, { relatedRequestId: id })
    }
    /** Delivers the call and resolves once its response went out, then records who started the browser. */
    const run = (message: JSONRPCMessage & { id: RequestId }, extra: Parameters<NonNullable<typeof deliver>>[1]) =>
      new Promise<void>((resolve) => {
        pending.set(message.id, resolve)
        deliver(message, extra)
      }).then(async () => {
        pending.delete(message.id)
        const current = await currentSession()
        // Only the running session can have an owner; a new one belongs to the client whose call started it.
        for (const sessionId of owners.keys()) if (sessionId !== current?.sessionId) owners.delete(sessionId)
        if (current !== undefined && !owners.has(current.sessionId)) owners.set(current.sessionId, client.id)
      })
    // A cancelled call gets no response: its wait ends with the cancellation, or when the session closes.
    const settle = (id: unknown) => {
      if (typeof id !== "string" && typeof id !== "number") return
      client.inFlight.delete(id)
      pending.get(id)?.()
    }
    const onclose = transport.onclose
    transport.onclose = () => {
      for (const resolve of pending.values()) resolve()
      onclose?.()
    }
    transport.onmessage = (message, extra) => {
      client.lastSeen = Date.now()
      if ("method" in message && message.method === "notifications/cancelled") {
        deliver(message, extra)
        return settle((message.params as { requestId?: unknown } | undefined)?.requestId)
      }
      if (isRequest(message)) client.inFlight.add(message.id)
      if (options.sharedBrowser === true || !isRequest(message) || message.method !== "tools/call") return deliver(message, extra)
      const name = (message.params as { name?: unknown } | undefined)?.name
      if (typeof name !== "string" || !touchesBrowser(name)) return deliver(message, extra)
      void (async () => {
        const current = await currentSession()
        const owner = current === undefined ? undefined : owners.get(current.sessionId)
        if (current !== undefined && owner !== undefined && owner !== client.id) return refuse(message.id, current.sessionId)
        if (current !== undefined && owner === client.id) return run(message, extra)
        // No owned browser: calls that may start one go one at a time, checking again inside the lock.
        return serialized(async () => {
          const now = await currentSession()
          const nowOwner = now === undefined ? undefined : owners.get(now.sessionId)
          if (now !== undefined && nowOwner !== undefined && nowOwner !== client.id) return refuse(message.id, now.sessionId)
          return run(message, extra)
        })
      })().catch((error: unknown) => transport.onerror?.(error instanceof Error ? error : new Error(String(error))))
    }
  }

  const newClient = async (): Promise<Client> => {
    let client: Client | undefined
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        clients.set(sessionId, client!)
      },
      // The client ended its session (DELETE): close it, which closes the browser it owns.
      onsessionclosed: () => {
        setImmediate(() => void transport.close().catch(() => undefined))
      }
    })
    client = { id: randomUUID(), transport, lastSeen: Date.now(), inFlight: new Set() }
    const server = makeMcpServer(registry, runtime, options)
    const current = client
    transport.onclose = () => {
      if (transport.sessionId !== undefined) clients.delete(transport.sessionId)
      void closeBrowserOf(current).catch(() => undefined)
    }
    await server.connect(transport)
    guard(client)
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
      if (clients.size + opening >= maxSessions) {
        return sendJsonRpcError(
          response,
          503,
          `Too many sessions: this server holds at most ${maxSessions} at once (--max-sessions); end a session (HTTP DELETE) or wait until an idle one closes (--idle-timeout), then initialize again`,
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
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port, options.host, () => {
      server.off("error", reject)
      resolve()
    })
  })

  const idleTimeoutMs = options.idleTimeoutMs ?? 0
  const sweep =
    idleTimeoutMs > 0
      ? setInterval(
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
      : undefined
  sweep?.unref()

  const address = server.address() as AddressInfo
  return {
    url: `http://${bracketed(options.host === "0.0.0.0" || options.host === "::" ? "127.0.0.1" : options.host)}:${address.port}${MCP_PATH}`,
    bound: `http://${bracketed(address.address)}:${address.port}${MCP_PATH}`,
    close: async () => {
      closing = true
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
