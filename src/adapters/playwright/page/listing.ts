// The snapshot's list of nodes: all of them, or (changes-only) those new or changed since the client
// last looked, each naming its nearest shown ancestor, with the refs that left; and what a search of the
// whole page records as seen.
import type { A11yNode } from "../../../domain/observation.js"
import { refsWithoutLine } from "../../../domain/snapshot-text.js"
import type { OutputItem } from "./collapse.js"
import { hiddenBehindOverlay, isWithin, openModal } from "./modal.js"
import { tell, untell } from "./registry.js"
import { hash } from "./text.js"
import { tellName } from "./told-names.js"
import type { TreeNode, Walk } from "./tree.js"
import type { ObserveResult, RawNode } from "./types.js"
import { isLiveElement as isLive } from "./visibility.js"

/** What the agent is told of a node, as a hash: a changes-only walk compares it with the last one told. */
const signatureOf = (node: RawNode) =>
  hash(`${node.role}|${node.name}|${node.disabled ?? ""}|${node.checked ?? ""}|${node.expanded ?? ""}|${node.level ?? ""}|${node.selected ?? ""}|${node.pressed ?? ""}|${node.sort ?? ""}|${node.current ?? ""}|${node.invalid ?? ""}|${node.required ?? ""}|${node.readonly ?? ""}|${node.marked ?? ""}|${node.depth ?? 0}|${node.text ?? ""}|${node.collapsed === undefined ? "" : `${node.collapsed.count}:${node.collapsed.refs.join(",")}:${node.collapsed.examples.join("|")}`}|${(node.path ?? []).join("/")}`)

/** Tells the client every node of a collapsed run (each one's own signature), noting them seen. */
const markCovered = (walk: Walk, seen: Set<string>, items: Array<TreeNode>) =>
  eachNode(items, (raw) => {
    seen.add(raw.ref)
    tell(walk.view, walk.changes, raw.ref, signatureOf(raw))
  })

/**
 * Whether the client was shown every node of these subtrees on a line of its own as it is now (at its
 * depth, which a run's items are not told with; not only seen by a search).
 */
const allTold = (walk: Walk, items: ReadonlyArray<TreeNode>): boolean => {
  const { view } = walk
  const told = (node: TreeNode): boolean =>
    !view.unshown.has(node.raw!.ref) && view.reported.get(node.raw!.ref) === signatureOf({ ...node.raw!, depth: node.depth }) && node.children.every(told)
  return items.every(told)
}

/** Every node of these subtrees (a collapsed run's items with what is inside them). */
const eachNode = (items: ReadonlyArray<TreeNode>, visit: (raw: RawNode) => void) => {
  const walkNode = (node: TreeNode) => {
    visit(node.raw!)
    for (const child of node.children) walkNode(child)
  }
  for (const item of items) walkNode(item)
}

/** The key of an output item in the client's record: a collapsed run's summary has its first ref and "*". */
const keyOf = (item: OutputItem) => (item.covered !== undefined ? `${item.raw.ref}*` : item.raw.ref)

/**
 * A search of the whole page looked at all of it for the client: every node it walked goes into the
 * client's record as seen, so the next changes-only walk answers what changed since, not the nodes the
 * search did not show. A node the client was told of that is gone stays in the record, so that walk
 * still says it left; one the search saw but did not show (not in `shown`, its answer's refs) is
 * recorded as unshown, and its leaving is no news to the client.
 */
export const recordSeen = (walk: Walk, output: Array<OutputItem>, shown: ReadonlySet<string>): void => {
  noteOrders(walk, output, false)
  const { view, changes } = walk
  const record = (key: string, raw: RawNode) => {
    const told = view.reported.has(key) && !view.unshown.has(key)
    tell(view, changes, key, signatureOf(raw))
    if (shown.has(raw.ref)) {
      if (raw.collapsed === undefined) tellName(walk.registry, view, raw.ref)
    } else if (!told) view.unshown.add(key)
  }
  for (const item of output) {
    const key = keyOf(item)
    record(key, item.raw)
    view.passed.delete(key)
    if (item.covered !== undefined) eachNode(item.covered, (raw) => record(raw.ref, raw))
  }
}

