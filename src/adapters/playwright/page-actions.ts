// Direct actions: one evaluation in the page checks that a target can be acted on right now (one
// element, visible, enabled, still, not covered) and prepares it, so that click and type need no
// selector machinery of Playwright's. Whenever the page answers "not ready", the caller falls back
// to Playwright's own action, which waits, retries and explains; so this path is only ever faster.
// After the input, a guard in the page tells whether the first trusted event reached the target:
// success is reported only then (see "Acting on an element" in docs/architecture.md).
// Everything here that runs in the page (in our isolated world) must be self-contained.
import type { DescribeAnswer } from "./page-durable.js"
import { isLiveElement, isSensitiveField, isVisibleElement, readPageState, type ObserveArgs, type ObserveResult } from "./page-script.js"

export interface DirectLocator {
  readonly kind: "a11yRef" | "testId" | "selector"
  readonly value: string
}

export interface DirectArgs {
  readonly action: "click" | "type" | "visible" | "hidden"
  readonly locator: DirectLocator
  readonly within: DirectLocator | null
  readonly testIdAttribute: string
  /** Names the guard, so that finishing an action never touches another action's guard. */
  readonly token: string
  /** Date.now() after which the caller no longer waits: the page must not focus or arm anything then. */
  readonly notAfter: number
  /** The binding through which the guard reports its verdict at once, or "" when it does not reach this document. */
  readonly report: string
}

/** The top window's viewport and scroll, for turning content quads into a point and a hit test. */
export interface Viewport {
  readonly width: number
  readonly height: number
  readonly scrollX: number
  readonly scrollY: number
}

export type DirectResult =
  | {
      readonly ready: true
      readonly x?: number
      readonly y?: number
      readonly sensitive?: boolean
      /** The page's state read in the same trip, when asked for. */
      readonly page?: ObserveResult
      /** The target's durable forms read in the same trip, when asked for (see page-durable.ts). */
      readonly described?: DescribeAnswer
    }
  /**
   * A click target whose point the page cannot tell by itself (inside frames, or an inline element of several pieces):
   * the element waits under the token for the browser's own geometry and hit test (see direct.ts).
   */
  | { readonly ready: "measure"; readonly viewport: Viewport; readonly described?: DescribeAnswer }
  | { readonly ready: false; readonly why: string; readonly staleRef?: boolean }

/**
 * What a guard saw: `seen` when a trusted event of the action arrived, `hit` when the first one
 * reached the target (else it and the rest of the action were stopped before the page saw them).
 */
export interface GuardVerdict {
  readonly seen: boolean
  readonly hit: boolean
  /** A mouse event of the click started loading another document (in the page or one of its frames). */
  readonly navigating: boolean
  /** The click reached a file input (itself, through a label, or by the page's own input.click()) that opens a chooser. */
  readonly choosing?: boolean
  /** The page's state read in the same trip, right after the action. */
  readonly page?: ObserveResult
}

/** What a guard reports through the binding: `${token} target` or `${token} other`. */
export type GuardReport = "target" | "other"

/** The trusted events a guard watches, by action. */
const GUARDED_EVENTS = {
  click: ["pointerdown", "mousedown", "pointerup", "mouseup", "click"],
  type: ["keydown", "beforeinput", "input", "keyup"]
} as const

/**
 * Runs in the page: arms the guard of one action on `element`. The first trusted event of the
 * action, wherever it lands in the element's document or a document around it, decides: on the
 * element (or inside it) the action goes on untouched; anywhere else that event and every later one
 * are stopped and their default actions prevented, before the page's own listeners below the window
 * see them. The verdict is sent through the report binding at once (it outlives a document that the
 * action replaces) and kept for `finishGuard`. A click also notes navigations it starts.
 */
