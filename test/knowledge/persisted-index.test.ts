// The saved index beside the step files: a new store restores it instead of reading every step, checks it
// against the step directories, and answers exactly like a full scan of the files on disk — also after
// files were added or removed behind its back, after the index file was damaged, and with two writers.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it, vi } from "@effect/vitest"
import { Effect, Logger } from "effect"
import { makeFileStore } from "../../src/adapters/knowledge-files.js"
import { decodeIndex, encodeIndex } from "../../src/adapters/knowledge-index.js"
import type { StepRecord, StepTarget } from "../../src/domain/knowledge.js"
import type { Observation } from "../../src/domain/observation.js"
import { type Catalog, type CatalogJson, scanSearch } from "../../src/knowledge/catalog.js"
import { priorKnowledge } from "../../src/knowledge/prior.js"
import { queryGroups } from "../../src/knowledge/text.js"
import { tempDir } from "../support/browser.js"
import { hoursAgo, NOW, readStoreFiles, session, step, writeSyntheticStore, priorActions } from "./fixtures.js"
import { ReferenceCatalog, referencePriorKnowledge } from "./prior-reference.js"

const QUERIES = ["send", "confirm transaction", "unlock wallet", "approve", "password input", "copy", "xyzzy", "network settings", "nightly"]

const here: Observation = {
  state: { isLoaded: true, currentUrl: "http://127.0.0.1:8080/home.html#/send", title: "Send", currentScreen: "send" },
  testIds: ["amount-input", "recipient-input", "next-button", "copy-button", "back-link"].map((testId) => ({ testId, tag: "button", visible: true })),
  a11y: { nodes: ["send amount", "next back", "max token", "copy cancel"].map((name, i) => ({ ref: `e${i + 1}`, role: "button", name })) }
}

/** A store over `dir` with no refresh delay: each query looks at the disk. */
const open = (dir: string) => Effect.runPromise(makeFileStore(dir, { refreshIntervalMs: 0 }))

/** A new store's first query; then what it saves in the background after reading many files is on disk (a save waits for it). */
const catalogOf = async (dir: string) => {
  const made = await open(dir)
  const catalog = await Effect.runPromise(made.store.catalog!)
  const status = await Effect.runPromise(made.status)
  if (status.filesRead >= 200) await Effect.runPromise(made.saveIndex)
  return { made, catalog, status }
}

/** The index answers search, latest steps, sessions and prior knowledge exactly as a plain read of the files does. */
const expectSameAsFiles = async (dir: string, catalog: Catalog) => {
  const { sessions, steps } = await readStoreFiles(dir)
  for (const query of QUERIES) {
    const input = { groups: queryGroups(query), limit: 25, sessions: "all" as const, filters: undefined, now: NOW }
    expect(catalog.search(input), query).toEqual(scanSearch(sessions, steps, input))
  }
  const filtered = { groups: queryGroups("send"), limit: 50, sessions: "all" as const, filters: { screen: "swap", sinceHours: 30 }, now: NOW }
  expect(catalog.search(filtered)).toEqual(scanSearch(sessions, steps, filtered))
  expect(catalog.size).toBe(steps.filter((record) => !record.tool.name.startsWith("knowledge_")).length)
  expect(catalog.sessions(50, undefined, NOW).map((row) => [row.sessionId, row.stepCount]).sort()).toEqual(
    sessions.map((metadata) => [metadata.sessionId, steps.filter((record) => record.sessionId === metadata.sessionId).length]).sort()
  )
  const input = { currentSessionId: undefined, observation: here, now: NOW }
  expect(priorKnowledge(catalog, input, priorActions)).toEqual(referencePriorKnowledge(new ReferenceCatalog(sessions, steps), input))
}

