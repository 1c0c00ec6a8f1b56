// The built server (dist/src/main.js) over stdio with an SDK client, for the tests that check what a whole
// session shows its client and writes to disk: every answer and the server's stderr are kept for them.
import * as fs from "node:fs"
import * as path from "node:path"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { LOOPBACK_ARGS } from "./browser.js"

export const serverEntry = path.resolve(import.meta.dirname, "../../dist/src/main.js")

export type CallResult = Awaited<ReturnType<Client["callTool"]>>

export interface StdioServer {
  readonly client: Client
  /** Calls a tool (60 s at most) and gives its envelope, the first text block parsed. */
  readonly call: (name: string, args?: Record<string, unknown>) => Promise<any>
  /** Every answer so far, as the client received it. */
  readonly results: ReadonlyArray<CallResult>
  /** What the server wrote to stderr so far. */
  readonly stderr: () => string
}

/** Starts the built server with `args` and the loopback guards, and connects a client named `name`. */
export const startStdioServer = async (name: string, args: ReadonlyArray<string>): Promise<StdioServer> => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [serverEntry, ...args, ...LOOPBACK_ARGS.map((arg) => `--browser-arg=${arg}`)],
    stderr: "pipe"
  })
  let stderr = ""
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const client = new Client({ name, version: "1.0.0" })
  await client.connect(transport)
  const results: Array<CallResult> = []
  const call = async (tool: string, args: Record<string, unknown> = {}) => {
    const result = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 60_000 })
    results.push(result)
    return JSON.parse((result.content as Array<{ text: string }>)[0]!.text)
  }
  return { client, call, results, stderr: () => stderr }
}

/** Every file under a directory, recursively. */
export const filesUnder = (dir: string): Array<string> =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name)
    return entry.isDirectory() ? filesUnder(file) : [file]
  })
