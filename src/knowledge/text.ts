// Words of the step memory: tokenization, identifier splitting and synonym groups, shared by the
// index, the full-scan baseline and every query so they can never disagree.

const STOPWORDS: ReadonlySet<string> = new Set([
  "a", "an", "the", "to", "from", "in", "on", "at", "for", "with", "and", "or", "but", "is", "are", "was", "were",
  "be", "been", "flow", "test", "should", "can", "will", "do", "does", "did", "have", "has", "had", "this", "that",
  "these", "those", "it", "mm", "mcp", "lw"
])

/** Canonical word first, then its siblings; a member of a group brings the whole group. */
const SYNONYM_GROUPS: ReadonlyArray<ReadonlyArray<string>> = [
  ["send", "transfer", "pay"],
  ["receive", "deposit"],
  ["approve", "confirm", "accept", "allow"],
  ["reject", "deny", "cancel", "decline"],
  ["unlock", "login", "signin"],
  ["connect", "link", "authorize"],
  ["swap", "exchange", "trade"],
  ["sign", "signature"]
]

const synonymsOf: ReadonlyMap<string, ReadonlyArray<string>> = new Map(
  SYNONYM_GROUPS.flatMap((group) => group.map((word) => [word, group] as const))
)

const keep = (token: string) => token.length >= 2 && !STOPWORDS.has(token)

/** Lower-case words of free text: split on anything not a letter or digit, short words and stopwords dropped. */
export const tokenize = (text: string): Array<string> => text.toLowerCase().split(/[^a-z0-9]+/).filter(keep)

const isLower = (code: number) => code >= 97 && code <= 122
const isUpper = (code: number) => code >= 65 && code <= 90
const isDigit = (code: number) => code >= 48 && code <= 57

/**
 * The identifier with a space at every camelCase boundary: after a lower-case letter or digit before an
 * upper-case letter ("confirmButton"), and before the last capital of a run of capitals followed by a
 * lower-case letter ("XMLHttp"). One pass, so a run of a million capitals costs a million steps (the two
 * regular expressions this replaces backtracked over the whole run from every position in it).
 */
const splitCamelCase = (text: string): string => {
  let out = ""
  let copied = 0
  let runStart = -1
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (isUpper(code)) {
      if (runStart < 0) {
        runStart = i
        const previous = i > 0 ? text.charCodeAt(i - 1) : -1
        if (isLower(previous) || isDigit(previous)) {
          out += text.slice(copied, i) + " "
          copied = i
        }
      }
      continue
    }
    if (runStart >= 0 && isLower(code) && i - runStart >= 2) {
      out += text.slice(copied, i - 1) + " "
      copied = i - 1
    }
    runStart = -1
  }
  return copied === 0 ? text : out + text.slice(copied)
}

/**
 * Words of an identifier (test id, tool name, selector, label): camelCase and acronyms are split too,
 * so `XMLHttpRequest` gives xml, http, request and `confirmButton` gives confirm, button. Linear in the input.
 */
export const tokenizeIdentifier = (text: string): Array<string> => tokenize(splitCamelCase(text))

/** The most characters of one value (a URL, a name, a selector) that the index reads: the rest says nothing more. */
export const INDEXED_CHARS = 256

/** A value as the index keeps it: its first INDEXED_CHARS characters. */
export const indexedText = (value: string): string => (value.length <= INDEXED_CHARS ? value : value.slice(0, INDEXED_CHARS))

/** The most characters of a session's goal and of one tag that answers show. */
export const SHOWN_CHARS = { goal: 300, tag: 100 } as const

/** A value as responses and reports show it: at most `limit` characters, an ellipsis saying that more was cut. */
export const clipText = (value: string, limit = 300): string => (value.length <= limit ? value : `${value.slice(0, limit)}…`)

/** Identifier words of several values, each word once. */
export const identifierWords = (values: ReadonlyArray<string | undefined>): Array<string> => {
  const words = new Set<string>()
  for (const value of values) if (value !== undefined) for (const word of tokenizeIdentifier(value)) words.add(word)
  return [...words]
}

/**
 * A query as groups: one per distinct query word, holding the word and its synonyms. Scoring counts a
 * group once per field, so a word with synonyms never weighs more than a word without.
 */
export const queryGroups = (query: string): Array<ReadonlyArray<string>> => {
  const seen = new Set<string>()
  const groups: Array<ReadonlyArray<string>> = []
  for (const word of tokenizeIdentifier(query)) {
    if (seen.has(word)) continue
    seen.add(word)
    const synonyms = synonymsOf.get(word)
    groups.push(synonyms === undefined ? [word] : [word, ...synonyms.filter((other) => other !== word)])
  }
  return groups
}

/** Every word a query brings, synonyms included (for the response, so an agent sees what was searched). */
export const expandedWords = (groups: ReadonlyArray<ReadonlyArray<string>>): Array<string> => [...new Set(groups.flat())]

/**
 * Whether a query word matches a field word: equal, or a prefix of at least three letters
 * ("confirm" finds "confirmation"); short prefixes would match almost everything.
 */
export const wordMatches = (fieldWord: string, queryWord: string): boolean =>
  fieldWord === queryWord || (queryWord.length >= 3 && fieldWord.startsWith(queryWord))
