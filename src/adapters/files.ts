// File writes that never leave a half-written file behind: write a temporary file, then rename or link.
import { randomBytes } from "node:crypto"
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
