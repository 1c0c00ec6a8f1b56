// Observation benchmark: our Observer and describe_screen against Playwright's ariaSnapshot on the same
// generated pages (1k, 10k, 100k elements) in one Chromium, plus the browser round trips of a test-id listing.
import * as fs from "node:fs/promises"
import { createRequire } from "node:module"
import * as os from "node:os"
import * as path from "node:path"
import { Cause, Data, Duration, Effect, Exit, Layer } from "effect"
import type { Page } from "playwright"
import { servePages } from "../demo/sample-app.js"
import * as KnowledgeFiles from "../src/adapters/knowledge-files.js"
import * as StderrLogger from "../src/adapters/logger.js"
import * as Browser from "../src/adapters/playwright/lifecycle/browser.js"
import { LOOPBACK_ARGS } from "../src/adapters/playwright/lifecycle/launch.js"
import * as DebuggerSession from "../src/adapters/playwright/devtools/debugger-session.js"
import * as ObserverAdapter from "../src/adapters/playwright/observer/observer.js"
import * as SessionAdapter from "../src/adapters/playwright/session/session.js"
import { defaultSettings, type Settings } from "../src/domain/config.js"
import { OBSERVATION_LIMITS, runTool } from "../src/runtime/runTool.js"
import { Config } from "../src/services/Config.js"
import { KnowledgeStore } from "../src/services/KnowledgeStore.js"
import { Observer } from "../src/services/Observer.js"
import { Session } from "../src/services/Session.js"
import { describeScreen } from "../src/tools/discovery.js"
import { against, compareBuilds } from "./builds.js"
import { generatedPage } from "./generated-page.js"
import * as BuiltinTools from "../src/tools/registry.js"
import type { ToolRegistry } from "../src/runtime/registry.js"

const SIZES = [
  { elements: 1_000, repetitions: 7 },
  { elements: 10_000, repetitions: 7 },
  { elements: 100_000, repetitions: 3 }
] as const

/** describe_screen's own test-id limit (the Observer's default); the listing tool defaults to the same. */
const TEST_ID_LISTING_LIMIT = 150

const TARGETS = { ratioAt10k: 0.5, millisAt100k: 2_000 } as const

class BenchFailed extends Data.TaggedError("BenchFailed")<{ readonly step: string; readonly cause: unknown }> {
  override get message() {
    const cause = this.cause instanceof Error ? this.cause.message : JSON.stringify(this.cause)
    return `${this.step}: ${cause}`
  }
}

const out = (line = "") => Effect.sync(() => process.stdout.write(line + "\n"))
const progress = (line: string) => Effect.sync(() => process.stderr.write(line + "\n"))

// ---------------------------------------------------------------------------------------------------
// The browser: Playwright.layer's own wiring, except that BrowserState stays visible so the baseline can
// run ariaSnapshot on the very page the Observer reads (same browser, same renderer, same layout).

const browserLayer = Layer.merge(SessionAdapter.layer, ObserverAdapter.layer).pipe(
  Layer.provideMerge(Layer.merge(Browser.layer, DebuggerSession.layer))
)

const artifactsDir = Effect.acquireRelease(
  Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "bwm-bench-"))),
  (dir) => Effect.promise(() => fs.rm(dir, { recursive: true, force: true }))
)

const benchLayer = Layer.unwrapScoped(
  Effect.map(artifactsDir, (dir) => {
    const settings: Settings = { ...defaultSettings, artifactsDir: dir, browserArgs: [...LOOPBACK_ARGS] }
    return Layer.mergeAll(browserLayer, KnowledgeFiles.layerFileSystem(dir), BuiltinTools.layer(settings)).pipe(
      Layer.provide(Config.layer(settings)),
      Layer.provideMerge(StderrLogger.layer("warning"))
    )
  })
)

