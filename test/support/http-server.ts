// Starts the built command as a Streamable HTTP server on a free port of 127.0.0.1, for the HTTP and call tests.
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import * as path from "node:path"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { tempDir } from "./browser.js"

export const binEntry = path.resolve(import.meta.dirname, "../../dist/bin/browser-workflow-mcp.js")

/** An SDK client named `name` connected to the server at `url` over Streamable HTTP, with its transport (to end or drop its session). */
export const connectHttp = async (url: string, name: string) => {
  const transport = new StreamableHTTPClientTransport(new URL(url))
  const client = new Client({ name, version: "1.0.0" })
  await client.connect(transport)
  return { client, transport }
}

export interface RunningHttpServer {
  readonly url: string
  readonly process: ChildProcess
  readonly stderr: () => string
  /** SIGTERM, then the exit code. */
  readonly stop: () => Promise<number | null>
  /** Runs `body`; if it throws, the error also says whether the server is still running and ends with its stderr. */
  readonly explaining: <A>(body: () => Promise<A>) => Promise<A>
}

/** Spawns the server with --port 0 and the loopback guards (and more environment); resolves once it printed its address. */
export const startHttpServer = (args: ReadonlyArray<string>, marker: string, env: Readonly<Record<string, string>> = {}): Promise<RunningHttpServer> =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        binEntry,
        "--port",
        "0",
        "--artifacts-dir",
        tempDir(),
        "--loopback-only",
        "--browser-arg",
        `--bwm-test-marker=${marker}`,
        ...args
      ],
      { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } }
    )
    // An HTTP server is not tied to our stdin: make sure it goes when the test worker does, even after a timeout.
    const killOnExit = () => child.kill("SIGTERM")
    process.once("exit", killOnExit)
    child.once("exit", () => process.off("exit", killOnExit))
    let stderr = ""
    const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)))
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${stderr}`)), 20_000)
    child.stderr!.setEncoding("utf8")
    child.stderr!.on("data", (chunk: string) => {
      stderr += chunk
      const match = /listening on (http:\/\/\S+)/.exec(stderr)
      if (match !== null) {
        clearTimeout(timer)
        resolve({
          url: match[1]!,
          process: child,
          stderr: () => stderr,
          stop: async () => {
            if (child.exitCode === null) child.kill("SIGTERM")
            return exited
          },
          explaining: (body) =>
            body().catch((error: unknown) => {
              const state = child.exitCode === null && child.signalCode === null
                ? "still running"
                : `exited (code ${child.exitCode}, signal ${child.signalCode})`
              const cause = error instanceof Error ? error : new Error(String(error))
              cause.message += `\n-- the server is ${state}; its stderr (last 6000 characters):\n${stderr.slice(-6000)}`
              throw cause
            })
        })
      }
    })
    child.once("exit", (code) => reject(new Error(`server exited with ${code}:\n${stderr}`)))
  })

/** PIDs of browser processes started with our marker switch (not the server, whose arguments hold it too). */
export const browserPids = (marker: string): Array<number> =>
  execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.includes(marker) && !line.includes("ps -eo") && !line.includes(binEntry))
    .map((line) => Number(line.trim().split(/\s+/)[0]))

export const waitUntil = async (condition: () => boolean, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (condition()) return true
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return condition()
}
