// The same actions through both action paths must do the same thing: on each page of the corpus
// (corpus.ts), click, type, press_key and wait_for run once with `--action-path auto` (the direct path, handing
// over to Playwright when unsure) and once with `--action-path playwright`, each in its own browser,
// and the page's record of trusted events, field values and URLs, in every frame of either origin,
// must be equal, as must every step's outcome (ok or the same error code). The steps a case marks
// `direct` must have taken the direct path, so that the comparison is not Playwright against itself.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import type { Page } from "playwright"
import { servePages, type RunningServer } from "../../demo/sample-app.js"
import * as Browser from "../../src/adapters/playwright/lifecycle/browser.js"
import type { Settings } from "../../src/domain/config.js"
import type { Envelope } from "../../src/domain/envelope.js"
import { runTool } from "../../src/runtime/runTool.js"
import type { AnyToolDefinition } from "../../src/runtime/tool.js"
import { Observer } from "../../src/services/Observer.js"
import { click, pressKey, type, waitFor } from "../../src/tools/interaction.js"
import { navigate } from "../../src/tools/navigation.js"
import { launch } from "../../src/tools/session.js"
import { testSettings } from "../support/browser.js"
import { cases, otherPages, pagesFor, type Aim, type Case, type Step } from "./corpus.js"
import { liveSessionLayer } from "../support/live-session.js"

/** Both origins resolve to this machine; `localhost` is another site, so its frames run in a process of their own. */
const BOTH_ORIGINS = "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1, EXCLUDE localhost"

interface Path {
  readonly runtime: ManagedRuntime.ManagedRuntime<any, any>
  /** Debug log lines of this path's session: a hand-over to Playwright says "takes over". */
  readonly logs: Array<string>
}

const openPath = (actionPath: Settings["actionPath"]): Path => {
  const logs: Array<string> = []
  const settings = testSettings({ actionPath, browserArgs: [BOTH_ORIGINS] })
  const capture = Logger.make(({ message }) => {
    logs.push((Array.isArray(message) ? message : [message]).map(String).join(" "))
  })
  const layer = liveSessionLayer(settings).pipe(
    Layer.provideMerge(Layer.merge(Logger.replace(Logger.defaultLogger, capture), Logger.minimumLogLevel(LogLevel.Debug)))
  )
  return { runtime: ManagedRuntime.make(layer), logs }
}

const call = (tool: AnyToolDefinition, args: Record<string, unknown>) =>
  Effect.map(runTool(tool)(args, { policy: "none" }), (response) => response.envelope as Envelope<any>)

/** A ref is looked up in a fresh snapshot by role and name (or text), as an agent reads it. */
const targetArgs = (aim: Aim) =>
  Effect.gen(function* () {
    if ("testId" in aim) return { testId: aim.testId }
    if ("selector" in aim) return { selector: aim.selector }
    const { nodes } = yield* (yield* Observer).accessibility({})
    const node = nodes.find((candidate) => candidate.role === aim.ref.role && (candidate.name === aim.ref.name || candidate.text === aim.ref.name))
    if (node === undefined) return yield* Effect.die(new Error(`no ${aim.ref.role} "${aim.ref.name}" in the snapshot`))
    return { a11yRef: node.ref }
  })

const argsOf = (step: Step) =>
  Effect.gen(function* () {
    const target = yield* targetArgs(step.target)
    const timeout = step.timeoutMs === undefined ? {} : { timeoutMs: step.timeoutMs }
    switch (step.tool) {
      case "click":
        return { tool: click, args: { ...target, ...timeout, ...(step.within ? { within: yield* targetArgs(step.within) } : {}) } }
      case "type":
        return { tool: type, args: { ...target, ...timeout, text: step.text } }
      case "wait_for":
        return { tool: waitFor, args: { ...target, ...timeout, state: step.state ?? "visible" } }
      case "press_key":
        return { tool: pressKey, args: { ...target, ...timeout, key: step.key } }
    }
  })

/** What every frame of the page recorded, by frame URL, in frame order. */
const effectsOf = async (page: Page) => {
  const frames = []
  for (const frame of page.frames()) {
    const recorded = await frame.evaluate("window.__effects ? window.__effects() : null").catch(() => "unreadable")
    frames.push({ frame: new URL(frame.url()).pathname, recorded })
  }
  return frames
}

