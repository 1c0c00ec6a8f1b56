// KnowledgeStore on disk: <root>/llm-knowledge/<sessionId>/session.json and steps/<time>-<tool>.json,
// every file written atomically; unreadable files are skipped with a warning, never a crash.
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { Effect, Layer, Schema } from "effect"
import { KnowledgeError } from "../domain/errors.js"
import { SessionMetadata, StepRecord } from "../domain/knowledge.js"
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

const decodeStep = Schema.decodeUnknownEither(Schema.parseJson(StepRecord))
const decodeSession = Schema.decodeUnknownEither(Schema.parseJson(SessionMetadata))

export const make = (artifactsDir: string) =>
  Effect.sync(() => {
    const root = path.resolve(artifactsDir, "llm-knowledge")
    // File names must increase strictly within this process even when two steps share a millisecond.
    let lastStamp = 0

    const fail = (detail: string) => (error: unknown) => new KnowledgeError({ detail: `${detail}: ${String(error)}` })

    const startSession = (metadata: SessionMetadata) =>
      Effect.tryPromise({
        try: () =>
          writeFileAtomic(
            path.join(root, safeSegment(metadata.sessionId), "session.json"),
            JSON.stringify(Schema.encodeSync(SessionMetadata)(metadata), null, 2)
          ),
        catch: fail(`cannot write session ${metadata.sessionId}`)
      })

    const recordStep = (step: StepRecord) =>
      Effect.tryPromise({
        try: () => {
          const parsed = Date.parse(step.timestamp)
          const stamp = Math.max(Number.isNaN(parsed) ? Date.now() : parsed, lastStamp + 1)
          lastStamp = stamp
          const dir = path.join(root, safeSegment(step.sessionId), "steps")
          const name = (millis: number) => path.join(dir, `${stepStamp(millis)}-${safeSegment(step.tool.name)}.json`)
          let next = stamp
          return createFileAtomic(name(stamp), JSON.stringify(Schema.encodeSync(StepRecord)(step), null, 2), () => {
            next += 1
            lastStamp = Math.max(lastStamp, next)
            return name(next)
          })
        },
        catch: fail(`cannot record step of ${step.sessionId}`)
      }).pipe(Effect.asVoid)

    const readJson = <A>(file: string, decode: (text: string) => { _tag: "Left" | "Right" } & ({ left: unknown } | { right: A })) =>
      Effect.promise(() => fs.readFile(file, "utf8").catch(() => undefined)).pipe(
        Effect.flatMap((text) => {
          if (text === undefined) return Effect.succeed(undefined)
          const decoded = decode(text)
          if (decoded._tag === "Right" && "right" in decoded) return Effect.succeed(decoded.right)
          return Effect.logWarning(`knowledge store: skipping unreadable file ${file}`).pipe(Effect.as(undefined))
        })
      )

    const steps = (sessionId: string) =>
      Effect.gen(function* () {
        const dir = path.join(root, safeSegment(sessionId), "steps")
        const names = yield* Effect.promise(() => fs.readdir(dir).catch(() => [] as Array<string>))
        const files = names.filter((name) => name.endsWith(".json") && !name.startsWith(".")).sort()
        const records = yield* Effect.forEach(files, (name) => readJson(path.join(dir, name), decodeStep), { concurrency: 16 })
        return records.filter((record): record is StepRecord => record !== undefined)
      })

    const sessions = Effect.gen(function* () {
      const names = yield* Effect.promise(() => fs.readdir(root).catch(() => [] as Array<string>))
      const records = yield* Effect.forEach(names, (name) => readJson(path.join(root, name, "session.json"), decodeSession), {
        concurrency: 16
      })
      return records.filter((record): record is SessionMetadata => record !== undefined)
    })

    return KnowledgeStore.of({ startSession, recordStep, steps, sessions })
  })

/** JSON files under `<artifactsDir>/llm-knowledge`. */
export const layerFileSystem = (artifactsDir: string) => Layer.effect(KnowledgeStore, make(artifactsDir))
