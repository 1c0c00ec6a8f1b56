// Megabyte identifiers through everything that reads step text: words, pages, the index and its queries,
// prior knowledge, recipes, exports and the report. Each must answer (a quadratic pass over a megabyte takes
// many minutes, so the test's timeout is the check) with results that are right and bounded in size.
import { describe, expect, it } from "@effect/vitest"
import { labelsFor, type StepRecord } from "../../src/domain/knowledge.js"
import type { Observation } from "../../src/domain/observation.js"
import { Catalog, scanSearch } from "../../src/knowledge/catalog.js"
import { describeStepTarget, entryOf, factsOf, scoreEntry, sessionWords } from "../../src/knowledge/entry.js"
import { RefHints } from "../../src/knowledge/hints.js"
import { factsOfObservation, PageTracker, pathOf, placeOf } from "../../src/knowledge/page.js"
import { priorKnowledge } from "../../src/knowledge/prior.js"
import { recipeOf, toBatch, toPlaywright } from "../../src/knowledge/recipe.js"
import { escapeHtml, renderReport } from "../../src/knowledge/report.js"
import { durableTarget } from "../../src/knowledge/targets.js"
import { clipText, identifierWords, INDEXED_CHARS, indexedText, queryGroups, tokenize, tokenizeIdentifier, wordMatches } from "../../src/knowledge/text.js"
import { makeRegistry } from "../../src/runtime/registry.js"
import { builtinTools } from "../../src/tools/registry.js"
import { hoursAgo, NOW, session, step, stepKindsOf, priorActions } from "./fixtures.js"

const tools = makeRegistry(builtinTools, "mm")

const MB = 1_000_000
const upper = "A".repeat(MB)
const camel = "aB".repeat(MB / 2)
const digits = "9".repeat(MB)
const acronyms = "XMLHttp".repeat(MB / 7)
const separators = "-_ ".repeat(MB / 3)
const accents = "Éé".repeat(MB / 2)
const fragmentUrl = `http://127.0.0.1:9/app#${upper}`
const pathUrl = `http://127.0.0.1:9/${camel}?q=${digits}#/${acronyms}`
const INPUTS = { upper, camel, digits, acronyms, separators, accents, fragmentUrl, pathUrl }

/** A step whose every text field holds a megabyte. */
const hugeStep = (sessionId: string, ok: boolean, at: string): StepRecord => {
  const record = step({
    sessionId,
    tool: "click",
    target: { testId: upper, selector: acronyms, within: `testId:${camel}`, a11yRef: "e1", a11yHint: { role: "button", name: acronyms } },
    ok,
    at,
    screen: upper,
    url: fragmentUrl,
    testIds: [upper, camel, digits],
    names: [acronyms, accents, upper]
  })
  return { ...record, labels: labelsFor(stepKindsOf("click"), record.tool.target, ok) }
}

describe("a megabyte through the words", () => {
  it("tokenizers and word helpers answer with the right words", () => {
    expect(tokenizeIdentifier(upper)).toEqual([upper.toLowerCase()])
    const camelWords = tokenizeIdentifier(camel)
    expect(camelWords).toHaveLength(MB / 2 - 1)
    expect(new Set(camelWords)).toEqual(new Set(["ba"]))
    expect(tokenizeIdentifier(digits)).toEqual([digits])
    const acronymWords = tokenizeIdentifier(acronyms)
    expect(acronymWords.slice(0, 3)).toEqual(["xml", "http", "xml"])
    expect(acronymWords).toHaveLength(Math.floor(MB / 7) * 2)
    expect(tokenizeIdentifier(separators)).toEqual([])
    expect(tokenizeIdentifier(accents)).toEqual([])
    expect(tokenizeIdentifier(fragmentUrl)).toEqual(["http", "127", "app", upper.toLowerCase()])
    expect(tokenize(upper)).toEqual([upper.toLowerCase()])
    expect(identifierWords([upper, camel, digits])).toEqual([upper.toLowerCase(), "ba", digits])
    expect(queryGroups(acronyms)).toEqual([["xml"], ["http"]])
    expect(wordMatches(upper, "AAB")).toBe(false)
    expect(wordMatches(upper.toLowerCase(), "aaa")).toBe(true)
    expect(indexedText(upper)).toHaveLength(INDEXED_CHARS)
    expect(clipText(upper)).toHaveLength(301)
  })

  it("pages, places and facts keep a bounded part of each value", () => {
    for (const [name, url] of Object.entries(INPUTS)) expect(placeOf(url)?.length ?? 0, name).toBeLessThanOrEqual(INDEXED_CHARS)
    expect(pathOf(fragmentUrl)).toBe(`/app#${"A".repeat(INDEXED_CHARS - 5)}`)
    const observation: Observation = hugeStep("s", true, hoursAgo(1)).observation!
    const facts = factsOfObservation(observation)
    expect([facts.screen, facts.place, ...facts.testIds, ...facts.names].every((value) => (value?.length ?? 0) <= INDEXED_CHARS)).toBe(true)
    const tracker = new PageTracker()
    tracker.apply("s", observation)
    tracker.apply("s", { ...observation, a11y: { nodes: [{ ref: "e9", role: "link", name: camel }], changesOnly: true, unchanged: 3, removed: ["e1"] } })
    expect(tracker.before("s")?.names).toHaveLength(3)
    const record = hugeStep("s", true, hoursAgo(1))
    const stepFacts = factsOf(record)
    for (const values of Object.values(stepFacts.values)) for (const value of values) expect(value?.length ?? 0).toBeLessThanOrEqual(INDEXED_CHARS)
    expect(stepFacts.url).toHaveLength(301)
    const entry = entryOf(record)
    expect(scoreEntry(entry, sessionWords(session("s", { goal: upper, tags: [camel] })), queryGroups("click xml")).score).toBeGreaterThan(0)
    expect(describeStepTarget(record.tool.target)!.length).toBeLessThan(1_000)
    expect(labelsFor(stepKindsOf("click"), { testId: `${upper}confirm` }, true)).toContain("confirmation")
  })
})

