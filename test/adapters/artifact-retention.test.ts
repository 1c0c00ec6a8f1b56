// --output-max-mb without a browser: what pruning counts and removes under the artifacts directory
// (every kind the server writes), in which order, what it never removes, and that a failure to remove one
// file is logged and skipped, never a call's failure. The real-browser side: test/session/artifact-retention.test.ts.
import * as fs from "node:fs"
import * as path from "node:path"
import { Effect, Logger } from "effect"
import { describe, expect, it, vi } from "vitest"
import { holdArtifact, holdArtifacts, pruneArtifacts, pruneWithin } from "../../src/adapters/playwright/lifecycle/artifact-retention.js"
import { testSettings } from "../support/browser.js"

/** Files whose removal fails here, as a disk would refuse it (EIO): the rest of node:fs/promises is the real one. */
const refused = new Set<string>()
vi.mock("node:fs/promises", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs/promises")>()
  const unlink = (file: string) =>
    refused.has(path.resolve(file)) ? Promise.reject(Object.assign(new Error(`EIO: i/o error, unlink '${file}'`), { code: "EIO" })) : real.unlink(file)
  return { ...real, default: { ...real, unlink }, unlink }
})

/** Writes `bytes` bytes at `relative` under `root`, last changed `age` minutes ago. */
const put = (root: string, relative: string, bytes: number, age: number) => {
  const file = path.join(root, relative)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, Buffer.alloc(bytes))
  const when = new Date(Date.now() - age * 60_000)
  fs.utimesSync(file, when, when)
  return file
}

/** A session directory holding `bytes` of recordings, last changed `age` minutes ago. */
const recorded = (root: string, id: string, bytes: number, age: number) => {
  put(root, `sessions/${id}/trace.zip`, bytes, age)
  const dir = path.join(root, "sessions", id)
  const when = new Date(Date.now() - age * 60_000)
  fs.utimesSync(dir, when, when)
  return dir
}

const listed = (root: string) =>
  (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as Array<fs.Dirent>)
    .filter((entry) => entry.isFile() || entry.isSymbolicLink())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort()

describe("--output-max-mb pruning", () => {
  it("counts every kind the server writes and removes the oldest first until the rest fits: never the step memory, storage states, files being written or a running session's", async () => {
    const settings = testSettings()
    const root = settings.artifactsDir
    // Counted, never removed: 700 bytes, the oldest of all.
    put(root, "llm-knowledge/mm-1/step-1.json", 300, 100)
    put(root, "storage-state/signed-in.json", 300, 100)
    put(root, "downloads/.report.csv.123.ab.tmp", 100, 90)
    // Removable, 400 bytes each, oldest first.
    const oldDownload = put(root, "downloads/old.csv", 400, 80)
    const held = put(root, "screenshots/held.png", 400, 70)
    const pdf = put(root, "pdf/doc.pdf", 400, 60)
    const session = recorded(root, "mm-1", 400, 50)
    put(root, "reports/mm-1.html", 400, 40)
    put(root, "screenshots/new.png", 400, 0)
    // Not the server's: a folder and a link of the user's own are neither counted nor removed.
    put(root, "screenshots/mine/notes.txt", 5_000, 200)
    fs.symlinkSync(path.join(root, "storage-state/signed-in.json"), path.join(root, "downloads/link.json"))
    fs.utimesSync(path.join(root, "downloads"), new Date(0), new Date(0))

    const owner = {}
    const pruned = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          // A running session holds its screenshot (no bound here: holding alone prunes nothing).
          yield* holdArtifacts(settings, owner)
          holdArtifact(owner, held)
          return yield* Effect.promise(() => pruneWithin(root, 1_900))
        })
      )
    )
    // 700 kept + 6 x 400 = 3,100; three removals bring it to 1,900, the held screenshot skipped.
    expect(pruned.removed).toEqual([oldDownload, pdf, session])
    expect(pruned).toMatchObject({ total: 1_900, kept: 700, failed: [] })
    expect(listed(root)).toEqual(
      [
        "downloads/.report.csv.123.ab.tmp",
        "downloads/link.json",
        "llm-knowledge/mm-1/step-1.json",
        "reports/mm-1.html",
        "screenshots/held.png",
        "screenshots/mine/notes.txt",
        "screenshots/new.png",
        "storage-state/signed-in.json"
      ].sort()
    )
    // Once its session ended the screenshot is no longer held: the oldest removable, it goes first.
    expect((await pruneWithin(root, 1_500)).removed).toEqual([held])
  })

  it("never removes a sessions/ folder holding anything but recordings, and finishes a removal an earlier run left half done", async () => {
    const root = testSettings().artifactsDir
    put(root, "sessions/user-notes/notes.txt", 4_000, 60)
    put(root, "sessions/s-mixed/trace.zip", 4_000, 60)
    put(root, "sessions/s-mixed/mine.txt", 4, 60)
    put(root, "sessions/.removing-0a1b2c/trace.zip", 4_000, 60)
    const session = recorded(root, "s-1", 4_000, 0)
    expect((await pruneWithin(root, 100)).removed).toEqual([session])
    expect(fs.readdirSync(path.join(root, "sessions")).sort()).toEqual(["s-mixed", "user-notes"])
  })

  it("a file it cannot remove is skipped and said on the log; the next oldest goes instead and nothing fails", async () => {
    const settings = testSettings({ outputMaxMb: 1 })
    const root = settings.artifactsDir
    const stuck = put(root, "downloads/stuck.bin", 700 * 1024, 30)
    const next = put(root, "screenshots/next.png", 700 * 1024, 20)
    put(root, "pdf/new.pdf", 200 * 1024, 10)
    refused.add(stuck)
    const lines: Array<string> = []
    const logger = Logger.make(({ logLevel, message }) => lines.push(`${logLevel.label} ${JSON.stringify(message)}`))
    await Effect.runPromise(pruneArtifacts(settings).pipe(Effect.provide(Logger.replace(Logger.defaultLogger, logger))))
    refused.delete(stuck)
    expect(fs.existsSync(stuck)).toBe(true)
    expect(fs.existsSync(next)).toBe(false)
    expect(lines.find((line) => line.startsWith("WARN"))).toMatch(/could not remove 1 artifact.*downloads\/stuck\.bin: EIO/)
    expect(lines.find((line) => line.startsWith("INFO"))).toMatch(/removed 1 older artifact.*screenshots\/next\.png/)
  })

  it("says on the log when what it never removes is over the bound by itself", async () => {
    const settings = testSettings({ outputMaxMb: 1 })
    put(settings.artifactsDir, "llm-knowledge/mm-1/step-1.json", 1_200 * 1024, 10)
    const lines: Array<string> = []
    const logger = Logger.make(({ logLevel, message }) => lines.push(`${logLevel.label} ${JSON.stringify(message)}`))
    await Effect.runPromise(pruneArtifacts(settings).pipe(Effect.provide(Logger.replace(Logger.defaultLogger, logger))))
    expect(lines).toEqual([expect.stringMatching(/^WARN .*step memory, the saved storage states and files being written take 1\.2 MB and are never removed/)])
  })
})
