// `browser-workflow-mcp replay` (issue 23), the built command on real Chromium: a flow recorded in-process
// with params runs once per line of a JSON Lines file; the exit code says whether every run passed, and the
// JUnit report (checked well-formed by Chromium's XML parser) has one test case per run, a failed run's step
// as its <failure>. A bad line is an error naming it, before anything runs.
import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { Effect, ManagedRuntime } from "effect"
import { chromium, type Browser } from "playwright"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { EXECUTABLE_CANDIDATES } from "../src/adapters/playwright/lifecycle/launch.js"
import { appLayer } from "../src/cli/serve.js"
import { junitXml, xmlEscape } from "../src/cli/junit.js"
import { parseRuns } from "../src/cli/replay.js"
import type { Envelope } from "../src/domain/envelope.js"
import { runTool } from "../src/runtime/runTool.js"
import { servedRegistry } from "../src/tools/registry.js"
import { LOOPBACK_ARGS, tempDir, testSettings } from "./support/browser.js"
import { binEntry } from "./support/http-server.js"
import { serveListApp, type ListApp } from "./replay/list-app.js"

let app: ListApp
let artifactsDir: string
let browser: Browser

const replayCommand = (args: ReadonlyArray<string>) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [binEntry, "replay", ...args, "--artifacts-dir", artifactsDir, "--loopback-only", "--app-url", `${app.url}/list`, "--log-level", "warning"],
      { timeout: 180_000 },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, stdout, stderr })
    )
  })

const runsFile = (lines: ReadonlyArray<string>) => {
  const file = path.join(tempDir("bwm-runs-"), "runs.jsonl")
  fs.writeFileSync(file, lines.join("\n") + "\n")
  return file
}

/** The document as Chromium's XML parser reads it: its test cases, or the parser's error. */
const parseXml = async (xml: string) => {
  const page = await browser.newPage()
  try {
    return await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, "application/xml")
      const error = doc.querySelector("parsererror")
      if (error !== null) return { error: error.textContent ?? "parsererror" }
      const suite = doc.querySelector("testsuite")!
      return {
        tests: suite.getAttribute("tests"),
        failures: suite.getAttribute("failures"),
        cases: [...doc.querySelectorAll("testcase")].map((testcase) => ({
          name: testcase.getAttribute("name"),
          failure: testcase.querySelector("failure") === null
            ? undefined
            : { type: testcase.querySelector("failure")!.getAttribute("type"), message: testcase.querySelector("failure")!.getAttribute("message"), text: testcase.querySelector("failure")!.textContent }
        }))
      }
    }, xml)
  } finally {
    await page.close()
  }
}

beforeAll(async () => {
  expect(fs.existsSync(binEntry), "run npm run build first").toBe(true)
  app = await serveListApp()
  artifactsDir = tempDir()
  const executablePath = EXECUTABLE_CANDIDATES.find((file) => fs.existsSync(file))
  browser = await chromium.launch({ ...(executablePath !== undefined ? { executablePath } : {}), args: [...LOOPBACK_ARGS] })
  // The flow, recorded in-process into the directory the command reads.
  const settings = testSettings({ appUrl: `${app.url}/list`, artifactsDir })
  const registry = servedRegistry(settings)
  const runtime = ManagedRuntime.make(appLayer(settings, "warning"))
  const call = (name: string, args: Record<string, unknown>) =>
    runtime.runPromise(Effect.map(runTool(registry.lookup(name)!)(args), (response) => response.envelope as Envelope<any>))
  try {
    for (const [name, args] of [
      ["mm_launch", { goal: "add two items", flowTags: ["cli-list"] }],
      ["mm_type", { testId: "new", text: "Milk", param: "first", submit: true }],
      ["mm_type", { testId: "new", text: "Eggs", param: "second", submit: true }],
      ["mm_cleanup", {}]
    ] as const) {
      const envelope = await call(name, args)
      expect(envelope.error, name).toBeUndefined()
    }
  } finally {
    await runtime.dispose()
  }
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await app?.close()
})

