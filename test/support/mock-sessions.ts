// A session registry (the live server's, src/runtime/session-registry.ts) over mock sessions, for tests of
// what the registry and the server do around sessions without a browser: each launch is a slot of its own
// with ids s1, s2, ...; `counts` says how many slots were built, how many launches ran, which sessions closed,
// and the most sessions open at once.
import { Effect, Layer, Option, Ref } from "effect"
import * as SessionRegistry from "../../src/runtime/session-registry.js"
import { KnowledgeStore } from "../../src/services/KnowledgeStore.js"
import { Observer } from "../../src/services/Observer.js"
import { Session, type SessionInfo } from "../../src/services/Session.js"

/** What every mock session's page reports. */
export const mockState = { isLoaded: true, currentUrl: "http://127.0.0.1/", title: "t", currentScreen: "unknown" }

export interface MockRegistryOptions {
  readonly idleTimeoutMs?: number
  /** --max-sessions (default 8). */
  readonly maxSessions?: number
  /** The server's --user-data-dir: one session on it at a time. */
  readonly profile?: string
  /** --shared-browser: one session every client shares. */
  readonly shared?: boolean
}

export const mockSessionRegistry = (options: MockRegistryOptions = {}) => {
  const counts = { slots: 0, launches: 0, closed: [] as Array<string>, mostOpen: 0 }
  /** Sessions whose browser "died" (browserEnded answers true; nothing in the registry changes). */
  const dead = new Set<string>()
  const factory: SessionRegistry.SlotFactory = (scope) =>
    Effect.suspend(() => {
      counts.slots++
      const current = Ref.unsafeMake(Option.none<SessionInfo>())
      return Layer.buildWithScope(
        Layer.merge(
          Session.layerTest({
            current: Ref.get(current),
            tabs: Effect.succeed({ active: null, tracked: [] } as any),
            extension: Effect.succeed(Option.none()),
            browserEnded: Effect.map(Ref.get(current), (info) => Option.isSome(info) && dead.has(info.value.sessionId)),
            onPauseChange: () => Effect.succeed(() => undefined),
            launch: () =>
              Effect.gen(function* () {
                const sessionId = `s${++counts.launches}`
                counts.mostOpen = Math.max(counts.mostOpen, counts.launches - counts.closed.length)
                yield* Ref.set(current, Option.some({ sessionId, startedAt: "", flowTags: [], tags: [] }))
                return { sessionId, homeUrl: mockState.currentUrl }
              }),
            cleanup: Effect.flatMap(Ref.getAndSet(current, Option.none()), (was) =>
              Effect.sync(() => {
                if (Option.isSome(was)) counts.closed.push(was.value.sessionId)
                return Option.isSome(was)
              })
            )
          }),
          Observer.layerTest({ state: Effect.succeed(mockState), observe: () => Effect.succeed({ state: mockState }) })
        ),
        scope
      )
    })
  const layer = SessionRegistry.layer(Effect.succeed(factory), {
    maxSessions: options.maxSessions ?? 8,
    idleTimeoutMs: options.idleTimeoutMs ?? 0,
    shared: options.shared ?? false,
    privateKnowledge: false,
    ...(options.profile === undefined ? {} : { profile: options.profile })
  }).pipe(Layer.provideMerge(KnowledgeStore.layerMemory))
  return { layer, counts, kill: (sessionId: string) => void dead.add(sessionId) }
}
