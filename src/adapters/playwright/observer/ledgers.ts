// The server's copy of each tab's document ledgers (see `Ledger` in page-script.ts): which refs the
// agent holds with their durable identities, and what it was told of each node. A new document at the
// URL of one of them (a reload, a navigation to the same URL, back, forward) gets it as its `carry`, so
// its elements keep their refs and a changes-only observation reports only what changed.
import type { Carry, Ledger, ObserveArgs } from "../page-script.js"

/** One document's ledger as the server last heard it. */
export interface DocLedger {
  readonly doc: string
  readonly url: string
  readonly seq: number
  readonly refs: Map<string, string>
  readonly told: Map<string, string>
}

/** A tab's ledgers: its current document's and the last few earlier documents' (one per URL). */
export interface TabLedgers {
  current?: DocLedger
  earlier: Array<DocLedger>
}

/** Earlier documents kept per tab: enough for a reload and a step back and forth. */
export const EARLIER_KEPT = 3

export const emptyLedgers = (): TabLedgers => ({ earlier: [] })

/** What the walk of the tree is told of the tab's ledgers: the current copy, and the URLs it can carry from. */
export const ledgerArgs = (tab: TabLedgers): Pick<ObserveArgs, "ledgerOf" | "carryFrom"> => {
  const urls = [...(tab.current !== undefined ? [tab.current.url] : []), ...tab.earlier.map((ledger) => ledger.url)]
  return {
    ...(tab.current !== undefined ? { ledgerOf: { doc: tab.current.doc, seq: tab.current.seq } } : {}),
    ...(urls.length > 0 ? { carryFrom: urls } : {})
  }
}

/** The carry for a new document at `url`: the most recent ledger of that URL, if any. */
export const carryFor = (tab: TabLedgers, url: string): Carry | undefined => {
  const source = tab.current?.url === url ? tab.current : tab.earlier.find((ledger) => ledger.url === url)
  return source === undefined ? undefined : { url, refs: [...source.refs], told: [...source.told] }
}

const applyEntries = (map: Map<string, string>, entries: ReadonlyArray<readonly [string, string | null]>) => {
  for (const [key, value] of entries) {
    if (value === null) map.delete(key)
    else map.set(key, value)
  }
}

/**
 * Takes a walk's ledger into the tab's copy. A whole ledger of another document makes that document the
 * current one (the previous current one becomes an earlier one, replacing an earlier one of its URL).
 * Changes apply only on top of the copy they follow; otherwise the copy is dropped (the page answers the
 * whole ledger next time, since the copy it is told of is not its own).
 */
export const applyLedger = (tab: TabLedgers, ledger: Ledger): void => {
  const current = tab.current
  if (ledger.full === true) {
    const next: DocLedger = { doc: ledger.doc, url: ledger.url, seq: ledger.seq, refs: new Map(), told: new Map() }
    applyEntries(next.refs, ledger.refs)
    applyEntries(next.told, ledger.told)
    if (current !== undefined && current.doc !== ledger.doc) {
      tab.earlier = [current, ...tab.earlier.filter((earlier) => earlier.url !== current.url)].slice(0, EARLIER_KEPT)
    }
    tab.earlier = tab.earlier.filter((earlier) => earlier.url !== next.url && earlier.doc !== next.doc)
    tab.current = next
    return
  }
  if (current === undefined || current.doc !== ledger.doc || current.seq !== ledger.seq - 1) {
    delete tab.current
    return
  }
  applyEntries(current.refs, ledger.refs)
  applyEntries(current.told, ledger.told)
  tab.current = { ...current, seq: ledger.seq }
}
