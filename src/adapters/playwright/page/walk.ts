// The walk: one pass over the DOM (shadow roots, slots and same-origin frames included) that builds the
// tree of nodes a reader would see (roles that are nodes, text attached to the nodes around it).
import { pseudoText } from "./css-content.js"
import { isWithheld } from "./dom.js"
import { isCaretInput, isVisibleElement as isVisible } from "./visibility.js"
import { NAME_FROM_CONTENT } from "./roles.js"
import { noteShadowRoot } from "./registry.js"
import { newNode, type TreeNode, type Walk } from "./tree.js"

/** Roles that are nodes of the tree; other roles (text-level ones) let their text flow into the node around them. */
const EMITTED = new Set([
  "alert", "alertdialog", "article", "banner", "blockquote", "button", "cell", "checkbox", "columnheader", "combobox",
  "complementary", "contentinfo", "definition", "dialog", "feed", "figure", "form", "grid", "gridcell", "group", "heading",
  "img", "link", "list", "listbox", "listitem", "log", "main", "marquee", "math", "menu", "menubar", "menuitem",
  "menuitemcheckbox", "menuitemradio", "meter", "navigation", "note", "option", "paragraph", "progressbar", "radio",
  "radiogroup", "region", "row", "rowheader", "scrollbar", "search", "searchbox", "slider", "spinbutton", "status",
  "switch", "tab", "table", "tablist", "tabpanel", "term", "textbox", "timer", "toolbar", "tooltip", "tree", "treegrid",
  "treeitem", "code"
])
/** Nodes whose content is their name: a code block inside them stays part of it. */
const INLINE_OWNERS = new Set([...NAME_FROM_CONTENT].filter((role) => !["cell", "gridcell", "columnheader", "rowheader", "row"].includes(role)))
const SKIP_TAGS = new Set(["script", "style", "template", "noscript", "head", "meta", "link", "title", "base"])

const isBlockStyle = (style: CSSStyleDeclaration) => style.display !== "inline" && style.display !== "contents"

const addText = (targets: Array<TreeNode>, text: string) => {
  for (const target of targets) {
    target.total += text.length
    const room = (target.cap - target.taken) * 2 + 16
    if (room <= 0) continue
    const piece = text.length > room ? text.slice(0, room) : text
    target.parts.push(piece)
    target.taken += piece.length
  }
}
const addBreak = (targets: Array<TreeNode>) => {
  for (const target of targets) {
    const last = target.parts[target.parts.length - 1]
    if (last !== undefined && last !== " ") target.parts.push(" ")
  }
}

/** Texts that name something else (a label, a caption, a legend) are not repeated as text of the node around them. */
const namesSomethingElse = (element: Element): boolean => {
  const tag = element.localName
  if (tag === "label") return (element as HTMLLabelElement).control !== null
  if (tag === "caption" || tag === "figcaption") return true
  if (tag === "legend") return element.parentElement?.localName === "fieldset"
  return false
}

const CHECKABLE = new Set(["checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"])

/**
 * The role of the box a label stands for: a checkbox or radio input that is not rendered (display:none,
 * hidden), drawn by the label a person clicks. Null when the label only names a box that shows itself.
 */
const hiddenBox = (walk: Walk, label: HTMLLabelElement): string | null => {
  const control = label.control
  if (control === null || control.localName !== "input") return null
  const type = (control as HTMLInputElement).type
  if (type !== "checkbox" && type !== "radio") return null
  if (isVisible(control, walk.aria.styleOf(control))) return null
  const role = walk.aria.roleOf(control)
  return role !== null && CHECKABLE.has(role) ? role : null
}

/** A generic element with a label of its own (a date picker's day cell): Chromium names it, and so does the tree. */
const labelledGeneric = (element: Element) =>
  (element.getAttribute("aria-label") ?? "").trim() !== "" || element.hasAttribute("aria-labelledby")

