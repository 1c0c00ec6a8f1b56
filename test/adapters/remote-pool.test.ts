// The pool's bookkeeping over stand-in connections (no browser): one connection per endpoint shared by
// its sessions, kept open for a while after the last (a session in that while takes it without connecting),
// then closed, and closed at once with the pool, launches at the same moment spread and share one connect,
// an endpoint that fails is skipped then preferred again after its backoff, one that goes away is
// reset while the other's sessions stay, and every failure names host:port only.
import { EventEmitter } from "node:events"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Scope, TestClock } from "effect"
import type { Browser, BrowserContext } from "playwright"
import type { PlaywrightModule } from "../../src/adapters/playwright/calls.js"
import { remoteEndpoints } from "../../src/adapters/playwright/lifecycle/endpoints.js"
import * as RemotePool from "../../src/adapters/playwright/lifecycle/remote-pool.js"

class FakeBrowser extends EventEmitter {
  connected = true
  contexts = 0
  constructor(readonly url: string) {
    super()
  }
  isConnected() {
    return this.connected
  }
  async close() {
    if (!this.connected) return
    this.connected = false
    this.emit("disconnected")
  }
  async newContext() {
    this.contexts++
    return { close: async () => void this.contexts-- } as unknown as BrowserContext
  }
}

/** Stand-in for playwright's chromium: endpoints in `down` refuse; every connect is counted. */
const fakeChromium = (down: Set<string>) => {
  const connects: Array<{ url: string; headers: Record<string, string> | undefined }> = []
  const browsers: Array<FakeBrowser> = []
  const connect = async (url: string, options: { headers?: Record<string, string> }) => {
    connects.push({ url, headers: options.headers })
    // A turn of the event loop, as a real connect takes.
    await new Promise((resolve) => setTimeout(resolve, 5))
    if (down.has(url)) throw new Error(`WebSocket error: connect ECONNREFUSED ${url}`)
    const browser = new FakeBrowser(url)
    browsers.push(browser)
    return browser as unknown as Browser
  }
  const chromium = { connect, connectOverCDP: connect } as unknown as PlaywrightModule["chromium"]
  return { chromium, connects, browsers }
}

const A = "ws://127.0.0.1:3001/pw?token=t0ps3cret"
const B = "ws://127.0.0.1:3002/"
const endpoints = remoteEndpoints({ wsEndpoints: [A, B], cdpEndpoints: [], endpointHeaders: { "*": { Authorization: "Bearer x" } } })

/** Opens a session in a scope of its own: its placement and how to close it. */
const open = (pool: RemotePool.RemotePoolService, chromium: PlaywrightModule["chromium"], slowMo = 0) =>
  Effect.gen(function* () {
    const scope = yield* Scope.make()
    const placed = yield* Effect.either(Scope.extend(pool.newContext(chromium, (browser) => browser.newContext(), { slowMo }), scope))
    return { placed, close: Scope.close(scope, Exit.void) }
  })

/** Real turns of the event loop, for a close the idle timer started to finish. */
const settled = Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))

