// What an action's target was, in forms that survive a new page load: its test id, its role and exact
// accessible name (as getByRole finds it, computed by the walk's own name code), and a selector generated
// the way Playwright's code generator does (test id, role and name, placeholder, label, text, then short
// CSS, nested in a parent when that makes it unique). Each form is checked against the page as it is at
// that moment, with the semantics of the Playwright engine that will read it later; only forms that
// match exactly this element are marked unique.
import { makeTexts } from "./durable-text.js"
import { makeView } from "./engine-view.js"
import { ENTER_FRAME } from "../../../domain/frames.js"
import { joined, makeSearch, type SelectorSearch } from "./selector-search.js"
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
      // The words are the Node side's cue to ask the cross-origin frames (frames.ts REF_NOT_ON_PAGE).
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
  // Selectors are searched in the document of the element they name (a frame's own, for its elements).
  const searches = new Map<Document, SelectorSearch>()
  const selectorOf = (element: Element): { readonly selector: string; readonly unique: boolean } => {
    const home = element.ownerDocument
    let search = searches.get(home)
    if (search === undefined) {
      search = makeSearch(view, tokens, overBudget, home)
      searches.set(home, search)
    }
    const chosen = search.generate(element, false, false) ?? search.cssFallback(element)
    const matched = search.matchAll(chosen)
    return { selector: joined(chosen), unique: matched.length === 1 && matched[0] === element }
  }

  // ---- The facts ----
  const facts: ElementFacts = { unique: [] }
  // An element of a same-origin iframe (at any depth): its forms name it inside its frame's document, and
  // `frame` names that frame from this document, each frame element by a selector in its own document,
  // joined by Playwright's step into a frame (as `page.locator(frame).contentFrame()` reads it).
  const home: Document = target.ownerDocument
  const framing: Array<string> = []
  for (let inner = home; inner !== document; ) {
    const frame = inner.defaultView?.frameElement ?? null
    if (frame === null) return { found: false, why: "its frame cannot be reached from the page" }
    const named = selectorOf(frame)
    if (!named.unique) return { found: false, why: "no selector names its frame alone" }
    framing.unshift(named.selector)
    inner = frame.ownerDocument
  }
  if (framing.length > 0) facts.frame = framing.join(ENTER_FRAME)
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
  const { selector, unique } = selectorOf(target)
  facts.selector = selector
  if (unique) facts.unique.push("selector")
  return { found: true, element: facts }
}
