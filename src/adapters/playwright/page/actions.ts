// Direct actions: one evaluation in the page checks that a target can be acted on right now (one
// element, visible, enabled, still, not covered) and prepares it, so that click and type need no
// selector machinery of Playwright's. Whenever the page answers "not ready", the caller falls back
// to Playwright's own action, which waits, retries and explains; so this path is only ever faster.
import { DIRECT_TOKEN, noteMatches } from "./candidates.js"
import { focusedElement } from "./dom.js"
import { isSensitiveField as isSensitive, readShownText } from "./fields.js"
import { armGuard as arm, GUARDED_EVENTS as events } from "./guard.js"
import { innerControl } from "./inner-control.js"
import { findTargets, notReady, within } from "./locate.js"
import { keepTypingTarget, segmentsFrom, stopWatch as stopTypingWatch, watchTyping } from "./typing.js"
import type { DirectArgs, DirectResult } from "./types.js"
import { isLiveElement as isLive, isVisibleElement as isVisible } from "./visibility.js"

/** Past this moment (the caller's clock, same machine) the caller has given up: no side effects any more. */
const late = (args: DirectArgs) => Date.now() > args.notAfter

/**
 * Runs in the page. Finds the target (see locate.ts), checks it as Playwright's actionability checks
 * would (visible, enabled; for a click also in view, still and what the pointer hits) and prepares it.
 */
export const prepareAction = async (args: DirectArgs): Promise<DirectResult> => {
  const matches = findTargets(args)
  if (!Array.isArray(matches)) return matches
  const isText = args.locator.kind === "selector" && args.locator.value.startsWith("text=")
  if (args.action === "hidden") {
    // No match is hidden, except for text, where Playwright also reads button values this path does not.
    if (matches.length === 0) return isText ? notReady("text may match a button value") : { ready: true }
    // Hidden as Playwright's wait on the first visible match sees it: none of the matches is visible.
    return matches.every((match) => !isVisible(match)) ? { ready: true } : notReady("still visible")
  }
  // Visible as that wait sees it: any of the matches is.
  if (args.action === "visible" && matches.length > 1) return matches.some((match) => isVisible(match)) ? { ready: true } : notReady("not visible")
  if (matches.length === 0) return notReady("no match")
  if (matches.length > 1) {
    // The Node side lists them with refs (MM_TARGET_AMBIGUOUS, session/candidates.ts).
    noteMatches(DIRECT_TOKEN, matches)
    return { ready: false, why: "ambiguous", count: matches.length }
  }
  const element = matches[0]!
  // A ref may name an element inside same-origin iframes: their elements, innermost first.
  const frames: Array<HTMLIFrameElement> = []
  for (let doc = element.ownerDocument; doc !== document; ) {
    const frame = doc.defaultView?.frameElement as HTMLIFrameElement | null | undefined
    if (!frame || !frame.isConnected) return notReady("detached frame")
    frames.push(frame)
    doc = frame.ownerDocument
  }
  // get_text reads an element whether anyone sees it or not (empty, with how it is hidden, when nobody does).
  if (args.action === "text") return { ready: true, read: readShownText(element) }
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
  if (args.action === "type") return prepareType(args, element)
  if (args.action === "press") return preparePress(args, element)
  return prepareClick(args, element, frames)
}

/**
 * A key press target: it holds the focus (the element or something inside it), given it when it lacks it
 * as Playwright's press gives it, with the guard armed for the key's events and the navigation it may
 * start (Enter submitting a form). The caller then presses the key.
 */
const preparePress = (args: DirectArgs, element: Element): DirectResult => {
  const holds = () => {
    const active = focusedElement()
    return active !== null && within(active, element)
  }
  if (late(args)) return notReady("late")
  if (!holds() && typeof (element as HTMLElement).focus === "function") (element as HTMLElement).focus()
  if (!holds()) return notReady("cannot focus")
  if (late(args)) return notReady("late")
  arm(element, args.token, args.report, events.type, true)
  return { ready: true, sensitive: isSensitive(element) }
}

/**
 * A type target: a text field or an editing host (contenteditable) that is not read-only, its content
 * selected and focused, with the guard armed and, when it drives a popup, the watch of the app's
 * answer started (page/typing.ts); kept under the token for the reads after the typing.
 */
