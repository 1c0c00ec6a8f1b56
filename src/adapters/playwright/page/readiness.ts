// In the page: whether an element can take an action now and, when it cannot, why in words an agent
// can act on (display:none on which element, covered by which element, read-only...), or which element
// a person would act through instead (its label, its shadow host, the control its component draws over
// it). Also the watch that tells whether an action through another element had its effect on the
// target, and the checked state as a person reads it. Driven by session/readiness.ts.
import { focusedElement, inputChecked, parentOf } from "./dom.js"
import { isCaretInput } from "./visibility.js"

/** The actions the readiness check knows: pointer actions hit-test the point, `type` wants an editable field. */
export type ReadinessAction = "click" | "hover" | "type" | "select_option" | "set_checked" | "drag" | "upload_file"

export interface ReadinessArgs {
  readonly action: ReadinessAction
  /** Whether the action may go through another element a person would use (its label, host, drawn control, editor). */
  readonly through: boolean
}

/** What a person acts through instead of the target: its label, its shadow host, the control its component draws, the editor around its caret-sized input. */
export type ThroughHow = "label" | "host" | "drawn control" | "editor"

/** Why an element cannot take an action now (see NotReady). */
export type NotReadyReason = "detached" | "hidden" | "clipped" | "off-screen" | "disabled" | "read-only" | "not-editable" | "covered" | "moving"

export type Readiness =
  | { readonly ready: true }
  /** Acted on through `via` (a description of it), found by `how`; the element is the handle's `element`. */
  | { readonly ready: "through"; readonly how: ThroughHow; readonly via: string }
  | {
      readonly ready: false
      readonly reason: NotReadyReason
      /** The reason in words, e.g. "covered by <div class="overlay"> at its click point". */
      readonly detail: string
      /** Something on its way may change it (a running animation, a box still moving). */
      readonly changing: boolean
      /** What works on it instead, when the page knows (the keys of a slider it draws). */
      readonly instead?: string
    }

/**
 * Text the page chose (an id, a class, a role, an element's words) as a reason quotes it: JSON-quoted, so
 * its own quotes are escaped and it cannot end the quote and go on as the server's words, and at most
 * `max` characters (then "…").
 */
const pageQuoted = (text: string, max: number): string => JSON.stringify(text.length > max ? `${text.slice(0, max - 1)}…` : text)

/** A name the page chose, bare when it is a short plain identifier (#box, .overlay), else quoted as the page's. */
const pageName = (text: string, bare: string, attribute: string): string =>
  /^[A-Za-z_][\w-]{0,39}$/.test(text) ? `${bare}${text}` : `[${attribute}=${pageQuoted(text, 40)}]`

/** An element's tag (a custom element's name is the page's: cut short) with its id and first class: div#box.panel. */
const nodeName = (node: Element): string => {
  const firstClass = typeof node.className === "string" ? (node.className.trim().split(/\s+/)[0] ?? "") : ""
  return `${node.localName.slice(0, 40)}${node.id !== "" ? pageName(node.id, "#", "id") : ""}${firstClass !== "" ? pageName(firstClass, ".", "class") : ""}`
}

/**
 * Runs in the page: a short description of an element, as an agent can recognise it (tag, id, classes, role,
 * name), each of the page's words quoted and bounded (pageQuoted): <div id="x" class="overlay"> "Accept".
 */
export const previewElement = (element: Element): string => {
  const tag = element.localName.slice(0, 40)
  const id = element.id !== "" ? pageName(element.id, "#", "id") : ""
  const classes = typeof element.className === "string" ? element.className.trim().split(/\s+/).filter((name) => name !== "").slice(0, 3) : []
  const role = element.getAttribute("role")
  const label = element.getAttribute("aria-label") ?? ""
  const text = (label !== "" ? label : (element as HTMLElement).innerText ?? element.textContent ?? "").replace(/\s+/g, " ").trim()
  return `<${tag}${id}${classes.length > 0 ? ` class=${pageQuoted(classes.join(" "), 40)}` : ""}${role !== null ? ` role=${pageQuoted(role, 30)}` : ""}>${text !== "" ? ` ${pageQuoted(text, 40)}` : ""}`
}

