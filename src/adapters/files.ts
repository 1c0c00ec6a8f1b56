// File writes that never leave a half-written file behind (a temporary file, then a rename or a link)
// and, for the server's own files, never leave the artifacts directory: every directory between it and
// the file is made owner-only and must be a real directory, not a symbolic link to somewhere else.
import { randomBytes } from "node:crypto"
import * as fsSync from "node:fs"
import * as fs from "node:fs/promises"
import * as path from "node:path"

const temporaryName = (target: string) =>
  path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`)

/** File options: `mode` for the file (0o600 by default under `within`); `within`, the directory the file must stay in. */
export interface WriteOptions {
  readonly mode?: number | undefined
  /**
   * The directory (the artifacts directory) the file must stay inside: every directory below it on the
   * way to the file is created 0700 if missing and refused if it is a symbolic link or not a directory.
   */
  readonly within?: string | undefined
}

/** Files the server writes under the artifacts directory are its owner's only: they hold session data. */
export const OWNER_ONLY_FILE = 0o600
export const OWNER_ONLY_DIRECTORY = 0o700

/** The directories from `root` (exclusive) down to `directory`, or a problem when it is not below `root`. */
const stepsBelow = (root: string, directory: string): ReadonlyArray<string> => {
  const relative = path.relative(path.resolve(root), path.resolve(directory))
  if (relative.startsWith("..") || path.isAbsolute(relative)) {
    throw new Error(`${directory} is outside ${root}: the server writes only under the artifacts directory`)
  }
  const parts = relative === "" ? [] : relative.split(path.sep)
  return parts.map((_, index) => path.join(path.resolve(root), ...parts.slice(0, index + 1)))
}

const refuseLink = (directory: string, stat: fsSync.Stats) => {
  if (stat.isSymbolicLink()) {
    throw new Error(`${directory} is a symbolic link: the server never writes through one (make it a real directory inside the artifacts directory)`)
  }
  if (!stat.isDirectory()) throw new Error(`${directory} is not a directory`)
}

const isExisting = (error: unknown) => (error as NodeJS.ErrnoException).code === "EEXIST"

/** Makes `directory` and those between `root` and it (owner-only), refusing a link or a file on the way. */
export const directoryWithin = async (root: string, directory: string): Promise<void> => {
  await fs.mkdir(root, { recursive: true, mode: OWNER_ONLY_DIRECTORY })
  for (const step of stepsBelow(root, directory)) {
    await fs.mkdir(step, { mode: OWNER_ONLY_DIRECTORY }).catch((error: unknown) => {
      if (!isExisting(error)) throw error
    })
    refuseLink(step, await fs.lstat(step))
  }
}

/** directoryWithin with synchronous system calls (a step record's directory). */
export const directoryWithinSync = (root: string, directory: string): void => {
  fsSync.mkdirSync(root, { recursive: true, mode: OWNER_ONLY_DIRECTORY })
  for (const step of stepsBelow(root, directory)) {
    try {
      fsSync.mkdirSync(step, { mode: OWNER_ONLY_DIRECTORY })
    } catch (error) {
      if (!isExisting(error)) throw error
    }
    refuseLink(step, fsSync.lstatSync(step))
  }
}

const prepare = (target: string, options: WriteOptions) =>
  options.within === undefined ? fs.mkdir(path.dirname(target), { recursive: true }).then(() => undefined) : directoryWithin(options.within, path.dirname(target))

/** The temporary file is new (never an existing file or a link planted under its name), with the file's mode from the start. */
const temporaryOptions = (options: WriteOptions): fsSync.WriteFileOptions => {
  const mode = options.mode ?? (options.within === undefined ? undefined : OWNER_ONLY_FILE)
  return mode === undefined ? { flag: "wx" } : { flag: "wx", mode }
}

/** Replaces `target` atomically with `data` (a link at `target` is replaced, never followed). */
export const writeFileAtomic = async (target: string, data: string | Uint8Array, options: WriteOptions = {}): Promise<void> => {
  await prepare(target, options)
  const temporary = temporaryName(target)
  try {
    await fs.writeFile(temporary, data, temporaryOptions(options))
    await fs.rename(temporary, target)
  } catch (error) {
    await fs.rm(temporary, { force: true })
    throw error
  }
}

/**
 * Creates a new file atomically without ever replacing an existing one: the complete file is linked
 * into place, and `nextName` is asked for another name while the name is taken (it may throw to give up);
 * `beforeEach` hears each name before it is tried. Returns the path written.
 */
export const createFileAtomic = async (
  target: string,
  data: string | Uint8Array,
  nextName: (taken: string) => string,
  options: WriteOptions = {},
  beforeEach?: (candidate: string) => void
): Promise<string> => {
  await prepare(target, options)
  const temporary = temporaryName(target)
  await fs.writeFile(temporary, data, temporaryOptions(options))
  return placeFileAtomic(temporary, target, nextName, beforeEach)
}

/** A temporary name beside `target` (hidden, unique to this process and call), for a file finished elsewhere before it is placed. */
export const temporaryPathFor = (target: string): string => temporaryName(target)

/**
 * Puts a complete temporary file (beside `target`, see temporaryPathFor) in place under a name no file
 * has: linked, never renamed over another; `nextName` is asked for another name while the name is taken,
 * and `beforeEach` hears each name before it is tried. The temporary name is removed either way.
 * Returns the path written.
 */
export const placeFileAtomic = async (
  temporary: string,
  target: string,
  nextName: (taken: string) => string,
  beforeEach: (candidate: string) => void = () => undefined
): Promise<string> => {
  try {
    let candidate = target
    for (;;) {
      beforeEach(candidate)
      try {
        await fs.link(temporary, candidate)
        return candidate
      } catch (error) {
        if (!isExisting(error)) throw error
        candidate = nextName(candidate)
      }
    }
  } finally {
    await fs.rm(temporary, { force: true })
  }
}

/** Directories createSmallFileAtomic made or checked in this process: made once, not asked again per file. */
const madeDirectories = new Set<string>()

/**
 * createFileAtomic for a small file written on a call's path (a step record of a few KB), owner-only
 * and inside `within`: the same guarantees, with synchronous system calls. Four asynchronous calls each
 * wait for a turn in libuv's thread pool, which on a busy machine costs milliseconds per call; these
 * take microseconds.
 */
export const createSmallFileAtomic = (target: string, data: string, nextName: (taken: string) => string, within: string): string => {
  const directory = path.dirname(target)
  if (!madeDirectories.has(directory)) {
    directoryWithinSync(within, directory)
    madeDirectories.add(directory)
  }
  const temporary = temporaryName(target)
  const options = { flag: "wx", mode: OWNER_ONLY_FILE } as const
  try {
    fsSync.writeFileSync(temporary, data, options)
  } catch (error) {
    // The directory may have been removed since (a forgotten session): once more after making it again.
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error
    directoryWithinSync(within, directory)
    fsSync.writeFileSync(temporary, data, options)
  }
  try {
    let candidate = target
    for (;;) {
      try {
        fsSync.linkSync(temporary, candidate)
        return candidate
      } catch (error) {
        if (!isExisting(error)) throw error
        candidate = nextName(candidate)
      }
    }
  } finally {
    fsSync.rmSync(temporary, { force: true })
  }
}
