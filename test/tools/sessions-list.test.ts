// mm_sessions' list over a session registry (mock sessions): a client without a session gets a bare ok (no
// empty `sessions` field), one with sessions gets them listed, another client's never.
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import type { Envelope } from "../../src/domain/envelope.js"
import { runTool } from "../../src/runtime/runTool.js"
import { ObservingClient } from "../../src/services/Observer.js"
import { launch, sessions } from "../../src/tools/session.js"
import { closedAfterEach } from "../support/mcp-client.js"
import { mockSessionRegistry } from "../support/mock-sessions.js"

const wire = closedAfterEach()

describe("mm_sessions list", () => {
  it("answers a bare ok with no session, and lists only the caller's own sessions", async () => {
    const runtime = wire.runtime(mockSessionRegistry().layer)
    const as = (client: string, effect: Effect.Effect<{ readonly envelope: unknown }, never, any>) =>
      runtime.runPromise(Effect.map(Effect.locally(effect, ObservingClient, client), (response) => response.envelope as Envelope<any>))
    expect(await as("a", runTool(sessions)({}))).toEqual({ ok: true })
    expect((await as("b", runTool(launch)({}))).ok).toBe(true)
    expect(await as("a", runTool(sessions)({}))).toEqual({ ok: true })
    const listed = await as("b", runTool(sessions)({}))
    expect(listed.result.sessions.map((session: { id: string }) => session.id)).toEqual(["s1"])
  })
})