/** Runs in the page: how an element is hidden (which rule on which element), or undefined when it is rendered with a box. */
export const hiddenHow = (element: Element): string | undefined => {
  const where = (node: Element) => (node === element ? "on it" : `on ${nodeName(node)} around it`)
  for (let node: Element | null = element; node !== null; node = parentOf(node)) {
    const style = getComputedStyle(node)
    if (style.display === "none") return `display:none ${where(node)}`
    if (node.localName === "details" && node !== element && !(node as HTMLDetailsElement).open && !(element.localName === "summary" && element.parentElement === node)) {
      return `inside a closed <details>`
    }
    if (style.contentVisibility === "hidden" && node !== element) return `content-visibility:hidden ${where(node)}`
  }
  const style = getComputedStyle(element)
  if (style.display === "contents") return undefined
  if (style.visibility !== "visible") {
    let source: Element = element
    for (let node: Element | null = parentOf(element); node !== null && getComputedStyle(node).visibility !== "visible"; node = parentOf(node)) source = node
    return `visibility:${style.visibility} ${where(source)}`
  }
  const rect = element.getBoundingClientRect()
  if (rect.width === 0 || rect.height === 0) return `it has no size (${Math.round(rect.width)}×${Math.round(rect.height)} px)`
  return undefined
}

/** Runs in the page: whether `inner` is `outer` or inside it, across shadow roots and slots (the composed tree). */
export const composedWithin = (inner: Element, outer: Element): boolean => {
  for (let node: Element | null = inner; node !== null; ) {
    if (node === outer) return true
    node = node.assignedSlot ?? parentOf(node)
  }
  return false
}

/** Runs in the page: disabled as Playwright sees it (native, a disabled fieldset, aria-disabled on it or above). */
export const isDisabledElement = (element: Element): boolean => {
  for (let node: Element | null = element; node !== null; node = parentOf(node)) {
    if (node.matches(":disabled") || node.getAttribute("aria-disabled") === "true") return true
  }
  return false
}

/** Input types that take text (typed, or set whole as Playwright's fill sets a date or a colour). */
const FILLABLE_INPUTS = new Set(["", "text", "search", "email", "tel", "url", "password", "number", "date", "datetime-local", "month", "time", "week", "color", "range"])
/** Roles of elements that take keystrokes as text (a code editor's input). */
const TEXT_ROLES = new Set(["textbox", "searchbox", "combobox", "spinbutton"])

/**
 * Runs in the page: for a slider or spin button the page draws (role slider or spinbutton on an element
 * that is neither an input nor an editing host), what it is in words and the keys that set it.
 */
export const keyedControl = (element: Element): { readonly what: string; readonly keys: string } | undefined => {
  const role = element.getAttribute("role")
  if ((role !== "slider" && role !== "spinbutton") || element.localName === "input" || (element as HTMLElement).isContentEditable) return undefined
  const now = element.getAttribute("aria-valuetext") ?? element.getAttribute("aria-valuenow")
  const [min, max] = [element.getAttribute("aria-valuemin"), element.getAttribute("aria-valuemax")]
  // A number as it is; any other value the page wrote, quoted as the page's.
  const shown = (text: string) => (/^-?\d{1,15}(?:\.\d{1,6})?$/.test(text.trim()) ? text.trim() : pageQuoted(text, 40))
  const value = now === null ? "" : `, now ${shown(now)}${min !== null && max !== null ? ` of ${shown(min)} to ${shown(max)}` : ""}`
  const slider = role === "slider"
  return {
    what: `it is a ${slider ? "slider" : "spin button"} drawn by the page (${previewElement(element)}${value}), which takes keys, not text`,
    keys: `Set it with mm_press_key on it: ${slider ? "ArrowRight or ArrowUp one step up, ArrowLeft or ArrowDown one step down, PageUp/PageDown a larger step" : "ArrowUp one step up, ArrowDown one step down"}, Home/End to its minimum/maximum; mm_get_text reads its value.`
  }
}

