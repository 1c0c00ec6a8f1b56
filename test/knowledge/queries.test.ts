// Words, scoring, filters and the upstream bugs, on the in-memory index.
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { toErrorInfo } from "../../src/domain/errors.js"
import { decodeInput } from "../../src/runtime/runTool.js"
import { type } from "../../src/tools/interaction.js"
import { labelsFor } from "../../src/domain/knowledge.js"
import { isSensitiveKey, looksSensitive, redactDeep, REDACTED } from "../../src/domain/redaction.js"
import { Catalog, scanSearch } from "../../src/knowledge/catalog.js"
import { entryOf, scoreEntry } from "../../src/knowledge/entry.js"
import { expandedWords, queryGroups, tokenize, tokenizeIdentifier } from "../../src/knowledge/text.js"
import { hoursAgo, NOW, session, step, stepKindsOf } from "./fixtures.js"

const catalogOf = (sessions: ReadonlyArray<ReturnType<typeof session>>, steps: ReadonlyArray<ReturnType<typeof step>>) => {
  const catalog = new Catalog()
  for (const metadata of sessions) catalog.addSession(metadata)
  for (const record of steps) catalog.addStep(record)
  return catalog
}

const search = (catalog: Catalog, query: string, extra: Partial<Parameters<Catalog["search"]>[0]> = {}) =>
  catalog.search({ groups: queryGroups(query), limit: 20, sessions: "all", filters: undefined, now: NOW, ...extra })

describe("words", () => {
  it("tokenize lower-cases, splits on non-alphanumerics and drops short words and stopwords", () => {
    expect(tokenize("Send the ETH to a Friend, flow-test; mm MCP x")).toEqual(["send", "eth", "friend"])
  })

  it("identifiers split camelCase and acronyms", () => {
    expect(tokenizeIdentifier("XMLHttpRequest")).toEqual(["xml", "http", "request"])
    expect(tokenizeIdentifier("confirmButton")).toEqual(["confirm", "button"])
    expect(tokenizeIdentifier("page-container-footer-next")).toEqual(["page", "container", "footer", "next"])
  })

  it("a synonym brings its canonical word and all siblings, once per query word", () => {
    expect(queryGroups("transfer")).toEqual([["transfer", "send", "pay"]])
    expect(expandedWords(queryGroups("login approve"))).toEqual(["login", "unlock", "signin", "approve", "confirm", "accept", "allow"])
    expect(queryGroups("sign signature")).toEqual([["sign", "signature"], ["signature", "sign"]])
  })
})

describe("labels and redaction patterns", () => {
  it("labels say the kind of step, confirmation targets and recovery", () => {
    expect(labelsFor(stepKindsOf("click"), { testId: "confirm-footer" }, true)).toEqual(["interaction", "confirmation"])
    expect(labelsFor(stepKindsOf("click"), { a11yRef: "e3", a11yHint: { role: "button", name: "Submit" } }, false)).toEqual([
      "interaction",
      "confirmation",
      "error-recovery"
    ])
    expect(labelsFor(stepKindsOf("describe_screen"), undefined, true)).toEqual(["discovery"])
    expect(labelsFor(stepKindsOf("navigate"), undefined, true)).toEqual(["navigation"])
  })

  it("sensitive keys are redacted at any depth, and sensitive hints are recognised", () => {
    for (const key of ["password", "seedPhrase", "srp", "mnemonic", "privateKey", "private_key", "clientSecret", "apiKey", "api-key", "clipboard"]) {
      expect(isSensitiveKey(key), key).toBe(true)
    }
    expect(isSensitiveKey("username")).toBe(false)
    expect(redactDeep({ a: { b: [{ password: "x", keep: 1 }] }, mnemonic: "y" })).toEqual({
      a: { b: [{ password: REDACTED, keep: 1 }] },
      mnemonic: REDACTED
    })
    expect(looksSensitive("#seed-phrase-input")).toBe(true)
    expect(looksSensitive("recipient")).toBe(false)
  })
})

