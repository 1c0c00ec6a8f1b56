// A long flow whose param changes what a later check reads, on real Chromium (issue 23's trial): 31 recorded
// steps, the last a check of the order line that names the customer typed. A fan-out replay whose sessions
// launch slowly (the page they open takes seconds) still answers a failing check with MM_ASSERTION_FAILED and
// the text it read, not MM_BATCH_TIMEOUT (the launch does not count against the deadline, and a check near the
// deadline answers its own verdict); the flow fits its default deadline; and the Playwright export's check
// follows BWM_PARAM_CUSTOMER as mm_replay's does.
import * as fs from "node:fs"
import * as path from "node:path"
import type * as http from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Effect, ManagedRuntime } from "effect"
import { listenLoopback, send, type RunningServer } from "../../demo/serve.js"
import { appLayer } from "../../src/cli/serve.js"
import type { Envelope } from "../../src/domain/envelope.js"
import { defaultBatchLimits } from "../../src/domain/config.js"
import { runTool } from "../../src/runtime/runTool.js"
import { servedRegistry } from "../../src/tools/registry.js"
import { flowDeadlineMs } from "../../src/tools/replay.js"
import { html, testSettings } from "../support/browser.js"
import { runPlaywrightTests, writePlaywrightConfig } from "../support/playwright-runner.js"

/** How long the page a session launches on (?slow=1) takes to come: a launch under load. */
const SLOW_LAUNCH_MS = 6_000
/**
 * The table check's own timeout, as recorded: a failing check waits it out before it answers (the trial's was
 * 15 s; any timeout of its own, other than the 5 s a step naming none gets, proves the same, and the deadline
 * still scales with it).
 */
const CHECK_TIMEOUT_MS = 6_000
/** The clicks between typing the customer and placing the order: with them, the check is the flow's 31st step. */
const CLICKS = 27

/** Customers with orders before: the order line counts them; anyone else has this one only. */
const orderPage = html(
  "Order",
  `<input data-testid="customer" aria-label="Customer">
   <button data-testid="add">Add item</button> <span data-testid="items">0</span>
   <button data-testid="place">Place order</button>
   <table><tr><td data-testid="line"></td></tr></table>
   <script>
     const orders = { Carla: 3, Bea: 3 }
     let items = 0
     document.querySelector("[data-testid=add]").addEventListener("click", () => {
       document.querySelector("[data-testid=items]").textContent = String(++items)
     })
     document.querySelector("[data-testid=place]").addEventListener("click", () => {
       const name = document.querySelector("[data-testid=customer]").value
       document.querySelector("[data-testid=line]").textContent = "Order placed for " + name + " (" + (orders[name] ?? 1) + " orders)"
     })
   </script>`
)

let server: RunningServer
let runtime: ManagedRuntime.ManagedRuntime<any, any>
let registry: ReturnType<typeof servedRegistry>
let source: string

const call = (name: string, args: Record<string, unknown> = {}) => {
  const tool = registry.lookup(name)
  if (tool === undefined) throw new Error(`no tool ${name}`)
  return runtime.runPromise(Effect.map(runTool(tool)(args), (response) => response.envelope as Envelope<any>))
}

const ok = async (name: string, args: Record<string, unknown> = {}) => {
  const envelope = await call(name, args)
  expect(envelope.error, `${name} ${JSON.stringify(args)}: ${JSON.stringify(envelope.error)}`).toBeUndefined()
  return envelope
}

beforeAll(async () => {
  const handler: http.RequestListener = (request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1")
    if (url.pathname !== "/order") return void send(response, 404, "text/plain", "not found")
    const delay = url.searchParams.has("slow") ? SLOW_LAUNCH_MS : 0
    setTimeout(() => send(response, 200, "text/html; charset=utf-8", orderPage), delay)
  }
  server = await listenLoopback(handler)
  // Every session launches on the slow page; the flow itself starts on the fast one.
  const settings = testSettings({ appUrl: `${server.url}/order?slow=1`, maxSessions: 4 })
  registry = servedRegistry(settings)
  runtime = ManagedRuntime.make(appLayer(settings, "warning"))
  source = (await ok("mm_launch", { goal: "place an order", flowTags: ["slow-order"] })).result.sessionId
  await ok("mm_navigate", { screen: "url", url: `${server.url}/order` })
  await ok("mm_type", { testId: "customer", text: "Carla", param: "customer" })
  for (let click = 0; click < CLICKS; click++) await ok("mm_click", { testId: "add" })
  await ok("mm_click", { testId: "place" })
  // The table check, with the time its own retry may take.
  await ok("mm_get_text", { testId: "line", timeoutMs: CHECK_TIMEOUT_MS })
  await ok("mm_cleanup")
}, 240_000)

