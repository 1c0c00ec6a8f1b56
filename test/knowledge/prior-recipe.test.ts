// Prior knowledge (SPEC-07 similarity, confidence, suggestions and avoid list), recipes and exports,
// and the index against the full scan on a generated store.
import { describe, expect, it } from "@effect/vitest"
import { Catalog, scanSearch } from "../../src/knowledge/catalog.js"
import { RefHints } from "../../src/knowledge/hints.js"
import { confidenceOf, MAX_SIMILARITY_SCORE, priorKnowledge, similarityScore } from "../../src/knowledge/prior.js"
import { READ_LIMITS, recordRead, recordReads } from "../../src/knowledge/reads.js"
import { recipeOf, stableUrl, toBatch, toPlaywright } from "../../src/knowledge/recipe.js"
import { queryGroups } from "../../src/knowledge/text.js"
import { makeRegistry } from "../../src/runtime/registry.js"
import { builtinTools } from "../../src/tools/registry.js"
import type { Observation } from "../../src/domain/observation.js"
import { hoursAgo, NOW, session, step, syntheticStore, priorActions } from "./fixtures.js"

const here: Observation = {
  state: { isLoaded: true, currentUrl: "http://127.0.0.1:3000/app#/send", title: "t", currentScreen: "send" },
  testIds: ["amount", "recipient", "next", "max"].map((testId) => ({ testId, tag: "input", visible: true })),
  a11y: { nodes: [{ ref: "e1", role: "button", name: "Next" }, { ref: "e2", role: "textbox", name: "Amount" }, { ref: "e3", role: "generic", name: "" }] }
}

const onSend = { screen: "send", url: "http://127.0.0.1:3000/app#/send", testIds: ["amount", "recipient", "next", "max"], names: ["Next", "Amount"] }

describe("prior knowledge", () => {
  it("confidence is score / 29: a perfect match is exactly 1.0", () => {
    expect(MAX_SIMILARITY_SCORE).toBe(29)
    const perfect = similarityScore({ sameScreen: true, samePlace: true, testIdOverlap: 7, a11yOverlap: 5, actionable: true })
    expect(perfect).toBe(29)
    expect(confidenceOf(perfect)).toBe(1)
    expect(similarityScore({ sameScreen: true, samePlace: false, testIdOverlap: 1, a11yOverlap: 0, actionable: false })).toBe(11)
  })

  it("suggests what succeeded (with its failures counted), avoids what failed twice and never worked, never both, and ignores the current session and old sessions", () => {
    const catalog = new Catalog()
    catalog.addSession(session("old", { goal: "send" }))
    catalog.addSession(session("other", { goal: "send eth", flowTags: ["send"] }))
    catalog.addSession(session("me"))
    const add = (spec: Parameters<typeof step>[0]) => catalog.addStep(step(spec))
    add({ sessionId: "other", tool: "click", target: { testId: "next" }, ...onSend, at: hoursAgo(2) })
    add({ sessionId: "other", tool: "click", target: { testId: "max" }, ...onSend, ok: false, at: hoursAgo(2) })
    add({ sessionId: "other", tool: "click", target: { testId: "max" }, ...onSend, ok: false, at: hoursAgo(1.5) })
    add({ sessionId: "other", tool: "click", target: { testId: "max" }, ...onSend, at: hoursAgo(1.4) })
    add({ sessionId: "other", tool: "click", target: { testId: "broken" }, ...onSend, ok: false, at: hoursAgo(1.3) })
    add({ sessionId: "other", tool: "click", target: { testId: "broken" }, ...onSend, ok: false, at: hoursAgo(1.2) })
    add({ sessionId: "old", tool: "click", target: { testId: "ancient" }, ...onSend, at: hoursAgo(49) })
    add({ sessionId: "me", tool: "click", target: { testId: "mine" }, ...onSend, at: hoursAgo(0.1) })
    const prior = priorKnowledge(catalog, { currentSessionId: "me", observation: here, now: NOW }, priorActions)
    expect(prior.suggestedNextActions).toEqual([
      {
        rank: 1,
        tool: "click",
        rationale: "worked here; target on screen",
        preferredTarget: { testId: "next" },
        confidence: 1,
        succeeded: 1
      },
      {
        rank: 2,
        tool: "click",
        rationale: "worked here; target on screen",
        preferredTarget: { testId: "max" },
        confidence: 1,
        succeeded: 1,
        failed: 2
      }
    ])
    expect(prior.avoid).toEqual([{ target: "testId:broken", failures: 2, lastError: "MM_TARGET_NOT_FOUND" }])
    expect(prior.relatedSessions?.map((related) => related.sessionId)).toEqual(["other"])
    // Every action that worked is a suggestion: nothing is said twice, and failures are no steps to redo.
    expect(prior.similarSteps).toBeUndefined()
  })

  it("regression: empty accessible names never make two steps similar", () => {
    const catalog = new Catalog()
    catalog.addStep(step({ sessionId: "x", tool: "click", target: { testId: "t" }, names: ["", "  "], at: hoursAgo(1) }))
    const prior = priorKnowledge(catalog, { currentSessionId: undefined, observation: { state: { ...here.state, currentScreen: "unknown", currentUrl: "about:blank" }, a11y: { nodes: [{ ref: "e1", role: "generic", name: "" }] } }, now: NOW }, priorActions)
    expect(prior).toEqual({})
  })

  it("related sessions are ranked by relevance, then recency, not by storage order", () => {
    const catalog = new Catalog()
    catalog.addStep(step({ sessionId: "a-weak", tool: "get_text", testIds: ["amount"], at: hoursAgo(0.5) }))
    catalog.addStep(step({ sessionId: "b-strong", tool: "click", target: { testId: "next" }, ...onSend, at: hoursAgo(5) }))
    catalog.addStep(step({ sessionId: "c-strong-newer", tool: "click", target: { testId: "next" }, ...onSend, at: hoursAgo(3) }))
    const prior = priorKnowledge(catalog, { currentSessionId: undefined, observation: here, now: NOW }, priorActions)
    // Sessions are related by their actions: a session that only read the page is not one to learn from.
    expect(prior.relatedSessions?.map((related) => related.sessionId)).toEqual(["c-strong-newer", "b-strong"])
  })
})

