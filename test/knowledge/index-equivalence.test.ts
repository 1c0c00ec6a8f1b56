// The typed-array index against the straightforward implementations it replaced: prior knowledge, the
// latest steps and search after incremental updates must answer exactly the same.
import { describe, expect, it } from "@effect/vitest"
import type { SessionMetadata, StepRecord } from "../../src/domain/knowledge.js"
import type { Observation } from "../../src/domain/observation.js"
import { Catalog, passesFilters, scanSearch, summarize } from "../../src/knowledge/catalog.js"
import { entryOf } from "../../src/knowledge/entry.js"
import { priorKnowledge } from "../../src/knowledge/prior.js"
import { queryGroups } from "../../src/knowledge/text.js"
import { hoursAgo, NOW, step, syntheticStore, priorActions } from "./fixtures.js"
import { ReferenceCatalog, referencePriorKnowledge } from "./prior-reference.js"

const observationOn = (screen: string, testIds: ReadonlyArray<string>, names: ReadonlyArray<string>): Observation => ({
  state: { isLoaded: true, currentUrl: `http://127.0.0.1:9999/home.html#/${screen}`, title: "t", currentScreen: screen },
  testIds: testIds.map((testId) => ({ testId, tag: "button", visible: true })),
  a11y: { nodes: names.map((name, index) => ({ ref: `e${index + 1}`, role: "button", name })) }
})

describe("prior knowledge from the index equals the first implementation", () => {
  it("for screens, observed test ids and names, the current session and the time window", () => {
    const { sessions, steps } = syntheticStore(2_000, 30)
    const catalog = new Catalog()
    for (const metadata of sessions) catalog.addSession(metadata)
    for (const record of steps) catalog.addStep(record)
    const reference = new ReferenceCatalog(sessions, steps)
    const observations = [
      observationOn("send", ["amount-input", "recipient-input", "next-button", "max-button"], ["send amount", "Next back", "max token", ""]),
      observationOn("confirm-transaction", ["confirm-button", "cancel-button"], ["confirm cancel"]),
      observationOn("unknown", ["password-input"], []),
      observationOn("login", [], ["unlock password", "account settings"]),
      observationOn("nowhere", ["no-such-id"], ["nothing here"])
    ]
    let compared = 0
    for (const observation of observations)
      for (const currentSessionId of [undefined, sessions[4]!.sessionId])
        for (const now of [NOW, NOW + 20 * 3_600_000]) {
          const input = { currentSessionId, observation, now }
          expect(priorKnowledge(catalog, input, priorActions), `${observation.state.currentScreen} ${currentSessionId} ${now}`).toEqual(
            referencePriorKnowledge(reference, input)
          )
          compared++
        }
    expect(compared).toBe(20)
    const send = priorKnowledge(catalog, { currentSessionId: undefined, observation: observations[0]!, now: NOW }, priorActions)
    // The comparison is not vacuous: every list has content on a screen the store knows well.
    expect(send.relatedSessions).toHaveLength(3)
    expect(send.similarSteps).toHaveLength(5)
    expect(send.suggestedNextActions?.length).toBeGreaterThan(0)
    expect(send.avoid?.length).toBeGreaterThan(0)
  })
})

describe("latest steps from the index equal a sort of every step", () => {
  it("for scopes and filters", () => {
    const { sessions, steps } = syntheticStore(1_500, 25)
    const catalog = new Catalog()
    for (const metadata of sessions) catalog.addSession(metadata)
    for (const record of steps) catalog.addStep(record)
    const metadata = new Map(sessions.map((session) => [session.sessionId, session]))
    const scopes = ["all" as const, new Set([sessions[9]!.sessionId, sessions[2]!.sessionId])]
    for (const scope of scopes)
      for (const filters of [undefined, { sinceHours: 10 }, { screen: "swap" }, { flowTag: "send" }])
        for (const n of [1, 20, 200]) {
          const order = scope === "all" ? sessions.map((session) => session.sessionId) : [...scope]
          const entries = order.flatMap((sessionId) =>
            steps
              .filter((record) => record.sessionId === sessionId)
              .map((record) => entryOf(record))
              .filter((entry) => passesFilters(entry, metadata.get(entry.sessionId), filters, NOW))
          )
          entries.sort((a, b) => a.time - b.time)
          const expected = entries.slice(Math.max(0, entries.length - n)).map((entry) => summarize(entry))
          expect(catalog.last(n, scope, filters, NOW), `${n} ${JSON.stringify(filters)}`).toEqual(expected)
        }
  })
})