afterAll(async () => {
  await runtime?.dispose()
  await server?.close()
})

describe("a replay's deadline", { timeout: 240_000 }, () => {
  it("a run whose param changes what the check reads fails with MM_ASSERTION_FAILED and the text read, though its launch is slow", async () => {
    const recipe = JSON.parse((await ok("mm_knowledge", { session: source, export: "batch" })).result.content).steps as Array<{ tool: string }>
    // The check is the 31st step of the flow (the recipe's end check of the URL follows it).
    expect(recipe.findIndex((step) => step.tool === "mm_get_text")).toBe(CLICKS + 3)
    // The default deadline: the flow's own (the launch aside), not a fixed 45 s that the launch ate into.
    const answer = await call("mm_replay", { flowTag: "slow-order", runs: [{ params: { customer: "Bea" } }, { params: { customer: "Dana" } }], concurrency: 2 })
    expect(answer.error?.code).toBe("MM_REPLAY_FAILED")
    const [bea, dana] = (answer.error as unknown as { details: { runs: Array<{ failed?: { tool: string; code: string; message: string } }> } }).details.runs
    // Bea has orders: the check followed the param and passed.
    expect(bea!.failed, JSON.stringify(bea)).toBeUndefined()
    expect(dana!.failed).toMatchObject({ tool: "mm_get_text", code: "MM_ASSERTION_FAILED" })
    expect(dana!.failed!.message).toContain("Order placed for Dana (3 orders)")
    expect(dana!.failed!.message).toContain("Order placed for Dana (1 orders)")
  })

  // The last two share nothing but the recorded flow (one replays it in the server, the other runs its export in Playwright's
  // runner, in processes of its own): they run side by side.
  it.concurrent("the flow's default deadline is its steps' own timeouts plus slack: the 31 steps fit, past the batch default", async () => {
    const steps = JSON.parse((await ok("mm_knowledge", { session: source, export: "batch" })).result.content).steps as Array<{ args: Record<string, unknown> }>
    const deadline = flowDeadlineMs(steps, defaultBatchLimits)
    expect(deadline).toBeGreaterThan(defaultBatchLimits.defaultTimeoutMs)
    expect(deadline).toBeGreaterThanOrEqual(CHECK_TIMEOUT_MS + steps.length * 2_000)
    const answer = await call("mm_replay", { flowTag: "slow-order", params: { customer: "Bea" } })
    expect(answer.error, JSON.stringify(answer.error)).toBeUndefined()
    expect(answer.result.summary).toMatchObject({ total: steps.length + 1, succeeded: steps.length + 1 })
  })

  it.concurrent("the Playwright export's check follows BWM_PARAM_CUSTOMER: it passes for another customer with orders and reads the real line for one without", async () => {
    const spec = (await ok("mm_knowledge", { session: source, export: "playwright" })).result.content as string
    expect(spec).not.toContain('"Order placed for Carla (3 orders)"')
    // Inside the repository, so that the spec resolves @playwright/test; a directory (and results) per customer, so that both run at once.
    const dirs = ["Bea", "Dana"].map((customer) => path.join(path.resolve(import.meta.dirname, "../.."), "test-artifacts", `param-export-${process.pid}-${customer}`))
    try {
      const { BWM_PARAM_CUSTOMER: _inherited, ...inherited } = process.env
      const [passed, failed] = await Promise.all(
        (["Bea", "Dana"] as const).map((customer, index) => {
          fs.mkdirSync(dirs[index]!, { recursive: true })
          fs.writeFileSync(path.join(dirs[index]!, "order.spec.ts"), spec)
          const config = writePlaywrightConfig(dirs[index]!, { testTimeoutMs: 60_000 })
          return runtime.runPromise(runPlaywrightTests(config, { env: { ...inherited, BWM_PARAM_CUSTOMER: customer } }))
        })
      )
      expect(passed!.status, passed!.output).toBe(0)
      expect(failed!.status, failed!.output).not.toBe(0)
      expect(failed!.output).toContain("Order placed for Dana (1 orders)")
    } finally {
      for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
