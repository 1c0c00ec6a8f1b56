// The contenders' servers for the parallel bench: ours over Streamable HTTP (--port 0) or stdio, and
// @playwright/mcp --isolated over HTTP, each a fresh process per measurement; MCP clients connected to
// them; and the resident memory of a process and of the browsers below it, read from /proc.
import { type ChildProcess, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { chromium } from "playwright"
import { LOOPBACK_ARGS } from "../../src/adapters/playwright/lifecycle/launch.js"
import { findChromium, ourServer, playwrightMcp, spawnClient } from "../support.js"

export const executablePath = findChromium()
/** Our server's entry: the built bundle, or BENCH_SERVER (another build, e.g. a branch's, to compare). */
const ourEntry = process.env.BENCH_SERVER ?? ourServer

/** Flags of our server common to every contender: headless, loopback only, the system Chromium. */
const ourFlags = (artifacts: string) => ["--artifacts-dir", artifacts, "--loopback-only", "--headless", "--executable-path", executablePath]

/** A server this bench started: its pid (for /proc), and how to stop it with everything below it. */
export interface Running {
  readonly pid: number
  readonly stop: () => Promise<void>
}

/** A server over HTTP: its MCP endpoint, and a new client each time `client` is called. */
export interface HttpServer extends Running {
  readonly url: string
  readonly client: (name: string) => Promise<Client>
}

const scratch = (label: string) => fs.mkdtempSync(path.join(os.tmpdir(), `bwm-bench-parallel-${label}-`))

// ---------------------------------------------------------------------------------------------------
// Processes and memory, from /proc

/** pid to parent pid, for every process readable in /proc. */
const parents = (): Map<number, number> => {
  const map = new Map<number, number>()
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      // The command name (field 2) may hold spaces and parentheses: read after the last ")".
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8")
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
      map.set(Number(entry), ppid)
    } catch {
      // Gone meanwhile.
    }
  }
  return map
}

/** Every process below `root` (children, their children...), not `root` itself. */
export const descendants = (root: number): Array<number> => {
  const byParent = new Map<number, Array<number>>()
  for (const [pid, ppid] of parents()) byParent.set(ppid, [...(byParent.get(ppid) ?? []), pid])
  const found: Array<number> = []
  const queue = [...(byParent.get(root) ?? [])]
  while (queue.length > 0) {
    const pid = queue.shift()!
    found.push(pid)
    queue.push(...(byParent.get(pid) ?? []))
  }
  return found
}

/** Resident set size of one process in bytes (VmRSS), 0 once it is gone. */
export const rssOf = (pid: number): number => {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]
    return kb === undefined ? 0 : Number(kb) * 1024
  } catch {
    return 0
  }
}

/**
 * Proportional set size of one process in bytes (Pss: each shared page divided among the processes that
 * map it), 0 once it is gone. Summed over a browser's processes it counts the shared binary once, where
 * summed RSS counts it in every process.
 */
export const pssOf = (pid: number): number => {
  try {
    const kb = /^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"))?.[1]
    return kb === undefined ? 0 : Number(kb) * 1024
  } catch {
    return 0
  }
}

/** Clock ticks per second of /proc's utime and stime (USER_HZ: 100 on Linux). */
const TICKS = 100

/**
 * CPU seconds (user + system) one process has used, its reaped children's included (cutime, cstime:
 * a renderer that exited counts in its parent), 0 once it is gone.
 */
export const cpuOf = (pid: number): number => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8")
    // Fields after the command name: state is field 3; utime, stime, cutime, cstime are fields 14-17.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return [11, 12, 13, 14].reduce((sum, at) => sum + Number(fields[at]), 0) / TICKS
  } catch {
    return 0
  }
}

/** CPU seconds of a server process and of every process below it (its browsers), apart. */
export interface Cpu {
  readonly server: number
  readonly browser: number
}

export const cpuTreeOf = (pid: number): Cpu => ({ server: cpuOf(pid), browser: descendants(pid).reduce((sum, child) => sum + cpuOf(child), 0) })

/**
 * Unique set size of one process in bytes (Private_Clean + Private_Dirty: the pages no other process maps),
 * 0 once it is gone. Summed over processes it leaves out every shared page (the browser binary, shared
 * memory between the browser and its renderers): what the processes cost beyond what is already mapped.
 */
export const ussOf = (pid: number): number => {
  try {
    const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, "utf8")
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(rollup)?.[1] ?? 0)
    return (kb("Private_Clean") + kb("Private_Dirty")) * 1024
  } catch {
    return 0
  }
}

export interface Memory {
  /** The server process's resident bytes. */
  readonly server: number
  /** Every process below it (its browsers), resident bytes summed. */
  readonly browser: number
  /** The same processes, proportional set sizes summed. */
  readonly browserPss: number
  /** The same processes, unique set sizes summed. */
  readonly browserUss: number
}

/** A browser's memory: every process of its tree, summed (RSS, PSS, USS). */
export const browserTreeMemory = (root: number): Omit<Memory, "server"> => {
  const tree = [root, ...descendants(root)]
  return {
    browser: tree.reduce((sum, pid) => sum + rssOf(pid), 0),
    browserPss: tree.reduce((sum, pid) => sum + pssOf(pid), 0),
    browserUss: tree.reduce((sum, pid) => sum + ussOf(pid), 0)
  }
}