describe("a megabyte through the index, prior knowledge, recipes and the report", () => {
  it("answers queries with bounded results", () => {
    const steps = [hugeStep("huge", false, hoursAgo(3)), hugeStep("huge", false, hoursAgo(2)), hugeStep("huge", true, hoursAgo(1))]
    const catalog = new Catalog()
    catalog.addSession(session("huge", { goal: `${upper} ${camel}`, flowTags: [acronyms], tags: [digits] }))
    for (const record of steps) catalog.addStep(new RefHints().enrich(record))
    const input = { groups: queryGroups("aaa xml"), limit: 10, sessions: "all" as const, filters: { screen: upper }, now: NOW }
    const found = catalog.search(input)
    expect(found).toHaveLength(0)
    const all = catalog.search({ ...input, filters: undefined })
    expect(all).toHaveLength(3)
    expect(all).toEqual(scanSearch([session("huge", { goal: `${upper} ${camel}`, flowTags: [acronyms], tags: [digits] })], steps, { ...input, filters: undefined }))
    expect(JSON.stringify(all).length).toBeLessThan(10_000)
    expect(catalog.last(5, "all", undefined, NOW)).toHaveLength(3)
    const [listed] = catalog.sessions(5, undefined, NOW)
    expect(listed?.stepCount).toBe(3)
    expect(JSON.stringify(listed).length).toBeLessThan(1_000)
    const restored = Catalog.fromParts(catalog.toParts())!
    expect(restored.search({ ...input, filters: undefined })).toEqual(all)

    const prior = priorKnowledge(catalog, { currentSessionId: undefined, observation: steps[0]!.observation!, now: NOW }, priorActions)
    // A megabyte selector is never suggested for replay, nor listed as a step to redo, and nothing in the answer is large.
    expect(prior.suggestedNextActions).toBeUndefined()
    expect(prior.similarSteps).toBeUndefined()
    expect(prior.relatedSessions?.map((related) => related.sessionId)).toEqual(["huge"])
    expect(JSON.stringify(prior).length).toBeLessThan(10_000)
  })

  it("recipes, exports and the report handle the megabyte without reconstructing anything", () => {
    const records = [hugeStep("huge", true, hoursAgo(2)), { ...hugeStep("huge", true, hoursAgo(1)), tool: { name: "type", input: { text: "[REDACTED]" }, target: { testId: upper }, textRedacted: true, textLength: MB } }]
    const recipe = recipeOf(records, tools)
    // A megabyte URL is no page to check the flow's end against: the recipe has no end step.
    expect(recipe.steps).toHaveLength(2)
    expect(durableTarget(records[0]!.tool.target)?.args).toMatchObject({ testId: upper })
    expect(toBatch(recipe).steps).toHaveLength(2)
    expect(toPlaywright(recipe, records, undefined, "huge", tools)).toContain("getByTestId")
    const html = renderReport({ sessionId: "huge", metadata: session("huge", { goal: upper }), steps: records, recipe, images: new Map(), generatedAt: hoursAgo(0) })
    expect(html).toContain("‹secret›")
    expect(html).not.toContain("1000000")
    expect(html.length).toBeLessThan(100_000)
    expect(escapeHtml(`<${upper}>`)).toBe(`&lt;${"A".repeat(1_999)}…`)
  })
})
