// Playwright's own test runner on an exported spec, with the browser and loopback flags the tests use:
// the config file a directory of specs needs, and a run whose status and output come back. Spawned, not
// spawnSync: the pages the specs load are served by the test's own process.
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { Effect } from "effect"
import { EXECUTABLE_CANDIDATES, LOOPBACK_ARGS } from "../../src/adapters/playwright/lifecycle/launch.js"

/** The repository's root, where @playwright/test is installed. */
export const REPO_ROOT = path.resolve(import.meta.dirname, "../..")

/** Writes `playwright.config.mjs` into `dir` (specs in `dir`, headless, the system Chromium, loopback only); gives its path. */
export const writePlaywrightConfig = (dir: string, options: { readonly workers?: number; readonly testTimeoutMs?: number } = {}): string => {
  const executablePath = EXECUTABLE_CANDIDATES.find((candidate) => fs.existsSync(candidate))
  const config = path.join(dir, "playwright.config.mjs")
  const launchOptions = { ...(executablePath !== undefined ? { executablePath } : {}), args: [...LOOPBACK_ARGS] }
  fs.writeFileSync(
    config,
    `export default ${JSON.stringify(
      {
        testDir: ".",
        timeout: options.testTimeoutMs ?? 30_000,
        workers: options.workers ?? 1,
        reporter: "line",
        outputDir: "./results",
        use: { headless: true, launchOptions }
      },
      null,
      2
    )}\n`
  )
  return config
}

/** How long a run may take before it is stopped (a hung browser or page must not hang the test file). */
const KILL_AFTER_MS = 120_000
/** After SIGTERM, how long the runner gets to close its browsers before SIGKILL. */
const KILL_GRACE_MS = 5_000

/**
 * Runs `npx playwright test` with `config` (only `files` when given) under `env` (the process's own by
 * default). A run past `killAfterMs` (120 s) is stopped: SIGTERM, then SIGKILL; its output says so.
 */
export const runPlaywrightTests = (
  config: string,
  options: { readonly files?: ReadonlyArray<string>; readonly env?: NodeJS.ProcessEnv; readonly killAfterMs?: number } = {}
) =>
  Effect.promise(
    () =>
      new Promise<{ readonly status: number | null; readonly output: string }>((resolve) => {
        const cli = path.join(REPO_ROOT, "node_modules/@playwright/test/cli.js")
        const child = spawn(process.execPath, [cli, "test", "--config", config, ...(options.files ?? [])], {
          cwd: REPO_ROOT,
          env: { ...(options.env ?? process.env), CI: "1", FORCE_COLOR: "0" },
          stdio: ["ignore", "pipe", "pipe"]
        })
        let output = ""
        let forced: NodeJS.Timeout | undefined
        const limit = options.killAfterMs ?? KILL_AFTER_MS
        const stop = setTimeout(() => {
          output += `\n[playwright-runner] stopped after ${limit} ms\n`
          child.kill("SIGTERM")
          forced = setTimeout(() => child.kill("SIGKILL"), KILL_GRACE_MS)
        }, limit)
        child.stdout.on("data", (chunk) => (output += chunk))
        child.stderr.on("data", (chunk) => (output += chunk))
        child.on("close", (status) => {
          clearTimeout(stop)
          if (forced !== undefined) clearTimeout(forced)
          resolve({ status, output })
        })
      })
  )