describe("browser-workflow-mcp replay", { timeout: 240_000 }, () => {
  it("every run passes: exit 0, the answer on stdout, a JUnit case per run, each run with its own items", async () => {
    app.reset()
    const junit = path.join(tempDir("bwm-junit-"), "reports", "replay.xml")
    const result = await replayCommand(["--flow-tag", "cli-list", "--runs", runsFile(['{"first": "A1", "second": "A2"}', "", '{"first": "B1"}']), "--concurrency", "2", "--junit", junit])
    expect(result.code, result.stderr).toBe(0)
    const answer = JSON.parse(result.stdout.trim())
    expect(answer.ok).toBe(true)
    expect(answer.result.passed).toBe(2)
    expect(result.stderr).toContain("2 of 2 runs passed")
    const lists = app.lists().filter((list) => list.length > 0).map((list) => list.join("|")).sort()
    expect(lists).toEqual(["A1|A2", "B1|Eggs"])
    const report = await parseXml(fs.readFileSync(junit, "utf8"))
    // Owner-only, as the server's reports.
    expect(fs.statSync(junit).mode & 0o777).toBe(0o600)
    expect(report).toEqual({
      tests: "2",
      failures: "0",
      cases: [
        { name: "run 0 (runs.jsonl line 1)", failure: undefined },
        { name: "run 1 (runs.jsonl line 3)", failure: undefined }
      ]
    })
  })

  it("a failing run: exit 1, its step as the <failure> with code and message", async () => {
    const junit = path.join(tempDir("bwm-junit-"), "replay.xml")
    const result = await replayCommand(["--flow-tag", "cli-list", "--runs", runsFile(['{"first": "boom"}', '{"first": "<ok & fine>"}']), "--concurrency", "2", "--junit", junit])
    expect(result.code, result.stderr).toBe(1)
    expect(JSON.parse(result.stdout.trim()).error.code).toBe("MM_REPLAY_FAILED")
    expect(result.stderr).toContain("1 of 2 runs passed")
    const report = await parseXml(fs.readFileSync(junit, "utf8"))
    if ("error" in report) throw new Error(report.error)
    expect(report.failures).toBe("1")
    const [failed, passed] = report.cases
    expect(passed).toEqual({ name: "run 1 (runs.jsonl line 2)", failure: undefined })
    expect(failed?.failure?.type).toMatch(/^MM_(TARGET_NOT_FOUND|TYPE_TIMEOUT)$/)
    expect(failed?.failure?.message).toBe(`step 3 mm_type: ${failed?.failure?.type}`)
    expect(failed?.failure?.text).toContain("testId:new")
  })

  it("--base-url replays against the app served on another port: the runs' items reach that app, not the recorded one", async () => {
    app.reset()
    const moved = await serveListApp()
    try {
      const result = await replayCommand(["--flow-tag", "cli-list", "--runs", runsFile(['{"first": "C1"}']), "--base-url", moved.url])
      expect(result.code, result.stderr).toBe(0)
      expect(moved.lists()).toContainEqual(["C1", "Eggs"])
      expect(app.lists().flat()).not.toContain("C1")
    } finally {
      await moved.close()
    }
  })

  it("a bad line is an error naming it; nothing runs (exit 2)", async () => {
    app.reset()
    const result = await replayCommand(["--flow-tag", "cli-list", "--runs", runsFile(['{"first": "A1"}', '["not", "an object"]'])])
    expect(result.code).toBe(2)
    expect(result.stderr).toContain("runs.jsonl line 2: must be a JSON object of params")
    const unknown = await replayCommand(["--flow-tag", "cli-list", "--runs", runsFile(['{"frist": "A1"}'])])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain("runs.0.params.frist")
    expect(app.lists()).toEqual([])
  })

  it("parseRuns and the XML escaping, alone", () => {
    expect(() => parseRuns('{"a": "1"}\n{"a": 2}', "f.jsonl")).toThrow('f.jsonl line 2: param "a" must be a string')
    expect(() => parseRuns("{oops", "f.jsonl")).toThrow(/^f\.jsonl line 1: not JSON/)
    expect(() => parseRuns("\n\n", "f.jsonl")).toThrow("f.jsonl holds no runs")
    expect(xmlEscape(`a<b>&"c"'\u0001`)).toBe("a&lt;b&gt;&amp;&quot;c&quot;&apos;")
    const xml = junitXml({
      suite: "replay x",
      classname: "replay.x",
      caseName: (index) => `run ${index}`,
      runs: [{ ms: 1200, session: "s1", failed: { index: 2, tool: "mm_click", code: "MM_TARGET_NOT_FOUND", message: "no <button> & \u0007 more" } }],
      ms: 1500,
      timestamp: "2026-01-01T00:00:00"
    })
    expect(xml).toContain('<failure type="MM_TARGET_NOT_FOUND" message="step 2 mm_click: MM_TARGET_NOT_FOUND">step 2 mm_click: MM_TARGET_NOT_FOUND\nno &lt;button&gt; &amp;  more</failure>')
    expect(xml).toContain('tests="1" failures="1" errors="0" skipped="0" time="1.500"')
  })
})
