// --output-max-mb over everything the server writes, in real Chromium: a session start removes the oldest
// files of every kind (download, screenshot, PDF, report, recordings); a running session's own files (its
// screenshot, PDF, download, and the recordings it is writing: trace, HAR, video) survive a pruning that
// another server in the process runs past them; once every session ended the directory is within its bound.
import * as fs from "node:fs"
import * as path from "node:path"
import { expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { recordingDir } from "../../src/adapters/playwright/lifecycle/recording.js"
import { KEPT_DIRS } from "../../src/adapters/playwright/lifecycle/artifact-retention.js"
import { html, liveLayer, pageServer, testSettings } from "../support/browser.js"
import { callsWith } from "../support/calls.js"

/** Runs calls on the live layers of `settings`, closed (its sessions ended) when they return. */
const onServer = <A>(settings: ReturnType<typeof testSettings>, calls: Effect.Effect<A, never, any>): Effect.Effect<A> =>
  calls.pipe(Effect.provide(liveLayer(settings))) as Effect.Effect<A>

/** Writes `kb` KB at `relative` under `root`, last changed `age` minutes ago. */
const put = (root: string, relative: string, kb: number, age: number) => {
  const file = path.join(root, relative)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, Buffer.alloc(kb * 1024))
  const when = new Date(Date.now() - age * 60_000)
  fs.utimesSync(file, when, when)
  fs.utimesSync(path.dirname(file), when, when)
  return file
}

/** The bytes of the files under `dir`. */
const bytesUnder = (dir: string): number =>
  (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as Array<fs.Dirent>)
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + fs.statSync(path.join(entry.parentPath, entry.name)).size, 0)

const PAGE = html("Files", `<h1>Files</h1><a id="csv" download="mine.csv" href="data:text/csv;base64,${Buffer.from("a,b\n1,2\n").toString("base64")}">CSV</a>`)

it.live(
  "--output-max-mb removes the oldest artifacts of every kind, never a running session's files, and leaves the directory within its bound",
  () =>
    Effect.gen(function* () {
      const server = yield* pageServer({ "/": PAGE })
      const settings = testSettings({ outputMaxMb: 1, saveTrace: true, saveHar: true, saveVideo: true, caps: ["pdf"] })
      const root = settings.artifactsDir
      const { ok } = callsWith(settings)
      // What earlier servers left, 300 KB of each kind, the oldest first: 1.5 MB.
      const old = [
        put(root, "downloads/old.csv", 300, 60),
        put(root, "screenshots/old.png", 300, 50),
        put(root, "pdf/old.pdf", 300, 40),
        put(root, "reports/old.html", 300, 30),
        put(root, "sessions/mm-old/trace.zip", 300, 20)
      ]
      yield* onServer(settings, Effect.gen(function* () {
        const sessionId = (yield* ok("mm_launch", {})).result.sessionId as string
        yield* ok("mm_navigate", { url: server.url })
        // The start removed the two oldest; the rest (900 KB) fits.
        expect(old.map((file) => fs.existsSync(file))).toEqual([false, false, true, true, true])
        const shot = (yield* ok("mm_screenshot", { name: "mine" })).result.path as string
        const pdf = (yield* ok("mm_save_pdf", { name: "mine" })).result.path as string
        const saved = (yield* ok("mm_click", { selector: "#csv" })).download
        expect(saved?.path).toBeDefined()
        const recordings = recordingDir(root, sessionId)
        // A newer 1.1 MB file, so that the next pruning must go past this session's older files to fit.
        const late = put(root, "screenshots/late.png", 1_100, 0)
        // Another server in the process starts and ends a session: two prunings while this one runs.
        yield* onServer({ ...settings }, Effect.gen(function* () {
          yield* ok("mm_launch", {})
          yield* ok("mm_navigate", { url: server.url })
          yield* ok("mm_cleanup", {})
        }))
        expect(fs.existsSync(late)).toBe(false)
        expect(old.map((file) => fs.existsSync(file))).toEqual([false, false, false, false, false])
        // This session's files, older than the one removed, are all there, and so is its recordings directory.
        for (const file of [shot, pdf, saved!.path!, recordings]) expect(fs.existsSync(file), file).toBe(true)
        yield* ok("mm_cleanup", {})
        // Its recordings were written whole after the prunings (never removed mid-write).
        expect(fs.readdirSync(recordings).filter((name) => !name.startsWith(".")).sort()).toEqual(expect.arrayContaining(["network.har", "trace.zip", "video-tab1.webm"]))
      }))
      // Every session ended: what counts (all but a user's own files, of which there are none) is within 1 MB.
      const counted = fs.readdirSync(root).map((dir) => bytesUnder(path.join(root, dir)))
      expect(counted.reduce((sum, bytes) => sum + bytes, 0)).toBeLessThanOrEqual(1024 * 1024)
      // The step memory is never removed: the calls above are all in it.
      expect(fs.readdirSync(path.join(root, KEPT_DIRS[0])).length).toBeGreaterThan(0)
    }).pipe(Effect.scoped),
  180_000
)
