// File writes that never leave a half-written file behind: write a temporary file, then rename or link.
import { randomBytes } from "node:crypto"
import * as fsSync from "node:fs"
import * as fs from "node:fs/promises"
import * as path from "node:path"

const temporaryName = (target: string) =>
  path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`)

/** File options: `mode` for files only their owner may read (0o600), from the first byte written. */
export interface WriteOptions {
  readonly mode?: number | undefined
}

/** Replaces `target` atomically with `data`. */
export const writeFileAtomic = async (target: string, data: string | Uint8Array, options: WriteOptions = {}): Promise<void> => {
  await fs.mkdir(path.dirname(target), { recursive: true })
  const temporary = temporaryName(target)
  try {
    await fs.writeFile(temporary, data, options.mode === undefined ? {} : { mode: options.mode })
    await fs.rename(temporary, target)
  } catch (error) {
    await fs.rm(temporary, { force: true })
    throw error
  }
}

/**
 * Creates a new file atomically without ever replacing an existing one: the complete file is linked
 * into place, and `nextName` is asked for another name while the name is taken (it may throw to give up).
 * Returns the path written.
 */
export const createFileAtomic = async (
  target: string,
  data: string | Uint8Array,
  nextName: (taken: string) => string,
  options: WriteOptions = {}
): Promise<string> => {
  await fs.mkdir(path.dirname(target), { recursive: true })
  const temporary = temporaryName(target)
  await fs.writeFile(temporary, data, options.mode === undefined ? {} : { mode: options.mode })
  try {
    let candidate = target
    for (;;) {
      try {
        await fs.link(temporary, candidate)
        return candidate
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
        candidate = nextName(candidate)
      }
    }
  } finally {
    await fs.rm(temporary, { force: true })
  }
}

/** Directories createSmallFileAtomic made or found in this process: made once, not asked again per file. */
const madeDirectories = new Set<string>()

/**
 * createFileAtomic for a small file written on a call's path (a step record of a few KB): the same
 * guarantees, with synchronous system calls. Four asynchronous calls each wait for a turn in libuv's
 * thread pool, which on a busy machine costs milliseconds per call; these take microseconds.
 */
export const createSmallFileAtomic = (target: string, data: string, nextName: (taken: string) => string): string => {
  const directory = path.dirname(target)
  if (!madeDirectories.has(directory)) {
    fsSync.mkdirSync(directory, { recursive: true })
    madeDirectories.add(directory)
  }
  const temporary = temporaryName(target)
  try {
    fsSync.writeFileSync(temporary, data)
  } catch (error) {
    // The directory may have been removed since (a forgotten session): once more after making it again.
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error
    fsSync.mkdirSync(directory, { recursive: true })
    fsSync.writeFileSync(temporary, data)
  }
  try {
    let candidate = target
    for (;;) {
      try {
        fsSync.linkSync(temporary, candidate)
        return candidate
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
        candidate = nextName(candidate)
      }
    }
  } finally {
    fsSync.rmSync(temporary, { force: true })
  }
}