describe("the remote pool", () => {
  it.scoped("sessions share one connection per endpoint, spread by load; after the last one's close it stays open IDLE_KEEP_MS, then disconnects", () =>
    Effect.gen(function* () {
      const fake = fakeChromium(new Set())
      const pool = yield* RemotePool.make(endpoints)
      const sessions = yield* Effect.all([0, 1, 2, 3].map(() => open(pool, fake.chromium)), { concurrency: "unbounded" })
      expect(sessions.map((session) => (session.placed._tag === "Right" ? session.placed.right.where : "failed")).sort()).toEqual([
        "127.0.0.1:3001",
        "127.0.0.1:3001",
        "127.0.0.1:3002",
        "127.0.0.1:3002"
      ])
      // Four sessions, two connections, each with the headers.
      expect(fake.connects.map((connect) => connect.url).sort()).toEqual([A, B])
      expect(fake.connects.every((connect) => connect.headers?.Authorization === "Bearer x")).toBe(true)
      expect(yield* pool.load).toEqual([
        { where: "127.0.0.1:3001", sessions: 2, connected: true },
        { where: "127.0.0.1:3002", sessions: 2, connected: true }
      ])
      for (const session of sessions) yield* session.close
      expect(fake.browsers.map((browser) => browser.connected)).toEqual([true, true])
      expect(yield* pool.load).toEqual([
        { where: "127.0.0.1:3001", sessions: 0, connected: true },
        { where: "127.0.0.1:3002", sessions: 0, connected: true }
      ])
      // A session in the idle while takes the open connection: no new connect.
      yield* TestClock.adjust(RemotePool.IDLE_KEEP_MS - 1_000)
      const again = yield* open(pool, fake.chromium)
      expect(fake.connects).toHaveLength(2)
      yield* again.close
      // Its close starts the while again: A's connection is still open when the first while would have ended.
      yield* TestClock.adjust(2_000)
      yield* settled
      expect(fake.browsers.map((browser) => browser.connected)).toEqual([true, false])
      yield* TestClock.adjust(RemotePool.IDLE_KEEP_MS)
      yield* settled
      expect(fake.browsers.map((browser) => browser.connected)).toEqual([false, false])
      expect((yield* pool.load).map((member) => member.connected)).toEqual([false, false])
      // The next session connects again.
      yield* (yield* open(pool, fake.chromium)).close
      expect(fake.connects).toHaveLength(3)
    }))

  it.effect("the pool's end closes an idle connection at once, and a session's connection with it", () =>
    Effect.gen(function* () {
      const fake = fakeChromium(new Set())
      const poolScope = yield* Scope.make()
      const pool = yield* Scope.extend(RemotePool.make(endpoints), poolScope)
      const idle = yield* open(pool, fake.chromium)
      const busy = yield* open(pool, fake.chromium)
      yield* idle.close
      expect(fake.browsers.map((browser) => browser.connected)).toEqual([true, true])
      yield* Scope.close(poolScope, Exit.void)
      expect(fake.browsers.map((browser) => browser.connected)).toEqual([false, false])
      yield* busy.close
    }))

  it.scoped("an endpoint that refuses is skipped, preferred again after its backoff, and named by host:port only", () =>
    Effect.gen(function* () {
      const down = new Set([A])
      const fake = fakeChromium(down)
      const pool = yield* RemotePool.make(endpoints)
      const first = yield* open(pool, fake.chromium)
      expect(first.placed._tag === "Right" && first.placed.right.where).toBe("127.0.0.1:3002")
      // Within the backoff the next one goes to B without trying A.
      const second = yield* open(pool, fake.chromium)
      expect(second.placed._tag === "Right" && second.placed.right.where).toBe("127.0.0.1:3002")
      expect(fake.connects.filter((connect) => connect.url === A)).toHaveLength(1)
      // A answers again; after the backoff it is tried first (fewest sessions) and taken.
      down.delete(A)
      yield* TestClock.adjust("1 second")
      const third = yield* open(pool, fake.chromium)
      expect(third.placed._tag === "Right" && third.placed.right.where).toBe("127.0.0.1:3001")
    }))

  it.scoped("none answers: ConnectFailed names each endpoint without its path, query or headers", () =>
    Effect.gen(function* () {
      const fake = fakeChromium(new Set([A, B]))
      const pool = yield* RemotePool.make(endpoints)
      const failed = yield* open(pool, fake.chromium)
      expect(failed.placed._tag).toBe("Left")
      const message = failed.placed._tag === "Left" ? failed.placed.left.message : ""
      expect(message).toContain("no browser of the pool answered")
      expect(message).toContain("ws://127.0.0.1:3001 (--ws-endpoint)")
      expect(message).toContain("ws://127.0.0.1:3002 (--ws-endpoint)")
      expect(message).not.toContain("t0ps3cret")
      expect(message).not.toContain("Bearer")
      // Nothing stays counted.
      expect((yield* pool.load).map((member) => member.sessions)).toEqual([0, 0])
    }))

  it.scoped("a connection that goes away resets its endpoint; the other's sessions and counts stay; a slowMo session has its own", () =>
    Effect.gen(function* () {
      const fake = fakeChromium(new Set())
      const pool = yield* RemotePool.make(endpoints)
      const onA = yield* open(pool, fake.chromium)
      const onB = yield* open(pool, fake.chromium)
      const slow = yield* open(pool, fake.chromium, 50)
      expect(slow.placed._tag === "Right" && slow.placed.right.where).toBe("127.0.0.1:3001")
      expect(fake.connects).toHaveLength(3)
      yield* Effect.promise(() => fake.browsers[0]!.close())
      expect(yield* pool.load).toEqual([
        { where: "127.0.0.1:3001", sessions: 1, connected: false },
        { where: "127.0.0.1:3002", sessions: 1, connected: true }
      ])
      // The dead connection's session closing counts nothing down twice.
      yield* onA.close
      yield* slow.close
      expect((yield* pool.load).map((member) => member.sessions)).toEqual([0, 1])
      // A is backing off: the next session goes to B even though B has more.
      const next = yield* open(pool, fake.chromium)
      expect(next.placed._tag === "Right" && next.placed.right.where).toBe("127.0.0.1:3002")
      yield* onB.close
      yield* next.close
      expect(fake.browsers[1]!.connected).toBe(true)
      yield* TestClock.adjust(RemotePool.IDLE_KEEP_MS)
      yield* settled
      expect(fake.browsers[1]!.connected).toBe(false)
    }))
})
