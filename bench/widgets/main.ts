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
// A server that fails to start or to connect, or anything else that goes wrong in one attempt, is that task's
// failure for that contender (the table says "connect failed" or "task failed"; runner.ts), and the run goes on.
//
// npm run bench:widgets        BENCH_TASKS=quill-type,ag-grid-sort  BENCH_VERBOSE=1 (answers on stderr)  BENCH_MINUTES=40
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { LOOPBACK_ARGS } from "../../src/adapters/playwright/lifecycle/launch.js"
import { findChromium, ourServer, out, playwrightMcp, root } from "../support.js"
import { ours, theirs } from "./agent.js"
import { serveWidgetCorpus } from "./corpus.js"
import { runOne, sweepBrowsers, type Contender, type Outcome, type RunSettings } from "./runner.js"
import { pages, tasks, type Task } from "./tasks.js"
import { appBundles, appPages, appTasks } from "./third-apps.js"
import { dndBundles, dndPages, dndTasks } from "./third-dnd.js"
import { carbonBundles, carbonPages, carbonTasks } from "./third-carbon.js"
import { editorBundles, editorPages, editorTasks } from "./third-editors.js"
import { fwBundles, fwPages, fwTasks } from "./third-fw.js"
import { reactBundles, reactPages, reactTasks } from "./third-react.js"
import { wcBundles, wcPages, wcTasks } from "./third-wc.js"
import { widerPages, widerTasks } from "./wider.js"

const CALL_DEADLINE_MS = 30_000
const TASK_DEADLINE_MS = 150_000
/**
 * The run's own deadline: past it no task starts, and the table shows the tasks done (a loaded machine takes
 * longer than 25 minutes for 89 tasks). The process's backstop is a task's deadline per contender later.
 */
const RUN_DEADLINE_MS = Number(process.env.BENCH_MINUTES ?? 40) * 60_000
const startedAt = Date.now()
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

const settings: RunSettings = { marker: MARKER, callDeadlineMs: CALL_DEADLINE_MS, taskDeadlineMs: TASK_DEADLINE_MS, settleMs: SETTLE_MS, log }

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
    { ...pages, ...widerPages, ...reactPages, ...editorPages, ...wcPages, ...fwPages, ...appPages, ...carbonPages, ...dndPages },
    { ...reactBundles, ...editorBundles, ...wcBundles, ...fwBundles, ...appBundles, ...carbonBundles, ...dndBundles }
  )
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "bwm-bench-widgets-"))
  const results: Array<{ task: Task; outcomes: Record<string, Outcome> }> = []
  const chosen = [...tasks, ...widerTasks, ...reactTasks, ...editorTasks, ...wcTasks, ...fwTasks, ...appTasks, ...carbonTasks, ...dndTasks].filter((task) => only === undefined || only.includes(task.id))
  try {
    for (const [index, task] of chosen.entries()) {
      if (Date.now() - startedAt > RUN_DEADLINE_MS) {
        process.stderr.write(`bench:widgets: run deadline (${RUN_DEADLINE_MS / 60_000} min, BENCH_MINUTES) passed: ${index} of ${chosen.length} tasks done, the rest left out\n`)
        break
      }
      // Interleaved: who goes first alternates per task.
      const order = index % 2 === 0 ? contenders : [...contenders].reverse()
      const outcomes: Record<string, Outcome> = {}
      for (const contender of order) {
        outcomes[contender.adapter.label] = await runOne(corpus, task, contender, scratch, index, settings)
        const o = outcomes[contender.adapter.label]!
        process.stderr.write(`${task.id} ${contender.adapter.label}: ${o.right ? "right" : "WRONG"} ${o.attempt.calls} calls ${o.attempt.errors} errors ${o.wallMs} ms (start ${o.startMs} ms)${o.attempt.stopped ? ` (${o.attempt.stopped})` : ""}\n`)
      }
      results.push({ task, outcomes })
    }
  } finally {
    await corpus.close()
    sweepBrowsers(MARKER)
  }

  out("Widget tasks on real libraries served on 127.0.0.1 from their npm builds; a single-call scripted agent, one attempt per task.")
  out("ok: the widget's own state was right after the attempt; err: error answers; false ok: every action answered success, state wrong;")
  out("connect failed / task failed: the server did not start or answer the handshake / the attempt itself failed (below: why);")
  out("s: from spawning the server to its last answer; 1st s: from spawning the server to its first answer (ours mm_launch, PW browser_navigate: each starts the browser and opens the page); ×PW: ours over Playwright MCP's on the same task, ⚑ above target.")
  out()
  out("| task | library | ours ok | ours err | ours calls | ours KB | ours s | ours 1st s | PW ok | PW err | PW calls | PW KB | PW s | PW 1st s | bytes ×PW | wall ×PW |")
  out("| --- | --- | :-: | --: | --: | --: | --: | --: | :-: | --: | --: | --: | --: | --: | --: | --: |")
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
      const first = o.attempt.answers[0]
      row.push(o.right ? "yes" : o.falseOk ? "FALSE OK" : (o.failure ?? "no"), String(o.attempt.errors), String(o.attempt.calls), kb(o.attempt.bytes), secs(o.wallMs), first === undefined ? "-" : secs(o.startMs + first.ms))
    }
    // The targets per task: bytes at most BYTES_TARGET of Playwright MCP's, wall time at most its own; a miss is flagged.
    const mine = outcomes["ours"]!.attempt
    const theirs = outcomes["playwright-mcp"]!.attempt
    // A contender whose server did not connect, or whose attempt failed, gave nothing to compare: no ratio, counted as not right above.
    if (outcomes["ours"]!.failure !== undefined || outcomes["playwright-mcp"]!.failure !== undefined) {
      row.push("—", "—")
      out(`| ${row.join(" | ")} |`)
      continue
    }
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
    `| **total** (${n} tasks) | | **${total.ours.ok}/${n}** | ${total.ours.err} | ${total.ours.calls} | ${kb(total.ours.bytes)} | ${secs(total.ours.ms)} | | **${total.theirs.ok}/${n}** | ${total.theirs.err} | ${total.theirs.calls} | ${kb(total.theirs.bytes)} | ${secs(total.theirs.ms)} | |`
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
      const last = o.attempt.answers.at(-1)
      if (last !== undefined) out(`  last answer (${last.tool}): ${gist(last.text)}`)
    }
  }
}

const stop = (code: number) => {
  sweepBrowsers(MARKER)
  process.exit(code)
}
// The bench stops by itself: a run past its deadline, or a signal, closes what it started.
setTimeout(() => {
  process.stderr.write(`bench:widgets: stopped after ${RUN_DEADLINE_MS / 60_000} minutes and two tasks' deadlines\n`)
  stop(2)
}, RUN_DEADLINE_MS + 2 * 2 * TASK_DEADLINE_MS).unref()
process.once("SIGINT", () => stop(130))
process.once("SIGTERM", () => stop(143))

main().then(
  () => stop(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
    stop(1)
  }
)
