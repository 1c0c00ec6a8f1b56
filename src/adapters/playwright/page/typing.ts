// In the page, for mm_type: how a field takes text (Playwright's fill, or keystrokes for an editor
// that reads keys, such as a code editor's role="textbox" element), whether the text arrived, and a
// watch of the app's reaction to it when the field drives a popup (a combobox, a search box with
// suggestions), which the caller waits for so that the answer shows the filtered options. Synchronous:
// a page with frozen timers answers too. Driven by session/actions.ts.
import { focusedElement } from "./dom.js"
import { isSensitiveField } from "./fields.js"
import { fieldText, inputValueOf, reactionNow, stopReaction, watchReaction, type Reaction } from "./reaction.js"
import { fieldValueFor, rangeValueFor } from "./field-values.js"
import { keyedControl, notEditableWhy } from "./readiness.js"

/** How text goes into an element: see typingKind. */
export type TypingKind =
  | "text"
  | "fill"
  | "keys"
  | "segments"
  | { readonly fill: string }
  | { readonly expected: string }
  | { readonly notEditable: string; readonly instead?: string }

/**
 * How `text` goes into the element: `text` (a text field, a text area, an editing host: filled, its last
 * character a real keystroke, so that keydown/keyup listeners hear it), `fill` (a number or other input
 * Playwright's fill takes as it is), `{fill}` (a date, time, month, week or range input: the text as it
 * takes it, page/field-values.ts), `keys` (an element that reads keystrokes, not an editing host),
 * `segments` (a segment of a date or time field: keys as a person types them, wherever the focus goes as
 * the field moves it to the next segment; see segmentsFrom),
 * `{expected}` (the text is no value such an input takes: what it takes), or why it takes no text at all
 * (a heading, a checkbox, a drawn slider: see notEditableWhy; `instead` says what works).
 */
export const typingKind = (element: Element, text: string): TypingKind => {
  const why = notEditableWhy(element)
  if (why !== undefined) {
    const keyed = keyedControl(element)
    return { notEditable: why, ...(keyed !== undefined ? { instead: keyed.keys } : {}) }
  }
  if (element.localName === "input") {
    const input = element as HTMLInputElement
    const type = (element.getAttribute("type") ?? "").toLowerCase()
    const locale = element.ownerDocument.defaultView?.navigator.language ?? "en-US"
    const step = input.step === "any" ? undefined : Number(input.step) > 0 ? Number(input.step) : 1
    const value = type === "range" ? rangeValueFor(text, Number(input.min || 0), Number(input.max || 100), step) : fieldValueFor(type, text, locale)
    if (value !== undefined) return "value" in value ? { fill: value.value } : value
  }
  if (segmentsFrom(element) !== undefined) return "segments"
  if (element.localName === "textarea" || (element as HTMLElement).isContentEditable) return "text"
  if (element.localName === "input") {
    return ["", "text", "search", "email", "tel", "url", "password"].includes((element.getAttribute("type") ?? "").toLowerCase()) ? "text" : "fill"
  }
  const role = element.getAttribute("role")
  return role === "textbox" || role === "searchbox" || role === "combobox" ? "keys" : "fill"
}

/** Whether the field drives a popup: role combobox or searchbox, aria-controls, aria-autocomplete, aria-haspopup, a `list`, a search input. */
const drivesAPopup = (element: Element): boolean =>
  element.getAttribute("role") === "combobox" ||
  element.getAttribute("role") === "searchbox" ||
  element.hasAttribute("aria-controls") ||
  element.hasAttribute("aria-autocomplete") ||
  (element.hasAttribute("aria-haspopup") && element.getAttribute("aria-haspopup") !== "false") ||
  element.hasAttribute("list") ||
  (element.localName === "input" && (element as HTMLInputElement).type === "search")

/** Where a field's reaction watch is kept (on the field, in the world of the script that set it). */
const WATCH = Symbol.for("browser-workflow-mcp/typing")

/** How long the caller waits for the app's first answer to the typing, by how surely the field drives a popup. */
const POPUP_FIRST_MS = 1_000
const SUGGESTIONS_FIRST_MS = 500

