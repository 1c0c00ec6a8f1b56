// Whether a ref still names an element, and the refs worth suggesting when it does not.
import type { Registry } from "./registry.js"
import { renamedRef, tellName } from "./told-names.js"
import type { RefCheck } from "./types.js"
import { isLiveElement as isLive } from "./visibility.js"

/**
 * Whether a ref is still bound to an element in this page, plus the refs that are. With the acting
 * client (`viewer`): whether the element still has the role and name that client was told (see
 * told-names.ts); the refs suggested are then told to it with their names.
 */
export const checkRef = (ref: string, viewer?: string): RefCheck => {
  const registry: Registry | undefined = (window as any)[Symbol.for("browser-workflow-mcp")]
  const current: Array<{ ref: string; role: string; name: string }> = []
  if (!registry) return { exists: false, current, frames: [] }
  let exists = false
  const STRUCTURE = new Set([
    "iframe", "generic", "paragraph", "list", "listitem", "table", "row", "cell", "columnheader", "rowheader", "code",
    "group", "figure", "blockquote", "article", "main", "banner", "contentinfo", "complementary", "navigation", "region",
    "form", "search", "note", "status", "log", "term", "definition", "img"
  ])
  for (const [key, element] of registry.byRef as Map<string, Element>) {
    if (!isLive(element)) continue
    if (key === ref) exists = true
    const info = registry.info.get(key)
    // The refs worth suggesting: elements one acts on, not the structure and text around them.
    if (current.length < 40 && info !== undefined && !STRUCTURE.has(info.role)) current.push({ ref: key, role: info.role, name: info.name })
  }
  const view = viewer === undefined ? undefined : registry.views.get(viewer)
  if (exists && viewer !== undefined) {
    const renamed = renamedRef(registry, ref, viewer, true)
    if (renamed !== undefined) return { exists, current: [], frames: [], renamed }
  } else if (view !== undefined) for (const { ref: suggested } of current) tellName(registry, view, suggested)
  // The refs of the iframes around the element, outermost first (empty in the top document).
  const frames: Array<string> = []
  let doc: Document | null = exists ? (registry.byRef.get(ref) as Element).ownerDocument : null
  while (doc !== null && doc !== document) {
    const frame: Element | null | undefined = doc.defaultView?.frameElement
    const frameRef = frame ? registry.byEl.get(frame) : undefined
    if (!frame || frameRef === undefined) return { exists: false, current, frames: [] }
    frames.unshift(frameRef)
    doc = frame.ownerDocument
  }
  return { exists, current, frames }
}
