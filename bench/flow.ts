// Flow benchmark: a 5-step login flow (navigate, type, type, click, wait for text) on a page of ours,
// cold and warm, over stdio with the SDK Client, against plain Playwright and @playwright/mcp.
// Cold: from spawning the process (our server, @playwright/mcp, or the plain script bench/plain-flow.ts
// run with Node) to the end of the first flow, median of BENCH_COLD_RUNS interleaved rounds.
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { chromium } from "playwright"
import { loginPageWith, servePages } from "../demo/sample-app.js"
import { LOOPBACK_ARGS } from "../src/adapters/playwright/lifecycle/launch.js"
import { OBSERVATION_META_KEY } from "../src/mcp/server.js"
import { against, compareBuilds } from "./builds.js"
import { connect, findChromium, median, ourServer, out, percentile, playwrightMcp, signInSteps } from "./support.js"

const here = path.dirname(fileURLToPath(import.meta.url))
const WARM_RUNS = Number(process.env.BENCH_RUNS ?? 15)
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 5)
/** The cold target of issue 12: spawn, launch and flow within this factor of the cold plain script. */
const COLD_TARGET = 1.2
/** BENCH_ACTION_PATH=playwright runs our server with --action-path playwright (Playwright's actions only). */
const ACTION_PATH = process.env.BENCH_ACTION_PATH ? ["--action-path", process.env.BENCH_ACTION_PATH] : []
/** Simulated sign-in round trip of the page; the same constant for every contender. */
const LOGIN_DELAY_MS = Number(process.env.BENCH_LOGIN_DELAY_MS ?? 0)
const executablePath = findChromium()

interface FlowRun {
  readonly ms: number
  readonly bytes: number
}

interface Running {
  readonly flow: () => Promise<FlowRun>
  readonly stop: () => Promise<void>
}

interface Contender {
  readonly name: string
  /** Starts the contender (server, browser); the returned runner does one flow. */
  readonly start: () => Promise<Running>
  /** A cold run of its own (spawn to the end of the first flow) when `start` is not one. */
  readonly cold?: () => Promise<number>
}

const textBytes = (result: Awaited<ReturnType<Client["callTool"]>>) =>
  (result.content as Array<{ type: string; text?: string; data?: string }>).reduce(
    (sum, block) => sum + Buffer.byteLength(block.text ?? block.data ?? ""),
    0
  )

const ok = (result: Awaited<ReturnType<Client["callTool"]>>, what: string) => {
  if (result.isError) throw new Error(`${what} failed: ${JSON.stringify(result.content).slice(0, 400)}`)
  return result
}

