// Widget benchmark (issue 19): real widget libraries from their npm builds served on 127.0.0.1, one or
// two tasks each, done by a scripted single-call agent (agent.ts) with our server and with
// @playwright/mcp 0.0.83, interleaved per task, each contender on a fresh server and browser per task.
// A task succeeds when the state the page reported through the widget's own API is right after the
// agent's one attempt; an attempt whose actions all answered success with a wrong end state is a false
// "ok". Counts calls, bytes (each request's name and arguments plus every content block of the answer)
// and wall time from spawning the server to its last answer (a server that loads Playwright at start and
// one that loads it at its first launch compare alike), and flags each task above the issue's targets
// (bytes at most 0.5x of Playwright MCP's, wall time at most its own). Every call has a deadline, every task too, the whole run too; browsers are closed on
// every path (the server is closed, then any browser process carrying this run's marker switch is killed).
//
// npm run bench:widgets        BENCH_TASKS=quill-type,ag-grid-sort  BENCH_VERBOSE=1 (answers on stderr)
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { LOOPBACK_ARGS } from "../../src/adapters/playwright/lifecycle/launch.js"
import { findChromium, ourServer, out, playwrightMcp, root, spawnClient } from "../support.js"
import { ours, SingleCallAgent, theirs, type Adapter, type Attempt } from "./agent.js"
import { serveWidgetCorpus, type WidgetCorpus } from "./corpus.js"
import { pages, tasks, type Task } from "./tasks.js"
import { editorBundles, editorPages, editorTasks } from "./third-editors.js"
import { fwBundles, fwPages, fwTasks } from "./third-fw.js"
import { reactBundles, reactPages, reactTasks } from "./third-react.js"
import { wcBundles, wcPages, wcTasks } from "./third-wc.js"
import { widerPages, widerTasks } from "./wider.js"

const CALL_DEADLINE_MS = 30_000
const TASK_DEADLINE_MS = 150_000
const RUN_DEADLINE_MS = 25 * 60_000
/** The issue's targets per task, against Playwright MCP's figures on the same task: bytes at most half, wall time at most the same. */
const BYTES_TARGET = 0.5
const WALL_TARGET = 1
/** How long the page has after the attempt to settle (debounces, frames) before its reported state is judged. */
const SETTLE_MS = 1_500