/** Nodes a reordered list shows again at most (its items with what is inside them): a long list costs a bounded answer. */
const REORDER_SHOWN = 60

/** Whether the refs both orders share come in another order now (an item moved, not only added or removed). */
const reordered = (before: ReadonlyArray<string>, now: ReadonlyArray<string>): boolean => {
  const kept = new Set(now)
  const was = before.filter((ref) => kept.has(ref))
  const had = new Set(was)
  const is = now.filter((ref) => had.has(ref))
  return was.some((ref, i) => ref !== is[i])
}

/**
 * Notes the order of each node's children as the client sees it now and, with `compare`, answers the
 * nodes to show again because their list was reordered since the client last looked (a dragged item,
 * a sorted list): the list, then its items with what is inside them, at most REORDER_SHOWN. A walk of
 * the whole page replaces the record, so lists that left take no room.
 */
const noteOrders = (walk: Walk, output: Array<OutputItem>, compare: boolean): Set<TreeNode> => {
  const { view } = walk
  const orders = walk.whole ? new Map<string, ReadonlyArray<string>>() : view.orders
  const again = new Set<TreeNode>()
  const add = (node: TreeNode) => {
    if (again.size >= REORDER_SHOWN) return
    again.add(node)
    for (const child of node.children) add(child)
  }
  for (const item of output) {
    const node = item.node
    if (node.children.length < 2 || node.raw === null) continue
    const now = node.children.map((child) => child.raw?.ref ?? "")
    const before = view.orders.get(node.raw.ref)
    orders.set(node.raw.ref, now)
    if (compare && before !== undefined && again.size < REORDER_SHOWN && reordered(before, now)) {
      again.add(node)
      for (const child of node.children) add(child)
    }
  }
  view.orders = orders
  return again
}

/** The nodes of the snapshot (see the file comment); `output` is the flattened tree. */
export const listNodes = (walk: Walk, output: Array<OutputItem>): NonNullable<ObserveResult["a11y"]> => {
  const { args, view, changes } = walk
  // Lists reordered since the client last looked are shown again in their new order.
  const again = noteOrders(walk, output, args.changesOnly)
  const nodes: Array<RawNode> = []
  // While a modal dialog is open, the page behind it is left out (and counted); its refs stay as they were.
  const modal = walk.whole ? openModal() : null
  let behind = 0
  let modalDepth: number | undefined
  let modalTold = false
  let truncated = walk.cut
  let unchanged = 0
  const seen = new Set<string>()
  // Changes-only: the enclosing nodes of the current one (by depth, document order), and which of them
  // this answer shows, so that each node shown names its nearest shown ancestor (`under`).
  const enclosing: Array<{ readonly depth: number; readonly ref: string; shown: boolean }> = []
  for (let item of output) {
    const key = keyOf(item)
    const depth = item.raw.depth ?? 0
    while (enclosing.length > 0 && enclosing[enclosing.length - 1]!.depth >= depth) enclosing.pop()
    const place = { depth, ref: item.raw.ref, shown: false }
    enclosing.push(place)
    if (modal !== null) {
      if (!isWithin(modal, item.node.element)) {
        behind += 1 + (item.covered?.length ?? 0)
        noteSeen(seen, key, item.covered)
        continue
      }
      // The dialog is the top of what is shown; a changes-only answer says what it hides when it shows the dialog.
      if (modalDepth === undefined) modalTold = !args.changesOnly || view.reported.get(key) !== signatureOf(item.raw)
      modalDepth ??= depth
      if (modalDepth > 0) item = { ...item, raw: { ...item.raw, depth: depth - modalDepth } }
    }
    if (!args.changesOnly) {
      if (nodes.length >= args.a11yLimit) {
        truncated = true
        break
      }
      nodes.push(item.raw)
      tell(view, changes, key, signatureOf(item.raw))
      if (item.covered !== undefined) markCovered(walk, seen, item.covered)
      continue
    }
    const signature = signatureOf(item.raw)
    seen.add(key)
    // A run of items the client was each told as they are now (shown one by one earlier) is no news as a run.
    const known = item.covered !== undefined && allTold(walk, item.covered)
    if (item.covered !== undefined) markCovered(walk, seen, item.covered)
    // A node whose ref or name the client was told for another element is shown again, changed or not.
    const same = known || view.reported.get(key) === signature || view.passed.get(key) === signature
    if (!again.has(item.node) && item.raw.apart !== true && same) {
      unchanged++
      if (known) tell(view, changes, key, signature)
    } else if (nodes.length < args.a11yLimit) {
      tell(view, changes, key, signature)
      view.passed.delete(key)
      place.shown = true
      let under: string | undefined
      for (let k = enclosing.length - 2; k >= 0 && under === undefined; k--) if (enclosing[k]!.shown) under = enclosing[k]!.ref
      nodes.push(under === undefined ? item.raw : { ...item.raw, under })
    } else {
      view.passed.set(key, signature)
      truncated = true
    }
  }
  if (args.changesOnly) markWholeRows(output, nodes)
  tellNames(walk, nodes)
  const removed = args.changesOnly ? removedRefs(walk, seen) : []
  return behind > 0 && modalTold ? { nodes, truncated, unchanged, removed, behindModal: behind } : { nodes, truncated, unchanged, removed }
}

