// An SDK client connected to one of our MCP servers over the in-memory transport, for tests of what the wire
// carries: `call` answers the parsed envelope, `names` the listed tool names, `changes` the tools/list_changed seen.
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js"
import type { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js"
import { type Layer, ManagedRuntime } from "effect"
import { afterEach, expect } from "vitest"

/** A tool call's envelope as the client reads it. */
export interface Answer {
  readonly ok: boolean
  readonly result?: any
  readonly error?: { readonly code: string; readonly message: string; readonly details?: any }
  /** The active page, only when it changed since the client's previous response. */
  readonly page?: { readonly url: string; readonly title?: string; readonly tab?: string; readonly screen?: string; readonly loading?: boolean }
  readonly notices?: ReadonlyArray<string>
  readonly console?: ReadonlyArray<string>
  readonly ms?: number
}

export interface Connected {
  readonly client: Client
  readonly call: (name: string, args?: Record<string, unknown>) => Promise<Answer>
  readonly names: () => Promise<ReadonlyArray<string>>
  /** tools/list_changed notifications received so far. */
  readonly changes: () => number
}

/** Connects a client named `name` to `server`; the caller closes `client`. */
export const connectClient = async (server: Server, name: string): Promise<Connected> => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  const client = new Client({ name, version: "1.0.0" })
  let changed = 0
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changed++
  })
  await server.connect(serverSide)
  await client.connect(clientSide)
  return {
    client,
    call: async (tool, args = {}) => {
      const result = await client.callTool({ name: tool, arguments: args })
      const content = result.content as Array<{ type: string; text?: string }>
      return JSON.parse(content[0]!.text!) as Answer
    },
    names: async () => (await client.listTools()).tools.map((tool) => tool.name),
    changes: () => changed
  }
}

/** A tool call's envelope with the page text that follows it ("" when none came). */
export interface TextAnswer extends Answer {
  readonly text: string
}

/**
 * Connects a client named `name` to `server` for tests that read the page text too: `call` answers the
 * envelope and the text, `ok` the same after expecting no error (named by the call). The caller closes `client`.
 */
export const connectWithText = async (server: Server, name: string) => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  const client = new Client({ name, version: "1.0.0" })
  await server.connect(serverSide)
  await client.connect(clientSide)
  const call = async (tool: string, args: Record<string, unknown> = {}): Promise<TextAnswer> => {
    const result = await client.callTool({ name: tool, arguments: args })
    const content = result.content as Array<{ type: string; text?: string }>
    return { ...(JSON.parse(content[0]!.text!) as Answer), text: content[1]?.text ?? "" }
  }
  const ok = async (tool: string, args: Record<string, unknown> = {}) => {
    const answer = await call(tool, args)
    expect(answer.error, `${tool} ${JSON.stringify(args)}`).toBeUndefined()
    return answer
  }
  return { client, call, ok }
}

/**
 * For a test file's top level: runtimes made and clients connected through the answer are closed after each
 * test (clients first, then runtimes).
 */
export const closedAfterEach = () => {
  const runtimes: Array<ManagedRuntime.ManagedRuntime<any, any>> = []
  const clients: Array<Client> = []
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()))
    await Promise.all(runtimes.splice(0).map((runtime) => runtime.dispose()))
  })
  return {
    runtime: <R, E>(layer: Layer.Layer<R, E, never>): ManagedRuntime.ManagedRuntime<R, E> => {
      const runtime = ManagedRuntime.make(layer)
      runtimes.push(runtime)
      return runtime
    },
    connect: async (server: Server, name: string): Promise<Connected> => {
      const connected = await connectClient(server, name)
      clients.push(connected.client)
      return connected
    }
  }
}