describe("recipes", () => {
  const tools = makeRegistry(builtinTools, "mm")
  const flow = [
    step({ sessionId: "r", tool: "launch", url: "http://127.0.0.1:5000/login" }),
    step({ sessionId: "r", tool: "describe_screen", url: "http://127.0.0.1:5000/login" }),
    step({ sessionId: "r", tool: "type", target: { testId: "username" }, input: { text: "alice", timeoutMs: 15000 }, textRedacted: false, textLength: 5 }),
    step({ sessionId: "r", tool: "type", target: { testId: "password" }, input: { text: "[REDACTED]", timeoutMs: 15000 }, textRedacted: true, textLength: 13 }),
    step({ sessionId: "r", tool: "click", target: { testId: "nope" }, ok: false }),
    step({ sessionId: "r", tool: "click", target: { a11yRef: "e7", a11yHint: { role: "button", name: "Sign in" } }, input: { timeoutMs: 15000 } }),
    step({ sessionId: "r", tool: "click", target: { a11yRef: "e9" } }),
    step({ sessionId: "r", tool: "wait_for", target: { testId: "welcome", within: "selector:#dashboard" }, input: { state: "visible", timeoutMs: 15000 } })
  ]

  it("starts on the page the flow started on, keeps successful actions with durable targets and placeholders, and says why the rest were left out", () => {
    const recipe = recipeOf(flow, tools)
    expect(recipe.steps.map((s) => [s.tool, s.args])).toEqual([
      ["mm_navigate", { screen: "url", url: "http://127.0.0.1:5000/login" }],
      ["mm_type", { text: "alice", timeoutMs: 15000, testId: "username" }],
      ["mm_type", { text: "{{password}}", timeoutMs: 15000, testId: "password" }],
      ["mm_click", { timeoutMs: 15000, selector: 'role=button[name="Sign in"s]' }],
      ["mm_wait_for", { state: "visible", timeoutMs: 15000, testId: "welcome", within: { selector: "#dashboard" } }],
      // The page the flow ended on, as its last step saw it.
      ["mm_wait_for", { url: "/^http://127\\.0\\.0\\.1:3000/app#/home$/", timeoutMs: 5000 }]
    ])
    expect(recipe.steps.at(-1)?.notes).toBe("End at http://127.0.0.1:3000/app#/home")
    // The record is an older one that kept the secret's length: the recipe tells nothing about the secret.
    expect(recipe.placeholders).toEqual([{ name: "password", target: "testId:password" }])
    expect(recipe.skipped).toEqual([
      "describe_screen: read-only",
      "click testId:nope: failed with MM_TARGET_NOT_FOUND",
      "click a11yRef:e9: only a ref was recorded: the page did not describe the element (no test id, role and name, or selector)"
    ])
    expect(JSON.stringify(recipe)).not.toMatch(/"a11yRef"/)
    expect(recipe.steps[2]?.notes).toBe("Type a secret into testId:password (fill in {{password}})")
    expect(toBatch(recipe)).toMatchObject({ stopOnError: true, includeObservations: "failures" })
    expect(toBatch(recipe).steps[3]).toEqual({ tool: "mm_click", args: { timeoutMs: 15000, selector: 'role=button[name="Sign in"s]' } })
  })

  it("a step on an element inside an iframe replays through the frame's selector (ENTER_FRAME) and exports inside that frame (contentFrame)", () => {
    const framed = [
      step({ sessionId: "f", tool: "launch", url: "http://127.0.0.1:5000/checkout" }),
      step({
        sessionId: "f",
        tool: "type",
        target: { a11yRef: "e12", element: { role: "textbox", name: "Card number", frame: 'internal:role=iframe[name="Payment"s]', unique: ["role"] } },
        input: { text: "4242", timeoutMs: 15000 },
        textRedacted: false,
        textLength: 4
      })
    ]
    const recipe = recipeOf(framed, tools)
    expect(toBatch(recipe).steps[1]?.args).toMatchObject({
      selector: 'internal:role=iframe[name="Payment"s] >> internal:control=enter-frame >> role=textbox[name="Card number"s]'
    })
    const code = toPlaywright(recipe, framed, session("f", { goal: "pay" }), "f", tools)
    expect(code).toContain('await page.getByRole("iframe", { name: "Payment", exact: true }).contentFrame().getByRole("textbox", { name: "Card number", exact: true }).fill("4242")')
  })

  it("exports a Playwright test with locator actions and secrets from the environment", () => {
    const code = toPlaywright(recipeOf(flow, tools), flow, session("r", { goal: "sign in" }), "r", tools)
    expect(code).toContain('import { expect, test } from "@playwright/test"')
    expect(code).toContain('test("sign in", async ({ page }) => {')
    expect(code).toContain('await page.goto("http://127.0.0.1:5000/login")')
    expect(code).toContain('await page.getByTestId("username").fill("alice")')
    expect(code).toContain('await page.getByTestId("password").fill(requiredEnv("BWM_SECRET_PASSWORD"))')
    // A variable that is not set, or empty, fails the test naming it, rather than typing an empty string.
    expect(code).toContain("// Secrets come from the environment (the test fails naming one that is not set or empty): BWM_SECRET_PASSWORD.")
    expect(code).toContain("const requiredEnv = (name: string): string => {")
    expect(code).toContain("throw new Error(`Set the environment variable ${name}: ")
    expect(code).toContain('if (value === undefined || value === "") throw')
    expect(code).not.toContain("process.env.BWM_SECRET_PASSWORD")
    expect(code).toContain('await page.getByRole("button", { name: "Sign in", exact: true }).click()')
    expect(code).toContain('await expect(page.locator("#dashboard").getByTestId("welcome")).toBeVisible()')
    // It ends with the page the flow reached: its URL and title.
    expect(code).toContain('await expect(page).toHaveURL("http://127.0.0.1:3000/app#/home")\n  await expect(page).toHaveTitle("t")\n})')
  })

  it("mm_tabs steps replay as recorded, without tab ids; a list is read-only and a switch by id only names nothing", () => {
    const tabSteps = [
      step({ sessionId: "t", tool: "launch", url: "http://127.0.0.1:5000/shop" }),
      step({ sessionId: "t", tool: "tabs", input: { action: "list" } }),
      step({ sessionId: "t", tool: "tabs", input: { action: "switch", tabId: "t2" } }),
      step({ sessionId: "t", tool: "tabs", input: { action: "switch", tabId: "t1", role: "app" } }),
      step({ sessionId: "t", tool: "tabs", input: { action: "close", url: "http://127.0.0.1:5000/help" } })
    ]
    const recipe = recipeOf(tabSteps, tools)
    // Then the check of the page the flow ended on.
    expect(recipe.steps.slice(1)).toMatchObject([
      { tool: "mm_tabs", args: { action: "switch", role: "app" } },
      { tool: "mm_tabs", args: { action: "close", url: "http://127.0.0.1:5000/help" } },
      { tool: "mm_wait_for" }
    ])
    expect(recipe.skipped).toEqual(["tabs: read-only", "tabs: chose its tab by id only, which names nothing in another session"])
  })

  it("keys, options, hover and history moves replay in a batch and in a Playwright test; a key pressed in a secret field does not", () => {
    const more = [
      step({ sessionId: "k", tool: "launch", url: "http://127.0.0.1:5000/shop" }),
      step({ sessionId: "k", tool: "press_key", target: { testId: "q" }, input: { key: "Enter", timeoutMs: 15000 } }),
      step({ sessionId: "k", tool: "press_key", input: { key: "Escape", timeoutMs: 15000 } }),
      step({ sessionId: "k", tool: "press_key", target: { testId: "pin" }, input: { key: "[REDACTED]", timeoutMs: 15000 } }),
      step({ sessionId: "k", tool: "select_option", target: { testId: "country" }, input: { values: ["de"], timeoutMs: 15000 } }),
      step({ sessionId: "k", tool: "hover", target: { testId: "menu" }, input: { timeoutMs: 15000 } }),
      step({ sessionId: "k", tool: "navigate", input: { screen: "back", timeoutMs: 30000 } }),
      step({ sessionId: "k", tool: "click", target: { testId: "ask" }, input: { timeoutMs: 15000, dialog: { accept: true, promptText: "[REDACTED]" } } }),
      step({ sessionId: "k", tool: "switch_to_tab", input: { tabId: "t2" } }),
      step({ sessionId: "k", tool: "switch_to_tab", input: { tabId: "t1", role: "app" } })
    ]
    const recipe = recipeOf(more, tools)
    expect(recipe.steps.map((s) => s.tool)).toEqual([
      "mm_navigate",
      "mm_press_key",
      "mm_press_key",
      "mm_select_option",
      "mm_hover",
      "mm_navigate",
      "mm_click",
      "mm_switch_to_tab",
      "mm_wait_for"
    ])
    expect(recipe.steps[6]?.args).toMatchObject({ dialog: { accept: true, promptText: "{{ask}}" } })
    expect(recipe.placeholders).toEqual([{ name: "ask", target: "the prompt opened by testId:ask" }])
    expect(recipe.steps.at(-2)?.args).toEqual({ role: "app" })
    expect(recipe.skipped).toEqual([
      "press_key testId:pin: a key pressed in a secret field is not stored",
      "switch_to_tab: chose its tab by id only, which names nothing in another session"
    ])
    const code = toPlaywright(recipe, more, undefined, "k", tools)
    expect(code).toContain('await page.getByTestId("q").press("Enter")')
    expect(code).toContain('await page.keyboard.press("Escape")')
    expect(code).toContain('await page.getByTestId("country").selectOption(["de"])')
    expect(code).toContain('await page.getByTestId("menu").hover()')
    expect(code).toContain("await page.goBack()")
    expect(code).toContain(
      'page.once("dialog", (dialog) => dialog.accept(requiredEnv("BWM_SECRET_ASK")))\n  await page.getByTestId("ask").click()\n  page.removeAllListeners("dialog")'
    )
  })

  it("reads become checks: exact, contains, values and lists; never a secret; a read-only look stays out", () => {
    const field = { testId: "api-field", element: { testId: "api-field", role: "textbox", unique: ["testId" as const] } }
    const reads = [
      step({ sessionId: "g", tool: "launch", url: "http://127.0.0.1:5000/orders" }),
      step({ sessionId: "g", tool: "type", target: field, input: { text: "[REDACTED]", timeoutMs: 15000 }, textRedacted: true, textLength: 9 }),
      step({ sessionId: "g", tool: "get_text", target: { testId: "status" }, input: { timeoutMs: 15000, read: "Order confirmed: 2 items" } }),
      step({ sessionId: "g", tool: "get_text", target: { testId: "terms" }, input: { timeoutMs: 15000, read: "By ordering you agree", readContains: true } }),
      step({ sessionId: "g", tool: "get_text", target: { testId: "city", element: { testId: "city", role: "combobox", unique: ["testId"] } }, input: { timeoutMs: 15000, read: "Berlin" } }),
      step({ sessionId: "g", tool: "get_text", target: { selector: "li" }, input: { all: true, timeoutMs: 15000, read: ["Tea", "Cake"] } }),
      step({ sessionId: "g", tool: "get_text", target: field, input: { timeoutMs: 15000, read: "sk-123456" } }),
      step({ sessionId: "g", tool: "get_text", target: { testId: "greeting" }, input: { timeoutMs: 15000, read: "Hello [secret:USER_TOKEN]" } }),
      step({ sessionId: "g", tool: "get_text", target: { testId: "plain" }, input: { timeoutMs: 15000 } })
    ]
    const recipe = recipeOf(reads, tools)
    expect(recipe.steps.filter((s) => s.tool === "mm_get_text").map((s) => s.args)).toEqual([
      { timeoutMs: 15000, testId: "status", expected: "Order confirmed: 2 items" },
      { timeoutMs: 15000, testId: "terms", expected: "By ordering you agree", contains: true },
      { timeoutMs: 15000, testId: "city", expected: "Berlin" },
      { all: true, timeoutMs: 15000, selector: "li", expected: ["Tea", "Cake"] }
    ])
    expect(recipe.steps[2]?.notes).toBe('Check that testId:status reads "Order confirmed: 2 items"')
    expect(recipe.skipped).toEqual([
      "get_text testId:api-field: read-only (a secret was typed there: its text is not checked)",
      "get_text testId:greeting: read-only (its text holds a secret: not checked)",
      "get_text testId:plain: read-only"
    ])
    const code = toPlaywright(recipe, reads, undefined, "g", tools)
    expect(code).toContain('await expect(page.getByTestId("status")).toHaveText("Order confirmed: 2 items", { useInnerText: true })')
    expect(code).toContain('await expect(page.getByTestId("terms")).toContainText("By ordering you agree", { useInnerText: true })')
    expect(code).toContain('await expect(page.getByTestId("city")).toHaveValue("Berlin")')
    expect(code).toContain('await expect(page.locator("li")).toHaveText(["Tea","Cake"], { useInnerText: true })')
    expect(code).not.toContain("sk-123456")
    expect(code).not.toContain("secret:")
  })

  it("what get_text records: short texts whole, long ones by their beginning, values as they are, nothing secret", () => {
    expect(recordRead("  Order\n confirmed ", { testId: "status" })).toEqual({ read: "Order confirmed" })
    const long = recordRead(`${"word ".repeat(60)}end`, { testId: "terms" })
    expect(long.readContains).toBe(true)
    expect((long.read as string).length).toBeLessThanOrEqual(READ_LIMITS.prefixChars)
    expect(recordRead(" two  spaces ", { testId: "q", element: { role: "textbox", unique: [] } })).toEqual({ read: " two  spaces " })
    expect(recordRead("hunter2", { testId: "password-field" })).toEqual({})
    expect(recordRead("x", { a11yRef: "e4", element: { role: "textbox", name: "API key", unique: [] } })).toEqual({})
    expect(recordRead("", { testId: "empty" })).toEqual({})
    expect(recordReads(["Tea", "Cake"], 0, { selector: "li" })).toEqual({ read: ["Tea", "Cake"] })
    expect(recordReads(["Tea", "Cake"], 3, { selector: "li" })).toEqual({})
    expect(recordReads(["Tea", "x".repeat(300)], 0, { selector: "li" })).toEqual({})
  })

  it("the page a flow ended on: a literal URL, or a regex for ids, timestamps, tokens and secret-looking keys", () => {
    expect(stableUrl("http://127.0.0.1:3000/todomvc/react/#/completed")).toEqual({ exact: "http://127.0.0.1:3000/todomvc/react/#/completed" })
    expect(stableUrl("http://127.0.0.1:3000/welcome?user=alice%40example.com")).toEqual({ exact: "http://127.0.0.1:3000/welcome?user=alice%40example.com" })
    const cases = [
      ["http://127.0.0.1:3000/orders/1234567?tab=info", "http://127.0.0.1:3000/orders/7654321?tab=info", "http://127.0.0.1:3000/orders/1234567?tab=other"],
      ["http://x/done?ts=1700000000000", "http://x/done?ts=1800000000000", "http://x/other?ts=1"],
      ["http://x/a?id=550e8400-e29b-41d4-a716-446655440000#/x", "http://x/a?id=00000000-0000-0000-0000-000000000000#/x", "http://x/a?id=1#/y"],
      ["http://x/cb?access_token=abc&state=q1", "http://x/cb?access_token=zzz&state=q2", "http://x/cb?access_token=abc"]
    ] as const
    for (const [recorded, later, elsewhere] of cases) {
      const match = stableUrl(recorded)
      expect("regex" in match, recorded).toBe(true)
      const regex = new RegExp((match as { regex: string }).regex)
      expect(regex.test(recorded), recorded).toBe(true)
      expect(regex.test(later), later).toBe(true)
      expect(regex.test(elsewhere), elsewhere).toBe(false)
    }
    expect(JSON.stringify(stableUrl("http://x/cb?access_token=abc"))).not.toContain("abc")
  })

  it("a ref target gets the role and name the agent saw before acting, not a renumbered ref of the next page", () => {
    const hints = new RefHints()
    const seen = step({ sessionId: "h", tool: "type", names: ["Sign in"], url: "http://x/login" })
    hints.enrich(seen)
    const clicked = hints.enrich(step({ sessionId: "h", tool: "click", target: { a11yRef: "e1" }, names: ["Other page button"], url: "http://x/home" }))
    expect(clicked.tool.target?.a11yHint).toEqual({ role: "button", name: "Sign in" })
    const fresh = new RefHints()
    const navigated = fresh.enrich(step({ sessionId: "h2", tool: "type", names: ["A"], url: "http://x/one" }))
    expect(navigated.tool.target).toBeUndefined()
    const unknown = fresh.enrich(step({ sessionId: "h2", tool: "click", target: { a11yRef: "e5" }, names: ["B"], url: "http://x/two" }))
    expect(unknown.tool.target?.a11yHint).toBeUndefined()
  })
})

describe("index equals the full scan on a generated store", () => {
  it("for many queries, scopes and filters", () => {
    const { sessions, steps } = syntheticStore(1_000, 40)
    const catalog = new Catalog()
    for (const metadata of sessions) catalog.addSession(metadata)
    for (const record of steps) catalog.addStep(record)
    const queries = ["send", "confirm transaction", "unlock wallet", "approve", "password input", "swap tokens", "smoke", "xyzzy", "click", "max amount back", "nightly regression"]
    const scopes = ["all" as const, new Set([sessions[3]!.sessionId, sessions[7]!.sessionId])]
    const filterSets = [undefined, { sinceHours: 12 }, { screen: "send" }, { flowTag: "swap", tag: "smoke" }]
    let compared = 0
    for (const query of queries)
      for (const scope of scopes)
        for (const filters of filterSets) {
          const input = { groups: queryGroups(query), limit: 25, sessions: scope, filters, now: Date.parse(hoursAgo(0)) }
          expect(catalog.search(input), `${query} ${JSON.stringify(filters)}`).toEqual(scanSearch(sessions, steps, input))
          compared++
        }
    expect(compared).toBe(88)
  })
})
