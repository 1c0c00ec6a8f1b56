// KnowledgeStore on disk: <root>/llm-knowledge/<sessionId>/session.json and steps/<time>-<tool>.json,
// every file written atomically; unreadable files are skipped with a warning, never a crash. Queries go
// to an in-memory index, restored from the saved index file (<root>/.index.bin) and checked against the
// step directories, fed by this process's writes and refreshed from the disk when other processes add files.
import { readdirSync, readFileSync, statSync } from "node:fs"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { crc32 } from "node:zlib"
import { Effect, Either, Layer, Option, Schema } from "effect"
import { KnowledgeError } from "../domain/errors.js"
import { SessionMetadata, StepRecord } from "../domain/knowledge.js"
import { encodeStep } from "../knowledge/record.js"
import { Catalog } from "../knowledge/catalog.js"
import { RefHints } from "../knowledge/hints.js"
import { KnowledgeStore, type KnowledgeStoreService } from "../services/KnowledgeStore.js"
import { createSmallFileAtomic, writeFileAtomic } from "./files.js"
import { type DirectoryState, encodeStoreIndex, newDirectoryState, packedNamesAre, restoreIndex, unpackNames } from "./knowledge-index.js"

const pad = (value: number, width = 2) => String(value).padStart(width, "0")

/** `YYYYMMDD-HHMMSS-mmm` in UTC. */
export const stepStamp = (millis: number): string => {
  const date = new Date(millis)
  return (
    `${date.getUTCFullYear()}${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}-` +
    `${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}-${pad(date.getUTCMilliseconds(), 3)}`
  )
}

const safeSegment = (value: string) => value.replace(/[^A-Za-z0-9_.-]/g, "_")

const decodeStepJson = Schema.decodeUnknownEither(StepRecord)
const decodeSessionJson = Schema.decodeUnknownEither(SessionMetadata)

/** Parses and validates a file's text; undefined for anything that is not a valid record. */
const parse = <A>(text: string, decode: (json: unknown) => Either.Either<A, unknown>): A | undefined => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return undefined
  }
  return Either.getOrUndefined(decode(json))
}

const isStepFile = (name: string) => name.endsWith(".json") && !name.startsWith(".")

