// A step that downloaded files, in the Playwright export (every file checked, one or several) and in the
// HTML report (each step links the files it saved).
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { make as makeFileStore } from "../../src/adapters/knowledge-files.js"
import type { StepRecord } from "../../src/domain/knowledge.js"
import { recipeOf, toPlaywright } from "../../src/knowledge/recipe.js"
import { renderReport } from "../../src/knowledge/report.js"
import { makeRegistry } from "../../src/runtime/registry.js"
import { builtinTools } from "../../src/tools/registry.js"
import { hoursAgo, session, step } from "./fixtures.js"

const tools = makeRegistry(builtinTools, "mm")
const HASH_A = "a".repeat(64)
const HASH_B = "b".repeat(64)

const clickThatDownloads = (downloads: StepRecord["downloads"]): StepRecord => ({
  ...step({ sessionId: "s1", tool: "click", input: { testId: "export" }, target: { testId: "export" } }),
  downloads
})

describe("a step's downloads", () => {
  it("one file is awaited with waitForEvent and checked by name and hash", () => {
    const records = [clickThatDownloads([{ name: "a.csv", sha256: HASH_A, bytes: 3 }])]
    const spec = toPlaywright(recipeOf(records, tools), records, undefined, "s1", tools)
    expect(spec).toContain('const download0Promise = page.waitForEvent("download")')
    expect(spec).toContain('expect(download0.suggestedFilename()).toBe("a.csv")')
    expect(spec).toContain(`.toBe("${HASH_A}")`)
    expect(spec).toContain('import { expect, test } from "@playwright/test"')
  })

  it("a name with a timestamp in it (Swagger UI's response_<ms>.json) is matched by a regex, not compared", () => {
    const records = [clickThatDownloads([{ name: "response_1795780842562.json", sha256: HASH_A }])]
    const spec = toPlaywright(recipeOf(records, tools), records, undefined, "s1", tools)
    expect(spec).toContain("expect(download0.suggestedFilename()).toMatch(/^response_\\d{5,}\\.json$/i)")
  })

  it("several files are collected until all came, and checked as a set: every name, and every name with its hash", () => {
    const records = [clickThatDownloads([{ name: "b.json", sha256: HASH_B }, { name: "a.csv", sha256: HASH_A }])]
    const spec = toPlaywright(recipeOf(records, tools), records, undefined, "s1", tools)
    expect(spec).toContain('import { expect, test, type Download } from "@playwright/test"')
    expect(spec).toContain("if (seen.length === 2) {")
    expect(spec).toContain('.sort()).toEqual(["a.csv","b.json"])')
    expect(spec).toContain(`.sort()).toEqual(["a.csv ${HASH_A}","b.json ${HASH_B}"])`)
    expect(spec).not.toContain("checks the first")
  })

  it("the report links each file a step saved, and names one it did not save", () => {
    const records = [clickThatDownloads([{ name: "a.csv", sha256: HASH_A, bytes: 3, path: "/art/downloads/a.csv" }, { name: "slow.bin" }])]
    const html = renderReport({
      sessionId: "s1",
      metadata: session("s1"),
      steps: records,
      recipe: recipeOf(records, tools),
      images: new Map(),
      hrefOf: (file) => `file://${file}`,
      generatedAt: hoursAgo(0)
    })
    expect(html).toContain(`<dt>downloaded</dt><dd><a href="file:///art/downloads/a.csv">a.csv</a> · 3 bytes · sha256 <code>aaaaaaaaaaaa…</code></dd>`)
    expect(html).toContain("<dt>downloaded</dt><dd>slow.bin (not saved during the step)</dd>")
  })

  it("a session's files are its own recordings, never the downloads directory every session of the server shares", async () => {
    const artifacts = fs.mkdtempSync(path.join(os.tmpdir(), "bwm-session-files-"))
    try {
      fs.mkdirSync(path.join(artifacts, "sessions", "s1"), { recursive: true })
      fs.writeFileSync(path.join(artifacts, "sessions", "s1", "trace.zip"), "zip")
      fs.mkdirSync(path.join(artifacts, "downloads"))
      fs.writeFileSync(path.join(artifacts, "downloads", "other-session.csv"), "b")
      const files = await Effect.runPromise(
        Effect.scoped(Effect.flatMap(makeFileStore(artifacts, { persistIndex: false }), (store) => store.sessionFiles!("s1")))
      )
      expect(files.map((file) => file.name)).toEqual(["sessions/s1/trace.zip"])
    } finally {
      fs.rmSync(artifacts, { recursive: true, force: true })
    }
  })
})
