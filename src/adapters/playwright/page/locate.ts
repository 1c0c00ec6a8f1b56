// Finding a direct action's target the way Playwright would for the simple cases (a ref, a test id, a
// plain CSS selector, an unquoted `text=` selector for waits); anything else answers "not ready", so
// that the caller hands it to Playwright.
import { renamedRef } from "./told-names.js"
import type { DirectArgs, DirectLocator, DirectResult } from "./types.js"
import { isLiveElement as isLive } from "./visibility.js"

export const notReady = (why: string, staleRef = false): DirectResult => (staleRef ? { ready: false, why, staleRef } : { ready: false, why })

/** Composed ancestry inside one document: whether `inner` is `outer` or lies inside it, crossing shadow roots upwards. */
export const within = (inner: Node, outer: Node): boolean => {
  let node: Node | null = inner
  while (node) {
    if (node === outer) return true
    node = node.parentNode ?? ((node as ShadowRoot).host as Node | undefined) ?? null
  }
  return false
}

const isValidCss = (css: string): boolean => {
  try {
    document.createDocumentFragment().querySelector(css)
    return true
  } catch {
    return false
  }
}

const SKIP_TEXT = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE"])

// As Playwright's: zero-width spaces and soft hyphens do not count, whitespace runs are one space.
const normalize = (text: string) =>
  text
    .replace(/[\u200b\u00ad]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase()

/** What one lookup reads once: open shadow roots per document, elements' text. */
interface Lookup {
  readonly testIdAttribute: string
  readonly shadows: Map<Document, Array<ShadowRoot>>
  readonly texts: Map<Element, string>
}

/** Open shadow roots of a document, nested ones too. */
const openShadowRoots = (lookup: Lookup, doc: Document): Array<ShadowRoot> => {
  let roots = lookup.shadows.get(doc)
  if (roots === undefined) {
    roots = []
    const pending: Array<Document | ShadowRoot> = [doc]
    while (pending.length > 0) {
      for (const element of pending.pop()!.querySelectorAll("*")) {
        if (element.shadowRoot) {
          roots.push(element.shadowRoot)
          pending.push(element.shadowRoot)
        }
      }
    }
    lookup.shadows.set(doc, roots)
  }
  return roots
}

const elementText = (lookup: Lookup, element: Element): string => {
  const cached = lookup.texts.get(element)
  if (cached !== undefined) return cached
  let text = ""
  for (let child = element.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === Node.TEXT_NODE) text += child.nodeValue ?? ""
    else if (child.nodeType === Node.ELEMENT_NODE && !SKIP_TEXT.has(child.nodeName)) text += elementText(lookup, child as Element)
  }
  lookup.texts.set(element, text)
  return text
}

/** Playwright's lax text engine: the deepest elements whose text contains the needle. */
const byText = (lookup: Lookup, needle: string): Array<Element> => {
  const found: Array<Element> = []
  const visit = (element: Element) => {
    if (SKIP_TEXT.has(element.nodeName) || element.nodeName === "INPUT") return
    if (!normalize(elementText(lookup, element)).includes(needle)) return
    let childMatched = false
    for (const child of element.children) {
      if (SKIP_TEXT.has(child.nodeName)) continue
      if (normalize(elementText(lookup, child)).includes(needle)) childMatched = true
      visit(child)
    }
    if (!childMatched) found.push(element)
  }
  if (document.body) visit(document.body)
  return found
}

const refElement = (value: string): Element | undefined => {
  const element: Element | undefined = (window as any)[Symbol.for("browser-workflow-mcp")]?.byRef.get(value)
  return element !== undefined && isLive(element) ? element : undefined
}

/** The elements a test id, selector or text names inside the scopes (all in `doc`), or why this path cannot tell. */
const resolve = (lookup: Lookup, locator: DirectLocator, doc: Document, scopes: ReadonlyArray<ParentNode>): Array<Element> | DirectResult => {
  if (locator.kind === "selector" && locator.value.startsWith("text=")) {
    const body = locator.value.slice(5).trim()
    // Quoted, regular-expression and chained text selectors mean more than a substring: Playwright's.
    if (body === "" || /^["'/]/.test(body) || body.includes(">>") || scopes.length !== 1 || scopes[0] !== document) {
      return notReady("text selector")
    }
    if (openShadowRoots(lookup, document).length > 0) return notReady("shadow roots")
    const needle = normalize(body)
    // Playwright also matches submit, reset and button inputs by their value.
    for (const input of document.querySelectorAll("input[type=submit i], input[type=reset i], input[type=button i]")) {
      if (normalize((input as HTMLInputElement).value).includes(needle)) return notReady("button value")
    }
    return byText(lookup, needle)
  }
  const css =
    locator.kind === "testId"
      ? `[${lookup.testIdAttribute}="${locator.value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"]`
      : locator.value
  if (!isValidCss(css)) return notReady("not plain CSS")
  const shadows = openShadowRoots(lookup, doc)
  // Playwright's CSS crosses open shadow roots, combinators included: only a lone attribute is safe to repeat per root.
  if (shadows.length > 0 && locator.kind !== "testId") return notReady("shadow roots")
  // A scoped query with combinators may match through ancestors outside the scope in CSS, not in Playwright.
  if (scopes[0] !== doc && /[\s>+~]/.test(css) && locator.kind !== "testId") return notReady("scoped combinator")
  const found = new Set<Element>()
  for (const scope of scopes) {
    for (const element of scope.querySelectorAll(css)) found.add(element)
    for (const root of shadows) {
      if (!within(root, scope)) continue
      for (const element of root.querySelectorAll(css)) found.add(element)
    }
  }
  return [...found]
}

/**
 * The elements the action's locator names (inside its scope, when it has one), or why this path cannot
 * tell. Refs first: a ref names its element wherever it is, and the rest of the target is resolved in its document.
 */
export const findTargets = (args: Pick<DirectArgs, "locator" | "within" | "testIdAttribute" | "viewer">): Array<Element> | DirectResult => {
  const lookup: Lookup = { testIdAttribute: args.testIdAttribute, shadows: new Map(), texts: new Map() }
  const targetByRef = args.locator.kind === "a11yRef" ? refElement(args.locator.value) : undefined
  if (args.locator.kind === "a11yRef" && targetByRef === undefined) return notReady("stale ref", true)
  // A ref whose element now shows another name than the client was told: Playwright's path says so (targets.ts).
  if (targetByRef !== undefined && args.viewer !== undefined && renamedRef((window as any)[Symbol.for("browser-workflow-mcp")], args.locator.value, args.viewer, false)) {
    return notReady("renamed ref", true)
  }
  const scopeByRef = args.within?.kind === "a11yRef" ? refElement(args.within.value) : undefined
  if (args.within?.kind === "a11yRef" && scopeByRef === undefined) return notReady("stale ref", true)
  if (targetByRef !== undefined && scopeByRef !== undefined && targetByRef.ownerDocument !== scopeByRef.ownerDocument) {
    return notReady("the target and its scope are in different frames")
  }
  const doc = (targetByRef ?? scopeByRef)?.ownerDocument ?? document

  let scopes: ReadonlyArray<ParentNode> = [doc]
  if (args.within !== null) {
    const parents = scopeByRef !== undefined ? [scopeByRef] : resolve(lookup, args.within, doc, scopes)
    if (!Array.isArray(parents)) return parents
    if (parents.length === 0) return notReady("no scope")
    scopes = parents
  }
  if (targetByRef !== undefined) return scopes.some((scope) => within(targetByRef, scope)) ? [targetByRef] : []
  return resolve(lookup, args.locator, doc, scopes)
}
