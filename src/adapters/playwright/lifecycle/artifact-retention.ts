// --output-max-mb: what the server writes under the artifacts directory kept within a bound. Everything
// the server writes is counted; the oldest removable files go first (downloads, screenshots, PDFs, reports,
// and a session's recordings directory as one), never a file a session of this process holds (one it
// wrote, a download being saved, a recording being written), never a file being written (a hidden
// temporary), and never the step memory (llm-knowledge/) or the saved storage states (storage-state/).
// Checked when a session starts and when one ends, one run at a time; a failure is logged, never a call's.
import { randomBytes } from "node:crypto"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { Effect } from "effect"
import type { Settings } from "../../../domain/config.js"
import { firstLine } from "../calls.js"

/** Directories of single files the server writes, removed oldest first. */
const FILE_DIRS = ["downloads", "screenshots", "pdf", "reports"] as const
/** Directories the server writes that count toward the bound but are never removed. */
export const KEPT_DIRS = ["llm-knowledge", "storage-state"] as const
const SESSIONS = "sessions"
/** A session directory being removed: renamed first, so no half-removed recording is ever read as one. */
const REMOVING = ".removing-"

/**
 * What the running sessions of this process hold, by owner (a session's browser context): files and
 * recording directories. Process-wide on purpose: every server layer in the process that prunes the same
 * directory must spare them. Counted, for a context several sessions share.
 */
const holders = new Map<object, { count: number; readonly paths: Set<string> }>()

const isHeld = (file: string): boolean => {
  for (const holder of holders.values()) if (holder.paths.has(file)) return true
  return false
}

/** Marks `file` as the running session's (before it is written): never pruned while the session runs. */
export const holdArtifact = (owner: object, file: string): void => {
  holders.get(owner)?.paths.add(path.resolve(file))
}

/** The bytes of the files under `dir` (links not followed). */
const sizeOf = async (dir: string): Promise<number> => {
  let total = 0
  for (const entry of await fs.readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const inner = path.join(dir, entry.name)
    if (entry.isDirectory()) total += await sizeOf(inner)
    else if (entry.isFile()) total += await fs.lstat(inner).then((stat) => stat.size, () => 0)
  }
  return total
}

/** A file a session's recording writes (trace.zip, network.har, video-tab<N>.webm), or one being written. */
const RECORDING_FILE = /^(?:trace\.zip|network\.har|video-tab\d+\.webm|\..+)$/

/** True when `dir` holds recordings and nothing else: a folder someone made under sessions/ is never counted nor pruned. */
const holdsRecordingsOnly = async (dir: string): Promise<boolean> => {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => undefined)
  return entries !== undefined && entries.length > 0 && entries.every((entry) => entry.isFile() && RECORDING_FILE.test(entry.name))
}

/** One thing pruning may remove: a file, or a session's recordings directory. */
interface Removable {
  readonly target: string
  readonly bytes: number
  readonly changedAt: number
  readonly ino: number
  readonly directory: boolean
}

/** What the artifacts directory holds, as pruning sees it. */
interface Inventory {
  readonly removable: ReadonlyArray<Removable>
  /** Bytes that count but are never removed: the step memory, storage states, files being written. */
  readonly kept: number
}

const filesIn = async (dir: string, removable: Array<Removable>): Promise<number> => {
  let kept = 0
  for (const entry of await fs.readdir(dir, { withFileTypes: true }).catch(() => [])) {
    if (!entry.isFile()) continue
    const file = path.join(dir, entry.name)
    const stat = await fs.lstat(file).catch(() => undefined)
    if (stat === undefined) continue
    if (entry.name.startsWith(".")) kept += stat.size
    else removable.push({ target: file, bytes: stat.size, changedAt: stat.mtimeMs, ino: stat.ino, directory: false })
  }
  return kept
}

const sessionsIn = async (dir: string, removable: Array<Removable>): Promise<void> => {
  for (const entry of await fs.readdir(dir, { withFileTypes: true }).catch(() => [])) {
    if (!entry.isDirectory()) continue
    const inner = path.join(dir, entry.name)
    // What an interrupted removal left: removed now, not counted.
    if (entry.name.startsWith(REMOVING)) {
      await fs.rm(inner, { recursive: true, force: true })
      continue
    }
    const stat = await fs.lstat(inner).catch(() => undefined)
    if (stat === undefined || !(await holdsRecordingsOnly(inner))) continue
    removable.push({ target: inner, bytes: await sizeOf(inner), changedAt: stat.mtimeMs, ino: stat.ino, directory: true })
  }
}

const inventory = async (root: string): Promise<Inventory> => {
  const removable: Array<Removable> = []
  let kept = 0
  for (const dir of FILE_DIRS) kept += await filesIn(path.join(root, dir), removable)
  await sessionsIn(path.join(root, SESSIONS), removable)
  for (const dir of KEPT_DIRS) kept += await sizeOf(path.join(root, dir))
  return { removable, kept }
}

