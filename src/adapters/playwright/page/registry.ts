// The page's ref registry (refs to elements, what each client was told of each) and its ledger (each
// bound ref's durable identity), kept in our isolated world under one symbol; the ref engine, checkRef,
// actions and describeTarget read it there. See `Ledger` and `Carry` in types.ts.
import type { Carry, Ledger, ObserveArgs } from "./types.js"
import { isLiveElement as isLive } from "./visibility.js"

export interface Registry {
  byRef: Map<string, Element>
  byEl: WeakMap<Element, string>
  info: Map<string, { role: string; name: string }>
  /** Per client (by viewer id, the least recently observing first): what it was told and saw (see `View`). */
  views: Map<string, View>
  /**
   * When the DOM last changed, when a person's input last arrived, and the URL at the last full observation,
   * for settling (see settlePage); `from`: when the watch began (quiet before it is unknown, see pageQuietMs);
   * `styled`: when an inline style last changed, which settling ignores (a script's animation changes it each frame).
   */
  watch?: { last: number; href: string; input?: number; from?: number; styled?: number }
  /** This document's id and its ledger: each bound ref's durable identity (see `Ledger`). */
  doc: string
  seq: number
  durable: Map<string, string>
  /** Whether a walk of the tree ran in this document (the first one may take a carry). */
  opened: boolean
  /**
   * The number past every ref this document ever handed out. The server's count may lag behind it (a walk
   * whose answer it never got: a timeout under load, then a retry): a new ref never reuses one (see `newRef`).
   */
  nextRef?: number
  /** Refs carried over from an earlier document, by durable identity, until the first whole walk ends. */
  carry?: Map<string, string> | undefined
  /** Open shadow roots the walks went into (at most SHADOW_ROOTS_KEPT), for what the page affords (state.ts). */
  shadowRoots?: Array<ShadowRoot>
}

/**
 * A ref never handed out in this document: past both the server's count and the document's own, and not
 * bound (a carried ref may be). Reusing one would make a ref the client holds name another element.
 * Undefined past the walk's block (`refEnd`): the server's other sessions may hold those numbers.
 */
export const newRef = (registry: Registry, walk: { nextRef: number; readonly refEnd: number }): string | undefined => {
  let next = Math.max(walk.nextRef, registry.nextRef ?? 0)
  while (registry.byRef.has(`e${next}`)) next++
  if (next >= walk.refEnd) return undefined
  walk.nextRef = next + 1
  registry.nextRef = walk.nextRef
  return `e${next}`
}

/** Shadow roots a document's registry keeps for the affordance checks: a bound on their cost per action. */
export const SHADOW_ROOTS_KEPT = 100

/** Notes an open shadow root a walk went into; past the bound, roots that left the page make room, else it is not kept. */
export const noteShadowRoot = (registry: Registry, root: ShadowRoot): void => {
  const roots = (registry.shadowRoots ??= [])
  if (roots.includes(root)) return
  if (roots.length >= SHADOW_ROOTS_KEPT) {
    const kept = roots.filter((known) => known.host.isConnected)
    roots.length = 0
    roots.push(...kept)
    if (roots.length >= SHADOW_ROOTS_KEPT) return
  }
  roots.push(root)
}

/** The open shadow roots walks went into that are still in the page (none before the first walk). */
export const knownShadowRoots = (): ReadonlyArray<ShadowRoot> => {
  const registry = (window as any)[Symbol.for("browser-workflow-mcp")] as Registry | undefined
  return (registry?.shadowRoots ?? []).filter((root) => root.host.isConnected)
}

/** This document's registry, made on first use (hidden from enumeration of the window). */
export const registryOf = (): Registry => {
  const KEY = Symbol.for("browser-workflow-mcp")
  const w = window as any
  const registry: Registry =
    w[KEY] ??
    (w[KEY] = {
      byRef: new Map(),
      byEl: new WeakMap(),
      info: new Map(),
      views: new Map(),
      doc: `${Date.now().toString(36)}.${Math.random().toString(36).slice(2)}`,
      seq: 0,
      durable: new Map(),
      opened: false
    })
  Object.defineProperty(w, KEY, { enumerable: false })
  // A registry an earlier version of this code made in this document keeps no records per client.
  registry.views ??= new Map()
  for (const view of registry.views.values()) {
    view.orders ??= new Map()
    view.named ??= new Map()
  }
  return registry
}