/**
 * Room for one more node: within the node cap and, for an element without a ref yet, within what is left
 * of the walk's block of ref numbers (which it then counts as taken).
 */
const roomFor = (walk: Walk, element: Element): boolean => {
  if (walk.emitted >= walk.treeCap) return false
  const known = walk.registry.byEl.get(element)
  if (known !== undefined && walk.registry.byRef.get(known) === element) return true
  if (walk.refsLeft <= 0) return false
  walk.refsLeft--
  return true
}

const visitChildren = (walk: Walk, parent: Element, owner: TreeNode, targets: Array<TreeNode>, visibleText: boolean) => {
  if (parent.localName === "slot") {
    const assigned = (parent as HTMLSlotElement).assignedNodes()
    if (assigned.length > 0) {
      for (const node of assigned) visitNode(walk, node, owner, targets, visibleText)
      return
    }
  }
  const shadow = (parent as HTMLElement).shadowRoot
  if (shadow !== null && shadow !== undefined) noteShadowRoot(walk.registry, shadow)
  const container: Node = shadow ?? parent
  for (let node = container.firstChild; node; node = node.nextSibling) {
    if (walk.cut) return
    visitNode(walk, node, owner, targets, visibleText)
  }
}

const visitNode = (walk: Walk, node: Node, owner: TreeNode, targets: Array<TreeNode>, visibleText: boolean) => {
  if (node.nodeType === 3) {
    if (visibleText && targets.length > 0) addText(targets, node.nodeValue ?? "")
    return
  }
  if (node.nodeType === 1) visitElement(walk, node as Element, owner, targets)
}

const visitElement = (walk: Walk, element: Element, owner: TreeNode, targets: Array<TreeNode>) => {
  const tag = element.localName
  if (SKIP_TAGS.has(tag)) return
  if (isWithheld(element)) return
  const style = walk.aria.styleOf(element)
  if (style === null || style.display === "none") return
  const visibleText = style.visibility === "visible"
  const block = isBlockStyle(style) || tag === "br"
  const role = walk.aria.roleOf(element)
  const standsFor = tag === "label" && !CHECKABLE.has(owner.role) ? hiddenBox(walk, element as HTMLLabelElement) : null
  let emitRole: string | null = null
  // Inside an editor's input everything is its text.
  if (visibleText && !owner.leaf) {
    if (standsFor !== null) emitRole = standsFor
    else if (role !== null && EMITTED.has(role)) {
      if (role === "code" && !block) emitRole = null
      else if (role === "img") emitRole = walk.aria.nameOf(element, role) !== "" ? role : null
      else if (role === "group" && tag !== "details") emitRole = walk.aria.nameOf(element, role) !== "" ? role : null
      // A component's native box inside the checkbox it draws: the one control is the outer node.
      else if (CHECKABLE.has(role) && CHECKABLE.has(owner.role) && tag === "input") emitRole = null
      else emitRole = role
    } else if ((role === null || role === "generic") && !namesSomethingElse(element)) {
      // A block of text inside a container is a node of its own; one without text dissolves later (but
      // not inside a label or caption, whose text is the name of what it labels). A code block is a node
      // of its own unless it is part of a control's or heading's name; so is a generic with a label of its own.
      if (labelledGeneric(element) && !INLINE_OWNERS.has(owner.role)) emitRole = "generic"
      else if (tag === "summary" || (tag === "pre" && !INLINE_OWNERS.has(owner.role)) || (walk.naming === 0 && owner.container && block && tag !== "br")) {
        emitRole = "generic"
      }
    }
    // One rule for refs and actions: a node an action would not accept as visible gets no ref (but an
    // editor's caret-sized input, which actions type into and click through its editor, does).
    if (emitRole !== null && !isVisible(element, style) && !isCaretInput(element, style)) emitRole = null
  }
  if (block) addBreak(targets)
  let nextOwner = owner
  let nextTargets = targets
  if (emitRole !== null) {
    if (!roomFor(walk, element)) {
      walk.cut = true
      return
    }
    walk.emitted++
    const treeNode = newNode(walk, element, emitRole)
    owner.children.push(treeNode)
    nextOwner = treeNode
    // A link inside running text is also part of that text.
    nextTargets = emitRole === "link" && !block && !owner.container ? [treeNode, ...targets] : [treeNode]
  }
  const naming = emitRole === null && namesSomethingElse(element)
  if (naming) {
    nextTargets = []
    walk.naming++
  }
  if (tag === "iframe" || tag === "frame") visitFrame(walk, element as HTMLIFrameElement, owner)
  else if (tag === "details" && !(element as HTMLDetailsElement).open) {
    // A closed details element shows its summary only.
    const summary = Array.from(element.children).find((child) => child.localName === "summary")
    if (summary !== undefined) visitElement(walk, summary, nextOwner, nextTargets)
  } else if (tag !== "textarea" && tag !== "input" && (tag !== "select" || emitRole === "listbox")) {
    // A select drawn as a list box shows its options (which are on screen); a drop-down one shows its value.
    visitChildren(walk, element, nextOwner, nextTargets, visibleText)
  }
  if (nextOwner !== owner && nextOwner.leaf) showPlaceholder(walk, nextOwner, element)
  if (naming) walk.naming--
  if (block) addBreak(targets)
}

