// Errors of the page and what is done on it: navigation, targets, per-action timeouts and failures (one
// class per kind, the action a field), waits, assertions, reading and capturing the page.
import { Schema } from "effect"
import { clip } from "./clip.js"

export class PageClosed extends Schema.TaggedError<PageClosed>()("PageClosed", {
  detail: Schema.String,
  /** The action the page closed during, when it closed while one ran. */
  during: Schema.optional(Schema.String)
}) {
  get code() {
    return "MM_PAGE_CLOSED" as const
  }
  override get message() {
    return `The page closed: ${this.detail}. Call mm_get_state to see the open tabs.`
  }
}

/** The page's main thread does not answer: a script of the page runs without end (`while (true)`) or the renderer hangs. */
export class PageUnresponsive extends Schema.TaggedError<PageUnresponsive>()("PageUnresponsive", {
  /** What could not be done, e.g. "the page could not be read". */
  detail: Schema.String
}) {
  get code() {
    return "MM_PAGE_UNRESPONSIVE" as const
  }
  override get message() {
    return `The page does not respond (${this.detail}): a script of the page keeps its main thread busy. Call mm_navigate with screen "reload" (or another URL) to leave it, or mm_launch with force: true.`
  }
}

export class NavigationFailed extends Schema.TaggedError<NavigationFailed>()("NavigationFailed", {
  url: Schema.String,
  detail: Schema.String
}) {
  get code() {
    return "MM_NAVIGATION_FAILED" as const
  }
  override get message() {
    return `Navigation to ${clip(this.url)} failed: ${clip(this.detail, 500)}`
  }
  get details() {
    return { url: this.url }
  }
}

/** A URL the server's URL policy refuses (scheme, origin, or a file outside the allowed roots). */
export class NavigationBlocked extends Schema.TaggedError<NavigationBlocked>()("NavigationBlocked", {
  url: Schema.String,
  reason: Schema.String,
  hint: Schema.String
}) {
  get code() {
    return "MM_NAVIGATION_BLOCKED" as const
  }
  override get message() {
    return `Blocked ${this.url}: ${this.reason} ${this.hint}`
  }
  get details() {
    return { url: this.url }
  }
}

const REFS_LISTED = " Available refs: "

/** A not-found message whose list of refs gives way to the page text the answer carries beside it (nothing said twice). */
export const refsShownBelow = (message: string): string => {
  const at = message.indexOf(REFS_LISTED)
  return at < 0 ? message : `${message.slice(0, at)} The page's current refs are in the page text below.`
}

const RefSummary = Schema.Struct({ ref: Schema.String, role: Schema.String, name: Schema.String })

export class TargetNotFound extends Schema.TaggedError<TargetNotFound>()("TargetNotFound", {
  target: Schema.String,
  detail: Schema.String,
  availableRefs: Schema.optional(Schema.Array(RefSummary))
}) {
  get code() {
    return "MM_TARGET_NOT_FOUND" as const
  }
  override get message() {
    if (this.availableRefs !== undefined) {
      const refs = this.availableRefs.map((node) => node.ref).join(", ")
      return `${this.detail}${REFS_LISTED}${refs === "" ? "(none)" : refs}. Call mm_describe_screen or mm_find for current refs.`
    }
    return `${this.detail} Call mm_describe_screen to see what is on the page.`
  }
  get details() {
    return { target: this.target, ...(this.availableRefs ? { availableRefs: this.availableRefs } : {}) }
  }
}

/** One of the elements an ambiguous target matches: its ref (bound when the error was made), role and short name. */
export const AmbiguousCandidate = Schema.Struct({
  ref: Schema.String,
  role: Schema.String,
  /** Its accessible name (its text when it has none), truncated. */
  name: Schema.String,
  /** Present when nobody sees it (display: none, visibility: hidden, no size). */
  hidden: Schema.optional(Schema.Literal(true))
})
export type AmbiguousCandidate = typeof AmbiguousCandidate.Type

const candidateText = (candidate: AmbiguousCandidate) =>
  `${candidate.ref} ${candidate.role}${candidate.name === "" ? "" : ` ${JSON.stringify(candidate.name)}`}${candidate.hidden === true ? " (hidden)" : ""}`

