// The selector engine that resolves a ref to exactly its element, registered with Playwright (see
// REF_ENGINE in page-script.ts). It runs in Playwright's utility world next to the ref registry.

/** Selector engine registered with Playwright; runs in Playwright's utility world next to the registry. */
export const refSelectorEngine = () => {
  const find = (root: Node, body: string): Element | null => {
    const KEY = Symbol.for("browser-workflow-mcp")
    // Inside a same-origin iframe the registry is the top page's (the utility world spans the page's frames).
    let registry = (window as any)[KEY]
    if (registry === undefined) {
      try {
        registry = (window.top as any)?.[KEY]
      } catch {
        registry = undefined
      }
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
      const element = find(root, body)
      return element ? [element] : []
    }
  }
}