// ---------------------------------------------------------------------------------------------------
// Counting browser round trips. Playwright logs every message it sends through its bundled `debug`
// module: "pw:channel" for client-to-driver calls (one per API call such as page.evaluate) and
// "pw:protocol" for driver-to-Chromium CDP commands. Enabling both namespaces for the duration of one
// call and counting the SEND lines counts the real traffic without touching src/. The bench runs one
// call at a time and the generated pages are static, so nothing else sends in that window.

interface DebugModule {
  enable: (namespaces: string) => void
  disable: () => string
  log: (...args: Array<unknown>) => void
}

// Resolved from the `playwright` package itself: another playwright-core may sit at the top of node_modules
// (a dev dependency's), and its logger would never see our browser's traffic.
const requireFromPlaywright = createRequire(createRequire(import.meta.url).resolve("playwright"))
const playwrightDebug = (requireFromPlaywright("playwright-core/lib/utilsBundle") as { readonly debug: DebugModule }).debug

interface BrowserCalls {
  /** Playwright API calls sent to the driver (method names). */
  readonly playwright: Array<string>
  /** CDP commands sent to Chromium (method names). */
  readonly cdp: Array<string>
}

const countBrowserCalls = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const calls: BrowserCalls = { playwright: [], cdp: [] }
      const previousLog = playwrightDebug.log
      const previousNamespaces = playwrightDebug.disable()
      playwrightDebug.log = (...args) => {
        const line = args.map(String).join(" ")
        const method = /"method":"([^"]+)"/.exec(line)?.[1] ?? "?"
        if (line.includes("SEND> ")) calls.playwright.push(method)
        else if (line.includes("SEND \u25BA ")) calls.cdp.push(method)
      }
      playwrightDebug.enable("pw:channel,pw:protocol")
      const restore = () => {
        playwrightDebug.disable()
        if (previousNamespaces !== "") playwrightDebug.enable(previousNamespaces)
        playwrightDebug.log = previousLog
      }
      return { calls, restore }
    }),
    ({ calls }) => Effect.as(effect, calls),
    ({ restore }) => Effect.sync(restore)
  )

// ---------------------------------------------------------------------------------------------------
// What is measured. Each measure returns how many nodes it handed back.

interface Returned {
  readonly nodes: number
  readonly detail: string
}

interface Measure {
  readonly name: string
  /** Untimed work before each call. */
  readonly prepare?: (page: Page) => Effect.Effect<void, BenchFailed>
  readonly run: (page: Page) => Effect.Effect<Returned, BenchFailed, Observer | Session | KnowledgeStore | ToolRegistry>
}

const ariaEntries = (snapshot: string) => snapshot.split("\n").filter((line) => /^\s*- /.test(line)).length

const ariaSnapshot = (mode: "default" | "ai"): Measure => ({
  name: mode === "ai" ? 'ariaSnapshot({mode:"ai"})' : "ariaSnapshot() [baseline]",
  run: (page) =>
    Effect.tryPromise({
      try: (signal) => page.locator("body").ariaSnapshot({ mode, signal, timeout: 600_000 }),
      catch: (cause) => new BenchFailed({ step: `ariaSnapshot ${mode}`, cause })
    }).pipe(Effect.map((snapshot) => ({ nodes: ariaEntries(snapshot), detail: `${(snapshot.length / 1024).toFixed(0)} KiB yaml` })))
})

const observed = (a11y: number, testIds: number, truncated: boolean): Returned => ({
  nodes: a11y + testIds,
  detail: `${a11y} a11y + ${testIds} ids${truncated ? ", capped" : ""}`
})

const observeMeasure = (name: string, options: { readonly testIdLimit?: number; readonly a11yLimit?: number }): Measure => ({
  name,
  run: () =>
    Effect.flatMap(Observer, (observer) => observer.observe({ testIds: true, a11y: true, ...options })).pipe(
      Effect.mapError((cause) => new BenchFailed({ step: name, cause })),
      Effect.map((observation) =>
        observed(observation.a11y?.nodes.length ?? 0, observation.testIds?.length ?? 0, observation.a11y?.truncated ?? false)
      )
    )
})

