// The JSON-file knowledge store: layout, strictly increasing names, atomic writes, corrupt files skipped;
// steps written off the call's path, seen by the store's own reads at once and by nothing lost at its close.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Logger } from "effect"
import { layerFileSystem, make, makeFileStore, stepStamp } from "../../src/adapters/knowledge-files.js"
import { KnowledgeStore } from "../../src/services/KnowledgeStore.js"
import { queryGroups } from "../../src/knowledge/text.js"
import type { StepRecord } from "../../src/domain/knowledge.js"
import { tempDir } from "../support/browser.js"

const step = (sessionId: string, tool: string, timestamp = "2026-11-22T10:00:00.000Z"): StepRecord => ({
  schemaVersion: 1,
  timestamp,
  sessionId,
  tool: { name: tool, input: {} },
  timing: { durationMs: 1 },
  outcome: { ok: true },
  labels: []
})

describe("knowledge store on disk", () => {
  it("formats step stamps as YYYYMMDD-HHMMSS-mmm in UTC", () => {
    expect(stepStamp(Date.parse("2026-03-04T05:06:07.089Z"))).toBe("20260304-050607-089")
  })

  it.effect("writes session.json and one step file per call, with names strictly increasing within a millisecond", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const store = yield* make(dir)
      yield* store.startSession({ schemaVersion: 1, sessionId: "s1", createdAt: "2026-11-22T10:00:00.000Z", flowTags: [], tags: [], launch: { stateMode: "default" } })
      for (const tool of ["click", "type", "click"]) yield* store.recordStep(step("s1", tool))
      // Steps are written off the call's path: flush waits for them (the store's own reads do it themselves).
      yield* store.flush!
      const files = fs.readdirSync(path.join(dir, "llm-knowledge", "s1", "steps"))
      expect(files).toEqual(["20261122-100000-000-click.json", "20261122-100000-001-type.json", "20261122-100000-002-click.json"])
      expect(fs.existsSync(path.join(dir, "llm-knowledge", "s1", "session.json"))).toBe(true)
      expect((yield* store.steps("s1")).map((s) => s.tool.name)).toEqual(["click", "type", "click"])
      expect((yield* store.sessions).map((s) => s.sessionId)).toEqual(["s1"])
    }))

  it.effect("a step is written after recordStep answers, and the store's reads see it at once", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const store = yield* make(dir, { refreshIntervalMs: 0 })
      yield* store.recordStep({ ...step("s1", "click"), tool: { name: "click", input: {}, target: { testId: "confirm-send" } } })
      // Not yet on disk: the write waits for a turn of the event loop (the call's answer goes out first).
      expect(fs.existsSync(path.join(dir, "llm-knowledge", "s1", "steps"))).toBe(false)
      expect((yield* store.steps("s1")).map((s) => s.tool.name)).toEqual(["click"])
      yield* store.recordStep(step("s1", "type"))
      expect((yield* store.catalog!).size).toBe(2)
      yield* store.recordStep(step("s1", "press"))
      expect((yield* store.steps("s1")).map((s) => s.tool.name)).toEqual(["click", "type", "press"])
      // And without any read, the background write lands by itself.
      yield* store.recordStep(step("s1", "hover"))
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 50)))
      expect(fs.readdirSync(path.join(dir, "llm-knowledge", "s1", "steps"))).toHaveLength(4)
    }))

  it.effect("closing the store's layer (a shutdown) writes every step still queued, then saves the index", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      yield* Effect.scoped(
        Effect.gen(function* () {
          const store = yield* KnowledgeStore
          for (let i = 0; i < 20; i++) yield* store.recordStep(step("s1", i % 2 === 0 ? "click" : "type"))
        }).pipe(Effect.provide(layerFileSystem(dir)))
      )
      expect(fs.readdirSync(path.join(dir, "llm-knowledge", "s1", "steps"))).toHaveLength(20)
      expect(fs.existsSync(path.join(dir, "llm-knowledge", ".index.bin"))).toBe(true)
    }))

  it.effect("step records, session metadata and the index are owner-only (0600) in owner-only directories (0700)", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const made = yield* makeFileStore(dir)
      yield* made.store.startSession({ schemaVersion: 1, sessionId: "s1", createdAt: "2026-11-22T10:00:00.000Z", flowTags: [], tags: [], launch: { stateMode: "default" } })
      yield* made.store.recordStep(step("s1", "type"))
      yield* made.flush
      yield* made.saveIndex
      const root = path.join(dir, "llm-knowledge")
      const [record] = fs.readdirSync(path.join(root, "s1", "steps"))
      for (const file of [path.join(root, "s1", "steps", record!), path.join(root, "s1", "session.json"), made.indexFile]) {
        expect(fs.statSync(file).mode & 0o777, file).toBe(0o600)
      }
      for (const directory of [root, path.join(root, "s1"), path.join(root, "s1", "steps")]) expect(fs.statSync(directory).mode & 0o777, directory).toBe(0o700)
    }))

  it.effect("a symlinked llm-knowledge/ or session directory is never written through: the step fails, nothing lands where it leads", () =>
    Effect.gen(function* () {
      const elsewhere = tempDir()
      for (const link of ["llm-knowledge", path.join("llm-knowledge", "s2")]) {
        const dir = tempDir()
        fs.mkdirSync(path.dirname(path.join(dir, link)), { recursive: true })
        fs.symlinkSync(elsewhere, path.join(dir, link))
        const store = yield* make(dir, { persistIndex: false })
        const logs: Array<string> = []
        const logger = Logger.replace(Logger.defaultLogger, Logger.make(({ message }) => logs.push((Array.isArray(message) ? message : [message]).map(String).join(" "))))
        // The write happens after the call answered: its failure is logged (the call's outcome never depended on it).
        yield* Effect.zipRight(store.recordStep(step("s2", "type")), store.flush!).pipe(Effect.provide(logger))
        expect(logs.join("\n"), link).toContain("step not recorded")
        expect(logs.join("\n"), link).toContain("symbolic link")
        expect(fs.readdirSync(elsewhere), link).toEqual([])
      }
    }))

  it.effect("two writers in one directory lose nothing: a taken name moves to the next millisecond", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const first = yield* make(dir)
      const second = yield* make(dir)
      yield* Effect.all([first.recordStep(step("s1", "click")), second.recordStep(step("s1", "click"))], { concurrency: 2 })
      yield* Effect.all([first.flush!, second.flush!], { concurrency: 2 })
      expect(fs.readdirSync(path.join(dir, "llm-knowledge", "s1", "steps"))).toHaveLength(2)
      expect(yield* first.steps("s1")).toHaveLength(2)
    }))

  it.effect("a corrupt or half-written step file is skipped, never a crash, and no temporary file is left", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const store = yield* make(dir)
      yield* store.recordStep(step("s1", "click"))
      yield* store.flush!
      const stepsDir = path.join(dir, "llm-knowledge", "s1", "steps")
      fs.writeFileSync(path.join(stepsDir, "20261122-100000-500-type.json"), '{"schemaVersion": 1, "timest')
      fs.writeFileSync(path.join(stepsDir, "20261122-100000-600-type.json"), JSON.stringify({ schemaVersion: 2 }))
      const steps = yield* store.steps("s1")
      expect(steps.map((s) => s.tool.name)).toEqual(["click"])
      expect(fs.readdirSync(stepsDir).filter((name) => name.endsWith(".tmp"))).toEqual([])
    }))

  it.effect("the index sees this process's steps at once and another process's files after a refresh, skipping corrupt ones", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const mine = yield* make(dir, { refreshIntervalMs: 0 })
      const other = yield* make(dir, { refreshIntervalMs: 0 })
      yield* mine.startSession({ schemaVersion: 1, sessionId: "s1", createdAt: "2026-11-22T10:00:00.000Z", flowTags: ["send"], tags: [], launch: { stateMode: "default" } })
      yield* mine.recordStep({ ...step("s1", "click"), tool: { name: "click", input: {}, target: { testId: "confirm-send" } } })
      const catalog = yield* mine.catalog!
      expect(catalog.size).toBe(1)
      // Another process writes a session and a step, and someone leaves a broken file behind.
      yield* other.recordStep({ ...step("s2", "click"), tool: { name: "click", input: {}, target: { testId: "confirm-swap" } } })
      yield* other.flush!
      fs.writeFileSync(path.join(dir, "llm-knowledge", "s2", "steps", "20261122-100000-900-type.json"), "{ not json")
      const refreshed = yield* mine.catalog!
      expect(refreshed.size).toBe(2)
      const matches = refreshed.search({ groups: queryGroups("confirm"), limit: 10, sessions: "all", filters: undefined, now: Date.now() })
      expect(matches.map((match) => match.target).sort()).toEqual(["testId:confirm-send", "testId:confirm-swap"])
      // Session metadata written after the first look is picked up, not cached as missing.
      yield* other.startSession({ schemaVersion: 1, sessionId: "s2", createdAt: "2026-11-22T10:00:00.000Z", goal: "swap", flowTags: [], tags: [], launch: { stateMode: "default" } })
      expect((yield* mine.catalog!).metadata("s2")?.goal).toBe("swap")
    }))

  it.effect("two writers recording many steps concurrently lose none, and a fresh reader indexes them all", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const writers = [yield* make(dir), yield* make(dir)]
      yield* Effect.forEach(
        Array.from({ length: 60 }, (_, i) => i),
        (i) => writers[i % 2]!.recordStep(step("shared", i % 3 === 0 ? "type" : "click")),
        { concurrency: 8 }
      )
      for (const writer of writers) yield* writer.flush!
      expect(fs.readdirSync(path.join(dir, "llm-knowledge", "shared", "steps"))).toHaveLength(60)
      const reader = yield* make(dir)
      expect((yield* reader.catalog!).size).toBe(60)
    }))
})
