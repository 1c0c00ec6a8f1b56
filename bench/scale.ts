// bench:scale (issue 23): a recorded TodoMVC flow replayed 16 times, each run with its own item names as
// params. Two Playwright browser servers on 127.0.0.1 (launchServer, the protocol of `playwright
// run-server`, with the switches `browser-workflow-mcp browser-server --loopback-only` gives it) stand in
// for the grid. Contenders, interleaved over BENCH_ROUNDS rounds (default 2), each a fresh server process
// over stdio, with the CPU of every process (split: the browsers', ours and the bench's):
//   sequential  one browser server; per run mm_replay {flowTag, params} then mm_cleanup (32 calls)
//   fan-out     both browser servers; one mm_replay {flowTag, runs, concurrency: 4}
// Then the same fan-out with the second browser server killed (SIGKILL) half a run after 4 runs (BENCH_KILL_AFTER) finished: its
// runs must fail with MM_BROWSER_CLOSED, the others pass, and replaying the failed ones again passes.
// Every run must store only its own items, and every passed run exactly its two, failed runs checked too
// (what one stored before its browser went is its own): the TodoMVC page served here reports its stored
// todos to this process after every change, per page load.
import * as http from "node:http"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { chromium, type BrowserServer } from "playwright"
import { listenLoopback, send, type RunningServer } from "../demo/serve.js"
import { serveThirdParty } from "../demo/third-party-apps.js"
import { LOOPBACK_ARGS, withDisabledFeatures } from "../src/adapters/playwright/lifecycle/launch.js"
import { cpuBelow, findChromium, ourServer, out, root, spawnClient } from "./support.js"

const RUNS = 16
const CONCURRENCY = 4
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2)
/** The kill case's moment: once this many runs have finished (BENCH_KILL_AFTER, default 4). */
const KILL_AFTER = Number(process.env.BENCH_KILL_AFTER ?? 4)
const FLOW = "bench-scale-todo"
const executablePath = findChromium()

// ---------------------------------------------------------------------------------------------------
// The app: TodoMVC (React) with a reporter of its stored todos

/** Reports localStorage writes (TodoMVC keeps its todos there) to the bench, per page load. */
const REPORTER = `<script>(() => {
  const load = Math.random().toString(36).slice(2); let seq = 0
  const setItem = Storage.prototype.setItem
  Storage.prototype.setItem = function (key, value) {
    setItem.call(this, key, value)
    fetch("/log", { method: "POST", body: JSON.stringify({ load, seq: ++seq, value }) })
  }
})()</script>`

interface App extends RunningServer {
  /** Each page load's last stored todo titles (loads that stored something). */
  readonly lists: () => ReadonlyArray<ReadonlyArray<string>>
  readonly reset: () => void
}

const serveApp = async (): Promise<App> => {
  const index = fs.readFileSync(path.join(root, "node_modules/todomvc/examples/react/index.html"), "utf8").replace("<head>", `<head>${REPORTER}`)
  const latest = new Map<string, { seq: number; titles: ReadonlyArray<string> }>()
  const handler: http.RequestListener = (request, response) => {
    if (request.method === "POST" && request.url === "/log") {
      let body = ""
      request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")))
      request.on("end", () => {
        const report = JSON.parse(body) as { load: string; seq: number; value: string }
        const titles = (JSON.parse(report.value) as Array<{ title: string }>).map((todo) => todo.title)
        const known = latest.get(report.load)
        if (known === undefined || known.seq < report.seq) latest.set(report.load, { seq: report.seq, titles })
        send(response, 204, "text/plain", "")
      })
      return
    }
    const p = new URL(request.url ?? "/", "http://127.0.0.1").pathname
    if (p === "/todomvc/react/" || p === "/todomvc/react/index.html") return void send(response, 200, "text/html; charset=utf-8", index)
    if (!serveThirdParty(request, response)) send(response, 404, "text/plain", "not found")
  }
  const server = await listenLoopback(handler)
  return {
    ...server,
    lists: () => [...latest.values()].map((entry) => entry.titles).filter((titles) => titles.length > 0),
    reset: () => latest.clear()
  }
}

// ---------------------------------------------------------------------------------------------------
// Browser servers and our server

/**
 * A browser server as `browser-workflow-mcp browser-server --loopback-only` starts one: the loopback switches
 * and our disabled features (without them every session's context also loads the omnibox popup's WebUI renderer).
 */
const browserServer = async (): Promise<BrowserServer> => {
  const server = await chromium.launchServer({ executablePath, headless: true, args: withDisabledFeatures([...LOOPBACK_ARGS]), host: "127.0.0.1", port: 0 })
  if (server.process().pid !== undefined) browserPids.push(server.process().pid!)
  return server
}

