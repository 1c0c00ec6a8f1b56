// Hidden for assistive technology, as Chromium decides it: display:none, visibility, aria-hidden,
// unslotted shadow children; the tests the accessible-name computation and getByRole rely on.
import { parentOf, type StyleOf } from "./dom.js"

export const isIgnoredTag = (element: Element) => {
  const tag = element.localName
  return tag === "style" || tag === "script" || tag === "noscript" || tag === "template"
}

export type Hidden = (element: Element) => boolean

/** Whether an element is hidden for assistive technology, with its ancestors' answers kept for the walk. */
export const makeHidden = (styleOf: StyleOf): Hidden => {
  const hiddenChain = new Map<Element, boolean>()
  const inHiddenChain = (element: Element): boolean => {
    let hidden = hiddenChain.get(element)
    if (hidden === undefined) {
      const parent = element.parentElement
      hidden = parent !== null && parent.shadowRoot !== null && (element as any).assignedSlot === null
      if (!hidden) {
        const style = styleOf(element)
        hidden = style === null || style.display === "none" || element.getAttribute("aria-hidden")?.toLowerCase() === "true"
      }
      if (!hidden) {
        const parent = parentOf(element)
        if (parent !== null) hidden = inHiddenChain(parent)
      }
      hiddenChain.set(element, hidden)
    }
    return hidden
  }
  const hiddenForAria = (element: Element): boolean => {
    if (isIgnoredTag(element)) return true
    const style = styleOf(element)
    if (style?.display === "contents" && element.localName !== "slot") {
      for (let child = element.firstChild; child; child = child.nextSibling) {
        if (child.nodeType === 1 && !hiddenForAria(child as Element)) return false
        if (child.nodeType === 3 && (child.nodeValue ?? "").trim() !== "") return false
      }
      return true
    }
    const optionInSelect = element.localName === "option" && element.closest("select") !== null
    if (!optionInSelect && element.localName !== "slot" && style !== null && style.visibility !== "visible") return true
    return inHiddenChain(element)
  }
  return hiddenForAria
}