/** Runs in the page: why the element (or the control of a label) takes no typing, in words with what to use instead; undefined when it does. */
export const notEditableWhy = (element: Element): string | undefined => {
  const target = element.localName === "label" ? ((element as HTMLLabelElement).control ?? element) : element
  const tag = target.localName
  if (tag === "textarea" || (target as HTMLElement).isContentEditable) return undefined
  if (tag === "input") {
    const type = (target.getAttribute("type") ?? "").toLowerCase()
    if (FILLABLE_INPUTS.has(type)) return undefined
    const instead = type === "checkbox" || type === "radio" ? "mm_set_checked" : type === "file" ? "mm_upload_file" : "mm_click"
    return `it is an input of type ${type}, which takes no text (use ${instead})`
  }
  const keyed = keyedControl(target)
  if (keyed !== undefined) return keyed.what
  const role = target.getAttribute("role")
  if (role !== null && TEXT_ROLES.has(role)) return undefined
  if (tag === "select") return "it is a select, which takes no text (use mm_select_option)"
  return `it is ${previewElement(target)}, not a field (an input, a text area or an editable element)`
}

/**
 * Runs in the page: what is left of the element's first box inside every ancestor that clips it (its
 * overflow, or the CSS clip of an absolutely placed one: a "visually hidden" wrapper), or which one clips
 * it away.
 */
const shownBox = (element: Element): { readonly box: DOMRect; readonly left: number; readonly top: number; readonly right: number; readonly bottom: number } | string => {
  const box = element.getClientRects()[0] ?? element.getBoundingClientRect()
  let [left, top, right, bottom] = [box.left, box.top, box.right, box.bottom]
  for (let node: Element | null = parentOf(element); node !== null; node = parentOf(node)) {
    const style = getComputedStyle(node)
    const clip = node.getBoundingClientRect()
    // Cuts the box to [l, t, r, b]; false when nothing is left.
    const cut = (l: number, t: number, r: number, b: number) => {
      ;[left, top, right, bottom] = [Math.max(left, l), Math.max(top, t), Math.min(right, r), Math.min(bottom, b)]
      return left < right && top < bottom
    }
    if ((style.overflowX !== "visible" || style.overflowY !== "visible") && !cut(clip.left, clip.top, clip.right, clip.bottom)) {
      return `it is clipped by ${nodeName(node)} around it (overflow: ${style.overflowX === "visible" ? style.overflowY : style.overflowX})`
    }
    const rect = /^rect\((.*)\)$/.exec(style.position === "absolute" || style.position === "fixed" ? style.clip : "")?.[1]?.split(/[\s,]+/)
    const side = (value: string, auto: number) => (value === "auto" ? auto : parseFloat(value))
    if (rect?.length === 4 && !cut(clip.left + side(rect[3]!, -Infinity), clip.top + side(rect[0]!, -Infinity), clip.left + side(rect[1]!, Infinity), clip.top + side(rect[2]!, Infinity))) {
      return `it is clipped by ${nodeName(node)} around it (clip: ${style.clip})`
    }
  }
  return { box, left, top, right, bottom }
}

/** Overflow values of a box that scrolls (by script and by Playwright's scrollIntoView, if not by a person: hidden). */
const SCROLLS = new Set(["auto", "scroll", "hidden"])

/**
 * Runs in the page: whether scrolling the box around the element that clips it away (the nearest one whose
 * view it is out of) could bring part of it into view: that box scrolls, is more than a pixel each way (not
 * a visually hidden wrapper), and the element lies inside its scrollable content. A CSS clip no scroll undoes.
 */
