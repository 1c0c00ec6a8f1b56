// DOM helpers the walk's parts share: the composed parent (across shadow roots), the focused element,
// computed styles read once per walk, and id references (aria-labelledby, aria-owns, list).

/** Whether the element withholds itself and all inside it from the accessibility tree (aria-hidden="true", inert): the walk leaves it out. */
export const isWithheld = (element: Element): boolean => element.getAttribute("aria-hidden")?.toLowerCase() === "true" || element.hasAttribute("inert")

/** The parent element, or the host of the shadow root the element sits in. */
export const parentOf = (element: Element): Element | null =>
  element.parentElement ?? ((element.parentNode as ShadowRoot | null)?.host as Element | undefined) ?? null

/** Runs in the page: the focused element, down through shadow roots and same-origin frames; null when none. */
export const focusedElement = (): Element | null => {
  let active: Element | null = document.activeElement
  for (;;) {
    const inner: Element | null | undefined =
      active?.shadowRoot?.activeElement ??
      (active?.localName === "iframe" || active?.localName === "frame" ? (active as HTMLIFrameElement).contentDocument?.activeElement : null)
    if (!inner || inner === active) break
    active = inner
  }
  return active
}

export type StyleOf = (element: Element) => CSSStyleDeclaration | null

/** Computed styles, each read once per walk (a read can force a style recalculation). */
export const makeStyleOf = (): StyleOf => {
  const styles = new Map<Element, CSSStyleDeclaration | null>()
  return (element) => {
    let style = styles.get(element)
    if (style === undefined) {
      style = element.ownerDocument.defaultView?.getComputedStyle(element) ?? null
      styles.set(element, style)
    }
    return style
  }
}

/** The elements an id-list attribute names, in its scope (document or shadow root), each once. */
export const idRefs = (element: Element, value: string | null): Array<Element> => {
  if (!value) return []
  const scope = element.getRootNode() as Document | ShadowRoot
  const result: Array<Element> = []
  for (const id of value.split(" ")) {
    if (!id) continue
    const found = scope.getElementById?.(id) ?? null
    if (found !== null && !result.includes(found)) result.push(found)
  }
  return result
}

/**
 * A checkbox or radio input's checked state: its property, unless the component keeps an aria-checked
 * on it that says otherwise. A component that binds aria-checked to its model is right where the property
 * is not: Element Plus's switch cancels the click (preventDefault on its wrapper), so the browser undoes
 * the property after the component turned its model and aria-checked on.
 */
export const inputChecked = (input: HTMLInputElement): boolean | "mixed" => {
  const aria = input.getAttribute("aria-checked")
  const own = input.indeterminate ? "mixed" : input.checked
  if (aria === "true" || aria === "false" || aria === "mixed") {
    const said = aria === "mixed" ? "mixed" : aria === "true"
    if (said !== own) return said
  }
  return own
}
