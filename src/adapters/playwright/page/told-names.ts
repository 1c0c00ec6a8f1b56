// What each client was told a ref's element is called, and whether it still is: a ref acts only on the
// element it named when the client was last told of it. A page that reuses its elements (a calendar
// whose cells take the next month's days, React keeping the nodes) would otherwise have an old ref act
// on whatever the element shows now. See `View.named`.
import { makeAria } from "./aria.js"
import type { Registry, View } from "./registry.js"
import type { TreeNode } from "./tree.js"
import type { RefRenamed } from "./types.js"
import { isLiveElement as isLive } from "./visibility.js"

/**
 * Notes the role and name a client was shown a ref with (a node listed with its ref, as the walk named
 * it; not a collapsed run, which shows its items' text without their refs). A nameless node is not
 * noted: its ref acts as it always did.
 */
export const tellName = (registry: Registry, view: View, ref: string): void => {
  const info = registry.info.get(ref)
  if (info === undefined || info.name === "" || info.role === "iframe") view.named.delete(ref)
  else view.named.set(ref, { role: info.role, name: info.name })
}

/**
 * Whether the ref's element now has another role or name than the client (`viewer`) was last told,
 * named as the walk names it (the name afresh, so that a change no walk saw yet counts); undefined when
 * it has the same, or the client was never told a name for it. `offer`: also the ref of the one element
 * that now has the told role and name (then noted as told, the answer tells it), if exactly one has
 * (among the refs of that role, each named afresh).
 */
export const renamedRef = (registry: Registry, ref: string, viewer: string, offer: boolean): RefRenamed | undefined => {
  const told = registry.views.get(viewer)?.named.get(ref)
  const element = registry.byRef.get(ref)
  if (told === undefined || element === undefined) return undefined
  const aria = makeAria()
  const role = registry.info.get(ref)?.role ?? told.role
  const name = aria.nameOf(element, told.role)
  if (role === told.role && name === told.name) return undefined
  const renamed: RefRenamed = { was: told, now: { role, name: role === told.role ? name : registry.info.get(ref)?.name ?? name } }
  if (!offer) return renamed
  const same: Array<string> = []
  // Names as the elements have them now: the page may have re-labelled them since the last walk (by itself, or by a script).
  for (const [other, info] of registry.info) {
    if (other === ref || info.role !== told.role) continue
    const candidate = registry.byRef.get(other)
    if (candidate === undefined || !isLive(candidate) || aria.nameOf(candidate, told.role) !== told.name) continue
    same.push(other)
    if (same.length > 1) return renamed
  }
  if (same.length !== 1) return renamed
  registry.views.get(viewer)!.named.set(same[0]!, told)
  return { ...renamed, instead: same[0]! }
}

const nameKey = (told: { readonly role: string; readonly name: string }) => `${told.role}\u0001${told.name}`

/**
 * Marks `apart` the nodes an answer must show on lines of their own, with their refs, because what the
 * client (`view`) was told of them no longer holds: a ref whose element now has another role or name
 * than the client was last shown (a month grid that re-labels its cells in place), and every element
 * that now has a role and name the client was told for such a ref (where the name went), so that a
 * client looking that name up in the answer finds every element that has it now, in document order.
 * Never inside a collapsed run or on a row's line (collapse.ts, snapshot-text.ts). Answers whether any is.
 */
export const markRetold = (view: View, top: TreeNode): boolean => {
  if (view.named.size === 0) return false
  const nodes: Array<TreeNode> = []
  const moved = new Set<string>()
  const visit = (node: TreeNode) => {
    for (const child of node.children) {
      const raw = child.raw
      if (raw !== null) {
        nodes.push(child)
        const told = view.named.get(raw.ref)
        if (told !== undefined && (told.role !== raw.role || told.name !== raw.name)) {
          raw.apart = true
          moved.add(nameKey(told))
        }
      }
      visit(child)
    }
  }
  visit(top)
  if (moved.size === 0) return false
  for (const node of nodes) if (node.raw!.name !== "" && moved.has(nameKey(node.raw!))) node.raw!.apart = true
  return true
}