const artifacts = fs.mkdtempSync(path.join(os.tmpdir(), "bwm-bench-scale-"))

/** Our server over stdio on the given browser servers; counts the calls it answers. */
const ourClient = async (app: App, endpoints: ReadonlyArray<string>) => {
  const args = [ourServer, "--artifacts-dir", artifacts, "--loopback-only", "--app-url", `${app.url}/todomvc/react/`, "--log-level", "warning", ...endpoints.flatMap((url) => ["--ws-endpoint", url])]
  const { client, transport } = await spawnClient(args, { name: "bench-scale", cwd: root, stderr: "pipe" })
  // Its warnings: where a browser server went away under sessions, or under a session starting on it.
  let log = ""
  transport.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString("utf8")))
  let calls = 0
  const call = async (name: string, args: Record<string, unknown>, onProgress?: (done: number) => void) => {
    calls++
    const result = await client.callTool({ name, arguments: args }, undefined, {
      timeout: 900_000,
      resetTimeoutOnProgress: true,
      ...(onProgress !== undefined ? { onprogress: (progress: { progress: number }) => onProgress(progress.progress) } : {})
    })
    return JSON.parse((result.content as Array<{ text: string }>)[0]!.text) as { ok: boolean; result?: any; error?: any }
  }
  return { client, call, calls: () => calls, log: () => log }
}

/** Each run's own items. */
const paramsOf = (run: number) => ({ first: `Run ${run} milk`, second: `Run ${run} bread` })

/**
 * Whether every page load that stored todos stored only one run's own items, and each passed run ended with
 * exactly its own two. Every run's loads are looked at, failed runs included: a run that failed when its
 * browser went away may have stored its first item, or both, before; that is its own, and not a passed run's.
 * `why` says what broke the check (a load with another run's item, a passed run without its two).
 */
const ownItems = (app: App, passed: ReadonlyArray<number>, failed: ReadonlyArray<number> = []): Own => {
  const items = (run: number) => [paramsOf(run).first, paramsOf(run).second]
  const runOf = (title: string) => [...passed, ...failed].find((run) => items(run).includes(title))
  const problems: Array<string> = []
  const complete = new Map<number, number>()
  let ofFailed = 0
  for (const titles of app.lists()) {
    const runs = new Set(titles.map(runOf))
    const run = runs.size === 1 ? [...runs][0] : undefined
    // Typed in order: a load holds the run's first item, or its two, and nothing else.
    const own = run !== undefined && items(run).slice(0, titles.length).join("|") === titles.join("|")
    if (!own) problems.push(`a load stored ${JSON.stringify(titles)}`)
    else if (failed.includes(run)) ofFailed++
    else if (titles.length === 2) complete.set(run, (complete.get(run) ?? 0) + 1)
  }
  for (const run of passed) if (complete.get(run) !== 1) problems.push(`passed run ${run} ended with its two items in ${complete.get(run) ?? 0} load(s)`)
  return { ok: problems.length === 0, why: problems.slice(0, 3).join("; "), ofFailed }
}

interface Own {
  readonly ok: boolean
  readonly why: string
  /** Loads of failed runs that stored their own items before failing. */
  readonly ofFailed: number
}

/** Which of `indices` passed and which failed, by the runs an answer lists in the same order. */
const outcomes = (runs: ReadonlyArray<{ failed?: unknown }>, indices: ReadonlyArray<number>) => ({
  passed: indices.filter((_, at) => runs[at] !== undefined && runs[at]!.failed === undefined),
  failed: indices.filter((_, at) => runs[at] === undefined || runs[at]!.failed !== undefined)
})

/** "yes", or "NO (why)". */
const verdict = (check: Own) => (check.ok ? "yes" : `NO (${check.why})`) + (check.ofFailed > 0 ? ` (${check.ofFailed} load(s) of failed runs stored their own items before failing)` : "")

const must = <T extends { ok: boolean; error?: any }>(what: string, envelope: T): T => {
  if (!envelope.ok) throw new Error(`${what}: ${JSON.stringify(envelope.error)}`)
  return envelope
}

const close = async (client: Client) => client.close().catch(() => undefined)

// ---------------------------------------------------------------------------------------------------
// The measurements

/** The browser servers' pids, for the CPU split: what their browsers spent, beside our server and the bench. */
const browserPids: Array<number> = []

/** CPU ms of every process of the bench (ours, the browser servers and their browsers, this one). */
const cpuNow = () => {
  const cpu = cpuBelow(process.pid)
  return cpu.server + cpu.browser
}

/** CPU ms of the browser servers' browsers. */
const browserCpuNow = () =>
  browserPids.reduce((sum, pid) => {
    const cpu = cpuBelow(pid)
    return sum + cpu.server + cpu.browser
  }, 0)

