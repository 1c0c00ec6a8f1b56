// A file the page downloaded, as answers, step records and mm_downloads show it: pure schemas and the
// few rules every side agrees on (which downloads are finished, what a step record keeps of one).
import { Schema } from "effect"

/** A download not finished (yet) says why; a finished one has no state. */
export const DownloadState = Schema.Literal("in progress", "failed", "too large")
export type DownloadState = typeof DownloadState.Type

export const Download = Schema.Struct({
  name: Schema.String.annotations({ description: "The file's name as the page suggested it." }),
  path: Schema.optional(Schema.String).annotations({ description: "Where it was saved (under <artifacts>/downloads/)." }),
  bytes: Schema.optional(Schema.Number),
  sha256: Schema.optional(Schema.String),
  mime: Schema.optional(Schema.String),
  state: Schema.optional(DownloadState).annotations({ description: "Absent once saved." }),
  error: Schema.optional(Schema.String).annotations({ description: "Why it failed." })
})
export type Download = typeof Download.Type

/**
 * What a step record keeps of a download: enough for a replay to check it (its name; its hash when it
 * finished) and for the report to link the file the step saved.
 */
export const RecordedDownload = Schema.Struct({
  name: Schema.String,
  sha256: Schema.optional(Schema.String),
  bytes: Schema.optional(Schema.Number),
  path: Schema.optional(Schema.String)
})
export type RecordedDownload = typeof RecordedDownload.Type

export const recordedDownload = (download: Download): RecordedDownload => ({
  name: download.name,
  ...(download.sha256 !== undefined ? { sha256: download.sha256 } : {}),
  ...(download.bytes !== undefined ? { bytes: download.bytes } : {}),
  ...(download.path !== undefined ? { path: download.path } : {})
})

/** A response's download fields: `download` for one, `downloads` for several, nothing for none. */
export const downloadFields = (
  downloads: ReadonlyArray<Download>
): { readonly download?: Download; readonly downloads?: ReadonlyArray<Download> } =>
  downloads.length === 0 ? {} : downloads.length === 1 ? { download: downloads[0]! } : { downloads }

/** The most UTF-8 bytes a download's name keeps: a file system takes 255, and " (2)" or a temporary suffix may follow. */
const MAX_NAME_BYTES = 180

const encoder = new TextEncoder()
const utf8Length = (text: string) => encoder.encode(text).length

/** The longest beginning of `text` (whole characters) that is at most `bytes` UTF-8 bytes. */
const withinBytes = (text: string, bytes: number): string => {
  let kept = ""
  let used = 0
  for (const character of text) {
    used += utf8Length(character)
    if (used > bytes) break
    kept += character
  }
  return kept
}

/**
 * A suggested file name as a plain file name: no directory parts, no control characters (C0, C1, line
 * separators, and the bidirectional and invisible formatting marks that can make "txt.exe" read
 * "exe.txt"), no leading dot (never a hidden file, never `..`), at most 150 characters and 180 UTF-8
 * bytes (keeping the extension, never splitting a character); "download" when nothing is left.
 */
export const safeFileName = (suggested: string): string => {
  const base = suggested.split(/[/\\]/).pop() ?? ""
  const name = base
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f:*?"<>|\u2028\u2029]/g, "_")
    .replace(/[\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g, "")
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "_")
    .trim()
    .replace(/^[.\s]+/, "")
  const characters = [...name]
  if (characters.length > 150 || utf8Length(name) > MAX_NAME_BYTES) {
    const dot = name.lastIndexOf(".")
    const extension = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : ""
    const stem = [...name.slice(0, name.length - extension.length)].slice(0, 150 - [...extension].length).join("")
    return withinBytes(stem, MAX_NAME_BYTES - utf8Length(extension)) + extension
  }
  return name === "" ? "download" : name
}

/** The next name to try when `taken` exists: "report.csv" → "report (2).csv" → "report (3).csv". */
export const nextFreeName = (taken: string): string => {
  const dot = taken.lastIndexOf(".")
  const stem = dot > 0 ? taken.slice(0, dot) : taken
  const extension = dot > 0 ? taken.slice(dot) : ""
  const numbered = / \((\d+)\)$/.exec(stem)
  const n = numbered === null ? 2 : Number(numbered[1]) + 1
  return `${numbered === null ? stem : stem.slice(0, numbered.index)} (${n})${extension}`
}