/** Runs `task` over `items` with at most `limit` in flight. */
const pool = async <A>(items: ReadonlyArray<A>, limit: number, task: (item: A) => Promise<void>): Promise<void> => {
  let next = 0
  const worker = async () => {
    while (next < items.length) await task(items[next++]!)
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
}

/** Files read between two turns of the event loop while loading. */
const READ_BATCH = 128

/**
 * Reads many small files: synchronous reads cost a fraction of a promise per file (one thread-pool round
 * trip each for open, stat, read and close), and yielding between batches keeps the server responsive.
 * A file that cannot be read (gone, permissions) is undefined.
 */
const readTexts = async (files: ReadonlyArray<string>): Promise<Array<string | undefined>> => {
  const texts: Array<string | undefined> = []
  for (const file of files) {
    if (texts.length > 0 && texts.length % READ_BATCH === 0) await new Promise<void>((resolve) => setImmediate(resolve))
    texts.push(readTextSync(file))
  }
  return texts
}

const readTextSync = (file: string): string | undefined => {
  try {
    return readFileSync(file, "utf8")
  } catch {
    return undefined
  }
}

const readBytesSync = (file: string): Buffer | undefined => {
  try {
    return readFileSync(file)
  } catch {
    return undefined
  }
}

const readNamesSync = (dir: string): Array<string> => {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}

const statIfPresent = (file: string) => {
  try {
    return statSync(file, { throwIfNoEntry: false })
  } catch {
    return undefined
  }
}

export interface FileStoreOptions {
  /** Queries at most this often look at the disk for other writers' files (default 1000 ms). */
  readonly refreshIntervalMs?: number
  /** Keep the index in a file beside the steps so the next server starts fast (default true). */
  readonly persistIndex?: boolean
  /** While running, a changed index is saved at most this often (default 60 s); always when the store closes. */
  readonly saveIntervalMs?: number
}

/** How often every session directory is checked, not only the recently active ones. */
const FULL_SWEEP_MS = 30_000
/** A session whose steps changed this recently is checked on every refresh: it is probably being written. */
const HOT_MS = 10 * 60_000
/** Modification times this recent are not trusted to be final (coarse clocks, writes in flight). */
const SETTLE_MS = 2_000
/** A first load that read this many step files saves the index at once: the next server should not read them again. */
const SAVE_AFTER_READING = 200
/** How long after that first query the index is saved. */
const SAVE_DELAY = "1 second"

/**
 * A recently active directory is looked at again after a quarter of the time it has been quiet: one being
 * written to is checked on every refresh, one quiet for a minute every 15 s, so thousands of freshly
 * written sessions do not cost thousands of system calls per query.
 */
const QUIET_FRACTION = 4

const INDEX_FILE = ".index.bin"

export interface FileStore {
  readonly store: KnowledgeStoreService
  /** Writes the steps recordStep queued and not yet written. */
  readonly flush: Effect.Effect<void>
  /** Writes the queued steps, then saves the index if it changed since it was last saved or loaded. */
  readonly saveIndex: Effect.Effect<void>
  /** Where the index is kept. */
  readonly indexFile: string
  /** Whether the index came from the file, and how many step files this store has read so far. */
  readonly status: Effect.Effect<{ readonly restoredFromIndex: boolean; readonly filesRead: number }>
}

const fail = (detail: string) => (error: unknown) => new KnowledgeError({ detail: `${detail}: ${String(error)}` })

/** The in-memory index and what it knows of each session directory (a restored index file replaces all three). */
interface Indexed {
  catalog: Catalog
  directories: Map<string, DirectoryState>
  packedNames: Uint8Array | undefined
}

const directoryIn = (indexed: Indexed, name: string) => {
  let state = indexed.directories.get(name)
  if (state === undefined) indexed.directories.set(name, (state = newDirectoryState()))
  return state
}

const namesIn = (indexed: Indexed, state: DirectoryState) => unpackNames(state, indexed.packedNames)

interface Loaded {
  readonly unreadable: Array<string>
  /** Step files read from the disk. */
  read: number
}

/** Loads what this process has not indexed yet and forgets what is gone; on a full sweep every directory is checked. */
const loadNew = async (indexed: Indexed, root: string, full: boolean, now: number, first: boolean): Promise<Loaded> => {
  const loaded: Loaded = { unreadable: [], read: 0 }
  const entries = await fs.readdir(root, { withFileTypes: true }).catch(() => [])
  const sessionDirs = entries.filter((entry) => entry.isDirectory() && !entry.name.startsWith(".")).map((entry) => entry.name)
  if (full) {
    // A save cut short (the process killed while writing) leaves its temporary file: removed once stale.
    for (const entry of entries) {
      if (!entry.isFile() || !entry.name.startsWith(`.${INDEX_FILE}.`) || !entry.name.endsWith(".tmp")) continue
      const file = path.join(root, entry.name)
      if ((statIfPresent(file)?.mtimeMs ?? now) < now - 60_000) await fs.rm(file, { force: true })
    }
    const present = new Set(sessionDirs)
    for (const [name, state] of indexed.directories) {
      if (present.has(name)) continue
      // The whole session directory is gone: so are its steps.
      for (const sessionId of state.sessionIds) indexed.catalog.dropSession(sessionId, "forget")
      indexed.directories.delete(name)
    }
  }
  let visited = 0
  await pool(sessionDirs, 16, async (name) => {
    // The checks below are synchronous (a few microseconds each; through the thread pool a round trip per
    // call): the event loop gets a turn every so many directories.
    if (++visited % READ_BATCH === 0) await new Promise<void>((resolve) => setImmediate(resolve))
    const isNew = !indexed.directories.has(name)
    const state = directoryIn(indexed, name)
    if (!state.hasMetadata || (first && !isNew)) {
      // Read again on every refresh until it exists (a session's metadata may land after its first steps),
      // and once after a restart in case it changed while no server was looking.
      const file = path.join(root, name, "session.json")
      const stat = statIfPresent(file)
      const stamp = stat === undefined ? undefined : `${stat.mtimeMs}:${stat.size}`
      if (stamp !== undefined && stamp !== state.metadataStamp) {
        const bytes = readBytesSync(file)
        const content = bytes === undefined ? undefined : `${bytes.length}:${crc32(bytes)}`
        // The same bytes as when indexed (a store copied elsewhere changes every file's time): nothing to read again.
        if (content !== undefined && state.hasMetadata && content === state.metadataContent) state.metadataStamp = stamp
        else if (bytes !== undefined) {
          const metadata = parse(bytes.toString("utf8"), decodeSessionJson)
          state.hasMetadata = true
          state.metadataStamp = stamp
          state.metadataContent = content
          if (metadata === undefined) loaded.unreadable.push(file)
          else indexed.catalog.addSession(metadata)
        }
      }
    }
    if (!full && !isNew && !(state.seenMtime > now - HOT_MS)) return
    if (!full && !isNew && now - state.checkedAt < (now - state.seenMtime) / QUIET_FRACTION) return
    const stepsDir = path.join(root, name, "steps")
    // A stat is a few microseconds done synchronously, and a thread-pool round trip done asynchronously.
    const stat = statIfPresent(stepsDir)
    if (stat === undefined) return
    state.checkedAt = now
    state.seenMtime = stat.mtimeMs
    if (!state.wrote && stat.mtimeMs === state.listedMtime && stat.mtimeMs < now - SETTLE_MS) return
    // Until the listing below is fully indexed, a saved index must list this directory again.
    state.listedMtime = -1
    state.wrote = false
    const files = readNamesSync(stepsDir).filter(isStepFile).sort()
    if (packedNamesAre(state, indexed.packedNames, files)) {
      // Nothing added or removed since the index listed it (only the directory's time changed).
      state.listedMtime = stat.mtimeMs
      state.listedAt = now
      return
    }
    const names = namesIn(indexed, state)
    const present = new Set(files)
    let removed = false
    for (const known of names) {
      if (!present.has(known)) {
        removed = true
        break
      }
    }
    if (removed) {
      // A step file went away (or was replaced): the session is read again from what is there now.
      for (const sessionId of state.sessionIds) indexed.catalog.dropSession(sessionId)
      names.clear()
    }
    const fresh = files.filter((file) => !names.has(file))
    const texts = await readTexts(fresh.map((file) => path.join(stepsDir, file)))
    loaded.read += fresh.length
    for (const [index, file] of fresh.entries()) {
      if (names.has(file)) continue
      const text = texts[index]
      if (text === undefined) continue
      // A bad file is remembered as seen, so it is reported once, not on every query.
      names.add(file)
      const step = parse(text, decodeStepJson)
      if (step === undefined) loaded.unreadable.push(path.join(stepsDir, file))
      else {
        state.sessionIds.add(step.sessionId)
        indexed.catalog.addStep(step)
      }
    }
    if (!state.wrote) {
      state.listedMtime = stat.mtimeMs
      state.listedAt = now
    }
  })
  return loaded
}

/** The store's reads of whole files (no index): a session's steps and metadata, artifacts, reports, recordings. */
const fileReaders = (artifactsDir: string, root: string) => {
  const readRecord = <A>(file: string, decode: (json: unknown) => Either.Either<A, unknown>) =>
    Effect.promise(() => fs.readFile(file, "utf8").catch(() => undefined)).pipe(
      Effect.flatMap((text) => {
        if (text === undefined) return Effect.succeed(undefined)
        const record = parse(text, decode)
        if (record !== undefined) return Effect.succeed(record)
        return Effect.logWarning(`knowledge store: skipping unreadable file ${file}`).pipe(Effect.as(undefined))
      })
    )

  const steps = (sessionId: string) =>
    Effect.gen(function* () {
      const dir = path.join(root, safeSegment(sessionId), "steps")
      const names = yield* Effect.promise(() => fs.readdir(dir).catch(() => [] as Array<string>))
      const files = names.filter(isStepFile).sort()
      const records = yield* Effect.forEach(files, (name) => readRecord(path.join(dir, name), decodeStepJson), { concurrency: 16 })
      return records.filter((record): record is StepRecord => record !== undefined)
    })

  const sessions = Effect.gen(function* () {
    const names = yield* Effect.promise(() => fs.readdir(root).catch(() => [] as Array<string>))
    const records = yield* Effect.forEach(
      names.filter((name) => !name.startsWith(".")),
      (name) => readRecord(path.join(root, name, "session.json"), decodeSessionJson),
      { concurrency: 16 }
    )
    return records.filter((record): record is SessionMetadata => record !== undefined)
  })

  const artifactsRoot = path.resolve(artifactsDir)
  /** Only files under the artifacts directory: a step record never makes the store read elsewhere. */
  const readArtifact = (file: string) =>
    Effect.promise(async () => {
      const resolved = path.resolve(artifactsRoot, file)
      const relative = path.relative(artifactsRoot, resolved)
      if (relative === "" || relative.startsWith("..") || path.isAbsolute(relative)) return Option.none<Uint8Array>()
      const bytes = await fs.readFile(resolved).catch(() => undefined)
      return bytes === undefined ? Option.none<Uint8Array>() : Option.some<Uint8Array>(bytes)
    })

  const writeReport = (sessionId: string, html: string) => {
    const file = path.join(artifactsRoot, "reports", `${safeSegment(sessionId)}.html`)
    return Effect.tryPromise({ try: () => writeFileAtomic(file, html, { within: artifactsRoot }), catch: fail(`cannot write the report ${file}`) }).pipe(Effect.as(file))
  }

  /**
   * The session's recordings (sessions/<id>/: complete files only). Not the downloads directory, which every
   * session of the server shares: the report links the session's own downloads from its steps.
   */
  const sessionFiles = (sessionId: string) =>
    Effect.promise(async () => {
      const dir = path.join(artifactsRoot, "sessions", safeSegment(sessionId))
      const names = await fs.readdir(dir).catch(() => [] as Array<string>)
      return names
        .filter((name) => !name.startsWith(".") && !name.endsWith(".partial"))
        .sort()
        .map((name) => ({ path: path.join(dir, name), name: `sessions/${safeSegment(sessionId)}/${name}` }))
    })
  return { steps, sessions, readArtifact, writeReport, sessionFiles }
}

/**
 * Resumes in the event loop's next check phase (setImmediate): after the I/O callbacks of this turn and the
 * promise jobs they queued, so after a call's answer went out; on the real event loop whatever clock the fiber has.
 */
const nextTurn = Effect.async<void>((resume) => {
  const handle = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(handle))
})

