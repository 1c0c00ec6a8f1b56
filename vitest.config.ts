// Test runner settings: real browsers are slow to start, so give hooks and tests room.
import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The page code is bundled into a generated module first (scripts/bundle-page.mjs).
    globalSetup: ["test/support/page-bundle.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores: keep browser-heavy files from starving each other.
    maxConcurrency: 4,
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    pool: "forks"
  }
})
