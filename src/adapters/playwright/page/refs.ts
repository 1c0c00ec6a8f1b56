// Finishing the tree, in pre-order: textless generic blocks dissolve, each node gets its states, its text
// and its ref, bound in the registry by the node's durable identity (so a reload can carry it over).
import { NAME_FROM_CONTENT } from "./roles.js"
import { describeNode, VALUE_ROLES, valueIsSecret } from "./states.js"
import { hash, normalize } from "./text.js"
import type { TreeNode, Walk } from "./tree.js"
import { newRef } from "./registry.js"
import type { RawNode } from "./types.js"

const PATH_ROLES = new Set(["dialog", "alertdialog", "menu", "listbox", "tabpanel", "form", "navigation", "region", "iframe"])


/**
 * The element's ref: the one it has; else, in a whole walk, the ref an earlier document at this URL
 * gave the element with the same durable identity (when no element here holds it yet); else a new one.
 */
const refFor = (walk: Walk, element: Element, durable: string): string => {
  const registry = walk.registry
  const whole = walk.whole
  let ref = registry.byEl.get(element)
  if (ref === undefined || registry.byRef.get(ref) !== element) {
    const carried = whole ? registry.carry?.get(durable) : undefined
    if (carried !== undefined) registry.carry!.delete(durable)
    const fresh = carried !== undefined && !registry.byRef.has(carried) ? carried : newRef(registry, walk)
    // The walk builds no node its block has no number for (walk.ts roomFor); past the block no number is the walk's to give.
    if (fresh === undefined) throw new Error("the walk ran past its block of ref numbers")
    ref = fresh
    registry.byEl.set(element, ref)
    registry.byRef.set(ref, element)
  }
  if (whole && registry.durable.get(ref) !== durable) {
    registry.durable.set(ref, durable)
    walk.changes.refs.add(ref)
  }
  return ref
}

const textOf = (node: TreeNode, name: string): string | undefined => {
  if (node.parts.length === 0) return undefined
  const joined = node.parts.join("")
  let text = normalize(joined, node.cap + 1)
  if (text === "") return undefined
  // Cut by normalize (longer than the cap) or by the walk (more than it took); a text that ends in its own "…" is whole.
  const cut = node.total > node.taken || (text.endsWith("…") && text !== normalize(joined, Number.MAX_SAFE_INTEGER))
  if (cut) {
    const body = text.endsWith("…") ? text.slice(0, -1) : text.slice(0, node.cap)
    text = `${body}…[${Math.max(1, node.total - body.length)} more chars]`
  }
  return text === name ? undefined : text
}
const hasText = (node: TreeNode) => node.parts.some((part) => /\S/.test(part))
const labelled = (element: Element) => element.hasAttribute("aria-label") || element.hasAttribute("aria-labelledby")
/** A labelled generic without text of its own says something when its label is not just a child's name (a copy button's wrapper). */
const namedApart = (walk: Walk, node: TreeNode): boolean => {
  if (!labelled(node.element!)) return false
  const name = walk.aria.nameOf(node.element!, "generic")
  return name !== "" && !node.children.some((child) => child.element !== null && walk.aria.nameOf(child.element, child.role) === name)
}
const squashed = (text: string) => text.replace(/\s+/g, "").toLowerCase()
/** Whether a name says a text: holds it as whole words ("March 14, 2025" says "14"; "March 14th" does not). */
const says = (name: string, text: string): boolean => {
  const at = name.toLowerCase().indexOf(text.toLowerCase())
  if (at < 0) return false
  const word = /[\p{L}\p{N}]/u
  return !word.test(name.charAt(at - 1)) && !word.test(name.charAt(at + text.length)) ? true : says(name.slice(at + 1), text)
}

/**
 * The text a node shows besides its name: none when the name already says it (a node named by its
 * content, a labelled node whose label holds its text as whole words), nor an editor's content that may
 * be a secret. Marks the node distinct when its label (aria-label, aria-labelledby) differs from the text
 * it shows; such a node shows its text unless the label says it (a date picker's gridcell "Choose
 * Friday, March 14th, 2025" shows 14, which a person reads and clicks, as Playwright shows it).
 */
