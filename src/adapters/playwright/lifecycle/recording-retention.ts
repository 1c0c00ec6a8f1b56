// --output-max-mb: the recorded sessions under <artifacts>/sessions/ kept within a bound, the oldest
// session's directory removed first, never one a session of this process is still recording into, and never
// a directory holding anything but recordings.
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { Effect } from "effect"
import type { Settings } from "../../../domain/config.js"

/**
 * The directories sessions of this process are recording into now. Process-wide on purpose: the files
 * are the process's, and every server layer in it that prunes the same directory must spare them.
 */
export const recordingsRunning = new Set<string>()

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

/** A file a session's recording writes (trace.zip, network.har, video-tab<N>.webm), or one being written (a dot file). */
const RECORDING_FILE = /^(?:trace\.zip|network\.har|video-tab\d+\.webm|\..+)$/

/** True when `dir` holds recordings and nothing else: a folder someone made under sessions/ is never pruned. */
const holdsRecordingsOnly = async (dir: string): Promise<boolean> => {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => undefined)
  return entries !== undefined && entries.length > 0 && entries.every((entry) => entry.isFile() && RECORDING_FILE.test(entry.name))
}

/** A session's recordings as pruning sees them: where, how big, how old (its newest change). */
interface Recorded {
  readonly dir: string
  readonly bytes: number
  readonly changedAt: number
}

/** Removes the oldest recorded sessions until all of them fit in `maxBytes`; never a running one. Returns the removed directories. */
export const pruneWithin = async (root: string, maxBytes: number, running: ReadonlySet<string>): Promise<ReadonlyArray<string>> => {
  const entries = await fs.readdir(root, { withFileTypes: true }).catch(() => [])
  const sessions: Array<Recorded> = []
  for (const entry of entries) {
    if (!entry.isDirectory()) continue
    const dir = path.join(root, entry.name)
    const stat = await fs.lstat(dir).catch(() => undefined)
    if (stat === undefined || !(await holdsRecordingsOnly(dir))) continue
    sessions.push({ dir, bytes: await sizeOf(dir), changedAt: stat.mtimeMs })
  }
  let total = sessions.reduce((sum, session) => sum + session.bytes, 0)
  const removed: Array<string> = []
  for (const session of sessions.sort((a, b) => a.changedAt - b.changedAt)) {
    if (total <= maxBytes) break
    if (running.has(session.dir)) continue
    await fs.rm(session.dir, { recursive: true, force: true })
    total -= session.bytes
    removed.push(session.dir)
  }
  return removed
}

/** Applies --output-max-mb to <artifacts>/sessions/; logs what it removed, never fails. */
export const pruneRecordings = (settings: Settings) =>
  settings.outputMaxMb === undefined
    ? Effect.void
    : Effect.promise(() =>
        pruneWithin(path.resolve(settings.artifactsDir, "sessions"), settings.outputMaxMb! * 1024 * 1024, recordingsRunning).catch(() => [])
      ).pipe(
        Effect.tap((removed) =>
          removed.length === 0
            ? Effect.void
            : Effect.logInfo(`--output-max-mb: removed the recordings of ${removed.length} older session(s)`, removed.map((dir) => path.basename(dir)))
        ),
        Effect.asVoid
      )