const main = async () => {
  // A sign-in form next to a list of 200 items, as in the reference measurements of the peers.
  const items = Array.from({ length: 200 }, (_, i) => `<li>Item ${i + 1} <button>Open ${i + 1}</button></li>`).join("")
  const page = loginPageWith(5, LOGIN_DELAY_MS).replace("</body>", `<ul aria-label="Catalog">${items}</ul></body>`)
  const app = await servePages({ "/": page })
  const url = `${app.url}/`
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "bwm-bench-flow-"))

  const ours = (name: string, mode: "default" | "none" | "batch"): Contender => ({
    name,
    start: async () => {
      const client = await connect([ourServer, "--artifacts-dir", path.join(scratch, name.slice(0, 3)), "--loopback-only", ...ACTION_PATH], { name: "bench-flow" })
      ok(await client.callTool({ name: "mm_launch", arguments: {} }), "mm_launch")
      const meta = mode === "none" ? { _meta: { [OBSERVATION_META_KEY]: "none" } } : {}
      const steps = signInSteps(url)
      const flow = async (): Promise<FlowRun> => {
        const t0 = performance.now()
        let bytes = 0
        if (mode === "batch") {
          const result = ok(
            await client.callTool({ name: "mm_run_steps", arguments: { steps, includeObservations: "none", stopOnError: true } }),
            "mm_run_steps"
          )
          const envelope = JSON.parse((result.content as Array<{ text: string }>)[0]!.text)
          if (!envelope.ok) throw new Error(`batch failed: ${JSON.stringify(envelope.result.steps)}`)
          bytes += textBytes(result)
        } else {
          for (const step of steps) {
            bytes += textBytes(ok(await client.callTool({ name: step.tool, arguments: step.args, ...meta }), step.tool))
          }
        }
        return { ms: performance.now() - t0, bytes }
      }
      return { flow, stop: () => client.close() }
    }
  })

  const plainPlaywright: Contender = {
    name: "(d) plain Playwright script",
    // Cold: the script as a user runs it, a Node process of its own that imports Playwright. Warm: the
    // same steps in this process on a browser kept open.
    cold: () =>
      new Promise<number>((resolve, reject) => {
        const t0 = performance.now()
        const child = spawn(process.execPath, [path.join(here, "plain-flow.js"), url, executablePath, ...LOOPBACK_ARGS], {
          stdio: ["ignore", "pipe", "inherit"]
        })
        let ms: number | undefined
        child.stdout.setEncoding("utf8")
        child.stdout.on("data", (chunk: string) => {
          if (ms === undefined && chunk.includes("done")) ms = performance.now() - t0
        })
        child.on("error", reject)
        child.on("exit", (code) => (code === 0 && ms !== undefined ? resolve(ms) : reject(new Error(`plain-flow exited with ${code}`))))
      }),
    start: async () => {
      const browser = await chromium.launch({ executablePath, headless: true, args: [...LOOPBACK_ARGS] })
      const page = await browser.newPage()
      const flow = async (): Promise<FlowRun> => {
        const t0 = performance.now()
        await page.goto(url)
        await page.locator("[data-testid=username]").fill("alice")
        await page.locator("[data-testid=password]").fill("correct horse")
        await page.locator("[data-testid=login-submit]").click()
        await page.getByText("Welcome, alice").waitFor()
        return { ms: performance.now() - t0, bytes: 0 }
      }
      return { flow, stop: () => browser.close() }
    }
  }

  const playwrightMcpContender: Contender = {
    name: "(e) @playwright/mcp",
    start: async () => {
      const dir = fs.mkdtempSync(path.join(scratch, "pwmcp-"))
      const config = {
        browser: {
          browserName: "chromium",
          isolated: true,
          launchOptions: { executablePath, headless: true, args: [...LOOPBACK_ARGS] }
        },
        outputDir: path.join(dir, "out")
      }
      fs.writeFileSync(path.join(dir, "config.json"), JSON.stringify(config))
      const client = await connect([playwrightMcp, "--config", path.join(dir, "config.json")], { name: "bench-flow", cwd: dir })
      const flow = async (): Promise<FlowRun> => {
        const t0 = performance.now()
        let bytes = textBytes(ok(await client.callTool({ name: "browser_navigate", arguments: { url } }), "browser_navigate"))
        // The agent has to read a snapshot to learn the refs it acts on.
        const snapshot = ok(await client.callTool({ name: "browser_snapshot", arguments: {} }), "browser_snapshot")
        bytes += textBytes(snapshot)
        const yaml = (snapshot.content as Array<{ text?: string }>).map((block) => block.text ?? "").join("\n")
        const ref = (pattern: RegExp) => {
          const match = yaml.match(pattern)
          if (!match) throw new Error(`ref not found for ${pattern} in:\n${yaml.slice(0, 1500)}`)
          return match[1]!
        }
        const username = ref(/textbox "Username"[^\n]*?\[ref=([a-z0-9]+)\]/)
        const password = ref(/textbox "Password"[^\n]*?\[ref=([a-z0-9]+)\]/)
        const submit = ref(/button "Sign in"[^\n]*?\[ref=([a-z0-9]+)\]/)
        bytes += textBytes(ok(await client.callTool({ name: "browser_type", arguments: { element: "Username", target: username, text: "alice" } }), "type"))
        bytes += textBytes(
          ok(await client.callTool({ name: "browser_type", arguments: { element: "Password", target: password, text: "correct horse" } }), "type")
        )
        bytes += textBytes(ok(await client.callTool({ name: "browser_click", arguments: { element: "Sign in", target: submit } }), "click"))
        bytes += textBytes(ok(await client.callTool({ name: "browser_wait_for", arguments: { text: "Welcome, alice" } }), "wait_for"))
        return { ms: performance.now() - t0, bytes }
      }
      return { flow, stop: () => client.close() }
    }
  }

  const contenders: ReadonlyArray<Contender> = [
    ours("(a) 5 calls, default observation", "default"),
    ours("(b) 5 calls, no observation", "none"),
    ours("(c) 1 mm_run_steps, observations none", "batch"),
    plainPlaywright,
    playwrightMcpContender
  ]

  // Cold: rounds in which each contender in turn starts and runs its first flow alone; the last round's
  // instances stay up for the warm rounds, which run every contender once in turn, so that a slow
  // moment of a shared machine falls on all of them alike.
  const colds = contenders.map((): Array<number> => [])
  const started: Array<{ contender: Contender; running: Running; first: FlowRun | undefined }> = []
  for (let round = 0; round < COLD_RUNS; round++) {
    for (const [i, contender] of contenders.entries()) {
      if (contender.cold !== undefined) {
        colds[i]!.push(await contender.cold())
        if (round === COLD_RUNS - 1) started.push({ contender, running: await contender.start(), first: undefined })
        continue
      }
      const t0 = performance.now()
      const running = await contender.start()
      const first = await running.flow()
      colds[i]!.push(performance.now() - t0)
      if (round === COLD_RUNS - 1) started.push({ contender, running, first })
      else await running.stop()
    }
  }
  const warm = started.map((): Array<FlowRun> => [])
  for (let round = 0; round < WARM_RUNS; round++) {
    for (const [i, { running }] of started.entries()) warm[i]!.push(await running.flow())
  }
  for (const { running } of started) await running.stop()
  const rows = started.map(({ contender, first }, i) => ({
    name: contender.name,
    cold: median(colds[i]!),
    warm: median(warm[i]!.map((run) => run.ms)),
    p90: percentile(warm[i]!.map((run) => run.ms), 0.9),
    bytes: median(warm[i]!.map((run) => run.bytes)) || (first?.bytes ?? 0)
  }))
  await app.close()
  fs.rmSync(scratch, { recursive: true, force: true })

  const byName = (prefix: string) => rows.find((row) => row.name.startsWith(prefix))!
  const floor = byName("(d)")
  const peer = byName("(e)")
  out(`Flow benchmark: navigate, type, type, click, wait for text on a sign-in page with a list of 200 items (sign-in delay ${LOGIN_DELAY_MS} ms)`)
  out(
    `${os.cpus().length} cores, Node ${process.version}, ${executablePath}; warm = median (and p90) of ${WARM_RUNS} interleaved rounds; cold = median of ${COLD_RUNS}, from spawn (server or script) to the end of the first flow`
  )
  out()
  out(`${"contender".padEnd(42)}${"cold ms".padStart(9)}${"/(d)".padStart(6)}${"warm ms".padStart(9)}${"p90 ms".padStart(8)}${"vs (d)".padStart(8)}${"vs (e)".padStart(8)}${"bytes".padStart(9)}${"bytes/(e)".padStart(11)}`)
  for (const row of rows) {
    out(
      `${row.name.padEnd(42)}${row.cold.toFixed(0).padStart(9)}${(row.cold / floor.cold).toFixed(2).padStart(6)}${row.warm.toFixed(0).padStart(9)}${row.p90.toFixed(0).padStart(8)}${(row.warm / floor.warm).toFixed(2).padStart(8)}${(row.warm / peer.warm).toFixed(2).padStart(8)}${String(row.bytes).padStart(9)}${(peer.bytes > 0 ? row.bytes / peer.bytes : 0).toFixed(3).padStart(11)}`
    )
  }
  const c = byName("(c)")
  out()
  out("Targets for (c) warm:")
  out(`  within 1.5x of (d):         ${(c.warm / floor.warm).toFixed(2)}x  ${c.warm <= 1.5 * floor.warm ? "met" : "NOT met"}`)
  out(`  at most 0.25x of (e) warm:  ${(c.warm / peer.warm).toFixed(2)}x  ${c.warm <= 0.25 * peer.warm ? "met" : "NOT met"}`)
  out(`  at most 1/10 of (e) bytes:  ${(c.bytes / peer.bytes).toFixed(3)}  ${c.bytes * 10 <= peer.bytes ? "met" : "NOT met"}`)
  out(`Cold target: within ${COLD_TARGET}x of (d) cold:`)
  for (const row of rows.slice(0, 3)) {
    const ratio = row.cold / floor.cold
    out(`  ${row.name.slice(0, 3)} ${ratio.toFixed(2)}x  ${ratio <= COLD_TARGET ? "met" : "NOT met"}`)
  }
}

// BENCH_AGAINST=<another checkout, built>: flows (a) and (c) on both builds instead (bench/builds.ts).
const other = against()
;(other !== undefined ? compareBuilds(other, "flow") : main()).catch((error) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`)
  process.exit(1)
})