/** Common types by extension, for downloads whose response type the browser does not tell (blob:, most links). */
const TYPES: Readonly<Record<string, string>> = {
  txt: "text/plain",
  csv: "text/csv",
  json: "application/json",
  html: "text/html",
  xml: "application/xml",
  pdf: "application/pdf",
  zip: "application/zip",
  gz: "application/gzip",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  svg: "image/svg+xml",
  webp: "image/webp",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  ics: "text/calendar",
  md: "text/markdown",
  bin: "application/octet-stream"
}

/** The types a file's first bytes prove, by their signature. */
const SIGNATURES: ReadonlyArray<readonly [ReadonlyArray<number | undefined>, string]> = [
  [[0x25, 0x50, 0x44, 0x46, 0x2d], "application/pdf"],
  [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "image/png"],
  [[0xff, 0xd8, 0xff], "image/jpeg"],
  [[0x47, 0x49, 0x46, 0x38], "image/gif"],
  [[0x52, 0x49, 0x46, 0x46, undefined, undefined, undefined, undefined, 0x57, 0x45, 0x42, 0x50], "image/webp"],
  [[0x50, 0x4b, 0x03, 0x04], "application/zip"],
  [[0x1f, 0x8b], "application/gzip"]
]

/** Types that are zip files inside: a zip signature does not contradict them. */
const ZIP_BASED = new Set([TYPES.xlsx, TYPES.docx])

/** The type a file's first bytes prove, or undefined (text and most formats prove nothing). */
export const sniffedMime = (head: Uint8Array): string | undefined =>
  SIGNATURES.find(([signature]) => signature.length <= head.length && signature.every((byte, index) => byte === undefined || head[index] === byte))?.[1]

/** A response's type, without parameters; none for the generic types a server sends when it does not know. */
const declaredMime = (contentType: string | undefined): string | undefined => {
  const type = contentType?.split(";")[0]!.trim().toLowerCase()
  return type === undefined || type === "" || type === "application/octet-stream" || type === "binary/octet-stream" ? undefined : type
}

/**
 * A download's type, from the best evidence there is: the response's Content-Type (the server's word; not
 * a generic one), a data: URL's own type, the file's first bytes (a PDF, an image, a zip), then its extension.
 */
export const mimeOf = (name: string, url: string, evidence: { readonly contentType?: string | undefined; readonly head?: Uint8Array | undefined } = {}): string | undefined => {
  const declared = declaredMime(evidence.contentType)
  if (declared !== undefined) return declared
  const data = /^data:([^;,]+)/i.exec(url)
  if (data !== null) return data[1]!.toLowerCase()
  const dot = name.lastIndexOf(".")
  const byName = dot > 0 ? TYPES[name.slice(dot + 1).toLowerCase()] : undefined
  const sniffed = evidence.head === undefined ? undefined : sniffedMime(evidence.head)
  if (sniffed === "application/zip" && byName !== undefined && ZIP_BASED.has(byName)) return byName
  return sniffed ?? byName
}

/** The parts of a file name that change from run to run: a timestamp or id (5 digits or more), a UUID, a long hex string. */
const VOLATILE_NAME_PART = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?<![0-9a-z])[0-9a-f]{16,}(?![0-9a-z])|\d{5,}/gi

/**
 * A recorded download's name as what a replay must download again: the name itself, or (when a part of
 * it changes every run, Swagger UI's `response_1795780842562.json`) a regex in which each such part
 * matches any run of the same kind. Undefined `pattern`: compare the names exactly.
 */
export const downloadNamePattern = (recorded: string): { readonly pattern?: RegExp } => {
  let volatile = false
  let source = ""
  let at = 0
  for (const match of recorded.matchAll(VOLATILE_NAME_PART)) {
    volatile = true
    source += escapeRegExp(recorded.slice(at, match.index)) + (/^\d+$/.test(match[0]) ? "\\d{5,}" : match[0].includes("-") ? "[0-9a-f-]{36}" : "[0-9a-f]{16,}")
    at = match.index + match[0].length
  }
  return volatile ? { pattern: new RegExp(`^${source}${escapeRegExp(recorded.slice(at))}$`, "i") } : {}
}

/** Whether a replay's download has the recorded name, its volatile parts (a timestamp, an id) aside. */
export const sameDownloadName = (recorded: string, now: string): boolean => {
  const { pattern } = downloadNamePattern(recorded)
  return pattern === undefined ? now === recorded : pattern.test(now)
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")
