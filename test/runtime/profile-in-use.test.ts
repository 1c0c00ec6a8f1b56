// A server on --user-data-dir holds one session on that profile at a time (Chromium runs one browser per
// profile): a second launch answers MM_PROFILE_IN_USE at once, naming the session that holds it to the
// client that may use it, and a launch after that session closed goes through.
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { toErrorInfo } from "../../src/domain/errors.js"
import { ObservingClient } from "../../src/services/Observer.js"
import { Session } from "../../src/services/Session.js"
import { Sessions } from "../../src/services/Sessions.js"
import { closedAfterEach } from "../support/mcp-client.js"
import { mockSessionRegistry } from "../support/mock-sessions.js"

const wire = closedAfterEach()

/** A registry over mock sessions whose launches are counted: a refused launch never reaches the browser. */
const world = (profile: string | undefined) => {
  const { layer, counts } = mockSessionRegistry(profile === undefined ? {} : { profile })
  return { runtime: wire.runtime(layer), launches: () => counts.launches }
}

/** Launches a new session as `client` (named `name`); answers the launch's outcome. */
const launchAs = (client: string, name?: string) =>
  Effect.locally(
    Effect.scoped(
      Effect.flatMap(Sessions, (sessions) =>
        Effect.flatMap(sessions.resolve({ starts: true }), (handle) =>
          Effect.either(
            Effect.flatMap(Effect.provide(Session, handle.context), (session) =>
              session.launch({ stateMode: "default", flowTags: [], tags: [], slowMo: 0, force: false, ...(name === undefined ? {} : { name }) } as any)
            )
          )
        )
      )
    ),
    ObservingClient,
    client
  )

describe("one session per --user-data-dir", () => {
  it("a second launch on the profile answers MM_PROFILE_IN_USE at once, naming the holder to its own client only", async () => {
    const { runtime, launches } = world("/profiles/work")
    const first = await runtime.runPromise(launchAs("a", "main"))
    expect(first._tag).toBe("Right")
    const again = await runtime.runPromise(launchAs("a"))
    if (again._tag !== "Left") throw new Error("the second launch started")
    const info = toErrorInfo(again.left as any)
    expect(info.code).toBe("MM_PROFILE_IN_USE")
    expect(info.message).toContain("--user-data-dir /profiles/work is in use by your session s1 (main)")
    // s1 is its client's current session: the message names only tools that are listed then (no session argument).
    expect(info.message).toContain("go on in it (your calls go to it), or close it (mm_cleanup) and launch again")
    expect(info.details).toEqual({ profile: "/profiles/work", heldBy: "s1 (main)" })
    // Another client learns the profile is taken, not whose session holds it.
    const other = await runtime.runPromise(launchAs("b"))
    if (other._tag !== "Left") throw new Error("another client's launch started")
    expect(toErrorInfo(other.left as any)).toMatchObject({ code: "MM_PROFILE_IN_USE", details: { profile: "/profiles/work" } })
    expect(toErrorInfo(other.left as any).message).not.toContain("s1")
    expect(launches()).toBe(1)
    // Closed, the profile is free again.
    await runtime.runPromise(Effect.locally(Effect.flatMap(Sessions, (sessions) => sessions.close("s1")), ObservingClient, "a"))
    expect((await runtime.runPromise(launchAs("b")))._tag).toBe("Right")
    expect(launches()).toBe(2)
  })

  it("without --user-data-dir, sessions launch side by side", async () => {
    const { runtime, launches } = world(undefined)
    expect((await runtime.runPromise(launchAs("a")))._tag).toBe("Right")
    expect((await runtime.runPromise(launchAs("a")))._tag).toBe("Right")
    expect(launches()).toBe(2)
  })
})
