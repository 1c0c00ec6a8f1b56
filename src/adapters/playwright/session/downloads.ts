// Downloads a page starts, saved under <artifacts>/downloads/: the hook that wires a page's "download"
// events into its session's log, and the saving (size cap, hash, a unique name, atomic and owner-only).
// Everything here runs from Playwright callbacks: it never throws, never rejects unhandled, and a
// download that fails, is cancelled or outlives its page only ends as an entry that says so.
import { createHash } from "node:crypto"
import { createReadStream } from "node:fs"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { Deferred, Effect, Ref } from "effect"
import type { Download as PlaywrightDownload, Page } from "playwright"
import type { Settings } from "../../../domain/config.js"
import { mimeOf, nextFreeName, safeFileName, type Download } from "../../../domain/download.js"
import { fromPage } from "../../../domain/errors.js"
import { directoryWithin, OWNER_ONLY_FILE, placeFileAtomic, temporaryPathFor } from "../../files.js"
import { firstLine } from "../calls.js"
import { holdArtifact } from "../lifecycle/artifact-retention.js"

/** Runs a synchronous Effect from a callback (the session's captured runtime). */
type RunSync = <A>(effect: Effect.Effect<A>) => A

/** Where a session's downloads go and how large one may grow. */
export interface DownloadTarget {
  readonly dir: string
  /** The artifacts directory: nothing is written outside it, and no directory on the way may be a link. */
  readonly within: string
  readonly maxBytes: number
}

export const downloadTarget = (settings: Settings): DownloadTarget => ({
  dir: path.resolve(settings.artifactsDir, "downloads"),
  within: path.resolve(settings.artifactsDir),
  maxBytes: settings.maxDownloadMb * 1024 * 1024
})

interface Entry {
  readonly seq: number
  readonly download: Download
  /** Done once the download is saved, failed or stopped. */
  readonly done: Deferred.Deferred<void>
  /** An answer (or mm_downloads) listed it. */
  readonly reported: boolean
  /** An answer said "in progress": its end is news, told as a notice. */
  readonly toldRunning: boolean
}

export interface DownloadLog {
  /** How many downloads the session started: the cursor of the newest. */
  readonly started: number
  readonly entries: ReadonlyArray<Entry>
}

/** A session's downloads: where they go and the log, in a Ref that calls and callbacks both touch. */
export interface Downloads {
  readonly target: DownloadTarget
  readonly log: Ref.Ref<DownloadLog>
}

/** The log keeps the newest entries only (mm_downloads lists them): a page that downloads in a loop cannot grow it. */
export const KEPT_DOWNLOADS = 200

export const makeDownloads = (target: DownloadTarget) =>
  Effect.map(Ref.make<DownloadLog>({ started: 0, entries: [] }), (log): Downloads => ({ target, log }))

/** How many downloads each page started: a click that asked for one knows when it has begun, even before it listens. */
const startedOn = new WeakMap<Page, number>()

export const downloadsStartedOn = (page: Page): number => startedOn.get(page) ?? 0

/** How many navigations' declared types a page keeps, for the download one of them turns out to be. */
const DECLARED_KEPT = 20

/** How often a running download's partial file is measured against the cap. */
const SIZE_CHECK_MS = 200

/** The downloads after `cursor`, and older ones no answer listed yet (they started after their call answered), oldest first. */
export const entriesAfter = (log: DownloadLog, cursor: number): ReadonlyArray<Entry> =>
  log.entries.filter((entry) => entry.seq > cursor || !entry.reported)

/**
 * The downloads after `cursor` (and those no answer listed yet) as they are now, marked listed; those
 * still running are marked told, so that their end comes as a notice. One Ref step: a download that
 * finishes meanwhile is either listed done here or told later, never neither.
 */
export const takeAfter = (log: Ref.Ref<DownloadLog>, cursor: number) =>
  Ref.modify(log, (current): [ReadonlyArray<Download>, DownloadLog] => {
    const shown = entriesAfter(current, cursor)
    if (shown.length === 0) return [[], current]
    const listed = new Set(shown.map((entry) => entry.seq))
    const entries = current.entries.map((entry) =>
      listed.has(entry.seq) ? { ...entry, reported: true, toldRunning: entry.toldRunning || entry.download.state === "in progress" } : entry
    )
    return [shown.map((entry) => entry.download), { ...current, entries }]
  })