const describeScreenTool: Measure = {
  name: "describe_screen via runTool",
  run: () =>
    Effect.gen(function* () {
      const { envelope } = yield* runTool(describeScreen)({})
      if (!envelope.ok || envelope.result === undefined) {
        return yield* new BenchFailed({ step: "describe_screen", cause: envelope.error })
      }
      const { testIds, truncated } = envelope.result
      // The page text travels as the envelope's snapshot (the text block after the JSON).
      return observed((envelope.snapshot ?? "").split("\n").length, testIds?.items.length ?? 0, truncated ?? false)
    })
}

const testIdListing: Measure = {
  name: `Observer.testIds(${TEST_ID_LISTING_LIMIT})`,
  run: () =>
    Effect.flatMap(Observer, (observer) => observer.testIds(TEST_ID_LISTING_LIMIT)).pipe(
      Effect.mapError((cause) => new BenchFailed({ step: "testIds", cause })),
      Effect.map((items) => ({ nodes: items.length, detail: `${items.length} ids` }))
    )
}

const BASELINE = ariaSnapshot("default")
const AI_MODE = ariaSnapshot("ai")
const BASELINES: ReadonlySet<Measure> = new Set([BASELINE, AI_MODE])
const OBSERVE_FULL = observeMeasure("observe full (describe_screen)", {})
const OBSERVE_STEP = observeMeasure(
  `observe per step (${OBSERVATION_LIMITS.testIds}/${OBSERVATION_LIMITS.a11yNodes})`,
  { testIdLimit: OBSERVATION_LIMITS.testIds, a11yLimit: OBSERVATION_LIMITS.a11yNodes }
)

/**
 * Run in this order every repetition, ours and the baseline alternating. Ours goes first so that the
 * warm-up round's first call after navigation is a cold observation (PageResult.firstCalls).
 */
const MEASURES: ReadonlyArray<Measure> = [OBSERVE_FULL, BASELINE, OBSERVE_STEP, AI_MODE, describeScreenTool, testIdListing]

/** Round trips are counted for these, once per page size. */
const COUNTED: ReadonlyArray<Measure> = [testIdListing, OBSERVE_FULL, describeScreenTool]

/** The baseline's round trips, for comparison, on the pages where one more call costs little. */
const BASELINE_COUNTED_UP_TO = 10_000

/**
 * Chromium caches what `input.labels` finds until the DOM changes; computing it again scans the whole
 * document per field. The warm rows never change the DOM, so this measure adds one untimed child-list
 * change before each call: the case of an agent's step, which nearly always changes the page.
 */
const AFTER_DOM_CHANGE: Measure = {
  name: "describe_screen after a DOM change",
  prepare: (page) =>
    Effect.tryPromise({
      try: () =>
        page.evaluate(() => {
          const marker = document.createElement("span")
          document.body.append(marker)
          marker.remove()
        }),
      catch: (cause) => new BenchFailed({ step: "DOM change", cause })
    }),
  run: describeScreenTool.run
}

// ---------------------------------------------------------------------------------------------------
// Statistics and the table.

const percentile = (samples: ReadonlyArray<number>, fraction: number) => {
  const sorted = [...samples].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))] ?? Number.NaN
}

interface Row {
  /** The page's nominal size, and the elements its <body> really holds. */
  readonly size: number
  readonly elements: number
  readonly measure: string
  readonly median: number
  readonly p95: number
  readonly ratio: number
  readonly returned: Returned
}

const COLUMNS = [
  { title: "elements", width: 9 },
  { title: "measure", width: 34 },
  { title: "median ms", width: 10 },
  { title: "p95 ms", width: 10 },
  { title: "ours/aria", width: 10 },
  { title: "nodes returned", width: 0 }
] as const

