// Start-up benchmark: what a client waits for at the start of each conversation, from spawning the
// server over stdio to the answer of initialize and of the first tools/list, against @playwright/mcp.
// Raw JSON-RPC lines, so a client library's own work (schema validation) is not counted.
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { median, ourServer, ourServerUnbundled, out, percentile, playwrightMcp } from "./support.js"

const RUNS = Number(process.env.BENCH_RUNS ?? 15)
/** The figure clients wait for, per issue 12. */
const TARGET_MS = 300

interface Contender {
  readonly name: string
  readonly args: ReadonlyArray<string>
  /** Environment variables added to this process's. */
  readonly env?: Readonly<Record<string, string>>
}

interface Run {
  readonly initializeMs: number
  readonly toolsListMs: number
  readonly toolsListBytes: number
  readonly tools: number
}

/** Spawns the server, sends initialize, then tools/list; resolves when tools/list is answered. */
const once = (contender: Contender, cwd: string) =>
  new Promise<Run>((resolve, reject) => {
    const t0 = performance.now()
    const child = spawn(process.execPath, [...contender.args], { cwd, env: { ...process.env, ...contender.env }, stdio: ["pipe", "pipe", "ignore"] })
    let buffer = ""
    let initializeMs = 0
    const timer = setTimeout(() => {
      child.kill()
      reject(new Error(`${contender.name}: no tools/list answer within 20 s`))
    }, 20_000)
    child.on("error", reject)
    child.stdout.setEncoding("utf8")
    child.stdout.on("data", (chunk: string) => {
      buffer += chunk
      for (let newline = buffer.indexOf("\n"); newline >= 0; newline = buffer.indexOf("\n")) {
        const line = buffer.slice(0, newline)
        buffer = buffer.slice(newline + 1)
        const message = JSON.parse(line) as { id?: number; result?: { tools?: Array<unknown> } }
        if (message.id === 1) {
          initializeMs = performance.now() - t0
          child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n")
          child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }) + "\n")
        } else if (message.id === 2) {
          const toolsListMs = performance.now() - t0
          clearTimeout(timer)
          child.stdin.end()
          child.once("exit", () =>
            resolve({ initializeMs, toolsListMs, toolsListBytes: Buffer.byteLength(line), tools: message.result?.tools?.length ?? 0 })
          )
          child.kill()
        }
      }
    })
    child.stdin.write(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench-startup", version: "1.0.0" } }
      }) + "\n"
    )
  })

/** Wall time of a command that prints and exits (--help). */
const timeExit = (args: ReadonlyArray<string>) =>
  new Promise<number>((resolve, reject) => {
    const t0 = performance.now()
    const child = spawn(process.execPath, [...args], { stdio: "ignore" })
    child.on("error", reject)
    child.on("exit", () => resolve(performance.now() - t0))
  })

const main = async () => {
  const bin = ourServer
  const unbundled = ourServerUnbundled
  for (const file of [bin, unbundled, playwrightMcp]) if (!fs.existsSync(file)) throw new Error(`${file} is missing: run npm run build`)
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "bwm-bench-startup-"))
  const contenders: ReadonlyArray<Contender> = [
    { name: "(a) browser-workflow-mcp (dist/bin, bundled)", args: [bin, "--artifacts-dir", scratch] },
    // The first spawn after an install or an upgrade, before a serving process kept the code cache.
    { name: "(a') the same, code cache off", args: [bin, "--artifacts-dir", scratch], env: { BWM_CODE_CACHE: "off" } },
    { name: "(b) browser-workflow-mcp (dist/src, tsc only)", args: [unbundled, "--artifacts-dir", scratch] },
    { name: "(c) @playwright/mcp 0.0.83", args: [playwrightMcp, "--headless", "--isolated", "--output-dir", scratch] },
    { name: "(d) node -e 0 (process start alone)", args: ["-e", "0"] }
  ]

  // Rounds that run every contender once in turn, so that a slow moment of a shared machine falls on all alike.
  // Warms the file system cache for everyone, and leaves (a) its code cache as a first conversation does.
  await once(contenders[0]!, scratch)
  const runs = contenders.map((): Array<Run | number> => [])
  for (let round = 0; round < RUNS; round++) {
    for (const [i, contender] of contenders.entries()) {
      runs[i]!.push(contender.name.startsWith("(d)") ? await timeExit(contender.args) : await once(contender, scratch))
    }
  }
  const help = { bundled: [] as Array<number>, unbundled: [] as Array<number> }
  for (let round = 0; round < RUNS; round++) {
    help.bundled.push(await timeExit([bin, "--help"]))
    help.unbundled.push(await timeExit([unbundled, "--help"]))
  }
  fs.rmSync(scratch, { recursive: true, force: true })

  out("Start-up: spawn over stdio -> initialize answered -> first tools/list answered (raw JSON-RPC)")
  out(`${os.cpus().length} cores, Node ${process.version}; median and p90 of ${RUNS} interleaved rounds`)
  out()
  out(`${"contender".padEnd(48)}${"initialize".padStart(11)}${"tools/list".padStart(11)}${"p90".padStart(7)}${"tools".padStart(7)}${"list bytes".padStart(12)}`)
  const rows = contenders.map((contender, i) => {
    const all = runs[i]!
    if (typeof all[0] === "number") {
      const times = all as Array<number>
      return { name: contender.name, initialize: median(times), list: median(times), p90: percentile(times, 0.9), tools: 0, bytes: 0 }
    }
    const measured = all as Array<Run>
    return {
      name: contender.name,
      initialize: median(measured.map((run) => run.initializeMs)),
      list: median(measured.map((run) => run.toolsListMs)),
      p90: percentile(measured.map((run) => run.toolsListMs), 0.9),
      tools: measured[0]!.tools,
      bytes: measured[0]!.toolsListBytes
    }
  })
  for (const row of rows) {
    out(
      `${row.name.padEnd(48)}${row.initialize.toFixed(0).padStart(11)}${row.list.toFixed(0).padStart(11)}${row.p90.toFixed(0).padStart(7)}${String(row.tools || "").padStart(7)}${String(row.bytes || "").padStart(12)}`
    )
  }
  out()
  out(`--help: bundled ${median(help.bundled).toFixed(0)} ms, tsc only ${median(help.unbundled).toFixed(0)} ms (medians)`)
  const ours = rows[0]!
  const peer = rows.find((row) => row.name.startsWith("(c)"))!
  out(`Target: tools/list within ${TARGET_MS} ms: ${ours.list.toFixed(0)} ms, ${ours.list <= TARGET_MS ? "met" : "NOT met"}; vs @playwright/mcp ${(ours.list / peer.list).toFixed(2)}x`)
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`)
  process.exit(1)
})