/**
 * Runs in the page on the field before typing: when it drives a popup (role combobox or searchbox,
 * aria-controls, aria-autocomplete, aria-haspopup, a `list`, a search input), or may show suggestions of
 * its page's own (a text input with the browser's autocomplete off, as jQuery UI's autocomplete and
 * other suggestion lists without ARIA set it), counts the changes of the page (the field's own
 * attributes aside) that come after the last key typed, so that the caller can wait for the app's
 * answer to the typing (a filter 300 ms after the last key). What the focus alone sets off (a combobox
 * that opens its full list when focused) comes before the last key and is no answer. Answers how long
 * to wait for a first answer (POPUP_FIRST_MS, SUGGESTIONS_FIRST_MS for the weaker sign), 0 for none.
 */
export const watchTyping = (element: Element): number => {
  const drivesPopup = drivesAPopup(element)
  // By name, not instanceof: the direct path watches a field of a same-origin frame from the top document's realm.
  const suggests =
    element.localName === "input" &&
    (element.getAttribute("autocomplete") ?? "").trim().toLowerCase() === "off" &&
    ["", "text"].includes((element.getAttribute("type") ?? "").toLowerCase())
  stopWatch(element)
  if (!drivesPopup && !suggests) return 0
  const watch: TypingWatch = {
    changes: 0,
    observer: new MutationObserver((records) => {
      if (records.some((record) => record.target !== element)) watch.changes++
    }),
    // Every key starts the count again: the answer wanted is the one to the last key (capture, so a page that stops the key still counts it).
    onKey: () => {
      watch.changes = 0
    }
  }
  watch.observer.observe(element.ownerDocument, { subtree: true, childList: true, characterData: true, attributes: true })
  element.ownerDocument.addEventListener("keydown", watch.onKey, true)
  Object.defineProperty(element, WATCH, { value: watch, configurable: true, enumerable: false, writable: true })
  return drivesPopup ? POPUP_FIRST_MS : SUGGESTIONS_FIRST_MS
}

interface TypingWatch {
  /** Changes since the last key (or since the watch began, before any key). */
  changes: number
  readonly observer: MutationObserver
  readonly onKey: () => void
}

export const stopWatch = (element: Element) => {
  const watch = (element as any)[WATCH] as TypingWatch | undefined
  if (watch === undefined) return
  watch.observer.disconnect()
  element.ownerDocument.removeEventListener("keydown", watch.onKey, true)
}

/**
 * Runs in the page on the field: how many times the page changed since the last key typed (since
 * watchTyping when no key was: a field filled whole); -1 when not watched.
 */
export const typingChanges = (element: Element): number => ((element as any)[WATCH] as TypingWatch | undefined)?.changes ?? -1

export interface Typed {
  /** The field holds the text (or a formatting of it), or an autocomplete's choice replaced it. */
  readonly arrived: boolean
  /** What the field holds instead, when it is not secret and the text did not arrive. */
  readonly holds?: string
  /** What the field shows when the text arrived in another form (a mask's format, an autocomplete's choice); never for a secret field. */
  readonly value?: string
  /** The field held the text at its last input event: the page changed it afterwards. */
  readonly held?: boolean
  /** The text the page added while it reacted (a message), newest last. */
  readonly said?: ReadonlyArray<string>
}

/** Letters and digits only, in lower case: a mask's or a format's additions and case do not count. */
const bare = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "")

/**
 * Whether `value` holds `text`: every letter and digit of it, in order, case aside (a mask's "(555)
 * 123-4567", a number's "1,000", "GERMANY" for "Germany"); text of neither letters nor digits must be there as it is.
 */
export const holdsText = (value: string, text: string): boolean => {
  // Cleared: an emptied editing host keeps a line break (innerText "\n") or a zero-width space its editor puts in.
  if (text === "") return value.replace(/[\s\u200b\ufeff]/g, "") === ""
  if (value === text) return true
  const [have, want] = bare(text) === "" ? [value, text] : [bare(value), bare(text)]
  let at = 0
  for (const char of have) if (at < want.length && char === want[at]) at++
  return at === want.length
}

const clipped = (value: string) => (value.length > 80 ? `${value.slice(0, 79)}…` : value)

/**
 * Runs in the page on the field after typing (and its app's answer): stops the watches; whether the text
 * arrived. A field that drives a popup and held the text, then shows something else (an autocomplete
 * that put its choice in), took it.
 */
