// A tab's video: Playwright's screencast hands over JPEG frames, and an ffmpeg found on this machine
// (Debian's, Homebrew's, or Playwright's own download) encodes them to WebM at a steady frame rate,
// repeating the latest frame while the page shows no change. Playwright's own recorder looks for its
// ffmpeg only in its download directory, which cannot be fetched everywhere; this one takes any.
import { spawn } from "node:child_process"
import * as fsSync from "node:fs"
import * as fs from "node:fs/promises"
import { createRequire } from "node:module"
import * as os from "node:os"
import * as path from "node:path"
import type { Page } from "playwright"

/** Frames per second of the videos: enough to follow what an agent did, cheap to encode. */
const FPS = 10
/** Videos are at most this size (the page's viewport scaled down to fit, as Playwright's own videos). */
const MAX_SIZE = { width: 1280, height: 800 }
/** How long ffmpeg may take to finish a video after its last frame. */
const FINISH_TIMEOUT_MS = 15_000

const executable = (file: string) => {
  try {
    fsSync.accessSync(file, fsSync.constants.X_OK)
    return fsSync.statSync(file).isFile()
  } catch {
    return false
  }
}

/** The directory of the playwright-core that the server's playwright loads, or undefined. */
const playwrightCoreDir = (): string | undefined => {
  try {
    const fromHere = createRequire(import.meta.url)
    return path.dirname(createRequire(fromHere.resolve("playwright/package.json")).resolve("playwright-core/package.json"))
  } catch {
    return undefined
  }
}

/**
 * Where Playwright keeps its downloads, as its registry decides it: PLAYWRIGHT_BROWSERS_PATH ("0": inside
 * the playwright-core package), else the user's cache (XDG_CACHE_HOME on Linux).
 */
export const playwrightRegistry = (): string | undefined => {
  const given = process.env.PLAYWRIGHT_BROWSERS_PATH
  if (given === "0") {
    const core = playwrightCoreDir()
    return core === undefined ? undefined : path.join(core, ".local-browsers")
  }
  if (given !== undefined && given !== "") return path.resolve(given)
  return process.platform === "darwin"
    ? path.join(os.homedir(), "Library", "Caches", "ms-playwright")
    : process.platform === "win32"
      ? path.join(process.env.LOCALAPPDATA ?? os.homedir(), "ms-playwright")
      : path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "ms-playwright")
}

/** Playwright's own ffmpeg, where `npx playwright install ffmpeg` puts it (any revision, the newest first). */
const playwrightFfmpegs = (): ReadonlyArray<string> => {
  const registry = playwrightRegistry()
  const name = process.platform === "darwin" ? "ffmpeg-mac" : process.platform === "win32" ? "ffmpeg-win64.exe" : "ffmpeg-linux"
  if (registry === undefined) return []
  try {
    return fsSync
      .readdirSync(registry)
      .filter((entry) => /^ffmpeg-\d+$/.test(entry))
      .sort((a, b) => Number(b.slice("ffmpeg-".length)) - Number(a.slice("ffmpeg-".length)))
      .map((entry) => path.join(registry, entry, name))
  } catch {
    return []
  }
}

/** Where ffmpeg is looked for, in order (docs/configuration.md lists them). */
export const ffmpegCandidates = (): ReadonlyArray<string> => [
  ...(process.env.PATH ?? "").split(path.delimiter).filter((dir) => dir !== "").map((dir) => path.join(dir, process.platform === "win32" ? "ffmpeg.exe" : "ffmpeg")),
  "/usr/bin/ffmpeg",
  "/usr/local/bin/ffmpeg",
  "/opt/homebrew/bin/ffmpeg",
  ...playwrightFfmpegs()
]

/** The first ffmpeg found, or undefined. */
export const findFfmpeg = (): string | undefined => ffmpegCandidates().find(executable)

