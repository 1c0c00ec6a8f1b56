// Flood benchmark: the built server over stdio while a page floods the console (2k and 50k messages/s
// for 10 s) or runs an alert loop. Prints the server's resident memory before, at the peak, and after
// each flood, and how long calls took during it; then the same floods on the library in this process,
// with its heap after a full GC (run with node --expose-gc). Figures go in docs/architecture.md.
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { Effect, Layer } from "effect"
import { servePages, type RunningServer } from "../demo/sample-app.js"
import * as KnowledgeFiles from "../src/adapters/knowledge-files.js"
import * as Playwright from "../src/adapters/playwright/index.js"
import { LOOPBACK_ARGS } from "../src/adapters/playwright/lifecycle/launch.js"
import { defaultSettings } from "../src/domain/config.js"
import { runTool } from "../src/runtime/runTool.js"
import { Config } from "../src/services/Config.js"
import { getState } from "../src/tools/discovery.js"
import { navigate } from "../src/tools/navigation.js"
import { launch } from "../src/tools/session.js"
import { ourServerUnbundled as ourServer, out, spawnClient } from "./support.js"

const FLOOD_SECONDS = Number(process.env.BENCH_FLOOD_SECONDS ?? 10)
const RATES = (process.env.BENCH_FLOOD_RATES ?? "2000,2000,2000,50000").split(",").map(Number)

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Resident set size of a process in MB (Linux). */
const rssMb = (pid: number): number => {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8")
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
  return Math.round(kb / 1024)
}

// Each tick logs its share of the rate; a message carries a string, a number and an object, as real logs do.
const floodPage = `<!doctype html><html><head><meta charset="utf-8"><title>Flood</title></head><body>
<p id="status">flooding</p>
<script>
  const params = new URLSearchParams(location.search)
  const rate = Number(params.get("rate") ?? 2000)
  const seconds = Number(params.get("seconds") ?? 10)
  const started = performance.now()
  let sent = 0
  const timer = setInterval(() => {
    const elapsed = (performance.now() - started) / 1000
    if (elapsed >= seconds) { clearInterval(timer); document.getElementById("status").textContent = "done " + sent; return }
    const due = Math.floor(elapsed * rate) - sent
    for (let i = 0; i < due; i++) { sent++; console.log("flood message", sent, { sent, at: elapsed }) }
  }, 10)
</script></body></html>`

const alertPage = `<!doctype html><html><head><meta charset="utf-8"><title>Alerts</title></head><body>
<button id="b">Button</button><script>setInterval(() => alert(1), 0)</script></body></html>`

const quietPage = `<!doctype html><html><head><meta charset="utf-8"><title>Quiet</title></head><body><p>quiet</p></body></html>`

/** The same floods on the library in this process: its heap after a full GC, before and after each. */
const inProcess = async (app: RunningServer, scratch: string) => {
  const gc = (globalThis as { gc?: () => void }).gc
  if (gc === undefined) {
    out("(run with node --expose-gc for the heap figures of the library in this process)")
    return
  }
  const heapMb = () => {
    gc()
    gc()
    return Math.round(process.memoryUsage().heapUsed / 1e5) / 10
  }
  const settings = { ...defaultSettings, artifactsDir: path.join(scratch, "in-process"), browserArgs: [...LOOPBACK_ARGS] }
  const layer = Layer.mergeAll(Playwright.layer, KnowledgeFiles.layerFileSystem(settings.artifactsDir)).pipe(
    Layer.provide(Config.layer(settings))
  )
  const program = Effect.gen(function* () {
    yield* runTool(launch)({})
    yield* runTool(navigate)({ screen: "url", url: `${app.url}/quiet` })
    const start = heapMb()
    out()
    out("| flood (library in this process) | messages/s | heap after GC before | after | kept |")
    out("| --- | --- | --- | --- | --- |")
    for (const [index, rate] of RATES.entries()) {
      const before = heapMb()
      yield* runTool(navigate)({ screen: "url", url: `${app.url}/flood?rate=${rate}&seconds=${FLOOD_SECONDS}` })
      yield* Effect.sleep(`${FLOOD_SECONDS + 1} seconds`)
      yield* runTool(navigate)({ screen: "url", url: `${app.url}/quiet` })
      yield* Effect.sleep("3 seconds")
      yield* runTool(getState)({})
      const after = heapMb()
      out(`| ${index + 1} | ${rate} | ${before} MB | ${after} MB | ${Math.round((after - start) * 10) / 10} MB |`)
    }
  })
  await Effect.runPromise(Effect.scoped(program.pipe(Effect.provide(layer))))
}

