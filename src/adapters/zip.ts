// Just enough ZIP to rewrite a Playwright trace: read every entry (stored or deflated, from the central
// directory, so data descriptors do not matter) and write entries back, deflated. No ZIP64: a trace of
// 4 GB or 65,535 entries is refused rather than written wrong.
import * as zlib from "node:zlib"

export interface ZipEntry {
  readonly name: string
  readonly data: Uint8Array
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()

const crc32 = (data: Uint8Array): number => {
  let crc = 0xffffffff
  for (let index = 0; index < data.length; index++) crc = CRC_TABLE[(crc ^ data[index]!) & 0xff]! ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

const END_OF_DIRECTORY = 0x06054b50
const DIRECTORY_ENTRY = 0x02014b50
const LOCAL_HEADER = 0x04034b50

/** The entries of a ZIP archive, in the central directory's order. Throws on an archive it cannot read. */
export const readZip = (archive: Buffer): ReadonlyArray<ZipEntry> => {
  let end = -1
  for (let at = archive.length - 22; at >= Math.max(0, archive.length - 22 - 65_535); at--) {
    if (archive.readUInt32LE(at) === END_OF_DIRECTORY) {
      end = at
      break
    }
  }
  if (end < 0) throw new Error("not a ZIP archive (no end of central directory)")
  const count = archive.readUInt16LE(end + 10)
  let at = archive.readUInt32LE(end + 16)
  const entries: Array<ZipEntry> = []
  for (let index = 0; index < count; index++) {
    if (archive.readUInt32LE(at) !== DIRECTORY_ENTRY) throw new Error("corrupt ZIP central directory")
    const method = archive.readUInt16LE(at + 10)
    const compressedSize = archive.readUInt32LE(at + 20)
    const nameLength = archive.readUInt16LE(at + 28)
    const extraLength = archive.readUInt16LE(at + 30)
    const commentLength = archive.readUInt16LE(at + 32)
    const localAt = archive.readUInt32LE(at + 42)
    const name = archive.toString("utf8", at + 46, at + 46 + nameLength)
    at += 46 + nameLength + extraLength + commentLength
    if (archive.readUInt32LE(localAt) !== LOCAL_HEADER) throw new Error(`corrupt ZIP entry ${name}`)
    const dataAt = localAt + 30 + archive.readUInt16LE(localAt + 26) + archive.readUInt16LE(localAt + 28)
    const raw = archive.subarray(dataAt, dataAt + compressedSize)
    if (method !== 0 && method !== 8) throw new Error(`ZIP entry ${name} uses compression method ${method}`)
    entries.push({ name, data: method === 8 ? zlib.inflateRawSync(raw) : raw })
  }
  return entries
}

/** A ZIP archive of the entries, each deflated. */
export const writeZip = (entries: ReadonlyArray<ZipEntry>): Buffer => {
  if (entries.length >= 0xffff) throw new Error("too many entries for a ZIP without ZIP64")
  const locals: Array<Buffer> = []
  const directory: Array<Buffer> = []
  let offset = 0
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8")
    const compressed = zlib.deflateRawSync(entry.data)
    const crc = crc32(entry.data)
    if (offset + compressed.length > 0xfffffff0 || entry.data.length > 0xfffffff0) throw new Error("archive too large for a ZIP without ZIP64")
    const local = Buffer.alloc(30)
    local.writeUInt32LE(LOCAL_HEADER, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(0x0800, 6) // names in UTF-8
    local.writeUInt16LE(8, 8)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(compressed.length, 18)
    local.writeUInt32LE(entry.data.length, 22)
    local.writeUInt16LE(name.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(DIRECTORY_ENTRY, 0)
    central.writeUInt16LE(20, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt16LE(0x0800, 8)
    central.writeUInt16LE(8, 10)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(compressed.length, 20)
    central.writeUInt32LE(entry.data.length, 24)
    central.writeUInt16LE(name.length, 28)
    central.writeUInt32LE(offset, 42)
    locals.push(local, name, compressed)
    directory.push(central, name)
    offset += local.length + name.length + compressed.length
  }
  const directorySize = directory.reduce((sum, part) => sum + part.length, 0)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(END_OF_DIRECTORY, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(directorySize, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, ...directory, end])
}
