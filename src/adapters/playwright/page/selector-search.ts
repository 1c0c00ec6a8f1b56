// The search for a durable selector, as Playwright's code generator does it: the best-scoring unique
// candidate, else one nested in a parent, else one with nth; plain CSS from the element up as the fallback.
import { parentOf } from "./dom.js"
import type { EngineView } from "./engine-view.js"
import type { Token, Tokens } from "./selector-tokens.js"

export const joined = (tokens: ReadonlyArray<Token>) => tokens.map((token) => token.text).join(" >> ")
const combined = (tokens: ReadonlyArray<Token>) => tokens.reduce((sum, token, i) => sum + token.score * (tokens.length - i), 0)

export interface SelectorSearch {
  /** The elements a chain of tokens matches in the search's document. */
  readonly matchAll: (tokens: ReadonlyArray<Token>) => Array<Element>
  readonly cssFallback: (element: Element) => Array<Token>
  readonly generate: (element: Element, nested: boolean, noText: boolean) => Array<Token> | null
}

export const makeSearch = (
  { under, inside }: EngineView,
  { css, nth, quoteCss, cssIdent, tagOf, plainCandidates, textCandidates }: Tokens,
  overBudget: () => boolean,
  /** The document the selectors are for: the top one, or a frame's (whose iframe element a selector of its own names). */
  root: Document = document
): SelectorSearch => {
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
        for (const scope of current ?? [root]) for (const element of under(scope)) if (token.test(element)) next.add(element)
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
        return root.querySelector(selector) === element ? selector : undefined
      } catch {
        return undefined
      }
    }
    const strict = (selector: string): Array<Token> => {
      const token = css(selector, 10_000_000)
      const found = matchAll([token])
      return found.length === 1 ? [token] : [token, nth(Math.max(0, found.indexOf(element)))]
    }
    for (let node: Element | null = element; node !== null && node !== root.documentElement; node = node.parentElement) {
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
  return { matchAll, cssFallback, generate }
}
