// Parallel sessions bench (issue 20): N agents, each adding its own three TodoMVC items, completing one
// and reading its list back, and signing in to the sample app as its own user, all at once through one
// server. Ours with one Streamable HTTP client per agent, and with one stdio client driving a session
// per agent (the `session` argument); the same flows back to back; @playwright/mcp --isolated with one
// HTTP client per agent; and the floor, the same flows as a plain Playwright script. Contenders are
// interleaved in every run (their order rotates); every figure is the median over the runs, every ratio
// is against a baseline measured in the same run; CPU seconds (server and browsers) beside wall time. A
// failed agent or a violation (an item or a user of another agent read back) is printed as such, never hidden.
//
// Options (environment): BENCH_N=1,4,8 agent counts (the first is the memory baseline, the last the one
// the targets speak of); BENCH_RUNS=3; BENCH_APPS=todo,sample; BENCH_QUICK=1 (or --quick): N=1,8, one
// run; BENCH_VERBOSE=1 prints every call and answer to stderr; BENCH_SERVER=path/to/browser-workflow-mcp.js
// measures another build of ours (dist/bin/browser-workflow-mcp.js of this checkout by default).
import { listenLoopback, send } from "../../demo/serve.js"
import { loginPage } from "../../demo/sample-app.js"
import { serveThirdParty } from "../../demo/third-party-apps.js"
import { median, out } from "../support.js"
import { APPS, type App } from "./flows.js"
import { flow, PLAIN_ARGS } from "./plain.js"
import { type Kind, type Measurement, measure, type Plan } from "./run.js"
import { oursSupports, secondBrowserMemory } from "./servers.js"

const quick = process.env.BENCH_QUICK === "1" || process.argv.includes("--quick")
const list = (value: string | undefined, fallback: string) => (value === undefined || value === "" ? fallback : value).split(",").map((part) => part.trim())
const counts = list(process.env.BENCH_N, quick ? "1,8" : "1,4,8").map(Number).sort((a, b) => a - b)
const runs = Number(process.env.BENCH_RUNS ?? (quick ? 1 : 3))
const apps = list(process.env.BENCH_APPS, APPS.join(",")) as Array<App>
const top = counts[counts.length - 1]!
const MB = 1024 * 1024

if (counts.some((n) => !Number.isInteger(n) || n < 1) || !(runs >= 1) || apps.some((app) => !APPS.includes(app))) {
  process.stderr.write(`bench:parallel: BENCH_N takes counts >= 1, BENCH_RUNS a count >= 1, BENCH_APPS some of ${APPS.join(",")}\n`)
  process.exit(2)
}

const LABELS: Record<Kind, string> = {
  "ours-http": "ours, an HTTP client per agent",
  "ours-stdio": "ours, one stdio client, a session per agent",
  "ours-serial": "ours, the same flows back to back",
  "ours-browser-per-session": "ours --browser-per-session, HTTP",
  "ours-shared": "control: ours --shared-browser (one session for all), HTTP",
  playwright: "@playwright/mcp --isolated, an HTTP client per agent",
  plain: "floor: the same flows as a plain Playwright script (no MCP), a context per agent"
}

const ok = (m: Measurement) => m.agents.every((agent) => agent.failure === undefined)
const fmt = (value: number | undefined, digits = 1) => (value === undefined || !Number.isFinite(value) ? "—" : value.toFixed(digits))
const times = (value: number | undefined) => (value === undefined ? "—" : `${value.toFixed(2)}x`)
const medianOf = (values: ReadonlyArray<number>) => (values.length === 0 ? undefined : median(values))

/** Why agents failed, counted: "7x MM_BROWSER_IN_USE (mm_launch)". */
const failures = (ms: ReadonlyArray<Measurement>) => {
  const byReason = new Map<string, number>()
  for (const agent of ms.flatMap((m) => m.agents)) if (agent.failure !== undefined) byReason.set(agent.failure, (byReason.get(agent.failure) ?? 0) + 1)
  return [...byReason].map(([reason, count]) => `${count}x ${reason}`).join("; ")
}

/** The per-run ratio of a figure of `a` to the same figure of `b` (runs where both completed), median. */
const ratio = (a: ReadonlyArray<Measurement>, b: ReadonlyArray<Measurement>, figure: (m: Measurement) => number) =>
  medianOf(a.flatMap((m) => {
    const other = b.find((candidate) => candidate.run === m.run)
    return other !== undefined && ok(m) && ok(other) ? [figure(m) / figure(other)] : []
  }))

