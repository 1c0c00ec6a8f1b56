// The screenshot recorded with a step (the `stepScreenshots` setting): which steps get one, and taking it
// within a bounded time. A capture that fails never changes the call's outcome.
import { Cause, Clock, Effect } from "effect"
import type { Settings } from "../domain/config.js"
import type { ToolError } from "../domain/errors.js"
import type { ObservationPolicy } from "../domain/observation.js"
import { Session } from "../services/Session.js"

/** A step's screenshot: a small viewport JPEG, taken within a bounded time. */
const STEP_SCREENSHOT = { quality: 50, timeoutMs: 1_500, limit: "2 seconds" } as const

/** After these the page cannot be captured, or the call never reached it: no step screenshot. */
const reachedNoPage = (error: ToolError): boolean => {
  switch (error._tag) {
    case "PageClosed":
    case "NoActiveSession":
    case "LaunchFailed":
    case "SessionAlreadyRunning":
    case "InvalidInput":
    case "PageUnresponsive":
      return true
    default:
      return false
  }
}

/** Whether the `stepScreenshots` setting wants a screenshot of this step: for failures (the default) or for every step of a tool that looks at the page. */
export const wantsStepScreenshot = (
  mode: Settings["stepScreenshots"],
  observation: ObservationPolicy,
  outcome: { readonly ok: true } | { readonly ok: false; readonly cause: ToolError | undefined }
): boolean =>
  mode !== "off" && observation !== "none" && (outcome.ok ? mode === "all" : outcome.cause === undefined || !reachedNoPage(outcome.cause))

/**
 * The screenshot recorded with a step: a viewport JPEG with field text drawn as dots, so nothing typed
 * shows. A capture that fails or takes too long is skipped; it never changes the call's outcome.
 */
export const stepScreenshot = (tool: string, sessionId: string) =>
  Effect.gen(function* () {
    const session = yield* Session
    const unique = Math.random().toString(36).slice(2, 8)
    const shot = yield* session.screenshot({
      name: `step-${sessionId}-${yield* Clock.currentTimeMillis}-${unique}-${tool}`,
      fullPage: false,
      format: "jpeg",
      quality: STEP_SCREENSHOT.quality,
      timeoutMs: STEP_SCREENSHOT.timeoutMs,
      hideFieldText: true
    })
    return shot.path
  }).pipe(
    Effect.timeout(STEP_SCREENSHOT.limit),
    Effect.catchAllCause((cause) => Effect.logDebug(`${tool}: no step screenshot`, Cause.pretty(cause)).pipe(Effect.as(undefined)))
  )
