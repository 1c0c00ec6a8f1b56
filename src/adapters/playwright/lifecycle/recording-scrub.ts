// Keeping secrets out of a session's recorded files before they appear: every --secrets value, every
// value a password field held (read from the trace's own DOM snapshots) and every text a call typed that
// the server kept out of its records, in every form the redactor knows, in every text entry of a trace
// and in every string of a HAR; and the credentials of every request and response (Authorization, Cookie,
// Set-Cookie, token and key headers, cookie values) in both, and the cookies and stored values a call read
// or set through the context (mm_storage, storage states). Pure functions over the files' contents.
import { MIN_SECRET_LENGTH, makeTextRedactor, makeUrlTailRedactor, redactValue, typedSecretName } from "../../../domain/secrets.js"
import { isSensitiveKey, REDACTED } from "../../../domain/redaction.js"
import type { SecretsService } from "../../../services/Secrets.js"
import type { ZipEntry } from "../../zip.js"

/** Attributes in which Playwright's DOM snapshots keep a field's current value. */
const VALUE_ATTRIBUTES = ["__playwright_value_", "value"] as const

type SnapshotNode = string | ReadonlyArray<unknown>

const attributesOf = (node: ReadonlyArray<unknown>): Record<string, unknown> | undefined => {
  const second = node[1]
  return typeof second === "object" && second !== null && !Array.isArray(second) ? (second as Record<string, unknown>) : undefined
}

const isPasswordField = (tag: string, attributes: Record<string, unknown>) =>
  tag.toUpperCase() === "INPUT" && typeof attributes.type === "string" && attributes.type.toLowerCase() === "password"

/** Walks a snapshot's node tree; calls `visit` with each element's tag and attributes (which it may change). */
const walkElements = (node: SnapshotNode, visit: (tag: string, attributes: Record<string, unknown>) => void): void => {
  if (!Array.isArray(node) || typeof node[0] !== "string") return
  const attributes = attributesOf(node)
  if (attributes !== undefined) visit(node[0], attributes)
  for (let index = attributes === undefined ? 1 : 2; index < node.length; index++) walkElements(node[index] as SnapshotNode, visit)
}

/** Walks a snapshot's node tree; calls `visit` with each password field's attributes (which it may change). */
const walkPasswordFields = (node: SnapshotNode, visit: (attributes: Record<string, unknown>) => void): void =>
  walkElements(node, (tag, attributes) => {
    if (isPasswordField(tag, attributes)) visit(attributes)
  })

/**
 * True when a field's value is part of a secret typed into it: a snapshot taken while the secret was
 * being typed (the direct input path inserts all but the last character, then presses that one) holds
 * its beginning, which no redaction of the whole value finds.
 */
const isPartOfSecret = (value: string, secrets: ReadonlySet<string>) =>
  value.length >= MIN_SECRET_LENGTH && [...secrets].some((secret) => secret !== value && secret.startsWith(value))

/** A JSON line of trace.trace, parsed, or undefined when it is not JSON. */
const parseLine = (line: string): Record<string, any> | undefined => {
  try {
    const value = JSON.parse(line) as unknown
    return typeof value === "object" && value !== null ? (value as Record<string, any>) : undefined
  } catch {
    return undefined
  }
}

/** Every value a password field held in the trace's DOM snapshots. */
export const passwordValuesIn = (entries: ReadonlyArray<ZipEntry>): ReadonlySet<string> => {
  const values = new Set<string>()
  for (const entry of entries) {
    if (!entry.name.endsWith(".trace")) continue
    for (const line of Buffer.from(entry.data).toString("utf8").split("\n")) {
      if (!line.includes('"frame-snapshot"')) continue
      const event = parseLine(line)
      if (event?.type !== "frame-snapshot") continue
      walkPasswordFields(event.snapshot?.html, (attributes) => {
        for (const key of VALUE_ATTRIBUTES) if (typeof attributes[key] === "string" && attributes[key] !== "") values.add(attributes[key])
      })
    }
  }
  return values
}

/**
 * The redactor of a session's files: the --secrets values under their own names, and the values that
 * were typed into password fields (or kept out of the step records) as [secret:typed]. Values shorter
 * than a secret may be are left to the structural passes (a password field's value, an action's text).
 */