const formatRow = (cells: ReadonlyArray<string>) =>
  cells
    .map((cell, index) => {
      const width = COLUMNS[index]?.width ?? 0
      return index === 1 || index === cells.length - 1 ? cell.padEnd(width) : cell.padStart(width)
    })
    .join("  ")
    .trimEnd()

const formatMs = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms.toFixed(1))

// ---------------------------------------------------------------------------------------------------

interface RoundTrips {
  readonly elements: number
  readonly measure: string
  readonly calls: BrowserCalls
}

const countRoundTrips = (page: Page, size: number, elements: number) =>
  Effect.forEach(size <= BASELINE_COUNTED_UP_TO ? [...COUNTED, BASELINE] : COUNTED, (measure) =>
    Effect.map(countBrowserCalls(measure.run(page)), (calls): RoundTrips => ({ elements, measure: measure.name, calls }))
  )

/** One call of a measure: its untimed preparation, then the timed call. */
const sample = (measure: Measure, page: Page, collectGarbage: Effect.Effect<unknown, BenchFailed>) =>
  Effect.gen(function* () {
    if (measure.prepare) yield* measure.prepare(page)
    if (!BASELINES.has(measure)) yield* collectGarbage
    const [elapsed, returned] = yield* Effect.timed(measure.run(page))
    return { ms: Duration.toMillis(elapsed), returned }
  })

interface PageResult {
  readonly rows: ReadonlyArray<Row>
  readonly roundTrips: ReadonlyArray<RoundTrips>
  /** The warm-up round: each measure's first call on the freshly loaded page. */
  readonly firstCalls: ReadonlyArray<{ readonly measure: string; readonly ms: number }>
}

/**
 * A full garbage collection in the page, untimed, before each of our calls: measures alternate, and
 * without it ours would pay for the megabytes a 100k-element ariaSnapshot leaves behind. The baseline
 * pays for its own garbage only (ours leaves little), as it would in real use. A forced collection
 * does not empty Chromium's DOM caches (checked: `labels` stays warm across one).
 */
const garbageCollector = (page: Page) =>
  Effect.map(
    Effect.acquireRelease(
      Effect.tryPromise({
        try: () => page.context().newCDPSession(page),
        catch: (cause) => new BenchFailed({ step: "CDP session", cause })
      }),
      (cdp) => Effect.promise(() => cdp.detach().catch(() => undefined))
    ),
    (cdp) =>
      Effect.tryPromise({
        try: () => cdp.send("HeapProfiler.collectGarbage"),
        catch: (cause) => new BenchFailed({ step: "garbage collection", cause })
      })
  )

const measurePage = (page: Page, size: number, elements: number, repetitions: number) =>
  Effect.gen(function* () {
    const collectGarbage = yield* garbageCollector(page)
    const samples = new Map<Measure, Array<number>>()
    const returned = new Map<Measure, Returned>()
    const firstCalls: Array<{ readonly measure: string; readonly ms: number }> = []
    const record = (measure: Measure, result: { readonly ms: number; readonly returned: Returned }) => {
      samples.set(measure, [...(samples.get(measure) ?? []), result.ms])
      returned.set(measure, result.returned)
    }
    // Round 0 warms up (layout, Chromium's caches, Playwright's injected script, the JIT) and is not recorded.
    for (let round = 0; round <= repetitions; round++) {
      for (const measure of MEASURES) {
        const result = yield* sample(measure, page, collectGarbage)
        if (round === 0) firstCalls.push({ measure: measure.name, ms: result.ms })
        else record(measure, result)
      }
    }
    const roundTrips = yield* countRoundTrips(page, size, elements)
    // Last, because it leaves Chromium's caches cold for whatever runs next.
    for (let round = 0; round < repetitions; round++) record(AFTER_DOM_CHANGE, yield* sample(AFTER_DOM_CHANGE, page, collectGarbage))

    const baselineMedian = percentile(samples.get(BASELINE) ?? [], 0.5)
    const rows = [...MEASURES, AFTER_DOM_CHANGE].map((measure): Row => {
      const times = samples.get(measure) ?? []
      const median = percentile(times, 0.5)
      return {
        size,
        elements,
        measure: measure.name,
        median,
        p95: percentile(times, 0.95),
        ratio: median / baselineMedian,
        returned: returned.get(measure) ?? { nodes: 0, detail: "" }
      }
    })
    const result: PageResult = { rows, roundTrips, firstCalls }
    return result
  }).pipe(Effect.scoped)

