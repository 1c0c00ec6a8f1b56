// The built server over stdio under load and faults (issue 10): 5,000 calls (resident memory and open
// files), a console flood (memory during and after), SIGKILL while steps are being recorded (every step
// file parses), two servers on one artifacts directory (no step lost). Figures are printed for the report.
import { randomUUID } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { servePages, type RunningServer } from "../../demo/sample-app.js"
import { html, LOOPBACK_ARGS, tempDir } from "../support/browser.js"
import { browserPids, waitUntil } from "../support/processes.js"
import { figure } from "./support.js"

const serverEntry = path.resolve(import.meta.dirname, "../../dist/src/main.js")

const floodPage = html(
  "Flood",
  `<p id="status">flooding</p><script>
    const params = new URLSearchParams(location.search)
    const rate = Number(params.get("rate") ?? 2000), seconds = Number(params.get("seconds") ?? 5)
    const started = performance.now(); let sent = 0
    const timer = setInterval(() => {
      const elapsed = (performance.now() - started) / 1000
      if (elapsed >= seconds) { clearInterval(timer); document.getElementById("status").textContent = "done"; return }
      const due = Math.floor(elapsed * rate) - sent
      for (let i = 0; i < due; i++) { sent++; console.log("flood message", sent, { sent, at: elapsed }) }
    }, 10)
  </script>`
)

const pages = {
  "/page": html("Page", `<button data-testid="go" onclick="this.textContent = String(Number(this.textContent) + 1)">0</button>`),
  "/flood": floodPage
}

const rssMbOf = (pid: number): number => Math.round(Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024)
const fdsOf = (pid: number): number => fs.readdirSync(`/proc/${pid}/fd`).length
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

interface Running {
  readonly client: Client
  readonly transport: StdioClientTransport
  readonly marker: string
  readonly call: (name: string, args?: Record<string, unknown>) => Promise<any>
  /** With the probe: the server's memory right after a full collection. */
  readonly collected: () => Promise<{ readonly heap: number; readonly external: number; readonly rss: number }>
}

const GC_PROBE = path.resolve(import.meta.dirname, "gc-probe.cjs")

const start = async (artifactsDir: string, options: { readonly probe?: boolean } = {}): Promise<Running> => {
  const marker = randomUUID()
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      ...(options.probe === true ? ["--expose-gc", "--require", GC_PROBE] : []),
      serverEntry,
      "--artifacts-dir",
      artifactsDir,
      ...LOOPBACK_ARGS.map((arg) => `--browser-arg=${arg}`),
      "--browser-arg",
      `--bwm-test-marker=${marker}`
    ],
    stderr: "pipe"
  })
  const client = new Client({ name: "reliability", version: "1.0.0" })
  await client.connect(transport)
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await client.callTool({ name, arguments: args })
    return JSON.parse((result.content as Array<{ text: string }>)[0]!.text)
  }
  const probes: Array<(line: string) => void> = []
  let pending = ""
  transport.stderr?.on("data", (chunk: Buffer) => {
    const lines = (pending + chunk.toString("utf8")).split("\n")
    pending = lines.pop() ?? ""
    for (const line of lines) if (line.startsWith("bwm-gc-probe ")) probes.shift()?.(line.slice(13))
  })
  const collected = () =>
    new Promise<string>((resolve) => {
      probes.push(resolve)
      process.kill(transport.pid!, "SIGUSR2")
    }).then((line) => JSON.parse(line) as { heap: number; external: number; rss: number })
  return { client, transport, marker, call, collected }
}

/** Every step file under an artifacts directory, parsed; a file that does not parse throws. */
const stepFiles = (artifactsDir: string) => {
  const root = path.join(artifactsDir, "llm-knowledge")
  const files: Array<{ readonly session: string; readonly file: string }> = []
  if (!fs.existsSync(root)) return files
  for (const session of fs.readdirSync(root)) {
    const dir = path.join(root, session, "steps")
    if (!fs.existsSync(dir)) continue
    for (const file of fs.readdirSync(dir)) if (file.endsWith(".json")) files.push({ session, file: path.join(dir, file) })
  }
  return files
}

const parsesAll = (artifactsDir: string) => {
  const files = stepFiles(artifactsDir)
  const broken = files.filter(({ file }) => {
    try {
      JSON.parse(fs.readFileSync(file, "utf8"))
      return false
    } catch {
      return true
    }
  })
  return { files, broken }
}