/**
 * One client's record in this document (see `ObserveArgs.viewer`): what it was last told of each ref (a
 * signature of the node) or saw of it in a search, which a changes-only walk compares with; nodes a
 * changes-only walk saw past its output limit (left out of that observation, which said truncated, so
 * not news in the next one unless they change); the test ids it was told or saw.
 */
export interface View {
  readonly viewer: string
  readonly reported: Map<string, string>
  readonly passed: Map<string, string>
  readonly reportedTestIds: WeakMap<Element, string>
  /** The order of each node's children as the client last saw it (their refs), so that a reorder is news. */
  orders: Map<string, ReadonlyArray<string>>
  /**
   * Keys of `reported` a search saw but never showed the client: not news when they change, and not
   * told gone when they leave (the client never had their refs). Showing one takes it out.
   */
  readonly unshown: Set<string>
  /** The role and name the client was last shown each ref with (see told-names.ts): a ref acts only on that element. */
  named: Map<string, { readonly role: string; readonly name: string }>
}

/** Clients whose records a document keeps; past them the least recent one's goes (it is answered in full again). */
export const VIEWS_KEPT = 8

/** What changed in the ledger during one walk (keys of the views' `reported` as `toldKey` writes them, refs of `durable`). */
export interface LedgerChanges {
  readonly told: Set<string>
  readonly refs: Set<string>
}

/** A key of the ledger's `told`: the default client's keys as they are, another's prefixed with its id. */
const toldKey = (viewer: string, key: string) => (viewer === "" ? key : `${viewer}\u0001${key}`)
const fromToldKey = (told: string): readonly [string, string] => {
  const at = told.indexOf("\u0001")
  return at < 0 ? ["", told] : [told.slice(0, at), told.slice(at + 1)]
}

/** A client's record before it was told anything. */
const emptyView = (viewer: string): View => ({ viewer, reported: new Map(), passed: new Map(), reportedTestIds: new WeakMap(), orders: new Map(), unshown: new Set(), named: new Map() })

const viewOf = (registry: Registry, viewer: string): View => {
  let view = registry.views.get(viewer)
  if (view === undefined) {
    view = emptyView(viewer)
    registry.views.set(viewer, view)
  }
  return view
}

/**
 * The record of the client this walk observes for. A walk that looks (the tree, the test ids) makes it
 * the most recent; past VIEWS_KEPT clients the least recent one's record goes (its keys leave the
 * ledger). Any other read leaves the records as they are.
 */
export const viewFor = (registry: Registry, args: ObserveArgs, changes: LedgerChanges): View => {
  const viewer = args.viewer ?? ""
  if (!(args.wantA11y || args.wantTestIds || args.find !== undefined)) {
    return registry.views.get(viewer) ?? emptyView(viewer)
  }
  const view = viewOf(registry, viewer)
  registry.views.delete(viewer)
  registry.views.set(viewer, view)
  for (const [oldest, record] of registry.views) {
    if (registry.views.size <= VIEWS_KEPT) break
    registry.views.delete(oldest)
    for (const key of record.reported.keys()) changes.told.add(toldKey(oldest, key))
  }
  return view
}

export const tell = (view: View, changes: LedgerChanges, key: string, signature: string): void => {
  view.unshown.delete(key)
  if (view.reported.get(key) === signature) return
  view.reported.set(key, signature)
  changes.told.add(toldKey(view.viewer, key))
}

export const untell = (view: View, changes: LedgerChanges, key: string): void => {
  view.unshown.delete(key)
  if (view.reported.delete(key)) changes.told.add(toldKey(view.viewer, key))
}

/**
 * The first walk of the tree in this document: an earlier document at this URL (`here`) may hand its
 * refs over. Answers true when the walk must wait for the server's `carry` instead (`carryWanted`).
 */