export const scrollCanReveal = (element: Element): boolean => {
  const box = element.getBoundingClientRect()
  for (let node: Element | null = parentOf(element); node !== null; node = parentOf(node)) {
    const style = getComputedStyle(node)
    if ((style.position === "absolute" || style.position === "fixed") && style.clip !== "auto" && style.clip !== "") return false
    if (style.overflowX === "visible" && style.overflowY === "visible") continue
    const view = node.getBoundingClientRect()
    if (box.right > view.left && box.left < view.right && box.bottom > view.top && box.top < view.bottom) continue
    if (!SCROLLS.has(style.overflowX) && !SCROLLS.has(style.overflowY)) return false
    if (view.width <= 1 || view.height <= 1) return false
    const left = view.left + node.clientLeft - node.scrollLeft
    const top = view.top + node.clientTop - node.scrollTop
    return box.right > left && box.left < left + node.scrollWidth && box.bottom > top && box.top < top + node.scrollHeight
  }
  return false
}

/** Runs in the page: whether a scroll could move the element (the page, or a box around it, has room to scroll). */
export const canScrollAround = (element: Element): boolean => {
  const page = element.ownerDocument.scrollingElement
  if (page !== null && (page.scrollHeight > page.clientHeight + 1 || page.scrollWidth > page.clientWidth + 1)) return true
  for (let node: Element | null = parentOf(element); node !== null; node = parentOf(node)) {
    const style = getComputedStyle(node)
    if (!SCROLLS.has(style.overflowX) && !SCROLLS.has(style.overflowY)) continue
    if (node.scrollHeight > node.clientHeight + 1 || node.scrollWidth > node.clientWidth + 1) return true
  }
  return false
}

/**
 * Runs in the page: whether a person cannot see the element because what clips it leaves at most a pixel of
 * it (a control a component hides for assistive technology inside a 1×1 clipped wrapper), or nothing.
 */
const clippedAway = (element: Element): boolean => {
  const shown = shownBox(element)
  return typeof shown === "string" || shown.right - shown.left <= 1 || shown.bottom - shown.top <= 1
}

/**
 * Runs in the page: what the pointer hits at the element's click point (the middle of its first box,
 * clipped to the viewport), down through open shadow roots; or why there is no such point (clipped
 * away, off-screen where nothing can scroll to, or "not in view yet": Playwright scrolls it).
 */
export const hitAt = (element: Element): { readonly hit: Element | null; readonly x: number; readonly y: number } | string => {
  const view = element.ownerDocument.defaultView!
  // Never scrolled here: Playwright's action, running meanwhile, scrolls the element into view itself.
  const shown = shownBox(element)
  if (typeof shown === "string") return shown
  const { box, left, top, right, bottom } = shown
  const inView = (rect: DOMRect) => rect.right > 0 && rect.bottom > 0 && rect.left < view.innerWidth && rect.top < view.innerHeight
  if (!inView(box)) {
    const page = { x: Math.round(box.left + view.scrollX), y: Math.round(box.top + view.scrollY) }
    return page.x + box.width <= 0 || page.y + box.height <= 0 ? `it is off-screen, at (${page.x}, ${page.y}) where nothing can scroll to` : "not in view yet"
  }
  const x = (Math.max(left, 0) + Math.min(right, view.innerWidth)) / 2
  const y = (Math.max(top, 0) + Math.min(bottom, view.innerHeight)) / 2
  return { hit: seenAt(element.ownerDocument, x, y, () => true), x, y }
}

/** Runs in the page: the topmost element at (x, y) that `keep` accepts, down through open shadow roots. */
const seenAt = (root: Document | ShadowRoot, x: number, y: number, keep: (candidate: Element) => boolean): Element | null => {
  for (const candidate of root.elementsFromPoint(x, y)) {
    if (!keep(candidate)) continue
    if (candidate.shadowRoot) {
      const inner = seenAt(candidate.shadowRoot, x, y, keep)
      if (inner !== null && inner !== candidate && composedWithin(inner, candidate)) return inner
    }
    return candidate
  }
  return null
}