/** Waits (no longer than the caller lets it) until every download `takeAfter` would list has ended. */
export const awaitAfter = (log: Ref.Ref<DownloadLog>, cursor: number) =>
  Effect.flatMap(Ref.get(log), (current) => Effect.forEach(entriesAfter(current, cursor), (entry) => Deferred.await(entry.done), { discard: true }))

/**
 * Playwright writes a running download to its artifact's path plus ".crdownload" (Chromium's partial
 * file) and gives no progress event; its path is not public API, so a Playwright that no longer has it
 * (or a remote browser) leaves the cap to the size of the finished file.
 */
const partialFileOf = (download: PlaywrightDownload): string | undefined => {
  const absolute = (download as unknown as { _artifact?: { _initializer?: { absolutePath?: unknown } } })._artifact?._initializer?.absolutePath
  return typeof absolute === "string" ? absolute : undefined
}

const sizeOf = (file: string): Promise<number> =>
  fs.stat(`${file}.crdownload`).then(
    (stat) => stat.size,
    () => fs.stat(file).then((stat) => stat.size, () => 0)
  )

const sha256Of = (file: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const hash = createHash("sha256")
    createReadStream(file)
      .on("data", (chunk) => hash.update(chunk))
      .on("end", () => resolve(hash.digest("hex")))
      .on("error", reject)
  })

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`

/** What a download came to, and the notice it leaves (a cap), if any. */
interface Ending {
  readonly download: Download
  readonly notice?: string
}

/** The first bytes of a file: what its type is told by. */
const headOf = async (file: string): Promise<Uint8Array> => {
  const handle = await fs.open(file, "r")
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(16), 0, 16, 0)
    return buffer.subarray(0, bytesRead)
  } finally {
    await handle.close()
  }
}

/** Where a download came from and the type its response declared, if any. */
interface Origin {
  readonly url: string
  readonly contentType: string | undefined
}

/** Waits for the download, stopping it when it grows past the cap, then saves it under a free name and hashes it. */
const save = async (download: PlaywrightDownload, target: DownloadTarget, name: string, origin: Origin, hold: (file: string) => void): Promise<Ending> => {
  const mime = mimeOf(name, origin.url, { contentType: origin.contentType })
  const base: Download = { name, ...(mime !== undefined ? { mime } : {}) }
  const tooLarge = (bytes: number): Ending => ({
    download: { ...base, state: "too large" },
    notice: `The download (${fromPage("file name", name, 120)}) was stopped at ${megabytes(bytes)}: larger than --max-download-mb ${Math.round(target.maxBytes / 1024 / 1024)}; its file was deleted.`
  })
  let stoppedAt: number | undefined
  const partial = partialFileOf(download)
  const timer =
    partial === undefined
      ? undefined
      : setInterval(() => {
          void sizeOf(partial).then((bytes) => {
            if (bytes <= target.maxBytes || stoppedAt !== undefined) return
            stoppedAt = bytes
            void download.cancel().catch(() => undefined)
          })
        }, SIZE_CHECK_MS)
  let failure: string | null
  try {
    failure = await download.failure()
  } finally {
    if (timer !== undefined) clearInterval(timer)
  }
  if (stoppedAt !== undefined) {
    await download.delete().catch(() => undefined)
    return tooLarge(stoppedAt)
  }
  if (failure !== null) {
    await download.delete().catch(() => undefined)
    // Chromium reports an interrupted download (its connection lost, its browser closing) as cancelled; nothing but the cap cancels one here.
    return { download: { ...base, state: "failed", error: failure === "canceled" ? "interrupted: the connection ended or the browser stopped it" : failure } }
  }
  await directoryWithin(target.within, target.dir)
  const wanted = path.join(target.dir, name)
  const temporary = temporaryPathFor(wanted)
  try {
    await download.saveAs(temporary)
    await fs.chmod(temporary, OWNER_ONLY_FILE)
    const bytes = (await fs.stat(temporary)).size
    if (bytes > target.maxBytes) {
      await fs.rm(temporary, { force: true })
      return tooLarge(bytes)
    }
    const sha256 = await sha256Of(temporary)
    // The content has its say where the response did not declare a type (a link with `download`, a blob).
    const type = mimeOf(name, origin.url, { contentType: origin.contentType, head: await headOf(temporary) })
    // Held by the session before it has its name: --output-max-mb never removes it while the session runs.
    const saved = await placeFileAtomic(temporary, wanted, (taken) => path.join(target.dir, nextFreeName(path.basename(taken))), hold)
    return { download: { name, path: saved, bytes, sha256, ...(type !== undefined ? { mime: type } : {}) } }
  } finally {
    await fs.rm(temporary, { force: true }).catch(() => undefined)
    // Playwright's own copy (in its temporary artifacts directory) is not needed any more.
    await download.delete().catch(() => undefined)
  }
}

const stateWord = (download: Download) =>
  download.state === undefined ? `was saved to ${download.path ?? "?"}` : download.state === "too large" ? "was too large" : `${download.state}${download.error !== undefined ? ` (${download.error})` : ""}`

/**
 * Wires a page's downloads into the session's log: each is entered at once (in progress), saved in
 * the background, and its entry completed when it ends. `notice` tells the agent what it did not ask
 * about: a cap that stopped a download, and the end of a download an answer reported as in progress.
 */
export const watchDownloads = (runSync: RunSync, downloads: Downloads, page: Page, notice: (text: string) => void): void => {
  // The type each recent navigation's response declared: a download that was a navigation (an attachment) is one of them.
  const declared = new Map<string, string>()
  page.on("response", (response) => {
    try {
      if (!response.request().isNavigationRequest()) return
      const type = response.headers()["content-type"]
      if (type === undefined) return
      declared.delete(response.url())
      declared.set(response.url(), type)
      if (declared.size > DECLARED_KEPT) declared.delete(declared.keys().next().value!)
    } catch {
      // A response of a page that went away: nothing to keep.
    }
  })
  page.on("download", (download) => {
    startedOn.set(page, downloadsStartedOn(page) + 1)
    let name = "download"
    let url = ""
    try {
      name = safeFileName(download.suggestedFilename())
      url = download.url()
    } catch {
      // A download whose page went away meanwhile still gets its entry (it will end as failed).
    }
    const origin: Origin = { url, contentType: declared.get(url) }
    const mime = mimeOf(name, url, { contentType: origin.contentType })
    const done = runSync(Deferred.make<void>())
    const seq = runSync(
      Ref.modify(downloads.log, (log): [number, DownloadLog] => {
        const entry: Entry = { seq: log.started + 1, download: { name, state: "in progress", ...(mime !== undefined ? { mime } : {}) }, done, reported: false, toldRunning: false }
        return [entry.seq, { started: entry.seq, entries: [...log.entries, entry].slice(-KEPT_DOWNLOADS) }]
      })
    )
    const finish = (ending: Ending) => {
      const told = runSync(
        Ref.modify(downloads.log, (log): [boolean, DownloadLog] => {
          const entry = log.entries.find((candidate) => candidate.seq === seq)
          const entries = log.entries.map((candidate) => (candidate.seq === seq ? { ...candidate, download: ending.download } : candidate))
          return [entry?.toldRunning === true, { ...log, entries }]
        })
      )
      runSync(Deferred.succeed(done, undefined))
      if (ending.notice !== undefined) notice(ending.notice)
      else if (told) notice(`The download (${fromPage("file name", name, 120)}) ${stateWord(ending.download)}.`)
    }
    save(download, downloads.target, name, origin, (file) => holdArtifact(page.context(), file)).then(finish, (error: unknown) => {
      void download.delete().catch(() => undefined)
      finish({ download: { name, state: "failed", error: firstLine(error), ...(mime !== undefined ? { mime } : {}) } })
    })
  })
}