export const openDocument = (registry: Registry, args: ObserveArgs, here: string): boolean => {
  const carry: Carry | undefined = args.carry
  if (carry !== undefined && carry.url === here) {
    const byDurable = new Map<string, string>()
    const ambiguous = new Set<string>()
    for (const [ref, durable] of carry.refs) {
      if (byDurable.has(durable)) ambiguous.add(durable)
      byDurable.set(durable, ref)
    }
    // Two refs with one identity: neither is carried (fail closed).
    for (const durable of ambiguous) byDurable.delete(durable)
    registry.carry = byDurable
    for (const [told, signature] of carry.told) {
      const [viewer, key] = fromToldKey(told)
      viewOf(registry, viewer).reported.set(key, signature)
    }
  } else if (carry === undefined && args.carryFrom !== undefined && args.carryFrom.includes(here)) {
    return true
  }
  registry.opened = true
  return false
}

/** Input types whose `change` commits typed text (on blur or Enter), not a choice (a checkbox, a date, a file). */
const TEXT_TYPES = new Set(["text", "search", "email", "tel", "url", "password", "number"])

/** Whether a `change` event's target is a field text is typed into (a text input, a text area). */
const isTextEntry = (target: EventTarget | null): boolean =>
  target instanceof HTMLTextAreaElement || (target instanceof HTMLInputElement && TEXT_TYPES.has(target.type))

/**
 * Before a walk of the tree: starts watching DOM changes for settlePage (once per document), notes the
 * URL, and drops refs whose elements left the page, so stale refs are recognised and memory stays bounded.
 */
export const watchAndPrune = (registry: Registry, changes: LedgerChanges): void => {
  if (registry.watch === undefined) {
    const watch: NonNullable<Registry["watch"]> = { last: -Infinity, href: location.href, from: performance.now() }
    registry.watch = watch
    // The end of a click or a key: what the page does in the next moments is the action's doing (an error it logs 50 ms later).
    // A character typed into a field is not such an end: text entry would pay the wait once per call for
    // nothing on a plain form (bench/flow), and what a field does with its text is judged by the typing's
    // own reaction watch. Enter, Escape, arrows and the like still count. Nor is the `change` a text field
    // fires when it loses the focus with new text: typing into the next field moved the focus (the next
    // type paid 100 ms for it), a click or a key that moved it counts by itself, and Enter's keyup too.
    const input = (event: Event) => {
      if (!event.isTrusted) return
      if (event.type === "keyup" && (event as KeyboardEvent).key.length === 1) return
      if (event.type === "change" && isTextEntry(event.target)) return
      watch.input = performance.now()
    }
    for (const type of ["pointerup", "click", "keyup", "change"]) document.addEventListener(type, input, { capture: true, passive: true })
    new MutationObserver((records) => {
      for (const record of records) {
        if (record.type !== "attributes" || record.attributeName !== "style") {
          watch.last = performance.now()
          return
        }
      }
      watch.styled = performance.now()
    }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true })
  }
  registry.watch.href = location.href
  for (const [ref, element] of registry.byRef) {
    if (!isLive(element)) {
      registry.byRef.delete(ref)
      registry.info.delete(ref)
      for (const view of registry.views.values()) {
        view.passed.delete(ref)
        view.named.delete(ref)
      }
      if (registry.durable.delete(ref)) changes.refs.add(ref)
    }
  }
}

/** The ledger's changes since the server's copy, or all of it when the server's copy is not this one's; undefined when none. */
export const ledgerAnswer = (registry: Registry, args: ObserveArgs, here: string, changes: LedgerChanges): Ledger | undefined => {
  const full = args.ledgerOf === undefined || args.ledgerOf.doc !== registry.doc || args.ledgerOf.seq !== registry.seq
  if (!full && changes.told.size === 0 && changes.refs.size === 0) return undefined
  registry.seq++
  return full
    ? {
        doc: registry.doc,
        url: here,
        seq: registry.seq,
        full: true,
        refs: [...registry.durable],
        told: Array.from(registry.views.values()).flatMap((view) => Array.from(view.reported, ([key, signature]): [string, string] => [toldKey(view.viewer, key), signature]))
      }
    : {
        doc: registry.doc,
        url: here,
        seq: registry.seq,
        refs: Array.from(changes.refs, (ref) => [ref, registry.durable.get(ref) ?? null]),
        told: Array.from(changes.told, (told) => {
          const [viewer, key] = fromToldKey(told)
          return [told, registry.views.get(viewer)?.reported.get(key) ?? null]
        })
      }
}
