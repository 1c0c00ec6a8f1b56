// In the page, around an action whose effect has no one element to read back (mm_drag): a fingerprint of the
// whole document as a person could see it changed (its elements, in order, with their attributes (a style by
// its declarations, a class by its names), text, form values and those of open shadow roots; the window's
// scroll), compared before and after. A drag whose drop left the document as it was did nothing (dnd-kit
// dropping an item on itself restores every style it moved, and its announcement goes to a live region nobody
// sees). No judgement past the node budget, nor on a canvas (what it draws is no DOM).

/** Past this many nodes the walk gives up (a judgement the caller then does not make). */
const NODE_BUDGET = 60_000

const mix = (hash: number, text: string): number => {
  let h = hash
  for (let index = 0; index < text.length; index += 1) h = Math.imul(h ^ text.charCodeAt(index), 16_777_619)
  return Math.imul(h ^ 0xff, 16_777_619)
}

/** Runs in the page: whether the element draws what a drag on it does (a canvas, or one inside it). */
export const drawsOnCanvas = (element: Element): boolean => element.localName === "canvas" || element.querySelector("canvas") !== null

/** Announcements a person does not see (a drag library's visually hidden live region) are left out. */
const unseenAnnouncer = (element: Element): boolean => {
  const role = element.getAttribute("role")
  if (!element.hasAttribute("aria-live") && role !== "status" && role !== "log" && role !== "alert") return false
  const box = element.getBoundingClientRect()
  return box.width <= 1 || box.height <= 1
}

const ZERO_OFFSET = /(^|;)\s*(?:left|top|right|bottom)\s*:\s*0(?:px)?\s*(?=;|$)/g
/** The pointer's shape is no state of the page (a drag library sets the body's cursor and leaves "auto" behind). */
const CURSOR = /(^|;)\s*cursor\s*:[^;]*(?=;|$)/g

const tidy = (text: string) =>
  text
    .replace(/;(\s*;)+/g, ";")
    .replace(/^\s*;\s*/, "")
    .trim()

/**
 * A style's declarations, less the cursor, and less the zero offsets of an element they do not move (relatively
 * positioned, or static): a draggable that flew back where it came from (jQuery UI's revert) is where it was.
 */
const shownDeclarations = (element: HTMLElement): string | undefined => {
  const cssText = (element.style as CSSStyleDeclaration | undefined)?.cssText
  if (cssText === undefined) return undefined
  const text = cssText.search(CURSOR) < 0 ? cssText : tidy(cssText.replace(CURSOR, "$1"))
  if (text.search(ZERO_OFFSET) < 0) return text
  const position = element.ownerDocument.defaultView?.getComputedStyle(element).position
  return position === "relative" || position === "static" ? tidy(text.replace(ZERO_OFFSET, "$1")) : text
}

/**
 * An attribute as what it shows: a style as its declarations (a library that wrote the same ones back, as
 * jQuery UI does at a drop, reserialized the text: "a:1px" is "a: 1px;"), a class as its set of names (one
 * taken off and put back lands at the end); an empty style or class is none. Other attributes as written.
 */
const attributeSeen = (element: Element, attribute: Attr): string | undefined => {
  if (attribute.name === "style") {
    const declarations = shownDeclarations(element as HTMLElement) ?? attribute.value
    return declarations === "" ? undefined : declarations
  }
  if (attribute.name === "class") {
    const names = [...new Set(attribute.value.split(/\s+/).filter((name) => name !== ""))].sort().join(" ")
    return names === "" ? undefined : names
  }
  return attribute.value
}

/**
 * Runs in the page: the fingerprint of the document of `element` (any element of it), or null past the node
 * budget.
 */
export const documentFingerprint = (element: Element): string | null => {
  const document = element.ownerDocument
  let hash = 2_166_136_261
  let nodes = 0
  const stack: Array<Node> = [document.documentElement]
  while (stack.length > 0) {
    const node = stack.pop()!
    nodes += 1
    if (nodes > NODE_BUDGET) return null
    if (node.nodeType === 3 || node.nodeType === 4) {
      hash = mix(hash, `#${(node as CharacterData).data}`)
      continue
    }
    if (node.nodeType !== 1 && node.nodeType !== 11) continue
    if (node.nodeType === 1) {
      const current = node as Element
      hash = mix(hash, `<${current.localName}`)
      if (unseenAnnouncer(current)) continue
      for (const attribute of Array.from(current.attributes)) {
        const value = attributeSeen(current, attribute)
        if (value !== undefined) hash = mix(hash, ` ${attribute.name}=${value}`)
      }
      if (current.localName === "input" || current.localName === "textarea" || current.localName === "select") {
        const field = current as HTMLInputElement
        hash = mix(hash, `=${field.value}${field.checked === true ? "+" : "-"}`)
      }
      const shadow = (current as HTMLElement).shadowRoot
      if (shadow !== null) stack.push(shadow)
    }
    // Children pushed last-first, so the walk meets them in document order (their order is what a sort changes).
    for (let child = node.lastChild; child !== null; child = child.previousSibling) stack.push(child)
  }
  const view = document.defaultView
  return `${(hash >>> 0).toString(36)}:${nodes}:${view === null ? "" : `${Math.round(view.scrollX)},${Math.round(view.scrollY)}`}`
}