export const armGuard = (element: Element, token: string, report: string, events: ReadonlyArray<string>, watchNavigation: boolean): void => {
  const KEY = Symbol.for("browser-workflow-mcp/guard")
  const w = window as any
  w[KEY]?.stop()
  const frames: Array<Element> = []
  for (let doc = element.ownerDocument; doc !== document; ) {
    const frame = doc.defaultView?.frameElement
    if (!frame) break
    frames.push(frame)
    doc = frame.ownerDocument
  }
  const send: ((payload: string) => void) | undefined = report !== "" && typeof w[report] === "function" ? w[report] : undefined
  const guard = {
    token,
    first: undefined as boolean | undefined,
    navigating: false,
    destinations: [] as Array<string>,
    // Submissions the click caused whose navigation the browser has not started yet (it does so in a task of its own).
    submits: [] as Array<SubmitEvent>,
    // Clicks on file inputs during the action (a label's or the page's own count too): a chooser opens unless prevented.
    fileClicks: [] as Array<Event>,
    // The documents the action starts in, so that the caller can tell whether a navigation it started has committed.
    documents: frames.map((frame) => ({ frame, doc: (frame as HTMLIFrameElement).contentDocument })),
    stop: () => {}
  }
  const listener = (event: Event) => {
    // Page code dispatching its own events decides nothing.
    if (!event.isTrusted) return
    if (guard.first === undefined) {
      guard.first = event.composedPath().includes(element)
      try {
        send?.(`${token} ${guard.first ? "target" : "other"}`)
      } catch {
        // The verdict is still kept for finishGuard.
      }
    }
    if (guard.first) return
    event.stopImmediatePropagation()
    event.preventDefault()
  }
  // A navigation the action starts: the caller waits for it to commit, as Playwright's click does.
  const onNavigate = (event: any) => {
    // From here on the navigation itself says where it goes.
    guard.submits.length = 0
    if (event.destination?.sameDocument !== false || event.downloadRequest || event.defaultPrevented) return
    // Where it goes: a navigation a router intercepts lands there at once, in the same document.
    guard.navigating = true
    guard.destinations.push(event.destination.url)
  }
  // Events stay in the document they happen in: listen in the element's frame and in every frame around it.
  const views: Array<Window> = [element.ownerDocument.defaultView!, ...frames.map((frame) => frame.ownerDocument.defaultView!)]
  const onSubmit = (event: Event) => {
    if (event.isTrusted) guard.submits.push(event as SubmitEvent)
  }
  const onClick = (event: Event) => {
    const target = event.target as Element | null
    if (target?.localName === "input" && (target as HTMLInputElement).type === "file") guard.fileClicks.push(event)
  }
  const timer = setTimeout(() => guard.stop(), 10_000)
  guard.stop = () => {
    for (const view of views) {
      for (const type of events) view.removeEventListener(type, listener, true)
      if (watchNavigation) {
        ;(view as any).navigation?.removeEventListener("navigate", onNavigate)
        view.removeEventListener("submit", onSubmit, true)
        view.removeEventListener("click", onClick, true)
      }
    }
    clearTimeout(timer)
  }
  for (const view of views) {
    for (const type of events) view.addEventListener(type, listener, true)
    if (watchNavigation) {
      ;(view as any).navigation?.addEventListener("navigate", onNavigate)
      view.addEventListener("submit", onSubmit, true)
      view.addEventListener("click", onClick, true)
    }
  }
  // Kept beside the ref registry, never in it: an action may come before any observation built the registry.
  Object.defineProperty(w, KEY, { value: guard, enumerable: false, configurable: true, writable: true })
}

/** Runs in the page after the input: removes the guard with `token` and says what it saw. */
export const finishGuard = (token: string): GuardVerdict => {
  const guard = (window as any)[Symbol.for("browser-workflow-mcp/guard")]
  if (!guard || guard.token !== token) return { seen: false, hit: false, navigating: false }
  guard.stop()
  // Intercepted by a router (or cancelled by the page): this document is already at the destination, or nothing moves.
  const here = location.href
  const pending = guard.navigating && !guard.destinations.every((url: string) => url === here) && !(window as any).navigation?.transition
  // A form the click submitted, which nothing prevented, loads its answer into this page once the browser gets to it.
  const submitting = guard.submits.some((event: SubmitEvent) => {
    if (event.defaultPrevented) return false
    const form = event.target as HTMLFormElement
    const submitter = event.submitter as HTMLButtonElement | HTMLInputElement | null
    const method = (submitter?.getAttribute("formmethod") ?? form.getAttribute("method") ?? "").toLowerCase()
    const target = submitter?.getAttribute("formtarget") ?? form.getAttribute("target") ?? form.ownerDocument.querySelector("base[target]")?.getAttribute("target") ?? ""
    return method !== "dialog" && /^(|_self|_parent|_top)$/i.test(target)
  })
  const choosing = guard.fileClicks.some((event: Event) => !event.defaultPrevented && !(event.target as HTMLInputElement).disabled)
  return { seen: guard.first !== undefined, hit: guard.first === true, navigating: pending || submitting, ...(choosing ? { choosing } : {}) }
}

