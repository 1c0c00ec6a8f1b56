// The files a session names itself under the artifacts directory (screenshots): a session replaces only a
// file it wrote under that name; any other file (another session's, an earlier server's, one of yours, one
// being placed) keeps its content, and the new one gets the first free name, `<name>-2.png`, `<name>-3.png`.
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { Effect, Ref } from "effect"
import { createFileAtomic, writeFileAtomic } from "../../files.js"
import { holdArtifact } from "../lifecycle/artifact-retention.js"

/**
 * A file the session wrote, as it left it: replaced again only while it is still that file. The inode
 * alone is not enough (a file removed and made again often gets the same number); its change time too.
 */
export interface NamedFile {
  readonly path: string
  readonly dev: bigint
  readonly ino: bigint
  readonly ctimeNs: bigint
}

/** The session's files by the path their name asked for (the placed one may be `<name>-N`). */
export type NamedFiles = Ref.Ref<ReadonlyMap<string, NamedFile>>

export const makeNamedFiles = Ref.make<ReadonlyMap<string, NamedFile>>(new Map())

/** `page.png`, then `page-2.png`, `page-3.png`...: numbered from the wanted name, never from a name that was taken. */
const numberedFrom = (wanted: string) => {
  const extension = path.extname(wanted)
  const stem = wanted.slice(0, wanted.length - extension.length)
  let n = 1
  return () => `${stem}-${++n}${extension}`
}

const stamped = async (file: string): Promise<NamedFile> => {
  const stat = await fs.lstat(file, { bigint: true })
  return { path: file, dev: stat.dev, ino: stat.ino, ctimeNs: stat.ctimeNs }
}

/** Still the file the session wrote: not removed, nor replaced by someone else since. */
const isUnchanged = async (file: NamedFile): Promise<boolean> => {
  const stat = await fs.lstat(file.path, { bigint: true }).catch(() => undefined)
  return stat !== undefined && stat.isFile() && stat.dev === file.dev && stat.ino === file.ino && stat.ctimeNs === file.ctimeNs
}

const place = async (own: NamedFile | undefined, wanted: string, data: Uint8Array, within: string, owner: object): Promise<NamedFile> => {
  if (own !== undefined && (await isUnchanged(own))) {
    await writeFileAtomic(own.path, data, { within })
    return stamped(own.path)
  }
  // Held before it has its name: --output-max-mb never removes it while the session runs.
  const placed = await createFileAtomic(wanted, data, numberedFrom(wanted), { within }, (candidate) => holdArtifact(owner, candidate))
  return stamped(placed)
}

/**
 * Writes `data` as the session's file `wanted` (under `within`, atomically) and answers where it is:
 * `wanted` itself when no file has that name or the session wrote the one there, else the first free
 * numbered name. Two sessions writing one name at the same moment get two files. `owner` is the
 * session's hold on its artifacts (its browser context).
 */
export const writeNamedFile = <E>(
  files: NamedFiles,
  owner: object,
  wanted: string,
  data: Uint8Array,
  within: string,
  onError: (error: unknown) => E
): Effect.Effect<string, E> =>
  Effect.gen(function* () {
    const own = (yield* Ref.get(files)).get(wanted)
    const placed = yield* Effect.tryPromise({ try: () => place(own, wanted, data, within, owner), catch: onError })
    yield* Ref.update(files, (known) => new Map(known).set(wanted, placed))
    return placed.path
  })