interface Run {
  readonly outcomes: ReadonlyArray<string>
  readonly effects: unknown
  /** Indexes of the steps that went to Playwright's path. */
  readonly handedOver: ReadonlyArray<number>
}

const runCase = (path: Path, url: string, testCase: Case): Promise<Run> =>
  path.runtime.runPromise(
    Effect.gen(function* () {
      const opened = yield* call(navigate, { screen: "url", url })
      if (!opened.ok) return yield* Effect.die(new Error(`could not open ${url}: ${JSON.stringify(opened.error)}`))
      const outcomes: Array<string> = []
      const handedOver: Array<number> = []
      for (const [index, step] of testCase.steps.entries()) {
        const { tool, args } = yield* argsOf(step)
        const before = path.logs.length
        const envelope = yield* call(tool, args)
        outcomes.push(envelope.ok ? "ok" : envelope.error!.code)
        if (path.logs.slice(before).some((line) => line.includes("takes over"))) handedOver.push(index)
      }
      const { page } = yield* (yield* Browser.BrowserState).activePage
      return { outcomes, effects: yield* Effect.promise(() => effectsOf(page)), handedOver }
    })
  )

describe("both action paths do the same on the corpus", () => {
  let first: RunningServer
  let second: RunningServer
  let auto: Path
  let playwright: Path

  beforeAll(async () => {
    second = await servePages(otherPages)
    first = await servePages(pagesFor(second.url.replace("127.0.0.1", "localhost"), second.url))
    auto = openPath("auto")
    playwright = openPath("playwright")
    for (const path of [auto, playwright]) {
      const launched = await path.runtime.runPromise(call(launch, {}))
      expect(launched.ok).toBe(true)
    }
  }, 60_000)

  afterAll(async () => {
    await Promise.all([auto?.runtime.dispose(), playwright?.runtime.dispose()])
    await Promise.all([first?.close(), second?.close()])
  })

  it("holds at least 40 pages", () => {
    expect(new Set(cases.map((testCase) => testCase.path)).size).toBeGreaterThanOrEqual(40)
  })

  const compare = (testCase: Case) => async () => {
    const url = `${first.url}${testCase.path}`
    // Each path has its own browser and log: both run the case at the same time, unless a step has a deadline of its
    // own (a short one that the case waits out or races), which a busier machine could shift on one path only.
    const timed = testCase.steps.some((step) => step.timeoutMs !== undefined)
    const [direct, reference] = timed
      ? [await runCase(auto, url, testCase), await runCase(playwright, url, testCase)]
      : await Promise.all([runCase(auto, url, testCase), runCase(playwright, url, testCase)])
    expect({ outcomes: direct.outcomes, effects: direct.effects }).toEqual({ outcomes: reference.outcomes, effects: reference.effects })
    expect(reference.handedOver).toEqual(testCase.steps.map((_, index) => index))
    for (const index of testCase.direct ?? []) expect(direct.handedOver, `step ${index} took the direct path`).not.toContain(index)
    for (const index of testCase.handsOver ?? []) expect(direct.handedOver, `step ${index} went to Playwright`).toContain(index)
  }

  for (const testCase of cases) it(testCase.name, compare(testCase), 30_000)

  describe("at device scale factor 2", () => {
    beforeAll(async () => {
      for (const path of [auto, playwright]) {
        await path.runtime.runPromise(
          Effect.gen(function* () {
            const { page } = yield* (yield* Browser.BrowserState).activePage
            yield* Effect.promise(async () => {
              const devtools = await page.context().newCDPSession(page)
              await devtools.send("Emulation.setDeviceMetricsOverride", { width: 1280, height: 800, deviceScaleFactor: 2, mobile: false })
              expect(await page.evaluate("devicePixelRatio")).toBe(2)
            })
          })
        )
      }
    })

    for (const testCase of cases.filter((candidate) => HIGH_DPI.has(candidate.path))) it(testCase.name, compare(testCase), 30_000)
  })
})

/** The pages whose points are most sensitive to rounding, again on a high-DPI screen. */
const HIGH_DPI = new Set([
  "/plain",
  "/scaled",
  "/rotated",
  "/perspective",
  "/zoomed",
  "/scaled-frame",
  "/nested-frames",
  "/third-at-summed-point",
  "/same-site-at-summed-point",
  "/labels",
  "/icon-link",
  "/inline-wrap",
  "/sticky"
])