/**
 * Step records leave the call's path: `recordStep` queues the step, and a fiber forked for the burst writes the
 * queue a turn of the event loop later (once the call's answer went out). The order is kept (one drain at a time,
 * each takes the whole queue). `flush` writes what is queued now: every read of the store and its close call it,
 * so no query, report or shutdown misses a step a call recorded.
 */
const stepQueue = (write: (step: StepRecord) => Effect.Effect<void>) =>
  Effect.gen(function* () {
    const queued: Array<StepRecord> = []
    let scheduled = false
    const writeLock = yield* Effect.makeSemaphore(1)
    const flush = writeLock.withPermits(1)(Effect.suspend(() => Effect.forEach(queued.splice(0), write, { discard: true })))
    const recordStep = (step: StepRecord) =>
      Effect.suspend(() => {
        queued.push(step)
        if (scheduled) return Effect.void
        scheduled = true
        const drain = Effect.sync(() => void (scheduled = false)).pipe(Effect.zipRight(flush))
        return Effect.asVoid(Effect.forkDaemon(Effect.zipRight(nextTurn, Effect.uninterruptible(drain))))
      })
    return { recordStep, flush }
  })

/** File names must increase strictly within this process even when two steps share a millisecond. */
interface StepClock {
  last: number
}

/** Writes a step's file (never over another one: a taken name moves a millisecond on) and answers its path. */
const writeStepFile = (clock: StepClock, root: string, artifactsDir: string, step: StepRecord, text: string) =>
  Effect.try({
    try: () => {
      const parsed = Date.parse(step.timestamp)
      const stamp = Math.max(Number.isNaN(parsed) ? Date.now() : parsed, clock.last + 1)
      clock.last = stamp
      const dir = path.join(root, safeSegment(step.sessionId), "steps")
      const name = (millis: number) => path.join(dir, `${stepStamp(millis)}-${safeSegment(step.tool.name)}.json`)
      let next = stamp
      return createSmallFileAtomic(name(stamp), text, () => {
        next += 1
        clock.last = Math.max(clock.last, next)
        return name(next)
      }, artifactsDir)
    },
    catch: fail(`cannot record step of ${step.sessionId}`)
  })