const perAgent = (m: Measurement, figure: (agent: Measurement["agents"][number]) => number) => m.agents.reduce((sum, agent) => sum + figure(agent), 0) / m.agents.length
const wall = (m: Measurement) => m.wallMs
const bytesPerAgent = (m: Measurement) => perAgent(m, (agent) => agent.bytes)

type Part = "server" | "browser" | "browserPss" | "browserUss"

/** Memory per extra session in MB: (memory at n - memory at the base count) / (n - base count), per run, median. */
const perExtra = (at: ReadonlyArray<Measurement>, base: ReadonlyArray<Measurement>, part: Part) =>
  medianOf(at.flatMap((m) => {
    const one = base.find((candidate) => candidate.run === m.run)
    return one?.memory !== undefined && m.memory !== undefined && ok(m) && ok(one) && m.n > one.n ? [(m.memory[part] - one.memory[part]) / (m.n - one.n) / MB] : []
  }))

/** Starts the apps on 127.0.0.1: TodoMVC (React, from the todomvc package) and our sample app at /sample/. */
const serveApps = () =>
  listenLoopback((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1")
    if (url.pathname === "/sample/") return void send(response, 200, "text/html; charset=utf-8", loginPage)
    if (!serveThirdParty(request, response)) send(response, 404, "text/plain", "not found")
  })

/** A second browser's memory, MB (medians over the runs). */
interface SecondBrowser {
  readonly rss: number | undefined
  readonly pss: number | undefined
  readonly uss: number | undefined
}

const main = async () => {
  const server = await serveApps()
  const plan: Plan = { apps, urls: { todo: `${server.url}/todomvc/react/`, sample: `${server.url}/sample/` } }
  const browserPerSession = await oursSupports("--browser-per-session")
  const results: Array<Measurement> = []
  const secondBrowser: Array<{ browser: number; browserPss: number; browserUss: number }> = []
  try {
    for (let run = 1; run <= runs; run++) {
      const tasks: Array<() => Promise<void>> = []
      for (const n of counts) {
        for (const kind of ["ours-http", "ours-stdio", "playwright"] as const) tasks.push(async () => void results.push(await measure(kind, plan, n, run)))
      }
      tasks.push(async () => void results.push(await measure("ours-serial", plan, top, run)))
      // The floor at the base count too: what one more bare context costs, beside what one more of our sessions does.
      for (const n of new Set([counts[0]!, top])) tasks.push(async () => void results.push(await measure("plain", plan, n, run)))
      if (browserPerSession) tasks.push(async () => void results.push(await measure("ours-browser-per-session", plan, top, run)))
      if (top > 1) tasks.push(async () => void results.push(await measure("ours-shared", plan, top, run)))
      tasks.push(async () => {
        // The same flow as one agent's, so that the page work held in memory is the same as a session's.
        secondBrowser.push(
          await secondBrowserMemory(PLAIN_ARGS, async (page) => {
            for (const app of plan.apps) await flow(page, 1, app, plan)
          })
        )
      })
      // Interleaved: each run starts at another contender.
      const shift = (run - 1) % tasks.length
      for (const task of [...tasks.slice(shift), ...tasks.slice(0, shift)]) {
        await task()
        process.stderr.write(`bench:parallel: run ${run}/${runs}, ${results.length} measurements\n`)
      }
    }
  } finally {
    await server.close()
  }
  const second = (part: "browser" | "browserPss" | "browserUss") => medianOf(secondBrowser.map((m) => m[part] / MB))
  report(results, { rss: second("browser"), pss: second("browserPss"), uss: second("browserUss") }, browserPerSession)
}

type Of = (kind: Kind, n: number) => ReadonlyArray<Measurement>

/** CPU seconds during the wall time, server + browsers (medians): "3.1 + 9.8". */
const cpuCell = (ms: ReadonlyArray<Measurement>) => {
  const server = medianOf(ms.flatMap((m) => (m.cpu === undefined ? [] : [m.cpu.server])))
  const browser = medianOf(ms.flatMap((m) => (m.cpu === undefined ? [] : [m.cpu.browser])))
  return server === undefined || browser === undefined ? "" : `${fmt(server)} + ${fmt(browser)}`
}

