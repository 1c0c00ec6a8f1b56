// In the page (our world): one look of the readiness watch (session/readiness.ts) at an action's target,
// found as the direct path finds it (locate.ts), without Playwright's injected script: how many elements
// match and, for one, whether it can take the action now or why not (readiness.ts), with how long the
// page's DOM has been quiet (which only our world's watch knows) and whether anything is animating.
import { parentOf } from "./dom.js"
import { findTargets } from "./locate.js"
import { canScrollAround, diagnose, shownQuietMs, type Readiness, type ReadinessArgs } from "./readiness.js"
import type { DirectLocator } from "./types.js"

export interface LookArgs extends ReadinessArgs {
  readonly locator: DirectLocator
  readonly within: DirectLocator | null
  readonly testIdAttribute: string
}

export type Look =
  /** This path cannot tell which elements the target names (a selector only Playwright reads): ask Playwright's. */
  | { readonly unknown: string }
  /** The ref's element left the page. */
  | { readonly gone: true; readonly quietMs?: number; readonly animating: boolean }
  | { readonly count: number; readonly quietMs?: number; readonly animating: boolean }
  | {
      readonly count: 1
      readonly verdict: Readiness
      readonly box?: string
      readonly quietMs?: number
      readonly animating: boolean
      /** A covered target that a scroll could move (Playwright's action tries other scroll positions). */
      readonly scrolls?: true
    }

/**
 * Runs in the page: whether an animation or transition runs that may still change what the look saw: one
 * that ends (a slide, a fade, a transition), or any on the target or around it (an endless spinner
 * elsewhere changes nothing about it).
 */
const animating = (document: Document, target: Element | undefined): boolean => {
  const around = new Set<Element>()
  for (let node: Element | null = target ?? null; node !== null; node = parentOf(node)) around.add(node)
  return document.getAnimations().some((animation) => {
    if (animation.playState !== "running") return false
    const element = (animation.effect as KeyframeEffect | null)?.target ?? null
    if (element !== null && around.has(element)) return true
    return Number.isFinite(animation.effect?.getComputedTiming().endTime ?? Infinity)
  })
}

/** Runs in the page: one look at the target (see Look). */
export const lookAtTarget = (args: LookArgs): Look => {
  const matches = findTargets(args)
  const quietMs = shownQuietMs(document)
  const quiet = quietMs === undefined ? {} : { quietMs }
  if (!Array.isArray(matches)) {
    return matches.ready === false && matches.staleRef === true ? { gone: true, ...quiet, animating: animating(document, undefined) } : { unknown: matches.ready === false ? matches.why : "not ready" }
  }
  if (matches.length !== 1) return { count: matches.length, ...quiet, animating: animating(document, undefined) }
  const element = matches[0]!
  // The quiet of the element's own document (a frame's DOM changes in its own).
  const { verdict, box, quietMs: own } = diagnose(element, { action: args.action, through: args.through })
  const scrolls = verdict.ready === false && verdict.reason === "covered" && canScrollAround(element)
  return {
    count: 1,
    verdict,
    ...(box !== undefined ? { box } : {}),
    ...(own !== undefined ? { quietMs: own } : {}),
    animating: animating(element.ownerDocument, element),
    ...(scrolls ? { scrolls: true as const } : {})
  }
}
