// `npm run demo`, the README's first command, runs to the end: every call of its scripted agent succeeds.
// It broke twice unnoticed (a lean answer left out {found: true}; mm_replay came to close its session).
import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"

const root = path.resolve(import.meta.dirname, "..")
const demo = path.join(root, "dist/demo/run-demo.js")

describe("npm run demo", () => {
  it("runs every call of the scripted agent, replay and a read in the replayed session included", async () => {
    if (!fs.existsSync(demo)) throw new Error(`${demo} is missing: run npm run build first`)
    const { stdout } = await promisify(execFile)(process.execPath, [demo], { cwd: root, timeout: 100_000 })
    expect(stdout).toContain("demo finished: every call succeeded")
    expect(stdout).not.toContain("ERROR")
    expect(stdout).toMatch(/mm_replay .* 8 of 8 steps ok/)
    expect(stdout).toMatch(/mm_replay .*\n.*mm_get_text .* "Welcome, alice"/)
  }, 120_000)
})
