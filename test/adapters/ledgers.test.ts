// The server's copy of each tab's document ledgers: whole ledgers switch documents, changes apply only in
// sequence (otherwise the copy is dropped and nothing is carried from it), carries come from the most
// recent document at the URL, and only a few earlier documents are kept.
import { describe, expect, it } from "vitest"
import { applyLedger, carryFor, EARLIER_KEPT, emptyLedgers, ledgerArgs } from "../../src/adapters/playwright/observer/ledgers.js"

describe("tab ledgers", () => {
  it("follow a document's changes in sequence and hand its refs to the next document at its URL", () => {
    const tab = emptyLedgers()
    expect(ledgerArgs(tab)).toEqual({})
    applyLedger(tab, { doc: "d1", url: "http://127.0.0.1/a", seq: 1, full: true, refs: [["e1", "k1"], ["e2", "k2"]], told: [["e1", "s1"]] })
    applyLedger(tab, { doc: "d1", url: "http://127.0.0.1/a", seq: 2, refs: [["e2", null], ["e3", "k3"]], told: [["e3", "s3"]] })
    expect(ledgerArgs(tab)).toEqual({ ledgerOf: { doc: "d1", seq: 2 }, carryFrom: ["http://127.0.0.1/a"] })
    expect(carryFor(tab, "http://127.0.0.1/a")).toEqual({
      url: "http://127.0.0.1/a",
      refs: [["e1", "k1"], ["e3", "k3"]],
      told: [["e1", "s1"], ["e3", "s3"]]
    })
    expect(carryFor(tab, "http://127.0.0.1/b")).toBeUndefined()
    // A new document: the old one is kept as an earlier one of its URL.
    applyLedger(tab, { doc: "d2", url: "http://127.0.0.1/b", seq: 1, full: true, refs: [["e9", "k9"]], told: [] })
    expect(ledgerArgs(tab).carryFrom).toEqual(["http://127.0.0.1/b", "http://127.0.0.1/a"])
    expect(carryFor(tab, "http://127.0.0.1/a")?.refs).toEqual([["e1", "k1"], ["e3", "k3"]])
    // A new document at /a (back) replaces the earlier one of /a.
    applyLedger(tab, { doc: "d3", url: "http://127.0.0.1/a", seq: 1, full: true, refs: [["e1", "k1"]], told: [] })
    expect(ledgerArgs(tab).carryFrom).toEqual(["http://127.0.0.1/a", "http://127.0.0.1/b"])
    expect(carryFor(tab, "http://127.0.0.1/a")?.refs).toEqual([["e1", "k1"]])
  })

  it("drop the copy when a change does not follow it, so nothing is carried from a copy that may be wrong", () => {
    const tab = emptyLedgers()
    applyLedger(tab, { doc: "d1", url: "http://127.0.0.1/a", seq: 1, full: true, refs: [["e1", "k1"]], told: [] })
    applyLedger(tab, { doc: "d1", url: "http://127.0.0.1/a", seq: 3, refs: [["e2", "k2"]], told: [] })
    expect(tab.current).toBeUndefined()
    expect(carryFor(tab, "http://127.0.0.1/a")).toBeUndefined()
    expect(ledgerArgs(tab)).toEqual({})
  })

  it("keep a few earlier documents, one per URL", () => {
    const tab = emptyLedgers()
    for (let i = 0; i < EARLIER_KEPT + 3; i++) applyLedger(tab, { doc: `d${i}`, url: `http://127.0.0.1/${i}`, seq: 1, full: true, refs: [], told: [] })
    expect(tab.earlier).toHaveLength(EARLIER_KEPT)
    expect(ledgerArgs(tab).carryFrom).toEqual(["http://127.0.0.1/5", "http://127.0.0.1/4", "http://127.0.0.1/3", "http://127.0.0.1/2"])
  })
})
