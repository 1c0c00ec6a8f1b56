// Reading the tool list is no activity on a session (SDK client over the in-memory transport, a session
// registry over mock sessions): a client that only lists tools still sees its session's idle lease run out,
// and a client without a session lists tools without a slot being built for it.
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js"
import { Effect, Layer, ManagedRuntime, Option, Ref } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { makeMcpServer } from "../../src/mcp/server.js"
import { makeRegistry } from "../../src/runtime/registry.js"
import * as SessionRegistry from "../../src/runtime/session-registry.js"
import type { SlotFactory } from "../../src/runtime/session-registry.js"
import { KnowledgeStore } from "../../src/services/KnowledgeStore.js"
import { Observer } from "../../src/services/Observer.js"
import { Session, type SessionInfo } from "../../src/services/Session.js"
import { makeRunSteps } from "../../src/tools/batch.js"
import { builtinTools } from "../../src/tools/registry.js"

const state = { isLoaded: true, currentUrl: "http://127.0.0.1/", title: "t", currentScreen: "unknown" }

/** The lease under test: short, so that the test waits a second or two for it. */
const IDLE_TIMEOUT_MS = 1_000

const runtimes: Array<ManagedRuntime.ManagedRuntime<any, any>> = []
const clients: Array<Client> = []
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()))
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.dispose()))
})

/** A registry over mock sessions that counts the slots it builds and the sessions that closed. */
const world = () => {
  const counts = { slots: 0, launches: 0, closed: [] as Array<string> }
  const factory: SlotFactory = (scope) =>
    Effect.suspend(() => {
      counts.slots++
      const current = Ref.unsafeMake(Option.none<SessionInfo>())
      return Layer.buildWithScope(
        Layer.merge(
          Session.layerTest({
            current: Ref.get(current),
            tabs: Effect.succeed({ active: null, tracked: [] } as any),
            onPauseChange: () => Effect.succeed(() => undefined),
            launch: () =>
              Effect.gen(function* () {
                const sessionId = `s${++counts.launches}`
                yield* Ref.set(current, Option.some({ sessionId, startedAt: "", flowTags: [], tags: [] }))
                return { sessionId, homeUrl: state.currentUrl }
              }),
            cleanup: Effect.flatMap(Ref.getAndSet(current, Option.none()), (was) =>
              Effect.sync(() => {
                if (Option.isSome(was)) counts.closed.push(was.value.sessionId)
                return Option.isSome(was)
              })
            )
          }),
          Observer.layerTest({ state: Effect.succeed(state), observe: () => Effect.succeed({ state }) })
        ),
        scope
      )
    })
  const layer = SessionRegistry.layer(Effect.succeed(factory), {
    maxSessions: 8,
    idleTimeoutMs: IDLE_TIMEOUT_MS,
    shared: false,
    privateKnowledge: false
  }).pipe(Layer.provideMerge(KnowledgeStore.layerMemory))
  const runtime = ManagedRuntime.make(layer)
  runtimes.push(runtime)
  return { runtime, counts }
}

const connect = async (runtime: ManagedRuntime.ManagedRuntime<any, any>) => {
  const server = makeMcpServer(makeRegistry([...builtinTools, makeRunSteps()], "mm"), runtime)
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  const client = new Client({ name: "list-lease-test", version: "1.0.0" })
  await server.connect(serverSide)
  await client.connect(clientSide)
  clients.push(client)
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await client.callTool({ name, arguments: args })
    const content = result.content as Array<{ type: string; text?: string }>
    return JSON.parse(content[0]!.text!) as { ok: boolean; result?: any; error?: { code: string; message: string } }
  }
  return { client, call }
}

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
