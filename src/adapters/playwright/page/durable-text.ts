// Text as Playwright's text and label engines read it (for durable selectors): an element's text with
// shadow roots, exact-text matches, and label texts (aria-labelledby, aria-label, label elements).
import type { EngineView } from "./engine-view.js"

export interface EngineTexts {
  readonly normalize: (text: string) => string
  readonly textOf: (node: Element | ShadowRoot) => string
  readonly exactTextMatch: (element: Element, value: string) => boolean
  readonly labelTexts: (element: Element) => Array<string>
}

export const makeTexts = ({ under }: EngineView): EngineTexts => {
  const normalize = (text: string) => text.replace(/\u200b/g, "").trim().replace(/\s+/g, " ")
  const skipsText = (element: Element) =>
    element.nodeName === "SCRIPT" || element.nodeName === "NOSCRIPT" || element.nodeName === "STYLE" || (element.ownerDocument.head !== null && element.ownerDocument.head.contains(element))
  const texts = new Map<Node, string>()
  const fullText = (node: Element | ShadowRoot): string => {
    let text = texts.get(node)
    if (text === undefined) {
      text = ""
      if (!(node.nodeType === 1 && skipsText(node as Element))) {
        const input = node as HTMLInputElement
        if (node.nodeName === "INPUT" && (input.type === "submit" || input.type === "button" || input.type === "reset")) text = input.value
        else {
          for (let child = node.firstChild; child; child = child.nextSibling) {
            if (child.nodeType === 3) text += child.nodeValue ?? ""
            else if (child.nodeType === 1) text += fullText(child as Element)
          }
          if ((node as Element).shadowRoot) text += fullText((node as Element).shadowRoot!)
        }
      }
      texts.set(node, text)
    }
    return text
  }
  const normalized = new Map<Node, string>()
  const textOf = (node: Element | ShadowRoot): string => {
    let text = normalized.get(node)
    if (text === undefined) {
      text = normalize(fullText(node))
      normalized.set(node, text)
    }
    return text
  }
  /** internal:text with an exact value: the element's text is the value and none of its children's alone is. */
  const exactTextMatch = (element: Element, value: string): boolean => {
    if (skipsText(element) || textOf(element) !== value) return false
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) if (textOf(child) === value) return false
    return !(element.shadowRoot && textOf(element.shadowRoot) === value)
  }
  // Labels per control, from one pass over the label elements of its document (Chromium's `labels` may
  // walk the document per call); a frame's controls are labelled in their own document.
  const labelMaps = new Map<Document, Map<Element, Array<Element>>>()
  const labelsOf = (element: Element): Array<Element> => {
    let labelMap = labelMaps.get(element.ownerDocument)
    if (labelMap === undefined) {
      labelMap = new Map()
      labelMaps.set(element.ownerDocument, labelMap)
      for (const label of under(element.ownerDocument).filter((candidate) => candidate.localName === "label")) {
        const control = (label as HTMLLabelElement).control
        if (control === null) continue
        const list = labelMap.get(control) ?? []
        list.push(label)
        labelMap.set(control, list)
      }
    }
    return labelMap.get(element) ?? []
  }
  /** Playwright's label texts of an element: aria-labelledby, else aria-label, else its label elements. */
  const labelTexts = (element: Element): Array<string> => {
    const labelledBy = element.getAttribute("aria-labelledby")
    if (labelledBy !== null) {
      const root = element.getRootNode() as Document | ShadowRoot
      const refs = labelledBy
        .split(" ")
        .filter((id) => id !== "")
        .map((id) => root.getElementById?.(id) ?? null)
        .filter((found): found is HTMLElement => found !== null)
      if (refs.length > 0) return [...new Set(refs)].map((ref) => textOf(ref))
    }
    const ariaLabel = element.getAttribute("aria-label")
    if (ariaLabel !== null && ariaLabel.trim() !== "") return [normalize(ariaLabel)]
    const labelable =
      ["BUTTON", "METER", "OUTPUT", "PROGRESS", "SELECT", "TEXTAREA"].includes(element.nodeName) ||
      (element.nodeName === "INPUT" && (element as HTMLInputElement).type !== "hidden")
    return labelable ? labelsOf(element).map((label) => textOf(label)) : []
  }
  return { normalize, textOf, exactTextMatch, labelTexts }
}