describe("scoring", () => {
  it("weights per query word: tool 10, screen 8, target 6, label 5, observed test id 3, a11y 2, plus coverage", () => {
    const entry = entryOf(
      step({ sessionId: "s", tool: "click", target: { testId: "confirm-button" }, screen: "send", testIds: ["amount-input"], names: ["Max amount"] })
    )
    expect(scoreEntry(entry, [], queryGroups("click")).score).toBe(10 + 5)
    expect(scoreEntry(entry, [], queryGroups("send")).score).toBe(8 + 5)
    // confirm: the target (6) and the confirmation label (5).
    expect(scoreEntry(entry, [], queryGroups("confirm")).score).toBe(6 + 5 + 5)
    expect(scoreEntry(entry, [], queryGroups("amount")).score).toBe(3 + 2 + 5)
    // One of two words matched: coverage floor(1/2 × 5) = 2.
    expect(scoreEntry(entry, [], queryGroups("click zebra")).score).toBe(10 + 2)
    expect(scoreEntry(entry, [], queryGroups("zebra")).score).toBe(0)
    expect(scoreEntry(entry, ["zebra"], queryGroups("zebra")).matchedFields).toEqual(["session"])
  })
})

describe("search", () => {
  const sessions = [session("a", { flowTags: ["send"], tags: ["smoke"] }), session("b", { flowTags: ["swap"] })]
  const steps = [
    step({ sessionId: "a", tool: "click", target: { testId: "send-button" }, screen: "home", at: hoursAgo(30) }),
    step({ sessionId: "a", tool: "type", target: { testId: "amount" }, screen: "send", at: hoursAgo(29) }),
    step({ sessionId: "b", tool: "click", target: { testId: "swap-button" }, screen: "swap", at: hoursAgo(1) }),
    step({ sessionId: "b", tool: "describe_screen", screen: "swap", at: hoursAgo(0.5) })
  ]

  it("regression: a nonsense query returns nothing, however recent the steps", () => {
    expect(search(catalogOf(sessions, steps), "qwertyuiop zzxx")).toEqual([])
  })

  it("regression: recency only breaks ties; the relevant old step ranks above the recent one", () => {
    // The send screen (8) outranks the send button (6); the newer swap steps do not match at all.
    const matches = search(catalogOf(sessions, steps), "transfer")
    expect(matches.map((match) => match.target)).toEqual(["testId:amount", "testId:send-button"])
    // Equal scores: the newer step first.
    const clicks = search(catalogOf(sessions, steps), "button")
    expect(clicks.map((match) => match.sessionId)).toEqual(["b", "a"])
  })

  it("regression: filters mean the same in every scope, and sinceHours applies to the step's time", () => {
    const catalog = catalogOf(sessions, steps)
    const filters = { flowTag: "send", sinceHours: 24 }
    expect(search(catalog, "click", { filters })).toEqual([])
    expect(search(catalog, "click", { filters, sessions: new Set(["a"]) })).toEqual([])
    expect(search(catalog, "click", { filters: { flowTag: "send" }, sessions: new Set(["a"]) }).map((m) => m.target)).toEqual([
      "testId:send-button"
    ])
    expect(catalog.last(10, "all", { sinceHours: 2 }, NOW).map((s) => s.tool)).toEqual(["click", "describe_screen"])
    expect(catalog.last(10, new Set(["a"]), { sinceHours: 2 }, NOW)).toEqual([])
    expect(catalog.last(10, "all", { screen: "swap" }, NOW).map((s) => s.sessionId)).toEqual(["b", "b"])
    expect(catalog.last(10, "all", { tag: "smoke" }, NOW).map((s) => s.sessionId)).toEqual(["a", "a"])
  })

  it("sessions are listed by activity and filtered through their steps", () => {
    const catalog = catalogOf(sessions, steps)
    expect(catalog.sessions(10, undefined, NOW).map((s) => [s.sessionId, s.stepCount])).toEqual([
      ["b", 2],
      ["a", 2]
    ])
    expect(catalog.sessions(10, { sinceHours: 24 }, NOW).map((s) => s.sessionId)).toEqual(["b"])
    expect(catalog.sessions(10, { screen: "send" }, NOW).map((s) => s.sessionId)).toEqual(["a"])
    expect(catalog.sessions(10, { flowTag: "swap" }, NOW).map((s) => s.sessionId)).toEqual(["b"])
  })

  it("the memory's own queries are not indexed as steps", () => {
    const catalog = catalogOf(sessions, [...steps, step({ sessionId: "a", tool: "knowledge_search", at: hoursAgo(0.1) })])
    expect(catalog.last(1, "all", undefined, NOW)[0]?.tool).toBe("describe_screen")
  })

  it("search on the index equals the full scan", () => {
    const catalog = catalogOf(sessions, steps)
    for (const query of ["button", "send", "click swap", "smoke", "approve"]) {
      const input = { groups: queryGroups(query), limit: 20, sessions: "all" as const, filters: undefined, now: NOW }
      expect(catalog.search(input), query).toEqual(scanSearch(sessions, steps, input))
    }
  })
})

