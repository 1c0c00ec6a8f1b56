// Candidate selector tokens for an element, scored as Playwright's code generator scores them: test ids,
// ids, placeholders, labels, roles with names, text, then tags and attributes.
import type { EngineView } from "./engine-view.js"
import { isEditingHost } from "./roles.js"
import type { EngineTexts } from "./durable-text.js"
import type { AriaTests, DescribeArgs } from "./types.js"

export interface Token {
  /** The token in Playwright's selector syntax. */
  readonly text: string
  /** query: finds descendants of the current elements; filter: keeps the current elements that pass. */
  readonly kind: "query" | "filter" | "nth"
  readonly test: (element: Element) => boolean
  score: number
  readonly index?: number
}

export interface Tokens {
  readonly roleOf: (element: Element) => string | null
  readonly nameOf: (element: Element, role: string) => string
  /** As getByRole(role, {name, exact: true}): the role, not hidden for assistive technology, exactly this name (or any without one). */
  readonly roleMatches: (element: Element, role: string, name: string | undefined) => boolean
  readonly css: (selector: string, score: number) => Token
  readonly nth: (index: number) => Token
  readonly quoteCss: (value: string) => string
  readonly cssIdent: (value: string) => string
  readonly tagOf: (element: Element) => string
  readonly plainCandidates: (element: Element) => Array<Array<Token>>
  readonly textCandidates: (element: Element, isTarget: boolean) => Array<Array<Token>>
}

/** A name cut by the walk's cap cannot be matched exactly. */
export const exactName = (name: string) => name !== "" && !name.endsWith("…")

export const makeTokens = (args: DescribeArgs, aria: AriaTests | null, { cssMatches }: EngineView, { textOf, exactTextMatch, labelTexts }: EngineTexts): Tokens => {
  // Roles and names: the walk's own, except where the walk follows Chromium past Playwright's role engine
  // (an editing host as a textbox, an editor named by its placeholder): a role selector would find nothing.
  const roleOf = (element: Element): string | null => {
    const role = aria === null ? null : aria.roleOf(element)
    return role === "textbox" && !element.hasAttribute("role") && isEditingHost(element) ? null : role
  }
  const nameOf = (element: Element, role: string): string => {
    if (aria === null) return ""
    const editor = (role === "textbox" || role === "searchbox") && element.localName !== "input" && element.localName !== "textarea"
    if (editor && !["aria-label", "aria-labelledby", "title"].some((attribute) => element.hasAttribute(attribute))) return ""
    return aria.nameOf(element, role)
  }
  /** As getByRole(role, {name, exact: true}): the role, not hidden for assistive technology, exactly this name (or any without one). */
  const roleMatches = (element: Element, role: string, name: string | undefined): boolean =>
    aria !== null && roleOf(element) === role && !aria.hidden(element) && (name === undefined || nameOf(element, role) === name)
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
  return { roleOf, nameOf, roleMatches, css, nth, quoteCss, cssIdent, tagOf, plainCandidates, textCandidates }
}