export const FFMPEG_MISSING =
  "--save-video needs ffmpeg to encode the video and none was found (looked on the PATH, in /usr/bin, /usr/local/bin, /opt/homebrew/bin and Playwright's download directory). Install it: Debian/Ubuntu `apt-get install -y ffmpeg` (or `npm run ensure-browser` as root), macOS `brew install ffmpeg`, any system `npx playwright install ffmpeg`; or start without --save-video."

export interface TabVideo {
  /** Ends the video: the file's path once it is complete, else undefined (no frame came, or ffmpeg failed). */
  readonly stop: () => Promise<string | undefined>
}

const even = (value: number) => Math.max(2, Math.floor(value / 2) * 2)

/** The page's viewport scaled down to fit MAX_SIZE, in even pixels (the encoder wants them even). */
const videoSize = (page: Page) => {
  const viewport = page.viewportSize() ?? MAX_SIZE
  const scale = Math.min(1, MAX_SIZE.width / viewport.width, MAX_SIZE.height / viewport.height)
  return { width: even(viewport.width * scale), height: even(viewport.height * scale) }
}

/**
 * Records the page into `file` (written as `file` + ".partial" until it is complete). `log` hears what
 * went wrong; a video that fails never fails the session.
 */
export const recordPage = async (page: Page, file: string, ffmpeg: string, log: (message: string) => void): Promise<TabVideo> => {
  const size = videoSize(page)
  const partial = `${file}.partial`
  const encoder = spawn(
    ffmpeg,
    // One JPEG after another in, VP8 WebM out, at a steady rate, fast and on one thread (the page's machine is busy).
    ["-loglevel", "error", "-f", "image2pipe", "-framerate", String(FPS), "-c:v", "mjpeg", "-i", "pipe:0", "-an", "-vf", `scale=${size.width}:${size.height}`, "-pix_fmt", "yuv420p", "-c:v", "vp8", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "1M", "-threads", "1", "-f", "webm", "-y", partial],
    { stdio: ["pipe", "ignore", "pipe"] }
  )
  let errors = ""
  encoder.stderr.on("data", (chunk: Buffer) => {
    errors = (errors + chunk.toString("utf8")).slice(-500)
  })
  const exited = new Promise<number | null>((resolve) => {
    encoder.on("close", (code) => resolve(code))
    encoder.on("error", (error) => {
      errors = error.message
      resolve(null)
    })
  })
  encoder.stdin.on("error", () => undefined)
  let latest: Buffer | undefined
  let frames = 0
  let waitingForDrain = false
  const writeFrame = () => {
    if (latest === undefined || waitingForDrain || encoder.stdin.destroyed) return
    frames++
    if (!encoder.stdin.write(latest)) {
      waitingForDrain = true
      encoder.stdin.once("drain", () => (waitingForDrain = false))
    }
  }
  const timer = setInterval(writeFrame, 1000 / FPS)
  const screencast = await page.screencast.start({ size, quality: 70, onFrame: ({ data }) => void (latest = data) }).catch((error: unknown) => {
    log(`video of a tab not started: ${error instanceof Error ? error.message : String(error)}`)
    return undefined
  })
  let stopped: Promise<string | undefined> | undefined
  const stop = () =>
    (stopped ??= (async () => {
      clearInterval(timer)
      if (screencast !== undefined && !page.isClosed()) await page.screencast.stop().catch(() => undefined)
      writeFrame()
      encoder.stdin.end()
      const code = await Promise.race([exited, new Promise<"late">((resolve) => setTimeout(() => resolve("late"), FINISH_TIMEOUT_MS))])
      if (code === "late") encoder.kill("SIGKILL")
      if (code !== 0 || frames === 0) {
        if (frames > 0) log(`video ${path.basename(file)} not written: ffmpeg ${code === "late" ? "did not finish" : `exited with ${code}`}: ${errors.trim()}`)
        await fs.rm(partial, { force: true })
        return undefined
      }
      // The server's files are its owner's only, as every other artifact.
      await fs.chmod(partial, 0o600)
      await fs.rename(partial, file)
      return file
    })())
  page.once("close", () => void stop())
  return { stop }
}