const main = async () => {
  const app = await servePages({ "/flood": floodPage, "/alerts": alertPage, "/quiet": quietPage })
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "bwm-bench-flood-"))
  const { client, transport } = await spawnClient([ourServer, "--artifacts-dir", scratch, "--loopback-only", "--log-level", "error"], {
    name: "bench-flood",
    stderr: "inherit"
  })
  const pid = transport.pid
  if (pid === null) throw new Error("no server pid")

  const timed = async (name: string, args: Record<string, unknown>) => {
    const t0 = performance.now()
    const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })
    const envelope = JSON.parse((result.content as Array<{ text: string }>)[0]!.text)
    return { ms: Math.round(performance.now() - t0), envelope, bytes: Buffer.byteLength((result.content as Array<{ text: string }>)[0]!.text) }
  }

  await timed("mm_launch", {})
  await timed("mm_navigate", { screen: "url", url: `${app.url}/quiet` })
  await sleep(2000)
  const start = rssMb(pid)
  out(`server RSS after launch: ${start} MB`)
  out()
  out("| flood | messages/s | RSS before | peak | after 10 s idle | growth kept | slowest call during flood | first call after |")
  out("| --- | --- | --- | --- | --- | --- | --- | --- |")

  for (const [index, rate] of RATES.entries()) {
    const before = rssMb(pid)
    let peak = before
    await timed("mm_navigate", { screen: "url", url: `${app.url}/flood?rate=${rate}&seconds=${FLOOD_SECONDS}` })
    const floodEnds = Date.now() + FLOOD_SECONDS * 1000
    let slowest = 0
    while (Date.now() < floodEnds) {
      const call = await timed("mm_get_state", {})
      slowest = Math.max(slowest, call.ms)
      peak = Math.max(peak, rssMb(pid))
      await sleep(500)
    }
    const first = await timed("mm_navigate", { screen: "url", url: `${app.url}/quiet` })
    for (let i = 0; i < 20; i++) {
      peak = Math.max(peak, rssMb(pid))
      await sleep(500)
    }
    const after = rssMb(pid)
    out(`| ${index + 1} | ${rate} | ${before} MB | ${peak} MB | ${after} MB | ${after - start} MB | ${slowest} ms | ${first.ms} ms |`)
  }

  // The alert loop: calls keep answering and the notices stay bounded.
  out()
  out("| alert loop | ms | response bytes | notices |")
  out("| --- | --- | --- | --- |")
  const opened = await timed("mm_navigate", { screen: "url", url: `${app.url}/alerts`, timeoutMs: 5000 })
  out(`| mm_navigate to the loop | ${opened.ms} | ${opened.bytes} | ${JSON.stringify(opened.envelope.notices ?? []).slice(0, 120)} |`)
  await sleep(10_000)
  const state = await timed("mm_get_state", {})
  out(`| mm_get_state after 10 s | ${state.ms} | ${state.bytes} | ${JSON.stringify(state.envelope.notices ?? []).slice(0, 120)} |`)
  const away = await timed("mm_navigate", { screen: "url", url: `${app.url}/quiet`, timeoutMs: 5000 })
  out(`| mm_navigate away | ${away.ms} | ${away.bytes} | ${away.envelope.ok ? "ok" : away.envelope.error.code} |`)
  out(`server RSS at the end: ${rssMb(pid)} MB`)

  await timed("mm_cleanup", {})
  await client.close()
  await inProcess(app, scratch)
  await app.close()
  fs.rmSync(scratch, { recursive: true, force: true })
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  process.exit(1)
})