/** Runs in the page: whether every document the action with `token` started in is still the one shown. */
export const sameDocuments = (token: string): boolean => {
  const guard = (window as any)[Symbol.for("browser-workflow-mcp/guard")]
  if (!guard || guard.token !== token) return false
  return guard.documents.every((entry: { frame: HTMLIFrameElement; doc: Document | null }) => entry.frame.contentDocument === entry.doc)
}

/**
 * Runs in the page. Resolves the target the way Playwright would for the simple cases (a ref, a
 * test id, a plain CSS selector, an unquoted `text=` selector for waits) and answers "not ready"
 * for anything else, so that the caller hands it to Playwright.
 */
export const prepareAction = async (
  args: DirectArgs,
  isSensitive: (element: Element) => boolean,
  isLive: (element: Element) => boolean,
  isVisible: (element: Element) => boolean,
  arm: (element: Element, token: string, report: string, events: ReadonlyArray<string>, watchNavigation: boolean) => void,
  events: { readonly click: ReadonlyArray<string>; readonly type: ReadonlyArray<string> }
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

  if (args.action === "hidden") {
    // No match is hidden, except for text, where Playwright also reads button values this path does not.
    if (matches.length === 0) return isText ? notReady("text may match a button value") : { ready: true }
    return matches.length === 1 && !isVisible(matches[0]!) ? { ready: true } : notReady("still visible")
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
  if (!isVisible(element)) return notReady("not visible")
  if (args.action === "visible") return { ready: true }
  if (!frames.every((frame) => isVisible(frame))) return notReady("frame not visible")

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
    if (late()) return notReady("late")
    arm(element, args.token, args.report, events.type, false)
    return { ready: true, sensitive: isSensitive(element) }
  }

  // click: in view, still for a frame, and (here, or through the browser's geometry) the element is what the pointer hits.
  // Pinch zoom moves the visual viewport against the one page coordinates live in: Playwright's.
  const visual = window.visualViewport
  if (visual && (visual.scale !== 1 || visual.offsetLeft !== 0 || visual.offsetTop !== 0)) return notReady("pinch zoom")
  const inView = (target: Element) => {
    const rect = target.getBoundingClientRect()
    const view = target.ownerDocument.defaultView!
    return rect.top >= 0 && rect.left >= 0 && rect.bottom <= view.innerHeight && rect.right <= view.innerWidth
  }
  if (!inView(element) || !frames.every(inView)) element.scrollIntoView({ block: "center", inline: "center", behavior: "instant" })
  const boxes = () => [element, ...frames].map((target) => target.getBoundingClientRect())
  const before = boxes()
  await new Promise<void>((resolveFrame) => {
    requestAnimationFrame(() => resolveFrame())
    setTimeout(resolveFrame, 50)
  })
  if (!element.isConnected) return notReady("detached")
  const after = boxes()
  const moved = after.some(
    (box, i) => box.left !== before[i]!.left || box.top !== before[i]!.top || box.width !== before[i]!.width || box.height !== before[i]!.height
  )
  if (moved) return notReady("moving")
  // Playwright clicks the middle of the first content quad. For a box, that is its bounding box's middle; an
  // inline element is made of its pieces' boxes (text runs, inline blocks), except a lone text run on one line.
  const single =
    getComputedStyle(element).display !== "inline" ||
    (element.childNodes.length === 1 && element.firstChild!.nodeType === Node.TEXT_NODE && element.getClientRects().length === 1)
  // A transform on the element or around it (a perspective makes the quad no parallelogram, whose middle is
  // not its bounding box's), or a box the viewport cuts (Playwright clips the quad first): a point the page
  // would compute through them may not be Playwright's, so the browser's own quads give it.
  const transformed = (): boolean => {
    for (let node: Node | null = element; node; node = node.parentNode ?? ((node as ShadowRoot).host as Node | undefined) ?? null) {
      if (node.nodeType !== Node.ELEMENT_NODE) continue
      const style = getComputedStyle(node as Element)
      if (style.transform !== "none" || style.perspective !== "none" || style.rotate !== "none" || style.scale !== "none" || style.translate !== "none") {
        return true
      }
      if (style.offsetPath !== undefined && style.offsetPath !== "none") return true
    }
    return false
  }
  const cut = after[0]!.left < 0 || after[0]!.top < 0 || after[0]!.right > innerWidth || after[0]!.bottom > innerHeight
  if (frames.length > 0 || !single || cut || transformed()) {
    // The page cannot map its own coordinates through frames, nor tell an inline element's first piece: the browser measures.
    if (late()) return notReady("late")
    Object.defineProperty(w, Symbol.for("browser-workflow-mcp/measure"), {
      value: { token: args.token, element, boxes: after.map((box) => [box.left, box.top, box.width, box.height]) },
      enumerable: false,
      configurable: true,
      writable: true
    })
    return { ready: "measure", viewport: { width: innerWidth, height: innerHeight, scrollX, scrollY } }
  }
  // In the top document, the bounding box is the browser's own geometry (transforms included), as Playwright's boundingBox.
  const box = after[0]!
  // Cut to hundredths toward zero, as Playwright's point.
  const x = Math.trunc((box.left + box.width / 2) * 100) / 100
  const y = Math.trunc((box.top + box.height / 2) * 100) / 100
  if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return notReady("out of view")
  // What the pointer hits there, down through open shadow roots; a frame there (of any origin) is not the element.
  let hit: Element | null = document.elementFromPoint(x, y)
  while (hit?.shadowRoot) {
    const inner: Element | null = hit.shadowRoot.elementFromPoint(x, y)
    if (!inner || inner === hit) break
    hit = inner
  }
  if (!hit || !within(hit, element)) return notReady("covered")
  // A frame under the point takes the events into its own document, where the guard cannot see them: Playwright's.
  if (/^(iframe|frame|object|embed)$/.test(hit.localName)) return notReady("a frame under the point")
  if (late()) return notReady("late")
  arm(element, args.token, args.report, events.click, true)
  return { ready: true, x, y }
}

