// The state of one walk of the tree and the nodes it builds, shared by the walk's stages
// (walk.ts builds, refs.ts finishes, collapse.ts flattens, listing.ts and find.ts answer).
import type { Aria } from "./aria.js"
import type { LedgerChanges, Registry, View } from "./registry.js"
import type { ObserveArgs, RawNode } from "./types.js"

export interface TreeNode {
  readonly element: Element | null
  readonly role: string
  children: Array<TreeNode>
  /** Text runs a reader sees in this node (not in its child nodes). */
  readonly parts: Array<string>
  taken: number
  total: number
  readonly cap: number
  /** Its blocks of text become nodes of their own instead of its text. */
  readonly container: boolean
  raw: RawNode | null
  depth: number
  /** An editor's input: what is inside it is its text, never nodes of its own. */
  readonly leaf: boolean
  /** Its name says something its text does not (a day cell "March 14, 2025" showing 14): never folded into a run. */
  distinct?: boolean
}

export interface Walk {
  readonly args: ObserveArgs
  readonly aria: Aria
  readonly registry: Registry
  readonly changes: LedgerChanges
  /** The record of the client the walk observes for (see `View`). */
  readonly view: View
  /** Characters of text kept per node (code blocks get four times as many). */
  readonly textCap: number
  /** Nodes the walk builds before it stops (and says truncated). */
  readonly treeCap: number
  /** The walk covers the whole document (no root selector): only then refs are carried and durable identities kept. */
  readonly whole: boolean
  /** Whether aria-disabled="true" applies to the element (itself or an ancestor), cached for the walk. */
  readonly inAriaDisabled: (element: Element) => boolean
  nextRef: number
  /** The end of the server's block of ref numbers for this walk (see `newRef`). */
  readonly refEnd: number
  /** New refs the block still has room for: a node without a ref past them is not built (the walk stops, cut). */
  refsLeft: number
  /** Nodes built so far, and whether the walk stopped at `treeCap`. */
  emitted: number
  cut: boolean
  /** How many elements that name something else (a label, a caption) the walk is inside: their blocks are no nodes. */
  naming: number
}

/** Nodes whose blocks of text are nodes of their own (a dialog's paragraphs) rather than the node's text. */
const CONTAINER_ROLES = new Set([
  "", "alertdialog", "article", "banner", "blockquote", "complementary", "contentinfo", "dialog", "feed", "figure", "form",
  "grid", "group", "list", "listbox", "log", "main", "menu", "menubar", "navigation", "radiogroup", "region", "row",
  "search", "table", "tablist", "tabpanel", "toolbar", "tree", "treegrid"
])

export const newNode = (walk: Walk, element: Element | null, role: string): TreeNode => ({
  element,
  role,
  children: [],
  parts: [],
  taken: 0,
  total: 0,
  cap: element !== null && (role === "code" || element.localName === "pre") ? walk.textCap * 4 : walk.textCap,
  container: element === null || role === "generic" || CONTAINER_ROLES.has(role),
  raw: null,
  depth: 0,
  leaf: element !== null && (role === "textbox" || role === "searchbox") && element.localName !== "input" && element.localName !== "textarea"
})