interface Row {
  readonly contender: string
  readonly wallMs: number
  readonly cpuMs: number
  /** Of which the browsers'. */
  readonly browserCpuMs: number
  readonly calls: number
  readonly passed: number
  readonly own: Own
}

const record = async (app: App, endpoint: string) => {
  const ours = await ourClient(app, [endpoint])
  try {
    must("launch", await ours.call("mm_launch", { goal: "add two todos", flowTags: [FLOW] }))
    must("type", await ours.call("mm_type", { selector: "#new-todo", text: "Buy milk", param: "first", submit: true }))
    must("type", await ours.call("mm_type", { selector: "#new-todo", text: "Bake bread", param: "second", submit: true }))
    must("cleanup", await ours.call("mm_cleanup", {}))
  } finally {
    await close(ours.client)
  }
}

const sequential = async (app: App, endpoint: string): Promise<Row> => {
  app.reset()
  const ours = await ourClient(app, [endpoint])
  try {
    const started = performance.now()
    const cpuBefore = cpuNow()
    const browserBefore = browserCpuNow()
    const answers: Array<{ failed?: true }> = []
    for (let run = 0; run < RUNS; run++) {
      const answer = await ours.call("mm_replay", { flowTag: FLOW, params: paramsOf(run) })
      answers.push(answer.ok ? {} : { failed: true })
      await ours.call("mm_cleanup", {})
    }
    const wallMs = performance.now() - started
    const cpuMs = cpuNow() - cpuBefore
    const browserCpuMs = browserCpuNow() - browserBefore
    const { passed, failed } = outcomes(answers, [...Array(RUNS).keys()])
    return { contender: "sequential, 1 server", wallMs, cpuMs, browserCpuMs, calls: ours.calls(), passed: passed.length, own: ownItems(app, passed, failed) }
  } finally {
    await close(ours.client)
  }
}

const fanOut = async (app: App, endpoints: ReadonlyArray<string>, onProgress?: (done: number) => void) => {
  app.reset()
  const ours = await ourClient(app, endpoints)
  try {
    const started = performance.now()
    const cpuBefore = cpuNow()
    const browserBefore = browserCpuNow()
    const runs = [...Array(RUNS).keys()].map((run) => ({ params: paramsOf(run) }))
    const answer = await ours.call("mm_replay", { flowTag: FLOW, runs, concurrency: CONCURRENCY }, onProgress)
    const wallMs = performance.now() - started
    return { answer, wallMs, cpuMs: cpuNow() - cpuBefore, browserCpuMs: browserCpuNow() - browserBefore, calls: ours.calls(), ours }
  } catch (error) {
    await close(ours.client)
    throw error
  }
}

const runsOf = (answer: { ok: boolean; result?: any; error?: any }): ReadonlyArray<{ session?: string; failed?: { code: string; index?: number } }> =>
  answer.ok ? answer.result.runs : (answer.error?.details?.runs ?? [])

/** The contenders' medians and the ratios. */
const printTable = (rows: ReadonlyArray<Row>) => {
  out("")
  const cores = os.cpus().length
  out(`| contender | wall s (median) | CPU s, all processes | CPU / ${cores} cores, s | calls | passed | every run only its own items, passed runs their two |`)
  out("| --- | --- | --- | --- | --- | --- | --- |")
  const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!
  const summary = (name: string) => {
    const mine = rows.filter((row) => row.contender.startsWith(name))
    return { wall: median(mine.map((row) => row.wallMs)), cpu: median(mine.map((row) => row.cpuMs)), calls: mine[0]!.calls, passed: mine.map((row) => row.passed).join(", "), own: mine.find((row) => !row.own.ok)?.own ?? mine[0]!.own, label: mine[0]!.contender }
  }
  const seq = summary("sequential")
  const fan = summary("fan-out")
  for (const row of [seq, fan]) out(`| ${row.label} | ${(row.wall / 1000).toFixed(1)} | ${(row.cpu / 1000).toFixed(1)} | ${(row.cpu / cores / 1000).toFixed(1)} | ${row.calls} | ${row.passed} | ${verdict(row.own)} |`)
  out("")
  out(`fan-out / sequential: wall ${(fan.wall / seq.wall).toFixed(2)}x (target <= 0.5x), calls ${(fan.calls / seq.calls).toFixed(2)}x`)
  // No contender can end before its CPU spread over every core: that is the wall a machine with these cores allows.
  out(`fan-out's floor on ${cores} cores (its CPU / cores): ${(fan.cpu / cores / 1000).toFixed(1)} s = ${(fan.cpu / cores / seq.wall).toFixed(2)}x of sequential's wall; sequential kept ${(seq.cpu / seq.wall).toFixed(2)} cores busy`)
}