export const artifactRedactor = (secrets: SecretsService, typed: Iterable<string>): ((text: string) => string) => {
  const entries = new Map<string, string>()
  for (const name of secrets.names) {
    const value = secrets.lookup(name)
    if (value._tag === "Some") entries.set(name, value.value)
  }
  const known = new Set(entries.values())
  let count = 0
  for (const value of typed) {
    if (value.length < MIN_SECRET_LENGTH || known.has(value)) continue
    known.add(value)
    count++
    entries.set(typedSecretName(count - 1), value)
  }
  const redact = makeTextRedactor(entries)
  // And pieces of a typed value a page spliced raw into a URL, which its own "&" or "#" split (makeUrlTailRedactor).
  const inUrls = makeUrlTailRedactor([...typed])
  return (text) => inUrls(redact(text))
}

const decoder = new TextDecoder("utf-8", { fatal: true })

/** The entry as text, or undefined for binary data (screenshots, images, fonts). */
const textOf = (data: Uint8Array): string | undefined => {
  try {
    const text = decoder.decode(data)
    return text.includes("\u0000") ? undefined : text
  } catch {
    return undefined
  }
}

/** Action parameters that carry text the page was given (fill, type, insertText, pressSequentially). */
const TEXT_PARAMS = ["value", "text"] as const

/** Keys under which Playwright's calls carry a context's stored state (cookies(), storageState(), addCookies()). */
const STORAGE_KEYS = ["cookies", "localStorage", "sessionStorage", "indexedDB"] as const
/** The keys of a stored item that hold its value. */
const STORED_VALUE_KEYS = new Set(["value", "valueEncoded"])

/** Blanks every stored value under `node` (an item of cookies, local or session storage, IndexedDB records); true when it changed. */
const blankStoredValues = (node: unknown, depth = 0): boolean => {
  if (typeof node !== "object" || node === null || depth > 16) return false
  let changed = false
  for (const [key, value] of Object.entries(node)) {
    if (STORED_VALUE_KEYS.has(key) && value !== REDACTED && value !== undefined) {
      ;(node as Record<string, unknown>)[key] = REDACTED
      changed = true
    } else if (blankStoredValues(value, depth + 1)) changed = true
  }
  return changed
}

/** Finds the stored-state arrays anywhere in a trace event (a call's params or result) and blanks their values; true when it changed. */
const blankStorageIn = (node: unknown, depth = 0): boolean => {
  if (typeof node !== "object" || node === null || depth > 16) return false
  let changed = false
  for (const [key, value] of Object.entries(node)) {
    if ((STORAGE_KEYS as ReadonlyArray<string>).includes(key) && typeof value === "object" && value !== null) {
      if (blankStoredValues(value)) changed = true
    } else if (blankStorageIn(value, depth + 1)) changed = true
  }
  return changed
}

/** A JSON string literal inside a text. */
const QUOTED = /"(?:[^"\\]|\\.)*"/g

/** The value of a JSON string literal, or undefined when it is none. */
const unquote = (quoted: string): string | undefined => {
  try {
    return JSON.parse(quoted) as string
  } catch {
    return undefined
  }
}

/**
 * One trace.trace line with the values of password fields blanked in its snapshots, the text of an
 * action that typed one of the sensitive values replaced, whatever its length, a secret's beginning
 * blanked in a field's value, an action's text and Playwright's log of it, and every cookie and
 * stored value a call read or set (cookies(), storageState(), addCookies()) blanked.
 */
const scrubTraceLine = (line: string, sensitive: ReadonlySet<string>, secrets: ReadonlySet<string>): string => {
  const storage = STORAGE_KEYS.some((key) => line.includes(`"${key}"`))
  const typing = secrets.size > 0 && (TEXT_PARAMS.some((key) => line.includes(`"${key}"`)) || line.includes('"type":"log"'))
  const mayHold = storage || line.includes('"frame-snapshot"') || typing
  if (!mayHold) return line
  const event = parseLine(line)
  if (event === undefined) return line
  let changed = storage && event.type !== "frame-snapshot" && blankStorageIn(event)
  if (event.type === "frame-snapshot") {
    walkElements(event.snapshot?.html, (tag, attributes) => {
      const password = isPasswordField(tag, attributes)
      for (const key of VALUE_ATTRIBUTES) {
        const value = attributes[key]
        if (typeof value === "string" && value !== "" && (password || isPartOfSecret(value, secrets))) {
          attributes[key] = REDACTED
          changed = true
        }
      }
    })
  }
  // Playwright's own log of an action quotes its text: `fill("Tr0ub4dor-and-")`.
  if (event.type === "log" && typeof event.message === "string") {
    const message = event.message.replace(QUOTED, (quoted: string) => {
      const value = unquote(quoted)
      return value !== undefined && (sensitive.has(value) || isPartOfSecret(value, secrets)) ? JSON.stringify(REDACTED) : quoted
    })
    if (message !== event.message) {
      event.message = message
      changed = true
    }
  }
  const params = event.params as Record<string, unknown> | undefined
  if (typeof params === "object" && params !== null) {
    for (const key of TEXT_PARAMS) {
      const value = params[key]
      if (typeof value === "string" && (sensitive.has(value) || isPartOfSecret(value, secrets))) {
        params[key] = REDACTED
        changed = true
      }
    }
  }
  return changed ? JSON.stringify(event) : line
}