/**
 * Runs in the page: what a person sees over the element where it would be drawn (the middle of its own
 * box, unclipped, in the viewport), past the element itself and past what is clipped away as it is (a
 * component's other visually hidden native control beside it): the part its component draws there, if any.
 */
const drawnAt = (element: Element): Element | null => {
  const view = element.ownerDocument.defaultView!
  const box = element.getBoundingClientRect()
  const x = (Math.max(box.left, 0) + Math.min(box.right, view.innerWidth)) / 2
  const y = (Math.max(box.top, 0) + Math.min(box.bottom, view.innerHeight)) / 2
  if (box.width === 0 || box.height === 0 || x <= 0 || y <= 0 || x >= view.innerWidth || y >= view.innerHeight) return null
  return seenAt(element.ownerDocument, x, y, (candidate) => !composedWithin(candidate, element) && !clippedAway(candidate))
}

/**
 * Runs in the page: the element a person would act through when `element` cannot take the pointer
 * itself: a label of it, the editor around a caret-sized input, its shadow host, or (`cover`, what the
 * pointer hits at its point) a part its own component drew over it; for a text field that part before a
 * label (whose click would only focus it). Only one that the pointer reaches at its own point, never
 * another control, and not disabled.
 */
export const throughElement = (element: Element, cover: Element | null): { readonly element: Element; readonly how: ThroughHow } | undefined => {
  const root = element.getRootNode()
  const reaches = (candidate: Element): boolean => {
    if (hiddenHow(candidate) !== undefined || isDisabledElement(candidate)) return false
    const at = hitAt(candidate)
    if (typeof at === "string" || at.hit === null || !composedWithin(at.hit, candidate)) return false
    // The pointer there must not land on another control inside it (a link in a label).
    for (let node: Element | null = at.hit; node !== null && node !== candidate; node = node.parentElement) {
      if (node !== element && node.matches(CONTROLS)) return false
    }
    return true
  }
  const labels: Array<Element> = [...((element as HTMLInputElement).labels ?? [])]
  const around = element.parentElement?.closest("label")
  if (around && (around as HTMLLabelElement).control === element && !labels.includes(around)) labels.push(around)
  // A label's click only focuses a text field (a checkbox's toggles it): a visually hidden text field
  // behind a control its component draws (a dropdown's box) is clicked there, as a person clicks it.
  const drawnFirst = (element.localName === "input" && FILLABLE_INPUTS.has((element.getAttribute("type") ?? "").toLowerCase())) || element.localName === "textarea"
  const drawn = drawnFirst ? drawnOver(element, cover, root, reaches) : undefined
  if (drawn !== undefined) return drawn
  for (const label of labels) if (reaches(label)) return { element: label, how: "label" }
  // A code editor's caret-sized input: the nearest box around it, the editor a person clicks into.
  if (isCaretInput(element)) {
    for (let node: Element | null = parentOf(element); node !== null; node = parentOf(node)) {
      if (hiddenHow(node) !== undefined) continue
      if (reaches(node)) return { element: node, how: "editor" }
      break
    }
  }
  if (!drawnFirst) {
    const drawn = drawnOver(element, cover, root, reaches)
    if (drawn !== undefined) return drawn
  }
  if (root instanceof ShadowRoot && reaches(root.host)) return { element: root.host, how: "host" }
  return undefined
}

/** What the readiness check clicks instead of a target: a control, or an element the pointer reaches at its own point. */
const CONTROLS = "a[href], button, input, select, textarea, [role=button], [role=link], [role=checkbox], [role=switch], [role=radio], [role=combobox], [role=option], [role=menuitem], [role=tab]"

/**
 * Runs in the page: `cover` (what the pointer hits at the target's point) when it is a part the target's
 * own component drew over it: in its shadow tree, or beside it under its parent or grandparent (never
 * the whole page), not a control of its own, and reached by the pointer at its own point.
 */