/** Runs in the page (our world): the element a "measure" answer left under `token`, or null. */
export const measuredElement = (token: string): Element | null => {
  const pending = (window as any)[Symbol.for("browser-workflow-mcp/measure")]
  return pending && pending.token === token ? pending.element : null
}

/**
 * Runs in the page with `this` the measured element and `hit` the node the browser's own hit test
 * found at the click point: ready (and the guard armed) when the hit is the element or inside it and
 * nothing moved since it was measured.
 */
export const verifyMeasured = function (
  this: Element,
  hit: Node | null,
  args: { readonly token: string; readonly report: string; readonly notAfter: number },
  isLive: (element: Element) => boolean,
  arm: (element: Element, token: string, report: string, events: ReadonlyArray<string>, watchNavigation: boolean) => void,
  events: ReadonlyArray<string>
): DirectResult {
  const KEY = Symbol.for("browser-workflow-mcp/measure")
  const pending = (window as any)[KEY]
  const element = this
  if (!pending || pending.token !== args.token || pending.element !== element) return { ready: false, why: "measured another element" }
  ;(window as any)[KEY] = undefined
  if (!isLive(element)) return { ready: false, why: "detached" }
  const frames: Array<Element> = []
  for (let doc = element.ownerDocument; doc !== document; ) {
    const frame = doc.defaultView?.frameElement
    if (!frame) return { ready: false, why: "detached frame" }
    frames.push(frame)
    doc = frame.ownerDocument
  }
  const now = [element, ...frames].map((target) => {
    const box = target.getBoundingClientRect()
    return [box.left, box.top, box.width, box.height]
  })
  if (JSON.stringify(now) !== JSON.stringify(pending.boxes)) return { ready: false, why: "moving" }
  let node: Node | null = hit
  while (node && node !== element) node = node.parentNode ?? ((node as ShadowRoot).host as Node | undefined) ?? null
  if (node !== element) return { ready: false, why: "covered" }
  if (hit !== null && hit.nodeType === 1 && /^(iframe|frame|object|embed)$/.test((hit as Element).localName)) return { ready: false, why: "a frame under the point" }
  if (Date.now() > args.notAfter) return { ready: false, why: "late" }
  arm(element, args.token, args.report, events, true)
  return { ready: true }
}

