// Many clients, one server: a call that acted on one session checks the tool lists of the clients whose list
// follows that session, not every client's (with 8 agents each call recomputed 8 lists, one per client, before
// it answered). Calls that may change any client's list (a launch, a session switched or closed) still check all.
import { Effect, Layer, Option, Ref } from "effect"
import { describe, expect, it } from "vitest"
import { makeMcpServer } from "../../src/mcp/server.js"
import { makeToolListChanges } from "../../src/mcp/tool-list.js"
import { makeRegistry } from "../../src/runtime/registry.js"
import * as SessionRegistry from "../../src/runtime/session-registry.js"
import { KnowledgeStore } from "../../src/services/KnowledgeStore.js"
import { Observer } from "../../src/services/Observer.js"
import { Session, type SessionInfo } from "../../src/services/Session.js"
import { makeRunSteps } from "../../src/tools/batch.js"
import { builtinTools } from "../../src/tools/registry.js"
import { closedAfterEach } from "../support/mcp-client.js"
import { mockState } from "../support/mock-sessions.js"

describe("makeToolListChanges", () => {
  it("refreshes every server on a change of anything, and on a change of some sessions those that follow one of them or say nothing", async () => {
    const changes = makeToolListChanges()
    const refreshed: Array<string> = []
    const subscriber = (name: string) => async () => void refreshed.push(name)
    changes.subscribe(subscriber("on-a"), (sessions) => sessions.has("a"))
    changes.subscribe(subscriber("on-b"), (sessions) => sessions.has("b"))
    const stop = changes.subscribe(subscriber("any"))
    await changes.changed(new Set(["a"]))
    expect(refreshed.sort()).toEqual(["any", "on-a"])
    refreshed.length = 0
    await changes.changed()
    expect(refreshed.sort()).toEqual(["any", "on-a", "on-b"])
    refreshed.length = 0
    stop()
    await changes.changed(new Set(["c"]))
    expect(refreshed).toEqual([])
  })
})

/** A registry of mock sessions s1, s2...: each one's tab count is set from the test, and each read of it is counted. */
const countingWorld = () => {
  const tabs = new Map<string, number>()
  const reads = new Map<string, number>()
  let launches = 0
  const factory: SessionRegistry.SlotFactory = (scope) =>
    Effect.suspend(() => {
      const current = Ref.unsafeMake(Option.none<SessionInfo>())
      const idOf = Effect.map(Ref.get(current), (info) => Option.getOrElse(Option.map(info, (known) => known.sessionId), () => ""))
      return Layer.buildWithScope(
        Layer.merge(
          Session.layerTest({
            current: Ref.get(current),
            tabs: Effect.succeed({ active: null, tracked: [] } as any),
            onPauseChange: () => Effect.succeed(() => undefined),
            tabCount: Effect.map(idOf, (id) => {
              reads.set(id, (reads.get(id) ?? 0) + 1)
              return tabs.get(id) ?? 1
            }),
            launch: () =>
              Effect.gen(function* () {
                const sessionId = `s${++launches}`
                yield* Ref.set(current, Option.some({ sessionId, startedAt: "", flowTags: [], tags: [] }))
                return { sessionId, homeUrl: mockState.currentUrl }
              }),
            cleanup: Effect.map(Ref.getAndSet(current, Option.none()), Option.isSome),
            click: () => Effect.succeed({ pageClosedAfterClick: false })
          }),
          Observer.layerTest({ state: Effect.succeed(mockState), observe: () => Effect.succeed({ state: mockState }) })
        ),
        scope
      )
    })
  const layer = SessionRegistry.layer(Effect.succeed(factory), { maxSessions: 8, idleTimeoutMs: 0, shared: false, privateKnowledge: false }).pipe(
    Layer.provideMerge(KnowledgeStore.layerMemory)
  )
  return { layer, tabs, reads }
}

const wire = closedAfterEach()

describe("the tool lists a call checks", () => {
  it("a call on one session checks the lists that follow it: another client's session is not read, a client that switched to it is told", async () => {
    const world = countingWorld()
    const runtime = wire.runtime(world.layer)
    const registry = makeRegistry([...builtinTools, makeRunSteps()], "mm")
    const a = await wire.connect(makeMcpServer(registry, runtime), "client-a")
    const b = await wire.connect(makeMcpServer(registry, runtime), "client-b")
    expect((await a.call("mm_launch")).result.sessionId).toBe("s1")
    expect((await b.call("mm_launch")).result.sessionId).toBe("s2")
    await a.names()
    await b.names()
    const before = { a: a.changes(), b: b.changes() }

    // B's click opened a second tab in its own session: B is told, A's list (on s1) is not even computed.
    world.tabs.set("s2", 2)
    world.reads.clear()
    expect((await b.call("mm_click", { testId: "opens-a-popup" })).ok).toBe(true)
    expect(b.changes()).toBe(before.b + 1)
    expect(await b.names()).toContain("mm_tabs")
    expect(a.changes()).toBe(before.a)
    expect(world.reads.get("s1") ?? 0).toBe(0)
    expect(world.reads.get("s2") ?? 0).toBeGreaterThan(0)

    // A follows s2 once it switched to it (by id, a capability): a change there reaches both clients.
    expect((await a.call("mm_sessions", { action: "switch", session: "s2" })).ok).toBe(true)
    expect(await a.names()).toContain("mm_tabs")
    const switched = { a: a.changes(), b: b.changes() }
    world.tabs.set("s2", 1)
    expect((await b.call("mm_click", { testId: "closes-the-popup" })).ok).toBe(true)
    expect(b.changes()).toBe(switched.b + 1)
    expect(a.changes()).toBe(switched.a + 1)
    expect(await a.names()).not.toContain("mm_tabs")

    // A launch may change any client's list: every list is computed again.
    world.reads.clear()
    expect((await b.call("mm_launch", { name: "third" })).ok).toBe(true)
    expect(world.reads.get("s2") ?? 0).toBeGreaterThan(0)
  })
})
