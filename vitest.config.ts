// Test runner settings: real browsers are slow to start, so give hooks and tests room.
import { defineConfig } from "vitest/config"
import { BaseSequencer, type TestSpecification } from "vitest/node"

/**
 * Files that need a module graph of their own: they mock modules (vi.mock, spies on process streams),
 * set process.env, use Effect's TestClock (which another file's services can shadow in a shared
 * graph), or put a megabyte in every field (inputs.test.ts failed after other files in one process).
 */
const ISOLATED = [
  "test/adapters/artifact-retention.test.ts",
  "test/adapters/remote-pool.test.ts",
  "test/knowledge/export-cli.test.ts",
  "test/knowledge/step-screenshots.test.ts",
  "test/reliability/inputs.test.ts",
  "test/reliability/inputs-fuzz.test.ts",
  "test/runtime/runTool.test.ts",
  "test/session/ffmpeg-setup.test.ts",
  "test/session/launch-failures.test.ts",
  "test/session/lease-clock.test.ts",
  "test/session/lifecycle.test.ts",
  "test/session/recording-no-ffmpeg.test.ts",
  "test/tools/batch.test.ts"
]

/**
 * Files that take a minute or more: started first, so that no worker runs one alone at the end of a
 * group. Without timings of an earlier run (a clean checkout, as in CI) vitest starts the largest files
 * first, and these are small ones (inputs-fuzz.test.ts ran last, 80 s on one core while the other idled).
 */
const LONGEST = [
  "test/reliability/inputs-fuzz.test.ts",
  "test/reliability/server.test.ts",
  "test/replay/replay.test.ts",
  "test/actions/differential.test.ts",
  "test/tabs.test.ts",
  "test/extension.test.ts",
  "test/sessions.test.ts"
]

class LongestFirst extends BaseSequencer {
  override async sort(files: Array<TestSpecification>): Promise<Array<TestSpecification>> {
    const rank = (spec: TestSpecification) => {
      const index = LONGEST.findIndex((file) => spec.moduleId.endsWith(`/${file}`))
      return index === -1 ? LONGEST.length : index
    }
    const sorted = await super.sort(files)
    return [...sorted].sort((a, b) => rank(a) - rank(b))
  }
}

/**
 * `MM_TEST_GROUP` picks what one `vitest run` does (npm test runs both groups, one after the other):
 * - `shared`: every file but the ISOLATED ones, in forks that keep their loaded modules for the next
 *   file (isolation off), which saves each file a fresh import of effect, Playwright and the server
 *   (the full suite took 1114 s that way against 1383 s isolated);
 * - `isolated`: the ISOLATED files, each in a fresh fork;
 * - unset (a plain `npx vitest run [file]`): every file, each in a fresh fork (slow, always right).
 * vitest 3.2 takes pool options from the root config only, so this cannot be two projects of one run;
 * and the vmForks pool gave these files two copies of effect in CI (TestClock's service not found).
 */
const group = process.env["MM_TEST_GROUP"]
const shared = group === "shared"

export default defineConfig({
  test: {
    include: group === "isolated" ? ISOLATED : ["test/**/*.test.ts"],
    exclude: shared ? ["**/node_modules/**", ...ISOLATED] : ["**/node_modules/**"],
    // The page code is bundled into a generated module first (scripts/bundle-page.mjs).
    globalSetup: ["test/support/page-bundle.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores: keep browser-heavy files from starving each other.
    maxConcurrency: 4,
    maxWorkers: 2,
    minWorkers: 1,
    pool: "forks",
    sequence: { sequencer: LongestFirst },
    poolOptions: { forks: { isolate: !shared } }
  }
})
