// get_text and wait_for read through our own page script (session/direct-reads.ts): each step here runs
// once with `--action-path auto` and once with `--action-path playwright` (Playwright's locators), each in
// its own browser, and both must answer the same (ok with the same text, or the same error code). On the
// direct path Playwright's injected script (some 350 KB) is never compiled in the page: a DevTools session
// of the test's own counts the scripts the page parses, and Playwright's path, which does inject it, is
// the control that the count sees it.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import { servePages, type RunningServer } from "../../demo/sample-app.js"
import * as KnowledgeFiles from "../../src/adapters/knowledge-files.js"
import * as Browser from "../../src/adapters/playwright/lifecycle/browser.js"
import * as DebuggerSession from "../../src/adapters/playwright/devtools/debugger-session.js"
import * as ObserverAdapter from "../../src/adapters/playwright/observer/observer.js"
import * as SessionAdapter from "../../src/adapters/playwright/session/session.js"
import type { Settings } from "../../src/domain/config.js"
import type { Envelope } from "../../src/domain/envelope.js"
import { runTool } from "../../src/runtime/runTool.js"
import type { AnyToolDefinition } from "../../src/runtime/tool.js"
import { Config } from "../../src/services/Config.js"
import { getText, waitFor } from "../../src/tools/interaction.js"
import { navigate } from "../../src/tools/navigation.js"
import { launch } from "../../src/tools/session.js"
import { html, testSettings } from "../support/browser.js"

/** A script this large is Playwright's injected script (ours are some 45 KB at most). */
const PLAYWRIGHT_SCRIPT_CHARS = 200_000

const page = html(
  "Reads",
  `<h2 data-testid="welcome">Welcome, ada</h2>
   <p data-testid="twice">one</p><p data-testid="twice">two</p>
   <p data-testid="shy" style="display:none">not shown</p>
   <label>Name <input data-testid="name" value="Ada"></label>
   <p data-testid="split"><span style="display:none">gone</span><span>kept</span></p>
   <div id="box"></div>
   <script>
     setTimeout(() => {
       const late = document.createElement("p")
       late.dataset.testid = "late"
       late.textContent = "Arrived"
       document.getElementById("box").append(late)
     }, 400)
   </script>`
)

type Step = { readonly tool: "get_text" | "wait_for"; readonly args: Record<string, unknown> }

const STEPS: ReadonlyArray<Step> = [
  { tool: "get_text", args: { testId: "late" } },
  { tool: "get_text", args: { testId: "welcome" } },
  { tool: "get_text", args: { testId: "twice" } },
  { tool: "get_text", args: { testId: "shy" } },
  { tool: "get_text", args: { testId: "name" } },
  { tool: "get_text", args: { testId: "split" } },
  { tool: "get_text", args: { selector: "#box p" } },
  { tool: "get_text", args: { testId: "late", within: { selector: "#box" } } },
  { tool: "get_text", args: { testId: "nowhere", timeoutMs: 4_000 } },
  { tool: "wait_for", args: { testId: "twice", state: "visible" } },
  { tool: "wait_for", args: { testId: "shy", state: "hidden" } },
  { tool: "wait_for", args: { testId: "nowhere", state: "hidden" } },
  { tool: "wait_for", args: { testId: "shy", state: "visible", timeoutMs: 800 } },
  { tool: "wait_for", args: { testId: "welcome", state: "hidden", timeoutMs: 800 } }
]

interface Path {
  readonly runtime: ManagedRuntime.ManagedRuntime<any, any>
  readonly logs: Array<string>
}

const openPath = (actionPath: Settings["actionPath"]): Path => {
  const logs: Array<string> = []
  const settings = testSettings({ actionPath })
  const capture = Logger.make(({ message }) => void logs.push((Array.isArray(message) ? message : [message]).map(String).join(" ")))
  const layer = Layer.mergeAll(
    Layer.merge(SessionAdapter.layer, ObserverAdapter.layer).pipe(Layer.provide(DebuggerSession.layer), Layer.provideMerge(Browser.layer)),
    KnowledgeFiles.layerFileSystem(settings.artifactsDir)
  ).pipe(
    Layer.provideMerge(Config.layer(settings)),
    Layer.provideMerge(Layer.merge(Logger.replace(Logger.defaultLogger, capture), Logger.minimumLogLevel(LogLevel.Debug)))
  )
  return { runtime: ManagedRuntime.make(layer), logs }
}

