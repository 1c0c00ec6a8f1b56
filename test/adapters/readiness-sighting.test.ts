// A click's readiness watch notes what it saw of its target before it waits (issue 22: "not found" or
// "found but not ready" is decided from what was seen, not from spare time). Its first question to the page
// waits up to a second for an element to appear; a call's deadline that comes during that wait must still
// find the target looked for and never matched, so that the click answers MM_TARGET_NOT_FOUND, not
// MM_CLICK_TIMEOUT. Deterministic: the deadline here is the moment the watch starts that wait (the page
// below never answers it), not a clock. A drag notes its drop target's looks apart, for the same rule.
import { Deferred, Effect, Fiber, Ref } from "effect"
import type { Locator, Page } from "playwright"
import { describe, expect, it } from "vitest"
import { watchReadiness } from "../../src/adapters/playwright/session/readiness.js"
import { targetSighting, type Sighting } from "../../src/services/Deadline.js"
import { drag } from "../../src/tools/gestures.js"
import { actionDeadline } from "../../src/tools/shared.js"

/**
 * A target that matches nothing, as Playwright answers for it: a count is immediate (0), a question about
 * the element waits for one to appear (here: until the test is done with it). `waiting` is done when the
 * first such wait begins.
 */
const missingTarget = (waiting: Deferred.Deferred<void>) => {
  const locator = {
    count: () => Promise.resolve(0),
    evaluateHandle: () => {
      Effect.runSync(Deferred.succeed(waiting, undefined))
      return new Promise<never>(() => undefined)
    }
  } as unknown as Locator
  return { page: {} as Page, locator }
}

describe("a click's readiness watch on a missing target", () => {
  it("has noted it looked and found nothing before it waits for the element to appear: a deadline then is MM_TARGET_NOT_FOUND", async () => {
    const seen = await Effect.runPromise(
      Effect.gen(function* () {
        const waiting = yield* Deferred.make<void>()
        const sighting = yield* Ref.make<Sighting>({ looked: false, matched: false })
        const { page, locator } = missingTarget(waiting)
        const watch = yield* Effect.fork(Effect.locally(watchReadiness(page, locator, "click", false), targetSighting, sighting))
        // The call's deadline comes while the watch waits on its first question.
        yield* Deferred.await(waiting)
        yield* Fiber.interrupt(watch)
        return yield* Ref.get(sighting)
      })
    )
    expect(seen).toEqual({ looked: true, matched: false })
    // What runTool answers for a click whose deadline passed after such a sighting.
    const answer = actionDeadline("click")({ selector: "#nope", timeoutMs: 300 }, 300, seen)
    expect(answer._tag).toBe("TargetNotFound")
    expect(answer.message).toContain("No element matches selector:#nope")
  })
})

describe("a drag whose deadline comes before it settled", () => {
  const input = { testId: "card", to: { testId: "missing" }, timeoutMs: 1500 }
  it("answers MM_TARGET_NOT_FOUND naming the drop target when it was looked for and never matched, whichever wait was still running", () => {
    const answer = drag.onDeadline!(input as never, 1500, { looked: true, matched: true, to: { looked: true, matched: false } })
    expect(answer._tag).toBe("TargetNotFound")
    expect(answer.message).toContain("No element matches the drop target testId:missing")
  })
  it("answers from the source first, and MM_DRAG_TIMEOUT when both were seen", () => {
    expect(drag.onDeadline!(input as never, 1500, { looked: true, matched: false, to: { looked: true, matched: false } }).message).toContain("testId:card")
    expect(drag.onDeadline!(input as never, 1500, { looked: true, matched: true, to: { looked: true, matched: true } }).code).toBe("MM_DRAG_TIMEOUT")
  })
})
