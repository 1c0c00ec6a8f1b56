// Which elements count as there: the one visibility rule of observations and actions (Playwright's),
// and liveness (connected, in a frame still in the page).

/**
 * Runs in the page: the one visibility rule of observations and actions, Playwright's for actions.
 * An element is visible when it has a box of non-zero width and height, is not hidden by its style
 * (`checkVisibility()`: not in a `display: none` or `content-visibility: hidden` subtree) and its
 * `visibility` is `visible`. `opacity: 0` and clipping by an `overflow: hidden` ancestor leave it
 * visible (an action then finds it covered or out of reach and waits). A `display: contents` element
 * has no box of its own: it is visible when one of its children is. `style` may pass the element's
 * computed style when the caller has it.
 */
export const isVisibleElement = (element: Element, style?: CSSStyleDeclaration | null): boolean => {
  const visible = (target: Element, known?: CSSStyleDeclaration | null): boolean => {
    const computed = known ?? target.ownerDocument.defaultView?.getComputedStyle(target) ?? null
    // An element of a document without a window (a template's, say) is not rendered anywhere Playwright looks.
    if (computed === null) return true
    if (computed.display === "contents") {
      for (let child = target.firstChild; child; child = child.nextSibling) {
        if (child.nodeType === 1 && visible(child as Element)) return true
        if (child.nodeType === 3) {
          const range = target.ownerDocument.createRange()
          range.selectNode(child)
          const box = range.getBoundingClientRect()
          if (box.width > 0 && box.height > 0) return true
        }
      }
      return false
    }
    if (typeof (target as any).checkVisibility === "function" && !(target as any).checkVisibility()) return false
    if (computed.visibility !== "visible") return false
    const rect = target.getBoundingClientRect()
    return rect.width > 0 && rect.height > 0
  }
  return visible(element, style)
}

/**
 * Runs in the page: the input of a code editor that has no width (or no height) of its own while it is
 * rendered: a caret-sized element that takes the keys (Monaco's EditContext element, 0×19 px) inside the
 * editor a person sees and clicks. It takes text (a text area, an editing host, role textbox or
 * searchbox) and the focus. Not visible by the rule above (Playwright's), yet it is the editor's one
 * field: observations show it, `type` types into it by focus, a click goes through the editor around it.
 */
export const isCaretInput = (element: Element, style?: CSSStyleDeclaration | null): boolean => {
  const role = element.getAttribute("role")
  const takesText = element.localName === "textarea" || (element as HTMLElement).isContentEditable || role === "textbox" || role === "searchbox"
  if (!takesText || !((element as HTMLElement).tabIndex >= 0)) return false
  const computed = style ?? element.ownerDocument.defaultView?.getComputedStyle(element) ?? null
  if (computed === null || computed.display === "contents" || computed.visibility !== "visible") return false
  if (typeof (element as any).checkVisibility === "function" && !(element as any).checkVisibility()) return false
  const rect = element.getBoundingClientRect()
  return (rect.width === 0) !== (rect.height === 0)
}

/**
 * Runs in the page: the element is connected and in a frame that is still in the page (a removed
 * iframe's elements stay connected to its old document). Passed to the page scripts that need it.
 */
export const isLiveElement = (element: Element): boolean => {
  let doc: Document | null = element.isConnected ? element.ownerDocument : null
  while (doc !== null && doc !== document) {
    const frame: Element | null | undefined = doc.defaultView?.frameElement
    doc = frame && frame.isConnected ? frame.ownerDocument : null
  }
  return doc === document
}
