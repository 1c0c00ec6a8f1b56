// Prior knowledge ranked from records shaped the way runTool writes them: full observations after failures,
// changes-only ones after successes, describe_screen with its state only. The page before each step is
// rebuilt from them, so a successful step that stored only what changed is as similar as the failures before it.
import { describe, expect, it } from "@effect/vitest"
import { labelsFor, type StepRecord, type StepTarget } from "../../src/domain/knowledge.js"
import type { A11yNode, Observation, TestIdItem } from "../../src/domain/observation.js"
import { Catalog } from "../../src/knowledge/catalog.js"
import { PageTracker } from "../../src/knowledge/page.js"
import { fitsTarget, priorKnowledge } from "../../src/knowledge/prior.js"
import { hoursAgo, NOW, session, stepKindsOf, priorActions } from "./fixtures.js"
import { ReferenceCatalog, referencePriorKnowledge } from "./prior-reference.js"

const APP = "http://127.0.0.1:4100"
const state = (path: string, title = "Todos") => ({ isLoaded: true, currentUrl: `${APP}${path}`, title, currentScreen: "unknown" })
const ids = (...testIds: Array<string>): Array<TestIdItem> => testIds.map((testId) => ({ testId, tag: "button", visible: true }))
const node = (ref: string, role: string, name: string): A11yNode => ({ ref, role, name })

const todoNodes = [
  node("e1", "textbox", "What needs to be done?"),
  node("e2", "button", "Add"),
  node("e3", "link", "All"),
  node("e4", "link", "Active"),
  node("e5", "link", "Completed")
]
const todoIds = ids("new-todo", "add-button", "filter-all", "filter-active")

/** The full observation runTool records after a failure (and a first look at a fresh document). */
const full = (path: string, nodes: Array<A11yNode>, testIds: Array<TestIdItem>): Observation => ({ state: state(path), testIds, a11y: { nodes } })
/** What runTool records after a success: only what is new or changed. */
const changes = (path: string, nodes: Array<A11yNode>, testIds: Array<TestIdItem>, unchanged: number, removed: Array<string> = []): Observation => ({
  state: state(path),
  testIds,
  testIdsUnchanged: unchanged,
  a11y: { nodes, changesOnly: true, unchanged, removed }
})

let clock = 0
const record = (
  sessionId: string,
  tool: string,
  observation: Observation | undefined,
  options: { target?: StepTarget; ok?: boolean; input?: Record<string, unknown> } = {}
): StepRecord => {
  const ok = options.ok ?? true
  clock++
  return {
    schemaVersion: 1,
    timestamp: new Date(Date.parse(hoursAgo(2)) + clock * 1_000).toISOString(),
    sessionId,
    tool: { name: tool, input: options.input ?? {}, ...(options.target ? { target: options.target } : {}) },
    timing: { durationMs: 20 },
    outcome: ok ? { ok: true } : { ok: false, error: { code: "MM_CLICK_FAILED", message: "Element is covered" } },
    ...(observation ? { observation } : {}),
    labels: labelsFor(stepKindsOf(tool), options.target, ok)
  }
}

/** A past session on the todo page: two clicks on Add fail (a cover still fading out), the third works. */
const pastSession = (sessionId: string): Array<StepRecord> => [
  record(sessionId, "launch", changes("/", [], [], 0)),
  record(sessionId, "navigate", changes("/todo", todoNodes, todoIds, 0)),
  record(sessionId, "describe_screen", { state: state("/todo") }),
  record(sessionId, "type", changes("/todo", [], [], 5), { target: { a11yRef: "e1", a11yHint: { role: "textbox", name: "What needs to be done?" } } }),
  record(sessionId, "click", full("/todo", todoNodes, todoIds), { target: { testId: "add-button" }, ok: false }),
  record(sessionId, "click", full("/todo", todoNodes, todoIds), { target: { testId: "add-button" }, ok: false }),
  record(sessionId, "click", changes("/todo", [node("e6", "checkbox", "Buy milk")], ids("todo-item"), 5), { target: { testId: "add-button" } }),
  record(sessionId, "click", changes("/todo", [node("e6", "checkbox", "Buy milk")], [], 5), {
    target: { a11yRef: "e5", a11yHint: { role: "link", name: "Completed" } }
  })
]

