// The widget bench's runner (bench/widgets/runner.ts): one contender's attempt at one task never stops the run.
// A server that exits before the handshake, one that never answers it, and an attempt that fails after it are
// each that task's failure for that contender, with the reason, and the server process it spawned is gone when
// runOne resolves. The servers here are plain Node processes (no browser): what is checked is the runner.
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import type { Adapter } from "../../bench/widgets/agent.js"
import { runOne, type Contender, type RunSettings } from "../../bench/widgets/runner.js"
import { root } from "../../bench/support.js"

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "bwm-bench-runner-"))
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }))

/** No page is ever opened: the runner's paths are what is tried. */
const quiet: Adapter = { label: "probe", actionResetsView: false, open: () => [], steps: (step) => [step], look: () => [], act: () => ({ tool: "none", args: {} }) }
const corpus = { url: "http://127.0.0.1:9", otherUrl: "http://127.0.0.1:9", reportOf: () => Promise.resolve(undefined) }
/** A task judged right whenever it is judged: an outcome that is not right was never judged. */
const task = { id: "probe", path: "/", steps: [], done: () => true }
const settings: RunSettings = { marker: "--bwm-bench-runner-test-none", callDeadlineMs: 5_000, taskDeadlineMs: 10_000, settleMs: 0, log: () => undefined }

/** A server script that first writes its pid into the attempt's folder. */
const writesPid = (dir: string, rest: string) => `require("fs").writeFileSync(${JSON.stringify(path.join(dir, "pid"))}, String(process.pid)); ${rest}`
const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
const pidIn = (index: number) => Number(fs.readFileSync(path.join(scratch, `probe-probe-${index}`, "pid"), "utf8"))

describe("bench/widgets runner", () => {
  it("counts a server that exits before the handshake as that task's connect failure", async () => {
    const contender: Contender = { adapter: quiet, spawn: () => ["-e", "process.exit(3)"] }
    const outcome = await runOne(corpus, task, contender, scratch, 1, settings)
    expect(outcome.failure).toBe("connect failed")
    expect(outcome.right).toBe(false)
    expect(outcome.attempt.errors).toBe(1)
    expect(outcome.attempt.stopped).toMatch(/^connect failed: /)
  })

  it("counts a server that never answers the handshake as a connect failure, and kills it", async () => {
    const contender: Contender = { adapter: quiet, spawn: (_url, dir) => ["-e", writesPid(dir, "setInterval(() => {}, 1000)")] }
    const outcome = await runOne(corpus, task, contender, scratch, 2, settings)
    expect(outcome.failure).toBe("connect failed")
    expect(outcome.attempt.stopped).toContain("connect: no result within 5000 ms")
    expect(alive(pidIn(2))).toBe(false)
  })

  it("counts an attempt that fails after the handshake as that task's failure, and closes its server", async () => {
    // A real MCP server (the SDK's, no tools) that answers the handshake; judging the page then fails.
    const sdk = (file: string) => JSON.stringify(pathToFileURL(path.join(root, "node_modules/@modelcontextprotocol/sdk/dist/esm/server", file)).href)
    const server = [
      `import { Server } from ${sdk("index.js")}`,
      `import { StdioServerTransport } from ${sdk("stdio.js")}`,
      `import * as fs from "node:fs"`,
      `fs.writeFileSync("pid", String(process.pid))`,
      `await new Server({ name: "probe", version: "1.0.0" }, { capabilities: { tools: {} } }).connect(new StdioServerTransport())`
    ].join("\n")
    const contender: Contender = { adapter: quiet, spawn: () => ["--input-type=module", "-e", server] }
    const failing = { ...corpus, reportOf: () => Promise.reject(new Error("the page did not report")) }
    const outcome = await runOne(failing, task, contender, scratch, 3, settings)
    expect(outcome.failure).toBe("task failed")
    expect(outcome.attempt.stopped).toBe("task failed: the page did not report")
    expect(alive(pidIn(3))).toBe(false)
  })
})