/** The resident memory of a server process and of every process below it (its browsers). */
export const memoryOf = (pid: number): Memory => {
  const below = descendants(pid)
  return {
    server: rssOf(pid),
    browser: below.reduce((sum, child) => sum + rssOf(child), 0),
    browserPss: below.reduce((sum, child) => sum + pssOf(child), 0),
    browserUss: below.reduce((sum, child) => sum + ussOf(child), 0)
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Stops a server this bench spawned: SIGTERM (each server closes its browsers on it), then, after
 * `graceMs`, SIGKILL for whatever of its process tree is still there (pids taken before the signal).
 */
const stopTree = async (child: ChildProcess, graceMs = 10_000) => {
  const pid = child.pid!
  const tree = [pid, ...descendants(pid)]
  child.kill("SIGTERM")
  const deadline = Date.now() + graceMs
  while (tree.some(alive) && Date.now() < deadline) await sleep(100)
  for (const left of tree.filter(alive)) process.kill(left, "SIGKILL")
}

// ---------------------------------------------------------------------------------------------------
// Servers

/** Spawns `node ...args` and waits for the line on its stderr (or stdout) that `listening` matches. */
const spawnHttp = async (args: ReadonlyArray<string>, cwd: string, listening: RegExp, toMcp: (url: string) => string): Promise<HttpServer> => {
  const child = spawn(process.execPath, [...args], { cwd, stdio: ["ignore", "pipe", "pipe"] })
  const url = await new Promise<string>((resolve, reject) => {
    let seen = ""
    const timer = setTimeout(() => reject(new Error(`no "listening" line within 30 s from ${args[0]}:\n${seen.slice(-2000)}`)), 30_000)
    const read = (chunk: Buffer) => {
      seen += chunk.toString("utf8")
      const match = listening.exec(seen)?.[1]
      if (match === undefined) return
      clearTimeout(timer)
      resolve(toMcp(match))
    }
    child.stdout!.on("data", read)
    child.stderr!.on("data", read)
    child.once("exit", (code) => reject(new Error(`${args[0]} exited with ${code} before listening:\n${seen.slice(-2000)}`)))
  })
  // Keep draining its output so that a chatty server never blocks on a full pipe.
  child.stdout!.resume()
  child.stderr!.resume()
  return {
    pid: child.pid!,
    url,
    client: async (name) => {
      const client = new Client({ name, version: "1.0.0" })
      await client.connect(new StreamableHTTPClientTransport(new URL(url)))
      return client
    },
    stop: async () => {
      await stopTree(child)
      fs.rmSync(cwd, { recursive: true, force: true })
    }
  }
}

/** Our built server over Streamable HTTP on a free port of 127.0.0.1. */
export const startOursHttp = (extra: ReadonlyArray<string> = []): Promise<HttpServer> => {
  const dir = scratch("ours")
  return spawnHttp([ourEntry, ...ourFlags(dir), "--port", "0", ...extra], dir, /listening on (http:\/\/\S+\/mcp)/, (url) => url)
}

/** @playwright/mcp with --isolated (one shared browser, a context per client) over HTTP on a free port. */
export const startPlaywrightHttp = (): Promise<HttpServer> => {
  const dir = scratch("playwright")
  const config = path.join(dir, "config.json")
  fs.writeFileSync(config, JSON.stringify({ browser: { isolated: true, launchOptions: { args: [...LOOPBACK_ARGS] } }, outputDir: path.join(dir, "out") }))
  return spawnHttp(
    [playwrightMcp, "--headless", "--isolated", "--host", "127.0.0.1", "--port", "0", "--executable-path", executablePath, "--config", config],
    dir,
    /Listening on (http:\/\/\S+)/,
    (url) => `${url}/mcp`
  )
}

/** Our built server over stdio, with one client: the one that drives every session. */
export const startOursStdio = async (): Promise<Running & { readonly client: Client }> => {
  const dir = scratch("stdio")
  const { client, transport } = await spawnClient([ourEntry, ...ourFlags(dir)], { name: "bench-parallel-stdio", cwd: dir })
  const pid = transport.pid!
  return {
    pid,
    client,
    stop: async () => {
      const tree = [pid, ...descendants(pid)]
      await client.close()
      const deadline = Date.now() + 10_000
      while (tree.some(alive) && Date.now() < deadline) await sleep(100)
      for (const left of tree.filter(alive)) process.kill(left, "SIGKILL")
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }
}

/** Whether our built server knows a flag (its --help names it). */
export const oursSupports = async (flag: string): Promise<boolean> => {
  const child = spawn(process.execPath, [ourEntry, "--help"], { stdio: ["ignore", "pipe", "pipe"] })
  let text = ""
  child.stdout.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")))
  child.stderr.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")))
  await new Promise((resolve) => child.once("exit", resolve))
  return text.includes(flag)
}

/**
 * The resident memory of a second browser: a plain Chromium (the same binary and switches as our server's
 * browser) with one context and one page, after `prepare` ran one agent's flow in it, its whole process tree summed.
 */
export const secondBrowserMemory = async (args: Array<string>, prepare: (page: import("playwright").Page) => Promise<void>): Promise<Omit<Memory, "server">> => {
  const server = await chromium.launchServer({ executablePath, headless: true, args })
  try {
    const browser = await chromium.connect(server.wsEndpoint())
    await prepare(await (await browser.newContext()).newPage())
    const memory = browserTreeMemory(server.process().pid!)
    await browser.close()
    return memory
  } finally {
    await server.close()
  }
}
