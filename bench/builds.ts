// Builds of our server side by side: the same workloads on this checkout's build and on other
// checkouts' (BENCH_AGAINST, comma-separated, e.g. a worktree of the commit before a restructuring, built
// with npm run build), each server spawned as installed (dist/bin) and driven over stdio with the SDK Client, the
// builds interleaved round by round (their order reversed every other round), so that a slow moment of a shared
// machine falls on both alike. Per workload and build: the median wall time and the median CPU time
// (user+sys) of the server process and of its browser processes, and this build's ratio to each other one.
// CPU is the figure to compare under load: it is what the code costs, whatever else the machine does.
// Workloads: flow (a) and (c) of bench/flow.ts (the 5-step sign-in flow as 5 calls with their
// observations, and as one mm_run_steps), and describe_screen on the generated pages of bench/observe.ts
// at 10k and 100k elements. Linux only (CPU from /proc).
//
//   BENCH_AGAINST=/work/wt/pre18 npm run bench:builds      (or bench:flow, bench:observe with BENCH_AGAINST)
//   BENCH_BUILDS_ONLY=flow|observe, BENCH_RUNS (rounds, default 12), BENCH_OBSERVE_RUNS (default 5)
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { loginPageWith, servePages } from "../demo/sample-app.js"
import { generatedPage } from "./generated-page.js"
import { cpuBelow, median, out, root, signInSteps, spawnClient } from "./support.js"

const RUNS = Number(process.env.BENCH_RUNS ?? 12)
const OBSERVE_RUNS = Number(process.env.BENCH_OBSERVE_RUNS ?? 5)

interface Sample {
  readonly wall: number
  readonly server: number
  readonly browser: number
}

interface Build {
  readonly name: string
  readonly client: Client
  readonly pid: number
  readonly samples: Map<string, Array<Sample>>
  /** Runs that failed, by workload (a loaded machine can make a huge page's walk miss its time): counted, not timed. */
  readonly failures: Map<string, number>
}

type CallResult = Awaited<ReturnType<Client["callTool"]>>

const ok = (result: CallResult, what: string): CallResult => {
  if (result.isError) throw new Error(`${what} failed: ${JSON.stringify(result.content).slice(0, 400)}`)
  return result
}

const envelopeOf = (result: CallResult) => JSON.parse((result.content as Array<{ text: string }>)[0]!.text)

/** One workload: what it does on a build's client (untimed `before`, timed `run`). */
interface Workload {
  readonly name: string
  readonly runs: number
  readonly before?: (client: Client) => Promise<void>
  readonly run: (client: Client) => Promise<void>
}

const start = async (checkout: string, scratch: string): Promise<Build> => {
  const server = path.join(checkout, "dist/bin/browser-workflow-mcp.js")
  if (!fs.existsSync(server)) throw new Error(`no build at ${server}: run npm run build in ${checkout}`)
  const artifacts = fs.mkdtempSync(path.join(scratch, "build-"))
  const { client, transport } = await spawnClient([server, "--artifacts-dir", artifacts, "--loopback-only"], { name: "bench-builds" })
  ok(await client.callTool({ name: "mm_launch", arguments: {} }), "mm_launch")
  return { name: checkout, client, pid: transport.pid!, samples: new Map(), failures: new Map() }
}

const measure = async (build: Build, workload: Workload) => {
  let before = cpuBelow(build.pid)
  let t0 = performance.now()
  try {
    if (workload.before !== undefined) {
      await workload.before(build.client)
      before = cpuBelow(build.pid)
      t0 = performance.now()
    }
    await workload.run(build.client)
  } catch (error) {
    process.stderr.write(`${build.name}: ${workload.name}: ${error instanceof Error ? error.message.slice(0, 300) : String(error)}\n`)
    build.failures.set(workload.name, (build.failures.get(workload.name) ?? 0) + 1)
    return
  }
  const wall = performance.now() - t0
  // The processes' counters catch up with the work just done (a renderer's last task, the tick).
  await new Promise((resolve) => setTimeout(resolve, 30))
  const after = cpuBelow(build.pid)
  const samples = build.samples.get(workload.name) ?? []
  samples.push({ wall, server: after.server - before.server, browser: after.browser - before.browser })
  build.samples.set(workload.name, samples)
}

const flowWorkloads = (url: string): ReadonlyArray<Workload> => {
  const steps = signInSteps(url)
  return [
    {
      name: "flow (a) 5 calls, default observation",
      runs: RUNS,
      run: async (client) => {
        for (const step of steps) ok(await client.callTool({ name: step.tool, arguments: step.args }), step.tool)
      }
    },
    {
      name: "flow (c) 1 mm_run_steps, observations none",
      runs: RUNS,
      run: async (client) => {
        const result = ok(
          await client.callTool({ name: "mm_run_steps", arguments: { steps, includeObservations: "none", stopOnError: true } }),
          "mm_run_steps"
        )
        if (envelopeOf(result).result?.summary?.ok !== true) throw new Error(`batch failed: ${JSON.stringify(envelopeOf(result)).slice(0, 400)}`)
      }
    }
  ]
}