const drawnOver = (
  element: Element,
  cover: Element | null,
  root: Node,
  reaches: (candidate: Element) => boolean
): { readonly element: Element; readonly how: ThroughHow } | undefined => {
  if (cover === null || cover === element || composedWithin(cover, element)) return undefined
  const scope = element.parentElement?.parentElement ?? element.parentElement
  const sameComponent =
    root instanceof ShadowRoot ? cover.getRootNode() === root : scope !== null && scope !== undefined && !/^(body|html)$/.test(scope.localName) && scope.contains(cover)
  const drawn = !cover.matches(CONTROLS) && (cover.closest("[aria-hidden=true]") !== null || cover.getAttribute("role") === null)
  return sameComponent && drawn && reaches(cover) ? { element: cover, how: "drawn control" } : undefined
}

/**
 * Runs in the page on the target, synchronously (a page with frozen timers answers too): whether it can
 * take the action now, what a person would act through instead, or why not; and its box, which the
 * caller compares between two looks (a moving box is not settled).
 */
export const diagnose = (element: Element, args: ReadinessArgs): { readonly verdict: Readiness; readonly element?: Element; readonly box?: string; readonly quietMs?: number } => {
  const found = diagnoseNow(element, args)
  const quietMs = shownQuietMs(element.ownerDocument)
  return quietMs === undefined ? found : { ...found, quietMs }
}

/**
 * Runs in the page: how long the document's DOM has not changed, nor a person's input arrived (whose
 * handler may still change it), as far as the walk's watch knows (page/registry.ts: since it began);
 * undefined when nothing watches it.
 */
export const pageQuietMs = (document: Document): number | undefined => {
  const watch: { last: number; input?: number; from?: number } | undefined = (document.defaultView as any)?.[Symbol.for("browser-workflow-mcp")]?.watch
  if (watch === undefined) return undefined
  const since = Math.max(watch.last, watch.input ?? -Infinity, watch.from ?? -Infinity)
  return document.readyState !== "complete" ? 0 : Math.min(performance.now() - since, 3_600_000)
}

/**
 * Runs in the page: how long nothing changed what the document shows: its DOM quiet as pageQuietMs says,
 * and no inline style changed either (a script's animation moves, shows and hides elements through
 * style, which settling ignores). What a look saw was shown all that while.
 */
export const shownQuietMs = (document: Document): number | undefined => {
  const quiet = pageQuietMs(document)
  const styled: number | undefined = (document.defaultView as any)?.[Symbol.for("browser-workflow-mcp")]?.watch?.styled
  return quiet === undefined || styled === undefined ? quiet : Math.min(quiet, performance.now() - styled)
}

/** Runs in the page: whether a read-only field looks like what a picker fills (it opens a popup, or is named so). */
const looksLikePicker = (element: Element): boolean => {
  const popup = element.getAttribute("aria-haspopup")
  if ((popup !== null && popup !== "false") || element.getAttribute("role") === "combobox" || element.hasAttribute("aria-controls")) return true
  const words = `${typeof element.className === "string" ? element.className : ""} ${element.id} ${element.getAttribute("name") ?? ""}`
  return /date|time|picker|calendar|select|dropdown|colou?r/i.test(words)
}