describe("the built server under load and faults", () => {
  let app: RunningServer
  beforeAll(async () => {
    expect(fs.existsSync(serverEntry), "run npm run build first").toBe(true)
    app = await servePages(pages)
  })
  afterAll(async () => {
    await app.close()
  })

  it("5,000 calls: the heap grows less than 25 MB, resident memory less than 100 MB, and open files do not grow", { timeout: 400_000 }, async () => {
    const server = await start(tempDir(), { probe: true })
    const pid = server.transport.pid!
    try {
      expect((await server.call("mm_launch")).ok).toBe(true)
      expect((await server.call("mm_navigate", { screen: "url", url: `${app.url}/page` })).ok).toBe(true)
      // A mix of reads of the page, actions, tab and step-memory reads, eight in flight at a time.
      const round = (i: number) =>
        i % 10 === 0
          ? server.call("mm_click", { testId: "go" })
          : i % 4 === 1
            ? server.call("mm_knowledge_last", { n: 1 })
            : i % 4 === 2
              ? server.call("mm_list_tabs")
              : server.call("mm_get_state")
      const failedCodes: Array<string> = []
      const rounds = async (from: number, count: number) => {
        let failed = 0
        let next = from
        await Promise.all(
          Array.from({ length: 8 }, async () => {
            while (next < from + count) {
              const answer = await round(next++)
              if (!answer.ok) {
                failed++
                failedCodes.push(JSON.stringify(answer.error ?? answer).slice(0, 300))
              }
            }
          })
        )
        return failed
      }
      await rounds(0, 200)
      // The heap grows and shrinks with the collector: the resident size is the lowest over a stretch of
      // calls, and what the server holds is what a full collection leaves (heap and buffers).
      const kept = await server.collected()
      const samples: Array<number> = []
      const fdsBefore = fdsOf(pid)
      const started = Date.now()
      let failures = 0
      for (let block = 0; block < 50; block++) {
        failures += await rounds(block * 100, 100)
        samples.push(rssMbOf(pid))
      }
      const seconds = (Date.now() - started) / 1000
      // A moment of rest after the calls, as a client's pause between turns: the collector catches up.
      const resting: Array<number> = []
      for (let tick = 0; tick < 8; tick++) {
        await sleep(500)
        resting.push(rssMbOf(pid))
      }
      const keptAfter = await server.collected()
      const fdsAfter = fdsOf(pid)
      const first = Math.min(...samples.slice(0, 5))
      const last = Math.min(...samples.slice(-5), ...resting)
      figure("5,000 calls (8 in flight)", `${seconds.toFixed(1)} s (${Math.round(5_000 / seconds)} calls/s), ${failures} failed`)
      figure(
        "5,000 calls: server RSS (lowest of the first 500 calls, and of the last 500 and 4 s of rest; peak)",
        `${first} -> ${last} MB (${last - first >= 0 ? "+" : ""}${last - first} MB), peak ${Math.max(...samples)} MB`
      )
      figure(
        "5,000 calls: after a full collection (heap, external, RSS)",
        `${kept.heap} -> ${keptAfter.heap} MB, ${kept.external} -> ${keptAfter.external} MB, ${kept.rss} -> ${keptAfter.rss} MB (${keptAfter.rss - kept.rss >= 0 ? "+" : ""}${Math.round(keptAfter.rss - kept.rss)} MB)`
      )
      figure("5,000 calls: open files", `${fdsBefore} -> ${fdsAfter}`)
      // On a loaded machine (the whole suite in parallel on two cores) a call may run out of its
      // deadline: that answer is a correct one. Anything else, or more than one in a thousand, is a failure.
      figure("5,000 calls: failed answers", failedCodes.length === 0 ? "none" : failedCodes.join(" | "))
      const unexpected = failedCodes.filter((code) => !/"code":"MM_[A-Z_]*TIMEOUT"/.test(code))
      expect(unexpected, unexpected.join("\n")).toEqual([])
      expect(failures).toBeLessThanOrEqual(5)
      // Resident memory kept after a full collection: RSS sampled under load also holds the allocator's
      // arenas of the calls in flight (the figure above), which the heap check below tells from a leak. Alone
      // it keeps ~1 MB; in the whole suite on two cores it kept 65 MB with the heap 2 MB up (arenas, no leak).
      expect(keptAfter.rss - kept.rss).toBeLessThan(100)
      // The step memory of 5,000 calls is a few MB; a leak of a buffer per call is more.
      expect(keptAfter.heap + keptAfter.external - kept.heap - kept.external).toBeLessThan(25)
      expect(fdsAfter - fdsBefore).toBeLessThanOrEqual(2)
    } finally {
      await server.client.close()
    }
  })

  it("a console flood: the server's memory stays bounded during it, and what it keeps after is what it held before", { timeout: 120_000 }, async () => {
    const server = await start(tempDir(), { probe: true })
    const pid = server.transport.pid!
    try {
      expect((await server.call("mm_launch")).ok).toBe(true)
      expect((await server.call("mm_navigate", { screen: "url", url: `${app.url}/page` })).ok).toBe(true)
      const before = rssMbOf(pid)
      const kept = await server.collected()
      let peak = before
      let slowest = 0
      for (const [rate, seconds] of [
        [2_000, 5],
        [50_000, 3]
      ] as const) {
        const opened = await server.call("mm_navigate", { screen: "url", url: `${app.url}/flood?rate=${rate}&seconds=${seconds}` })
        expect(opened.ok ? "ok" : opened.error.message).toBe("ok")
        const until = Date.now() + seconds * 1000 + 500
        while (Date.now() < until) {
          const started = Date.now()
          const state = await server.call("mm_get_state")
          if (!state.ok) figure(`console flood at ${rate}/s: get_state after ${Date.now() - started} ms`, `${state.error.code}: ${state.error.message}`)
          // A page saturated by a 50k/s flood on a loaded machine may answer MM_PAGE_UNRESPONSIVE: an answer all the same.
          expect(state.ok ? "ok" : state.error.code).toMatch(rate > 2_000 ? /^(ok|MM_PAGE_UNRESPONSIVE)$/ : /^ok$/)
          slowest = Math.max(slowest, Date.now() - started)
          peak = Math.max(peak, rssMbOf(pid))
          await sleep(250)
        }
      }
      expect((await server.call("mm_navigate", { screen: "url", url: `${app.url}/page` })).ok).toBe(true)
      expect((await server.call("mm_get_state")).ok).toBe(true)
      await sleep(1_000)
      const after = rssMbOf(pid)
      const keptAfter = await server.collected()
      figure("console flood (2k/s 5 s, 50k/s 3 s): server RSS", `${before} MB, peak ${peak} MB (+${peak - before}), after ${after} MB (+${after - before})`)
      figure("console flood: after a full collection (heap, external)", `${kept.heap} -> ${keptAfter.heap} MB, ${kept.external} -> ${keptAfter.external} MB`)
      figure("console flood: slowest get_state during it", `${slowest} ms`)
      // Bounded while it lasts (the console ring buffer keeps its last entries). RSS after it also holds the
      // allocator's arenas, which a loaded machine keeps longer (+51 MB in the whole suite with the heap back):
      // what the server keeps is what a full collection leaves.
      expect(peak - before).toBeLessThan(100)
      expect(after - before).toBeLessThan(100)
      expect(keptAfter.heap + keptAfter.external - kept.heap - kept.external).toBeLessThan(25)
    } finally {
      await server.client.close()
    }
  })

  // The last two each have their own servers, browsers and artifacts directory, and measure no memory: they run side by side.
  it.concurrent("SIGKILL while steps are being recorded: every step file parses", { timeout: 120_000 }, async () => {
    const artifactsDir = tempDir()
    const server = await start(artifactsDir)
    expect((await server.call("mm_launch")).ok).toBe(true)
    expect((await server.call("mm_navigate", { screen: "url", url: `${app.url}/page` })).ok).toBe(true)
    // Calls in flight all the time; the kill lands while some are being recorded.
    let stop = false
    const load = Array.from({ length: 4 }, async () => {
      while (!stop) await server.call("mm_get_state").catch(() => (stop = true))
    })
    await sleep(3_000)
    process.kill(server.transport.pid!, "SIGKILL")
    stop = true
    await Promise.all(load)
    await server.client.close().catch(() => undefined)
    const { files, broken } = parsesAll(artifactsDir)
    figure("SIGKILL while recording", `${files.length} step files, ${broken.length} that do not parse`)
    expect(files.length).toBeGreaterThan(3)
    expect(broken).toEqual([])
    // The killed server's browser goes with it (Chromium's pipe closes).
    expect(await waitUntil(() => browserPids(server.marker).length === 0, 15_000)).toBe(true)
  })

  it.concurrent("two servers on one artifacts directory: no step lost", { timeout: 180_000 }, async () => {
    const artifactsDir = tempDir()
    const [first, second] = await Promise.all([start(artifactsDir), start(artifactsDir)])
    try {
      const counts = await Promise.all(
        [first, second].map(async (server) => {
          const launched = await server.call("mm_launch")
          expect(launched.ok).toBe(true)
          expect((await server.call("mm_navigate", { screen: "url", url: `${app.url}/page` })).ok).toBe(true)
          let calls = 2
          for (let i = 0; i < 60; i++) {
            await server.call(i % 3 === 0 ? "mm_click" : "mm_get_state", i % 3 === 0 ? { testId: "go" } : {})
            calls++
          }
          expect((await server.call("mm_navigate", { screen: "url", url: `${app.url}/page` })).ok).toBe(true)
          return { sessionId: launched.result.sessionId as string, calls: calls + 1 }
        })
      )
      // Steps are written off the call's path; a knowledge query writes a server's queue first, so every step is on disk after.
      const listed = await Promise.all([first, second].map((server) => server.call("mm_knowledge_sessions")))
      const { files, broken } = parsesAll(artifactsDir)
      // The knowledge query is a step of its own too, written after its answer: only the calls above are counted.
      const toolOf = (file: string) => {
        try {
          return (JSON.parse(fs.readFileSync(file, "utf8")) as { tool?: { name?: string } }).tool?.name
        } catch {
          return undefined // a broken file: the check below names it
        }
      }
      const perSession = (sessionId: string) => files.filter(({ session, file }) => session === sessionId && !/knowledge/.test(toolOf(file) ?? "")).length
      figure("two servers on one artifacts dir", counts.map(({ sessionId, calls }) => `${calls} calls, ${perSession(sessionId)} steps`).join("; "))
      expect(broken).toEqual([])
      for (const { sessionId, calls } of counts) expect(perSession(sessionId)).toBe(calls)
      // Each server's knowledge tools see the other's session too.
      expect(JSON.stringify(listed[0]!.result)).toContain(counts[1]!.sessionId)
    } finally {
      await Promise.all([first.client.close(), second.client.close()])
    }
  })
})
