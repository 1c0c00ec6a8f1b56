// Test runner settings: real browsers are slow to start, so give hooks and tests room.
import { defineConfig } from "vitest/config"

/**
 * Files that need a module graph of their own (inputs.test.ts, below, a worker of its own): they mock modules (vi.mock, spies on process streams), set
 * process.env, or use Effect's TestClock (which another file's services can shadow in a shared graph).
 * They run in the vmForks pool (a fresh context per file). Every other file runs in a
 * fork that keeps its loaded modules for the files after it (isolate off), which saves each file a fresh
 * import of effect, Playwright and the server: the full suite took 1114 s that way against 1383 s isolated.
 */
const ISOLATED = [
  "test/adapters/artifact-retention.test.ts",
  "test/adapters/remote-pool.test.ts",
  "test/knowledge/export-cli.test.ts",
  "test/knowledge/step-screenshots.test.ts",
  "test/runtime/runTool.test.ts",
  "test/session/ffmpeg-setup.test.ts",
  "test/session/launch-failures.test.ts",
  "test/session/lifecycle.test.ts",
  "test/session/recording-no-ffmpeg.test.ts",
  "test/tools/batch.test.ts"
]

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The page code is bundled into a generated module first (scripts/bundle-page.mjs).
    globalSetup: ["test/support/page-bundle.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores: keep browser-heavy files from starving each other.
    maxConcurrency: 4,
    maxWorkers: 2,
    minWorkers: 1,
    pool: "forks",
    poolOptions: { forks: { isolate: false }, threads: { isolate: true } },
    poolMatchGlobs: [
      ...ISOLATED.map((file) => [file, "vmForks"] as [string, "vmForks"]),
      // A megabyte in every field: it failed after other files in the same process (no isolation, vmForks); a worker of its own.
      ["test/reliability/inputs.test.ts", "threads"]
    ]
  }
})