/**
 * An empty editor's text is the placeholder it shows, as a browser's accessibility tree and Playwright
 * have it: the CSS generated content (`content: attr(data-placeholder)`) of the editing host or of its
 * first paragraph (TinyMCE, Quill, CKEditor, Tiptap), unless the editor's name already says it.
 */
const showPlaceholder = (walk: Walk, node: TreeNode, element: Element) => {
  if (node.parts.join("").trim() !== "") return
  const first = element.firstElementChild
  let shown = ""
  for (const holder of first === null ? [element] : [element, first]) {
    shown = (pseudoText(holder, "::before", walk.aria.styleOf) + pseudoText(holder, "::after", walk.aria.styleOf)).trim()
    if (shown !== "") break
  }
  if (shown === "" || shown === walk.aria.nameOf(element, node.role).trim()) return
  addText([node], shown)
}

/**
 * A same-origin frame is a node whose children are its document's; their paths carry "iframe: name".
 * A cross-origin frame is a node without children here: the server walks its document in its own
 * process and puts its nodes under this one.
 */
const visitFrame = (walk: Walk, frame: HTMLIFrameElement, owner: TreeNode) => {
  let inner: Document | null = null
  try {
    inner = frame.contentDocument
  } catch {
    inner = null
  }
  if ((inner !== null && inner.documentElement === null) || !isVisible(frame)) return
  if (!roomFor(walk, frame)) {
    walk.cut = true
    return
  }
  walk.emitted++
  // The frame element has a ref too, so that the server can enter the frame by ref.
  const framed = newNode(walk, frame, "iframe")
  owner.children.push(framed)
  if (inner !== null && inner.documentElement !== null) visitChildren(walk, inner.documentElement, framed, [], true)
}

/** The tree of the document (or of the element at the root selector) under a node without element. */
export const buildTree = (walk: Walk, root: Element | null): TreeNode => {
  const top = newNode(walk, null, "")
  if (root) {
    if (walk.args.rootSelector !== null) visitElement(walk, root, top, [])
    else {
      // The body is no node: its children are the top of the tree, and text directly in it gets a node of its own.
      const body = document.body
      const bodyStyle = body === null ? null : walk.aria.styleOf(body)
      if (body !== null && bodyStyle !== null && bodyStyle.display !== "none" && body.getAttribute("aria-hidden") !== "true") {
        const holder = newNode(walk, body, "generic")
        top.children.push(holder)
        visitChildren(walk, body, top, [holder], bodyStyle.visibility === "visible")
      }
    }
  }
  return top
}
