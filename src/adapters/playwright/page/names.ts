// Accessible names: the W3C accname computation as Chromium does it (aria-labelledby, embedded
// controls, aria-label, the host language's labels and captions, then content), within a budget.
import { idRefs, type StyleOf } from "./dom.js"
import { pseudoText } from "./css-content.js"
import { isIgnoredTag, type Hidden } from "./hidden.js"
import { NAME_FROM_CONTENT, NAME_FROM_CONTENT_DESCENDANT, NAMING_PROHIBITED, type RoleOf } from "./roles.js"
import { normalize } from "./text.js"

/** What a name computation reads, each cached for one walk. */
export interface NameContext {
  readonly styleOf: StyleOf
  readonly roleOf: RoleOf
  readonly hidden: Hidden
  readonly labelsOf: (field: Element) => Array<HTMLLabelElement>
}

// Chromium drops its cached `labels` lists whenever the DOM changes, and rebuilding one walks the
// whole document: after an action that is a document walk per field. One pass over the labels of
// each root (document or shadow root) per observation gives the same lists, in the same order.
export const makeLabelsOf = (): ((field: Element) => Array<HTMLLabelElement>) => {
  const labelsByRoot = new Map<Node, Map<Element, Array<HTMLLabelElement>>>()
  return (field) => {
    const rootNode = field.getRootNode()
    let byControl = labelsByRoot.get(rootNode)
    if (byControl === undefined) {
      byControl = new Map()
      for (const label of (rootNode as Document | ShadowRoot).querySelectorAll("label")) {
        const control = (label as HTMLLabelElement).control
        if (control === null) continue
        const list = byControl.get(control) ?? []
        list.push(label as HTMLLabelElement)
        byControl.set(control, list)
      }
      labelsByRoot.set(rootNode, byControl)
    }
    return byControl.get(field) ?? []
  }
}

export interface NameOptions {
  visited: Set<Element>
  /** The element whose name is computed ("self"), or one of its descendants ("descendant"). */
  target?: "self" | "descendant" | undefined
  labelledBy?: { hidden: boolean } | undefined
  label?: { hidden: boolean } | undefined
  native?: { hidden: boolean } | undefined
  budget: { chars: number; nodes: number }
}
const trimmed = (text: string | null) => (text ?? "").trim()

/** The text alternative of an element (accname 2.B-2.I), for its own name or as part of another's. */
export const textAlternative = (ctx: NameContext, element: Element, options: NameOptions): string => {
  if (options.visited.has(element)) return ""
  if (--options.budget.nodes < 0 || options.budget.chars < 0) return ""
  const hiddenTraversal = !!options.labelledBy?.hidden || !!options.label?.hidden || !!options.native?.hidden
  if (isIgnoredTag(element) || (!hiddenTraversal && ctx.hidden(element))) {
    options.visited.add(element)
    return ""
  }
  const labelledBy = element.hasAttribute("aria-labelledby") ? idRefs(element, element.getAttribute("aria-labelledby")) : []
  if (!options.labelledBy && labelledBy.length > 0) {
    const text = labelledBy
      .map((ref) =>
        textAlternative(ctx, ref, {
          visited: options.visited,
          budget: options.budget,
          labelledBy: { hidden: ctx.hidden(ref) }
        })
      )
      .join(" ")
    if (text) return text
  }
  const role = ctx.roleOf(element) ?? ""
  const tag = element.localName
  const child: NameOptions = { ...options, target: options.target === "self" ? "descendant" : options.target }
  if (options.label || options.labelledBy || options.target === "descendant") {
    const embedded = embeddedControlText(ctx, element, role, labelledBy, options, child)
    if (embedded !== undefined) return embedded
  }

  const ariaLabel = element.getAttribute("aria-label") ?? ""
  if (trimmed(ariaLabel)) {
    options.visited.add(element)
    return ariaLabel
  }
  if (role !== "presentation" && role !== "none") {
    const native = nativeText(ctx, element, labelledBy, options, child)
    if (native !== undefined) return native
  }

  const summary = tag === "summary" && role !== "presentation" && role !== "none"
  if (
    NAME_FROM_CONTENT.has(role) ||
    (options.target === "descendant" && NAME_FROM_CONTENT_DESCENDANT.has(role)) ||
    summary ||
    options.labelledBy ||
    options.label ||
    options.native
  ) {
    options.visited.add(element)
    const text = contentText(ctx, element, child)
    if (options.target === "self" ? text.trim() : text) return text
  }
  if (role !== "presentation" && role !== "none" || tag === "iframe" || tag === "frame") {
    options.visited.add(element)
    const title = element.getAttribute("title") ?? ""
    if (trimmed(title)) return title
  }
  options.visited.add(element)
  if (options.target === "self" && (role === "textbox" || role === "searchbox") && tag !== "input" && tag !== "textarea") return editorPlaceholder(ctx, element)
  return ""
}

