// The elements a target names when it names several (MM_TARGET_AMBIGUOUS), each with a ref, its role and a
// short name, so that an agent can retry with one ref in one call. The matches are found by Playwright's own
// selector engine: the ref engine notes each element a `bwmref=mark:<token>` step is asked about
// (noteMatch), and listCandidates binds refs to the first few in the registry, as a walk would.
import { newRef, registryOf } from "./registry.js"
import { normalize } from "./text.js"
import type { AriaTests, Candidate, Candidates, CandidatesArgs } from "./types.js"

/** The body prefix of a ref-engine step that notes its scope instead of resolving a ref (session/candidates.ts writes it). */
export const MARK_PREFIX = "mark:"
/** Elements noted per token: the listing shows fewer, the count counts all. */
const NOTED = 20

interface Marks {
  readonly elements: Array<Element>
  count: number
}

const MARKS = Symbol.for("browser-workflow-mcp/marks")

/** The outermost window of this world this document can reach (same origin): the top document's, where the registry is read. */
const outermost = (): Window => {
  let view: Window = window
  for (;;) {
    if (view === view.parent) return view
    try {
      void (view.parent as any)[MARKS]
    } catch {
      return view
    }
    view = view.parent
  }
}

/** The token the direct path notes an ambiguous target's matches under (page/actions.ts), for the Node side to list. */
export const DIRECT_TOKEN = "direct"

const storeOf = (): Map<string, Marks> => {
  const view = outermost() as any
  return (view[MARKS] ??= new Map())
}

/** Notes the matches the direct path found for an ambiguous target, in place of any noted before under `token`. */
export const noteMatches = (token: string, elements: ReadonlyArray<Element>): void => {
  storeOf().set(token, { elements: elements.slice(0, NOTED), count: elements.length })
}

/** Notes `element` as a match of the marking step `token` (called by the ref engine, in Playwright's utility world). */
export const noteMatch = (token: string, element: Element): void => {
  const store = storeOf()
  // A token is asked once; a marking that was never listed (a count cut short) does not pile up.
  if (!store.has(token) && store.size >= 8) store.delete(store.keys().next().value!)
  let marks = store.get(token)
  if (marks === undefined) store.set(token, (marks = { elements: [], count: 0 }))
  if (marks.elements.includes(element)) return
  marks.count++
  if (marks.elements.length < NOTED) marks.elements.push(element)
}

/** Form fields whose text content may be what a person typed: never shown in place of a name. */
const FIELDS = new Set(["INPUT", "TEXTAREA", "SELECT", "OPTION"])

/** Runs in the page: the first `limit` elements the marking step noted, each bound to a ref (its own when it has one). */
export const listCandidates = (args: CandidatesArgs, aria: AriaTests | null): Candidates => {
  const registry = registryOf()
  const store: Map<string, Marks> | undefined = (window as any)[MARKS]
  const marks = store?.get(args.token)
  store?.delete(args.token)
  const walk = { nextRef: args.nextRef, refEnd: args.refEnd }
  /** The element's ref, bound now when it has none; undefined once the server's block is used up. */
  const refOf = (element: Element): string | undefined => {
    const known = registry.byEl.get(element)
    if (known !== undefined && registry.byRef.get(known) === element) return known
    const ref = newRef(registry, walk)
    if (ref === undefined) return undefined
    registry.byEl.set(element, ref)
    registry.byRef.set(ref, element)
    return ref
  }
  const candidates: Array<Candidate> = []
  for (const element of marks?.elements ?? []) {
    if (candidates.length >= args.limit) break
    if (!element.isConnected) continue
    // A ref in a same-origin frame is found through the refs of the frames around it (check-ref.ts).
    let reachable = true
    for (let doc = element.ownerDocument; doc !== document; ) {
      const frame = doc.defaultView?.frameElement ?? null
      if (frame === null) {
        reachable = false
        break
      }
      if (refOf(frame) === undefined) reachable = false
      doc = frame.ownerDocument
    }
    if (!reachable) continue
    const ref = refOf(element)
    // The block is used up: the matches listed so far are all there is room for.
    if (ref === undefined) break
    const role = aria?.roleOf(element) ?? "generic"
    let name = aria === null ? "" : aria.nameOf(element, role)
    // Nameless (a generic block, a cell): its words tell the matches apart.
    if (name.trim() === "" && !FIELDS.has(element.nodeName) && !(element as HTMLElement).isContentEditable) name = element.textContent ?? ""
    name = normalize(name, args.nameChars)
    if (!registry.info.has(ref)) registry.info.set(ref, { role, name })
    // Listed with a name of its own making (its words, shortened): the ref acts as it always did (see told-names.ts).
    for (const view of registry.views.values()) view.named.delete(ref)
    const shown = typeof element.checkVisibility !== "function" || element.checkVisibility({ visibilityProperty: true, opacityProperty: false } as CheckVisibilityOptions)
    candidates.push(shown ? { ref, role, name } : { ref, role, name, hidden: true })
  }
  return { candidates, count: marks?.count ?? 0, nextRef: walk.nextRef }
}