export class TargetAmbiguous extends Schema.TaggedError<TargetAmbiguous>()("TargetAmbiguous", {
  target: Schema.String,
  count: Schema.Number,
  /** The first few matches with their refs, when the page could name them. */
  candidates: Schema.optional(Schema.Array(AmbiguousCandidate))
}) {
  get code() {
    return "MM_TARGET_AMBIGUOUS" as const
  }
  override get message() {
    const listed = this.candidates ?? []
    if (listed.length === 0) {
      return `${this.target} matches ${this.count} elements. Name one: a ref from the page text or mm_find, a narrower selector (">> nth=0" is the first match), or "within" a parent.`
    }
    const more = this.count > listed.length ? `, and ${this.count - listed.length} more` : ""
    return `${this.target} matches ${this.count} elements: ${listed.map(candidateText).join(", ")}${more}. Retry with one of these refs as a11yRef, a narrower selector (">> nth=0" is the first match), or "within" a parent.`
  }
  get details() {
    const refs = (this.candidates ?? []).map((candidate) => candidate.ref)
    return { target: this.target, count: this.count, ...(refs.length > 0 ? { refs } : {}) }
  }
}

/**
 * The per-action codes (MM_CLICK_TIMEOUT, MM_TYPE_FAILED...) derive from the action's name: an action a
 * port adds gets its codes without a table here. Three stems are older than that rule and stay as clients know them.
 */
const LEGACY_CODE_STEMS: Readonly<Record<string, string>> = { get_text: "GETTEXT", select_option: "SELECT", upload_file: "UPLOAD" }

/** The code of an action's failure of the given kind, e.g. MM_CLICK_TIMEOUT. */
export const actionCode = (action: string, kind: "TIMEOUT" | "FAILED"): `MM_${string}_${typeof kind}` =>
  `MM_${LEGACY_CODE_STEMS[action] ?? action.toUpperCase()}_${kind}`

/**
 * Why a target found in the page could not take an action yet, as the page said (see session/readiness.ts
 * in the adapters): conditions that time or another action may end. A target that cannot take it as it
 * is (disabled, read-only, not a field) is TargetUnusable instead.
 */
export const NotReadyReason = Schema.Literal("covered", "clipped", "off-screen", "moving")
export type NotReadyReason = typeof NotReadyReason.Type

/** What an agent can do about each reason. */
const notReadyHint: Readonly<Record<NotReadyReason, string>> = {
  covered: "Close or finish what covers it (mm_describe_screen shows it), or act on that element.",
  clipped: "Scroll the container that clips it (mm_scroll) or open what holds it.",
  "off-screen": "Open or scroll to the part of the page that shows it.",
  moving: "Wait for it to settle (mm_wait_for), or raise timeoutMs."
}

export class ActionTimeout extends Schema.TaggedError<ActionTimeout>()("ActionTimeout", {
  /** The action as the port names it, e.g. "click" or "select_option". */
  action: Schema.String,
  target: Schema.String,
  timeoutMs: Schema.Number,
  /** Why it cannot take the action, when the page said: then the call answered as soon as that was settled. */
  reason: Schema.optional(NotReadyReason),
  /** The reason in words, e.g. `covered by <div class="overlay">, which intercepts pointer events at its click point`. */
  detail: Schema.optional(Schema.String)
}) {
  get code() {
    return actionCode(this.action, "TIMEOUT")
  }
  override get message() {
    if (this.reason !== undefined && this.detail !== undefined) {
      return `${this.target} cannot take the ${this.action}: ${clip(this.detail, 300)}. ${notReadyHint[this.reason]}`
    }
    return `${this.target} was found but did not become ready for ${this.action} within ${this.timeoutMs} ms (hidden, disabled, covered or moving). Check it with mm_describe_screen or raise timeoutMs.`
  }
  get details() {
    return { target: this.target, ...(this.reason !== undefined ? { reason: this.reason } : { timeoutMs: this.timeoutMs }) }
  }
}

/** Why a target cannot take an action as it is: no waiting changes that. */
export const UnusableReason = Schema.Literal("disabled", "read-only", "not-editable")
export type UnusableReason = typeof UnusableReason.Type

const unusableHint: Readonly<Record<UnusableReason, string>> = {
  disabled: "Do first what enables it (a required field, a choice above it), then try again.",
  "read-only": "The page sets its value, not typing: use the control that sets it (when a click on it opens a picker, choose there), or another field.",
  "not-editable": "Type into a field (a textbox, a text area, an editable element): mm_find {role: \"textbox\"} lists them."
}

/**
 * A target found in the page that cannot take the action as it is (answered at once, or as soon as the
 * page said so): disabled (MM_TARGET_DISABLED), read-only or no field at all for typing (MM_TARGET_NOT_EDITABLE).
 */
