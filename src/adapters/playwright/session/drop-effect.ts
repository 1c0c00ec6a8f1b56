// Whether a drag did anything (mm_drag): the document of its source, fingerprinted before the press
// (page/fingerprint.ts) and again after the release until it settles. A drop that left the page as it was is
// no success: the drag fails with what happened instead of answering an ok nobody saw.
import type { Frame, Locator, Page } from "playwright"
import { within } from "../calls.js"
import { requestsInFlight } from "../lifecycle/live-session.js"
import { PAGE } from "../page-bundle.js"
import { elementFunction } from "../page-script.js"

/**
 * The longest the page may take to show a drop's effect, how often it is looked at, and how much longer an
 * animation that will end may hold the verdict (a page that animates all the time, a carousel, does not
 * keep a refused drop waiting for the whole deadline).
 */
export const DROP_EFFECT = { capMs: 1_500, pollMs: 60, animationMs: 4_000 } as const

const fingerprintOf = elementFunction<undefined, string | null>(PAGE.documentFingerprint)
const drawsOnCanvas = elementFunction<undefined, boolean>(PAGE.drawsOnCanvas)
const documentFingerprint = `(${PAGE.documentFingerprint})(document.documentElement)`

/** How long the page is still looked at once the animations it ran ended. */
const ANIMATION_END_MS = 300

/** The longest one look at the page may take: a page that does not answer in time is not judged. */
const LOOK_MS = 1_000

/** A drag being judged: the source's frame and its document's fingerprint before the press. */
export interface DropWatch {
  readonly frame: Frame
  readonly before: string
}

/**
 * Before the press: the watch on the source's document, or undefined when nothing can be judged (the drag
 * draws on a canvas, the document is too large, the page did not answer).
 */
export const watchDrop = (source: Locator, destination: Locator, timeout: number): Promise<DropWatch | undefined> =>
  within(
    (async () => {
      const handle = await source.elementHandle({ timeout })
      try {
        const frame = await handle.ownerFrame()
        if (frame === null || (await handle.evaluate(drawsOnCanvas, undefined))) return undefined
        if (await destination.evaluate(drawsOnCanvas, undefined, { timeout })) return undefined
        const before = await handle.evaluate(fingerprintOf, undefined)
        return before === null ? undefined : { frame, before }
      } finally {
        await handle.dispose().catch(() => undefined)
      }
    })().catch(() => undefined),
    Math.min(timeout, LOOK_MS * 2),
    undefined
  )

/**
 * Waits for the next frames the source's document paints, so that the page handled a move before the next
 * one is sent (a busy browser otherwise merges two moves into one pointermove, and a library that hit-tests
 * on the previous position never saw the pointer over the drop target). Bounded: a page whose frames stall
 * only delays the drag.
 */
export const nextPaint = (frame: Frame | undefined): Promise<void> =>
  frame === undefined
    ? Promise.resolve()
    : within(
        frame.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())))).catch(() => undefined),
        250,
        undefined
      )

/**
 * Whether the document runs an animation or transition that will end (a spinner's endless one does not
 * count): a drop that animates the item into place before the document shows it is waited for.
 */
const finiteAnimationRuns = `document.getAnimations().some((a) => a.playState === "running" && a.effect !== null && a.effect.getComputedTiming().endTime !== Infinity)`

const animating = (frame: Frame, ms: number): Promise<boolean> =>
  within(
    frame.evaluate(finiteAnimationRuns).then(
      (runs) => runs === true,
      () => false
    ),
    ms,
    false
  )

/**
 * After the release: whether the document changed and settled (two looks alike, unlike the one before), or
 * still changes at the cap; a document that went away (the drop navigated) changed. False only when the page
 * shows what it showed before the press, and has no request the drag started still in flight nor an
 * animation that will end still running (a drop that saves, or animates, first and shows after is waited
 * for, within `budgetMs`).
 */
export const dropChanged = async (page: Page, watch: DropWatch, pressedAt: number, budgetMs: number): Promise<boolean> => {
  const started = Date.now()
  const cap = started + Math.max(0, Math.min(DROP_EFFECT.capMs, budgetMs))
  const until = started + Math.max(0, budgetMs)
  let last: string | null | undefined
  let lookAgainUntil = 0
  for (;;) {
    const now = await within(
      watch.frame.evaluate(documentFingerprint).then(
        (print) => print as string | null,
        () => "gone"
      ),
      Math.min(LOOK_MS, until - Date.now()),
      null
    )
    // A page that cannot say (too large, or no answer in time) is not judged; one that went away changed.
    if (now === null || (now !== watch.before && now === last)) return true
    const time = Date.now()
    if (time >= until) return now !== watch.before
    if (time >= cap && requestsInFlight(page, time - pressedAt) === 0) {
      // An animation's end and what the page does on it (a `finished` callback) are a frame or two apart.
      if (time < cap + DROP_EFFECT.animationMs && (await animating(watch.frame, Math.min(LOOK_MS, until - time)))) lookAgainUntil = Date.now() + ANIMATION_END_MS
      else if (Date.now() >= lookAgainUntil) return now !== watch.before
    }
    last = now
    await new Promise((resolve) => setTimeout(resolve, DROP_EFFECT.pollMs))
  }
}
