// Test runner settings: real browsers are slow to start, so give hooks and tests room.
import { defineConfig } from "vitest/config"

/**
 * Files that need a module graph of their own: they mock modules (vi.mock, spies on process streams), set
 * process.env, or use Effect's TestClock (which another file's services can shadow in a shared graph).
 * Every other file shares its fork's loaded modules with the files before it, which saves each file a
 * fresh import of effect, Playwright and the server (about 2 s a file, a fifth of the suite's time).
 */
const ISOLATED = [
  "test/adapters/artifact-retention.test.ts",
  "test/adapters/remote-pool.test.ts",
  "test/knowledge/export-cli.test.ts",
  "test/knowledge/step-screenshots.test.ts",
  "test/reliability/inputs.test.ts",
  "test/runtime/runTool.test.ts",
  "test/session/ffmpeg-setup.test.ts",
  "test/session/launch-failures.test.ts",
  "test/session/lifecycle.test.ts",
  "test/session/recording-no-ffmpeg.test.ts",
  "test/tools/batch.test.ts"
]

export default defineConfig({
  test: {
    // The page code is bundled into a generated module first (scripts/bundle-page.mjs).
    globalSetup: ["test/support/page-bundle.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores: keep browser-heavy files from starving each other.
    maxConcurrency: 4,
    maxWorkers: 2,
    minWorkers: 1,
    pool: "forks",
    projects: [
      { extends: true, test: { name: "isolated", include: ISOLATED, poolOptions: { forks: { isolate: true } } } },
      { extends: true, test: { name: "shared", include: ["test/**/*.test.ts"], exclude: ISOLATED, poolOptions: { forks: { isolate: false } } } }
    ]
  }
})
