// Direct actions: one evaluation in the page checks that a target can be acted on right now (one
// element, visible, enabled, still, not covered) and prepares it, so that click and type need no
// selector machinery of Playwright's. Whenever the page answers "not ready", the caller falls back
// to Playwright's own action, which waits, retries and explains; so this path is only ever faster.
// Everything in `prepareAction` and `finishClick` runs in the page and must be self-contained.
import { isLiveElement, observeExpression, type ObserveArgs, type ObserveResult } from "./page-script.js"

export interface DirectLocator {
  readonly kind: "a11yRef" | "testId" | "selector"
  readonly value: string
}

export interface DirectArgs {
  readonly action: "click" | "type" | "visible" | "hidden"
  readonly locator: DirectLocator
  readonly within: DirectLocator | null
  readonly testIdAttribute: string
  /** Names the click guard, so that finishing a click never touches another click's guard. */
  readonly token: string
  /** Date.now() after which the caller no longer waits: the page must not focus or arm anything then. */
  readonly notAfter: number
}

export type DirectResult =
  | {
      readonly ready: true
      readonly x?: number
      readonly y?: number
      readonly sensitive?: boolean
      /** The page's state read in the same trip, when asked for. */
      readonly page?: ObserveResult
    }
  | { readonly ready: false; readonly why: string; readonly staleRef?: boolean }

/** Outcome of a guarded click: `ok` is false when a mouse event would have reached another element. */
export interface ClickVerdict {
  readonly ok: boolean
  /** A mouse event of the click started loading another document (in the page or one of its frames). */
  readonly navigating: boolean
  /** The page's state read in the same trip, right after the click. */
  readonly page?: ObserveResult
}

/**
 * Runs in the page. Resolves the target the way Playwright would for the simple cases (a ref, a
 * test id, a plain CSS selector, an unquoted `text=` selector for waits) and answers "not ready"
 * for anything else, so that the caller hands it to Playwright.
 */
