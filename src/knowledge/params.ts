// A param's recorded text where later steps repeat it (a check of the text read, a target named by it, a URL
// the flow ended on): a replay puts the value it types there, and a Playwright export the expression of the
// test's variable, so that both check what the run typed. One rule, two renderings.
import type { Placeholder, Recipe } from "../domain/knowledge.js"
import { escapeRegex } from "../domain/text.js"

/** The forms a typed text takes in later steps' arguments, in this order: as typed, in a URL (percent-encoded), and with + for spaces. */
export const textForms = (text: string): readonly [string, string, string] => {
  const encoded = encodeURIComponent(text)
  return [text, encoded, encoded.replace(/%20/g, "+")]
}

/**
 * How a param's recorded text changes in the steps after the one that typed it: for each placeholder, what
 * its three text forms (see textForms) become; undefined leaves it as recorded.
 */
export type ParamForms = (placeholder: Placeholder) => readonly [string, string, string] | undefined

const WORD = "[\\p{L}\\p{N}_]"

/**
 * For each step (by index), how a value in its arguments follows the params: only whole occurrences of a
 * recorded text (not inside a longer word) change, in the steps after the first that typed the param; a
 * regex literal (`/…/`, the end check's URL) changes in its escaped form; a placeholder (`{{name}}`) stays.
 * Texts that hold no param's recorded text, and every step before the typing, stay as recorded.
 */
export const paramFollower = (
  steps: ReadonlyArray<{ readonly args: Readonly<Record<string, unknown>> }>,
  recipe: Recipe,
  forms: ParamForms
): ((index: number, value: unknown) => unknown) => {
  const changes = recipe.placeholders.flatMap((placeholder) => {
    const to = forms(placeholder)
    const typedAt = steps.findIndex((step) => step.args.text === `{{${placeholder.name}}}`)
    return placeholder.default === undefined || placeholder.default.trim() === "" || to === undefined || typedAt < 0
      ? []
      : [{ from: placeholder.default, to, typedAt }]
  })
  const replacer = (active: typeof changes, regex: boolean) => {
    const pairs = new Map<string, string>()
    for (const change of active) {
      textForms(change.from).forEach((from, index) => {
        const key = regex ? escapeRegex(from) : from
        // A text whose forms are the same (no space, nothing to encode) changes as typed.
        if (!pairs.has(key)) pairs.set(key, regex ? escapeRegex(change.to[index]!) : change.to[index]!)
      })
    }
    const sources = [...pairs.keys()].sort((a, b) => b.length - a.length).map(escapeRegex)
    const pattern = new RegExp(`(?<!${WORD})(?:${sources.join("|")})(?!${WORD})`, "gu")
    return (text: string) => text.replace(pattern, (found) => pairs.get(found) ?? found)
  }
  const followers = steps.map((_, index) => {
    const active = changes.filter((change) => change.typedAt < index)
    if (active.length === 0) return undefined
    const plain = replacer(active, false)
    const inRegex = replacer(active, true)
    const follow = (value: unknown): unknown =>
      typeof value === "string"
        ? /^\{\{.+\}\}$/.test(value)
          ? value
          : /^\/.*\/[a-z]*$/s.test(value)
            ? inRegex(value)
            : plain(value)
        : Array.isArray(value)
          ? value.map(follow)
          : typeof value === "object" && value !== null
            ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, follow(inner)]))
            : value
    return follow
  })
  return (index, value) => followers[index]?.(value) ?? value
}

/** The steps with their arguments following the params (see paramFollower); the name of a param (`param`) is not its text. */
export const followParams = <Step extends { readonly args: Readonly<Record<string, unknown>> }>(
  steps: ReadonlyArray<Step>,
  recipe: Recipe,
  forms: ParamForms
): ReadonlyArray<Step> => {
  const follow = paramFollower(steps, recipe, forms)
  return steps.map((step, index) => {
    const { param, ...rest } = step.args
    return { ...step, args: { ...(follow(index, rest) as Record<string, unknown>), ...(param !== undefined ? { param } : {}) } }
  })
}

// ---- in a Playwright export -------------------------------------------------------------------------

/**
 * An export follows the params with marks (private-use characters, which recorded text does not hold) that
 * name the param and the form; once the lines are written, each string or regex literal holding a mark
 * becomes an expression of the test's variable.
 */
const MARK = /\uE000([012])([^\uE001]*)\uE001/gu
const markOf = (name: string, form: number) => `\uE000${form}${name}\uE001`

/** The export's forms: a mark for each (see renderParams). */
export const markedForms: ParamForms = (placeholder) => [markOf(placeholder.name, 0), markOf(placeholder.name, 1), markOf(placeholder.name, 2)]

/** A JS double-quoted string literal, or a regex literal. */
const LITERAL = /"(?:[^"\\\n]|\\.)*"|\/(?![/*])(?:[^/\\\n[]|\\.|\[(?:[^\]\\\n]|\\.)*\])+\/[dgimsuvy]*/g

/** What turns a text into regex source that matches it (escapeRegex, written into the test). */
const ESCAPED_FOR_REGEX = ".replace(/[.*+?^${}()|[\\]\\\\]/g, \"\\\\$&\")"

/**
 * A written line with its marks as expressions of the test's variables: `value(name)` is the expression of
 * the value typed (the variable, or the recorded text); a URL form is encoded as the flow's URLs were; in a
 * regex literal the value is escaped and the literal becomes `new RegExp(...)`. In a comment a mark reads
 * `{{name}}`.
 */
export const renderParams = (line: string, value: (name: string) => string): string => {
  if (!line.includes("\uE000")) return line
  const form = (name: string, which: string) =>
    which === "0" ? value(name) : which === "1" ? `encodeURIComponent(${value(name)})` : `encodeURIComponent(${value(name)}).replace(/%20/g, "+")`
  /** The pieces of a text with marks, as a concatenation: its texts as string literals, its marks as `mark(name, form)`. */
  const concat = (text: string, mark: (name: string, which: string) => string) => {
    const parts: Array<string> = []
    let at = 0
    for (const found of text.matchAll(MARK)) {
      if (found.index > at) parts.push(JSON.stringify(text.slice(at, found.index)))
      parts.push(mark(found[2]!, found[1]!))
      at = found.index + found[0].length
    }
    if (at < text.length) parts.push(JSON.stringify(text.slice(at)))
    return parts.length === 1 ? parts[0]! : `(${parts.join(" + ")})`
  }
  if (line.trimStart().startsWith("//")) return line.replace(MARK, (_found, _which, name: string) => `{{${name}}}`)
  return line.replace(LITERAL, (literal) => {
    if (!literal.includes("\uE000")) return literal
    if (literal.startsWith('"')) return concat(JSON.parse(literal) as string, form)
    const end = literal.lastIndexOf("/")
    const flags = literal.slice(end + 1)
    const source = concat(literal.slice(1, end), (name, which) => `${form(name, which)}${ESCAPED_FOR_REGEX}`)
    return `new RegExp(${source}${flags === "" ? "" : `, ${JSON.stringify(flags)}`})`
  })
}
