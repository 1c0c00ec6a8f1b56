// Searching the tree instead of listing it (`find`): the matches with the structure around them.
import { normalize } from "./text.js"
import type { TreeNode } from "./tree.js"
import type { FindLine, FindQuery, RawNode } from "./types.js"

/** How much of a name or text a node around the matches shows. */
const CONTEXT_CHARS = 40
/** How many nodes of the row around a match are shown (its cells, their text and their controls). */
const ROW_NODES = 40

/** The matches of a search with the structure around them: ancestors, the match and its children, elided siblings. */
export const findIn = (top: TreeNode, query: FindQuery): { lines: Array<FindLine>; total: number } => {
  const text = query.text?.toLowerCase()
  const name = query.name?.toLowerCase()
  const parents = new Map<TreeNode, TreeNode>()
  const matches: Array<TreeNode> = []
  const matchesQuery = (node: TreeNode) => {
    const raw = node.raw!
    if (query.role !== undefined && raw.role !== query.role) return false
    if (name !== undefined && !raw.name.toLowerCase().includes(name)) return false
    if (text !== undefined && !`${raw.name}\n${raw.text ?? ""}`.toLowerCase().includes(text)) return false
    return true
  }
  // Post-order: a node whose descendant matches the text is not itself a match (the descendant says more).
  const search = (node: TreeNode): boolean => {
    let below = false
    for (const child of node.children) {
      parents.set(child, node)
      if (search(child)) below = true
    }
    if (node.raw === null) return below
    if (matchesQuery(node) && !(below && text !== undefined)) {
      matches.push(node)
      return true
    }
    return below
  }
  search(top)
  // search() pushed in post-order; present them in document order.
  const order = new Map<TreeNode, number>()
  let index = 0
  const number = (node: TreeNode) => {
    order.set(node, index++)
    for (const child of node.children) number(child)
  }
  number(top)
  matches.sort((a, b) => order.get(a)! - order.get(b)!)
  const shown = matches.slice(0, query.limit)
  const included = new Set<TreeNode>()
  const matched = new Set<TreeNode>(shown)
  for (const match of shown) {
    for (let node: TreeNode | undefined = match; node !== undefined && !included.has(node); node = parents.get(node)) included.add(node)
    for (const child of match.children.slice(0, 8)) included.add(child)
    // A match in a row (or the row itself) shows the whole row: its cells with their text and the controls
    // in them, so "the checkbox in Bob's row" is in the answer with its ref.
    let row: TreeNode | undefined = match
    while (row !== undefined && row.raw?.role !== "row") row = parents.get(row)
    if (row !== undefined) {
      let budget = ROW_NODES
      const add = (node: TreeNode) => {
        for (const child of node.children) {
          if (budget-- <= 0) return
          included.add(child)
          add(child)
        }
      }
      add(row)
    }
  }
  const lines: Array<FindLine> = []
  if (shown.length === 0) return { lines, total: 0 }
  const walk = (node: TreeNode) => {
    let elided = 0
    for (const child of node.children) {
      if (!included.has(child)) {
        elided++
        continue
      }
      if (elided > 0) lines.push({ depth: child.depth, elided })
      elided = 0
      const raw: RawNode = { ...child.raw! }
      delete raw.path
      if (child.depth > 0) raw.depth = child.depth
      else delete raw.depth
      // Around a match, a node's long name and text are context: their start places it (a row's name is all its cells').
      if (!matched.has(child) && raw.name.length > CONTEXT_CHARS) raw.name = normalize(raw.name, CONTEXT_CHARS)
      if (!matched.has(child) && raw.text !== undefined && raw.text.length > CONTEXT_CHARS) raw.text = normalize(raw.text, CONTEXT_CHARS)
      lines.push(matched.has(child) ? { depth: child.depth, node: raw, match: true } : { depth: child.depth, node: raw })
      walk(child)
    }
    if (elided > 0 && node.children.length > 0 && (node === top || included.has(node))) {
      lines.push({ depth: node.children[0]!.depth, elided })
    }
  }
  walk(top)
  return { lines, total: matches.length }
}