interface Results {
  readonly rows: ReadonlyArray<Row>
  readonly firstCalls: ReadonlyArray<{ readonly elements: number; readonly calls: PageResult["firstCalls"] }>
  readonly roundTrips: ReadonlyArray<RoundTrips>
}

const runAll = Effect.gen(function* () {
  const pages = Object.fromEntries(SIZES.map(({ elements }) => [`/${elements}`, generatedPage(elements)]))
  const server = yield* Effect.acquireRelease(
    Effect.promise(() => servePages(pages)),
    (running) => Effect.promise(() => running.close())
  )
  const session = yield* Session
  const browser = yield* Browser.BrowserState
  yield* session
    .launch({ flowTags: [], tags: [], stateMode: "onboarding", slowMo: 0, force: false })
    .pipe(Effect.mapError((cause) => new BenchFailed({ step: "launch", cause })))

  const rows: Array<Row> = []
  const firstCalls: Array<Results["firstCalls"][number]> = []
  const roundTrips: Array<RoundTrips> = []
  for (const { elements, repetitions } of SIZES) {
    yield* session
      .navigate({ screen: "url", url: `${server.url}/${elements}` }, { timeoutMs: 60_000 })
      .pipe(Effect.mapError((cause) => new BenchFailed({ step: `navigate to the ${elements}-element page`, cause })))
    const { page } = yield* browser.activePage.pipe(Effect.mapError((cause) => new BenchFailed({ step: "active page", cause })))
    const counted = yield* Effect.tryPromise({
      try: () => page.evaluate(() => document.body.querySelectorAll("*").length),
      catch: (cause) => new BenchFailed({ step: "count elements", cause })
    })
    yield* progress(`measuring the ${counted.toLocaleString("en-US")}-element page...`)
    const measured = yield* measurePage(page, elements, counted, repetitions)
    rows.push(...measured.rows)
    firstCalls.push({ elements: counted, calls: measured.firstCalls })
    roundTrips.push(...measured.roundTrips)
  }
  const results: Results = { rows, firstCalls, roundTrips }
  return results
})

const printTable = (rows: ReadonlyArray<Row>) =>
  Effect.gen(function* () {
    yield* out(formatRow(COLUMNS.map((column) => column.title)))
    yield* out("-".repeat(110))
    for (const [index, row] of rows.entries()) {
      if (index > 0 && rows[index - 1]?.size !== row.size) yield* out()
      yield* out(
        formatRow([
          row.elements.toLocaleString("en-US"),
          row.measure,
          formatMs(row.median),
          formatMs(row.p95),
          `${row.ratio.toFixed(2)}x`,
          `${row.returned.nodes.toLocaleString("en-US")} (${row.returned.detail})`
        ])
      )
    }
    yield* out()
    yield* out("ours/aria: median over the ariaSnapshot() median of the same page (the warm one, also for the row after a DOM change).")
  })

