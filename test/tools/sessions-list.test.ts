// Sessions as one client sees them beside another's, over a session registry (mock sessions): mm_sessions tells a
// client without a session what starts one (no empty `sessions` field) and lists only the caller's own; a call without
// a session hears how many sessions of other clients run and how to reach one (by its id), never their ids.
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import type { Envelope } from "../../src/domain/envelope.js"
import { runTool } from "../../src/runtime/runTool.js"
import { ObservingClient } from "../../src/services/Observer.js"
import { getState } from "../../src/tools/discovery.js"
import { launch, sessions } from "../../src/tools/session.js"
import { closedAfterEach } from "../support/mcp-client.js"
import { mockSessionRegistry } from "../support/mock-sessions.js"

const wire = closedAfterEach()

describe("mm_sessions list", () => {
  it("says what starts a session when the caller has none, and lists only the caller's own sessions", async () => {
    const runtime = wire.runtime(mockSessionRegistry().layer)
    const as = (client: string, effect: Effect.Effect<{ readonly envelope: unknown }, never, any>) =>
      runtime.runPromise(Effect.map(Effect.locally(effect, ObservingClient, client), (response) => response.envelope as Envelope<any>))
    const none = { ok: true, result: { none: "You have no session: mm_launch starts one." } }
    expect(await as("a", runTool(sessions)({}))).toEqual(none)
    expect((await as("b", runTool(launch)({}))).ok).toBe(true)
    expect(await as("a", runTool(sessions)({}))).toEqual(none)
    const listed = await as("b", runTool(sessions)({}))
    expect(listed.result.sessions.map((session: { id: string }) => session.id)).toEqual(["s1"])
  })

  it("refuses a name shaped like a session id (a session argument is an id first: it could never be reached)", async () => {
    const runtime = wire.runtime(mockSessionRegistry().layer)
    const refused = (await runtime.runPromise(runTool(launch)({ name: "mm-abc" }))).envelope as Envelope<any>
    expect(refused.ok).toBe(false)
    expect(refused.error).toMatchObject({ code: "MM_INVALID_INPUT" })
    expect(refused.error!.message).toContain("name")
    expect((await runtime.runPromise(runTool(launch)({ name: "m-abc" }))).envelope).toMatchObject({ ok: true })
  })
})

describe("MM_NO_ACTIVE_SESSION beside other clients' sessions", () => {
  it("says how many run and that a call reaches one by its id, naming none of them", async () => {
    const runtime = wire.runtime(mockSessionRegistry().layer)
    const as = (client: string, effect: Effect.Effect<{ readonly envelope: unknown }, never, any>) =>
      runtime.runPromise(Effect.map(Effect.locally(effect, ObservingClient, client), (response) => response.envelope as Envelope<any>))
    const alone = await as("a", runTool(getState)({}))
    expect(alone.error!.code).toBe("MM_NO_ACTIVE_SESSION")
    expect(alone.error!.message).not.toContain("other client")
    for (const client of ["b", "c"]) expect((await as(client, runTool(launch)({}))).ok).toBe(true)
    const beside = await as("a", runTool(getState)({}))
    expect(beside.error!.code).toBe("MM_NO_ACTIVE_SESSION")
    expect(beside.error!.message).toContain("2 sessions of other clients run here")
    expect(beside.error!.message).toContain('session: "<id>"')
    expect(JSON.stringify(beside)).not.toMatch(/\bs[12]\b/)
  })
})
