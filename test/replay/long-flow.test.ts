// A recorded flow longer than one batch may be (mm_run_steps' 50 steps by default) replays whole in one
// call (a new-user trial's 57-step session answered MM_INVALID_INPUT "at steps" with the batch echoed);
// a batch the agent sends over the limit is refused in a line that says the limit and how to raise it.
// Real Chromium, a page served on 127.0.0.1, the app layer in process.
import { ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { servePages, type RunningServer } from "../../demo/sample-app.js"
import { appLayer, registryFor } from "../../src/cli/serve.js"
import { makeMcpServer } from "../../src/mcp/server.js"
import { html, testSettings } from "../support/browser.js"
import { connectWithText } from "../support/mcp-client.js"

const CLICKS = 55

const pages = {
  "/count": html(
    "Count",
    `<button data-testid="add" onclick="const n = document.getElementById('n'); n.textContent = String(Number(n.textContent) + 1)">Add</button><p data-testid="n" id="n">0</p>`
  )
}

let app: RunningServer
beforeAll(async () => {
  app = await servePages(pages)
})
afterAll(async () => {
  await app?.close()
})

describe("a flow longer than a batch", () => {
  it(`${CLICKS} recorded clicks replay in one call; a batch of 51 steps is refused naming the limit, not echoing the steps`, async () => {
    const settings = testSettings({ appUrl: `${app.url}/count` })
    const runtime = ManagedRuntime.make(appLayer(settings, "warning"))
    const { client, call, ok } = await connectWithText(makeMcpServer(registryFor(settings), runtime), "long-flow-test")
    try {
      await ok("mm_launch", { goal: "count far", flowTags: ["count-far"] })
      for (let click = 0; click < CLICKS; click++) await ok("mm_click", { testId: "add" })
      expect((await ok("mm_get_text", { testId: "n" })).result).toEqual({ text: String(CLICKS) })
      await ok("mm_cleanup")

      const replayed = await call("mm_replay", { flowTag: "count-far" })
      expect(replayed.error, JSON.stringify(replayed.error)?.slice(0, 400)).toBeUndefined()
      expect(replayed.result.summary.total).toBeGreaterThan(CLICKS)
      expect(replayed.result.summary.succeeded).toBe(replayed.result.summary.total)

      const steps = Array.from({ length: 51 }, () => ({ tool: "mm_get_state", args: {} }))
      const refused = await call("mm_run_steps", { steps })
      expect(refused.error?.code).toBe("MM_INVALID_INPUT")
      expect(refused.error?.message).toContain("at most 50 steps in one batch (51 given)")
      expect(refused.error?.message).toContain("batch.maxSteps")
      expect(refused.error?.message).not.toContain("mm_get_state")
    } finally {
      await call("mm_cleanup").catch(() => undefined)
      await client.close()
      await runtime.dispose()
    }
  }, 180_000)
})
