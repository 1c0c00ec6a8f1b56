// The selector engine that resolves a ref to exactly its element, registered with Playwright (see
// REF_ENGINE in page-script.ts). It runs in Playwright's utility world next to the ref registry.
import { MARK_PREFIX, noteMatch } from "./candidates.js"

/** Selector engine registered with Playwright; runs in Playwright's utility world next to the registry. */
export const refSelectorEngine = () => {
  const find = (root: Node, body: string): Element | null => {
    const KEY = Symbol.for("browser-workflow-mcp")
    // Inside a same-origin iframe the registry is the one of the document that walked it: the top page's,
    // or a cross-origin frame's above it (the utility world spans a process's same-origin frames). Up the
    // parents until one has it; a cross-origin parent ends the search.
    let registry: any
    for (let view: Window = window; registry === undefined; view = view.parent) {
      try {
        registry = (view as any)[KEY]
      } catch {
        break
      }
      if (view === view.parent) break
    }
    const element: Element | undefined = registry?.byRef.get(body)
    if (!element || !element.isConnected || element.ownerDocument.defaultView === null) return null
    // Accept the element only when it lies inside root, crossing shadow boundaries upwards.
    let node: Node | null = element
    while (node) {
      if (node === root) return element
      node = node.parentNode ?? ((node as ShadowRoot).host as Node | undefined) ?? null
    }
    return null
  }
  return {
    query: (root: Node, body: string) => find(root, body),
    queryAll: (root: Node, body: string) => {
      // A marking step (`... >> bwmref=mark:<token>`, candidates.ts): each element the steps before it matched is noted, and matches.
      if (body.startsWith(MARK_PREFIX)) {
        if (root.nodeType !== Node.ELEMENT_NODE) return []
        noteMatch(body.slice(MARK_PREFIX.length), root as Element)
        return [root as Element]
      }
      const element = find(root, body)
      return element ? [element] : []
    }
  }
}