const diagnoseNow = (element: Element, args: ReadinessArgs): { readonly verdict: Readiness; readonly element?: Element; readonly box?: string } => {
  const notReady = (reason: Exclude<Readiness, { ready: true } | { ready: "through" }>["reason"], detail: string, changing = false) => ({
    verdict: { ready: false as const, reason, detail, changing }
  })
  const pointer = args.action !== "type" && args.action !== "select_option"
  const through = (cover: Element | null) => {
    if (!args.through) return undefined
    const via = throughElement(element, cover)
    return via === undefined ? undefined : { verdict: { ready: "through" as const, how: via.how, via: previewElement(via.element) }, element: via.element }
  }
  if (!element.isConnected) return notReady("detached", "it is no longer in the page")
  const hidden = hiddenHow(element)
  // An editor's caret-sized input takes typing by focus, as the editor's keys reach it.
  if (hidden !== undefined && !(args.action === "type" && isCaretInput(element))) return through(null) ?? notReady("hidden", `it is not visible: ${hidden}`)
  if (args.action !== "hover" && isDisabledElement(element)) return notReady("disabled", "it is disabled")
  if (args.action === "type") {
    const field = element as HTMLInputElement
    const readOnly = (field.localName === "input" || field.localName === "textarea") && field.readOnly
    if (readOnly || element.getAttribute("aria-readonly") === "true") {
      const how = `it is read-only (${readOnly ? "the readonly attribute" : "aria-readonly"}), so it takes no typing`
      return notReady("read-only", looksLikePicker(element) ? `${how}; a field like this is filled by the picker it opens on a click` : how)
    }
    const why = notEditableWhy(element)
    const keyed = why === undefined ? undefined : keyedControl(element)
    if (why !== undefined) return keyed === undefined ? notReady("not-editable", why) : { verdict: { ...notReady("not-editable", why).verdict, instead: keyed.keys } }
  }
  if (!pointer) return { verdict: { ready: true } }
  const at = hitAt(element)
  const rect = element.getBoundingClientRect()
  const box = [rect.left, rect.top, rect.width, rect.height].map(Math.round).join(",")
  if (at === "not in view yet") return { ...notReady("off-screen", "it is outside the viewport", true), box }
  // Clipped away (a visually hidden control): what its component draws where it would be is what a person clicks.
  // A clip that scrolling a box around it undoes is on its way to change: Playwright's action scrolls it.
  if (typeof at === "string") {
    const clipped = at.startsWith("it is clipped")
    return { ...(through(drawnAt(element)) ?? notReady(clipped ? "clipped" : "off-screen", at, clipped && scrollCanReveal(element))), box }
  }
  if (at.hit !== null && composedWithin(at.hit, element)) return { verdict: { ready: true }, box }
  const covering = at.hit
  if (covering === null) return { ...notReady("off-screen", "nothing of the page is at its click point"), box }
  const style = getComputedStyle(element)
  // A cover that is itself clipped away (another visually hidden control of the component) is not what a person sees there.
  const via = through(clippedAway(covering) ? drawnAt(element) : covering)
  if (via !== undefined) return { ...via, box }
  if ((style.clipPath !== "none" && style.clipPath !== "") || (style.position === "absolute" && style.clip !== "auto" && style.clip !== "")) {
    return { ...notReady("clipped", "it is clipped to nothing by its own clip or clip-path (a visually hidden control)"), box }
  }
  if (style.pointerEvents === "none") {
    return { ...notReady("covered", `it does not take the pointer (pointer-events: none), so ${previewElement(covering)} gets it at its click point`), box }
  }
  // The topmost element of what covers it that is not around the target names the cover (a dialog, not its inner text).
  let cover: Element = covering
  for (let node: Element | null = covering; node !== null && !composedWithin(element, node); node = parentOf(node)) cover = node
  const animating = [covering, cover].some((node) => node.getAnimations().some((animation) => animation.playState === "running"))
  const named = cover === covering ? previewElement(covering) : `${previewElement(covering)} (in ${previewElement(cover)})`
  return { ...notReady("covered", `covered by ${named}, which intercepts pointer events at its click point (${Math.round(at.x)}, ${Math.round(at.y)})`, animating), box }
}

/**
 * Runs in the page on the target before an action goes through `via` (another element): remembers its
 * states (checked, expanded, pressed, selected, value) and the expanded state of every part of the
 * component that holds both (a dropdown's trigger), and listens for a click that reaches it (a label's
 * click is forwarded to its control) and for the focus.
 */