describe("the saved index", () => {
  it("is written after a first full read and restored by the next store, which then reads no step file", async () => {
    const dir = tempDir()
    await writeSyntheticStore(dir, 1_200, 15)
    const made = await open(dir)
    const first = { made, catalog: await Effect.runPromise(made.store.catalog!), status: await Effect.runPromise(made.status) }
    expect(first.status).toEqual({ restoredFromIndex: false, filesRead: 1_200 })
    // Saved right after the first query, in the background, by itself.
    await vi.waitFor(() => expect(fs.existsSync(first.made.indexFile)).toBe(true), { timeout: 60_000, interval: 20 })
    await expectSameAsFiles(dir, first.catalog)

    // A save cut short leaves a temporary file; the next store removes it once it is stale.
    const leftover = path.join(dir, "llm-knowledge", "..index.bin.4242.deadbeef.tmp")
    fs.writeFileSync(leftover, "partial")
    fs.utimesSync(leftover, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000))
    const second = await catalogOf(dir)
    expect(second.status).toEqual({ restoredFromIndex: true, filesRead: 0 })
    expect(fs.existsSync(leftover)).toBe(false)
    await expectSameAsFiles(dir, second.catalog)
    // Restored, it keeps learning: a recorded step is found at once, and the next store finds it too.
    await Effect.runPromise(Effect.zipRight(second.made.store.recordStep(step({ sessionId: "mm-s00003", tool: "click", target: { testId: "zebraCrossing" }, at: hoursAgo(0.5) })), second.made.flush))
    const found = second.catalog.search({ groups: queryGroups("zebra"), limit: 5, sessions: "all", filters: undefined, now: NOW })
    expect(found.map((row) => row.target)).toEqual(["testId:zebraCrossing"])
    await Effect.runPromise(second.made.saveIndex)
    const third = await catalogOf(dir)
    expect(third.status.restoredFromIndex).toBe(true)
    // Only the directory this store wrote to is listed again (another writer might have added to it).
    expect(third.status.filesRead).toBe(0)
    await expectSameAsFiles(dir, third.catalog)
  })

  it("is checked against the step directories: files added, removed and whole sessions deleted behind its back", async () => {
    const dir = tempDir()
    await writeSyntheticStore(dir, 900, 12)
    await catalogOf(dir)
    const root = path.join(dir, "llm-knowledge")
    // Another process adds steps and a session; one step file and one session directory are deleted.
    const other = await open(dir)
    await Effect.runPromise(
      Effect.gen(function* () {
        yield* other.store.startSession(session("mm-late", { goal: "late zebra session" }))
        yield* other.store.recordStep(step({ sessionId: "mm-late", tool: "click", target: { testId: "zebra-go" }, screen: "send", at: hoursAgo(0.4) }))
        yield* other.store.recordStep(step({ sessionId: "mm-s00002", tool: "type", target: { testId: "zebra-amount" }, screen: "send", at: hoursAgo(0.3) }))
        // Its steps are on disk once written (they leave the call's path): as another process's would be.
        yield* other.flush
      })
    )
    const stepsOf = (sessionId: string) => path.join(root, sessionId, "steps")
    fs.rmSync(path.join(stepsOf("mm-s00005"), fs.readdirSync(stepsOf("mm-s00005")).sort()[3]!))
    fs.rmSync(path.join(root, "mm-s00007"), { recursive: true })
    // Directory times are trusted only once settled: age the changed ones as a later start would see them.
    const old = new Date(Date.now() - 60_000)
    for (const sessionId of ["mm-late", "mm-s00002", "mm-s00005"]) fs.utimesSync(stepsOf(sessionId), old, old)

    const checked = await catalogOf(dir)
    expect(checked.status.restoredFromIndex).toBe(true)
    // The changed sessions only: the late one, the added step, and the session that lost a file, read again.
    const reread = fs.readdirSync(stepsOf("mm-s00005")).length
    expect(checked.status.filesRead).toBe(1 + 1 + reread)
    await expectSameAsFiles(dir, checked.catalog)
    expect(checked.catalog.metadata("mm-s00007")).toBeUndefined()
    expect(checked.catalog.metadata("mm-late")?.goal).toBe("late zebra session")
  })

  for (const [damage, apply] of [
    ["a flipped byte", (bytes: Buffer) => (bytes.writeUInt8(bytes.readUInt8(bytes.length >> 1) ^ 0xff, bytes.length >> 1), bytes)],
    ["a truncated file", (bytes: Buffer) => bytes.subarray(0, Math.floor(bytes.length / 3))],
    ["another file's content", () => Buffer.from('{"not": "an index"}')],
    ["an empty file", () => Buffer.alloc(0)]
  ] as const) {
    it(`with ${damage} is rebuilt from the step files and rewritten`, async () => {
      const dir = tempDir()
      await writeSyntheticStore(dir, 700, 10, 11)
      const first = await catalogOf(dir)
      fs.writeFileSync(first.made.indexFile, apply(fs.readFileSync(first.made.indexFile)))
      const rebuilt = await catalogOf(dir)
      expect(rebuilt.status).toEqual({ restoredFromIndex: false, filesRead: 700 })
      await expectSameAsFiles(dir, rebuilt.catalog)
      const after = await catalogOf(dir)
      expect(after.status).toEqual({ restoredFromIndex: true, filesRead: 0 })
      await expectSameAsFiles(dir, after.catalog)
    })
  }

  it("two stores writing one directory at the same time lose no step, whichever index is saved last", async () => {
    const dir = tempDir()
    await writeSyntheticStore(dir, 400, 6, 3)
    const [a, b] = await Promise.all([open(dir), open(dir)])
    await Promise.all([Effect.runPromise(a.store.catalog!), Effect.runPromise(b.store.catalog!)])
    const record = (made: typeof a, sessionId: string, count: number) =>
      Effect.forEach(
        Array.from({ length: count }, (_, i) => i),
        (i) =>
          made.store.recordStep(
            step({ sessionId, tool: "click", target: { testId: `${sessionId}-button-${i}` }, screen: "send", at: new Date(NOW - 3_600_000 + i * 1000).toISOString() })
          ),
        { concurrency: 4 }
      )
    await Promise.all([
      Effect.runPromise(Effect.zipRight(a.store.startSession(session("mm-writer-a")), record(a, "mm-writer-a", 60))),
      Effect.runPromise(Effect.zipRight(b.store.startSession(session("mm-writer-b")), record(b, "mm-writer-b", 60))),
      Effect.runPromise(record(b, "mm-s00001", 20))
    ])
    // Both save; b's index knows nothing of a's steps, and it is the one left on disk.
    await Effect.runPromise(a.saveIndex)
    await Effect.runPromise(b.saveIndex)
    const last = await catalogOf(dir)
    expect(last.status.restoredFromIndex).toBe(true)
    expect(last.catalog.sessionSize("mm-writer-a")).toBe(60)
    expect(last.catalog.sessionSize("mm-writer-b")).toBe(60)
    expect(last.catalog.size).toBe(400 + 140)
    await expectSameAsFiles(dir, last.catalog)
  })
})

