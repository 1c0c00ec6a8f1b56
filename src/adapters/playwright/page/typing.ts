// In the page, for mm_type: how a field takes text (Playwright's fill, or keystrokes for an editor
// that reads keys, such as a code editor's role="textbox" element), whether the text arrived, and a
// watch of the app's reaction to it when the field drives a popup (a combobox, a search box with
// suggestions), which the caller waits for so that the answer shows the filtered options. Synchronous:
// a page with frozen timers answers too. Driven by session/actions.ts.
import { isSensitiveField } from "./fields.js"
import { notEditableWhy } from "./readiness.js"

/**
 * How text goes into the element: `text` (a text field, a text area, an editing host: filled, its last
 * character a real keystroke, so that keydown/keyup listeners hear it), `fill` (a date, number or other
 * input Playwright's fill formats), `keys` (an element that reads keystrokes, not an editing host), or
 * why it takes no text at all (a heading, a checkbox: see notEditableWhy).
 */
export const typingKind = (element: Element): "text" | "fill" | "keys" | { readonly notEditable: string } => {
  const why = notEditableWhy(element)
  if (why !== undefined) return { notEditable: why }
  if (element.localName === "textarea" || (element as HTMLElement).isContentEditable) return "text"
  if (element.localName === "input") {
    return ["", "text", "search", "email", "tel", "url", "password"].includes((element.getAttribute("type") ?? "").toLowerCase()) ? "text" : "fill"
  }
  const role = element.getAttribute("role")
  return role === "textbox" || role === "searchbox" || role === "combobox" ? "keys" : "fill"
}

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
  const drivesPopup =
    element.getAttribute("role") === "combobox" ||
    element.getAttribute("role") === "searchbox" ||
    element.hasAttribute("aria-controls") ||
    element.hasAttribute("aria-autocomplete") ||
    (element.hasAttribute("aria-haspopup") && element.getAttribute("aria-haspopup") !== "false") ||
    element.hasAttribute("list") ||
    (element.localName === "input" && (element as HTMLInputElement).type === "search")
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
  /** The field holds the text (or a formatting of it: every character, in order). */
  readonly arrived: boolean
  /** What the field holds instead, when it is not secret and the text did not arrive. */
  readonly holds?: string
}

/** Runs in the page on the field after typing (and its app's answer): stops the watch; whether the text arrived. */
export const typedState = (element: Element, text: string): Typed => {
  stopWatch(element)
  // By name, not instanceof: the direct path reads a field of a same-origin frame from the top document's realm.
  const value =
    element.localName === "input" || element.localName === "textarea"
      ? (element as HTMLInputElement).value
      : ((element as HTMLElement).innerText ?? element.textContent ?? "")
  // Every character typed, in order: a field that formats what it is given ("(555) 123-4567") still holds it.
  let at = 0
  for (const char of value) if (at < text.length && char === text[at]) at++
  const arrived = text === "" ? value === "" : value === text || at === text.length
  const holds = arrived || isSensitiveField(element) ? undefined : value.length > 80 ? `${value.slice(0, 79)}…` : value
  return { arrived, ...(holds !== undefined ? { holds } : {}) }
}

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
    return null
  }
  return typedState(element, text)
}
