// What an action's target was, in forms that survive a new page load: its test id, its role and exact
// accessible name (as getByRole finds it, computed by the walk's own name code), and a selector generated
// the way Playwright's code generator does (test id, role and name, placeholder, label, text, then short
// CSS, nested in a parent when that makes it unique). Each form is checked against the page as it is at
// that moment, with the semantics of the Playwright engine that will read it later; only forms that
// match exactly this element are marked unique.
import type { AriaTests, DescribeArgs, Described, DescribeLocator, ElementFacts } from "./types.js"
import { isLiveElement as isLive } from "./visibility.js"

/** Runs in the page: the durable forms of the target element (see the file comment). */
export const describeTarget = (args: DescribeArgs, aria: AriaTests | null): Described => {
  const started = performance.now()
  const overBudget = () => performance.now() - started > args.budgetMs
  const registry = (window as any)[Symbol.for("browser-workflow-mcp")]

  // ---- Elements as Playwright's engines see them: the document and its open shadow roots ----
  const parentOf = (element: Element): Element | null =>
    element.parentElement ?? ((element.parentNode as ShadowRoot | null)?.host as Element | undefined) ?? null
  /** Descendants of a scope in the order Playwright's CSS engine lists them (light DOM first, then each shadow root). */
  const underCache = new Map<Node, Array<Element>>()
  const under = (scope: Document | Element): Array<Element> => {
    let found = underCache.get(scope)
    if (found === undefined) {
      const list: Array<Element> = []
      const visit = (root: Document | Element | ShadowRoot) => {
        const inner = Array.from(root.querySelectorAll("*"))
        for (const element of inner) list.push(element)
        if ((root as Element).shadowRoot) visit((root as Element).shadowRoot!)
        for (const element of inner) if (element.shadowRoot) visit(element.shadowRoot)
      }
      visit(scope)
      found = list
      underCache.set(scope, found)
    }
    return found
  }
  const inside = (outer: Element, inner: Element): boolean => {
    for (let node: Element | null = inner; node !== null; node = parentOf(node)) if (node === outer) return true
    return false
  }
  const cssMatches = (element: Element, css: string): boolean => {
    try {
      return element.matches(css)
    } catch {
      return false
    }
  }

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
  // Test ids and selectors name elements of the top document (as Playwright's page locators do).
  if (target.ownerDocument !== document) return { found: false, why: "the element is inside a frame" }

  // ---- Text as Playwright's text engines read it ----
  const normalize = (text: string) => text.replace(/\u200b/g, "").trim().replace(/\s+/g, " ")
  const skipsText = (element: Element) =>
    element.nodeName === "SCRIPT" || element.nodeName === "NOSCRIPT" || element.nodeName === "STYLE" || (document.head !== null && document.head.contains(element))
  const texts = new Map<Node, string>()
  const fullText = (node: Element | ShadowRoot): string => {
    let text = texts.get(node)
    if (text === undefined) {
      text = ""
      if (!(node.nodeType === 1 && skipsText(node as Element))) {
        const input = node as HTMLInputElement
        if (node.nodeName === "INPUT" && (input.type === "submit" || input.type === "button" || input.type === "reset")) text = input.value
        else {
          for (let child = node.firstChild; child; child = child.nextSibling) {
            if (child.nodeType === 3) text += child.nodeValue ?? ""
            else if (child.nodeType === 1) text += fullText(child as Element)
          }
          if ((node as Element).shadowRoot) text += fullText((node as Element).shadowRoot!)
        }
      }
      texts.set(node, text)
    }
    return text
  }
  const normalized = new Map<Node, string>()
  const textOf = (node: Element | ShadowRoot): string => {
    let text = normalized.get(node)
    if (text === undefined) {
      text = normalize(fullText(node))
      normalized.set(node, text)
    }
    return text
  }
  /** internal:text with an exact value: the element's text is the value and none of its children's alone is. */
  const exactTextMatch = (element: Element, value: string): boolean => {
    if (skipsText(element) || textOf(element) !== value) return false
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) if (textOf(child) === value) return false
    return !(element.shadowRoot && textOf(element.shadowRoot) === value)
  }
  // Labels per control, from one pass over the label elements (Chromium's `labels` may walk the document per call).
  let labelMap: Map<Element, Array<Element>> | undefined
  const labelsOf = (element: Element): Array<Element> => {
    if (labelMap === undefined) {
      labelMap = new Map()
      for (const label of under(document).filter((candidate) => candidate.localName === "label")) {
        const control = (label as HTMLLabelElement).control
        if (control === null) continue
        const list = labelMap.get(control) ?? []
        list.push(label)
        labelMap.set(control, list)
      }
    }
    return labelMap.get(element) ?? []
  }
  /** Playwright's label texts of an element: aria-labelledby, else aria-label, else its label elements. */
  const labelTexts = (element: Element): Array<string> => {
    const labelledBy = element.getAttribute("aria-labelledby")
    if (labelledBy !== null) {
      const root = element.getRootNode() as Document | ShadowRoot
      const refs = labelledBy
        .split(" ")
        .filter((id) => id !== "")
        .map((id) => root.getElementById?.(id) ?? null)
        .filter((found): found is HTMLElement => found !== null)
      if (refs.length > 0) return [...new Set(refs)].map((ref) => textOf(ref))
    }
    const ariaLabel = element.getAttribute("aria-label")
    if (ariaLabel !== null && ariaLabel.trim() !== "") return [normalize(ariaLabel)]
    const labelable =
      ["BUTTON", "METER", "OUTPUT", "PROGRESS", "SELECT", "TEXTAREA"].includes(element.nodeName) ||
      (element.nodeName === "INPUT" && (element as HTMLInputElement).type !== "hidden")
    return labelable ? labelsOf(element).map((label) => textOf(label)) : []
  }

  // ---- Roles and names: the walk's own ----
  const roleOf = (element: Element): string | null => (aria === null ? null : aria.roleOf(element))
  const nameOf = (element: Element, role: string): string => (aria === null ? "" : aria.nameOf(element, role))
  /** As getByRole(role, {name, exact: true}): the role, not hidden for assistive technology, exactly this name (or any without one). */
  const roleMatches = (element: Element, role: string, name: string | undefined): boolean =>
    aria !== null && roleOf(element) === role && !aria.hidden(element) && (name === undefined || nameOf(element, role) === name)
  /** A name cut by the walk's cap cannot be matched exactly. */
  const exactName = (name: string) => name !== "" && !name.endsWith("…")

  // ---- Selector tokens ----
  interface Token {
    /** The token in Playwright's selector syntax. */
    readonly text: string
    /** query: finds descendants of the current elements; filter: keeps the current elements that pass. */
    readonly kind: "query" | "filter" | "nth"
    readonly test: (element: Element) => boolean
    score: number
    readonly index?: number
  }
  const quoteAttr = (value: string) => `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`
  const quoteCss = (value: string) => `"${value.replace(/[\\"]/g, "\\$&").replace(/\n/g, "\\a ")}"`
  const cssIdent = (value: string) => (typeof CSS !== "undefined" && CSS.escape ? CSS.escape(value) : value)
  const tagOf = (element: Element) => element.localName.replace(/[:.]/g, "\\$&")
  const css = (selector: string, score: number): Token => ({ text: selector, kind: "query", test: (element) => cssMatches(element, selector), score })
  const byRole = (role: string, name: string | undefined, score: number): Token => ({
    text: name === undefined ? `internal:role=${role}` : `internal:role=${role}[name=${quoteAttr(name)}s]`,
    kind: "query",
    test: (element) => roleMatches(element, role, name),
    score
  })
  const hasText = (value: string, score: number): Token => {
    const lower = value.toLowerCase()
    return { text: `internal:has-text=${JSON.stringify(value)}i`, kind: "filter", test: (element) => textOf(element).toLowerCase().includes(lower), score }
  }
  const nth = (index: number): Token => ({ text: `nth=${index}`, kind: "nth", test: () => true, score: 10_000, index })

  /** Ids that look generated (many changes between letters and digits) are not durable. */
  const guidLike = (id: string): boolean => {
    let last = ""
    let changes = 0
    for (const c of id) {
      if (c === "-" || c === "_") continue
      const kind = c >= "a" && c <= "z" ? "lower" : c >= "A" && c <= "Z" ? "upper" : c >= "0" && c <= "9" ? "digit" : "other"
      if (kind === "lower" && last === "upper") {
        last = kind
        continue
      }
      if (last !== "" && last !== kind) changes++
      last = kind
    }
    return changes >= id.length / 4
  }
  /** Shorter forms of a long text (Playwright's text alternatives): whole up to 30 characters, else cut at a word boundary. */
  const shortened = (text: string): Array<string> => {
    const cut = (max: number) => {
      if (text.length <= max) return text
      const head = text.slice(0, max)
      const match = /^(.*)\b(.+?)$/.exec(head)
      return match ? match[1]!.trimEnd() : ""
    }
    const out = text.length <= 30 ? [text] : [cut(80), cut(30)]
    return [...new Set(out.filter((alternative) => alternative !== ""))]
  }
  const penalize = (tokens: Array<Token>) => {
    for (const token of tokens) if (token.score > 50 && token.score < 300) token.score += Math.min(10, (token.text.length / 10) | 0)
    return tokens
  }

  /** Candidates that do not read the element's text. */
  const plainCandidates = (element: Element): Array<Array<Token>> => {
    const out: Array<Token> = []
    const testId = element.getAttribute(args.testIdAttribute)
    if (testId) {
      out.push(
        args.testIdAttribute === "data-testid"
          ? { text: `internal:testid=[data-testid=${quoteAttr(testId)}s]`, kind: "query", test: (e) => e.getAttribute("data-testid") === testId, score: 1 }
          : css(`[${args.testIdAttribute}=${quoteCss(testId)}]`, 1)
      )
    }
    for (const attribute of ["data-testid", "data-test-id", "data-test"]) {
      const value = element.getAttribute(attribute)
      if (attribute !== args.testIdAttribute && value) out.push(css(`[${attribute}=${quoteCss(value)}]`, 2))
    }
    const id = element.getAttribute("id")
    if (id && !guidLike(id)) out.push(css(/^[a-zA-Z][a-zA-Z0-9\-_]+$/.test(id) ? `#${id}` : `[id=${quoteCss(id)}]`, 500))
    out.push(css(tagOf(element), 530))
    if (element.nodeName === "INPUT" || element.nodeName === "TEXTAREA") {
      const placeholder = element.getAttribute("placeholder")
      if (placeholder) {
        out.push({
          text: `internal:attr=[placeholder=${quoteAttr(placeholder)}s]`,
          kind: "query",
          test: (e) => e.getAttribute("placeholder") === placeholder,
          score: 125
        })
      }
    }
    for (const label of new Set(labelTexts(element))) {
      if (label === "") continue
      out.push({ text: `internal:label=${JSON.stringify(label)}s`, kind: "query", test: (e) => labelTexts(e).includes(label), score: 145 })
    }
    const role = roleOf(element)
    if (role !== null && role !== "none" && role !== "presentation" && role !== "generic") out.push(byRole(role, undefined, 510))
    const name = element.getAttribute("name")
    if (name && ["BUTTON", "FORM", "FIELDSET", "IFRAME", "INPUT", "OBJECT", "OUTPUT", "SELECT", "TEXTAREA", "MAP"].includes(element.nodeName)) {
      out.push(css(`${tagOf(element)}[name=${quoteCss(name)}]`, 520))
    }
    if ((element.nodeName === "INPUT" || element.nodeName === "TEXTAREA") && element.getAttribute("type") !== "hidden") {
      const type = element.getAttribute("type")
      if (type) out.push(css(`${tagOf(element)}[type=${quoteCss(type)}]`, 520))
    }
    if (["INPUT", "TEXTAREA", "SELECT"].includes(element.nodeName) && element.getAttribute("type") !== "hidden") out.push(css(tagOf(element), 521))
    return penalize(out).map((token) => [token])
  }

  /** Candidates that read the element's text: title, alt, its text, its role and name. */
  const textCandidates = (element: Element, isTarget: boolean): Array<Array<Token>> => {
    if (element.nodeName === "SELECT") return []
    const out: Array<Array<Token>> = []
    const attribute = (name: "title" | "alt", score: number) => {
      const value = element.getAttribute(name)
      if (value) out.push([{ text: `internal:attr=[${name}=${quoteAttr(value)}s]`, kind: "query", test: (e) => e.getAttribute(name) === value, score }])
    }
    attribute("title", 205)
    if (["AREA", "IMG", "INPUT"].includes(element.nodeName)) attribute("alt", 165)
    const text = textOf(element)
    if (text !== "") {
      if (isTarget && text.length <= 80) out.push([{ text: `internal:text=${JSON.stringify(text)}s`, kind: "query", test: (e) => exactTextMatch(e, text), score: 185 }])
      for (const alternative of shortened(text)) out.push([css(tagOf(element), 530), hasText(alternative, 180)])
    }
    const role = roleOf(element)
    if (role !== null && role !== "none" && role !== "presentation" && role !== "generic") {
      const name = nameOf(element, role)
      if (exactName(name)) out.push([byRole(role, name, 105)])
      else for (const alternative of text === "" ? [] : shortened(text)) out.push([byRole(role, undefined, 510), hasText(alternative, 180)])
    }
    for (const tokens of out) penalize(tokens)
    return out
  }

  const combined = (tokens: ReadonlyArray<Token>) => tokens.reduce((sum, token, i) => sum + token.score * (tokens.length - i), 0)
  const joined = (tokens: ReadonlyArray<Token>) => tokens.map((token) => token.text).join(" >> ")

  /** The elements a chain of tokens matches in the document. */
  const matchCache = new Map<string, Array<Element>>()
  const matchAll = (tokens: ReadonlyArray<Token>): Array<Element> => {
    const key = joined(tokens)
    const known = matchCache.get(key)
    if (known !== undefined) return known
    let current: Array<Element> | null = null
    for (const token of tokens) {
      if (token.kind === "nth") current = current === null ? [] : current[token.index!] === undefined ? [] : [current[token.index!]!]
      else if (token.kind === "filter") current = (current ?? []).filter(token.test)
      else {
        const next = new Set<Element>()
        for (const root of current ?? [document]) for (const element of under(root)) if (token.test(element)) next.add(element)
        current = [...next]
      }
    }
    const result = current ?? []
    matchCache.set(key, result)
    return result
  }

  /** CSS from the element up until unique: ids, classes, then the position among its siblings. */
  const cssFallback = (element: Element): Array<Token> => {
    const parts: Array<string> = []
    const unique = (prefix?: string): string | undefined => {
      const selector = (prefix === undefined ? parts : [prefix, ...parts]).join(" > ")
      try {
        return document.querySelector(selector) === element ? selector : undefined
      } catch {
        return undefined
      }
    }
    const strict = (selector: string): Array<Token> => {
      const token = css(selector, 10_000_000)
      const found = matchAll([token])
      return found.length === 1 ? [token] : [token, nth(Math.max(0, found.indexOf(element)))]
    }
    for (let node: Element | null = element; node !== null && node !== document.documentElement; node = node.parentElement) {
      let best = ""
      if (node.id) {
        const token = /^[a-zA-Z][a-zA-Z0-9\-_]+$/.test(node.id) ? `#${node.id}` : `[id=${quoteCss(node.id)}]`
        const found = unique(token)
        if (found) return strict(found)
        best = token
      }
      const parent = node.parentElement
      const classes = Array.from(node.classList, cssIdent)
      for (let i = 0; i < classes.length; i++) {
        const token = "." + classes.slice(0, i + 1).join(".")
        const found = unique(token)
        if (found) return strict(found)
        if (best === "" && parent !== null && parent.querySelectorAll(`:scope > ${token}`).length === 1) best = token
      }
      if (parent !== null) {
        const siblings = Array.from(parent.children)
        const sameTag = siblings.filter((sibling) => sibling.nodeName === node!.nodeName)
        const token = sameTag.indexOf(node) === 0 ? tagOf(node) : `${tagOf(node)}:nth-child(${1 + siblings.indexOf(node)})`
        const found = unique(token)
        if (found) return strict(found)
        if (best === "") best = token
      } else if (best === "") best = tagOf(node)
      parts.unshift(best)
    }
    return strict(parts.length > 0 ? parts.join(" > ") : tagOf(element))
  }

  /** The best-scoring selector for an element: a unique candidate, else one nested in a parent, else one with nth (Playwright's search). */
  const parentTokens = new Map<string, Map<Element, Array<Token> | null>>()
  const generate = (element: Element, nested: boolean, noText: boolean): Array<Token> | null => {
    let best: Array<Token> | null = null
    const consider = (tokens: Array<Token>) => {
      if (best === null || combined(tokens) < combined(best)) best = tokens
    }
    const candidates = [
      ...(noText ? [] : textCandidates(element, !nested).map((tokens) => ({ tokens, text: true }))),
      ...plainCandidates(element).map((tokens) => ({ tokens, text: false }))
    ].sort((a, b) => combined(a.tokens) - combined(b.tokens))
    for (const { tokens, text } of candidates) {
      if (best !== null && overBudget()) break
      const found = matchAll(tokens)
      const index = found.indexOf(element)
      if (index === -1) continue
      if (found.length === 1) {
        consider(tokens)
        break
      }
      if (index > 5) continue
      consider([...tokens, nth(index)])
      if (nested) continue
      for (let parent = parentOf(element); parent !== null; parent = parentOf(parent)) {
        if (overBudget()) break
        const filtered = found.filter((candidate) => candidate !== parent && inside(parent, candidate))
        const newIndex = filtered.indexOf(element)
        if (filtered.length > 5 || newIndex === -1 || (newIndex === index && filtered.length > 1)) continue
        const inParent = filtered.length === 1 ? tokens : [...tokens, nth(newIndex)]
        const ideal: Token = { text: "", kind: "query", test: () => true, score: 1 }
        if (best !== null && combined([ideal, ...inParent]) >= combined(best)) continue
        const key = noText || text ? "plain" : "text"
        const cache = parentTokens.get(key) ?? new Map<Element, Array<Token> | null>()
        parentTokens.set(key, cache)
        let forParent = cache.get(parent)
        if (forParent === undefined) {
          forParent = generate(parent, true, noText || text) ?? cssFallback(parent)
          cache.set(parent, forParent)
        }
        if (forParent !== null) consider([...forParent, ...inParent])
      }
    }
    return best
  }

  // ---- The facts ----
  const facts: ElementFacts = { unique: [] }
  const testId = target.getAttribute(args.testIdAttribute)
  if (testId !== null && testId !== "") {
    facts.testId = testId
    if (under(document).filter((element) => element.getAttribute(args.testIdAttribute) === testId).length === 1) facts.unique.push("testId")
  }
  const role = roleOf(target)
  if (role !== null && role !== "generic" && role !== "none" && role !== "presentation") {
    facts.role = role
    const name = nameOf(target, role)
    if (exactName(name)) {
      facts.name = name
      // Unique when no other element has that role and name (the target itself may still be hidden, waiting to show).
      if (!under(document).some((element) => element !== target && roleMatches(element, role, name))) facts.unique.push("role")
    }
  }
  const tokens = generate(target, false, false) ?? cssFallback(target)
  const selector = joined(tokens)
  facts.selector = selector
  const matched = matchAll(tokens)
  if (matched.length === 1 && matched[0] === target) facts.unique.push("selector")
  return { found: true, element: facts }
}