/** The screen an agent of a new session describes now. */
const now: Observation = full("/todo", todoNodes.map((item, index) => ({ ...item, ref: `e${index + 40}` })), todoIds)

describe("prior knowledge ranks what worked first", () => {
  it("the successful click that stored only its changes is as similar as the failures before it and is listed before them", () => {
    const catalog = new Catalog()
    catalog.addSession(session("past", { goal: "add a todo" }))
    for (const step of pastSession("past")) catalog.addStep(step)
    const prior = priorKnowledge(catalog, { currentSessionId: "me", observation: now, now: NOW }, priorActions)

    // Judged on the page the agent saw before each click: the same page, so the same confidence (no screen
    // rule matches here, so the most is 21 of 29: same path, three test ids, two names, an action). Every
    // action that worked is suggested, so no similar step repeats one; launch and describe_screen are no
    // steps to redo.
    expect(prior.similarSteps).toBeUndefined()
    expect(prior.suggestedNextActions?.map((action) => action.tool)).toEqual(["click", "type", "click"])

    const add = prior.suggestedNextActions?.find((action) => action.preferredTarget.testId === "add-button")
    // After the two actions that never failed (typing the todo, the Completed filter).
    expect(add).toEqual({
      rank: 3,
      tool: "click",
      rationale: "worked here; target on screen",
      preferredTarget: { testId: "add-button" },
      confidence: 0.724,
      succeeded: 1,
      failed: 2
    })
    // A ref target is suggested by role and name, with the ref the same element has on this screen now; as
    // similar as Add, it never failed, so it ranks first.
    expect(prior.suggestedNextActions?.[0]).toEqual({
      rank: 1,
      tool: "click",
      rationale: "worked here; target on screen",
      preferredTarget: { selector: 'role=link[name="Completed"s]' },
      ref: "e44",
      confidence: 0.724,
      succeeded: 1
    })
    expect(prior.suggestedNextActions?.map((action) => action.rank)).toEqual([1, 2, 3])
    // It failed twice but then worked in the same session: not a target to avoid.
    expect(prior.avoid).toBeUndefined()
  })

  it("a target that only ever failed here is avoided and never suggested; more successes rank a target higher", () => {
    const catalog = new Catalog()
    const steps = [...pastSession("one"), ...pastSession("two")]
    steps.push(record("two", "click", full("/todo", todoNodes, todoIds), { target: { testId: "clear-completed" }, ok: false }))
    steps.push(record("two", "click", full("/todo", todoNodes, todoIds), { target: { testId: "clear-completed" }, ok: false }))
    for (const step of steps) catalog.addStep(step)
    const prior = priorKnowledge(catalog, { currentSessionId: undefined, observation: now, now: NOW }, priorActions)
    expect(prior.avoid).toEqual([{ target: "testId:clear-completed", failures: 2, lastError: "MM_CLICK_FAILED" }])
    expect(prior.suggestedNextActions?.some((action) => action.preferredTarget.testId === "clear-completed")).toBe(false)
    const add = prior.suggestedNextActions?.find((action) => action.preferredTarget.testId === "add-button")
    expect(add).toMatchObject({ succeeded: 2, failed: 4, rationale: "worked here in 2 sessions; target on screen" })
    // More successes than failures ranks first among equally similar actions.
    expect(prior.suggestedNextActions?.map((action) => action.succeeded - (action.failed ?? 0))).toEqual([2, 2, -2])
  })

  it("without the page before it, a changes-only step would look unlike the screen it was taken on", () => {
    // The naive reading (the step's own observation) is what ranked failures above the success before.
    const catalog = new Catalog()
    const success = record("solo", "click", changes("/other", [node("e6", "checkbox", "Buy milk")], ids("todo-item"), 5), { target: { testId: "add-button" } })
    catalog.addStep(success)
    const alone = priorKnowledge(catalog, { currentSessionId: undefined, observation: now, now: NOW }, priorActions)
    expect(alone).toEqual({})
  })
})