/** One row of the table: a contender at one agent count. */
const row = (of: Of, kind: Kind, n: number): string => {
  const ms = of(kind, n)
  const good = ms.filter(ok)
  const agents = ms.flatMap((m) => m.agents)
  const okAgents = agents.filter((agent) => agent.failure === undefined).length
  const theirs = of("playwright", n)
  const isOurs = kind === "ours-http" || kind === "ours-stdio" || kind === "ours-browser-per-session"
  const hasMemory = kind !== "ours-serial" && kind !== "ours-shared"
  const isMcp = kind !== "plain"
  const base = counts[0]!
  const baseMs = kind === "ours-browser-per-session" ? of("ours-http", base) : of(kind, base)
  const memory = (part: Part) => medianOf(good.flatMap((m) => (m.memory === undefined ? [] : [m.memory[part] / MB])))
  const extra = (part: Part) => (n > base && hasMemory ? fmt(perExtra(ms, baseMs, part)) : "")
  const cells = [
    LABELS[kind],
    String(n),
    fmt(medianOf(good.map((m) => wall(m) / 1000))),
    cpuCell(good),
    isOurs && n === top ? times(ratio(ms, of("ours-serial", top), wall)) : "",
    isOurs ? times(ratio(ms, theirs, wall)) : "",
    isMcp ? fmt(medianOf(good.map((m) => perAgent(m, (agent) => agent.calls)))) : "",
    isMcp ? fmt(medianOf(good.map((m) => bytesPerAgent(m) / 1024))) : "",
    isOurs ? times(ratio(ms, theirs, bytesPerAgent)) : "",
    `${okAgents}/${agents.length}${okAgents < agents.length ? ` (${failures(ms)})` : ""}`,
    String(agents.reduce((sum, agent) => sum + agent.violations, 0)),
    hasMemory && isMcp ? fmt(memory("server")) : "",
    hasMemory ? `${fmt(memory("browser"))} (${fmt(memory("browserPss"))} / ${fmt(memory("browserUss"))})` : "",
    isMcp ? extra("server") : "",
    n > base && hasMemory ? `${extra("browser")} (${extra("browserPss")} / ${extra("browserUss")})` : ""
  ]
  return `| ${cells.join(" | ")} |`
}

const report = (results: ReadonlyArray<Measurement>, second: SecondBrowser, browserPerSession: boolean) => {
  const of: Of = (kind, n) => results.filter((m) => m.kind === kind && m.n === n)
  out(`Parallel sessions (issue 20): N agents at once, each on ${apps.join(" then ")}; ${runs} run(s), medians; Node ${process.version}, ${process.platform}.`)
  out("Wall time: from the agents' first call to the last read-back (browser launch included), each server warmed first (its")
  out("start-up work done: Playwright loaded, by both MCP servers, before the window opens). Ratios: per run, against the")
  out("baseline measured in the same run. Memory with every session still open: the server process's RSS, and its process")
  out(`tree below it (the browsers) summed, RSS (PSS / USS in parentheses); per extra session against N=${counts[0]} of the same contender.`)
  out("CPU: user + system seconds used during the wall time by the server process + the processes below it (its browsers).")
  out()
  out("| contender | N | wall s | CPU s | vs back to back | vs @playwright/mcp | calls/agent | KB/agent | bytes vs PW | agents ok | violations | server MB | browser MB | +server MB/session | +browser MB/session |")
  out("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |")
  for (const n of counts) for (const kind of ["ours-http", "ours-stdio", "playwright"] as const) out(row(of, kind, n))
  out(row(of, "ours-serial", top))
  for (const n of new Set([counts[0]!, top])) out(row(of, "plain", n))
  if (browserPerSession) out(row(of, "ours-browser-per-session", top))
  if (top > 1) out(row(of, "ours-shared", top))
  out()
  out(`A second browser (plain Chromium, the binary and switches of our server's, one page through one agent's flow): ${fmt(second.rss)} MB RSS (${fmt(second.pss)} MB PSS / ${fmt(second.uss)} MB USS).`)
  out("The floor's memory is its browser's whole tree (no server process): per extra context, what a bare context and its page cost.")
  out("Memory measures: RSS counts every page a process maps, so the browser binary and shared memory count once per process; PSS")
  out("divides shared pages among the processes mapping them (other browsers on the machine included, so it moves with the load);")
  out("USS counts private pages only: what a session or a browser adds beyond what is already mapped. The target speaks of RSS,")
  out("as the issue measured it; USS is the marginal cost, and a second browser shares its binary with the first too.")
  out("The control shares one session among all agents on purpose: its violations and failures show what the bench catches.")
  out()
  targets(of, second)
}

