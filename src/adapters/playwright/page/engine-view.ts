// Elements as Playwright's selector engines see them, for durable selectors: the document and its open
// shadow roots in the CSS engine's order, composed ancestry, and CSS that may not parse.
import { parentOf } from "./dom.js"

/** Elements as Playwright's engines see them: the document and its open shadow roots. */
export interface EngineView {
  /** Descendants of a scope in the order Playwright's CSS engine lists them (light DOM first, then each shadow root). */
  readonly under: (scope: Document | Element) => Array<Element>
  readonly inside: (outer: Element, inner: Element) => boolean
  readonly cssMatches: (element: Element, css: string) => boolean
}

export const makeView = (): EngineView => {
  /** Descendants of a scope in the order Playwright's CSS engine lists them (light DOM first, then each shadow root). */
  const underCache = new Map<Node, Array<Element>>()
  const under = (scope: Document | Element): Array<Element> => {
    let found = underCache.get(scope)
    if (found === undefined) {
      const list: Array<Element> = []
      const visit = (root: Document | Element | ShadowRoot) => {
        const inner = Array.from(root.querySelectorAll("*"))
        for (const element of inner) list.push(element)
        if ((root as Element).shadowRoot) visit((root as Element).shadowRoot!)
        for (const element of inner) if (element.shadowRoot) visit(element.shadowRoot)
      }
      visit(scope)
      found = list
      underCache.set(scope, found)
    }
    return found
  }
  const inside = (outer: Element, inner: Element): boolean => {
    for (let node: Element | null = inner; node !== null; node = parentOf(node)) if (node === outer) return true
    return false
  }
  const cssMatches = (element: Element, css: string): boolean => {
    try {
      return element.matches(css)
    } catch {
      return false
    }
  }
  return { under, inside, cssMatches }
}