const call = (tool: AnyToolDefinition, args: Record<string, unknown>) =>
  Effect.map(runTool(tool)(args, { policy: "none" }), (response) => response.envelope as Envelope<any>)

/** What a step answered, as both paths must agree on it: the error code, or what it read. */
const outcomeOf = (envelope: Envelope<any>) =>
  envelope.ok ? { ok: true, text: envelope.result?.text, hidden: envelope.result?.hidden !== undefined } : { ok: false, code: envelope.error!.code }

interface Run {
  readonly outcomes: ReadonlyArray<unknown>
  /** The sizes of the scripts the page parsed while the steps ran. */
  readonly scripts: ReadonlyArray<number>
  /** Steps that went to Playwright's path. */
  readonly handedOver: ReadonlyArray<number>
}

const run = (path: Path, url: string): Promise<Run> =>
  path.runtime.runPromise(
    Effect.gen(function* () {
      const opened = yield* call(navigate, { screen: "url", url })
      if (!opened.ok) return yield* Effect.die(new Error(`could not open ${url}: ${JSON.stringify(opened.error)}`))
      const { page } = yield* (yield* Browser.BrowserState).activePage
      const scripts: Array<number> = []
      const devtools = yield* Effect.promise(() => page.context().newCDPSession(page))
      devtools.on("Debugger.scriptParsed", (event) => void scripts.push(event.length ?? 0))
      yield* Effect.promise(() => devtools.send("Debugger.enable"))
      // Parsed before this session looked: only what the steps make the page parse counts.
      scripts.length = 0
      const outcomes: Array<unknown> = []
      const handedOver: Array<number> = []
      for (const [index, step] of STEPS.entries()) {
        const before = path.logs.length
        outcomes.push(outcomeOf(yield* call(step.tool === "get_text" ? getText : waitFor, step.args)))
        if (path.logs.slice(before).some((line) => line.includes("takes over"))) handedOver.push(index)
      }
      yield* Effect.promise(() => devtools.detach())
      return { outcomes, scripts, handedOver }
    })
  )

describe("get_text and wait_for through our page script", () => {
  let server: RunningServer
  let auto: Path
  let playwright: Path

  beforeAll(async () => {
    server = await servePages({ "/reads": page })
    auto = openPath("auto")
    playwright = openPath("playwright")
    for (const path of [auto, playwright]) expect((await path.runtime.runPromise(call(launch, {}))).ok).toBe(true)
  }, 60_000)

  afterAll(async () => {
    await Promise.all([auto?.runtime.dispose(), playwright?.runtime.dispose()])
    await server?.close()
  })

  it("answer as Playwright's locators do, and never make the page compile Playwright's injected script", async () => {
    const direct = await run(auto, `${server.url}/reads`)
    const reference = await run(playwright, `${server.url}/reads`)
    expect(direct.outcomes).toEqual(reference.outcomes)
    // What each step answers, so that agreeing is not agreeing on nothing.
    expect(direct.outcomes).toEqual([
      { ok: true, text: "Arrived", hidden: false },
      { ok: true, text: "Welcome, ada", hidden: false },
      { ok: false, code: "MM_TARGET_AMBIGUOUS" },
      { ok: true, text: "", hidden: true },
      { ok: true, text: "Ada", hidden: false },
      { ok: true, text: "kept", hidden: false },
      { ok: true, text: "Arrived", hidden: false },
      { ok: true, text: "Arrived", hidden: false },
      { ok: false, code: "MM_TARGET_NOT_FOUND" },
      { ok: true, hidden: false },
      { ok: true, hidden: false },
      { ok: true, hidden: false },
      { ok: false, code: "MM_WAIT_TIMEOUT" },
      { ok: false, code: "MM_WAIT_TIMEOUT" }
    ])
    expect(direct.handedOver).toEqual([])
    expect(reference.handedOver).toEqual(STEPS.map((_, index) => index))
    expect(direct.scripts.filter((chars) => chars > PLAYWRIGHT_SCRIPT_CHARS)).toEqual([])
    // The control: Playwright's path compiles its injected script, and the count sees it.
    expect(reference.scripts.filter((chars) => chars > PLAYWRIGHT_SCRIPT_CHARS).length).toBeGreaterThan(0)
  }, 120_000)
})