/**
 * The placeholder an editor shows while empty, which names it as a field's placeholder does (Chromium
 * names a textbox by its aria-placeholder): aria-placeholder, placeholder, the data-placeholder that
 * Quill puts on the editing host and Tiptap or CKEditor on its empty first paragraph, or the words an
 * editor draws over its empty editing host (overlaidPlaceholder).
 */
const editorPlaceholder = (ctx: NameContext, element: Element): string => {
  for (const attribute of ["aria-placeholder", "placeholder", "data-placeholder"]) {
    const value = element.getAttribute(attribute) ?? ""
    if (trimmed(value)) return value
  }
  for (let item = element.firstElementChild; item; item = item.nextElementSibling) {
    const value = item.getAttribute("data-placeholder") ?? ""
    if (trimmed(value)) return value
  }
  return overlaidPlaceholder(ctx, element)
}

/**
 * The words an editor draws over its empty editing host as a placeholder (Lexical, Draft.js): an element
 * beside the host or beside its parent that takes no pointer (pointer-events: none, so a click on the
 * words reaches the host), is shown with text (aria-hidden or not), and starts inside the host's box.
 */
const overlaidPlaceholder = (ctx: NameContext, element: Element): string => {
  if (!(element as HTMLElement).isContentEditable || trimmed(element.textContent ?? "")) return ""
  const box = element.getBoundingClientRect()
  for (const parent of [element.parentElement, element.parentElement?.parentElement]) {
    for (let item = parent?.firstElementChild ?? null; item; item = item.nextElementSibling) {
      const style = ctx.styleOf(item)
      if (item === element || item.contains(element) || style?.pointerEvents !== "none" || style.visibility !== "visible") continue
      // Shown (aria-hidden or not: the words are for the eye, the host is what takes them).
      const at = item.getBoundingClientRect()
      const words = at.width > 0 && at.height > 0 ? normalize(item.textContent) : ""
      if (words !== "" && at.left >= box.left && at.top >= box.top && at.left < box.right && at.top < box.bottom) return words
    }
  }
  return ""
}

/** An embedded control inside a label or another's name: its value stands for it (accname 2.C). */
const embeddedControlText = (
  ctx: NameContext,
  element: Element,
  role: string,
  labelledBy: Array<Element>,
  options: NameOptions,
  child: NameOptions
): string | undefined => {
  const tag = element.localName
  const isField = tag === "input" || tag === "textarea" || tag === "select"
  const ownLabel = isField && ctx.labelsOf(element).some((label) => options.visited.has(label))
  const ownLabelledBy = labelledBy.includes(element)
  if (!ownLabel && !ownLabelledBy) {
    if (role === "textbox") {
      options.visited.add(element)
      return tag === "input" || tag === "textarea" ? (element as HTMLInputElement).value : element.textContent ?? ""
    }
    if (role === "combobox" || role === "listbox") {
      options.visited.add(element)
      let selected: Array<Element>
      if (tag === "select") {
        selected = Array.from((element as HTMLSelectElement).selectedOptions)
        if (selected.length === 0 && (element as HTMLSelectElement).options.length > 0) selected.push((element as HTMLSelectElement).options[0]!)
      } else {
        const listbox = role === "combobox" ? Array.from(element.querySelectorAll("*")).find((e) => ctx.roleOf(e) === "listbox") : element
        selected = listbox ? Array.from(listbox.querySelectorAll('[aria-selected="true"]')).filter((e) => ctx.roleOf(e) === "option") : []
      }
      if (selected.length === 0 && tag === "input") return (element as HTMLInputElement).value
      return selected.map((option) => textAlternative(ctx, option, child)).join(" ")
    }
    if (role === "progressbar" || role === "scrollbar" || role === "slider" || role === "spinbutton" || role === "meter") {
      options.visited.add(element)
      return element.getAttribute("aria-valuetext") ?? element.getAttribute("aria-valuenow") ?? element.getAttribute("value") ?? ""
    }
    if (role === "menu") {
      options.visited.add(element)
      return ""
    }
  }
  return undefined
}