const observeWorkloads = (base: string): ReadonlyArray<Workload> =>
  [10_000, 100_000].map((elements) => ({
    name: `describe_screen at ${elements / 1000}k elements`,
    runs: OBSERVE_RUNS,
    // A fresh document each time: the first observation of a document, as after a navigation.
    before: async (client) => {
      ok(await client.callTool({ name: "mm_navigate", arguments: { screen: "url", url: `${base}/${elements}` }, _meta: { "browser-workflow-mcp/observation": "none" } }), "mm_navigate")
    },
    run: async (client) => {
      ok(await client.callTool({ name: "mm_describe_screen", arguments: {} }, undefined, { timeout: 600_000 }), "mm_describe_screen")
    }
  }))

/** Runs the workloads on this checkout's build and on each of `against` (comma-separated checkouts), interleaved, and prints the table. */
export const compareBuilds = async (against: string, only?: "flow" | "observe") => {
  const items = Array.from({ length: 200 }, (_, i) => `<li>Item ${i + 1} <button>Open ${i + 1}</button></li>`).join("")
  const login = loginPageWith(5, 0).replace("</body>", `<ul aria-label="Catalog">${items}</ul></body>`)
  const app = await servePages({ "/": login, "/10000": generatedPage(10_000), "/100000": generatedPage(100_000) })
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "bwm-bench-builds-"))
  const workloads = [...(only !== "observe" ? flowWorkloads(`${app.url}/`) : []), ...(only !== "flow" ? observeWorkloads(app.url) : [])]
  const builds = [await start(root, scratch)]
  for (const other of against.split(",")) builds.push(await start(path.resolve(other.trim()), scratch))
  try {
    for (const workload of workloads) {
      process.stderr.write(`${workload.name} ...\n`)
      // Warm-up, untimed: each build's first run of a workload.
      for (const build of builds) {
        await workload.before?.(build.client)
        await workload.run(build.client)
      }
      for (let round = 0; round < workload.runs; round++) {
        for (const build of round % 2 === 0 ? builds : [...builds].reverse()) await measure(build, workload)
      }
    }
  } finally {
    for (const build of builds) await build.client.close().catch(() => undefined)
    await app.close()
    fs.rmSync(scratch, { recursive: true, force: true })
  }
  const label = (build: Build, i: number) => (i === 0 ? "this" : path.basename(build.name)).slice(0, 11)
  out(`Builds compared: this checkout (${root}) vs ${builds.slice(1).map((build) => build.name).join(", ")}`)
  out(`${os.cpus().length} cores, load ${os.loadavg().map((load) => load.toFixed(1)).join(" ")}; medians of interleaved rounds; CPU = user+sys ms of the server process and of its browser processes`)
  out()
  out(`${"workload".padEnd(44)}${"build".padEnd(16)}${"runs".padStart(5)}${"wall".padStart(8)}${"server".padStart(8)}${"browser".padStart(9)}${"CPU".padStart(7)}`)
  for (const workload of workloads) {
    const rows = builds.map((build) => {
      const samples = build.samples.get(workload.name) ?? []
      return {
        runs: samples.length,
        failed: build.failures.get(workload.name) ?? 0,
        wall: median(samples.map((s) => s.wall)),
        server: median(samples.map((s) => s.server)),
        browser: median(samples.map((s) => s.browser)),
        cpu: median(samples.map((s) => s.server + s.browser))
      }
    })
    const a = rows[0]!
    const line = (row: typeof a) =>
      `${row.runs}`.padStart(5) +
      `${row.wall.toFixed(0)}`.padStart(8) +
      `${row.server.toFixed(0)}`.padStart(8) +
      `${row.browser.toFixed(0)}`.padStart(9) +
      `${row.cpu.toFixed(0)}`.padStart(7) +
      (row.failed > 0 ? `  (${row.failed} failed)` : "")
    out(`${workload.name.padEnd(44)}${"this".padEnd(16)}${line(a)}`)
    for (const [i, b] of rows.entries()) {
      if (i === 0) continue
      out(`${"".padEnd(44)}${label(builds[i]!, i).padEnd(16)}${line(b)}`)
      const ratio = (x: number, y: number) => (x / y).toFixed(2)
      out(`${"".padEnd(44)}${`this/${label(builds[i]!, i)}`.padEnd(16)}${"".padStart(5)}${ratio(a.wall, b.wall).padStart(8)}${ratio(a.server, b.server).padStart(8)}${ratio(a.browser, b.browser).padStart(9)}${ratio(a.cpu, b.cpu).padStart(7)}`)
    }
  }
}

/** BENCH_AGAINST as bench:flow and bench:observe take it: the other checkouts (comma-separated), or undefined. */
export const against = (): string | undefined => {
  const value = process.env.BENCH_AGAINST
  return value === undefined || value === "" ? undefined : value
}

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)
if (isMain) {
  const other = against()
  if (other === undefined) {
    process.stderr.write("BENCH_AGAINST=<another checkout, built> is required\n")
    process.exit(2)
  }
  const only = process.env.BENCH_BUILDS_ONLY
  compareBuilds(other, only === "flow" || only === "observe" ? only : undefined).then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`)
      process.exit(1)
    }
  )
}
