// The knowledge store's index file: a cache of the in-memory index beside the step files, so a new server
// answers its first query without reading every step. One binary file: a preamble, a JSON header and
// typed-array sections, with a CRC-32 over all of it; anything that does not check out is ignored and the
// index is rebuilt from the step files, which stay the source of truth.
import { readFileSync, statSync } from "node:fs"
import { crc32 } from "node:zlib"
import { Catalog, type CatalogArray, type CatalogJson } from "../knowledge/catalog.js"

/**
 * Bump whenever what the index holds or means changes (tokenizer, fields, similarity facts, labels: 3 adds the url field and the double-click and triple-click labels, 4 each session's words, 5 places keyed by origin and path): an index
 * of another format is rebuilt, never misread.
 */
export const INDEX_FORMAT = 5

const MAGIC = Buffer.from("BWMINDEX", "latin1")
/** Written as a u32 in the machine's byte order: typed arrays are saved as they are in memory. */
const BYTE_ORDER = 0x01020304
const PREAMBLE = 24

type ArrayKind = "i32" | "f64" | "u8"

const kindOf = (array: CatalogArray): ArrayKind =>
  array instanceof Int32Array ? "i32" : array instanceof Float64Array ? "f64" : "u8"

const padding = (length: number) => (8 - (length % 8)) % 8

/** What the file store keeps about one session directory. */
export interface DirectoryRecord {
  readonly name: string
  /** Modification time of `steps/` when its names were listed, or -1 when they must be listed again. */
  readonly stepsMtime: number
  /** `mtime:size` of session.json, when it was read. */
  readonly metadataStamp?: string
  /** `length:crc32` of session.json's bytes, when it was read. */
  readonly metadataContent?: string
  readonly hasMetadata: boolean
  /** Session ids its step files named, when not just the directory's name. */
  readonly sessionIds?: ReadonlyArray<string>
  /** Its step file names: bytes namesStart..namesEnd of the names section, one per line. */
  readonly namesStart: number
  readonly namesEnd: number
}

export interface IndexHeader {
  readonly catalog: CatalogJson
  readonly directories: ReadonlyArray<DirectoryRecord>
}

interface SectionRecord {
  readonly name: string
  readonly kind: ArrayKind
  readonly length: number
}

/** The index as bytes; `arrays` holds the catalog's typed arrays and the store's own (the names section). */
export const encodeIndex = (header: IndexHeader, arrays: Readonly<Record<string, CatalogArray>>): Buffer => {
  const sections: Array<SectionRecord> = Object.entries(arrays).map(([name, array]) => ({ name, kind: kindOf(array), length: array.length }))
  const json = Buffer.from(JSON.stringify({ ...header, sections }), "utf8")
  const chunks: Array<Uint8Array> = [json, new Uint8Array(padding(json.length))]
  for (const array of Object.values(arrays)) {
    chunks.push(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), new Uint8Array(padding(array.byteLength)))
  }
  const preamble = Buffer.alloc(PREAMBLE)
  MAGIC.copy(preamble, 0)
  preamble.writeUInt32LE(INDEX_FORMAT, 8)
  preamble.writeUInt32LE(json.length, 12)
  new Uint32Array(preamble.buffer, preamble.byteOffset + 20, 1)[0] = BYTE_ORDER
  const bytes = Buffer.concat([preamble, ...chunks])
  // The CRC is taken over the bytes as written, in one call, exactly as decodeIndex checks it. Chaining
  // crc32(chunk, crc) per section is wrong: for an empty view over an empty ArrayBuffer (an empty section,
  // e.g. no test ids seen) Node's crc32 gets a null data pointer and returns 0, dropping all before it.
  bytes.writeUInt32LE(crc32(bytes.subarray(PREAMBLE)), 16)
  return bytes
}

export interface DecodedIndex {
  readonly header: IndexHeader
  readonly arrays: Readonly<Record<string, CatalogArray>>
}

/** Reads the index file; undefined when it is missing, of another format or byte order, or damaged. */
export const readIndex = (file: string): DecodedIndex | undefined => {
  let bytes: Buffer
  try {
    bytes = readFileSync(file)
  } catch {
    return undefined
  }
  return decodeIndex(bytes)
}