export const watchEffect = (element: Element, via?: Node | null): void => {
  const KEY = Symbol.for("browser-workflow-mcp/effect")
  const read = (target: Element) =>
    JSON.stringify([
      (target as HTMLInputElement).checked,
      (target as HTMLInputElement).value,
      (target as HTMLSelectElement).selectedIndex,
      ...["aria-checked", "aria-expanded", "aria-pressed", "aria-selected"].map((name) => target.getAttribute(name))
    ])
  // The component: the nearest element around both that is not the whole page (none for a label across the page).
  let scope: Element | null = via ? element.parentElement : null
  while (scope !== null && via && !scope.contains(via)) scope = scope.parentElement
  if (scope !== null && /^(body|html)$/.test(scope.localName)) scope = null
  const expanded = () => (scope === null ? "" : JSON.stringify([...scope.querySelectorAll("[aria-expanded]")].map((part) => part.getAttribute("aria-expanded"))))
  const watch = { before: read(element), parts: expanded(), expanded, clicked: false, focused: false, read }
  element.addEventListener("click", () => (watch.clicked = true), { capture: true, once: true })
  element.addEventListener("focus", () => (watch.focused = true), { capture: true, once: true })
  Object.defineProperty(element, KEY, { value: watch, configurable: true, enumerable: false, writable: true })
}

/**
 * Runs in the page: whether a click on the element opens something rather than taking text or toggling
 * (it has a popup, is a combobox or a read-only field that looks like a picker) and takes no typing:
 * the focus, or a click that reached it, is not that effect.
 */
const opensOnClick = (element: Element): boolean => {
  const readOnly = (element as HTMLInputElement).readOnly === true || element.getAttribute("aria-readonly") === "true"
  const popup = element.getAttribute("aria-haspopup")
  return (readOnly || notEditableWhy(element) !== undefined) && ((popup !== null && popup !== "false") || element.getAttribute("role") === "combobox" || (readOnly && looksLikePicker(element)))
}

/** Runs in the page: whether a click gives the element what a person clicks it for when it takes the focus: it takes typing there. */
const focusIsItsEffect = (element: Element): boolean => {
  if (notEditableWhy(element) !== undefined || element.localName === "label") return false
  return !((element as HTMLInputElement).readOnly === true || element.getAttribute("aria-readonly") === "true")
}

/**
 * Runs in the page on the target after the action: whether it had the effect a person's click has there.
 * One of its states changed, or the expanded state of a part of its component (a dropdown's trigger);
 * a click that reached it, unless it opens on a click (a label's click forwarded to a dropdown's hidden
 * input that its component ignores); the focus only on a field that takes typing (a read-only dropdown
 * that took the focus and opened nothing had no effect).
 */
export const effectSeen = (element: Element): boolean => {
  const watch = (element as any)[Symbol.for("browser-workflow-mcp/effect")]
  if (watch === undefined) return false
  if (watch.read(element) !== watch.before || watch.expanded() !== watch.parts) return true
  if (opensOnClick(element)) return false
  if (watch.clicked) return true
  return focusIsItsEffect(element) && (watch.focused || focusedElement() === element)
}

/**
 * Runs in the page: the checked state of a checkbox-like element as a person reads it: a checkbox or
 * radio input, aria-checked on a checkable role, a label's control, a custom element's own `checked`
 * or the one checkbox in its shadow root. Null when it has none.
 */
export const checkedStateOf = (element: Element): boolean | null => {
  const of = (target: Element): boolean | null => {
    if (target instanceof HTMLInputElement && (target.type === "checkbox" || target.type === "radio")) return inputChecked(target) !== false
    const aria = target.getAttribute("aria-checked")
    if (aria === "true" || aria === "mixed") return true
    if (aria === "false") return false
    return null
  }
  const own = of(element)
  if (own !== null) return own
  const control = element.localName === "label" ? (element as HTMLLabelElement).control : (element.closest("label") as HTMLLabelElement | null)?.control
  if (control && control !== element) {
    const viaLabel = of(control)
    if (viaLabel !== null) return viaLabel
  }
  if (typeof (element as any).checked === "boolean") return (element as any).checked
  const inner = element.shadowRoot?.querySelectorAll("input[type=checkbox], input[type=radio], [role=checkbox], [role=switch], [role=radio]")
  return inner !== undefined && inner.length === 1 ? of(inner[0]!) : null
}