/**
 * Notes the names of the nodes listed as their lines show them with their refs (not a collapsed run, not
 * a plain cell written on its row's line, whose ref the client does not see): a ref acts only on the
 * element it named then (told-names.ts).
 */
const tellNames = (walk: Walk, nodes: ReadonlyArray<RawNode>) => {
  const inline = refsWithoutLine(nodes as ReadonlyArray<A11yNode>, walk.args.changesOnly)
  for (const node of nodes) if (node.collapsed === undefined && !inline.has(node.ref)) tellName(walk.registry, walk.view, node.ref)
}

/**
 * Changes-only: a row shown with every one of its children shown too is marked whole, so that its text
 * form can put its cells on its line (a row named by its row header, "Carol", whose cells are "Carol
 * Madrid 27"); a row with only some of its cells shown keeps a line per cell.
 */
const markWholeRows = (output: ReadonlyArray<OutputItem>, nodes: Array<RawNode>) => {
  const shown = new Map<string, number>()
  nodes.forEach((node, i) => shown.set(node.ref, i))
  for (const item of output) {
    const at = item.covered === undefined && item.raw.role === "row" ? shown.get(item.raw.ref) : undefined
    if (at === undefined || item.node.children.length === 0) continue
    if (item.node.children.every((child) => child.raw !== null && shown.has(child.raw.ref))) nodes[at] = { ...nodes[at]!, whole: true }
  }
}

/** A node left out behind a modal still counts as there (with what its run covers): its ref is not gone. */
const noteSeen = (seen: Set<string>, key: string, covered: Array<TreeNode> | undefined) => {
  seen.add(key)
  eachNode(covered ?? [], (raw) => seen.add(raw.ref))
}

/** A ref the client was told about and that is gone (or, after a full walk, no longer shown); forgotten as told. */
const removedRefs = (walk: Walk, seen: Set<string>): Array<string> => {
  const { registry, view, changes } = walk
  const removed: Array<string> = []
  for (const key of view.reported.keys()) {
    const summary = key.endsWith("*")
    const element = registry.byRef.get(summary ? key.slice(0, -1) : key)
    const gone = element === undefined || !isLive(element) || (!walk.cut && !seen.has(key))
    // A node the client never saw, hidden only while an overlay is open, is no news when it comes back as it was.
    if (gone && view.unshown.has(key) && element !== undefined && isLive(element) && hiddenBehindOverlay(element)) continue
    if (gone) {
      if (!summary && !seen.has(key) && !view.unshown.has(key)) removed.push(key)
      untell(view, changes, key)
    }
  }
  return removed
}