// The four states a new server finds its index in. Whatever the state, the first query answers exactly as
// the files on disk do; the status says how much of the disk it had to read for that.
describe("the first query over each state of the saved index", () => {
  /** A store of 1,000 steps over 20 sessions whose index was saved and has settled (times older than 2 s). */
  const settledStore = async () => {
    const dir = tempDir()
    await writeSyntheticStore(dir, 1_000, 20, 5)
    ageAll(path.join(dir, "llm-knowledge"))
    await catalogOf(dir)
    return dir
  }
  /** Sets every file's and directory's times a minute back, as a store that has been quiet a while. */
  const ageAll = (root: string) => {
    const old = new Date(Date.now() - 60_000)
    for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) fs.utimesSync(path.join(entry.parentPath, entry.name), old, old)
  }

  it("fresh: restored, no step file read", async () => {
    const dir = await settledStore()
    const fresh = await catalogOf(dir)
    expect(fresh.status).toEqual({ restoredFromIndex: true, filesRead: 0 })
    await expectSameAsFiles(dir, fresh.catalog)
  })

  it("stale by 1%: another writer's 10 new steps over a tenth of the sessions are read, and only they", async () => {
    const dir = await settledStore()
    const other = await open(dir)
    for (let i = 0; i < 10; i++) {
      const sessionId = `mm-s${String(i % 2).padStart(5, "0")}`
      await Effect.runPromise(other.store.recordStep(step({ sessionId, tool: "click", target: { testId: `zebra-${i}` }, screen: "send", at: hoursAgo(0.1) })))
    }
    await Effect.runPromise(other.flush)
    ageAll(path.join(dir, "llm-knowledge"))
    const behind = await catalogOf(dir)
    expect(behind.status).toEqual({ restoredFromIndex: true, filesRead: 10 })
    await expectSameAsFiles(dir, behind.catalog)
    expect(behind.catalog.search({ groups: queryGroups("zebra"), limit: 20, sessions: "all", filters: undefined, now: NOW })).toHaveLength(10)
  })

  it("copied elsewhere (every time changed): the listings and session files that match are trusted, what differs is read", async () => {
    const dir = await settledStore()
    const copy = tempDir()
    fs.cpSync(dir, copy, { recursive: true })
    const root = path.join(copy, "llm-knowledge")
    // In the copy: one goal rewritten to the same length (only its bytes tell), one step added, one removed.
    const metadataFile = path.join(root, "mm-s00003", "session.json")
    const text = fs.readFileSync(metadataFile, "utf8")
    const goal = (JSON.parse(text) as { goal: string }).goal
    const renamed = "z".repeat(goal.length)
    fs.writeFileSync(metadataFile, text.replace(JSON.stringify(goal), JSON.stringify(renamed)))
    const other = await open(copy)
    await Effect.runPromise(Effect.zipRight(other.store.recordStep(step({ sessionId: "mm-s00004", tool: "click", target: { testId: "zebra-copy" }, at: hoursAgo(0.2) })), other.flush))
    const stepsOf = (sessionId: string) => path.join(root, sessionId, "steps")
    fs.rmSync(path.join(stepsOf("mm-s00006"), fs.readdirSync(stepsOf("mm-s00006")).sort()[2]!))
    ageAll(root)
    // Another copy of the same index, untouched: nothing but the times differ.
    const plain = tempDir()
    fs.cpSync(dir, plain, { recursive: true })
    const untouched = await catalogOf(plain)
    expect(untouched.status).toEqual({ restoredFromIndex: true, filesRead: 0 })
    await expectSameAsFiles(plain, untouched.catalog)

    const copied = await catalogOf(copy)
    expect(copied.status).toEqual({ restoredFromIndex: true, filesRead: 1 + fs.readdirSync(stepsOf("mm-s00006")).length })
    await expectSameAsFiles(copy, copied.catalog)
    expect(copied.catalog.metadata("mm-s00003")?.goal).toBe(renamed)
  })

  it("corrupt (cut short): ignored with a warning, the first query reads every step file and answers the same", async () => {
    const dir = await settledStore()
    const indexFile = path.join(dir, "llm-knowledge", ".index.bin")
    const bytes = fs.readFileSync(indexFile)
    fs.writeFileSync(indexFile, bytes.subarray(0, bytes.length - 1))
    const warnings: Array<string> = []
    const made = await open(dir)
    const logger = Logger.replace(Logger.defaultLogger, Logger.make(({ message }) => warnings.push((Array.isArray(message) ? message : [message]).join(" "))))
    const catalog = await Effect.runPromise(Effect.provide(made.store.catalog!, logger))
    expect(await Effect.runPromise(made.status)).toEqual({ restoredFromIndex: false, filesRead: 1_000 })
    expect(warnings.join("\n")).toContain("is damaged")
    await expectSameAsFiles(dir, catalog)
  })
})