/** The store's port over its parts: every read writes the queued steps first. */
const flushedStore = (
  parts: Required<Pick<KnowledgeStoreService, "startSession" | "recordStep" | "flush" | "catalog">>,
  readers: ReturnType<typeof fileReaders>
): KnowledgeStoreService => {
  const flushed = <A, E>(read: Effect.Effect<A, E>) => Effect.zipRight(parts.flush, read)
  return KnowledgeStore.of({
    ...parts,
    steps: (sessionId) => flushed(readers.steps(sessionId)),
    sessions: flushed(readers.sessions),
    readArtifact: readers.readArtifact,
    writeReport: readers.writeReport,
    sessionFiles: (sessionId) => flushed(readers.sessionFiles(sessionId)),
    catalog: flushed(parts.catalog)
  })
}

export const makeFileStore = (artifactsDir: string, options: FileStoreOptions = {}) =>
  Effect.gen(function* () {
    const root = path.resolve(artifactsDir, "llm-knowledge")
    const indexFile = path.join(root, INDEX_FILE)
    const refreshIntervalMs = options.refreshIntervalMs ?? 1_000
    const persist = options.persistIndex ?? true
    const saveIntervalMs = options.saveIntervalMs ?? 60_000
    const clock: StepClock = { last: 0 }
    const indexed: Indexed = { catalog: new Catalog(), directories: new Map(), packedNames: undefined }
    const hints = new RefHints()
    let restored = false
    let restoredFromIndex = false
    let filesRead = 0
    let checkedAt = -Infinity
    let sweptAt = -Infinity
    let savedVersion = -1
    let savedAt = Date.now()
    const lock = yield* Effect.makeSemaphore(1)

    /** Takes the saved index as the starting point, once, before anything touches the indexed.catalog. */
    const restore = Effect.suspend(() => {
      if (restored) return Effect.void
      restored = true
      if (!persist) return Effect.void
      const loaded = restoreIndex(indexFile)
      if (loaded === "absent") return Effect.void
      if (loaded === "damaged") {
        return Effect.logWarning(`knowledge store: the index ${indexFile} is damaged or of another version; rebuilding it from the step files`)
      }
      indexed.catalog = loaded.catalog
      indexed.directories = loaded.directories
      indexed.packedNames = loaded.packedNames
      restoredFromIndex = true
      savedVersion = indexed.catalog.version
      return Effect.void
    })

    const saveUnlocked = Effect.suspend(() => {
      if (!persist || indexed.catalog.version === savedVersion) return Effect.void
      const version = indexed.catalog.version
      const bytes = encodeStoreIndex(indexed.catalog, indexed.directories, indexed.packedNames, Date.now(), SETTLE_MS)
      return Effect.tryPromise({ try: () => writeFileAtomic(indexFile, bytes, { within: artifactsDir }), catch: fail(`cannot save the index ${indexFile}`) }).pipe(
        Effect.tap(() =>
          Effect.sync(() => {
            savedVersion = version
            savedAt = Date.now()
          })
        ),
        Effect.catchAll((error) => Effect.logWarning(`knowledge store: ${error.message}`))
      )
    })
    const saveIndex = lock.withPermits(1)(saveUnlocked)

    /** While running, a changed index is saved in the background at most every saveIntervalMs. */
    const saveLater = Effect.suspend(() =>
      persist && indexed.catalog.version !== savedVersion && Date.now() - savedAt >= saveIntervalMs
        ? Effect.asVoid(Effect.forkDaemon(Effect.sync(() => (savedAt = Date.now())).pipe(Effect.zipRight(saveIndex))))
        : Effect.void
    )

    const startSession = (metadata: SessionMetadata) =>
      restore.pipe(
        Effect.zipRight(
          Effect.tryPromise({
            try: () =>
              writeFileAtomic(
                path.join(root, safeSegment(metadata.sessionId), "session.json"),
                JSON.stringify(Schema.encodeSync(SessionMetadata)(metadata), null, 2),
                { within: artifactsDir }
              ),
            catch: fail(`cannot write session ${metadata.sessionId}`)
          })
        ),
        Effect.tap(() =>
          Effect.sync(() => {
            const state = directoryIn(indexed, safeSegment(metadata.sessionId))
            state.hasMetadata = true
            state.metadataStamp = undefined
            state.metadataContent = undefined
            indexed.catalog.addSession(metadata)
          })
        )
      )

    /** Writes one queued step: enriched, encoded, written atomically, learnt by the index; a failure is logged, the queue goes on. */
    const writeQueued = (input: StepRecord) =>
      restore.pipe(
        Effect.zipRight(
          Effect.suspend(() => {
            // A step whose observation is not what the schema says cannot be enriched: it is written as it came.
            let enriched = input
            try {
              enriched = hints.enrich(input)
            } catch {
              enriched = input
            }
            const encoded = encodeStep(enriched)
            // The index learns the step as written.
            const step = encoded.kept
            // A field the schema refused is named on stderr by its path, never by its value; the step is still written.
            const refused =
              encoded.dropped.length === 0
                ? Effect.void
                : Effect.logWarning(
                    `step record of ${step.tool.name}: left out ${encoded.dropped.map((entry) => `${entry.path} (${entry.issue})`).join(", ")}`
                  )
            return Effect.zipRight(refused, writeStepFile(clock, root, artifactsDir, step, encoded.text)).pipe(
              Effect.map((written) => {
                // The index learns the step now; a refresh that already listed the file will see it is known.
                const state = directoryIn(indexed, safeSegment(step.sessionId))
                const names = namesIn(indexed, state)
                const file = path.basename(written)
                state.wrote = true
                if (names.has(file)) return
                names.add(file)
                state.sessionIds.add(step.sessionId)
                indexed.catalog.addStep(step)
              })
            )
          })
        ),
        Effect.zipLeft(saveLater),
        Effect.catchTag("KnowledgeError", (error) => Effect.logWarning(`${input.tool.name}: step not recorded`, error.message))
      )

    const { recordStep, flush } = yield* stepQueue(writeQueued)

    const refresh = lock.withPermits(1)(
      Effect.gen(function* () {
        yield* restore
        const now = Date.now()
        if (now - checkedAt < refreshIntervalMs) return
        const first = sweptAt === -Infinity
        const full = now - sweptAt >= FULL_SWEEP_MS
        const loaded = yield* Effect.tryPromise({ try: () => loadNew(indexed, root, full, now, first), catch: fail("cannot read the knowledge store") })
        checkedAt = Date.now()
        filesRead += loaded.read
        if (full) sweptAt = now
        for (const file of loaded.unreadable) yield* Effect.logWarning(`knowledge store: skipping unreadable file ${file}`)
        // Saved a moment after this answer has gone: encoding and writing 30 MB (100k steps) is not the first query's wait.
        if (first && loaded.read >= SAVE_AFTER_READING) yield* Effect.forkDaemon(Effect.zipRight(Effect.sleep(SAVE_DELAY), saveIndex))
      })
    )

    const catalog = refresh.pipe(Effect.zipRight(saveLater), Effect.map(() => indexed.catalog))
    const store = flushedStore({ startSession, recordStep, flush, catalog }, fileReaders(artifactsDir, root))
    const status = Effect.sync(() => ({ restoredFromIndex, filesRead }))
    // The index saved holds every step recorded so far.
    return { store, flush, saveIndex: Effect.zipRight(flush, saveIndex), indexFile, status } satisfies FileStore
  })

/** The store alone (tests, benchmarks); `makeFileStore` also gives its index's save. */
export const make = (artifactsDir: string, options: FileStoreOptions = {}) => Effect.map(makeFileStore(artifactsDir, options), (made) => made.store)

/** JSON files under `<artifactsDir>/llm-knowledge`; the index is saved when the layer's scope closes. */
export const layerFileSystem = (artifactsDir: string, options: FileStoreOptions = {}) =>
  Layer.scoped(
    KnowledgeStore,
    Effect.gen(function* () {
      const made = yield* makeFileStore(artifactsDir, options)
      // The queued steps are written before the index is saved: a shutdown (stdin closed, SIGTERM) loses none.
      yield* Effect.addFinalizer(() => made.saveIndex)
      return made.store
    })
  )