const shownText = (walk: Walk, node: TreeNode, raw: RawNode): string | undefined => {
  if (node.leaf && valueIsSecret(node.element!, walk.args.testIdAttribute)) return undefined
  if (raw.name === "") return textOf(node, raw.name)
  const text = textOf(node, "")
  if (text !== undefined && labelled(node.element!) && squashed(text) !== squashed(raw.name)) node.distinct = true
  if (NAME_FROM_CONTENT.has(node.role) && !raw.name.endsWith("…") && !(node.distinct === true && text !== undefined && !says(raw.name, text))) return undefined
  if ((node.role === "generic" || NAME_FROM_CONTENT.has(node.role)) && text !== undefined && says(raw.name, text)) return undefined
  return text === raw.name ? undefined : text
}
/**
 * What a node is, apart from where it is: role, name, test id, and for a node without a name its text
 * (a list item's words; not a field's value, which a reload may reset).
 */
const identityOf = (walk: Walk, element: Element, raw: RawNode): string =>
  `${raw.role}\u0001${raw.name}\u0001${raw.name === "" && !VALUE_ROLES.has(raw.role) ? normalize(raw.text, 80) : ""}\u0001${element.getAttribute(walk.args.testIdAttribute) ?? ""}`
/**
 * Finishes the children of a node, in pre-order (refs are numbered in document order, which collapsed
 * runs rely on). A child's durable identity is its parent's with its own identity and its place among
 * the siblings that share that identity (the 2nd of 3), so that a ref carried to a new document lands
 * only on the element in the same place: when like siblings were added or removed, none of them match.
 */
const finish = (walk: Walk, node: TreeNode, depth: number, path: Array<string>, parentDurable: string) => {
  const kids: Array<TreeNode> = []
  const pathOf = new Map<TreeNode, Array<string>>()
  const gather = (children: Array<TreeNode>, innerPath: Array<string>) => {
    for (const child of children) {
      if (child.element === null) gather(child.children, innerPath)
      else if (child.role === "generic" && child.element.localName !== "summary" && !hasText(child) && !namedApart(walk, child)) gather(child.children, innerPath)
      else {
        kids.push(child)
        pathOf.set(child, innerPath)
      }
    }
  }
  gather(node.children, path)
  node.children = kids
  const identities: Array<string> = []
  const shared = new Map<string, number>()
  for (const child of kids) {
    const raw = describeNode(walk, child.element!, child.role, pathOf.get(child)!)
    const text = shownText(walk, child, raw)
    if (text !== undefined && raw.text === undefined) raw.text = text
    child.raw = raw
    const identity = identityOf(walk, child.element!, raw)
    identities.push(identity)
    shared.set(identity, (shared.get(identity) ?? 0) + 1)
  }
  const places = new Map<string, number>()
  for (const [i, child] of kids.entries()) {
    const raw = child.raw!
    const identity = identities[i]!
    const place = places.get(identity) ?? 0
    places.set(identity, place + 1)
    const durable = hash(`${parentDurable}\u0002${identity}\u0002${place}/${shared.get(identity)}`)
    raw.ref = refFor(walk, child.element!, durable)
    walk.registry.info.set(raw.ref, { role: raw.role, name: raw.name })
    child.depth = depth
    const childPath = pathOf.get(child)!
    const inner = PATH_ROLES.has(child.role) ? [...childPath, raw.name ? `${child.role}: ${raw.name}` : child.role] : childPath
    finish(walk, child, depth + 1, inner, durable)
    // Text that only repeats the links inside it (a list item holding just a link) says nothing new.
    if (raw.text !== undefined && child.children.length > 0 && raw.text === child.children.map((kid) => kid.raw!.name).join(" ")) delete raw.text
  }
}

/** Finishes the whole tree under `top`. */
export const finishTree = (walk: Walk, top: TreeNode): void => {
  finish(walk, top, 0, [], "")
  // Refs carried over and not taken by this whole walk are not carried any further (they are stale).
  if (walk.whole) walk.registry.carry = undefined
}
