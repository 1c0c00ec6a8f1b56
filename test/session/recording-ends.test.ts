// Every way a session ends finishes its recordings: a launch that replaces it (force), and the server's
// layers closing while it runs (what stdin closing or a signal does); --output-max-mb then removes the
// oldest finished session's recordings, never the running one's.
import * as fs from "node:fs"
import * as path from "node:path"
import { expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { recordingDir } from "../../src/adapters/playwright/lifecycle/recording.js"
import { readZip } from "../../src/adapters/zip.js"
import { liveLayer, testSettings } from "../support/browser.js"
import { ok } from "../support/calls.js"

/** Runs a session's calls on the live layers of `settings`, closed when it ends (the support `ok` leaves its requirements open). */
const onServer = <A>(settings: ReturnType<typeof testSettings>, calls: Effect.Effect<A, never, any>): Effect.Effect<A> =>
  calls.pipe(Effect.provide(liveLayer(settings))) as Effect.Effect<A>

const traceOf = (artifactsDir: string, sessionId: string) => path.join(recordingDir(artifactsDir, sessionId), "trace.zip")

it.live(
  "a session replaced by a forced launch and one running when the server closes both leave a complete trace",
  () =>
    Effect.gen(function* () {
      const settings = testSettings({ saveTrace: true, saveHar: true })
      const [first, second] = yield* onServer(settings, Effect.gen(function* () {
        const first = (yield* ok("mm_launch", {})).result.sessionId as string
        const second = (yield* ok("mm_launch", { force: true })).result.sessionId as string
        // The replaced session's files are there as soon as the new launch answered.
        expect(fs.existsSync(traceOf(settings.artifactsDir, first))).toBe(true)
        expect(fs.existsSync(path.join(recordingDir(settings.artifactsDir, first), "network.har"))).toBe(true)
        expect(fs.existsSync(traceOf(settings.artifactsDir, second))).toBe(false)
        return [first, second] as const
      }))
      // The layers closed with the second session running: its trace was finished on the way out.
      for (const sessionId of [first, second]) {
        const entries = readZip(fs.readFileSync(traceOf(settings.artifactsDir, sessionId)))
        expect(entries.some((entry) => entry.name.endsWith(".trace")), sessionId).toBe(true)
      }
    }),
  120_000
)

it.live(
  "--output-max-mb removes the oldest sessions' recordings when a new one starts, never the running session's",
  () =>
    Effect.gen(function* () {
      // 1 MB holds one small trace and HAR, not three.
      const settings = testSettings({ saveTrace: true, saveHar: true, outputMaxMb: 1 })
      const sessions = path.join(settings.artifactsDir, "sessions")
      // Two older sessions of 600 KB each, as an earlier server left them.
      for (const [name, age] of [["mm-old-1", 20], ["mm-old-2", 10]] as const) {
        fs.mkdirSync(path.join(sessions, name), { recursive: true })
        fs.writeFileSync(path.join(sessions, name, "trace.zip"), Buffer.alloc(600 * 1024))
        const when = new Date(Date.now() - age * 60_000)
        fs.utimesSync(path.join(sessions, name), when, when)
      }
      const running = yield* onServer(settings, Effect.gen(function* () {
        const sessionId = (yield* ok("mm_launch", {})).result.sessionId as string
        // The oldest went to make room; the newer old one fits beside the running session.
        expect(fs.readdirSync(sessions).sort()).toEqual(["mm-old-2", sessionId].sort())
        return sessionId
      }))
      expect(fs.existsSync(traceOf(settings.artifactsDir, running))).toBe(true)
    }),
  120_000
)
