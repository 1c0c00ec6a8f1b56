// A launch step inside mm_run_steps while another session is open (found by a new-user trial): it starts a
// new session beside it, as a call of its own would, which becomes the client's current one, and the
// batch's steps after it run there; `force: true` in the step never closes the other session; a step that
// names a session runs there. Real Chromium, pages served on 127.0.0.1, the app layer in process.
import { ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { servePages, type RunningServer } from "../../demo/sample-app.js"
import { appLayer, registryFor } from "../../src/cli/serve.js"
import { makeMcpServer } from "../../src/mcp/server.js"
import { html, testSettings } from "../support/browser.js"
import { connectWithText, type TextAnswer } from "../support/mcp-client.js"

/** A counter: each click on Add adds one to the number shown. */
const counter = (title: string) =>
  html(
    title,
    `<h1>${title}</h1><button data-testid="add" onclick="const n = document.getElementById('n'); n.textContent = String(Number(n.textContent) + 1)">Add</button>` +
      `<p data-testid="n" id="n">0</p>`
  )

const pages = { "/": html("Home", "<p>home</p>"), "/a": counter("Alpha"), "/b": counter("Bravo"), "/c": counter("Charlie") }

const connect = (runtime: ManagedRuntime.ManagedRuntime<any, any>, settings: ReturnType<typeof testSettings>) =>
  connectWithText(makeMcpServer(registryFor(settings), runtime), "batch-launch-test")

/** The client's sessions by name: whether each is current, and its page's URL. */
const listed = async (ok: (name: string, args?: Record<string, unknown>) => Promise<TextAnswer>) =>
  Object.fromEntries(
    ((await ok("mm_sessions")).result.sessions as Array<{ name?: string; id: string; url?: string; current?: boolean }>).map((session) => [
      session.name ?? session.id,
      { current: session.current === true, url: session.url }
    ])
  )

let app: RunningServer
beforeAll(async () => {
  app = await servePages(pages)
})
afterAll(async () => {
  await app?.close()
})

describe("a launch step in a batch beside an open session", () => {
  it("starts a new current session the following steps run on; force never closes the other; a step's own session wins", async () => {
    const settings = testSettings({ appUrl: `${app.url}/` })
    const runtime = ManagedRuntime.make(appLayer(settings, "warning"))
    const { client, call, ok } = await connect(runtime, settings)
    try {
      await ok("mm_launch", { name: "a" })
      await ok("mm_navigate", { screen: "url", url: `${app.url}/a` })

      const batch = await ok("mm_run_steps", {
        steps: [
          { tool: "mm_launch", args: { name: "b" } },
          { tool: "mm_navigate", args: { screen: "url", url: `${app.url}/b` } },
          { tool: "mm_click", args: { testId: "add" } },
          { tool: "mm_get_text", args: { testId: "n" }, expectation: { includeSnapshot: true } }
        ],
        includeObservations: "none"
      })
      expect(batch.result.summary).toMatchObject({ ok: true, total: 4, succeeded: 4 })
      expect(batch.result.steps[3].result).toEqual({ text: "1" })
      // The step's expectation reads the session the step ran on (b's page), not the batch's (a's).
      expect(batch.text).toContain("## step 3")
      expect(batch.text).toContain("Bravo")
      expect(batch.text).not.toContain("Alpha")
      let sessions = await listed(ok)
      expect(Object.keys(sessions).sort()).toEqual(["a", "b"])
      expect(sessions.b).toEqual({ current: true, url: `${app.url}/b` })
      expect(sessions.a).toEqual({ current: false, url: `${app.url}/a` })
      // a's page untouched; b's clicked; calls without a session go to b, the current one.
      expect((await ok("mm_get_text", { session: "a", testId: "n" })).result).toEqual({ text: "0" })
      expect((await ok("mm_get_text", { testId: "n" })).result).toEqual({ text: "1" })

      // force: true in a batch step starts another session beside them (as a plain mm_launch {force: true} does): closes none.
      const forced = await ok("mm_run_steps", {
        steps: [
          { tool: "mm_launch", args: { name: "c", force: true } },
          { tool: "mm_navigate", args: { screen: "url", url: `${app.url}/c` } },
          { tool: "mm_click", args: { testId: "add" } },
          { tool: "mm_click", args: { testId: "add" } },
          // A step that names a session runs there (explicit wins), and the next one is back on c.
          { tool: "mm_click", args: { session: "a", testId: "add" } },
          { tool: "mm_get_text", args: { testId: "n" } }
        ],
        includeObservations: "none"
      })
      expect(forced.result.summary).toMatchObject({ ok: true, total: 6, succeeded: 6 })
      expect(forced.result.steps[5].result).toEqual({ text: "2" })
      sessions = await listed(ok)
      expect(Object.keys(sessions).sort()).toEqual(["a", "b", "c"])
      expect(sessions.c).toEqual({ current: true, url: `${app.url}/c` })
      expect((await ok("mm_get_text", { session: "a", testId: "n" })).result).toEqual({ text: "1" })
      expect((await ok("mm_get_text", { session: "b", testId: "n" })).result).toEqual({ text: "1" })

      // A launch step that fails (a name taken) stops the batch, stopOnError or not: nothing runs on another session.
      const taken = await call("mm_run_steps", {
        steps: [
          { tool: "mm_launch", args: { name: "a" } },
          { tool: "mm_click", args: { testId: "add" } }
        ],
        includeObservations: "none"
      })
      expect(taken.ok).toBe(false)
      expect(taken.error?.code).toBe("MM_BATCH_FAILED")
      expect(taken.result.steps).toHaveLength(1)
      expect(taken.result.summary.notRun).toContain("MM_BATCH_STOPPED")
      expect(JSON.stringify(taken)).not.toContain("MM_SESSION_ALREADY_RUNNING")
      expect((await ok("mm_get_text", { testId: "n" })).result).toEqual({ text: "2" })
      expect(Object.keys(await listed(ok)).sort()).toEqual(["a", "b", "c"])
    } finally {
      for (const name of ["a", "b", "c"]) await call("mm_cleanup", { session: name }).catch(() => undefined)
      await client.close()
      await runtime.dispose()
    }
  }, 120_000)

  it("a batch that starts with a launch and no session open runs its steps on that session", async () => {
    const settings = testSettings({ appUrl: `${app.url}/` })
    const runtime = ManagedRuntime.make(appLayer(settings, "warning"))
    const { client, call, ok } = await connect(runtime, settings)
    try {
      const batch = await ok("mm_run_steps", {
        steps: [
          { tool: "mm_launch", args: { name: "only" } },
          { tool: "mm_navigate", args: { screen: "url", url: `${app.url}/a` } },
          { tool: "mm_click", args: { testId: "add" } }
        ],
        includeObservations: "none"
      })
      expect(batch.result.summary).toMatchObject({ ok: true, total: 3, succeeded: 3 })
      expect(await listed(ok)).toEqual({ only: { current: true, url: `${app.url}/a` } })
      expect((await ok("mm_get_text", { testId: "n" })).result).toEqual({ text: "1" })
    } finally {
      await call("mm_cleanup", { session: "only" }).catch(() => undefined)
      await client.close()
      await runtime.dispose()
    }
  }, 120_000)
})