/** Removes one thing unless a running session took it meanwhile or it was replaced since it was counted. */
const remove = async (item: Removable): Promise<boolean> => {
  if (isHeld(item.target)) return false
  const now = await fs.lstat(item.target).catch(() => undefined)
  if (now === undefined || now.ino !== item.ino || isHeld(item.target)) return false
  if (!item.directory) {
    await fs.unlink(item.target)
    return true
  }
  const away = path.join(path.dirname(item.target), `${REMOVING}${randomBytes(6).toString("hex")}`)
  await fs.rename(item.target, away)
  await fs.rm(away, { recursive: true, force: true })
  return true
}

/** What one pruning did: the paths removed, those it could not remove and why, and the bytes left (of which `kept` can never be removed). */
export interface Pruned {
  readonly removed: ReadonlyArray<string>
  readonly failed: ReadonlyArray<{ readonly target: string; readonly error: string }>
  readonly total: number
  readonly kept: number
}

/**
 * Removes the oldest removable files and recordings under `root` until everything fits in `maxBytes`;
 * never what a running session holds.
 */
export const pruneWithin = async (root: string, maxBytes: number): Promise<Pruned> => {
  const { removable, kept } = await inventory(path.resolve(root))
  let total = removable.reduce((sum, item) => sum + item.bytes, kept)
  const removed: Array<string> = []
  const failed: Array<{ target: string; error: string }> = []
  for (const item of [...removable].sort((a, b) => a.changedAt - b.changedAt)) {
    if (total <= maxBytes) break
    // One that cannot be removed is skipped: the next oldest goes instead.
    const done = await remove(item).catch((error: unknown) => {
      failed.push({ target: item.target, error: firstLine(error) })
      return false
    })
    if (done) {
      total -= item.bytes
      removed.push(item.target)
    }
  }
  return { removed, failed, total, kept }
}

/** One pruning at a time in the process: two sessions ending together do not count the same files twice. */
let queue: Promise<unknown> = Promise.resolve()

const serialized = <A>(run: () => Promise<A>): Promise<A> => {
  const next = queue.then(run, run)
  queue = next.catch(() => undefined)
  return next
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`

/** Applies --output-max-mb to the artifacts directory; logs what it removed and any failure to stderr, never fails. */
export const pruneArtifacts = (settings: Settings) => {
  const maxMb = settings.outputMaxMb
  if (maxMb === undefined) return Effect.void
  const maxBytes = maxMb * 1024 * 1024
  return Effect.tryPromise(() => serialized(() => pruneWithin(settings.artifactsDir, maxBytes))).pipe(
    Effect.flatMap(({ removed, failed, total, kept }) =>
      Effect.all([
        failed.length === 0
          ? Effect.void
          : Effect.logWarning(
              `--output-max-mb ${maxMb}: could not remove ${failed.length} artifact(s); nothing else is affected`,
              failed.map((failure) => `${path.relative(settings.artifactsDir, failure.target)}: ${failure.error}`)
            ),
        removed.length === 0
          ? Effect.void
          : Effect.logInfo(`--output-max-mb ${maxMb}: removed ${removed.length} older artifact(s)`, removed.map((file) => path.relative(settings.artifactsDir, file))),
        kept > maxBytes
          ? Effect.logWarning(
              `--output-max-mb ${maxMb}: the step memory, the saved storage states and files being written take ${megabytes(kept)} and are never removed; the artifacts directory stays over its bound`
            )
          : total > maxBytes
            ? Effect.logInfo(`--output-max-mb ${maxMb}: ${megabytes(total)} after pruning; the rest is the running sessions' own files`)
            : Effect.void
      ])
    ),
    Effect.catchAll((error) => Effect.logWarning(`--output-max-mb ${maxMb}: pruning the artifacts directory failed; nothing else is affected`, firstLine(error.error))),
    Effect.asVoid
  )
}

/**
 * The session's hold on its artifacts, a resource of its scope: pruning runs as the session starts, and
 * again once it ended (after its recordings were written), when its files are no longer held.
 */
export const holdArtifacts = (settings: Settings, owner: object) =>
  Effect.acquireRelease(
    Effect.zipRight(
      Effect.sync(() => {
        const holder = holders.get(owner)
        if (holder === undefined) holders.set(owner, { count: 1, paths: new Set() })
        else holder.count += 1
      }),
      pruneArtifacts(settings)
    ),
    () =>
      Effect.zipRight(
        Effect.sync(() => {
          const holder = holders.get(owner)
          if (holder !== undefined && --holder.count === 0) holders.delete(owner)
        }),
        pruneArtifacts(settings)
      )
  )