describe("the page before a step", () => {
  it("merges changes-only observations, starts over on a new document, and keeps content through state-only ones", () => {
    const pages = new PageTracker()
    expect(pages.before("s")).toBeUndefined()
    pages.apply("s", full("/todo", todoNodes, todoIds))
    pages.apply("s", changes("/todo", [node("e6", "checkbox", "Buy milk"), node("e2", "button", "Add item")], ids("todo-item"), 4, ["e5"]))
    pages.apply("s", { state: state("/todo#/active") })
    const merged = pages.before("s")!
    expect(merged.place).toBe(`${APP}/todo#/active`)
    expect([...merged.names].sort()).toEqual(["active", "add item", "all", "buy milk", "what needs to be done?"])
    expect([...merged.testIds].sort()).toEqual(["add-button", "filter-active", "filter-all", "new-todo", "todo-item"])
    // A changes-only observation with nothing unchanged lists the whole page (a fresh document).
    pages.apply("s", changes("/todo", [node("e9", "heading", "Todos")], [], 0))
    expect(pages.before("s")?.names).toEqual(["todos"])
    pages.apply("s", full("/settings", [node("e20", "switch", "Dark mode")], ids("dark-mode")))
    expect(pages.before("s")).toMatchObject({ place: `${APP}/settings`, names: ["dark mode"], testIds: ["dark-mode"] })
    // Back on a page seen before: what was known of it comes back.
    pages.apply("s", { state: state("/todo") })
    expect(pages.before("s")?.names).toEqual(["todos"])
    // Saved and restored, it says the same.
    expect(PageTracker.fromState(pages.toState()).before("s")).toEqual(pages.before("s"))
  })
})

describe("what prior knowledge trusts", () => {
  const heading = { a11yRef: "e9", a11yHint: { role: "heading", name: "todos" }, element: { role: "heading", name: "todos", unique: ["role" as const] } }
  const field = { a11yRef: "e1", a11yHint: { role: "textbox", name: "What needs to be done?" }, element: { role: "textbox", name: "What needs to be done?", unique: ["role" as const] } }

  it("an action fits its target by the recorded role: text into fields, keys on fields and widgets, never on a heading", () => {
    expect(fitsTarget(priorActions("type"), heading)).toBe(false)
    expect(fitsTarget(priorActions("press_key"), heading)).toBe(false)
    expect(fitsTarget(priorActions("press_key"), { testId: "x", element: { role: "paragraph", unique: [] } })).toBe(false)
    expect(fitsTarget(priorActions("type"), field)).toBe(true)
    expect(fitsTarget(priorActions("press_key"), field)).toBe(true)
    expect(fitsTarget(priorActions("press_key"), { testId: "menu", element: { role: "button", unique: ["testId"] } })).toBe(true)
    // Nothing recorded against it: it fits; other tools fit any target.
    expect(fitsTarget(priorActions("press_key"), { testId: "q" })).toBe(true)
    expect(fitsTarget(priorActions("click"), heading)).toBe(true)
  })

  it("a mistaken session's steps are never suggested, a target that mostly failed is only flagged, and lifecycle steps are never listed", () => {
    const catalog = new Catalog()
    const sessions = [session("wrong", { goal: "add a todo (mistaken)" }), session("right", { goal: "add a todo", flowTags: ["todo"] }), session("third")]
    for (const metadata of sessions) catalog.addSession(metadata)
    const page = full("/todo", todoNodes, todoIds)
    const steps = [
      // The mistaken session: a key on the heading "works" (nothing happens), text into it fails, Save fails twice.
      record("wrong", "launch", changes("/", [], [], 0)),
      record("wrong", "navigate", page),
      record("wrong", "describe_screen", { state: state("/todo") }),
      record("wrong", "press_key", page, { target: heading }),
      record("wrong", "type", page, { target: heading, ok: false }),
      record("wrong", "click", page, { target: { testId: "save" }, ok: false }),
      record("wrong", "click", page, { target: { testId: "save" }, ok: false }),
      record("wrong", "knowledge", page),
      record("wrong", "cleanup", page),
      // Another session where Save only failed, and one where it worked once.
      record("third", "click", page, { target: { testId: "save" }, ok: false }),
      record("right", "click", page, { target: { testId: "save" } }),
      // The good session: type and Enter into the field; Add failed once then worked.
      record("right", "type", page, { target: field }),
      record("right", "press_key", page, { target: field }),
      record("right", "click", page, { target: { testId: "add-button" }, ok: false }),
      record("right", "click", page, { target: { testId: "add-button" } }),
      record("right", "press_key", page),
      record("right", "cleanup", page)
    ]
    for (const step of steps) catalog.addStep(step)
    const input = { currentSessionId: undefined, observation: now, now: NOW }
    const prior = priorKnowledge(catalog, input, priorActions)
    expect(prior).toEqual(referencePriorKnowledge(new ReferenceCatalog(sessions, steps), input))

    const suggested = prior.suggestedNextActions ?? []
    expect(suggested.map((action) => [action.tool, action.preferredTarget])).toEqual([
      ["press_key", { selector: 'role=textbox[name="What needs to be done?"s]' }],
      ["type", { selector: 'role=textbox[name="What needs to be done?"s]' }],
      ["click", { testId: "add-button" }]
    ])
    // Add failed once and worked in the same session: a retry that worked, suggested with its failure counted.
    expect(suggested[2]).toMatchObject({ succeeded: 1, failed: 1 })
    // Save worked in one session and only failed in two: it mostly failed, so it is flagged (it failed twice here), not suggested.
    expect(prior.avoid).toEqual([{ target: "testId:save", failures: 3, lastError: "MM_CLICK_FAILED" }])
    // Nothing on the heading anywhere; a key pressed without a target tells nothing, nor do lifecycle calls.
    expect(JSON.stringify(prior)).not.toContain("heading")
    expect(prior.similarSteps).toBeUndefined()
    // Related: the session whose actions worked; the mistaken one taught nothing.
    expect(prior.relatedSessions).toEqual([{ sessionId: "right", goal: "add a todo", flowTags: ["todo"], confidence: 0.724 }])
    expect(Object.values(prior).every((list) => (list?.length ?? 0) > 0)).toBe(true)
  })
})