const executablePath = findChromium()
const verbose = process.env.BENCH_VERBOSE === "1"
const only = process.env.BENCH_TASKS?.split(",")
/** Every browser this run starts carries this switch, so none outlives it. */
const MARKER = `--bwm-widgets-bench=${process.pid}-${Date.now()}`
const log = (line: string) => {
  if (verbose) process.stderr.write(line + "\n")
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const withDeadline = <A>(promise: Promise<A>, ms: number, what: string): Promise<A> => {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no result within ${ms} ms`)), ms)
  })
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer))
}

/** Kills the browser processes of this run still alive (found by the marker switch), by pid. */
const sweepBrowsers = () => {
  let listing = ""
  try {
    listing = execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" })
  } catch {
    return
  }
  for (const line of listing.split("\n")) {
    if (!line.includes(MARKER) || line.includes("ps -eo")) continue
    const pid = Number(line.trim().split(/\s+/)[0])
    if (pid > 0 && pid !== process.pid) {
      try {
        process.kill(pid, "SIGKILL")
      } catch {
        // Gone already.
      }
    }
  }
}

interface Contender {
  readonly adapter: Adapter
  readonly spawn: (url: string, dir: string) => ReadonlyArray<string>
}

const contenders: ReadonlyArray<Contender> = [
  {
    adapter: ours,
    spawn: (url, dir) => [
      ourServer, "--artifacts-dir", dir, "--loopback-only", "--headless", "--executable-path", executablePath, "--app-url", url, "--browser-arg", MARKER
    ]
  },
  {
    adapter: theirs,
    spawn: (_url, dir) => {
      const config = path.join(dir, "config.json")
      fs.writeFileSync(config, JSON.stringify({ browser: { isolated: true, launchOptions: { args: [...LOOPBACK_ARGS, MARKER] } }, outputDir: path.join(dir, "out") }))
      return [playwrightMcp, "--headless", "--executable-path", executablePath, "--config", config]
    }
  }
]

interface Outcome {
  /** From spawning the server until it answered the handshake. */
  readonly startMs: number
  /** From spawning the server until the attempt's last answer: a server that defers work to its first call and one that does it at start compare alike. */
  readonly wallMs: number
  readonly right: boolean
  readonly attempt: Attempt
  readonly falseOk: boolean
  readonly state: string
}

/** One contender's attempt at one task on a fresh server; the server and its browser are gone when it resolves. */
const runOne = async (corpus: WidgetCorpus, task: Task, contender: Contender, scratch: string, index: number): Promise<Outcome> => {
  const run = `${task.id}-${contender.adapter.label}-${index}`
  const url = `${corpus.url}${task.path}${task.path.includes("?") ? "&" : "?"}run=${run}&other=${encodeURIComponent(corpus.otherUrl)}`
  const dir = path.join(scratch, run)
  fs.mkdirSync(dir)
  let client: Client | undefined
  let pid: number | undefined
  const spawned = Date.now()
  try {
    const connected = await withDeadline(spawnClient(contender.spawn(url, dir), { name: "bench-widgets", cwd: dir }), CALL_DEADLINE_MS, "connect")
    client = connected.client
    pid = connected.transport.pid ?? undefined
    const startMs = Date.now() - spawned
    const agent = new SingleCallAgent(client, contender.adapter, CALL_DEADLINE_MS, log)
    const attempt = await withDeadline(agent.attempt(url, task.steps), TASK_DEADLINE_MS, `${task.id} (${contender.adapter.label})`).catch(
      (error: unknown): Attempt => ({ calls: 0, bytes: 0, errors: 1, allOk: false, stopped: String(error), ms: TASK_DEADLINE_MS, answers: [] })
    )
    await sleep(SETTLE_MS)
    const [main, frame] = await Promise.all([corpus.reportOf(run, "main"), corpus.reportOf(run, "frame")])
    const reported = { main: main?.state, frame: frame?.state }
    const right = task.done(reported)
    return { startMs, wallMs: startMs + attempt.ms, right, attempt, falseOk: attempt.allOk && !right, state: JSON.stringify(reported).slice(0, 160) }
  } finally {
    await withDeadline(client?.close() ?? Promise.resolve(), 10_000, "close").catch(() => undefined)
    if (pid !== undefined) {
      try {
        process.kill(pid, "SIGKILL")
      } catch {
        // Exited already.
      }
    }
    sweepBrowsers()
  }
}

const versionOf = (library: string) => {
  try {
    return JSON.parse(fs.readFileSync(path.join(root, "node_modules", library, "package.json"), "utf8")).version as string
  } catch {
    return "-"
  }
}

/** An answer on one line: its lines joined, the envelope's JSON head dropped, at most 400 characters. */
const gist = (text: string) => {
  const lines = text.split("\n").map((line) => line.trim()).filter((line) => line !== "" && !line.startsWith("```"))
  const joined = lines.join(" / ")
  return joined.length > 400 ? joined.slice(0, 400) + "…" : joined
}

const kb = (bytes: number) => (bytes / 1000).toFixed(1)
const secs = (ms: number) => (ms / 1000).toFixed(1)

const main = async () => {
  const corpus = await serveWidgetCorpus(
    { ...pages, ...widerPages, ...reactPages, ...editorPages, ...wcPages, ...fwPages },
    { ...reactBundles, ...editorBundles, ...wcBundles, ...fwBundles }
  )
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "bwm-bench-widgets-"))
  const results: Array<{ task: Task; outcomes: Record<string, Outcome> }> = []
  const chosen = [...tasks, ...widerTasks, ...reactTasks, ...editorTasks, ...wcTasks, ...fwTasks].filter((task) => only === undefined || only.includes(task.id))
  try {
    for (const [index, task] of chosen.entries()) {
      // Interleaved: who goes first alternates per task.
      const order = index % 2 === 0 ? contenders : [...contenders].reverse()
      const outcomes: Record<string, Outcome> = {}
      for (const contender of order) {
        outcomes[contender.adapter.label] = await runOne(corpus, task, contender, scratch, index)
        const o = outcomes[contender.adapter.label]!
        process.stderr.write(`${task.id} ${contender.adapter.label}: ${o.right ? "right" : "WRONG"} ${o.attempt.calls} calls ${o.attempt.errors} errors ${o.wallMs} ms (start ${o.startMs} ms)${o.attempt.stopped ? ` (${o.attempt.stopped})` : ""}\n`)
      }
      results.push({ task, outcomes })
    }
  } finally {
    await corpus.close()
    sweepBrowsers()
  }

  out("Widget tasks on real libraries served on 127.0.0.1 from their npm builds; a single-call scripted agent, one attempt per task.")
  out("ok: the widget's own state was right after the attempt; err: error answers; false ok: every action answered success, state wrong;")
  out("s: from spawning the server to its last answer; ×PW: ours over Playwright MCP's on the same task, ⚑ above target.")
  out()
  out("| task | library | ours ok | ours err | ours calls | ours KB | ours s | PW ok | PW err | PW calls | PW KB | PW s | bytes ×PW | wall ×PW |")
  out("| --- | --- | :-: | --: | --: | --: | --: | :-: | --: | --: | --: | --: | --: | --: |")
  const over: Array<{ readonly task: string; readonly bytes: number | undefined; readonly wall: number | undefined }> = []
  const total = { ours: { ok: 0, err: 0, calls: 0, bytes: 0, ms: 0, callsMs: 0, falseOk: 0 }, theirs: { ok: 0, err: 0, calls: 0, bytes: 0, ms: 0, callsMs: 0, falseOk: 0 } }
  for (const { task, outcomes } of results) {
    const row = [task.id, task.library.startsWith("(") ? task.library : `${task.library} ${versionOf(task.library)}`]
    for (const [key, label] of [["ours", "ours"], ["theirs", "playwright-mcp"]] as const) {
      const o = outcomes[label]!
      const t = total[key]
      t.ok += o.right ? 1 : 0
      t.err += o.attempt.errors
      t.calls += o.attempt.calls
      t.bytes += o.attempt.bytes
      t.ms += o.wallMs
      t.callsMs += o.attempt.ms
      t.falseOk += o.falseOk ? 1 : 0
      row.push(o.right ? "yes" : o.falseOk ? "FALSE OK" : "no", String(o.attempt.errors), String(o.attempt.calls), kb(o.attempt.bytes), secs(o.wallMs))
    }
    // The targets per task: bytes at most BYTES_TARGET of Playwright MCP's, wall time at most its own; a miss is flagged.
    const mine = outcomes["ours"]!.attempt
    const theirs = outcomes["playwright-mcp"]!.attempt
    const bytesRatio = theirs.bytes === 0 ? Number.NaN : mine.bytes / theirs.bytes
    const wallRatio = outcomes["playwright-mcp"]!.wallMs === 0 ? Number.NaN : outcomes["ours"]!.wallMs / outcomes["playwright-mcp"]!.wallMs
    const bytesOver = !(bytesRatio <= BYTES_TARGET)
    const wallOver = !(wallRatio <= WALL_TARGET)
    if (bytesOver || wallOver) over.push({ task: task.id, bytes: bytesOver ? bytesRatio : undefined, wall: wallOver ? wallRatio : undefined })
    row.push(`${bytesRatio.toFixed(2)}${bytesOver ? " ⚑" : ""}`, `${wallRatio.toFixed(2)}${wallOver ? " ⚑" : ""}`)
    out(`| ${row.join(" | ")} |`)
  }
  const n = results.length
  out(
    `| **total** (${n} tasks) | | **${total.ours.ok}/${n}** | ${total.ours.err} | ${total.ours.calls} | ${kb(total.ours.bytes)} | ${secs(total.ours.ms)} | **${total.theirs.ok}/${n}** | ${total.theirs.err} | ${total.theirs.calls} | ${kb(total.theirs.bytes)} | ${secs(total.theirs.ms)} |`
  )
  out()
  const ratio = (a: number, b: number) => (b === 0 ? "-" : `${(a / b).toFixed(2)}x`)
  out(
    `ours/theirs: right first time ${total.ours.ok}/${total.theirs.ok}; error answers ${total.ours.err}/${total.theirs.err}; false ok ${total.ours.falseOk}/${total.theirs.falseOk}; ` +
      `calls ${ratio(total.ours.calls, total.theirs.calls)}; bytes ${ratio(total.ours.bytes, total.theirs.bytes)}; wall time ${ratio(total.ours.ms, total.theirs.ms)} ` +
        `(the calls alone, start left out: ${ratio(total.ours.callsMs, total.theirs.callsMs)})`
  )
  out(
    over.length === 0
      ? `per task: every task within the targets (bytes ≤ ${BYTES_TARGET}x, wall ≤ ${WALL_TARGET}x of Playwright MCP's)`
      : `per task, ⚑ above target (bytes ≤ ${BYTES_TARGET}x, wall ≤ ${WALL_TARGET}x of Playwright MCP's): ` +
          over
            .map(({ task, bytes, wall }) => `${task} (${[bytes === undefined ? "" : `bytes ${bytes.toFixed(2)}x`, wall === undefined ? "" : `wall ${wall.toFixed(2)}x`].filter((part) => part !== "").join(", ")})`)
            .join("; ")
  )
  out()
  out("What went wrong (the answer that stopped the agent, or the state it left):")
  for (const { task, outcomes } of results) {
    for (const label of ["ours", "playwright-mcp"]) {
      const o = outcomes[label]!
      if (o.right && o.attempt.errors === 0) continue
      out(`- ${task.id} (${label}): ${o.right ? "right, but " : ""}${o.attempt.stopped ?? (o.falseOk ? "FALSE OK" : "all answers ok")}; state ${o.state}`)
      out(`  last answer (${o.attempt.answers.at(-1)?.tool ?? "none"}): ${gist(o.attempt.answers.at(-1)?.text ?? "")}`)
    }
  }
}

const stop = (code: number) => {
  sweepBrowsers()
  process.exit(code)
}
// The bench stops by itself: a run past its deadline, or a signal, closes what it started.
setTimeout(() => {
  process.stderr.write(`bench:widgets: stopped after ${RUN_DEADLINE_MS / 60_000} minutes\n`)
  stop(2)
}, RUN_DEADLINE_MS).unref()
process.once("SIGINT", () => stop(130))
process.once("SIGTERM", () => stop(143))

main().then(
  () => stop(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
    stop(1)
  }
)
