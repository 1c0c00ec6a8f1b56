// The page's ref registry (refs to elements, what the agent was told of each) and its ledger (each
// bound ref's durable identity), kept in our isolated world under one symbol; the ref engine, checkRef,
// actions and describeTarget read it there. See `Ledger` and `Carry` in types.ts.
import type { Carry, Ledger, ObserveArgs } from "./types.js"
import { isLiveElement as isLive } from "./visibility.js"

export interface Registry {
  byRef: Map<string, Element>
  byEl: WeakMap<Element, string>
  info: Map<string, { role: string; name: string }>
  /** What the agent was last told about each ref (a signature of the node), for changes-only observations. */
  reported: Map<string, string>
  /**
   * Nodes a changes-only walk saw past its output limit: left out of that observation (it said
   * truncated), so they are not news in the next one unless they change.
   */
  passed: Map<string, string>
  reportedTestIds: WeakMap<Element, string>
  /** When the DOM last changed and the URL at the last full observation, for settling (see settlePage). */
  watch?: { last: number; href: string }
  /** This document's id and its ledger: each bound ref's durable identity (see `Ledger`). */
  doc: string
  seq: number
  durable: Map<string, string>
  /** Whether a walk of the tree ran in this document (the first one may take a carry). */
  opened: boolean
  /** Refs carried over from an earlier document, by durable identity, until the first whole walk ends. */
  carry?: Map<string, string> | undefined
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
      reported: new Map(),
      passed: new Map(),
      reportedTestIds: new WeakMap(),
      doc: `${Date.now().toString(36)}.${Math.random().toString(36).slice(2)}`,
      seq: 0,
      durable: new Map(),
      opened: false
    })
  Object.defineProperty(w, KEY, { enumerable: false })
  return registry
}

/** What changed in the ledger during one walk (keys of `reported`, refs of `durable`). */
export interface LedgerChanges {
  readonly told: Set<string>
  readonly refs: Set<string>
}

export const tell = (registry: Registry, changes: LedgerChanges, key: string, signature: string): void => {
  if (registry.reported.get(key) === signature) return
  registry.reported.set(key, signature)
  changes.told.add(key)
}

export const untell = (registry: Registry, changes: LedgerChanges, key: string): void => {
  if (registry.reported.delete(key)) changes.told.add(key)
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
    for (const [key, signature] of carry.told) registry.reported.set(key, signature)
  } else if (carry === undefined && args.carryFrom !== undefined && args.carryFrom.includes(here)) {
    return true
  }
  registry.opened = true
  return false
}

/**
 * Before a walk of the tree: starts watching DOM changes for settlePage (once per document), notes the
 * URL, and drops refs whose elements left the page, so stale refs are recognised and memory stays bounded.
 */
export const watchAndPrune = (registry: Registry, changes: LedgerChanges): void => {
  if (registry.watch === undefined) {
    const watch = { last: -Infinity, href: location.href }
    registry.watch = watch
    new MutationObserver((records) => {
      for (const record of records) {
        if (record.type !== "attributes" || record.attributeName !== "style") {
          watch.last = performance.now()
          return
        }
      }
    }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true })
  }
  registry.watch.href = location.href
  for (const [ref, element] of registry.byRef) {
    if (!isLive(element)) {
      registry.byRef.delete(ref)
      registry.info.delete(ref)
      registry.passed.delete(ref)
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
    ? { doc: registry.doc, url: here, seq: registry.seq, full: true, refs: [...registry.durable], told: [...registry.reported] }
    : {
        doc: registry.doc,
        url: here,
        seq: registry.seq,
        refs: Array.from(changes.refs, (ref) => [ref, registry.durable.get(ref) ?? null]),
        told: Array.from(changes.told, (key) => [key, registry.reported.get(key) ?? null])
      }
}