const main = async () => {
  const app = await serveApp()
  const servers = [await browserServer(), await browserServer()]
  try {
    out(`bench:scale: ${RUNS} replays of a recorded TodoMVC flow (2 todos typed as params), ${ROUNDS} round(s) interleaved, ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}`)
    await record(app, servers[0]!.wsEndpoint())
    const rows: Array<Row> = []
    for (let round = 0; round < ROUNDS; round++) {
      // Interleaved: which contender goes first alternates by round.
      const order = round % 2 === 0 ? ["sequential", "fan-out"] : ["fan-out", "sequential"]
      for (const contender of order) {
        if (contender === "sequential") rows.push(await sequential(app, servers[0]!.wsEndpoint()))
        else {
          const { answer, wallMs, cpuMs, browserCpuMs, calls, ours } = await fanOut(app, servers.map((server) => server.wsEndpoint()))
          await close(ours.client)
          const { passed, failed } = outcomes(runsOf(answer), [...Array(RUNS).keys()])
          rows.push({ contender: `fan-out c=${CONCURRENCY}, 2 servers`, wallMs, cpuMs, browserCpuMs, calls, passed: passed.length, own: ownItems(app, passed, failed) })
          if (!answer.ok) out(`  fan-out failed: ${answer.error?.message}`)
        }
        const row = rows.at(-1)!
        out(`  round ${round + 1} ${row.contender}: ${(row.wallMs / 1000).toFixed(1)} s, CPU ${(row.cpuMs / 1000).toFixed(1)} s (browsers ${(row.browserCpuMs / 1000).toFixed(1)}, our server and the bench ${((row.cpuMs - row.browserCpuMs) / 1000).toFixed(1)}), ${row.calls} calls, ${row.passed}/${RUNS} passed, own items ${verdict(row.own)}`)
      }
    }
    // BENCH_ROUNDS=0: only the killed browser server.
    if (rows.length > 0) printTable(rows)

    // One browser server killed in the middle.
    out("")
    out(`killed: the second browser server gets SIGKILL half a run after ${KILL_AFTER} runs have finished`)
    let killed = false
    const killStarted = performance.now()
    const { answer, wallMs, ours } = await fanOut(app, servers.map((server) => server.wsEndpoint()), (done) => {
      if (!killed && done >= KILL_AFTER) {
        killed = true
        // Runs end in waves (each slot's next run starts as one ends): the kill comes half a run later, in the
        // middle of the next wave's runs rather than as they start (a start moves to the other server).
        const runMs = ((performance.now() - killStarted) * CONCURRENCY) / done
        setTimeout(() => servers[1]!.process().kill("SIGKILL"), runMs / 2)
      }
    })
    try {
      const runs = runsOf(answer)
      const failed = runs.flatMap((run, index) => (run.failed === undefined ? [] : [index]))
      const codes = [...new Set(runs.flatMap((run) => (run.failed === undefined ? [] : [run.failed.code])))]
      const passed = runs.flatMap((run, index) => (run.failed === undefined ? [index] : []))
      out(`  ${(wallMs / 1000).toFixed(1)} s: ${passed.length} passed, ${failed.length} failed (runs ${failed.join(", ") || "none"}; codes ${codes.join(", ") || "none"})`)
      // Every run's loads, failed runs' included (what they stored before their browser went must be theirs alone).
      out(`  every run stored only its own items, each passed run exactly its two: ${verdict(ownItems(app, passed, failed))}`)
      const ended = [...ours.log().matchAll(/went away: its (\d+) session\(s\) ended/g)].reduce((sum, match) => sum + Number(match[1]), 0)
      const moved = [...ours.log().matchAll(/went away while a session started on it|did not open a context/g)].length
      out(`  our server's log: ${ended} session(s) ended with the killed server, ${moved} start(s) on it moved to the other`)
      for (const index of failed) {
        const failure = runs[index]!.failed as { code: string; index?: number; tool?: string; message?: string }
        out(`    run ${index}: ${failure.code} at step ${failure.index ?? "-"} ${failure.tool ?? ""}: ${(failure.message ?? "").slice(0, 160)}`)
      }
      if (failed.length > 0) {
        app.reset()
        const again = await ours.call("mm_replay", { flowTag: FLOW, runs: failed.map((run) => ({ params: paramsOf(run) })), concurrency: CONCURRENCY })
        const rerun = outcomes(runsOf(again), failed)
        out(`  the failed runs again: ${rerun.passed.length}/${failed.length} passed, own items ${verdict(ownItems(app, rerun.passed, rerun.failed))}`)
      }
    } finally {
      await close(ours.client)
    }
  } finally {
    for (const server of servers) await server.close().catch(() => undefined)
    await app.close()
    fs.rmSync(artifacts, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:scale failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  process.exit(1)
})