export class TargetUnusable extends Schema.TaggedError<TargetUnusable>()("TargetUnusable", {
  action: Schema.String,
  target: Schema.String,
  reason: UnusableReason,
  /** The reason in words, e.g. "it is read-only" or "it is a heading, not a field". */
  detail: Schema.String,
  /** What works on this target instead, when the page knows (the keys that set a drawn slider): replaces the reason's general hint. */
  instead: Schema.optional(Schema.String)
}) {
  get code() {
    return this.reason === "disabled" ? ("MM_TARGET_DISABLED" as const) : ("MM_TARGET_NOT_EDITABLE" as const)
  }
  override get message() {
    return `${this.target} cannot take the ${this.action}: ${clip(this.detail, 300)}. ${this.instead ?? unusableHint[this.reason]}`
  }
  get details() {
    return { target: this.target, reason: this.reason }
  }
}

export class ActionFailed extends Schema.TaggedError<ActionFailed>()("ActionFailed", {
  action: Schema.String,
  target: Schema.String,
  detail: Schema.String
}) {
  get code() {
    return actionCode(this.action, "FAILED")
  }
  override get message() {
    return `${this.action} on ${this.target} failed: ${clip(this.detail, 500)}`
  }
  get details() {
    return { target: this.target }
  }
}

/**
 * An action's input was sent but nothing showed that it reached its target (the page went away
 * without saying, or no event of it arrived where the target is): it was not repeated, since it
 * may have taken effect elsewhere.
 */
export class ActionUnconfirmed extends Schema.TaggedError<ActionUnconfirmed>()("ActionUnconfirmed", {
  action: Schema.Literal("click", "type", "press_key"),
  target: Schema.String,
  detail: Schema.String
}) {
  get code() {
    return "MM_ACTION_UNCONFIRMED" as const
  }
  override get message() {
    return `The ${this.action} on ${this.target} was sent, but ${this.detail}. It was not repeated, since it may have taken effect elsewhere: look at the page (mm_describe_screen) before acting again.`
  }
  get details() {
    return { action: this.action, target: this.target }
  }
}

export class WaitTimeout extends Schema.TaggedError<WaitTimeout>()("WaitTimeout", {
  target: Schema.String,
  state: Schema.String,
  timeoutMs: Schema.Number
}) {
  get code() {
    return "MM_WAIT_TIMEOUT" as const
  }
  override get message() {
    return `${this.target} did not become ${this.state} within ${this.timeoutMs} ms. Call mm_describe_screen to see the page, or raise timeoutMs.`
  }
  get details() {
    return { target: this.target, state: this.state, timeoutMs: this.timeoutMs }
  }
}

/** A web-first assertion (mm_expect) still did not hold when its time ran out: what was expected and what was there. */
export class AssertionFailed extends Schema.TaggedError<AssertionFailed>()("AssertionFailed", {
  condition: Schema.String,
  target: Schema.optional(Schema.String),
  expected: Schema.String,
  actual: Schema.String,
  timeoutMs: Schema.Number
}) {
  get code() {
    return "MM_ASSERTION_FAILED" as const
  }
  override get message() {
    const on = this.target === undefined ? "" : ` on ${this.target}`
    return `Assertion ${this.condition}${on} failed: expected ${this.expected}, got ${this.actual} (retried for ${this.timeoutMs} ms).`
  }
  get details() {
    return {
      condition: this.condition,
      ...(this.target !== undefined ? { target: this.target } : {}),
      expected: this.expected,
      actual: this.actual
    }
  }
}

export class ScreenshotFailed extends Schema.TaggedError<ScreenshotFailed>()("ScreenshotFailed", {
  detail: Schema.String
}) {
  get code() {
    return "MM_SCREENSHOT_FAILED" as const
  }
  override get message() {
    return `Screenshot failed: ${this.detail}`
  }
}

export class DiscoveryFailed extends Schema.TaggedError<DiscoveryFailed>()("DiscoveryFailed", {
  detail: Schema.String
}) {
  get code() {
    return "MM_DISCOVERY_FAILED" as const
  }
  override get message() {
    return `Could not read the page: ${this.detail}`
  }
}

export class StateFailed extends Schema.TaggedError<StateFailed>()("StateFailed", {
  detail: Schema.String
}) {
  get code() {
    return "MM_STATE_FAILED" as const
  }
  override get message() {
    return `Could not read the browser state: ${this.detail}`
  }
}

/** The page could not be printed to PDF (a headed browser, a failed print, an unwritable file). */
export class PdfFailed extends Schema.TaggedError<PdfFailed>()("PdfFailed", {
  detail: Schema.String
}) {
  get code() {
    return "MM_PDF_FAILED" as const
  }
  override get message() {
    return `Could not save a PDF: ${this.detail}`
  }
}
