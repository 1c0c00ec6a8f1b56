// The snapshot's list of nodes: all of them, or (changes-only) those new or changed since the agent
// was last told, each naming its nearest shown ancestor, with the refs that left.
import type { OutputItem } from "./collapse.js"
import { tell, untell } from "./registry.js"
import { hash } from "./text.js"
import type { TreeNode, Walk } from "./tree.js"
import type { ObserveResult, RawNode } from "./types.js"
import { isLiveElement as isLive } from "./visibility.js"

/** What the agent is told of a node, as a hash: a changes-only walk compares it with the last one told. */
const signatureOf = (node: RawNode) =>
  hash(`${node.role}|${node.name}|${node.disabled ?? ""}|${node.checked ?? ""}|${node.expanded ?? ""}|${node.level ?? ""}|${node.selected ?? ""}|${node.pressed ?? ""}|${node.depth ?? 0}|${node.text ?? ""}|${node.collapsed === undefined ? "" : `${node.collapsed.count}:${node.collapsed.refs.join(",")}:${node.collapsed.examples.join("|")}`}|${(node.path ?? []).join("/")}`)

/** The nodes of the snapshot (see the file comment); `output` is the flattened tree. */
export const listNodes = (walk: Walk, output: Array<OutputItem>): NonNullable<ObserveResult["a11y"]> => {
  const { args, registry, changes } = walk
  const nodes: Array<RawNode> = []
  let truncated = walk.cut
  let unchanged = 0
  const seen = new Set<string>()
  const markCovered = (items: Array<TreeNode>) => {
    const mark = (node: TreeNode) => {
      seen.add(node.raw!.ref)
      tell(registry, changes, node.raw!.ref, signatureOf(node.raw!))
      for (const child of node.children) mark(child)
    }
    for (const item of items) mark(item)
  }
  // Changes-only: the enclosing nodes of the current one (by depth, document order), and which of them
  // this answer shows, so that each node shown names its nearest shown ancestor (`under`).
  const enclosing: Array<{ readonly depth: number; readonly ref: string; shown: boolean }> = []
  for (const item of output) {
    const key = item.covered !== undefined ? `${item.raw.ref}*` : item.raw.ref
    const depth = item.raw.depth ?? 0
    while (enclosing.length > 0 && enclosing[enclosing.length - 1]!.depth >= depth) enclosing.pop()
    const place = { depth, ref: item.raw.ref, shown: false }
    enclosing.push(place)
    if (!args.changesOnly) {
      if (nodes.length >= args.a11yLimit) {
        truncated = true
        break
      }
      nodes.push(item.raw)
      tell(registry, changes, key, signatureOf(item.raw))
      if (item.covered !== undefined) markCovered(item.covered)
      continue
    }
    const signature = signatureOf(item.raw)
    seen.add(key)
    if (item.covered !== undefined) markCovered(item.covered)
    if (registry.reported.get(key) === signature || registry.passed.get(key) === signature) unchanged++
    else if (nodes.length < args.a11yLimit) {
      tell(registry, changes, key, signature)
      registry.passed.delete(key)
      place.shown = true
      let under: string | undefined
      for (let k = enclosing.length - 2; k >= 0 && under === undefined; k--) if (enclosing[k]!.shown) under = enclosing[k]!.ref
      nodes.push(under === undefined ? item.raw : { ...item.raw, under })
    } else {
      registry.passed.set(key, signature)
      truncated = true
    }
  }
  const removed = args.changesOnly ? removedRefs(walk, seen) : []
  return { nodes, truncated, unchanged, removed }
}

/** A ref the agent was told about and that is gone (or, after a full walk, no longer shown); forgotten as told. */
const removedRefs = (walk: Walk, seen: Set<string>): Array<string> => {
  const { registry, changes } = walk
  const removed: Array<string> = []
  for (const key of registry.reported.keys()) {
    const summary = key.endsWith("*")
    const element = registry.byRef.get(summary ? key.slice(0, -1) : key)
    const gone = element === undefined || !isLive(element) || (!walk.cut && !seen.has(key))
    if (gone) {
      if (!summary && !seen.has(key)) removed.push(key)
      untell(registry, changes, key)
    }
  }
  return removed
}