describe("prior knowledge names targets an agent of another session can use", () => {
  it("leaves out refs without a durable form and steps without a target, names a described ref by its durable form, and keeps a double click apart", () => {
    const catalog = new Catalog()
    const sessions = [session("past", { goal: "edit todos" })]
    for (const item of sessions) catalog.addSession(item)
    const page = full("/todo", todoNodes, todoIds)
    const described: StepTarget = {
      a11yRef: "e31",
      element: { testId: "todo-label", role: "generic", unique: ["testId"] }
    }
    const steps = [
      record("past", "navigate", page),
      // A ref alone, the element not described: meaningless in another session.
      record("past", "click", page, { target: { a11yRef: "e22" } }),
      record("past", "press_key", page),
      record("past", "tabs", page),
      // A ref whose element was described: named by its test id.
      record("past", "click", page, { target: described }),
      record("past", "click", page, { target: described, input: { count: 2 } }),
      record("past", "click", page, { target: { testId: "filter-all" }, input: { count: 2 } })
    ]
    for (const step of steps) catalog.addStep(step)
    const input = { currentSessionId: undefined, observation: now, now: NOW }
    const prior = priorKnowledge(catalog, input, priorActions)
    expect(prior).toEqual(referencePriorKnowledge(new ReferenceCatalog(sessions, steps), input))
    const text = JSON.stringify(prior)
    expect(text).not.toContain("a11yRef")
    expect(text).not.toContain("e22")
    const listed = [...(prior.suggestedNextActions ?? []), ...(prior.similarSteps ?? [])]
    expect(listed.length).toBeGreaterThan(0)
    // Every entry names a target; none is a key, a tab or a navigation without one.
    for (const entry of prior.similarSteps ?? []) expect(entry.target).toMatch(/^(testId|selector|role):/)
    expect(listed.map((entry) => entry.tool).filter((tool) => tool !== "click")).toEqual([])
    // The double click and the plain click on the same element are two actions, the double one saying so.
    const onLabel = (prior.suggestedNextActions ?? []).filter((action) => action.preferredTarget.testId === "todo-label")
    expect(onLabel.map((action) => action.count ?? 1).sort()).toEqual([1, 2])
    expect((prior.suggestedNextActions ?? []).find((action) => action.preferredTarget.testId === "filter-all")).toMatchObject({ count: 2 })
  })
})
