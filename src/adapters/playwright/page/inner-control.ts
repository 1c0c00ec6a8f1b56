// In the page: the control a person clicks when asked to click a cell, a header or a list item whose own
// element shows no sign of taking clicks (a grid's column header whose sorter is a component inside it, a cell
// holding one link): the one clickable element inside it that carries the words that name it. Also the
// watch that tells whether a click through that control had an effect. Driven by session/inner-control.ts;
// page/actions.ts hands such a click over to it.
import { makeAria, type Aria } from "./aria.js"
import { textAlternative } from "./names.js"
import { previewElement } from "./readiness.js"
import { normalize } from "./text.js"
import { isVisibleElement } from "./visibility.js"

/** Roles that hold content rather than act: a click on one is meant for what it holds. */
const CONTAINER_ROLES = new Set(["columnheader", "rowheader", "cell", "gridcell", "listitem", "term", "definition"])

/** Elements that act on a click by what they are. */
const CONTROLS =
  "a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=link], [role=checkbox], [role=switch], [role=radio], [role=tab], [role=menuitem], [role=menuitemcheckbox], [role=menuitemradio], [role=option], [role=combobox], [role=textbox], [role=searchbox], [role=slider], [role=spinbutton], [contenteditable]"

/** How many elements inside a target are looked at (a cell holds little; a list item may hold a whole card). */
const NODE_BUDGET = 400

/** The element's children in the tree a person sees: its shadow root's, a slot's assigned elements (or its fallback). */
const shownChildren = (element: Element): ReadonlyArray<Element> => {
  if (element.shadowRoot) return Array.from(element.shadowRoot.children)
  if (element.localName === "slot") {
    const assigned = (element as HTMLSlotElement).assignedElements({ flatten: true })
    return assigned.length > 0 ? assigned : Array.from(element.children)
  }
  return Array.from(element.children)
}

const pointer = (element: Element): boolean => element.ownerDocument.defaultView?.getComputedStyle(element).cursor === "pointer"

/** Whether a click on the element does something we can see from the page: a handler in an attribute or a property, or a hand cursor. */
const takesClicks = (element: Element): boolean => element.hasAttribute("onclick") || typeof (element as HTMLElement).onclick === "function" || pointer(element)

/**
 * Whether the element acts on a click: a control, focusable by the keyboard, a click handler we can see,
 * or where the hand cursor begins (a component that draws its own control: a grid's sorter).
 */
const clickable = (element: Element, parent: Element): boolean =>
  element.matches(CONTROLS) ||
  (element.hasAttribute("tabindex") && (element as HTMLElement).tabIndex >= 0) ||
  element.hasAttribute("onclick") ||
  typeof (element as HTMLElement).onclick === "function" ||
  (pointer(element) && !pointer(parent))

/** The clickable elements inside `element`, outermost only, rendered; stops at `limit` of them or when the budget runs out. */
const clickablesIn = (element: Element, limit: number): Array<Element> => {
  const found: Array<Element> = []
  let budget = NODE_BUDGET
  const visit = (parent: Element): void => {
    for (const child of shownChildren(parent)) {
      if (found.length >= limit || --budget < 0) return
      if (clickable(child, parent) && isVisibleElement(child)) found.push(child)
      else visit(child)
    }
  }
  visit(element)
  return found
}

/** The text of an element's content, as a label's is read (with the names of what it holds). */
const contentOf = (aria: Aria, element: Element): string =>
  normalize(textAlternative(aria, element, { visited: new Set(), budget: { chars: 600, nodes: 500 }, label: { hidden: false } }), 150)

/** The words an element carries: its accessible name, and the text of its content. */
const wordsOf = (aria: Aria, element: Element): ReadonlyArray<string> =>
  [aria.nameOf(element, aria.roleOf(element) ?? "generic"), contentOf(aria, element)].filter((words) => words !== "").map((words) => words.toLowerCase())

/**
 * Runs in the page: the one control inside a container (a header, a cell, a list item) that a click on it
 * is meant for, when the container shows no sign of taking clicks itself (no handler we can see, no hand
 * cursor) and the one clickable element rendered inside it carries the words that name it (its name, or
 * its text when it has none).
 * None when it holds two or more clickable elements: which one is meant is not ours to guess (the
 * container is clicked as it is, as its own handler may be what the page listens to).
 */
