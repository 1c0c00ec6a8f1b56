// The text form of a page's tree that an agent reads: one line per node, indented by nesting,
//   role "name" [state] [e12]: text
// with runs of like siblings as one line (`listitem ×199 [e12..e409]: Item 2 | Item 3 | … | Item 200`),
// rows of plain cells on one line (each with its states), and a marker where a budget cut the text. Pure: it only formats
// the structured nodes, which stay the stored form of an observation.
import type { A11yNode, FindLine, Observation } from "./observation.js"
import { collapseWhitespace } from "./text.js"

/** Characters a snapshot may take before it is cut with a marker. */
export const DEFAULT_SNAPSHOT_CHARS = 24_000

export interface RenderOptions {
  /** Characters the text may take; past them it ends with a line saying how much was left out. */
  readonly maxChars?: number | undefined
  /**
   * The nodes are what changed (a changes-only observation): each is indented under the nearest
   * enclosing node shown (its `under`), and starts a line of its own at the left when none is shown,
   * so no line ever reads as the child of a node that does not hold it. A row goes on one line only
   * when the cells below are all of it (their names make up its name).
   */
  readonly changesOnly?: boolean | undefined
}

export interface RenderedSnapshot {
  readonly text: string
  /** True when the budget cut the text. */
  readonly cut: boolean
}

const CELL_ROLES = new Set(["cell", "gridcell", "columnheader", "rowheader"])
/**
 * Roles named by their content: with child lines below, the name only repeats them. A header keeps its name
 * (an agent looks for a column by it, as getByRole("columnheader", { name }) does), even where one child's
 * line holds all of it (a sorter labelled "Sort by Age").
 */
const NAME_REPEATS_CHILDREN = new Set(["row", "cell", "gridcell"])

const states = (node: A11yNode): Array<string> => {
  const out: Array<string> = []
  if (node.level !== undefined) out.push(`level=${node.level}`)
  if (node.checked === true) out.push("checked")
  else if (node.checked === "mixed") out.push("checked=mixed")
  if (node.selected === true) out.push("selected")
  if (node.marked !== undefined) out.push(node.marked)
  if (node.pressed === true) out.push("pressed")
  else if (node.pressed === "mixed") out.push("pressed=mixed")
  if (node.sort !== undefined) out.push(node.sort === "other" ? "sort=other" : node.sort)
  if (node.current !== undefined) out.push(node.current === "true" ? "current" : `current=${node.current}`)
  if (node.expanded === true) out.push("expanded")
  else if (node.expanded === false) out.push("collapsed")
  if (node.disabled === true) out.push("disabled")
  if (node.invalid === true) out.push("invalid")
  if (node.required === true) out.push("required")
  if (node.readonly === true) out.push("readonly")
  return out
}

const squashed = (text: string) => text.replace(/\s+/g, "").toLowerCase()

/**
 * Whether a node named by its content (a row, a cell) only repeats the names or texts of the child lines
 * shown under it, so its line can leave the name out. A header named "ID" above a filter field does not.
 */
const nameRepeats = (node: A11yNode, children: ReadonlyArray<A11yNode>): boolean => {
  if (!NAME_REPEATS_CHILDREN.has(node.role) || children.length === 0) return false
  const shown = squashed(children.map((child) => child.name || child.text || "").join(""))
  const name = squashed(node.name)
  return name.endsWith("…") ? shown.startsWith(name.slice(0, -1)) : shown === name
}

/** One node as a line, without indentation; `inline` replaces its text (a row's cells). */
export const nodeLine = (node: A11yNode, options: { readonly omitName?: boolean; readonly inline?: string } = {}): string => {
  if (node.collapsed !== undefined) {
    const { count, refs, examples } = node.collapsed
    const shown = examples.length < count && examples.length > 1 ? [...examples.slice(0, -1), "…", examples[examples.length - 1]!] : examples
    return `${node.role} ×${count} [${refs.join(", ")}]${shown.length > 0 ? `: ${shown.join(" | ")}` : ""}`
  }
  let line = node.role
  if (node.name !== "" && options.omitName !== true) line += ` ${JSON.stringify(node.name)}`
  const flags = states(node)
  if (flags.length > 0) line += ` [${flags.join(", ")}]`
  line += ` [${node.ref}]`
  const text = options.inline ?? node.text
  if (text !== undefined && text !== "") line += `: ${text}`
  return line
}

const depthOf = (node: A11yNode) => node.depth ?? 0

/**
 * The row at `i` with its cells on its line: the end of its children (the nodes right after it that are
 * deeper), else undefined. Only a row whose shown children are all plain cells (no deeper lines, no cell
 * showing other words than its name: a date picker's "Choose Friday, March 14th, 2025" showing 14 keeps
 * its line), and, changes only, when they are all of it (the walk says so, or their names make up its
 * name). Cells that are `apart` are written on the row's line and on lines of their own below it, unless
 * all of them are: then they only have their lines.
 */
