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

/**
 * A function that replaces every secret value in a text by its marker: as typed, URL-encoded (a form or
 * query string), form-encoded and JSON-escaped (a value inside logged JSON). Longer values first, so a
 * value that contains another is replaced whole.
 */
export const makeTextRedactor = (entries: ReadonlyMap<string, string>): ((text: string) => string) => {
  const forms: Array<readonly [string, string]> = []
  for (const [name, value] of entries) {
    const marker = secretMarker(name)
    const variants = new Set([
      value,
      encodeURIComponent(value),
      new URLSearchParams({ v: value }).toString().slice(2),
      JSON.stringify(value).slice(1, -1)
    ])
    for (const variant of variants) if (variant.length >= MIN_SECRET_LENGTH) forms.push([variant, marker])
  }
  if (forms.length === 0) return (text) => text
  forms.sort((a, b) => b[0].length - a[0].length)
  return (text) => {
    let out = text
    for (const [variant, marker] of forms) if (out.includes(variant)) out = out.split(variant).join(marker)
    return out
  }
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