/** The host language's naming (input values, labels, legends, captions, alt, titles, SVG titles), for roles other than none. */
const nativeText = (
  ctx: NameContext,
  element: Element,
  labelledBy: Array<Element>,
  options: NameOptions,
  child: NameOptions
): string | undefined => {
  const tag = element.localName
  const isField = tag === "input" || tag === "textarea" || tag === "select"
  const fromLabels = (labels: Array<HTMLLabelElement>) =>
    labels
      .map((label) => textAlternative(ctx, label, { visited: options.visited, budget: options.budget, label: { hidden: ctx.hidden(label) } }))
      .filter((text) => !!text)
      .join(" ")
  const firstChild = (name: string) => {
    for (let item = element.firstElementChild; item; item = item.nextElementSibling) if (item.localName === name) return item
    return null
  }
  const type = tag === "input" ? (element as HTMLInputElement).type : ""
  if (tag === "input" && (type === "button" || type === "submit" || type === "reset")) {
    options.visited.add(element)
    const value = (element as HTMLInputElement).value
    if (trimmed(value)) return value
    if (type === "submit") return "Submit"
    if (type === "reset") return "Reset"
    return element.getAttribute("title") ?? ""
  }
  if (tag === "input" && type === "file") {
    options.visited.add(element)
    const labels = ctx.labelsOf(element)
    if (labels.length > 0 && !options.labelledBy) return fromLabels(labels)
    return "Choose File"
  }
  if (tag === "input" && type === "image") {
    options.visited.add(element)
    const labels = ctx.labelsOf(element)
    if (labels.length > 0 && !options.labelledBy) return fromLabels(labels)
    const alt = element.getAttribute("alt") ?? ""
    if (trimmed(alt)) return alt
    const title = element.getAttribute("title") ?? ""
    if (trimmed(title)) return title
    return "Submit"
  }
  if (labelledBy.length === 0 && tag === "button") {
    options.visited.add(element)
    const labels = ctx.labelsOf(element)
    if (labels.length > 0) return fromLabels(labels)
  }
  if (labelledBy.length === 0 && tag === "output") {
    options.visited.add(element)
    const labels = ctx.labelsOf(element)
    if (labels.length > 0) return fromLabels(labels)
    return element.getAttribute("title") ?? ""
  }
  if (labelledBy.length === 0 && isField) {
    options.visited.add(element)
    const labels = ctx.labelsOf(element)
    if (labels.length > 0) return fromLabels(labels)
    const usesPlaceholder =
      (tag === "input" && ["text", "password", "number", "search", "tel", "email", "url"].includes(type)) || tag === "textarea"
    const title = element.getAttribute("title") ?? ""
    if (!usesPlaceholder || title) return title
    return element.getAttribute("placeholder") ?? ""
  }
  if (labelledBy.length === 0 && (tag === "fieldset" || tag === "figure")) {
    options.visited.add(element)
    const caption = firstChild(tag === "fieldset" ? "legend" : "figcaption")
    if (caption) return textAlternative(ctx, caption, { ...child, native: { hidden: ctx.hidden(caption) } })
    return element.getAttribute("title") ?? ""
  }
  if (tag === "img" || tag === "area") {
    options.visited.add(element)
    const alt = element.getAttribute("alt") ?? ""
    if (trimmed(alt)) return alt
    return element.getAttribute("title") ?? ""
  }
  if (tag === "table") {
    options.visited.add(element)
    const caption = firstChild("caption")
    if (caption) return textAlternative(ctx, caption, { ...child, native: { hidden: ctx.hidden(caption) } })
    const summary = element.getAttribute("summary") ?? ""
    if (summary) return summary
  }
  if (tag === "svg" || (element as SVGElement).ownerSVGElement) {
    options.visited.add(element)
    for (let item = element.firstElementChild; item; item = item.nextElementSibling) {
      if (item.localName === "title" && (item as SVGElement).ownerSVGElement) {
        return textAlternative(ctx, item, { ...child, labelledBy: { hidden: ctx.hidden(item) } })
      }
    }
  }
  if ((element as SVGElement).ownerSVGElement && tag === "a") {
    const title = element.getAttribute("xlink:title") ?? ""
    if (trimmed(title)) {
      options.visited.add(element)
      return title
    }
  }
  return undefined
}