export const decodeIndex = (input: Uint8Array): DecodedIndex | undefined => {
  if (input.length < PREAMBLE) return undefined
  // Typed arrays are views into the file's bytes, which must then start on an 8-byte boundary.
  const bytes = input.byteOffset % 8 === 0 ? Buffer.from(input.buffer, input.byteOffset, input.length) : Buffer.from(input)
  if (!bytes.subarray(0, 8).equals(MAGIC) || bytes.readUInt32LE(8) !== INDEX_FORMAT) return undefined
  if (new Uint32Array(bytes.buffer, bytes.byteOffset + 20, 1)[0] !== BYTE_ORDER) return undefined
  const jsonLength = bytes.readUInt32LE(12)
  if (PREAMBLE + jsonLength > bytes.length) return undefined
  if (crc32(bytes.subarray(PREAMBLE)) !== bytes.readUInt32LE(16)) return undefined
  let parsed: IndexHeader & { readonly sections: ReadonlyArray<SectionRecord> }
  try {
    parsed = JSON.parse(bytes.toString("utf8", PREAMBLE, PREAMBLE + jsonLength))
  } catch {
    return undefined
  }
  if (typeof parsed !== "object" || parsed === null || !Array.isArray(parsed.sections) || !Array.isArray(parsed.directories)) return undefined
  const arrays: Record<string, CatalogArray> = {}
  let offset = PREAMBLE + jsonLength + padding(jsonLength)
  for (const section of parsed.sections) {
    const width = section.kind === "i32" ? 4 : section.kind === "f64" ? 8 : 1
    const byteLength = section.length * width
    if (!Number.isInteger(section.length) || section.length < 0 || offset + byteLength > bytes.length) return undefined
    const start = bytes.byteOffset + offset
    const buffer = bytes.buffer as ArrayBuffer
    arrays[section.name] =
      section.kind === "i32"
        ? new Int32Array(buffer, start, section.length)
        : section.kind === "f64"
          ? new Float64Array(buffer, start, section.length)
          : new Uint8Array(buffer, start, section.length)
    offset += byteLength + padding(byteLength)
  }
  if (offset !== bytes.length) return undefined
  return { header: { catalog: parsed.catalog, directories: parsed.directories }, arrays }
}

const NAMES_SECTION = "directoryNames"

/** What the file store knows about one session directory. */
export interface DirectoryState {
  /** Step file names the index has seen (read, written, or found unreadable); undefined while still packed in the loaded index. */
  names: Set<string> | undefined
  packed: { readonly start: number; readonly end: number } | undefined
  /** Modification time of steps/ taken before its names were last listed; -1 when they must be listed again. */
  listedMtime: number
  /** When that modification time was taken. */
  listedAt: number
  /** When steps/ was last looked at, and its modification time then. */
  checkedAt: number
  seenMtime: number
  /** This process wrote a step file since the last listing. */
  wrote: boolean
  hasMetadata: boolean
  metadataStamp: string | undefined
  /** `length:crc32` of session.json's bytes when it was read: the same content under a new time is not read again. */
  metadataContent: string | undefined
  /** Session ids its step files named (normally just one). */
  readonly sessionIds: Set<string>
}

export const newDirectoryState = (): DirectoryState => ({
  names: new Set(),
  packed: undefined,
  listedMtime: -1,
  listedAt: -Infinity,
  checkedAt: -Infinity,
  seenMtime: -1,
  wrote: false,
  hasMetadata: false,
  metadataStamp: undefined,
  metadataContent: undefined,
  sessionIds: new Set()
})

/** A directory's step file names, unpacked from the loaded index on first need. */
export const unpackNames = (state: DirectoryState, packedNames: Uint8Array | undefined): Set<string> => {
  if (state.names === undefined) {
    const { start, end } = state.packed!
    const text = Buffer.from(packedNames!.buffer, packedNames!.byteOffset + start, end - start).toString("utf8")
    state.names = new Set(text === "" ? [] : text.split("\n"))
    state.packed = undefined
  }
  return state.names
}

