// In the page, around an action whose effect has no one element to read back (mm_drag): a fingerprint of the
// whole document as a person could see it changed (its elements, in order, with their attributes, text, form
// values and those of open shadow roots; the window's scroll), compared before and after. A drag whose drop
// left the document as it was did nothing (dnd-kit dropping an item on itself restores every style it moved,
// and its announcement goes to a live region nobody sees). No judgement past the node budget, nor on a canvas
// (what it draws is no DOM).

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
      for (const attribute of Array.from(current.attributes)) hash = mix(hash, ` ${attribute.name}=${attribute.value}`)
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
