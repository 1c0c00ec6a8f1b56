// KnowledgeStore on disk: <root>/llm-knowledge/<sessionId>/session.json and steps/<time>-<tool>.json,
// every file written atomically; unreadable files are skipped with a warning, never a crash. Queries go
// to an in-memory index loaded on first use, fed by this process's writes and refreshed from the disk
// when other processes add files.
import { readFileSync, statSync } from "node:fs"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { Effect, Either, Layer, Schema } from "effect"
import { KnowledgeError } from "../domain/errors.js"
import { SessionMetadata, StepRecord } from "../domain/knowledge.js"
import { Catalog } from "../knowledge/catalog.js"
import { RefHints } from "../knowledge/hints.js"
import { KnowledgeStore } from "../services/KnowledgeStore.js"
import { createFileAtomic, writeFileAtomic } from "./files.js"

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
}

/** How often every session directory is checked, not only the recently active ones. */
const FULL_SWEEP_MS = 30_000
/** A session whose steps changed this recently is checked on every refresh: it is probably being written. */
const HOT_MS = 10 * 60_000
/** Modification times this recent are not trusted to be final (coarse clocks, writes in flight). */
const SETTLE_MS = 2_000

interface DirectoryState {
  readonly names: Set<string>
  mtimeMs: number
  hasMetadata: boolean
  /** When the steps directory was last looked at. */
  checkedAt: number
}

/**
 * A recently active directory is looked at again after a quarter of the time it has been quiet: one being
 * written to is checked on every refresh, one quiet for a minute every 15 s, so thousands of freshly
 * written sessions do not cost thousands of system calls per query.
 */
const QUIET_FRACTION = 4

export const make = (artifactsDir: string, options: FileStoreOptions = {}) =>
  Effect.gen(function* () {
    const root = path.resolve(artifactsDir, "llm-knowledge")
    const refreshIntervalMs = options.refreshIntervalMs ?? 1_000
    // File names must increase strictly within this process even when two steps share a millisecond.
    let lastStamp = 0
    const catalog = new Catalog()
    const hints = new RefHints()
    const directories = new Map<string, DirectoryState>()
    const directory = (name: string) => {
      let state = directories.get(name)
      if (state === undefined) directories.set(name, (state = { names: new Set(), mtimeMs: -1, hasMetadata: false, checkedAt: -Infinity }))
      return state
    }
    let checkedAt = -Infinity
    let sweptAt = -Infinity
    const refreshLock = yield* Effect.makeSemaphore(1)

    const fail = (detail: string) => (error: unknown) => new KnowledgeError({ detail: `${detail}: ${String(error)}` })

    const startSession = (metadata: SessionMetadata) =>
      Effect.tryPromise({
        try: () =>
          writeFileAtomic(
            path.join(root, safeSegment(metadata.sessionId), "session.json"),
            JSON.stringify(Schema.encodeSync(SessionMetadata)(metadata), null, 2)
          ),
        catch: fail(`cannot write session ${metadata.sessionId}`)
      }).pipe(
        Effect.tap(() =>
          Effect.sync(() => {
            directory(safeSegment(metadata.sessionId)).hasMetadata = true
            catalog.addSession(metadata)
          })
        )
      )

    const recordStep = (input: StepRecord) =>
      Effect.suspend(() => {
        const step = hints.enrich(input)
        const parsed = Date.parse(step.timestamp)
        const stamp = Math.max(Number.isNaN(parsed) ? Date.now() : parsed, lastStamp + 1)
        lastStamp = stamp
        const segment = safeSegment(step.sessionId)
        const dir = path.join(root, segment, "steps")
        const name = (millis: number) => path.join(dir, `${stepStamp(millis)}-${safeSegment(step.tool.name)}.json`)
        let next = stamp
        return Effect.tryPromise({
          try: () =>
            createFileAtomic(name(stamp), JSON.stringify(Schema.encodeSync(StepRecord)(step), null, 2), () => {
              next += 1
              lastStamp = Math.max(lastStamp, next)
              return name(next)
            }),
          catch: fail(`cannot record step of ${step.sessionId}`)
        }).pipe(
          Effect.map((written) => {
            // The index learns the step now; a refresh that already listed the file will see it is known.
            const state = directory(segment)
            const file = path.basename(written)
            if (state.names.has(file)) return
            state.names.add(file)
            catalog.addStep(step)
          })
        )
      })

    /** Loads files this process has not indexed yet; returns the unreadable ones. */
    const loadNew = async (full: boolean, now: number): Promise<Array<string>> => {
      const unreadable: Array<string> = []
      const entries = await fs.readdir(root, { withFileTypes: true }).catch(() => [])
      const sessionDirs = entries.filter((entry) => entry.isDirectory() && !entry.name.startsWith(".")).map((entry) => entry.name)
      await pool(sessionDirs, 16, async (name) => {
        const isNew = !directories.has(name)
        const state = directory(name)
        if (!state.hasMetadata) {
          // Read again on every refresh until it exists: a session's metadata may land after its first steps.
          const file = path.join(root, name, "session.json")
          const text = await fs.readFile(file, "utf8").catch(() => undefined)
          if (text !== undefined) {
            const metadata = parse(text, decodeSessionJson)
            state.hasMetadata = true
            if (metadata === undefined) unreadable.push(file)
            else catalog.addSession(metadata)
          }
        }
        if (!full && !isNew && !(state.mtimeMs > now - HOT_MS)) return
        if (!full && !isNew && now - state.checkedAt < (now - state.mtimeMs) / QUIET_FRACTION) return
        const stepsDir = path.join(root, name, "steps")
        // A stat is a few microseconds done synchronously, and a thread-pool round trip done asynchronously.
        const stat = statIfPresent(stepsDir)
        if (stat === undefined) return
        state.checkedAt = now
        if (stat.mtimeMs === state.mtimeMs && stat.mtimeMs < now - SETTLE_MS) return
        state.mtimeMs = stat.mtimeMs
        const files = (await fs.readdir(stepsDir).catch(() => [] as Array<string>)).filter(isStepFile).sort()
        const fresh = files.filter((file) => !state.names.has(file))
        const texts = await readTexts(fresh.map((file) => path.join(stepsDir, file)))
        for (const [index, file] of fresh.entries()) {
          if (state.names.has(file)) continue
          const text = texts[index]
          if (text === undefined) continue
          // A bad file is remembered as seen, so it is reported once, not on every query.
          state.names.add(file)
          const step = parse(text, decodeStepJson)
          if (step === undefined) unreadable.push(path.join(stepsDir, file))
          else catalog.addStep(step)
        }
      })
      return unreadable
    }

    const refresh = refreshLock.withPermits(1)(
      Effect.gen(function* () {
        const now = Date.now()
        if (now - checkedAt < refreshIntervalMs) return
        const full = now - sweptAt >= FULL_SWEEP_MS
        const unreadable = yield* Effect.tryPromise({ try: () => loadNew(full, now), catch: fail("cannot read the knowledge store") })
        checkedAt = Date.now()
        if (full) sweptAt = now
        for (const file of unreadable) yield* Effect.logWarning(`knowledge store: skipping unreadable file ${file}`)
      })
    )

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

    return KnowledgeStore.of({ startSession, recordStep, steps, sessions, catalog: refresh.pipe(Effect.as(catalog)) })
  })

/** JSON files under `<artifactsDir>/llm-knowledge`. */
export const layerFileSystem = (artifactsDir: string, options: FileStoreOptions = {}) =>
  Layer.effect(KnowledgeStore, make(artifactsDir, options))
