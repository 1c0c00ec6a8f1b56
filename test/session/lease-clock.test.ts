// The idle lease ends when it ends, not at the next of a few sweeps per lease (test clock, mock sessions):
// a session launched between two sweeps closed up to a quarter lease late (a 15 s lease, 18-28 s under load);
// the sweep now wakes when the earliest idle session's lease runs out.
import { it } from "@effect/vitest"
import { Effect, Layer, TestClock } from "effect"
import { describe, expect } from "vitest"
import { ObservingClient } from "../../src/services/Observer.js"
import { Session } from "../../src/services/Session.js"
import { Sessions } from "../../src/services/Sessions.js"
import { mockSessionRegistry } from "../support/mock-sessions.js"

const LEASE_MS = 60_000

/** Launches a session of the client "a"; the scope of its call ends with the launch (its lease starts then). */
const launch = Effect.locally(
  Effect.scoped(
    Effect.flatMap(Sessions, (sessions) =>
      Effect.flatMap(sessions.resolve({ starts: true }), (handle) =>
        Effect.flatMap(Effect.provide(Session, handle.context), (session) =>
          session.launch({ stateMode: "default", flowTags: [], tags: [], slowMo: 0, force: false } as any)
        )
      )
    )
  ),
  ObservingClient,
  "a"
)

/** Lets the sweep's fiber run at the clock's new time. */
const advance = (ms: number) => Effect.zipRight(TestClock.adjust(`${ms} millis`), Effect.yieldNow())

describe("the idle lease", () => {
  it.scoped("closes a session launched between two sweeps within 250 ms of its lease's end", () =>
    Effect.gen(function* () {
      const { layer, counts } = mockSessionRegistry({ idleTimeoutMs: LEASE_MS })
      const registry = yield* Layer.build(layer)
      // Launched 1 s after the first sweep: a sweep every quarter lease would close it at 75 s.
      yield* advance(1_000)
      const { sessionId } = yield* Effect.provide(launch, registry)
      yield* advance(LEASE_MS - 1_000)
      expect(counts.closed).not.toContain(sessionId)
      yield* advance(1_250)
      expect(counts.closed).toContain(sessionId)
    })
  )
})
