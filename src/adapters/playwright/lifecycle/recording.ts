// A session's recordings (--save-trace, --save-video, --save-har): started on the session's context
// as a resource of the session's scope, so that every way a session ends (cleanup, a new launch, the
// server closing) finishes them: the videos encoded, the trace and the HAR scrubbed of secrets
// (recording-scrub.ts) and only then moved into place. The session holds the directory meanwhile, so
// --output-max-mb never removes it (artifact-retention.ts).
// They live in <artifacts>/sessions/<sessionId>/: trace.zip, network.har, video-tab<N>.webm.
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { Effect, FiberRef, Option, Ref, Runtime } from "effect"
import type { BrowserContext, Page } from "playwright"
import type { Settings } from "../../../domain/config.js"
import { LaunchFailed } from "../../../domain/errors.js"
import { groupToOpen } from "../../../services/Recorder.js"
import { Secrets } from "../../../services/Secrets.js"
import { directoryWithin, writeFileAtomic } from "../../files.js"
import { readZip, writeZip } from "../../zip.js"
import { firstLine } from "../calls.js"
import { artifactRedactor, passwordValuesIn, scrubHar, scrubTrace } from "./recording-scrub.js"
import { FFMPEG_MISSING, findFfmpeg, recordPage, type TabVideo } from "./recording-video.js"
import { holdArtifact } from "./artifact-retention.js"

/** The files of a session's recordings, by name in its directory. */
export const RECORDING_FILES = { trace: "trace.zip", har: "network.har" } as const

/** Where a session's recordings are written. */
export const recordingDir = (artifactsDir: string, sessionId: string) => path.resolve(artifactsDir, "sessions", sessionId)

export interface Recording {
  readonly dir: string
  /** Opens a group named `label` in the trace (a no-op without one); the effect it returns closes it. */
  readonly group: (label: string) => Effect.Effect<Effect.Effect<void>>
  /** Text a call typed that the server kept out of its records: kept out of these files too. */
  readonly sensitive: (values: ReadonlyArray<string>) => Effect.Effect<void>
}

/**
 * The recording of each context, for the calls that run on it: a context is what Playwright records,
 * and a WeakMap keyed by it follows whatever holds the context (one session or many) without a field of its own.
 */
const recordings = new WeakMap<BrowserContext, Recording>()

export const recordingOf = (context: BrowserContext): Recording | undefined => recordings.get(context)

const ignore = (promise: Promise<unknown>) => promise.then(() => undefined, () => undefined)