const rowLineEnd = (nodes: ReadonlyArray<A11yNode>, i: number, changesOnly: boolean): number | undefined => {
  const node = nodes[i]!
  if (node.role !== "row" || node.collapsed !== undefined) return undefined
  let end = i + 1
  while (end < nodes.length && depthOf(nodes[end]!) > depthOf(node)) end++
  const children = nodes.slice(i + 1, end)
  if (children.length === 0 || children.some((child) => depthOf(child) !== depthOf(node) + 1)) return undefined
  if (!children.every((child) => CELL_ROLES.has(child.role) && child.collapsed === undefined && !(child.name && child.text))) return undefined
  if (children.every((child) => child.apart === true)) return undefined
  const names = collapseWhitespace(children.map((cell) => cell.name || cell.text || "").join(" "))
  return !changesOnly || node.whole === true || names === collapseWhitespace(node.name) ? end : undefined
}

/**
 * The refs of the nodes the text form writes on no line of their own, without their refs: plain cells on
 * their row's line (see `rowLineEnd`). The page notes a ref's name as told only when its line shows it.
 */
export const refsWithoutLine = (given: ReadonlyArray<A11yNode>, changesOnly: boolean): Set<string> => {
  const nodes = changesOnly ? nestedByUnder(given) : given
  const inline = new Set<string>()
  for (let i = 0; i < nodes.length; i++) {
    const end = rowLineEnd(nodes, i, changesOnly)
    if (end === undefined) continue
    for (let j = i + 1; j < end; j++) if (nodes[j]!.apart !== true) inline.add(nodes[j]!.ref)
    i = end - 1
  }
  return inline
}

/**
 * Nodes in document order (with their depths) as indented lines. Depths are made relative to the
 * shallowest node and never jump more than one level, so a partial list (changes only, a search)
 * still reads as a tree.
 */
export const renderNodes = (given: ReadonlyArray<A11yNode>, options: RenderOptions = {}): RenderedSnapshot => {
  const budget = options.maxChars ?? DEFAULT_SNAPSHOT_CHARS
  const changesOnly = options.changesOnly === true
  const nodes = changesOnly ? nestedByUnder(given) : given
  const base = nodes.reduce((min, node) => Math.min(min, depthOf(node)), Number.POSITIVE_INFINITY)
  const lines: Array<string> = []
  let used = 0
  let previous = -1
  let i = 0
  while (i < nodes.length) {
    const node = nodes[i]!
    const depth = Math.min(depthOf(node) - base, previous + 1)
    // Children: the nodes right after it that are deeper.
    let end = i + 1
    while (end < nodes.length && depthOf(nodes[end]!) > depthOf(node)) end++
    const children = nodes.slice(i + 1, end).filter((child) => depthOf(child) === depthOf(node) + 1)
    const rowEnd = rowLineEnd(nodes, i, changesOnly)
    // Changes only: the cells below may be some of the row's, and the agent knows the rest.
    const omitName = changesOnly ? NAME_REPEATS_CHILDREN.has(node.role) && children.length > 0 : nameRepeats(node, children)
    // A cell's states go with it on the row's line: a header sorted by ("Age [ascending]").
    const inline = rowEnd === undefined ? undefined : children.map((cell) => {
      const shown = states(cell)
      return `${cell.name || cell.text || ""}${shown.length > 0 ? ` [${shown.join(", ")}]` : ""}`
    }).join(" | ")
    const line = inline === undefined ? nodeLine(node, { omitName }) : nodeLine(node, { omitName: true, inline })
    const written = [`${"  ".repeat(Math.max(0, depth))}${line}`]
    // A row on one line still gives its `apart` cells lines of their own, with their refs.
    if (rowEnd !== undefined) for (const cell of children) if (cell.apart === true) written.push(`${"  ".repeat(Math.max(0, depth) + 1)}${nodeLine(cell)}`)
    const size = written.reduce((sum, text) => sum + text.length + 1, 0)
    if (used + size > budget && lines.length > 0) {
      lines.push(`… cut at ${budget} characters: ${nodes.length - i} more nodes (narrow it with rootSelector, or search with find)`)
      return { text: lines.join("\n"), cut: true }
    }
    lines.push(...written)
    used += size
    previous = Math.max(0, depth)
    i = rowEnd ?? i + 1
  }
  return { text: lines.join("\n"), cut: false }
}

/**
 * Changed nodes with depths that follow what is shown: one level below the nearest enclosing node shown
 * (`under`), else 0. A node whose `under` is not among the nodes before it (not shown) starts at 0.
 */