export const prepareAction = async (
  args: DirectArgs,
  isSensitive: (element: Element) => boolean,
  isLive: (element: Element) => boolean
): Promise<DirectResult> => {
  const KEY = Symbol.for("browser-workflow-mcp")
  const w = window as any
  const notReady = (why: string, staleRef = false): DirectResult => (staleRef ? { ready: false, why, staleRef } : { ready: false, why })

  /** Past this moment (the caller's clock, same machine) the caller has given up: no side effects any more. */
  const late = () => Date.now() > args.notAfter

  /** Open shadow roots of a document, nested ones too. */
  const shadowCache = new Map<Document, Array<ShadowRoot>>()
  const openShadowRoots = (doc: Document): Array<ShadowRoot> => {
    let roots = shadowCache.get(doc)
    if (roots === undefined) {
      roots = []
      const pending: Array<Document | ShadowRoot> = [doc]
      while (pending.length > 0) {
        for (const element of pending.pop()!.querySelectorAll("*")) {
          if (element.shadowRoot) {
            roots.push(element.shadowRoot)
            pending.push(element.shadowRoot)
          }
        }
      }
      shadowCache.set(doc, roots)
    }
    return roots
  }

  /** Composed ancestry inside one document: whether `inner` is `outer` or lies inside it, crossing shadow roots upwards. */
  const within = (inner: Node, outer: Node): boolean => {
    let node: Node | null = inner
    while (node) {
      if (node === outer) return true
      node = node.parentNode ?? ((node as ShadowRoot).host as Node | undefined) ?? null
    }
    return false
  }

  const isValidCss = (css: string): boolean => {
    try {
      document.createDocumentFragment().querySelector(css)
      return true
    } catch {
      return false
    }
  }

  const SKIP_TEXT = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE"])
  const textCache = new Map<Element, string>()
  const elementText = (element: Element): string => {
    const cached = textCache.get(element)
    if (cached !== undefined) return cached
    let text = ""
    for (let child = element.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === Node.TEXT_NODE) text += child.nodeValue ?? ""
      else if (child.nodeType === Node.ELEMENT_NODE && !SKIP_TEXT.has(child.nodeName)) text += elementText(child as Element)
    }
    textCache.set(element, text)
    return text
  }
  // As Playwright's: zero-width spaces and soft hyphens do not count, whitespace runs are one space.
  const normalize = (text: string) =>
    text
      .replace(/[\u200b\u00ad]/g, "")
      .replace(/\s+/g, " ")
      .trim()
      .toLowerCase()

  /** Playwright's lax text engine: the deepest elements whose text contains the needle. */
  const byText = (needle: string): Array<Element> => {
    const found: Array<Element> = []
    const visit = (element: Element) => {
      if (SKIP_TEXT.has(element.nodeName) || element.nodeName === "INPUT") return
      if (!normalize(elementText(element)).includes(needle)) return
      let childMatched = false
      for (const child of element.children) {
        if (SKIP_TEXT.has(child.nodeName)) continue
        if (normalize(elementText(child)).includes(needle)) childMatched = true
        visit(child)
      }
      if (!childMatched) found.push(element)
    }
    if (document.body) visit(document.body)
    return found
  }

  const refElement = (value: string): Element | undefined => {
    const element: Element | undefined = w[KEY]?.byRef.get(value)
    return element !== undefined && isLive(element) ? element : undefined
  }

  /** The elements a test id, selector or text names inside the scopes (all in `doc`), or why this path cannot tell. */
  const resolve = (locator: DirectLocator, doc: Document, scopes: ReadonlyArray<ParentNode>): Array<Element> | DirectResult => {
    if (locator.kind === "selector" && locator.value.startsWith("text=")) {
      const body = locator.value.slice(5).trim()
      // Quoted, regular-expression and chained text selectors mean more than a substring: Playwright's.
      if (body === "" || /^["'/]/.test(body) || body.includes(">>") || scopes.length !== 1 || scopes[0] !== document) {
        return notReady("text selector")
      }
      if (openShadowRoots(document).length > 0) return notReady("shadow roots")
      const needle = normalize(body)
      // Playwright also matches submit, reset and button inputs by their value.
      for (const input of document.querySelectorAll("input[type=submit i], input[type=reset i], input[type=button i]")) {
        if (normalize((input as HTMLInputElement).value).includes(needle)) return notReady("button value")
      }
      return byText(needle)
    }
    const css =
      locator.kind === "testId"
        ? `[${args.testIdAttribute}="${locator.value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"]`
        : locator.value
    if (!isValidCss(css)) return notReady("not plain CSS")
    const shadows = openShadowRoots(doc)
    // Playwright's CSS crosses open shadow roots, combinators included: only a lone attribute is safe to repeat per root.
    if (shadows.length > 0 && locator.kind !== "testId") return notReady("shadow roots")
    // A scoped query with combinators may match through ancestors outside the scope in CSS, not in Playwright.
    if (scopes[0] !== doc && /[\s>+~]/.test(css) && locator.kind !== "testId") return notReady("scoped combinator")
    const found = new Set<Element>()
    for (const scope of scopes) {
      for (const element of scope.querySelectorAll(css)) found.add(element)
      for (const root of shadows) {
        if (!within(root, scope)) continue
        for (const element of root.querySelectorAll(css)) found.add(element)
      }
    }
    return [...found]
  }

  // Refs first: a ref names its element wherever it is, and the rest of the target is resolved in its document.
  const targetByRef = args.locator.kind === "a11yRef" ? refElement(args.locator.value) : undefined
  if (args.locator.kind === "a11yRef" && targetByRef === undefined) return notReady("stale ref", true)
  const scopeByRef = args.within?.kind === "a11yRef" ? refElement(args.within.value) : undefined
  if (args.within?.kind === "a11yRef" && scopeByRef === undefined) return notReady("stale ref", true)
  if (targetByRef !== undefined && scopeByRef !== undefined && targetByRef.ownerDocument !== scopeByRef.ownerDocument) {
    return notReady("the target and its scope are in different frames")
  }
  const doc = (targetByRef ?? scopeByRef)?.ownerDocument ?? document

  const isText = args.locator.kind === "selector" && args.locator.value.startsWith("text=")
  let scopes: ReadonlyArray<ParentNode> = [doc]
  if (args.within !== null) {
    const parents = scopeByRef !== undefined ? [scopeByRef] : resolve(args.within, doc, scopes)
    if (!Array.isArray(parents)) return parents
    if (parents.length === 0) return notReady("no scope")
    scopes = parents
  }
  const matches =
    targetByRef !== undefined
      ? scopes.some((scope) => within(targetByRef, scope))
        ? [targetByRef]
        : []
      : resolve(args.locator, doc, scopes)
  if (!Array.isArray(matches)) return matches

  const isVisible = (element: Element): boolean => {
    const anyElement = element as any
    if (typeof anyElement.checkVisibility === "function" && !anyElement.checkVisibility({ visibilityProperty: true })) return false
    const rect = element.getBoundingClientRect()
    return rect.width > 0 && rect.height > 0
  }

  if (args.action === "hidden") {
    // No match is hidden, except for text, where Playwright also reads button values this path does not.
    if (matches.length === 0) return isText ? notReady("text may match a button value") : { ready: true }
    const only = matches[0]!
    const hidden = matches.length === 1 && getComputedStyle(only).display !== "contents" && !isVisible(only)
    return hidden ? { ready: true } : notReady("still visible")
  }
  if (matches.length !== 1) return notReady(matches.length === 0 ? "no match" : "ambiguous")
  const element = matches[0]!
  // A ref may name an element inside same-origin iframes: their elements, innermost first.
  const frames: Array<HTMLIFrameElement> = []
  for (let doc = element.ownerDocument; doc !== document; ) {
    const frame = doc.defaultView?.frameElement as HTMLIFrameElement | null | undefined
    if (!frame || !frame.isConnected) return notReady("detached frame")
    frames.push(frame)
    doc = frame.ownerDocument
  }
  if (!isVisible(element) || !frames.every(isVisible)) return notReady("not visible")
  if (args.action === "visible") return { ready: true }

  // Disabled as Playwright sees it: the element, a wrapping button or fieldset, aria-disabled above it, or a label's control.
  const isDisabled = (start: Element): boolean => {
    const control = (start.closest("label") as HTMLLabelElement | null)?.control
    if (control && control !== start && control.matches(":disabled")) return true
    for (let node: Node | null = start; node; node = node.parentNode ?? ((node as ShadowRoot).host as Node | undefined) ?? null) {
      if (node.nodeType !== Node.ELEMENT_NODE) continue
      if ((node as Element).matches(":disabled") || (node as Element).getAttribute("aria-disabled") === "true") return true
    }
    return false
  }
  if (isDisabled(element)) return notReady("disabled")

  if (args.action === "type") {
    const TEXT_TYPES = new Set(["", "text", "password", "search", "email", "tel", "url"])
    const tag = element.localName
    const isInput = tag === "input" && TEXT_TYPES.has((element.getAttribute("type") ?? "").toLowerCase())
    if (!isInput && tag !== "textarea") return notReady("not a text field")
    const field = element as HTMLInputElement | HTMLTextAreaElement
    if (field.readOnly || element.getAttribute("aria-readonly") === "true") return notReady("read-only")
    if (late()) return notReady("late")
    // As Playwright's fill: select everything, focus, then the caller inserts the text.
    if (tag === "input") (field as HTMLInputElement).select()
    else field.setSelectionRange(0, field.value.length)
    field.focus()
    // The focused element, down through shadow roots and frames.
    let active: Element | null = document.activeElement
    for (;;) {
      const inner: Element | null | undefined =
        active?.shadowRoot?.activeElement ??
        (active?.localName === "iframe" || active?.localName === "frame" ? (active as HTMLIFrameElement).contentDocument?.activeElement : null)
      if (!inner || inner === active) break
      active = inner
    }
    if (active !== element) return notReady("cannot focus")
    return { ready: true, sensitive: isSensitive(element) }
  }

  // click: in view, still for a frame, and the element (or a descendant) is what the pointer hits.
  /** Where a frame's content starts, in its parent's viewport: past the frame's border and padding. */
  const contentOrigin = (frame: HTMLIFrameElement) => {
    const box = frame.getBoundingClientRect()
    const style = frame.ownerDocument.defaultView!.getComputedStyle(frame)
    return { left: box.left + frame.clientLeft + parseFloat(style.paddingLeft), top: box.top + frame.clientTop + parseFloat(style.paddingTop) }
  }
  /** The element's box in the top viewport. */
  const boxInTop = () => {
    const rect = element.getBoundingClientRect()
    let left = rect.left
    let top = rect.top
    for (const frame of frames) {
      const origin = contentOrigin(frame)
      left += origin.left
      top += origin.top
    }
    return { left, top, width: rect.width, height: rect.height }
  }
  const ownView = element.ownerDocument.defaultView!
  const inView = () => {
    const rect = element.getBoundingClientRect()
    const box = boxInTop()
    return (
      rect.top >= 0 && rect.left >= 0 && rect.bottom <= ownView.innerHeight && rect.right <= ownView.innerWidth &&
      box.top >= 0 && box.left >= 0 && box.top + box.height <= innerHeight && box.left + box.width <= innerWidth
    )
  }
  if (!inView()) element.scrollIntoView({ block: "center", inline: "center", behavior: "instant" })
  const before = boxInTop()
  await new Promise<void>((resolveFrame) => {
    requestAnimationFrame(() => resolveFrame())
    setTimeout(resolveFrame, 50)
  })
  if (!element.isConnected) return notReady("detached")
  const box = boxInTop()
  if (box.left !== before.left || box.top !== before.top || box.width !== before.width || box.height !== before.height) return notReady("moving")
  const x = box.left + box.width / 2
  const y = box.top + box.height / 2
  if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return notReady("out of view")
  // What the pointer hits there, down through shadow roots and same-origin frames.
  let hit: Element | null = document.elementFromPoint(x, y)
  let hx = x
  let hy = y
  for (;;) {
    let inner: Element | null = null
    if (hit?.shadowRoot) inner = hit.shadowRoot.elementFromPoint(hx, hy)
    else if (hit !== null && (hit.localName === "iframe" || hit.localName === "frame")) {
      const frame = hit as HTMLIFrameElement
      let doc: Document | null = null
      try {
        doc = frame.contentDocument
      } catch {
        doc = null
      }
      if (doc !== null) {
        const origin = contentOrigin(frame)
        hx -= origin.left
        hy -= origin.top
        inner = doc.elementFromPoint(hx, hy)
      }
    }
    if (!inner || inner === hit) break
    hit = inner
  }
  if (!hit || !within(hit, element)) return notReady("covered")
  if (late()) return notReady("late")

  // The first mouse event of the click must reach the element; if it would reach another one (something
  // moved over it since the check), that event and the rest of the click are stopped before the page sees them.
  // Kept beside the ref registry, never in it: a click may come before any observation built the registry.
  const GUARD_KEY = Symbol.for("browser-workflow-mcp/click-guard")
  w[GUARD_KEY]?.stop()
  const GUARDED = ["pointerdown", "mousedown", "pointerup", "mouseup", "click"]
  let checked = false
  const guard = { token: args.token, ok: true, navigating: false, destinations: [] as Array<string>, stop: () => {} }
  const listener = (event: Event) => {
    // Page code dispatching its own mouse events decides nothing.
    if (!event.isTrusted) return
    if (!checked) {
      checked = true
      guard.ok = event.composedPath().includes(element)
    }
    if (guard.ok) return
    event.stopImmediatePropagation()
    event.preventDefault()
  }
  const timer = setTimeout(() => guard.stop(), 5_000)
  // The documents the click starts in, so that the caller can tell whether a navigation it started has committed.
  Object.defineProperty(w, Symbol.for("browser-workflow-mcp/click-documents"), {
    value: { token: args.token, frames: frames.map((frame) => ({ frame, doc: frame.contentDocument })) },
    enumerable: false,
    configurable: true,
    writable: true
  })
  // Mouse events stay in the document they happen in: listen in the element's frame and in every frame around it.
  const views: Array<Window> = [ownView, ...frames.map((frame) => frame.ownerDocument.defaultView!)]
  // A click that starts loading another document: the caller waits for it to commit, as Playwright's click does.
  const onNavigate = (event: any) => {
    if (event.destination?.sameDocument !== false || event.downloadRequest || event.defaultPrevented) return
    // Where it goes: a navigation a router intercepts lands there at once, in the same document.
    guard.navigating = true
    guard.destinations.push(event.destination.url)
  }
  guard.stop = () => {
    for (const view of views) {
      for (const type of GUARDED) view.removeEventListener(type, listener, true)
      ;(view as any).navigation?.removeEventListener("navigate", onNavigate)
    }
    clearTimeout(timer)
    if (w[GUARD_KEY] === guard) w[GUARD_KEY] = undefined
  }
  for (const view of views) {
    for (const type of GUARDED) view.addEventListener(type, listener, true)
    ;(view as any).navigation?.addEventListener("navigate", onNavigate)
  }
  Object.defineProperty(w, GUARD_KEY, { value: guard, enumerable: false, configurable: true, writable: true })
  return { ready: true, x, y }
}