/** Starts what the settings ask for on the context. Fails the launch when a video is asked for and no ffmpeg is there. */
export const startRecording = (settings: Settings, context: BrowserContext, sessionId: string) =>
  Effect.gen(function* () {
    if (!settings.saveTrace && !settings.saveVideo && !settings.saveHar) return undefined
    const ffmpeg = settings.saveVideo ? findFfmpeg() : undefined
    if (settings.saveVideo && ffmpeg === undefined) return yield* new LaunchFailed({ reason: "BrowserStartFailed", detail: FFMPEG_MISSING })
    const secrets = Option.getOrElse(yield* Effect.serviceOption(Secrets), () => Secrets.none)
    const dir = recordingDir(settings.artifactsDir, sessionId)
    const partial = (name: string) => path.join(dir, `.${name}.partial`)
    yield* Effect.tryPromise({
      try: () => directoryWithin(settings.artifactsDir, dir),
      catch: (error) => new LaunchFailed({ reason: "BrowserStartFailed", detail: `cannot write the session's recordings in ${dir}: ${firstLine(error)}` })
    })
    const sensitive = yield* Ref.make<ReadonlySet<string>>(new Set())
    const finished = yield* Ref.make(false)
    const videos: Array<TabVideo> = []
    // Playwright's callbacks log through the runtime that started the session (its logger writes to stderr).
    const runFork = Runtime.runFork(yield* Effect.runtime<never>())
    const onPage = (page: Page) => {
      const file = path.join(dir, `video-tab${videos.length + 1}.webm`)
      const video = recordPage(page, file, ffmpeg!, (message) => runFork(Effect.logWarning(message)))
      videos.push({ stop: () => video.then((started) => started.stop()) })
    }

    const start = Effect.tryPromise({
      try: async () => {
        holdArtifact(context, dir)
        if (settings.saveTrace) await context.tracing.start({ screenshots: true, snapshots: true, title: sessionId })
        if (settings.saveHar) await context.tracing.startHar(partial(RECORDING_FILES.har), { content: "embed" })
        if (ffmpeg !== undefined) {
          for (const page of context.pages()) onPage(page)
          context.on("page", onPage)
        }
      },
      catch: (error) => new LaunchFailed({ reason: "BrowserStartFailed", detail: `the session's recording did not start: ${firstLine(error)}` })
    })

    const finish = Effect.gen(function* () {
      yield* Ref.set(finished, true)
      context.off("page", onPage)
      const trace = partial(RECORDING_FILES.trace)
      const ended = yield* Effect.promise(async () => {
        const stopped = { trace: false, har: false }
        await Promise.all(videos.map((video) => ignore(video.stop())))
        if (settings.saveHar) stopped.har = await context.tracing.stopHar().then(() => true, () => false)
        if (settings.saveTrace) stopped.trace = await context.tracing.stop({ path: trace }).then(() => true, () => false)
        return stopped
      })
      const typed = new Set(yield* Ref.get(sensitive))
      if (ended.trace) {
        yield* Effect.tryPromise(async () => {
          const entries = readZip(await fs.readFile(trace))
          for (const value of passwordValuesIn(entries)) typed.add(value)
          const values = secrets.names.flatMap((name) => Option.toArray(secrets.lookup(name)))
          const scrubbed = scrubTrace(entries, artifactRedactor(secrets, typed), typed, new Set([...typed, ...values]))
          await writeFileAtomic(path.join(dir, RECORDING_FILES.trace), writeZip(scrubbed), { within: settings.artifactsDir })
        }).pipe(Effect.catchAll((error) => Effect.logWarning(`the trace of ${sessionId} was not saved`, firstLine(error.error))))
      } else if (settings.saveTrace) {
        yield* Effect.logWarning(`the trace of ${sessionId} was not saved: its browser was gone`)
      }
      if (ended.har) {
        const har = partial(RECORDING_FILES.har)
        yield* Effect.tryPromise(async () => {
          const scrubbed = scrubHar(await fs.readFile(har, "utf8"), artifactRedactor(secrets, typed))
          await writeFileAtomic(path.join(dir, RECORDING_FILES.har), scrubbed, { within: settings.artifactsDir })
        }).pipe(Effect.catchAll((error) => Effect.logWarning(`the HAR of ${sessionId} was not saved`, firstLine(error.error))))
      }
      yield* Effect.promise(() => Promise.all([ignore(fs.rm(trace, { force: true })), ignore(fs.rm(partial(RECORDING_FILES.har), { force: true }))]))
      recordings.delete(context)
    })

    yield* Effect.acquireRelease(start, () => Effect.uninterruptible(finish))

    const recording: Recording = {
      dir,
      group: (label) =>
        Effect.gen(function* () {
          if (!settings.saveTrace || (yield* Ref.get(finished))) return Effect.void
          const opened = yield* Effect.promise(() => context.tracing.group(label).then(() => true, () => false))
          return opened ? Effect.promise(() => ignore(context.tracing.groupEnd())) : Effect.void
        }),
      sensitive: (values) => Ref.update(sensitive, (known) => new Set([...known, ...values]))
    }
    recordings.set(context, recording)
    // The call that starts the session (mm_launch) is a group of its trace from here on.
    const toOpen = yield* FiberRef.get(groupToOpen)
    if (Option.isSome(toOpen)) yield* Ref.set(toOpen.value.close, yield* recording.group(toOpen.value.label))
    return recording
  })