export const innerControl = (element: Element): Element | undefined => {
  const aria = makeAria()
  const role = aria.roleOf(element)
  if (role === null || !CONTAINER_ROLES.has(role) || takesClicks(element)) return undefined
  // A list item is not named by its content, but a person reads it by its text as the page text shows it.
  const name = (aria.nameOf(element, role) || contentOf(aria, element)).toLowerCase()
  if (name === "") return undefined
  const inside = clickablesIn(element, 2)
  if (inside.length !== 1) return undefined
  const control = inside[0]!
  return wordsOf(aria, control).includes(name) ? control : undefined
}

/** Runs in the page: the control a click on the container goes through, described as an agent recognises it; none when it has none. */
export const innerControlOf = (element: Element): { readonly element?: Element; readonly via?: string } => {
  const control = innerControl(element)
  return control === undefined ? {} : { element: control, via: previewElement(control) }
}

const EFFECT_KEY = Symbol.for("browser-workflow-mcp/inner-effect")

/** States a click is meant to change, read on the container and on its control. */
const STATES = ["aria-sort", "aria-expanded", "aria-pressed", "aria-selected", "aria-checked", "aria-current"]

/** Attributes that change when the pointer or the focus comes, whatever the click then does. */
const PASSING = /focus|hover|^tabindex$|^style$/i

/** Whether a change the page made is the page's answer to the click, not the pointer's or the focus's passing by. */
const meaningful = (record: MutationRecord): boolean => {
  if (record.type !== "attributes") return true
  const name = record.attributeName ?? ""
  if (PASSING.test(name)) return false
  if (name !== "class" && name !== "part") return true
  // A class or part list whose only change is a token for the focus or the hover (focused-cell, is-hovered).
  const before = new Set((record.oldValue ?? "").split(/\s+/).filter((token) => token !== ""))
  const after = new Set(((record.target as Element).getAttribute(name) ?? "").split(/\s+/).filter((token) => token !== ""))
  const changed = [...before, ...after].filter((token) => before.has(token) !== after.has(token))
  return changed.some((token) => !/focus|hover/i.test(token))
}

/**
 * Runs in the page on the container before a click goes through `control`: remembers the states of both
 * and watches for the page's answer: a change of content anywhere in the document, in the shadow tree
 * the container or the control sits in, or in the control's own; or of an attribute that is not the
 * pointer's or the focus's passing by.
 */
export const watchInnerEffect = (element: Element, control: Element): void => {
  const read = () => JSON.stringify([element, control].map((node) => STATES.map((name) => node.getAttribute(name))))
  const watch = { before: read(), changed: false, read, observer: undefined as MutationObserver | undefined }
  const observer = new MutationObserver((records) => {
    if (records.some(meaningful)) watch.changed = true
  })
  const options = { subtree: true, childList: true, characterData: true, attributes: true, attributeOldValue: true }
  const roots = new Set<Node>([element.ownerDocument, element.getRootNode(), control.getRootNode()])
  if (control.shadowRoot) roots.add(control.shadowRoot)
  for (const root of roots) observer.observe(root, options)
  watch.observer = observer
  ;(element as any)[EFFECT_KEY]?.observer?.disconnect()
  Object.defineProperty(element, EFFECT_KEY, { value: watch, configurable: true, enumerable: false, writable: true })
  // A watch its caller left (it gave up) ends by itself.
  setTimeout(() => observer.disconnect(), 15_000)
}

/** Runs in the page on the container after the click: whether the page answered it (see watchInnerEffect). */
export const innerEffectSeen = (element: Element): boolean => {
  const watch = (element as any)[EFFECT_KEY]
  if (watch === undefined) return false
  watch.changed ||= watch.observer.takeRecords().some(meaningful)
  return watch.changed || watch.read() !== watch.before
}

/** Runs in the page on the container: ends the watch. */
export const stopInnerEffect = (element: Element): void => {
  ;(element as any)[EFFECT_KEY]?.observer?.disconnect()
}
