// What get_text read, kept so that a recorded flow can check it again: a replay compares the text it reads
// with it (get_text's `expected`), and a Playwright export writes `expect(locator).toHaveText(...)`.
// Short texts are kept whole and checked exactly (after whitespace is collapsed, as Playwright's
// toHaveText does); a longer text keeps its beginning and is checked with "contains". Nothing that may be
// a secret is kept: a password field's value is never read, and a field that looks secret is not recorded.
import type { StepTarget } from "../domain/knowledge.js"
import { looksSensitive, REDACTED } from "../domain/redaction.js"
import { collapseWhitespace, cutAtWord } from "../domain/text.js"

export const READ_LIMITS = {
  /** A text up to this long (whitespace collapsed) is kept whole and checked exactly. */
  exactChars: 200,
  /** A longer one keeps this many characters of its beginning (cut at a space), checked with "contains". */
  prefixChars: 120,
  /** With `all`: at most this many texts are kept, each short enough to be kept whole; else none is. */
  texts: 50
} as const

/** Roles whose get_text reads a field's value (an input, text area or select), checked with toHaveValue. */
const VALUE_ROLES: ReadonlySet<string> = new Set(["textbox", "searchbox", "spinbutton", "combobox", "listbox", "slider"])

/** The recorded fields of a read: `read` (a text or the texts), `readContains` when only its beginning was kept. */
export interface RecordedRead {
  readonly read?: string | ReadonlyArray<string>
  readonly readContains?: true
}

/** Values the step memory replaced (a typed secret, a --secrets value): never something to check for. */
export const holdsSecret = (text: string) => text.includes(REDACTED) || /\[secret:[^\]]*\]/.test(text)

/** True when a target's names say it holds a secret (its test id, selector, scope, label or role name). */
export const targetLooksSecret = (target: StepTarget | undefined): boolean =>
  target !== undefined &&
  [target.testId, target.selector, target.within, target.a11yHint?.name, target.element?.testId, target.element?.name, target.element?.selector].some(looksSensitive)

/** True when get_text read the target's value (a field), by the role the record gives it. */
export const readsValue = (target: StepTarget | undefined): boolean => {
  const role = target?.element?.role ?? target?.a11yHint?.role
  return role !== undefined && VALUE_ROLES.has(role)
}

/** What to record of a single text read; nothing for a secret or an empty text. A field's value is kept as it is. */
export const recordRead = (text: string, target: StepTarget | undefined): RecordedRead => {
  if (targetLooksSecret(target) || holdsSecret(text)) return {}
  if (readsValue(target)) return text === "" || text.length > READ_LIMITS.exactChars ? {} : { read: text }
  const collapsed = collapseWhitespace(text)
  if (collapsed === "") return {}
  if (collapsed.length <= READ_LIMITS.exactChars) return { read: collapsed }
  return { read: cutAtWord(collapsed, READ_LIMITS.prefixChars), readContains: true }
}

/** What to record of the texts of every match (`all`): all of them whole, or nothing. */
export const recordReads = (texts: ReadonlyArray<string>, more: number, target: StepTarget | undefined): RecordedRead => {
  if (targetLooksSecret(target) || more > 0 || texts.length === 0 || texts.length > READ_LIMITS.texts) return {}
  const collapsed = texts.map(collapseWhitespace)
  if (collapsed.some((text) => holdsSecret(text) || text.length > READ_LIMITS.exactChars)) return {}
  return { read: collapsed }
}

/** Whether the text (or texts) read now matches what was recorded. */
export const readMatches = (expected: string | ReadonlyArray<string>, contains: boolean, actual: string | ReadonlyArray<string>): boolean => {
  if (typeof expected === "string") {
    if (typeof actual !== "string") return false
    const now = collapseWhitespace(actual)
    return contains ? now.includes(collapseWhitespace(expected)) : now === collapseWhitespace(expected)
  }
  if (typeof actual === "string" || actual.length !== expected.length) return false
  return expected.every((text, index) => collapseWhitespace(actual[index]!) === collapseWhitespace(text))
}

/**
 * The Playwright assertion for a recorded read: `toHaveText` (innerText, as get_text reads it) for an
 * element's text, `toContainText` for a long text's beginning, `toHaveValue` for a field, and
 * `toHaveText([...])` for the texts of every match.
 */
export const readAssertion = (locator: string, expected: string | ReadonlyArray<string>, contains: boolean, target: StepTarget | undefined): string => {
  const value = JSON.stringify(expected)
  if (typeof expected !== "string") return `await expect(${locator}).toHaveText(${value}, { useInnerText: true })`
  if (!contains && readsValue(target)) return `await expect(${locator}).toHaveValue(${value})`
  return `await expect(${locator}).${contains ? "toContainText" : "toHaveText"}(${value}, { useInnerText: true })`
}