const nestedByUnder = (nodes: ReadonlyArray<A11yNode>): ReadonlyArray<A11yNode> => {
  const levels = new Map<string, number>()
  return nodes.map((node) => {
    const parent = node.under === undefined ? undefined : levels.get(node.under)
    const depth = parent === undefined ? 0 : parent + 1
    levels.set(node.ref, depth)
    return depth === depthOf(node) ? node : { ...node, depth }
  })
}

/** Runs of at least this many consecutive refs are written as one range. */
const REF_RUN_MIN = 3

/**
 * Refs written short: in order of their numbers (per frame prefix), each run of at least REF_RUN_MIN
 * consecutive ones as a range (`e12..e40`, as collapsed runs write theirs), so that a popup that closes
 * costs one word, not one per node it held.
 */
export const refRuns = (refs: ReadonlyArray<string>): Array<string> => {
  const parsed = refs.map((ref) => {
    const match = /^(.*?)(\d+)$/.exec(ref)
    return match === null ? { ref, prefix: ref, n: Number.NaN } : { ref, prefix: match[1]!, n: Number(match[2]) }
  })
  parsed.sort((a, b) => (a.prefix === b.prefix ? a.n - b.n : a.prefix < b.prefix ? -1 : 1))
  const out: Array<string> = []
  let i = 0
  while (i < parsed.length) {
    let end = i + 1
    while (end < parsed.length && parsed[end]!.prefix === parsed[i]!.prefix && parsed[end]!.n === parsed[end - 1]!.n + 1) end++
    if (end - i >= REF_RUN_MIN) out.push(`${parsed[i]!.ref}..${parsed[end - 1]!.ref}`)
    else for (let j = i; j < end; j++) out.push(parsed[j]!.ref)
    i = end
  }
  return out
}

/** The refs a list of refs and ranges (`e3 e7..e9`) names, ranges spelled out. */
export const expandRefRuns = (words: ReadonlyArray<string>): Array<string> =>
  words.flatMap((word) => {
    const range = /^(.*?)(\d+)\.\.(.*?)(\d+)$/.exec(word)
    if (range === null || range[1] !== range[3]) return [word]
    const from = Number(range[2])
    const to = Number(range[4])
    return Array.from({ length: Math.max(0, to - from + 1) }, (_, k) => `${range[1]}${from + k}`)
  })

/** What a snapshot says of the nodes a modal dialog hides. */
export const modalNote = (behind: number): string => `(${behind} nodes behind the modal dialog left out until it closes)`

/** An observation's nodes as text, with what a changes-only observation says about the rest. */
export const renderA11y = (a11y: NonNullable<Observation["a11y"]>, options: RenderOptions = {}): RenderedSnapshot => {
  const rendered = renderNodes(a11y.nodes, { ...options, changesOnly: options.changesOnly ?? a11y.changesOnly === true })
  const notes: Array<string> = []
  if (a11y.truncated === true && !rendered.cut) notes.push("… more nodes than the limit; narrow it with rootSelector, or search with find")
  if (a11y.behindModal !== undefined) notes.push(modalNote(a11y.behindModal))
  if (a11y.changesOnly === true) {
    const unchanged = a11y.unchanged ?? 0
    const removed = a11y.removed ?? []
    if (unchanged > 0) notes.push(`(${unchanged} nodes unchanged, their refs still valid)`)
    if (removed.length > 0) notes.push(`(gone: ${refRuns(removed).join(" ")})`)
  }
  const parts = [rendered.text, ...notes].filter((part) => part !== "")
  return { text: parts.join("\n"), cut: rendered.cut }
}

/**
 * A search answer: matches marked with "▶", their ancestors and children. Siblings left out are not
 * written (an answer to a search shows what matched and where, not what did not); they only keep a
 * node named by its content named, since its name is then the one place its other children show.
 */
export const renderFind = (lines: ReadonlyArray<FindLine>): string => {
  const base = lines.reduce((min, line) => (line.node === undefined ? min : Math.min(min, line.depth)), Number.POSITIVE_INFINITY)
  /** The lines right below line i, or none when some of its children were left out (their names are not all shown). */
  const shownChildren = (i: number): ReadonlyArray<A11yNode> => {
    const depth = lines[i]!.depth
    const children: Array<A11yNode> = []
    for (let j = i + 1; j < lines.length && lines[j]!.depth > depth; j++) {
      if (lines[j]!.depth !== depth + 1) continue
      const node = lines[j]!.node
      if (node === undefined) return []
      children.push(node)
    }
    return children
  }
  return lines
    .flatMap((line, i) => {
      if (line.node === undefined) return []
      const indent = "  ".repeat(Math.max(0, line.depth - base))
      return [`${indent}${line.match === true ? "▶ " : ""}${nodeLine(line.node, { omitName: nameRepeats(line.node, shownChildren(i)) })}`]
    })
    .join("\n")
}
