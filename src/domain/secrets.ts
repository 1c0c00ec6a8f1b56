// Secrets by name: the strict dotenv format of --secrets files, and the redaction that keeps their values
// out of everything the server says or writes. Pure; the file is read by the CLI, the service is
// services/Secrets.ts.

/** A secret's name: what `type {secret: NAME}` and replay placeholders use. */
export const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/

/** Values shorter than this could not be scrubbed from responses without mangling them. */
export const MIN_SECRET_LENGTH = 3

export type DotenvResult =
  | { readonly ok: true; readonly entries: ReadonlyMap<string, string> }
  | { readonly ok: false; readonly line: number; readonly problem: string }

const ESCAPES: Readonly<Record<string, string>> = { n: "\n", r: "\r", t: "\t", '"': '"', "\\": "\\" }

/**
 * Parses a dotenv file strictly: `NAME=value` a line, `export ` allowed before it, `#` comments and
 * blank lines, values bare (trimmed; ` #` starts a comment), in single quotes (literal) or double
 * quotes (\n \r \t \" \\ escapes), one line each. A problem names its line, never a value.
 */
export const parseDotenv = (text: string): DotenvResult => {
  const entries = new Map<string, string>()
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/)
  for (const [index, raw] of lines.entries()) {
    const line = index + 1
    const trimmed = raw.trim()
    if (trimmed === "" || trimmed.startsWith("#")) continue
    const match = /^(?:export\s+)?([^=\s]+)\s*=\s*(.*)$/.exec(trimmed)
    if (match === null) return { ok: false, line, problem: "is not NAME=value" }
    const name = match[1]!
    const rest = match[2]!
    if (!SECRET_NAME.test(name)) return { ok: false, line, problem: "has a name that is not letters, digits and _ (starting with a letter or _)" }
    if (entries.has(name)) return { ok: false, line, problem: `repeats the name ${name}` }
    let value: string
    if (rest.startsWith("'")) {
      const end = rest.indexOf("'", 1)
      if (end < 0 || !/^\s*(?:#.*)?$/.test(rest.slice(end + 1))) return { ok: false, line, problem: "has an unterminated or trailing single-quoted value" }
      value = rest.slice(1, end)
    } else if (rest.startsWith('"')) {
      let out = ""
      let at = 1
      let closed = false
      while (at < rest.length) {
        const char = rest[at]!
        if (char === '"') {
          closed = true
          break
        }
        if (char === "\\") {
          const escaped = ESCAPES[rest[at + 1] ?? ""]
          if (escaped === undefined) return { ok: false, line, problem: "has an unknown escape in a double-quoted value" }
          out += escaped
          at += 2
          continue
        }
        out += char
        at += 1
      }
      if (!closed || !/^\s*(?:#.*)?$/.test(rest.slice(at + 1))) return { ok: false, line, problem: "has an unterminated or trailing double-quoted value" }
      value = out
    } else {
      value = rest.replace(/\s+#.*$/, "").trim()
      if (/["']/.test(value)) return { ok: false, line, problem: "has a quote inside an unquoted value; quote the whole value" }
    }
    if (value.length < MIN_SECRET_LENGTH) {
      return { ok: false, line, problem: `has a value shorter than ${MIN_SECRET_LENGTH} characters, which could not be kept out of responses` }
    }
    entries.set(name, value)
  }
  return { ok: true, entries }
}

/** What stands in for a secret's value wherever it would have appeared. */
export const secretMarker = (name: string) => `[secret:${name}]`

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&")

/** A hexadecimal number matched in either case: "2f" as [2][fF]. */
const hexPattern = (value: number, width = 2) =>
  [...value.toString(16).toUpperCase().padStart(width, "0")].map((digit) => (/[A-F]/.test(digit) ? `[${digit}${digit.toLowerCase()}]` : digit)).join("")

const JSON_ESCAPES: Readonly<Record<string, string>> = { '"': '\\\\"', "\\": "\\\\\\\\", "/": "\\\\/", "\n": "\\\\n", "\r": "\\\\r", "\t": "\\\\t", "\b": "\\\\b", "\f": "\\\\f" }
const HTML_NAMED: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;", "\u00a0": "&nbsp;" }

/**
 * One character as every reversible text form can write it, one character at a time, so mixed forms
 * match too (encodeURI leaves some characters as they are, a browser's URL escapes others): as is;
 * percent-encoded (its UTF-8 bytes, either case, once or twice: %2520), %uXXXX; "+" for a space (form
 * encoding); an HTML character reference (named, decimal, hexadecimal); a JSON or JavaScript escape.
 */
const characterForms = (character: string): string => {
  const code = character.codePointAt(0)!
  const bytes = [...new TextEncoder().encode(character)]
  const units = Array.from({ length: character.length }, (_, at) => character.charCodeAt(at))
  const forms = [
    escapeRegExp(character),
    bytes.map((byte) => `%(?:25)?${hexPattern(byte)}`).join(""),
    units.map((unit) => `%[uU]${hexPattern(unit, 4)}`).join(""),
    units.map((unit) => `\\\\u${hexPattern(unit, 4)}`).join(""),
    `&#0*${code};`,
    `&#[xX]0*${hexPattern(code, 1)};`,
    ...(character === " " ? ["\\+"] : []),
    ...(JSON_ESCAPES[character] !== undefined ? [JSON_ESCAPES[character]!] : []),
    ...(HTML_NAMED[character] !== undefined ? [escapeRegExp(HTML_NAMED[character]!), ...(character === "'" ? ["&#39;"] : [])] : []),
    ...(code < 0x100 && bytes.length === 1 ? [`\\\\x${hexPattern(code)}`] : []),
    // A browser's URL parser turns a backslash into a slash in a path.
    ...(character === "\\" ? ["/"] : [])
  ]
  // ...and drops tabs and line breaks.
  return `(?:${forms.join("|")})${/[\t\n\r]/.test(character) ? "?" : ""}`
}

/**
 * The value one character at a time. Whitespace at either end may be missing: a browser trims it from a
 * URL (and trimmed text is common), unless what is left would be too short to look for.
 */
const valuePattern = (value: string): string => {
  const characters = [...value]
  const core = value.trim()
  if (core.length < MIN_SECRET_LENGTH || core.length === value.length) return characters.map(characterForms).join("")
  const lead = [...value.slice(0, value.indexOf(core))]
  const trail = [...value.slice(value.indexOf(core) + core.length)]
  const optional = (run: ReadonlyArray<string>) => (run.length === 0 ? "" : `(?:${run.map(characterForms).join("")})?`)
  return `${optional(lead)}${[...core].map(characterForms).join("")}${optional(trail)}`
}

const base64 = (bytes: ReadonlyArray<number>) => btoa(String.fromCharCode(...bytes))
const urlSafe = (text: string) => text.replace(/\+/g, "-").replace(/\//g, "_")

/**
 * The value's bytes as base64 wherever they sit in the encoded data: for each of the three alignments,
 * the characters its bytes alone decide (plus the whole encoding of the value alone, padding and all),
 * standard and URL-safe; and as hexadecimal in either case.
 */
const binaryForms = (value: string): ReadonlyArray<string> => {
  const bytes = [...new TextEncoder().encode(value)]
  const forms: Array<string> = []
  const whole = base64(bytes)
  forms.push(whole, whole.replace(/=+$/, ""))
  for (const offset of [0, 1, 2]) {
    const encoded = base64([...Array<number>(offset).fill(0), ...bytes])
    forms.push(encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6)))
  }
  const hex = bytes.map((byte) => byte.toString(16).padStart(2, "0")).join("")
  forms.push(...forms.map(urlSafe), hex, hex.toUpperCase())
  // Short binary forms would match ordinary words.
  return [...new Set(forms)].filter((form) => form.length >= MIN_ENCODED_LENGTH)
}

/** Binary forms shorter than this are not looked for (a 3-character value is 4 base64 characters). */
const MIN_ENCODED_LENGTH = 4

/**
 * The value as a browser writes it into a URL a page built with it raw: white space, quotes, "<", ">",
 * controls and non-ASCII characters percent-encoded (their UTF-8 bytes), the rest as it is.
 */
const browserUrlForm = (value: string): string =>
  [...value]
    .map((character) =>
      /[\x00-\x20"'<>`\x7f-\u{10ffff}]/u.test(character)
        ? [...new TextEncoder().encode(character)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`).join("")
        : character
    )
    .join("")

/** The value written whole in the common encodings: what a cut may leave the beginning of. */
const literalForms = (value: string): ReadonlyArray<string> => [
  ...new Set([
    value,
    browserUrlForm(value),
    encodeURIComponent(value),
    encodeURI(value),
    new URLSearchParams({ v: value }).toString().slice(2),
    JSON.stringify(value).slice(1, -1),
    value.replace(/[&<>"']/g, (character) => (character === "'" ? "&#39;" : HTML_NAMED[character]!))
  ])
]

/**
 * Where a cut ends what it kept: our "…" and "...", and the page's own; and a marker right before one:
 * another value's beginning there may have taken the end of this one's (--secrets are redacted before the
 * typed values), so what is left before the marker is looked at too.
 */
const CUT_OR_MARKER = /…|\.\.\.|\[secret:[A-Za-z0-9_]{1,70}\](?=…|\.\.\.)/g

interface Prefixes {
  readonly marker: string
  readonly form: string
  /** For each character, the lengths of this form's beginnings that end with it, longest first. */
  readonly endingWith: ReadonlyMap<string, ReadonlyArray<number>>
  readonly shortest: number
}

const prefixesOf = (form: string, marker: string, shortest: number): Prefixes => {
  const endingWith = new Map<string, Array<number>>()
  for (let length = form.length - 1; length >= shortest; length--) {
    const last = form[length - 1]!
    const lengths = endingWith.get(last)
    if (lengths === undefined) endingWith.set(last, [length])
    else lengths.push(length)
  }
  return { marker, form, endingWith, shortest }
}

/** The longest beginning of a secret's form that ends right at `end` of the text, as its marker and length. */
const cutSecretAt = (
  text: string,
  end: number,
  minimum: number,
  prefixes: ReadonlyArray<Prefixes>
): { readonly marker: string; readonly length: number } | undefined => {
  const last = text[end - 1]
  if (last === undefined) return undefined
  let best: { marker: string; length: number } | undefined
  for (const prefix of prefixes) {
    for (const length of prefix.endingWith.get(last) ?? []) {
      if (length > end || length < minimum || (best !== undefined && length <= best.length)) continue
      if (text.startsWith(prefix.form.slice(0, length), end - length)) {
        best = { marker: prefix.marker, length }
        break
      }
    }
  }
  return best
}

/**
 * What a cut inside one character's form leaves of it: the first of its UTF-8 bytes percent-encoded and a
 * cut one ("%C3", "%E2%82", "%2", "%25"), "%u00", a JSON escape ("\\u00", "\\ud83d\\u", "\\"), an HTML
 * reference ("&", "&#3", "&#x2", "&am"). Counted as part of a beginning only after a whole character.
 */
const PARTIAL_FORM =
  "(?:(?:%(?:25)?[C-Fc-f][0-9A-Fa-f](?:%(?:25)?[89ABab][0-9A-Fa-f]){0,2})?(?:%(?:25?)?[0-9A-Fa-f]?)?" +
  "|%[uU][0-9A-Fa-f]{4}(?:%[uU]?[0-9A-Fa-f]{0,3})?|%[uU][0-9A-Fa-f]{0,3}" +
  "|\\\\u[0-9A-Fa-f]{4}(?:\\\\u?[0-9A-Fa-f]{0,3})?|\\\\(?:u[0-9A-Fa-f]{0,3}|x[0-9A-Fa-f]?)?" +
  "|&(?:#[xX]?[0-9A-Fa-f]{0,6}|[A-Za-z]{1,5})?)?"

/** A beginning of this many characters is a secret's whatever follows it up to the cut: no ordinary text begins like one. */
const TELLING_CHARACTERS = 12

/**
 * A pattern of every beginning of the value a cut can leave, one character at a time in any of its forms
 * (characterForms: any mix of URL encodings, HTML references, JSON and JavaScript escapes), the last
 * maybe cut inside its form: C1 C2 (C3 (C4 ... | partial) | partial), as nested groups built from the end. Past
 * its first TELLING_CHARACTERS characters, anything up to the cut is taken as the rest of it (the pattern
 * stays small however long the value).
 */
const beginningPattern = (value: string): string => {
  const characters = [...value].slice(0, TELLING_CHARACTERS)
  let rest = characters.length === [...value].length ? PARTIAL_FORM : "[^]*"
  for (let index = characters.length - 1; index >= 2; index--) rest = `(?:${characterForms(characters[index]!)}${rest}|${PARTIAL_FORM})`
  // Two whole characters at least: one and a piece of a form ("8%A") is too common to be a value's (and would
  // take the place of another value's beginning there, which its own redaction then no longer finds).
  return characters.slice(0, 2).map(characterForms).join("") + (characters.length > 2 ? rest : "")
}

/**
 * For the secrets (longest first), a function that finds the longest beginning of one, in any mix of its
 * character forms, that ends right at `end` of the text and starts at or after `from`: its marker and length.
 * Only the `reach` characters before `end` are looked at (no form of a value is longer).
 */
const beginningsEndingAt = (secrets: ReadonlyArray<readonly [string, string]>, markers: ReadonlyArray<string>, reach: number) => {
  const alternatives = secrets.flatMap(([, value], index) => {
    const trimmed = value.trimStart()
    const starts = trimmed.length > 0 && trimmed !== value ? [value, trimmed] : [value]
    return starts.map((start) => ({ start, pattern: beginningPattern(start), marker: markers[index]! }))
  })
  // Every form of a first character starts with it or with one of a few characters: checked before the rest (fast).
  const firsts = new Set(["%", "&", "\\", "+", "/"])
  for (const { start } of alternatives) firsts.add([...start][0]!)
  const lookahead = [...firsts].some((character) => /[\t\n\r]/.test(character))
    ? ""
    : `(?=[${[...firsts].map((character) => character.replace(/[\]\\^-]/g, "\\$&")).join("")}])`
  // The leftmost match that reaches the end is the longest beginning; the first alternative wins a tie (the longer value).
  const pattern = new RegExp(`${lookahead}(?:${alternatives.map(({ pattern }) => `(${pattern})`).join("|")})$`)
  return (text: string, end: number, from: number): { readonly marker: string; readonly length: number } | undefined => {
    const start = Math.max(from, end - reach)
    const found = pattern.exec(text.slice(start, end))
    if (found === null) return undefined
    const index = found.findIndex((group, at) => at > 0 && group !== undefined)
    return { marker: alternatives[index - 1]!.marker, length: found[0].length }
  }
}

/** For each secret's literal and binary forms, the beginnings a cut may leave of them. */
const prefixTable = (secrets: ReadonlyArray<readonly [string, string]>, markers: ReadonlyArray<string>): ReadonlyArray<Prefixes> =>
  secrets.flatMap(([, value], index) => [
    ...literalForms(value).map((form) => prefixesOf(form, markers[index]!, 1)),
    ...binaryForms(value).map((form) => prefixesOf(form, markers[index]!, MIN_ENCODED_LENGTH))
  ])

/**
 * A function that replaces every secret value in a text by its marker, in every reversible form a page
 * or a tool can give it: as typed; URL-encoded in any mix (encodeURIComponent, encodeURI, a browser's
 * own escaping of a raw value, form encoding, twice-encoded); HTML character references; JSON and
 * JavaScript escapes; base64 (standard and URL-safe, at any alignment) and hexadecimal of its UTF-8
 * bytes. And the beginning of a value that a cut ("…", "...") ended, so a cut never shows part of one.
 * Longer values first, so a value that contains another is replaced whole. The patterns are built once.
 */
export const makeTextRedactor = (entries: ReadonlyMap<string, string>): ((text: string) => string) => {
  const secrets = [...entries].sort((a, b) => b[1].length - a[1].length)
  if (secrets.length === 0) return (text) => text
  const markers = secrets.map(([name]) => secretMarker(name))
  // Every form starts with one of a few characters: the engine checks that class before trying them.
  const starts = new Set(["%", "&", "\\", "+", "/"])
  for (const [, value] of secrets) {
    for (const character of value.trim().slice(0, 1) + value.slice(0, 1)) starts.add(character)
    for (const form of binaryForms(value)) starts.add(form[0]!)
  }
  const pattern = new RegExp(
    `(?=[${[...starts].map((character) => character.replace(/[\]\\^-]/g, "\\$&")).join("")}])(?:` +
    secrets
      .map(([, value]) => {
        const characters = valuePattern(value)
        const binary = [...binaryForms(value)].sort((a, b) => b.length - a.length).map(escapeRegExp)
        return `(${[characters, ...binary].join("|")})`
      })
      .join("|") + ")",
    "g"
  )
  const prefixes = prefixTable(secrets, markers)
  const beginnings = beginningsEndingAt(secrets, markers, 32 * Math.max(...secrets.map(([, value]) => value.length)))
  const replaceCutSecrets = (text: string): string => {
    let out = ""
    let from = 0
    // Where the text after the previous cut mark starts: a beginning is looked for in any mix of forms only there.
    let after = 0
    for (const mark of text.matchAll(CUT_OR_MARKER)) {
      // "..." is common in ordinary text: only a beginning of three characters or more counts before it.
      const minimum = mark[0] === "…" || text[mark.index + mark[0].length] === "…" ? 1 : 3
      // Nor does one start inside a marker already put there.
      const marker = text.lastIndexOf("[secret:", mark.index - 1)
      const start = Math.max(from, after, marker < 0 ? 0 : text.indexOf("]", marker) + 1)
      after = mark.index + mark[0].length
      const literal = cutSecretAt(text, mark.index, minimum, prefixes)
      const mixed = beginnings(text, mark.index, start)
      const found = mixed !== undefined && mixed.length >= minimum && (literal === undefined || mixed.length > literal.length) ? mixed : literal
      if (found === undefined || mark.index - found.length < Math.max(from, marker < 0 ? 0 : start)) continue
      out += text.slice(from, mark.index - found.length) + found.marker
      from = mark.index
    }
    return from === 0 ? text : out + text.slice(from)
  }
  return (text) => {
    pattern.lastIndex = 0
    const whole = text.replace(pattern, (...groups: Array<unknown>) => {
      for (let index = 0; index < markers.length; index++) if (groups[index + 1] !== undefined) return markers[index]!
      return String(groups[0])
    })
    return whole.includes("…") || whole.includes("...") ? replaceCutSecrets(whole) : whole
  }
}

/** The names values typed into secret fields go by, in order: `typed`, `typed_2`, ... */
export const typedSecretName = (index: number) => (index === 0 ? "typed" : `typed_${index + 1}`)

/** What ends a URL in a text: a browser's URL escapes white space, '"', "<" and ">" (it may leave "'" and "`"). */
const URL_END = /[\s"<>]/

/** Where, in a URL's query or fragment, a value a page spliced in raw may have been split: before "&", "#", ";" and at its end. */
const URL_SPLIT = /[&#;]|$/g

/** A beginning of a value split off in a URL is its marker only from this many characters on. */
const MIN_SPLIT_LENGTH = 4

/**
 * A function that replaces, in every query and fragment of the URLs of a text, each value typed into a
 * secret field (a password a GET form sent, a value a page put into its URL) by its marker: in every form
 * makeTextRedactor knows, and a beginning of 4 characters or more of one that a "&", "#" or the URL's end
 * split off (a page that spliced the raw value into its URL). Only from a URL's first "?", "#" or "&" (where
 * an HTML-escaped one starts) on: the value in a page's words, a test id or a path is the page's own.
 * Linear in the text: each URL is found from its "?" or "#" outwards.
 */
export const makeUrlTailRedactor = (values: ReadonlyArray<string>): ((text: string) => string) => {
  const secrets = [...new Set(values.filter((value) => value.length >= MIN_SECRET_LENGTH))]
    .map((value, index) => [typedSecretName(index), value] as const)
    .sort((a, b) => b[1].length - a[1].length)
  if (secrets.length === 0) return (text) => text
  const redact = makeTextRedactor(new Map(secrets))
  const markers = secrets.map(([name]) => secretMarker(name))
  const prefixes = prefixTable(secrets, markers)
  const forms = secrets.map(([, value]) => literalForms(value))
  /** The marker of the value a piece between two splits is the middle of (its own "&" or "#" split it on both sides). */
  const middleOf = (piece: string) => {
    if (piece.length < MIN_SPLIT_LENGTH || piece.includes("[secret:")) return undefined
    const index = forms.findIndex((written) => written.some((form) => form.includes(piece)))
    return index < 0 ? undefined : markers[index]
  }
  const scrubTail = (tail: string): string => {
    const whole = redact(tail)
    let out = ""
    let from = 0
    // Where the piece before each split starts: just after the split before it.
    let start = 0
    for (const split of whole.matchAll(URL_SPLIT)) {
      const pieceStart = start
      start = split.index + 1
      const found = cutSecretAt(whole, split.index, MIN_SPLIT_LENGTH, prefixes)
      const prefix = found === undefined || split.index - found.length < from ? undefined : found
      const middle = prefix === undefined && pieceStart >= from ? middleOf(whole.slice(pieceStart, split.index)) : undefined
      if (prefix !== undefined) out += whole.slice(from, split.index - prefix.length) + prefix.marker
      else if (middle !== undefined) out += whole.slice(from, pieceStart) + middle
      else continue
      from = split.index
    }
    return from === 0 ? whole : out + whole.slice(from)
  }
  return (text) => {
    let out = ""
    let from = 0
    for (let at = 0; at < text.length; at++) {
      if (text[at] !== "?" && text[at] !== "#") continue
      let start = at
      while (start > from && !URL_END.test(text[start - 1]!)) start--
      let end = at + 1
      while (end < text.length && !URL_END.test(text[end]!)) end++
      const tail = start + text.slice(start, end).search(/[?#&]/)
      out += text.slice(from, tail) + scrubTail(text.slice(tail, end))
      from = end
      at = end
    }
    return from === 0 ? text : out + text.slice(from)
  }
}

/**
 * The redactor of values typed into secret fields (password fields, and text kept out of the step
 * records), as makeTextRedactor does for --secrets values: each as [secret:typed], [secret:typed_2]...
 * in every form anywhere in a text (page text, a request body, a console message), and the pieces of one
 * a page spliced raw into a URL, which its own "&" or "#" split (makeUrlTailRedactor).
 */
export const makeTypedRedactor = (values: ReadonlyArray<string>): ((text: string) => string) => {
  const distinct = [...new Set(values.filter((value) => value.length >= MIN_SECRET_LENGTH))]
  if (distinct.length === 0) return (text) => text
  const redact = makeTextRedactor(new Map(distinct.map((value, index) => [typedSecretName(index), value] as const)))
  const inUrls = makeUrlTailRedactor(distinct)
  return (text) => inUrls(redact(text))
}

/**
 * How far past a cut a secret's form can reach: redacting the first `limit` + reach characters of a text
 * redacts every form that starts before `limit` (no form writes a character in more than 32).
 */
export const redactionReach = (entries: ReadonlyMap<string, string>): number =>
  32 * Math.max(0, ...[...entries.values()].map((value) => value.length))

/**
 * The first `limit` characters of `text` with the secrets' values out of them, then cut, never inside a
 * marker: only as much of a long text is redacted as the cut can keep. The kept text and the length cut off.
 */
export const redactThenCut = (
  text: string,
  limit: number,
  redact: (text: string) => string,
  reach: number
): { readonly kept: string; readonly more: number } => {
  const redacted = redact(text.length > limit + reach ? text.slice(0, limit + reach) : text)
  if (redacted.length <= limit && text.length <= limit + reach) return { kept: redacted, more: 0 }
  const kept = cutRedacted(redacted, limit)
  return { kept, more: Math.max(1, text.length - kept.length) }
}

/**
 * The first `limit` characters of an already redacted text, never ending inside a secret's marker: a
 * cut that would fall inside "[secret:NAME]" falls before it. Cut after redacting, never before.
 */
export const cutRedacted = (text: string, limit: number): string => {
  if (text.length <= limit) return text
  const open = text.lastIndexOf("[secret:", limit - 1)
  if (open >= 0 && open + "[secret:".length < text.length) {
    const close = text.indexOf("]", open)
    if (close >= limit) return text.slice(0, open)
  }
  return text.slice(0, limit)
}

/** A copy of a JSON-like value with every string (and key) scrubbed by `redactText`. */
export const redactValue = (redactText: (text: string) => string, value: unknown): unknown => {
  if (typeof value === "string") return redactText(value)
  if (Array.isArray(value)) return value.map((item) => redactValue(redactText, item))
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {}
    for (const [key, inner] of Object.entries(value)) out[redactText(key)] = redactValue(redactText, inner)
    return out
  }
  return value
}
