// A pause that no call causes (page code hits `debugger;` between calls) changes the tool list at once:
// the built server over real stdio sends tools/list_changed without waiting for a call, the list is the
// stepping set, page actions answer MM_DEBUGGER_PAUSED, and resuming or detaching restores the list.
import * as fs from "node:fs"
import type * as http from "node:http"
import * as path from "node:path"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { answerPage, listenLoopback, pathOf, send } from "../../demo/serve.js"
import { LOOPBACK_ARGS, tempDir } from "../support/browser.js"
import { STEPPING_SET } from "../debugger/support.js"

const serverEntry = path.resolve(import.meta.dirname, "../../dist/src/main.js")

// The page asks the test server for /hold when it loads; the answer comes when the test releases it,
// and its callback stops at `debugger;`: page code that runs while no call does.
const app = `fetch("/hold")
  .then((response) => response.text())
  .then(function arrived(text) {
    const got = text
    debugger
    document.getElementById("out").textContent = got
  })
`
const page = `<!doctype html><html><head><title>Held</title></head><body>
<button id="go" onclick="this.textContent = 'pressed'">Go</button><p id="out">waiting</p>
<script src="/app.js"></script>
</body></html>`

interface Held {
  readonly url: string
  /** Answers the oldest /hold request waiting (waits for one to arrive). */
  readonly release: (text: string) => Promise<void>
  readonly close: () => Promise<void>
}

const serveHeld = async (): Promise<Held> => {
  const waiting: Array<http.ServerResponse> = []
  const server = await listenLoopback((request, response) => {
    if (pathOf(request) === "/hold") waiting.push(response)
    else if (!answerPage({ "/": page, "/app.js": app }, request, response)) send(response, 404, "text/plain", "not found")
  })
  return {
    ...server,
    release: async (text) => {
      while (waiting.length === 0) await new Promise((resolve) => setTimeout(resolve, 20))
      send(waiting.shift()!, 200, "text/plain", text)
    }
  }
}

const envelopeOf = (result: Awaited<ReturnType<Client["callTool"]>>) => {
  const content = result.content as Array<{ type: string; text?: string }>
  return JSON.parse(content[0]!.text!) as { ok: boolean; result?: any; error?: { code: string; message: string; details?: unknown } }
}

describe("a pause between calls, over stdio", () => {
  let held: Held
  let client: Client
  let changed = 0
  const waiters: Array<() => void> = []
  /** Resolves at the next tools/list_changed (a test that never gets one fails at the test's timeout). */
  const nextChange = () => new Promise<void>((resolve) => waiters.push(resolve))

  beforeAll(async () => {
    expect(fs.existsSync(serverEntry), "run npm run build first").toBe(true)
    held = await serveHeld()
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [serverEntry, "--caps", "debugger", "--artifacts-dir", tempDir(), ...LOOPBACK_ARGS.map((arg) => `--browser-arg=${arg}`)],
      stderr: "pipe"
    })
    client = new Client({ name: "debugger-e2e", version: "1.0.0" })
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed++
      waiters.splice(0).forEach((resolve) => resolve())
    })
    await client.connect(transport)
  })

  afterAll(async () => {
    await client?.close()
    await held?.close()
  })

  const call = async (name: string, args: Record<string, unknown> = {}) => envelopeOf(await client.callTool({ name, arguments: args }))
  const names = async () => (await client.listTools()).tools.map((tool) => tool.name)

  it("the client hears the pause without calling, sees the stepping set, and gets the page tools back on resume and on detach", async () => {
    expect((await call("mm_launch")).ok).toBe(true)
    expect((await call("mm_navigate", { screen: "url", url: `${held.url}/` })).ok).toBe(true)
    expect((await call("mm_debugger", { action: "enable" })).ok).toBe(true)
    expect(await names()).toContain("mm_click")

    // No call runs: the page's own code pauses, and the list changes all the same.
    const before = changed
    const heard = nextChange()
    await held.release("first answer")
    await heard
    expect(changed).toBe(before + 1)
    expect(await names()).toEqual(STEPPING_SET)
    const refused = await call("mm_click", { selector: "#go" })
    expect(refused.error?.code).toBe("MM_DEBUGGER_PAUSED")
    expect(refused.error?.message).toContain("tab t1 is paused in the debugger at app.js")
    // The first answer after a pause no call caused carries its context: where, the frames, the locals.
    expect(refused.error?.details).toMatchObject({ pause: { location: expect.anything(), frames: expect.any(Array) } })

    // The page did not change since the navigation told of it: reads while paused do not tell it again.
    const evaluated = await call("mm_evaluate_frame", { expression: "1 + 1" })
    expect(evaluated.ok).toBe(true)
    expect((evaluated as { page?: unknown }).page).toBeUndefined()
    const resumedHeard = nextChange()
    const resumed = await call("mm_debugger", { action: "resume" })
    expect(resumed).toMatchObject({ ok: true, result: { running: true } })
    // The page did not change since the client was told of it: not told again.
    expect((resumed as { page?: unknown }).page).toBeUndefined()
    await resumedHeard
    const restored = await names()
    expect(restored).toEqual(expect.arrayContaining(["mm_click", "mm_debugger"]))
    expect(restored).not.toContain("mm_step")
    expect((await call("mm_wait_for", { selector: "text=first answer" })).ok).toBe(true)

    // Again, and this time the debugger is turned off while paused: the page runs on and the list comes back.
    expect((await call("mm_navigate", { screen: "reload" })).ok).toBe(true)
    const pausedAgain = nextChange()
    await held.release("second answer")
    await pausedAgain
    expect(await names()).toEqual(STEPPING_SET)
    const detachedHeard = nextChange()
    expect((await call("mm_debugger", { action: "disable" })).ok).toBe(true)
    await detachedHeard
    expect(await names()).toContain("mm_click")
    expect((await call("mm_wait_for", { selector: "text=second answer" })).ok).toBe(true)
    expect((await call("mm_click", { selector: "#go" })).ok).toBe(true)
  })
})
