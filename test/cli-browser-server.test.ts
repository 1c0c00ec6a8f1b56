// `browser-workflow-mcp browser-server` (docs/scale.md): the built command runs a Playwright browser server
// on the Chromium it finds, with the MCP server's switches. The MCP server (over stdio) places a session on
// it by --ws-endpoint and works a page on 127.0.0.1; --loopback-only keeps every other host unresolved;
// SIGTERM closes it and its browser with exit 0; a bad flag is a usage error (exit 2) before any browser.
import { spawn, type ChildProcess } from "node:child_process"
import { execFile } from "node:child_process"
import * as fs from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { chromium } from "playwright"
import { servePages, type RunningServer } from "../demo/sample-app.js"
import { html, tempDir } from "./support/browser.js"
import { binEntry } from "./support/http-server.js"
import { startStdioServer, type StdioServer } from "./support/stdio-server.js"

interface Running {
  readonly child: ChildProcess
  readonly endpoint: string
  readonly stderr: () => string
  readonly exited: Promise<number | null>
}

/** Starts the command; resolves once it printed its endpoint. */
const startBrowserServer = (args: ReadonlyArray<string>): Promise<Running> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binEntry, "browser-server", ...args], { stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)))
    child.stderr!.on("data", (chunk: Buffer) => void (stderr += chunk.toString()))
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString()
      const line = stdout.split("\n")[0]!
      if (stdout.includes("\n")) resolve({ child, endpoint: line, stderr: () => stderr, exited })
    })
    void exited.then((code) => reject(new Error(`browser-server exited ${code} before its endpoint: ${stderr}`)))
  })

/** Chromium processes whose command line names this marker (a --user-agent of the test's own), not the command's own. */
const browserProcesses = (marker: string) =>
  fs
    .readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const command = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8")
        return command.includes(marker) && !command.includes("browser-server")
      } catch {
        return false
      }
    })

let app: RunningServer

beforeAll(async () => {
  app = await servePages({ "/": html("Here", `<button onclick="this.textContent='Done'">Go</button>`) })
})

afterAll(async () => {
  await app?.close()
})

describe("browser-workflow-mcp browser-server", () => {
  let server: Running
  let mcp: StdioServer | undefined
  const marker = `bwm-bs-test-${process.pid}`

  afterAll(async () => {
    await mcp?.client.close()
    server?.child.kill("SIGKILL")
  })

  it("serves the MCP server's sessions, on loopback only, and stops on SIGTERM with its browser", async () => {
    server = await startBrowserServer(["--port", "0", "--loopback-only", `--browser-arg=--user-agent=${marker}`])
    expect(server.endpoint).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{32}$/)
    expect(browserProcesses(marker).length).toBeGreaterThan(0)

    mcp = await startStdioServer("browser-server-test", ["--ws-endpoint", server.endpoint, "--artifacts-dir", tempDir("bwm-bs-")])
    const launched = await mcp.call("mm_launch", {})
    expect(launched.ok, JSON.stringify(launched.error)).toBe(true)
    const port = new URL(server.endpoint).port
    expect(launched.result.browser).toBe(`127.0.0.1:${port}`)
    expect((await mcp.call("mm_navigate", { url: `${app.url}/` })).ok).toBe(true)
    const clicked = await mcp.call("mm_click", { selector: "role=button[name='Go']" })
    expect(clicked.ok, JSON.stringify(clicked.error)).toBe(true)
    const text = await mcp.call("mm_get_text", { selector: "button" })
    expect(text.result.text).toBe("Done")

    // --loopback-only: another host does not resolve in that browser.
    const direct = await chromium.connect(server.endpoint)
    try {
      const page = await direct.newPage()
      // Its user agent is the switch the command passed on: the browser is the one it launched.
      expect(await page.evaluate(() => navigator.userAgent)).toBe(marker)
      const failed = await page.goto("http://example.com/").then(() => "loaded", (error: Error) => error.message)
      expect(failed).toMatch(/ERR_NAME_NOT_RESOLVED|ERR_PROXY_CONNECTION_FAILED/)
    } finally {
      await direct.close()
    }
    await mcp.call("mm_cleanup")

    server.child.kill("SIGTERM")
    expect(await server.exited).toBe(0)
    expect(browserProcesses(marker)).toEqual([])
  })

  it("exits 1 when its browser goes away, for a supervisor to start it again", async () => {
    const own = `${marker}-crash`
    const crashing = await startBrowserServer(["--port", "0", "--loopback-only", `--browser-arg=--user-agent=${own}`])
    try {
      const browsers = browserProcesses(own)
      expect(browsers.length).toBeGreaterThan(0)
      for (const pid of browsers) process.kill(Number(pid), "SIGKILL")
      expect(await crashing.exited).toBe(1)
      expect(crashing.stderr()).toContain("the browser went away")
    } finally {
      crashing.child.kill("SIGKILL")
    }
  })

  it("answers a usage error with exit 2 before starting anything", async () => {
    const result = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(process.execPath, [binEntry, "browser-server", "--port", "70000"], { timeout: 30_000 }, (error, _stdout, stderr) =>
        resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, stderr })
      )
    })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain("--port must be a whole number from 0 to 65535")
  })
})