/** The text of an element's content for a name: children's text alternatives, blocks set apart by spaces. */
const contentText = (ctx: NameContext, element: Element, options: NameOptions): string => {
  const tokens: Array<string> = []
  const take = (text: string) => {
    const room = Math.max(0, options.budget.chars)
    const piece = text.length > room ? text.slice(0, room) : text
    options.budget.chars -= Math.max(1, text.length)
    tokens.push(piece)
  }
  const visit = (node: Node, skipSlotted: boolean) => {
    if (options.budget.chars < 0) return
    if (skipSlotted && (node as Element | Text).assignedSlot) return
    if (node.nodeType === 1) {
      const display = ctx.styleOf(node as Element)?.display || "inline"
      let token = textAlternative(ctx, node as Element, options)
      if (display !== "inline" || node.nodeName === "BR") token = ` ${token} `
      // Counted against the budget where its text nodes were taken.
      tokens.push(token)
    } else if (node.nodeType === 3) {
      take(node.nodeValue ?? "")
    }
  }
  take(pseudoText(element, "::before", ctx.styleOf))
  const own = pseudoText(element, null, ctx.styleOf)
  if (own !== "" && own !== "\u0000") take(own)
  else {
    const assigned = element.localName === "slot" ? (element as HTMLSlotElement).assignedNodes() : []
    if (assigned.length > 0) for (const node of assigned) visit(node, false)
    else {
      for (let node = element.firstChild; node; node = node.nextSibling) visit(node, true)
      if ((element as HTMLElement).shadowRoot) {
        for (let node = (element as HTMLElement).shadowRoot!.firstChild; node; node = node.nextSibling) visit(node, true)
      }
      for (const owned of idRefs(element, element.getAttribute("aria-owns"))) visit(owned, true)
    }
  }
  take(pseudoText(element, "::after", ctx.styleOf))
  return tokens.join("")
}

/** Names are cut at this many characters. */
const NAME_CAP = 150

/** The accessible name of an element with its role, normalized and capped; each computed once per walk. */
export const makeNameOf = (ctx: NameContext): ((element: Element, role: string) => string) => {
  const names = new Map<Element, string>()
  return (element, role) => {
    // Names are prohibited on a generic, but Chromium gives one its aria-label (a date picker's day cell).
    const labelled = element.hasAttribute("aria-label") || element.hasAttribute("aria-labelledby")
    if (NAMING_PROHIBITED.has(role) && !(role === "generic" && labelled)) return ""
    let name = names.get(element)
    if (name === undefined) {
      const budget = { chars: NAME_CAP * 4, nodes: 2_000 }
      // A label standing for the box it hides is named by its content, as that box would be.
      const raw = textAlternative(ctx, element, element.localName === "label" ? { visited: new Set(), budget, label: { hidden: false } } : { visited: new Set(), target: "self", budget })
      name = normalize(raw, NAME_CAP)
      names.set(element, name)
    }
    return name
  }
}
