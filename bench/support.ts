// What the bench scripts share: where the contenders are, the system Chromium, printing, medians, and
// an MCP client over stdio (the SDK Client on a spawned Node process), and how a scripted agent finds refs
// in the text a server answered.
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { EXECUTABLE_CANDIDATES } from "../src/adapters/playwright/lifecycle/launch.js"

/**
 * The checkout: the nearest folder up from this file whose package.json is ours, so it is the same whether
 * the scripts run from dist/bench or from source (tests import the bench's corpus), in any checkout.
 */
export const root = ((): string => {
  const here = path.dirname(fileURLToPath(import.meta.url))
  for (let dir = here; ; dir = path.dirname(dir)) {
    try {
      if (JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).name === "browser-workflow-mcp") return dir
    } catch {
      // No package.json here, or not ours: look further up.
    }
    if (path.dirname(dir) === dir) return path.resolve(here, "../..")
  }
})()
/** Our command as installed: the bundle. */
export const ourServer = path.join(root, "dist/bin/browser-workflow-mcp.js")
/** Our command as tsc emits it (no bundle). */
export const ourServerUnbundled = path.join(root, "dist/src/main.js")
export const playwrightMcp = path.join(root, "node_modules/@playwright/mcp/cli.js")

/** The system Chromium every contender runs; throws when there is none. */
export const findChromium = (): string => {
  const found = EXECUTABLE_CANDIDATES.find((candidate) => fs.existsSync(candidate))
  if (found === undefined) throw new Error("no Chromium found; run npm run ensure-browser")
  return found
}

export const out = (line = "") => process.stdout.write(line + "\n")

export const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** The value at fraction `q` (0.9 for p90) of the sorted values. */
export const percentile = (values: ReadonlyArray<number>, q: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!
}

export interface ConnectOptions {
  /** The client's name in initialize. */
  readonly name: string
  readonly cwd?: string
  /** The server's stderr: dropped unless "inherit" (or "pipe": the transport's stderr stream). */
  readonly stderr?: "ignore" | "inherit" | "pipe"
}

/**
 * An MCP client over stdio to `node ...args`, not connected yet: `client.connect(transport)` spawns it. A caller
 * that must close the process whatever happens (a connect that fails or hangs) holds the transport first.
 */
export const stdioClient = (args: ReadonlyArray<string>, options: ConnectOptions) => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...args],
    stderr: options.stderr ?? "ignore",
    ...(options.cwd === undefined ? {} : { cwd: options.cwd })
  })
  return { client: new Client({ name: options.name, version: "1.0.0" }), transport }
}

/** Spawns `node ...args` and connects an MCP client to it over stdio; the transport gives the pid. */
export const spawnClient = async (args: ReadonlyArray<string>, options: ConnectOptions) => {
  const { client, transport } = stdioClient(args, options)
  await client.connect(transport)
  return { client, transport }
}

/** Spawns `node ...args` and answers an MCP client connected to it over stdio. */
export const connect = async (args: ReadonlyArray<string>, options: ConnectOptions): Promise<Client> =>
  (await spawnClient(args, options)).client

/** The ref on the first line of `text` that matches `line` (our "[e12]" or Playwright's "[ref=e12]", "[ref=f1e12]"). */
export const refIn = (text: string, line: RegExp, what: string): string => {
  for (const candidate of text.split("\n")) {
    if (!line.test(candidate)) continue
    const ref = /\[(?:ref=)?((?:f\d+)?e\d+)(?:\.\.e\d+)?\]/.exec(candidate)?.[1]
    if (ref !== undefined) return ref
  }
  throw new Error(`no ${what} in:\n${text.slice(0, 3000)}`)
}

export const indentOf = (line: string) => (line.match(/^\s*/)?.[0] ?? "").length

/**
 * The ref of the `child` line inside the nearest `container` line around the first line that mentions
 * `anchor`: the checkbox of the list item that reads "Walk the dog", whichever line the text is on.
 */
export const refNear = (text: string, anchor: string, container: RegExp, child: RegExp, what: string): string => {
  const lines = text.split("\n")
  // A node's line: it has a ref or is a text node (not a header such as 'Found 1 match for "…"').
  const at = lines.findIndex((candidate) => candidate.includes(anchor) && /\[(?:ref=)?(?:f\d+)?e\d+|^\s*- text:/.test(candidate))
  let top = -1
  for (let i = at; i >= 0; i--) {
    if (container.test(lines[i]!) && (i === at || indentOf(lines[i]!) < indentOf(lines[at]!))) {
      top = i
      break
    }
  }
  if (top >= 0) {
    for (const candidate of lines.slice(top + 1)) {
      if (indentOf(candidate) <= indentOf(lines[top]!)) break
      if (child.test(candidate)) return refIn(candidate, child, what)
    }
  }
  throw new Error(`no ${what} in:\n${text.slice(0, 3000)}`)
}

export const expectIn = (text: string, pattern: RegExp, what: string) => {
  if (!pattern.test(text)) throw new Error(`the agent could not read ${what} in:\n${text.slice(0, 3000)}`)
}

/** The sample app's sign-in as five tool calls (bench:flow and bench:builds run the same flow). */
export const signInSteps = (url: string): ReadonlyArray<{ readonly tool: string; readonly args: Record<string, unknown> }> => [
  { tool: "mm_navigate", args: { screen: "url", url } },
  { tool: "mm_type", args: { testId: "username", text: "alice" } },
  { tool: "mm_type", args: { testId: "password", text: "correct horse" } },
  { tool: "mm_click", args: { testId: "login-submit" } },
  { tool: "mm_wait_for", args: { selector: "text=Welcome, alice" } }
]

/** Clock ticks of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICK_MS = 1000 / 100

/** CPU ms (user+sys, reaped children included) of `pid` and of every process below it, by /proc. */
export const cpuBelow = (pid: number): { readonly server: number; readonly browser: number } => {
  const parent = new Map<number, number>()
  const cpu = new Map<number, number>()
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8")
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      parent.set(Number(entry), Number(fields[1]))
      // utime, stime, cutime, cstime (fields 14-17 of stat; 0-based 11-14 after the name).
      cpu.set(Number(entry), (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * TICK_MS)
    } catch {
      // The process ended meanwhile.
    }
  }
  let server = 0
  let browser = 0
  for (const [candidate, ms] of cpu) {
    if (candidate === pid) server += ms
    else {
      let up = parent.get(candidate)
      while (up !== undefined && up > 1 && up !== pid) up = parent.get(up)
      if (up === pid) browser += ms
    }
  }
  return { server, browser }
}