describe("search stays equal to the full scan while steps and sessions keep coming", () => {
  it("new words, longer forms of known words and late session metadata are found after earlier queries", () => {
    const { sessions, steps } = syntheticStore(600, 12)
    const catalog = new Catalog()
    const added: Array<StepRecord> = []
    const queries = ["send", "confirmation", "confirm", "zebra", "zeb", "click zebra", "nightly", "ap", "walletconnect"]
    const compare = (label: string) => {
      for (const query of queries) {
        const input = { groups: queryGroups(query), limit: 30, sessions: "all" as const, filters: undefined, now: NOW }
        const known = sessions.filter((session) => catalog.hasMetadata(session.sessionId))
        expect(catalog.search(input), `${label}: ${query}`).toEqual(scanSearch(known, added, input))
      }
    }
    for (const metadata of sessions.slice(0, 6)) catalog.addSession(metadata)
    for (const record of steps.slice(0, 300)) {
      catalog.addStep(record)
      added.push(record)
    }
    compare("first half")
    const fresh = [
      step({ sessionId: sessions[1]!.sessionId, tool: "click", target: { testId: "zebraConfirmationButton" }, at: hoursAgo(0.2) }),
      step({ sessionId: sessions[8]!.sessionId, tool: "type", target: { selector: "#walletconnect-uri" }, screen: "zebras", at: hoursAgo(0.1) }),
      step({ sessionId: "late", tool: "click", target: { testId: "ap" }, names: ["Ap", "Zebra crossing"], at: hoursAgo(0.3) })
    ]
    for (const record of [...steps.slice(300), ...fresh]) {
      catalog.addStep(record)
      added.push(record)
    }
    compare("all steps, some sessions")
    for (const metadata of sessions.slice(6)) catalog.addSession(metadata)
    // Metadata replaced: the session's old words must stop matching.
    catalog.addSession({ ...sessions[0]!, goal: "zebra walletconnect", tags: ["fresh"] })
    sessions[0] = { ...sessions[0]!, goal: "zebra walletconnect", tags: ["fresh"] }
    compare("all sessions")
  })
})

describe("a catalog saved as parts and restored answers like the full scan", () => {
  it("with a session replaced before saving, and new steps, words and sessions after restoring", () => {
    const { sessions, steps } = syntheticStore(1_500, 20, 5)
    const catalog = new Catalog()
    for (const metadata of sessions) catalog.addSession(metadata)
    for (const record of steps) catalog.addStep(record)
    // A session read again from its files (one of them gone): its old steps are dead until the save compacts them.
    const replaced = sessions[3]!.sessionId
    const kept = steps.filter((record) => record.sessionId === replaced).slice(1)
    catalog.dropSession(replaced)
    for (const record of kept) catalog.addStep(record)
    const order = [...steps.filter((record) => record.sessionId !== replaced), ...kept]
    expect(catalog.size).toBe(order.length)

    const restored = Catalog.fromParts(catalog.toParts())!
    expect(restored.size).toBe(order.length)
    const compare = (label: string, current: Catalog, records: ReadonlyArray<StepRecord>, known: ReadonlyArray<SessionMetadata>) => {
      for (const query of ["send", "confirm", "zebra", "copy button", "ap", "nightly swap"]) {
        const input = { groups: queryGroups(query), limit: 30, sessions: "all" as const, filters: undefined, now: NOW }
        expect(current.search(input), `${label}: ${query}`).toEqual(scanSearch(known, records, input))
      }
      const reference = new ReferenceCatalog(known, records)
      for (const observation of [observationOn("send", ["amount-input", "copy-button"], ["send amount"]), observationOn("swap", [], ["token max"])]) {
        const input = { currentSessionId: sessions[0]!.sessionId, observation, now: NOW }
        expect(priorKnowledge(current, input, priorActions), label).toEqual(referencePriorKnowledge(reference, input))
      }
    }
    compare("restored", restored, order, sessions)

    // It keeps learning: the pages before new steps continue from the saved tracker.
    const fresh = [
      step({ sessionId: sessions[19]!.sessionId, tool: "click", target: { testId: "zebraConfirmButton" }, screen: "send", at: hoursAgo(0.2) }),
      step({ sessionId: "mm-new", tool: "type", target: { testId: "walletconnect-uri" }, screen: "zebras", at: hoursAgo(0.1) })
    ]
    const late = { ...sessions[0]!, sessionId: "mm-new", goal: "zebra crossing" }
    for (const record of fresh) restored.addStep(record)
    restored.addSession(late)
    compare("restored and grown", restored, [...order, ...fresh], [...sessions, late])
  })
})
