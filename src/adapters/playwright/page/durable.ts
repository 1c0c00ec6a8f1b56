// What an action's target was, in forms that survive a new page load: its test id, its role and exact
// accessible name (as getByRole finds it, computed by the walk's own name code), and a selector generated
// the way Playwright's code generator does (test id, role and name, placeholder, label, text, then short
// CSS, nested in a parent when that makes it unique). Each form is checked against the page as it is at
// that moment, with the semantics of the Playwright engine that will read it later; only forms that
// match exactly this element are marked unique.
import { makeTexts } from "./durable-text.js"
import { makeView } from "./engine-view.js"
import { joined, makeSearch } from "./selector-search.js"
import { exactName, makeTokens } from "./selector-tokens.js"
import type { AriaTests, DescribeArgs, Described, DescribeLocator, ElementFacts } from "./types.js"
import { isLiveElement as isLive } from "./visibility.js"

/** Runs in the page: the durable forms of the target element (see the file comment). */
export const describeTarget = (args: DescribeArgs, aria: AriaTests | null): Described => {
  const started = performance.now()
  const overBudget = () => performance.now() - started > args.budgetMs
  const registry = (window as any)[Symbol.for("browser-workflow-mcp")]
  const view = makeView()
  const { under, cssMatches } = view

  // ---- Resolving the target as the action will ----
  const resolveIn = (locator: DescribeLocator, scope: Document | Element): Array<Element> | string => {
    if (locator.kind === "a11yRef") {
      const element: Element | undefined = registry?.byRef.get(locator.value)
      return element !== undefined && isLive(element) ? [element] : "the ref is not on the page"
    }
    if (locator.kind === "testId") return under(scope).filter((element) => element.getAttribute(args.testIdAttribute) === locator.value)
    try {
      document.createDocumentFragment().querySelector(locator.value)
    } catch {
      return "the selector is not plain CSS"
    }
    return under(scope).filter((element) => cssMatches(element, locator.value))
  }
  let scope: Document | Element = document
  if (args.within !== null && args.locator.kind !== "a11yRef") {
    const scopes = resolveIn(args.within, document)
    if (typeof scopes === "string") return { found: false, why: scopes }
    if (scopes.length !== 1) return { found: false, why: `the scope matches ${scopes.length} elements` }
    scope = scopes[0]!
  }
  const targets = resolveIn(args.locator, scope)
  if (typeof targets === "string") return { found: false, why: targets }
  if (targets.length !== 1) return { found: false, why: `the target matches ${targets.length} elements` }
  const target = targets[0]!
  const tokens = makeTokens(args, aria, view, makeTexts(view))
  const { roleOf, nameOf, roleMatches } = tokens
  const { matchAll, cssFallback, generate } = makeSearch(view, tokens, overBudget)

  // ---- The facts ----
  const facts: ElementFacts = { unique: [] }
  // An element of a same-origin iframe of the top document: its test id and role name it inside that
  // frame, which a selector of the iframe element names in the top document (as Playwright's
  // `page.locator(frame).contentFrame()` reads them). Deeper frames are not described.
  const home: Document = target.ownerDocument
  if (home !== document) {
    const frame = home.defaultView?.frameElement ?? null
    if (frame === null || frame.ownerDocument !== document) return { found: false, why: "the element is inside a nested frame" }
    const framing = generate(frame, false, false) ?? cssFallback(frame)
    const matched = matchAll(framing)
    if (matched.length !== 1 || matched[0] !== frame) return { found: false, why: "no selector names its frame alone" }
    facts.frame = joined(framing)
  }
  const testId = target.getAttribute(args.testIdAttribute)
  if (testId !== null && testId !== "") {
    facts.testId = testId
    if (under(home).filter((element) => element.getAttribute(args.testIdAttribute) === testId).length === 1) facts.unique.push("testId")
  }
  const role = roleOf(target)
  if (role !== null && role !== "generic" && role !== "none" && role !== "presentation") {
    facts.role = role
    const name = nameOf(target, role)
    if (exactName(name)) {
      facts.name = name
      // Unique when no other element has that role and name (the target itself may still be hidden, waiting to show).
      if (!under(home).some((element) => element !== target && roleMatches(element, role, name))) facts.unique.push("role")
    }
  }
  // Generated selectors are searched in the top document only.
  if (home !== document) return { found: true, element: facts }
  const chosen = generate(target, false, false) ?? cssFallback(target)
  const selector = joined(chosen)
  facts.selector = selector
  const matched = matchAll(chosen)
  if (matched.length === 1 && matched[0] === target) facts.unique.push("selector")
  return { found: true, element: facts }
}
