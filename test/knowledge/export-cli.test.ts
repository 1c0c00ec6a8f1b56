import * as path from "node:path"
import * as fs from "node:fs"
// `browser-workflow-mcp export <sessionId>`: a stored session printed as a batch or a Playwright test.
import { describe, expect, it, vi } from "@effect/vitest"
import { Effect } from "effect"
import { make } from "../../src/adapters/knowledge-files.js"
import { runExport } from "../../src/cli.js"
import { tempDir } from "../support/browser.js"
import { session, step } from "./fixtures.js"

const captured = async (run: () => Promise<number>) => {
  let out = ""
  let err = ""
  const stdout = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => ((out += String(chunk)), true))
  const stderr = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => ((err += String(chunk)), true))
  try {
    return { code: await run(), out, err }
  } finally {
    stdout.mockRestore()
    stderr.mockRestore()
  }
}

describe("export subcommand", () => {
  it("prints the batch and the Playwright test of a stored session, and fails clearly for an unknown one", async () => {
    const dir = tempDir()
    await Effect.runPromise(
      Effect.gen(function* () {
        const store = yield* make(dir)
        yield* store.startSession(session("mm-cli", { goal: "open settings" }))
        yield* store.recordStep(step({ sessionId: "mm-cli", tool: "click", target: { testId: "open-settings" }, input: { timeoutMs: 15000 } }))
        yield* store.recordStep(step({ sessionId: "mm-cli", tool: "click", target: { a11yRef: "e9" }, input: { timeoutMs: 15000 } }))
        yield* store.recordStep(step({ sessionId: "mm-cli", tool: "describe_screen" }))
        yield* store.recordStep(step({ sessionId: "mm-cli", tool: "describe_screen" }))
      })
    )
    // Steps are written a turn after they are recorded (setImmediate); the export below reads the files as another process would.
    const stepsDir = path.join(dir, "llm-knowledge", "mm-cli", "steps")
    for (let wait = 0; wait < 100 && (!fs.existsSync(stepsDir) || fs.readdirSync(stepsDir).filter((file) => file.endsWith(".json")).length < 4); wait++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    const batch = await captured(() => runExport(["mm-cli", "--artifacts-dir", dir], {}))
    expect(batch.code).toBe(0)
    // What the file leaves out, and why, goes to stderr; stdout stays the file.
    // A reason shared by several steps is said once, with their count.
    expect(batch.err).toBe(
      "browser-workflow-mcp export: left out click a11yRef:e9: only a ref was recorded: the page did not describe the element (no test id, role and name, or selector)\n" +
        "browser-workflow-mcp export: left out describe_screen: read-only (2 steps)\n"
    )
    expect(JSON.parse(batch.out)).toEqual({
      steps: [
        { tool: "mm_click", args: { timeoutMs: 15000, testId: "open-settings" } },
        // The flow ends where its last step saw the page: the replay checks that it got there.
        { tool: "mm_wait_for", args: { url: "/^http://127\\.0\\.0\\.1:3000/app#/home$/", timeoutMs: 5000 } }
      ],
      stopOnError: true,
      includeObservations: "failures"
    })
    const playwright = await captured(() => runExport(["mm-cli", "--format=playwright", `--artifacts-dir=${dir}`], {}))
    expect(playwright.out).toContain('test("open settings", async ({ page }) => {')
    expect(playwright.out).toContain('await page.getByTestId("open-settings").click()')
    expect(playwright.out).toContain('await expect(page).toHaveURL("http://127.0.0.1:3000/app#/home")')
    const missing = await captured(() => runExport(["nope", "--artifacts-dir", dir], {}))
    expect(missing.code).toBe(1)
    expect(missing.err).toContain("mm_knowledge {sessions: true}")
    // Which step memory it read, for a command run from another directory.
    expect(missing.err).toContain(`(looked in ${dir};`)
    expect((await captured(() => runExport(["--format", "csv", "x"], {}))).code).toBe(2)
  })
})