/** The functions an action runs in the page, installed once per document under a key naming their version. */
const actionsBundle = (): string =>
  `{ prepare: ${prepareAction.toString()}, finish: ${finishGuard.toString()}, read: ${readPageState.toString()}, isSensitive: ${isSensitiveField.toString()}, isLive: ${isLiveElement.toString()}, isVisible: ${isVisibleElement.toString()}, arm: ${armGuard.toString()}, events: ${JSON.stringify(GUARDED_EVENTS)} }`

let actionsKey: string | undefined

/** The key the action functions are installed under in a document (see page-eval.ts hasInstalled). */
export const actionsInstallKey = (): string => (actionsKey ??= `browser-workflow-mcp/actions:${actionsBundle().length}`)

/**
 * An expression over the installed action functions (`actions` in `body`): with `install`, it installs
 * them first (some 25 KB of source, sent once per document); without, a document that lacks them
 * answers `missing`.
 */
const withActions = (install: boolean, body: string, missing: string): string =>
  `(() => {
    const key = Symbol.for(${JSON.stringify(actionsInstallKey())})
    ${install ? `Object.defineProperty(window, key, { value: ${actionsBundle()}, enumerable: false, configurable: true })` : ""}
    const actions = window[key]
    if (actions === undefined) return ${missing}
    ${body}
  })()`

/** What an action's script answers on a document without the action functions: send it again with `install`. */
export interface ActionsMissing {
  readonly missing: true
}

/**
 * The expression that runs `prepareAction` in the page with the checks beside it; once the target is
 * ready, it describes the target (`describe`, an expression of page-durable.ts) and, when `stateArgs`
 * is given, reads the page's state, all in the same trip and before any input.
 */
export const prepareActionScript = (
  args: DirectArgs,
  options: { readonly stateArgs: ObserveArgs | null; readonly describe: string | null; readonly install: boolean }
): string =>
  withActions(
    options.install,
    `return actions.prepare(${JSON.stringify(args)}, actions.isSensitive, actions.isLive, actions.isVisible, actions.arm, actions.events).then((result) => {
      if (result.ready === false) return result
      ${
        options.describe === null
          ? ""
          : `let described = null
      try { described = ${options.describe} } catch { described = null }
      if (described !== null) result = { ...result, described }`
      }
      ${options.stateArgs === null ? "" : `if (result.ready === true) result = { ...result, page: actions.read(${JSON.stringify(options.stateArgs)}, actions.isVisible) }`}
      return result
    })`,
    "{ missing: true }"
  )

/** The function declaration that runs `verifyMeasured` on the measured element (Runtime.callFunctionOn). */
export const verifyMeasuredDeclaration = (): string =>
  `function (hit, args) { return (${verifyMeasured.toString()}).call(this, hit, args, ${isLiveElement.toString()}, ${armGuard.toString()}, ${JSON.stringify(GUARDED_EVENTS.click)}) }`

/**
 * The expression that finishes a guarded action and reads the page's state in the same trip. A
 * document without the action functions is not the one the guard was armed in: nothing seen there.
 */
export const finishGuardScript = (token: string, stateArgs: ObserveArgs): string =>
  withActions(
    false,
    `const verdict = actions.finish(${JSON.stringify(token)})
    // The document is on its way out when the action navigates: its state is not the state after it.
    if (verdict.navigating) return verdict
    try {
      return { ...verdict, page: actions.read(${JSON.stringify(stateArgs)}, actions.isVisible) }
    } catch {
      return verdict
    }`,
    "{ seen: false, hit: false, navigating: false }"
  )
