// Runs of like siblings (same role and shape) shown as one node with a count, their refs as ranges and
// a few of their texts: a product grid or a long list costs a few lines instead of hundreds.
import { normalize } from "./text.js"
import type { TreeNode } from "./tree.js"
import type { RawNode } from "./types.js"

/** Runs of like siblings at least this long collapse: items with children, and single nodes (buttons, options). */
const COLLAPSE_MIN = 5
const COLLAPSE_MIN_LEAF = 10
/**
 * Items that hold a control (a row's checkbox, a card's button, a field) collapse only in runs this long: a
 * shorter run shows each item's control with its ref beside the words that tell the items apart ("the
 * checkbox in Bob's row"), where a run would show the first item's only.
 */
const COLLAPSE_MIN_CONTROLS = 20
const CONTROL_ROLES = new Set(["button", "checkbox", "radio", "switch", "textbox", "searchbox", "combobox", "spinbutton", "slider", "menuitemcheckbox", "menuitemradio"])

/**
 * What a run shows of one of its items: its name, else its text, else its first child's. An item whose
 * children show other words than their labels (a calendar week of day cells labelled "Choose Friday, March
 * 14th, 2025" showing 14) shows those words: its name, made of the labels, would say less in more.
 */
const labelOf = (node: TreeNode): string => {
  const raw = node.raw!
  if (node.children.some((child) => child.distinct === true)) {
    const shown = node.children.map((child) => child.raw?.text ?? (child.raw === null ? "" : labelOf(child))).filter((words) => words !== "")
    if (shown.length > 0) return shown.join(" ")
  }
  if (raw.name !== "") return raw.name
  if (raw.text !== undefined) return raw.text
  for (const child of node.children) {
    const label = labelOf(child)
    if (label !== "") return label
  }
  return ""
}
const refRanges = (nodes: Array<TreeNode>): Array<string> => {
  const numbers: Array<number> = []
  const collect = (node: TreeNode) => {
    numbers.push(Number(node.raw!.ref.slice(1)))
    for (const child of node.children) collect(child)
  }
  for (const node of nodes) collect(node)
  const ranges: Array<string> = []
  let start = numbers[0]!
  let previous = start
  for (let i = 1; i <= numbers.length; i++) {
    const current = numbers[i]
    if (current === previous + 1) {
      previous = current
      continue
    }
    ranges.push(start === previous ? `e${start}` : `e${start}..e${previous}`)
    if (current === undefined) break
    start = previous = current
  }
  return ranges
}

/**
 * A node a run of like siblings would hide something of: the chosen one, one whose ref or name the
 * client was told for another element (`apart`), or (unless `foldLabelled`) one whose label differs from
 * its text (a run shows one of the two).
 */
const standsOut = (node: TreeNode, foldLabelled: boolean): boolean => {
  const raw = node.raw!
  return (node.distinct === true && !foldLabelled) || raw.selected === true || raw.current !== undefined || raw.marked !== undefined || raw.apart === true
}

/** A leaf whose label differs from the words it shows (a day cell "Choose Friday, March 14th, 2025" showing 14). */
const isLabelledLeaf = (node: TreeNode): boolean => node.children.length === 0 && node.distinct === true && node.raw?.text !== undefined && node.raw.text !== ""

export interface OutputItem {
  readonly node: TreeNode
  readonly raw: RawNode
  /** The refs a collapsed run covers (to mark them seen). */
  readonly covered?: Array<TreeNode>
}

/**
 * The finished tree in document order as output lines, runs of like siblings collapsed. `foldLabelled`
 * (a changes-only answer): labelled nodes fold too, their labels as the run's examples; mm_find still
 * matches each by its label and by its text, and a snapshot lists each on a line of its own. `retold`:
 * some nodes are `apart` (told-names.ts `markRetold`); an item holding one stays out of runs too.
 */
export const flattenTree = (top: TreeNode, foldLabelled = false, retold = false): Array<OutputItem> => {
  const holders = new Map<TreeNode, boolean>()
  const holdsApart = (node: TreeNode): boolean => {
    let holds = holders.get(node)
    if (holds === undefined) {
      holds = node.children.some((child) => child.raw?.apart === true || holdsApart(child))
      holders.set(node, holds)
    }
    return holds
  }
  const ownLine = (node: TreeNode) => standsOut(node, foldLabelled) || (retold && holdsApart(node))
  const controls = new Map<TreeNode, boolean>()
  const holdsControl = (node: TreeNode): boolean => {
    let holds = controls.get(node)
    if (holds === undefined) {
      holds = node.children.some((child) => CONTROL_ROLES.has(child.role) || holdsControl(child))
      controls.set(node, holds)
    }
    return holds
  }
  const shapes = new Map<TreeNode, string>()
  const shapeOf = (node: TreeNode): string => {
    let shape = shapes.get(node)
    if (shape === undefined) {
      shape = node.role
      if (node.children.length > 0) {
        shape += "("
        for (const child of node.children) {
          shape += shapeOf(child) + ","
          if (shape.length > 300) break
        }
        shape += ")"
      }
      shapes.set(node, shape)
    }
    return shape
  }
  const output: Array<OutputItem> = []
  /** `template`: the node is the first item of a collapsed run, shown whole as the shape of the others. */
  const flatten = (node: TreeNode, template: boolean) => {
    const children = node.children
    let i = 0
    while (i < children.length) {
      const child = children[i]!
      let end = i + 1
      const shape = shapeOf(child)
      // A chosen node (selected, current, marked by a class) stays a line of its own: a run would hide which
      // it is; so does, in a whole snapshot, a node whose name differs from its text (a run shows one of the two).
      if (!ownLine(child)) {
        while (end < children.length && !ownLine(children[end]!) && shapeOf(children[end]!) === shape) end++
      }
      // In a changes-only answer, the first item of a run (a calendar's first week) shows one of its labelled
      // leaves whole (the label's pattern) and folds the others like the run after it, which shows their words.
      const labelledLeaves = template && foldLabelled && child.children.length === 0 && children.slice(i, end).every(isLabelledLeaf)
      const least = holdsControl(child) ? COLLAPSE_MIN_CONTROLS : child.children.length > 0 || labelledLeaves ? COLLAPSE_MIN : COLLAPSE_MIN_LEAF
      const collapses = end - i >= least
      emit(child, collapses)
      if (collapses) {
        const rest = children.slice(i + 1, end)
        const first = rest[0]!.raw!
        const picks = rest.length <= 4 ? rest : [rest[0]!, rest[1]!, rest[2]!, rest[rest.length - 1]!]
        const raw: RawNode = {
          ref: first.ref,
          role: first.role,
          name: first.name,
          collapsed: {
            count: rest.length,
            refs: refRanges(rest).slice(0, 20),
            examples: picks.map((pick) => normalize(labelledLeaves ? pick.raw!.text! : labelOf(pick), 40))
          }
        }
        if (rest[0]!.depth > 0) raw.depth = rest[0]!.depth
        if (first.path !== undefined) raw.path = first.path
        output.push({ node: rest[0]!, raw, covered: rest })
      } else {
        for (let j = i + 1; j < end; j++) emit(children[j]!, false)
      }
      i = end
    }
  }
  const emit = (node: TreeNode, template: boolean) => {
    const raw = node.raw!
    if (node.depth > 0) raw.depth = node.depth
    output.push({ node, raw })
    flatten(node, template)
  }
  flatten(top, false)
  return output
}