/** Runs in the page after the mouse events: removes the guard and says whether every event hit the target. */
export const finishClick = (token: string): ClickVerdict => {
  const guard = (window as any)[Symbol.for("browser-workflow-mcp/click-guard")]
  if (!guard || guard.token !== token) return { ok: true, navigating: false }
  guard.stop()
  // Intercepted by a router (or cancelled by the page): this document is already at the destination, or nothing moves.
  const here = location.href
  const pending = guard.navigating && !guard.destinations.every((url: string) => url === here) && !(window as any).navigation?.transition
  return { ok: guard.ok, navigating: pending }
}

/** Runs in the page: whether every document the click with `token` started in is still the one shown. */
export const sameDocuments = (token: string): boolean => {
  const record = (window as any)[Symbol.for("browser-workflow-mcp/click-documents")]
  if (!record || record.token !== token) return false
  return record.frames.every((entry: { frame: HTMLIFrameElement; doc: Document | null }) => entry.frame.contentDocument === entry.doc)
}

/**
 * The expression that runs `prepareAction` in the page with the sensitivity check beside it and,
 * when `stateArgs` is given, reads the page's state in the same trip once the target is ready.
 */
export const prepareActionScript = (
  args: DirectArgs,
  isSensitive: (element: Element) => boolean,
  stateArgs: ObserveArgs | null
): string => {
  const prepare = `(${prepareAction.toString()})(${JSON.stringify(args)}, ${isSensitive.toString()}, ${isLiveElement.toString()})`
  if (stateArgs === null) return prepare
  return `${prepare}.then((result) => result.ready ? { ...result, page: ${observeExpression(stateArgs)} } : result)`
}

/** The expression that finishes a guarded click and reads the page's state in the same trip. */
export const finishClickScript = (token: string, stateArgs: ObserveArgs): string =>
  `(() => {
    const verdict = (${finishClick.toString()})(${JSON.stringify(token)})
    // The document is on its way out when the click navigates: its state is not the state after the click.
    if (verdict.navigating) return verdict
    try {
      return { ...verdict, page: ${observeExpression(stateArgs)} }
    } catch {
      return verdict
    }
  })()`