/** The targets: reported, never asserted. */
const printTargets = ({ rows, roundTrips }: Results) =>
  Effect.gen(function* () {
    const rowOf = (size: number, measure: Measure) => rows.find((row) => row.size === size && row.measure === measure.name)
    const ours = [OBSERVE_FULL, OBSERVE_STEP, describeScreenTool, AFTER_DOM_CHANGE]
    const verdict = (met: boolean) => (met ? "MET" : "MISSED")
    yield* out("Targets (measured, not asserted):")
    for (const measure of ours) {
      const row = rowOf(10_000, measure)
      const aiRow = rowOf(10_000, AI_MODE)
      if (row === undefined) continue
      const vsAi = aiRow === undefined ? "" : `; ${(row.median / aiRow.median).toFixed(2)}x of ariaSnapshot ai mode`
      yield* out(
        `  10k elements, ${measure.name}: ${row.ratio.toFixed(2)}x of ariaSnapshot() (target <= ${TARGETS.ratioAt10k}x${vsAi}) ${verdict(row.ratio <= TARGETS.ratioAt10k)}`
      )
    }
    for (const measure of ours) {
      const row = rowOf(100_000, measure)
      if (row === undefined) continue
      yield* out(
        `  100k elements, ${measure.name}: median ${formatMs(row.median)} ms, p95 ${formatMs(row.p95)} ms (target < ${TARGETS.millisAt100k} ms) ${verdict(row.median < TARGETS.millisAt100k)}`
      )
    }
    const listings = roundTrips.filter((entry) => entry.measure === testIdListing.name)
    const oneTrip = listings.every(({ calls }) => calls.playwright.length === 1 && calls.cdp.length === 1)
    // No traffic at all means the counter listened to the wrong logger, not that the listing is free.
    const counted = listings.some(({ calls }) => calls.playwright.length > 0)
    yield* out(
      `  test-id listing is one round trip whatever the page size: ${listings
        .map(({ elements, calls }) => `${elements.toLocaleString("en-US")}: ${calls.playwright.length} call / ${calls.cdp.length} CDP`)
        .join(", ")} ${counted ? verdict(oneTrip) : "UNKNOWN (no protocol traffic seen: the counter is not wired to Playwright's logger)"}`
    )
  })

const program = Effect.gen(function* () {
  yield* out("Observation benchmark: one headless Chromium with the loopback flags; pages served on 127.0.0.1.")
  yield* out(
    `Repetitions after one warm-up: ${SIZES.map(({ elements, repetitions }) => `${repetitions} at ${elements / 1000}k`).join(", ")}; ` +
      "ours and the baseline alternate on the same page;"
  )
  yield* out("a forced garbage collection (untimed) before each of ours. p95 is nearest-rank: with 3 or 7 samples, the slowest run.")
  const results = yield* runAll
  yield* out()
  yield* printTable(results.rows)

  yield* out()
  yield* out("First call after navigation (the warm-up round, not in the table; ours runs first, on a cold page):")
  for (const { elements, calls } of results.firstCalls) {
    yield* out(`  ${elements.toLocaleString("en-US").padStart(7)}  ${calls.map(({ measure, ms }) => `${measure} ${formatMs(ms)} ms`).join("; ")}`)
  }

  yield* out()
  yield* out("Browser round trips per call (Playwright API calls sent to the driver / CDP commands sent to Chromium):")
  for (const { elements, measure, calls } of results.roundTrips) {
    yield* out(
      `  ${elements.toLocaleString("en-US").padStart(7)}  ${measure.padEnd(34)} ${String(calls.playwright.length).padStart(2)} / ${String(calls.cdp.length).padStart(2)}` +
        `   [${calls.playwright.join(", ")}] / [${calls.cdp.join(", ")}]`
    )
  }

  yield* out()
  yield* printTargets(results)
})

// BENCH_AGAINST=<another checkout, built>: describe_screen at 10k and 100k on both builds instead (bench/builds.ts).
const other = against()
if (other !== undefined) await compareBuilds(other, "observe")
else {
  const exit = await Effect.runPromiseExit(program.pipe(Effect.scoped, Effect.provide(benchLayer)))
  if (Exit.isFailure(exit)) {
    process.stderr.write(`observation benchmark failed:\n${Cause.pretty(exit.cause)}\n`)
    process.exitCode = 1
  }
}
