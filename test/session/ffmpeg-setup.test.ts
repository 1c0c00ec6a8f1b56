// --save-video's set-up on a fresh machine (issue 21), offline: the commands the missing-ffmpeg message
// and the docs give are ones the installed Playwright accepts, and they put ffmpeg where the server looks.
// `playwright install --dry-run ffmpeg` prints where `playwright install ffmpeg` would put it without
// downloading anything (its proxy here is a closed loopback port, so nothing could leave if it tried).
import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"
import { FFMPEG_MISSING, ffmpegCandidates, findFfmpeg, playwrightRegistry } from "../../src/adapters/playwright/lifecycle/recording-video.js"
import { tempDir } from "../support/browser.js"

const run = promisify(execFile)
const root = path.resolve(import.meta.dirname, "../..")
const cli = path.join(root, "node_modules", ".bin", "playwright")

/** Where `npx playwright install ffmpeg` puts ffmpeg under `env`, as the installed Playwright says (nothing downloaded). */
const installLocation = async (env: Record<string, string | undefined>): Promise<string> => {
  const { stdout } = await run(cli, ["install", "--dry-run", "ffmpeg"], {
    cwd: root,
    env: { ...process.env, ...env, HTTPS_PROXY: "http://127.0.0.1:9", HTTP_PROXY: "http://127.0.0.1:9", NO_PROXY: "" }
  })
  expect(stdout).toContain("FFmpeg")
  const location = /Install location:\s+(\S+)/.exec(stdout)?.[1]
  expect(location, stdout).toBeDefined()
  return location!
}

/** Runs `body` with the environment variables of `env` set (undefined: removed), then puts them back. */
const withEnv = <A>(env: Record<string, string | undefined>, body: () => A): A => {
  const before = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]))
  const set = (values: Record<string, string | undefined>) => {
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[key]
      else process.env[key] = value
    }
  }
  set(env)
  try {
    return body()
  } finally {
    set(before)
  }
}

const binary = process.platform === "darwin" ? "ffmpeg-mac" : process.platform === "win32" ? "ffmpeg-win64.exe" : "ffmpeg-linux"

describe("ffmpeg for --save-video, set up as the message says", () => {
  it("the message names the installed Playwright's own command, which it accepts for ffmpeg", async () => {
    expect(FFMPEG_MISSING).toContain("npx playwright install ffmpeg")
    const { stdout } = await run(cli, ["--version"], { cwd: root })
    expect(stdout).toMatch(/^Version 1\.\d+/)
  })

  for (const [name, env] of [
    ["the default cache (HOME)", () => ({ HOME: tempDir("bwm-home-"), XDG_CACHE_HOME: undefined, PLAYWRIGHT_BROWSERS_PATH: undefined })],
    ["XDG_CACHE_HOME", () => ({ XDG_CACHE_HOME: tempDir("bwm-xdg-"), PLAYWRIGHT_BROWSERS_PATH: undefined })],
    ["PLAYWRIGHT_BROWSERS_PATH", () => ({ PLAYWRIGHT_BROWSERS_PATH: tempDir("bwm-browsers-") })]
  ] as const) {
    it(`\`npx playwright install ffmpeg\` puts it where the server finds it: ${name}`, async () => {
      const vars = env()
      const location = await installLocation(vars)
      // What the install would leave there: the binary, executable (a copy of a shell script standing in).
      fs.mkdirSync(location, { recursive: true })
      const file = path.join(location, binary)
      fs.writeFileSync(file, "#!/bin/sh\nexit 0\n", { mode: 0o755 })
      // Found by the server, and the one it takes when no system ffmpeg is on the way.
      withEnv({ ...vars, PATH: "" }, () => {
        expect(playwrightRegistry()).toBe(path.dirname(location))
        expect(ffmpegCandidates()).toContain(file)
        const systemOnes = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg", "/opt/homebrew/bin/ffmpeg"].filter((candidate) => fs.existsSync(candidate))
        expect(findFfmpeg()).toBe(systemOnes[0] ?? file)
      })
    })
  }

  it("PLAYWRIGHT_BROWSERS_PATH=0 (browsers inside the package): the server looks in the directory Playwright would use", async () => {
    // Nothing is written inside node_modules: the directory is compared.
    const location = await installLocation({ PLAYWRIGHT_BROWSERS_PATH: "0" })
    expect(withEnv({ PLAYWRIGHT_BROWSERS_PATH: "0" }, playwrightRegistry)).toBe(path.dirname(location))
  })
})