/**
 * Whether a directory still packed from the loaded index holds exactly `names`, in that order: the usual
 * answer after a restart or a copy that changed every directory's time, found without unpacking the names.
 */
export const packedNamesAre = (state: DirectoryState, packedNames: Uint8Array | undefined, names: ReadonlyArray<string>): boolean => {
  if (state.names !== undefined || state.packed === undefined || packedNames === undefined) return false
  const { start, end } = state.packed
  return Buffer.from(packedNames.buffer, packedNames.byteOffset + start, end - start).toString("utf8") === names.join("\n")
}

export interface RestoredIndex {
  readonly catalog: Catalog
  readonly directories: Map<string, DirectoryState>
  readonly packedNames: Uint8Array
}

/** The saved index as the store's starting point: "absent" without a file, "damaged" when it does not check out. */
export const restoreIndex = (file: string): RestoredIndex | "absent" | "damaged" => {
  const decoded = readIndex(file)
  const catalog = decoded === undefined ? undefined : Catalog.fromParts({ json: decoded.header.catalog, arrays: decoded.arrays })
  const packedNames = decoded?.arrays[NAMES_SECTION]
  if (decoded === undefined || catalog === undefined || !(packedNames instanceof Uint8Array)) {
    let exists = false
    try {
      exists = statSync(file, { throwIfNoEntry: false }) !== undefined
    } catch {
      exists = true
    }
    return exists ? "damaged" : "absent"
  }
  const now = Date.now()
  const directories = new Map<string, DirectoryState>()
  for (const record of decoded.header.directories) {
    directories.set(record.name, {
      ...newDirectoryState(),
      names: undefined,
      packed: { start: record.namesStart, end: record.namesEnd },
      listedMtime: record.stepsMtime,
      // It was saved only when settled: trusted as if listed now.
      listedAt: now,
      seenMtime: record.stepsMtime,
      hasMetadata: record.hasMetadata,
      metadataStamp: record.metadataStamp,
      metadataContent: record.metadataContent,
      sessionIds: new Set(record.sessionIds ?? [record.name])
    })
  }
  return { catalog, directories, packedNames }
}

/** The index file's content: the catalog and every directory's names, taken at one moment. */
export const encodeStoreIndex = (
  catalog: Catalog,
  directories: ReadonlyMap<string, DirectoryState>,
  packedNames: Uint8Array | undefined,
  now: number,
  settleMs: number
): Buffer => {
  const parts = catalog.toParts()
  const chunks: Array<Buffer> = []
  let at = 0
  const records: Array<DirectoryRecord> = []
  for (const [name, state] of directories) {
    const start = at
    if (state.names === undefined) {
      const { start: from, end } = state.packed!
      chunks.push(Buffer.from(packedNames!.buffer, packedNames!.byteOffset + from, end - from))
      at += end - from
    } else {
      const text = Buffer.from([...state.names].join("\n"), "utf8")
      chunks.push(text)
      at += text.length
    }
    // Names listed too close to a change of the directory, or followed by this process's own writes, are
    // listed again by the next server: another writer may have added a file the directory's time cannot show.
    const trusted =
      !state.wrote && state.listedMtime >= 0 && state.listedMtime < state.listedAt - settleMs && state.listedMtime < now - settleMs
    const sessionIds = [...state.sessionIds]
    records.push({
      name,
      stepsMtime: trusted ? state.listedMtime : -1,
      ...(state.metadataStamp !== undefined ? { metadataStamp: state.metadataStamp } : {}),
      ...(state.metadataContent !== undefined ? { metadataContent: state.metadataContent } : {}),
      hasMetadata: state.hasMetadata,
      ...(sessionIds.length === 1 && sessionIds[0] === name ? {} : { sessionIds }),
      namesStart: start,
      namesEnd: at
    })
  }
  const names = Buffer.concat(chunks)
  return encodeIndex(
    { catalog: parts.json, directories: records },
    { ...parts.arrays, [NAMES_SECTION]: new Uint8Array(names.buffer, names.byteOffset, names.length) }
  )
}
