// The client side of Streamable HTTP, for the `call` subcommand: one tool call against a running server.
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { SERVER_VERSION } from "./names.js"

export interface RemoteCall {
  readonly url: string
  readonly tool: string
  readonly arguments: Readonly<Record<string, unknown>>
  readonly authToken?: string | undefined
  /** Request `_meta`, e.g. the observation policy. */
  readonly meta?: Readonly<Record<string, unknown>> | undefined
}

export interface RemoteResult {
  /** The envelope's JSON text as the server sent it, then the text blocks after it (the page as text), one after another. */
  readonly text: string
  readonly ok: boolean
  /** Image blocks beside the envelope, not printed. */
  readonly attachments: number
}

/** The server refused the request's credentials (HTTP 401 or 403): a missing or wrong --auth-token, not a server out of reach. */
export class RemoteAuthRefused extends Error {
  constructor(readonly status: number) {
    super(`the server answered HTTP ${status}: the auth token is missing or wrong (--auth-token, BWM_AUTH_TOKEN)`)
  }
}

/** The server holds --max-clients clients and none has been idle long enough to give up its place (HTTP 503). */
export class RemoteServerFull extends Error {
  constructor(detail: string) {
    super(`the server is full (HTTP 503): it holds its most clients (--max-clients) and none idle long enough to make room; retry in a moment. ${detail}`)
  }
}

const refusedAuth = (error: unknown): Error | undefined =>
  error instanceof StreamableHTTPError && (error.code === 401 || error.code === 403)
    ? new RemoteAuthRefused(error.code)
    : error instanceof StreamableHTTPError && error.code === 503
      ? new RemoteServerFull(error.message)
      : undefined

/**
 * Connects, calls the tool, and ends the MCP session again (a browser this client started closes with it).
 * A refused token fails with RemoteAuthRefused, a full server with RemoteServerFull; anything else that keeps the call from the server, with its own error.
 */
export const callRemoteTool = (call: RemoteCall): Promise<RemoteResult> =>
  callOnce(call).catch((error: unknown) => {
    throw refusedAuth(error) ?? error
  })

const callOnce = async (call: RemoteCall): Promise<RemoteResult> => {
  const transport = new StreamableHTTPClientTransport(new URL(call.url), {
    ...(call.authToken === undefined ? {} : { requestInit: { headers: { authorization: `Bearer ${call.authToken}` } } })
  })
  const client = new Client({ name: "browser-workflow-mcp call", version: SERVER_VERSION })
  await client.connect(transport)
  try {
    const result = await client.callTool({
      name: call.tool,
      arguments: { ...call.arguments },
      ...(call.meta === undefined ? {} : { _meta: { ...call.meta } })
    })
    const content = (result.content ?? []) as ReadonlyArray<{ readonly type: string; readonly text?: string }>
    const texts = content.flatMap((block) => (block.type === "text" && block.text !== undefined ? [block.text] : []))
    const text = texts.length > 0 && content[0]?.type === "text" ? texts.join("\n") : JSON.stringify(result)
    return { text, ok: result.isError !== true, attachments: content.length - texts.length }
  } finally {
    await transport.terminateSession().catch(() => undefined)
    await client.close().catch(() => undefined)
  }
}