export const typedState = (element: Element, text: string): Typed => {
  stopWatch(element)
  const input = inputValueOf(element)
  return verdictOn(element, text, input, stopReaction(element))
}

/** typedState's verdict on the field: what it holds, what it held at its last input event (`input`), and the page's words meanwhile. */
const verdictOn = (element: Element, text: string, input: string | undefined, said: ReadonlyArray<string>): Typed => {
  // A date or time field's segments: the text is spread over them (the field moved the focus on).
  const segments = segmentsFrom(element)
  if (segments !== undefined) {
    const { arrived, holds } = segmentsHold(segments, text)
    return arrived ? { arrived, ...(holds !== text ? { value: clipped(holds) } : {}) } : { arrived, holds: clipped(holds), ...(said.length > 0 ? { said } : {}) }
  }
  const value = fieldText(element)
  const held = input !== undefined && holdsText(input, text)
  const secret = isSensitiveField(element)
  const chosen = held && value.trim() !== "" && drivesAPopup(element)
  const arrived = holdsText(value, text) || chosen
  const extra = { ...(held && !arrived ? { held } : {}), ...(said.length > 0 && !arrived && !secret ? { said } : {}) }
  if (arrived) return { arrived, ...(value !== text && !secret ? { value: clipped(value) } : {}) }
  return { arrived, ...(secret ? {} : { holds: clipped(value) }), ...extra }
}

/**
 * The segments of a date or time field from `element` on: when it is a spin button that is no input (an
 * editing host or a focusable element that reads keys) in a group of such spin buttons (up to three
 * levels up), those from it to the group's last, in order; else undefined.
 */
export const segmentsFrom = (element: Element): ReadonlyArray<Element> | undefined => {
  const spin = (node: Element) => (node.getAttribute("role") ?? "").split(/\s+/).includes("spinbutton") && node.localName !== "input"
  if (!spin(element)) return undefined
  let scope = element.parentElement
  for (let level = 0; level < 3 && scope !== null; level++, scope = scope.parentElement) {
    const all = Array.from(scope.querySelectorAll("[role~=spinbutton]")).filter(spin)
    if (all.length > 1) return all.slice(all.indexOf(element))
  }
  return undefined
}

/**
 * Whether segments hold the text typed into them: its numbers (a run of digits split by each segment's
 * width, the digits of its aria-valuemax: "03142025" is 03, 14, 2025) and words ("PM") in order, a
 * number equal to its segment's aria-valuenow, a word the start of its segment's text; and what they hold.
 */
const segmentsHold = (segments: ReadonlyArray<Element>, text: string): { readonly arrived: boolean; readonly holds: string } => {
  const tokens = text.match(/\d+|\p{L}+/gu) ?? []
  const holds = segments.map((segment) => normalizedText(segment)).join(" ")
  let at = 0
  for (const segment of segments) {
    const token = tokens[at]
    if (token === undefined) break
    if (/^\d/.test(token)) {
      const max = segment.getAttribute("aria-valuemax")
      const width = max !== null && /^\d+$/.test(max) ? max.length : 2
      const [taken, left] = token.length > width ? [token.slice(0, width), token.slice(width)] : [token, undefined]
      if (Number(taken) !== Number(segment.getAttribute("aria-valuenow"))) return { arrived: false, holds }
      if (left !== undefined) tokens[at] = left
      else at++
    } else {
      if (!normalizedText(segment).toLowerCase().startsWith(token.toLowerCase())) return { arrived: false, holds }
      at++
    }
  }
  return { arrived: tokens.length > 0 && at === tokens.length, holds }
}

const normalizedText = (element: Element) => ((element as HTMLElement).innerText ?? element.textContent ?? "").replace(/\s+/g, " ").trim()

/** Where the direct path keeps the field it prepared for typing, under the action's token (in our world). */
const TYPING_TARGET = Symbol.for("browser-workflow-mcp/typing-target")

/** Runs in the page when the direct path prepared `element` for typing: kept for the reads below, one at a time. */
export const keepTypingTarget = (element: Element, token: string): void => {
  Object.defineProperty(window, TYPING_TARGET, { value: { token, element }, enumerable: false, configurable: true, writable: true })
}

