// get_text and wait_for through our own page script (page/actions.ts prepareAction), looked at again
// until the call's wait ends: no Playwright locator, so Playwright never injects its own script (some
// 350 KB, compiled in each document and world it reaches) for them. What our script cannot tell (a
// selector it does not read as plain CSS, open shadow roots, a test id that may be in a cross-origin
// frame, a ref that left the page, a page that does not answer) goes to Playwright's path, which explains.
import { Effect, Option } from "effect"
import type { Page } from "playwright"
import { TargetAmbiguous, TargetNotFound, WaitTimeout } from "../../../domain/errors.js"
import { describeTarget, type Target } from "../../../domain/target.js"
import { noteSighting, waitWithin } from "../../../services/Deadline.js"
import type { DirectResult } from "../page-actions.js"
import type { DirectActions } from "./direct.js"
import { separateFrames } from "./frames.js"
import { missingSettles, QUIET_MS } from "./readiness.js"

/** The pauses between looks, growing: a target that shows soon is seen soon, a long wait costs few looks. */
const POLL_MS = [20, 50, 100, 100, 250] as const
/** Kept from the wait to answer before the call's deadline does. */
const RESERVE_MS = 100

/** Reasons a look may end otherwise later, as the page changes: looked at again. Any other goes to Playwright's path. */
const WAITING: ReadonlySet<string> = new Set(["no match", "not visible", "still visible"])

export type Ready = Extract<DirectResult, { readonly ready: true }>

const pauseAfter = (look: number) => POLL_MS[Math.min(look, POLL_MS.length - 1)]!

/** Whether our script is the one to ask: the direct path is on, and a test id is not perhaps in a cross-origin frame (Playwright's path looks there). */
const ours = (direct: DirectActions, page: Page, target: Target) =>
  direct.enabled && !(target.locator.kind === "testId" && separateFrames(page).length > 0)

/** get_text goes to Playwright's read, saying why (a debug line, as the actions' hand-overs). */
const handOver = (why: string) =>
  Effect.as(Effect.logDebug(`get_text: ${why}; Playwright's read takes over`), Option.none<NonNullable<Ready["read"]>>())

/**
 * get_text's read of the one element the target names, as Playwright's would: it waits for an element
 * (MM_TARGET_NOT_FOUND once the page showed none for QUIET_MS with nothing loading, or at the end of the
 * wait), fails at once when several match (strict), and reads a hidden element as empty with how it is
 * hidden. None: Playwright's path is to read it.
 */
export const readTextDirect = (direct: DirectActions, page: Page, target: Target, timeoutMs: number) =>
  Effect.gen(function* () {
    if (!ours(direct, page, target)) return yield* handOver(direct.enabled ? "a test id on a page with cross-origin frames" : "the action path is playwright")
    const described = describeTarget(target)
    const waitMs = yield* waitWithin(timeoutMs, RESERVE_MS)
    const started = Date.now()
    const settled = missingSettles(page)
    for (let look = 0; ; look++) {
      const result = yield* direct.prepare(page, "text", target, waitMs)
      if (result.ready === true && result.read !== undefined) {
        yield* noteSighting(1)
        return Option.some(result.read)
      }
      if (result.ready !== false) return yield* handOver("not ready")
      if (result.why === "ambiguous") {
        yield* noteSighting(result.count ?? 2)
        return yield* new TargetAmbiguous({ target: described, count: result.count ?? 2 })
      }
      if (result.why !== "no match") return yield* handOver(result.why)
      yield* noteSighting(0)
      if (yield* settled) {
        return yield* new TargetNotFound({ target: described, detail: `No element matches ${described} (the page showed none for ${QUIET_MS} ms, with nothing loading).` })
      }
      if (Date.now() - started + pauseAfter(look) >= waitMs) {
        return yield* new TargetNotFound({ target: described, detail: `No element matches ${described} (waited ${waitMs} ms).` })
      }
      yield* Effect.sleep(pauseAfter(look))
    }
  })

/**
 * wait_for's wait on any of the target's matches (visible once one is, hidden once none is), with the
 * page's state (and, with `describe`, the target's durable forms) read in the trip that saw it:
 * MM_WAIT_TIMEOUT at the end of the wait. None: Playwright's path is to wait, with `leftMs` of the wait.
 */
export const waitDirect = (
  direct: DirectActions,
  page: Page,
  state: "visible" | "hidden",
  target: Target,
  timeoutMs: number,
  describe: boolean
) =>
  Effect.gen(function* () {
    const started = Date.now()
    const left = () => Math.max(1, timeoutMs - (Date.now() - started))
    if (!ours(direct, page, target)) {
      yield* Effect.logDebug(`wait_for: ${direct.enabled ? "a test id on a page with cross-origin frames" : "the action path is playwright"}; Playwright's wait takes over`)
      return { leftMs: left() }
    }
    const waitMs = yield* waitWithin(timeoutMs, RESERVE_MS)
    for (let look = 0; ; look++) {
      const prepared = yield* direct.prepare(page, state, target, waitMs, "", describe)
      if (prepared.ready === true) return { ready: prepared }
      if (prepared.ready !== false || !WAITING.has(prepared.why)) {
        yield* Effect.logDebug(`wait_for: ${prepared.ready === false ? prepared.why : "not ready"}; Playwright's wait takes over`)
        return { leftMs: left() }
      }
      if (Date.now() - started + pauseAfter(look) >= waitMs) {
        const timedOut = new WaitTimeout({ target: describeTarget(target), state, timeoutMs })
        // As Playwright's path logs its failed wait (the logger redacts secrets, as in answers).
        yield* Effect.logDebug("wait_for failed", timedOut.message)
        return yield* timedOut
      }
      yield* Effect.sleep(pauseAfter(look))
    }
  })