/** The targets of issue 20, each met, NOT met, or not measurable in this run (and why). */
const targets = (of: Of, second: SecondBrowser) => {
  const verdict = (value: number | undefined, limit: number) => (value === undefined ? "not measured (agents failed)" : value <= limit ? "met" : "NOT met")
  const agents = (["ours-http", "ours-stdio"] as const).flatMap((kind) => counts.flatMap((n) => of(kind, n))).flatMap((m) => m.agents)
  const failed = agents.filter((agent) => agent.failure !== undefined).length
  const violations = agents.reduce((sum, agent) => sum + agent.violations, 0)
  out("Targets (issue 20):")
  out(`- 0 cross-session interference, every agent of ours ending with exactly its own items, in every run: ${failed === 0 && violations === 0 ? "met" : "NOT met"} (${violations} violations; ${failed} of ${agents.length} agents failed)`)
  for (const kind of ["ours-http", "ours-stdio"] as const) {
    const atTop = of(kind, top)
    const theirs = of("playwright", top)
    const vsSerial = ratio(atTop, of("ours-serial", top), wall)
    const vsTheirs = ratio(atTop, theirs, wall)
    const bytes = ratio(atTop, theirs, bytesPerAgent)
    out(`- ${LABELS[kind]}, N=${top}: wall ${times(vsSerial)} of the same flows back to back (target <= 0.5x): ${verdict(vsSerial, 0.5)}`)
    out(`  vs @playwright/mcp --isolated: wall ${times(vsTheirs)} (target <= 0.5x): ${verdict(vsTheirs, 0.5)}; bytes ${times(bytes)} (target < 1x): ${verdict(bytes, 0.999)}`)
    const share = (part: "browser" | "browserPss" | "browserUss", whole: number | undefined) => {
      const extra = perExtra(atTop, of(kind, counts[0]!), part)
      return extra === undefined || whole === undefined ? undefined : extra / whole
    }
    const rss = share("browser", second.rss)
    out(
      `  browser memory per extra session: ${fmt(rss, 2)} of a second browser's by RSS, ${fmt(share("browserPss", second.pss), 2)} by PSS, ${fmt(share("browserUss", second.uss), 2)} by USS (target <= 0.33, by RSS): ${verdict(rss, 1 / 3)}`
    )
  }
  const bare = perExtra(of("plain", top), of("plain", counts[0]!), "browser")
  out(`  the floor, a bare Playwright context per agent: ${fmt(bare === undefined || second.rss === undefined ? undefined : bare / second.rss, 2)} of a second browser's by RSS (what Chromium itself costs per context)`)
  floor(of)
}

/**
 * What the floor says of the ratios to @playwright/mcp: both servers and the floor share the same two cores,
 * and at N agents the page work alone (the floor) already takes some share of @playwright/mcp's wall time;
 * no server can answer in less than that share.
 */
const floor = (of: Of) => {
  const floorMs = of("plain", top)
  const theirs = ratio(of("playwright", top), floorMs, wall)
  const ours = ratio(of("ours-http", top), floorMs, wall)
  const cpu = (kind: Kind) => medianOf(of(kind, top).filter(ok).flatMap((m) => (m.cpu === undefined ? [] : [m.cpu.server + m.cpu.browser])))
  out(
    `- The floor, N=${top} (the same flows as a plain Playwright script): @playwright/mcp takes ${times(theirs)} its wall time, ours (HTTP) ${times(ours)}; CPU seconds, server + browsers: floor ${fmt(cpu("plain"))}, @playwright/mcp ${fmt(cpu("playwright"))}, ours ${fmt(cpu("ours-http"))}.`
  )
  if (theirs !== undefined) out(`  No server's wall time goes below the floor's: ours vs @playwright/mcp cannot go below ${times(1 / theirs)} on this workload and machine.`)
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
    process.exit(1)
  }
)