const keptTarget = (token: string): Element | undefined => {
  const kept = (window as any)[TYPING_TARGET] as { readonly token: string; readonly element: Element } | undefined
  return kept !== undefined && kept.token === token ? kept.element : undefined
}

/** Runs in the page (our world): typingChanges of the field the direct path typed into under `token`; -1 when it is not kept. */
export const keptTypingChanges = (token: string): number => {
  const element = keptTarget(token)
  return element === undefined ? -1 : typingChanges(element)
}

/**
 * Runs in the page (our world): typedState of the field the direct path typed into under `token`, and it
 * is kept no longer; null when it is not kept (the document went away) or left the page.
 */
export const keptTypedState = (token: string, text: string): Typed | null => {
  const element = keptTarget(token)
  ;(window as any)[TYPING_TARGET] = undefined
  if (element === undefined) return null
  if (!element.isConnected) {
    stopWatch(element)
    stopReaction(element)
    return null
  }
  return typedState(element, text)
}

/**
 * Runs in the page (our world), in the trip that finishes the direct type's guard: typedState of the field
 * kept under `token`, ending nothing and keeping it (null when it is not kept or left the page). Sent along
 * with the main world's first look at the reaction (firstFieldLook), it is the verdict when that look finds
 * the reaction over (the page did nothing, so the field is as it was at the look); otherwise it is dropped
 * and the field is read again once the page settled (keptTypedState).
 */
export const peekTypedState = (token: string, text: string): Typed | null => {
  const element = keptTarget(token)
  if (element === undefined || !element.isConnected) return null
  return verdictOn(element, text, inputValueOf(element), [])
}

/**
 * The field whose page's reaction the direct path watches in the page's main world. This code is installed
 * there once per document and held by our DevTools session only (main-world.ts): its module state is its
 * own, out of the page's reach (no global names it).
 */
let reactionField: Element | undefined

/**
 * Runs in the page's main world, where its timers, fetch and XMLHttpRequest are (the direct path
 * prepared the field in our isolated world, which has its own): starts the watch of the page's
 * reaction to typing into the focused field (down through shadow roots and same-origin frames), kept
 * for the reads below, ending the one an earlier start kept. Answers when it started (performance.now(),
 * the clock of the top document, which the direct path compares with when it focused the field); false
 * when no field has the focus.
 */
export const startFieldReaction = (): number | false => {
  stopFieldReaction()
  const active = focusedElement()
  if (active === null || active === active.ownerDocument.body) return false
  watchReaction(active, true)
  reactionField = active
  return performance.now()
}

/** Runs in the page's main world: ends the watch startFieldReaction began, if any (the direct path handed over before any input). */
export const stopFieldReaction = (): void => {
  const element = reactionField
  reactionField = undefined
  if (element !== undefined) stopReaction(element)
}

/** Runs in the page's main world: the reaction so far to typing into the field startFieldReaction watches; null when none. */
export const fieldReactionNow = (): Reaction | null => (reactionField === undefined ? null : reactionNow(reactionField))

/** Runs in the page's main world: typedState of the field startFieldReaction watches, kept no longer; null when none or it left the page. */
export const fieldTypedState = (text: string): Typed | null => {
  const element = reactionField
  reactionField = undefined
  if (element === undefined) return null
  if (!element.isConnected) {
    stopReaction(element)
    return null
  }
  return typedState(element, text)
}

/** The first look at the reaction, with the field's read-back when the reaction is over at that look. */
export type FirstLook = Reaction & { readonly typed?: Typed | null }

/**
 * Runs in the page's main world: the first look at the reaction to typing (fieldReactionNow). When the page
 * did nothing at all since the watch began (no short timer pending, no request open, no change of its DOM),
 * its reaction is over at this look (session/reaction.ts awaitSettled, eager, ends there on the same
 * condition), and the field's read-back (fieldTypedState) comes in the same trip. A page that reacts is
 * waited for as before, and read back once it settled.
 */
export const firstFieldLook = (text: string): FirstLook | null => {
  const now = fieldReactionNow()
  if (now === null || now.timers > 0 || now.requests > 0 || now.changed) return now
  return { ...now, typed: fieldTypedState(text) }
}