// Regression: an empty section (here: no test id ever seen, no screen named) is an empty typed array over an
// empty ArrayBuffer, and Node's crc32 returns 0 for it instead of the running value. The index was then
// written with a CRC over only its tail, and every next server found it "damaged" and read every step again.
describe("the saved index with empty sections", () => {
  it("round-trips an empty Int32Array section through encodeIndex / decodeIndex", () => {
    const arrays = { before: new Int32Array([1, 2, 3]), empty: new Int32Array(0), after: new Float64Array([0.5]), names: new Uint8Array(Buffer.from("a\nb")) }
    const decoded = decodeIndex(encodeIndex({ catalog: {} as CatalogJson, directories: [] }, arrays))
    expect(decoded).toBeDefined()
    expect(Object.fromEntries(Object.entries(decoded!.arrays).map(([name, array]) => [name, [...array]]))).toEqual({
      before: [1, 2, 3],
      empty: [],
      after: [0.5],
      names: [97, 10, 98]
    })
  })

  it("written by a store from realistic steps, is restored by the next store and the one after it, without a warning", async () => {
    const dir = tempDir()
    const todo = "http://127.0.0.1:8080/#/"
    const names = ["What needs to be done?", "Toggle All Input", "Write report", "Delete", "All", "Active", "Completed", "Clear completed"]
    const target = (role: string, name: string, ref: string): StepTarget => ({
      a11yRef: ref,
      a11yHint: { role, name },
      element: { role, name, selector: `internal:role=${role}[name=${JSON.stringify(name)}s]`, unique: ["role", "selector"] }
    })
    const logs: Array<string> = []
    const capture = Logger.replace(
      Logger.defaultLogger,
      Logger.make(({ logLevel, message }) => logs.push(`${logLevel.label} ${(Array.isArray(message) ? message : [message]).join(" ")}`))
    )
    const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(Effect.provide(effect, capture))
    const openStore = async () => {
      const made = await run(makeFileStore(dir, { refreshIntervalMs: 0 }))
      const catalog = await run(made.store.catalog!)
      return { made, catalog, status: await run(made.status) }
    }

    const first = await openStore()
    for (const [index, sessionId] of ["mm-mwtj7d12-3fe5ab", "mm-mwtj827r-2994b8", "mm-mwtj89at-05d4e2"].entries()) {
      await run(first.made.store.startSession(session(sessionId, { goal: `add and complete todos ${index}`, createdAt: hoursAgo(3 - index) })))
      const at = (minute: number) => new Date(Date.parse(hoursAgo(3 - index)) + minute * 60_000).toISOString()
      const steps: Array<StepRecord> = [
        step({ sessionId, tool: "launch", at: at(0), url: todo, names }),
        step({ sessionId, tool: "describe_screen", at: at(1), url: todo, names }),
        step({ sessionId, tool: "type", at: at(2), url: todo, names, target: target("textbox", "What needs to be done?", "e2"), input: { text: "Write report", submit: true } }),
        step({ sessionId, tool: "click", at: at(3), url: todo, names, target: target("checkbox", "Toggle Todo", "e7") }),
        step({ sessionId, tool: "click", at: at(4), url: `${todo}active`, names, target: target("link", "Active", "e11") }),
        step({ sessionId, tool: "click", at: at(5), url: todo, names, target: { a11yRef: "e99" }, ok: false }),
        step({ sessionId, tool: "click", at: at(6), url: todo, names, target: { selector: "li" }, ok: false }),
        step({ sessionId, tool: "get_text", at: at(7), url: todo, names, target: target("heading", "todos", "e10") })
      ]
      for (const record of steps) await run(first.made.store.recordStep(record))
    }
    await run(first.made.saveIndex)
    expect(fs.existsSync(first.made.indexFile)).toBe(true)
    // What broke it: the catalog has empty sections.
    const saved = decodeIndex(fs.readFileSync(first.made.indexFile))
    expect(saved).toBeDefined()
    expect(Object.values(saved!.arrays).some((array) => array.length === 0)).toBe(true)

    const second = await openStore()
    expect(second.status).toEqual({ restoredFromIndex: true, filesRead: 0 })
    expect(second.catalog.size).toBe(first.catalog.size)
    // A new step, saved again, and a third store restores that index too.
    await run(second.made.store.recordStep(step({ sessionId: "mm-mwtj89at-05d4e2", tool: "click", at: hoursAgo(0.5), url: todo, names, target: target("button", "Clear completed", "e20") })))
    await run(second.made.saveIndex)
    const third = await openStore()
    expect(third.status.restoredFromIndex).toBe(true)
    expect(third.catalog.size).toBe(first.catalog.size + 1)
    const found = third.catalog.search({ groups: queryGroups("clear completed"), limit: 5, sessions: "all", filters: undefined, now: NOW })
    expect(found.length).toBeGreaterThan(0)
    expect(logs.filter((line) => line.includes("damaged"))).toEqual([])
  })
})
