#!/usr/bin/env node
// Makes sure a Chromium-family browser exists before the demo or the tests run, and ffmpeg for --save-video.
// As root on Debian/Ubuntu it installs Debian's chromium (and ffmpeg) with apt; otherwise it says exactly
// what to install (ffmpeg only as a note: it is needed for --save-video alone).
import { existsSync, readdirSync } from "node:fs"
import { homedir } from "node:os"
import { execFileSync } from "node:child_process"
import { delimiter, join } from "node:path"

const candidates = [
  process.env.BWM_EXECUTABLE_PATH,
  "/usr/lib/chromium/chromium",
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
  "/opt/google/chrome/chrome",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
  "/Applications/Chromium.app/Contents/MacOS/Chromium"
].filter(Boolean)

const isRoot = typeof process.getuid === "function" && process.getuid() === 0
const hasApt = existsSync("/usr/bin/apt-get")
const aptEnv = { ...process.env, DEBIAN_FRONTEND: "noninteractive" }
let aptUpdated = false
const aptInstall = (...args) => {
  if (!aptUpdated) execFileSync("apt-get", ["update", "-qq"], { stdio: ["ignore", "inherit", "inherit"], env: aptEnv })
  aptUpdated = true
  execFileSync("apt-get", ["install", "-y", "-qq", ...args], { stdio: ["ignore", "inherit", "inherit"], env: aptEnv })
}

// ffmpeg encodes --save-video's videos; the server looks for it where this does (recording-video.ts), and in
// Playwright's cache, where `npx playwright install ffmpeg` puts it (PLAYWRIGHT_BROWSERS_PATH=0 not looked at here).
const playwrightCache =
  process.env.PLAYWRIGHT_BROWSERS_PATH && process.env.PLAYWRIGHT_BROWSERS_PATH !== "0"
    ? process.env.PLAYWRIGHT_BROWSERS_PATH
    : process.platform === "darwin"
      ? join(homedir(), "Library", "Caches", "ms-playwright")
      : join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "ms-playwright")
const playwrightFfmpegs = existsSync(playwrightCache)
  ? readdirSync(playwrightCache).filter((entry) => /^ffmpeg-\d+$/.test(entry)).map((entry) => join(playwrightCache, entry, process.platform === "darwin" ? "ffmpeg-mac" : "ffmpeg-linux"))
  : []
const ffmpegPlaces = [
  ...(process.env.PATH ?? "").split(delimiter).filter(Boolean).map((dir) => join(dir, "ffmpeg")),
  "/usr/bin/ffmpeg",
  "/usr/local/bin/ffmpeg",
  "/opt/homebrew/bin/ffmpeg",
  ...playwrightFfmpegs
]
if (!ffmpegPlaces.some((path) => existsSync(path))) {
  if (isRoot && hasApt) {
    process.stderr.write("No ffmpeg found (for --save-video); installing Debian's ffmpeg with apt-get...\n")
    // Only --save-video needs it: an install that fails (no network, no such package) is a note, not the end of the set-up.
    try {
      aptInstall("--no-install-recommends", "ffmpeg")
    } catch (error) {
      process.stderr.write(`note: ffmpeg could not be installed (${String(error).split("\n")[0]}); --save-video will fail saying what to install, and its test checks that error instead of a video.\n`)
    }
  } else {
    process.stderr.write("note: no ffmpeg found; --save-video needs it (Debian/Ubuntu: sudo apt-get install -y ffmpeg; macOS: brew install ffmpeg; any system: npx playwright install ffmpeg).\n")
  }
}

const found = candidates.find((path) => existsSync(path))
if (found) {
  process.stderr.write(`browser: ${found}\n`)
  process.exit(0)
}

if (isRoot && hasApt) {
  process.stderr.write("No Chromium found; installing Debian's chromium with apt-get...\n")
  aptInstall("chromium")
  process.exit(0)
}

process.stderr.write(
  [
    "No Chromium or Chrome browser was found. Tried:",
    ...candidates.map((path) => `  - ${path}`),
    "Install one of:",
    "  Debian/Ubuntu:  sudo apt-get install -y chromium",
    "  macOS:          brew install --cask chromium",
    "  any system:     npx playwright install chromium",
    "or point BWM_EXECUTABLE_PATH at an existing Chromium or Chrome binary."
  ].join("\n") + "\n"
)
process.exit(1)
