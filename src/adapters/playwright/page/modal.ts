// The modal dialog that is open, if any: while one is, the page behind it is inert for a person and
// absent for assistive technology (Chromium leaves it out of the accessibility tree), so the snapshot
// leaves it out too instead of offering targets no click can reach.
import { isWithheld, parentOf } from "./dom.js"
import { isVisibleElement } from "./visibility.js"

/**
 * The open modal of the top document: a `<dialog>` shown with showModal(), else the last visible
 * element with `aria-modal="true"` and a dialog role. Null when there is none (or one that is hidden):
 * the whole page is shown then.
 */
export const openModal = (): Element | null => {
  try {
    const native = document.querySelector("dialog:modal")
    if (native !== null) return native
  } catch {
    // A browser without :modal has no native modal to find.
  }
  const marked = document.querySelectorAll('[aria-modal="true"]')
  for (let i = marked.length - 1; i >= 0; i--) {
    const element = marked[i]!
    const role = element.getAttribute("role") ?? (element.localName === "dialog" ? "dialog" : "")
    if ((role === "dialog" || role === "alertdialog") && isVisibleElement(element)) return element
  }
  return null
}

/** Whether `element` is `modal` or inside it (through shadow roots too). */
export const isWithin = (modal: Element, element: Element | null): boolean => {
  let at = element
  while (at !== null) {
    if (at === modal) return true
    // From a same-origin frame's document up to its frame element.
    at = parentOf(at) ?? (at.ownerDocument !== document ? (at.ownerDocument.defaultView?.frameElement ?? null) : null)
  }
  return false
}

/**
 * Whether `element` is left out of the accessibility tree only because the page behind an overlay is hidden
 * from assistive technology (an ancestor, through shadow roots, has aria-hidden="true" or inert, as modal
 * libraries mark everything outside the overlay) while it is still laid out on screen.
 */
export const hiddenBehindOverlay = (element: Element): boolean => {
  if (element.getClientRects().length === 0) return false
  for (let at: Element | null = element; at !== null; at = parentOf(at)) {
    if (isWithheld(at)) return true
  }
  return false
}