/** Headers that carry credentials whatever their value looks like (as Chrome's sanitized HAR drops them). */
const CREDENTIAL_HEADER = /^(?:authorization|proxy-authorization|cookie|set-cookie)$/i

/** A HAR-shaped request or response with its credentials' values replaced: those headers and every cookie's value. Changes it in place; true when it changed. */
const blankCredentials = (message: unknown): boolean => {
  if (typeof message !== "object" || message === null) return false
  const { headers, cookies } = message as { headers?: unknown; cookies?: unknown }
  let changed = false
  for (const header of Array.isArray(headers) ? headers : []) {
    if (typeof header?.name === "string" && (CREDENTIAL_HEADER.test(header.name) || isSensitiveKey(header.name)) && header.value !== REDACTED) {
      header.value = REDACTED
      changed = true
    }
  }
  for (const cookie of Array.isArray(cookies) ? cookies : []) {
    if (typeof cookie === "object" && cookie !== null && "value" in cookie && cookie.value !== REDACTED) {
      cookie.value = REDACTED
      changed = true
    }
  }
  return changed
}

/** A HAR entry (or a trace's resource snapshot) without credentials in its request and response. */
const blankEntryCredentials = (entry: unknown): boolean => {
  if (typeof entry !== "object" || entry === null) return false
  const { request, response } = entry as { request?: unknown; response?: unknown }
  const inRequest = blankCredentials(request)
  return blankCredentials(response) || inRequest
}

/** A trace.network line with the credentials of its resource snapshot blanked and its query parameters scrubbed. */
const scrubNetworkLine = (line: string, redact: (text: string) => string): string => {
  if (!line.includes('"resource-snapshot"')) return line
  const event = parseLine(line)
  if (event === undefined || event.type !== "resource-snapshot") return line
  blankEntryCredentials(event.snapshot)
  scrubQueryValues(event.snapshot, redact)
  return JSON.stringify(event)
}

/**
 * A trace's entries with no secret left in any text entry; binary entries (screenshots) as they were.
 * `secrets`: every value whose beginning a field's value in a snapshot must not be (the --secrets values
 * and `sensitive`, the texts typed that the records kept out).
 */
export const scrubTrace = (
  entries: ReadonlyArray<ZipEntry>,
  redact: (text: string) => string,
  sensitive: ReadonlySet<string>,
  secrets: ReadonlySet<string> = sensitive
): ReadonlyArray<ZipEntry> =>
  entries.map((entry) => {
    const text = textOf(entry.data)
    if (text === undefined) return entry
    const structural = entry.name.endsWith(".trace")
      ? text.split("\n").map((line) => scrubTraceLine(line, sensitive, secrets)).join("\n")
      : entry.name.endsWith(".network")
        ? text.split("\n").map((line) => scrubNetworkLine(line, redact)).join("\n")
        : text
    const scrubbed = redact(structural)
    return scrubbed === text ? entry : { name: entry.name, data: Buffer.from(scrubbed, "utf8") }
  })

/**
 * A HAR entry's query parameters, each scrubbed as the tail of a URL: a value a page spliced in raw is split
 * into several by its own "&", and each piece is a piece of a URL's query. Changes it in place.
 */
const scrubQueryValues = (entry: unknown, redact: (text: string) => string): void => {
  const query = (entry as { request?: { queryString?: unknown } } | null)?.request?.queryString
  for (const parameter of Array.isArray(query) ? query : []) {
    if (typeof parameter?.value !== "string" || parameter.value === "") continue
    const scrubbed = redact(`?${parameter.value}`)
    parameter.value = scrubbed.startsWith("?") ? scrubbed.slice(1) : scrubbed
  }
}

/**
 * A HAR (its JSON text) without credentials (Authorization, Cookie and Set-Cookie headers, headers named
 * like a token or key, cookie values) and with every string scrubbed, keys included, embedded bodies (text or base64) too.
 */
export const scrubHar = (text: string, redact: (text: string) => string): string => {
  const har = JSON.parse(text) as { log?: { entries?: unknown } }
  for (const entry of Array.isArray(har.log?.entries) ? har.log.entries : []) {
    blankEntryCredentials(entry)
    scrubQueryValues(entry, redact)
  }
  return JSON.stringify(redactValue(redact, har), null, 1)
}
