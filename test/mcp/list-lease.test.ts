// Reading the tool list is no activity on a session (SDK client over the in-memory transport, a session
// registry over mock sessions): a client that only lists tools still sees its session's idle lease run out,
// and a client without a session lists tools without a slot being built for it.
import type { ManagedRuntime } from "effect"
import { describe, expect, it } from "vitest"
import { makeMcpServer } from "../../src/mcp/server.js"
import { makeRegistry } from "../../src/runtime/registry.js"
import { makeRunSteps } from "../../src/tools/batch.js"
import { builtinTools } from "../../src/tools/registry.js"
import { closedAfterEach } from "../support/mcp-client.js"
import { mockSessionRegistry } from "../support/mock-sessions.js"

/** The lease under test: short, so that the test waits a second or two for it. */
const IDLE_TIMEOUT_MS = 1_000

const wire = closedAfterEach()

/** A registry over mock sessions that counts the slots it builds and the sessions that closed. */
const world = () => {
  const { layer, counts } = mockSessionRegistry({ idleTimeoutMs: IDLE_TIMEOUT_MS })
  return { runtime: wire.runtime(layer), counts }
}

const connect = (runtime: ManagedRuntime.ManagedRuntime<any, any>) =>
  wire.connect(makeMcpServer(makeRegistry([...builtinTools, makeRunSteps()], "mm"), runtime), "list-lease-test")

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe("the tool list is no activity on a session", () => {
  it("a client that only lists tools after its launch sees its session closed by the idle lease", { timeout: 60_000 }, async () => {
    const { runtime, counts } = world()
    const { client, call } = await connect(runtime)
    const launched = await call("mm_launch")
    expect(launched.ok).toBe(true)
    const sessionId = launched.result.sessionId as string
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("mm_click")
    // Listing as often as a busy client refreshes, for as long as it takes (the test's timeout is the bound):
    // before the fix, every listing renewed the lease and the session never closed.
    while (!counts.closed.includes(sessionId)) {
      await client.listTools()
      await sleep(50)
    }
    const after = await call("mm_get_state", { session: sessionId })
    expect(after.error?.code).toBe("MM_SESSION_NOT_FOUND")
    expect(after.error?.message).toContain("idle lease")
    // The list follows: no session, so no page tools.
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain("mm_click")
  })

  it("a client without a session lists tools many times and no slot is built for it beyond one stand-in", async () => {
    const { runtime, counts } = world()
    const { client } = await connect(runtime)
    for (let index = 0; index < 20; index++) {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("mm_launch")
    }
    expect(counts.slots).toBeLessThanOrEqual(1)
    expect(counts.launches).toBe(0)
  })
})
