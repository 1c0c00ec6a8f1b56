#!/usr/bin/env node
// Makes sure a Chromium-family browser exists before the demo or the tests run.
// As root on Debian/Ubuntu it installs Debian's chromium with apt; otherwise it says exactly what to install.
import { existsSync } from "node:fs"
import { execFileSync } from "node:child_process"

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

const found = candidates.find((path) => existsSync(path))
if (found) {
  process.stderr.write(`browser: ${found}\n`)
  process.exit(0)
}

const isRoot = typeof process.getuid === "function" && process.getuid() === 0
const hasApt = existsSync("/usr/bin/apt-get")
if (isRoot && hasApt) {
  process.stderr.write("No Chromium found; installing Debian's chromium with apt-get...\n")
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" }
  execFileSync("apt-get", ["update", "-qq"], { stdio: ["ignore", "inherit", "inherit"], env })
  execFileSync("apt-get", ["install", "-y", "-qq", "chromium"], { stdio: ["ignore", "inherit", "inherit"], env })
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