const prepareType = (args: DirectArgs, element: Element): DirectResult => {
  const TEXT_TYPES = new Set(["", "text", "password", "search", "email", "tel", "url"])
  const tag = element.localName
  const isInput = tag === "input" && TEXT_TYPES.has((element.getAttribute("type") ?? "").toLowerCase())
  const host = !isInput && tag !== "textarea" && (element as HTMLElement).isContentEditable
  if (!isInput && tag !== "textarea" && !host) return notReady("not a text field")
  // A segment of a date or time field takes keys, not inserted text: Playwright's path types them.
  if (segmentsFrom(element) !== undefined) return notReady("a field's segment")
  const field = element as HTMLInputElement | HTMLTextAreaElement
  if ((!host && field.readOnly) || element.getAttribute("aria-readonly") === "true") return notReady("read-only")
  if (late(args)) return notReady("late")
  const firstMs = watchTyping(element)
  // As Playwright's fill: select everything, focus, then the caller inserts the text.
  if (host) {
    ;(element as HTMLElement).focus()
    const range = element.ownerDocument.createRange()
    range.selectNodeContents(element)
    const selection = element.ownerDocument.defaultView?.getSelection()
    selection?.removeAllRanges()
    selection?.addRange(range)
  } else {
    if (tag === "input") (field as HTMLInputElement).select()
    else field.setSelectionRange(0, field.value.length)
    field.focus()
  }
  const active = focusedElement()
  if (active !== element || late(args)) {
    stopTypingWatch(element)
    return notReady(active !== element ? "cannot focus" : "late")
  }
  arm(element, args.token, args.report, events.type, false)
  keepTypingTarget(element, args.token)
  return { ready: true, sensitive: isSensitive(element), at: performance.now(), ...(firstMs > 0 ? { firstMs } : {}) }
}

/** A click target: in view, still for a frame, and (here, or through the browser's geometry) what the pointer hits. */
const prepareClick = async (args: DirectArgs, element: Element, frames: Array<HTMLIFrameElement>): Promise<DirectResult> => {
  // A header or a cell whose one control inside names it is clicked through that control, which judges the effect (session/inner-control.ts).
  if (innerControl(element) !== undefined) return notReady("a control inside it is what a person clicks")
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
    if (late(args)) return notReady("late")
    Object.defineProperty(window, Symbol.for("browser-workflow-mcp/measure"), {
      value: { token: args.token, element, boxes: after.map((box) => [box.left, box.top, box.width, box.height]) },
      enumerable: false,
      configurable: true,
      writable: true
    })
    return { ready: "measure", viewport: { width: innerWidth, height: innerHeight, scrollX, scrollY } }
  }
  // In the top document, the bounding box is the browser's own geometry (transforms included), as Playwright's boundingBox.
  const box = after[0]!
  // A tree item's box holds its open group of children: it is clicked on its own label, not in the middle.
  const own = ownLabelPoint(element, box)
  // Cut to hundredths toward zero, as Playwright's point.
  const x = Math.trunc((own?.x ?? box.left + box.width / 2) * 100) / 100
  const y = Math.trunc((own?.y ?? box.top + box.height / 2) * 100) / 100
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
  if (late(args)) return notReady("late")
  arm(element, args.token, args.report, events.click, true)
  return { ready: true, x, y }
}

/**
 * The point a person clicks on a tree item: the middle of its own label (its first line of text that is
 * not inside one of its role=group children; a row wider than its label does not take the click in every
 * tree), else of the part of its box above its open group; undefined for anything but a treeitem.
 */
const ownLabelPoint = (element: Element, box: DOMRect): { readonly x: number; readonly y: number } | undefined => {
  if (!(element.getAttribute("role") ?? "").split(/\s+/).includes("treeitem")) return undefined
  const inGroup = (node: Node): boolean => {
    for (let parent = node.parentElement; parent !== null && parent !== element; parent = parent.parentElement) {
      if ((parent.getAttribute("role") ?? "").split(/\s+/).includes("group")) return true
    }
    return false
  }
  const groups = Array.from(element.querySelectorAll("[role~=group]")).filter((group) => !inGroup(group) && group.getClientRects().length > 0)
  const inside = (x: number, y: number) => x >= box.left && x < box.right && y >= box.top && y < box.bottom
  const walker = element.ownerDocument.createTreeWalker(element, NodeFilter.SHOW_TEXT)
  for (let text = walker.nextNode(); text !== null; text = walker.nextNode()) {
    if ((text.textContent ?? "").trim() === "" || inGroup(text)) continue
    const range = element.ownerDocument.createRange()
    range.selectNodeContents(text)
    const line = range.getClientRects()[0]
    if (line === undefined || line.width === 0 || line.height === 0) continue
    const point = { x: line.left + line.width / 2, y: line.top + line.height / 2 }
    if (inside(point.x, point.y)) return point
  }
  if (groups.length === 0) return undefined
  const top = Math.min(...groups.map((group) => group.getBoundingClientRect().top))
  return top > box.top + 1 ? { x: box.left + box.width / 2, y: (box.top + Math.min(top, box.bottom)) / 2 } : undefined
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
  args: { readonly token: string; readonly report: string; readonly notAfter: number }
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
  arm(element, args.token, args.report, events.click, true)
  return { ready: true }
}