describe("search on one app whose URL holds the query's word", () => {
  // TodoMVC at /todomvc/: "todo" is a prefix of a word of every step's URL path.
  const url = "http://127.0.0.1:4100/todomvc/#/"
  const sessions = [session("t", { goal: "add todos" })]
  const failures = Array.from({ length: 20 }, (_, index) =>
    step({ sessionId: "t", tool: "click", target: { selector: `.filters li:nth-child(${index})` }, ok: false, url, at: hoursAgo(0.1 + index / 100) })
  )
  const steps = [
    step({ sessionId: "t", tool: "navigate", url, at: hoursAgo(3) }),
    step({ sessionId: "t", tool: "type", target: { selector: ".new-todo" }, url, at: hoursAgo(2.9) }),
    step({ sessionId: "t", tool: "press_key", target: { selector: ".new-todo" }, input: { key: "Enter" }, url, at: hoursAgo(2.8) }),
    step({ sessionId: "t", tool: "click", target: { testId: "add-todo-button" }, ok: false, url, at: hoursAgo(2.7) }),
    ...failures
  ]

  it("ranks the steps that worked first, content matches above a match in the URL alone", () => {
    const catalog = catalogOf(sessions, steps)
    const matches = search(catalog, "add todo")
    expect(matches).toHaveLength(20)
    // The steps that add a todo (into .new-todo) come first, then the navigation that matched by its URL only.
    // (equal scores: the newer first)
    expect(matches.slice(0, 3).map((match) => [match.tool, match.ok])).toEqual([
      ["press_key", true],
      ["type", true],
      ["navigate", true]
    ])
    expect(matches[0]!.matchedFields).toContain("target")
    expect(matches[2]!.matchedFields).not.toContain("target")
    // Among the failures, the one whose target says "add todo" comes before those matched by the URL alone.
    expect(matches[3]).toMatchObject({ tool: "click", ok: false, target: "testId:add-todo-button" })
    // A word in the URL path adds only coverage: the session's goal counts more.
    const navigate = entryOf(steps[0]!)
    expect(scoreEntry(navigate, [], queryGroups("todomvc")).score).toBe(5)
    expect(scoreEntry(navigate, ["todomvc"], queryGroups("todomvc")).score).toBe(6)
    // The index and the full scan agree.
    const input = { groups: queryGroups("add todo"), limit: 20, sessions: "all" as const, filters: undefined, now: NOW }
    expect(catalog.search(input)).toEqual(scanSearch(sessions, steps, input))
  })
})

describe("typed text in errors", () => {
  it.effect("regression: text rejected by the type tool's schema is not echoed in the error", () =>
    Effect.gen(function* () {
      const secret = "S3CRET-".repeat(15_000)
      const error = yield* Effect.flip(decodeInput(type.input, { testId: "seed", text: secret }))
      const info = JSON.stringify(toErrorInfo(error))
      expect(info).toContain("text")
      expect(info).not.toContain("S3CRET-")
    }))
})
