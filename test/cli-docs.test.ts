// docs/errors.md lists exactly the MM_* codes the server can answer: every code literal in src/; docs/tools.md
// has a row for every tool the server serves, and for no other.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { defaultSettings } from "../src/domain/config.js"
import { actionCode } from "../src/domain/errors.js"
import { servedRegistry } from "../src/tools/registry.js"

const root = path.resolve(import.meta.dirname, "..")

const sourceFiles = (dir: string): Array<string> =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith(".ts") ? [full] : []
  })

describe("docs/errors.md", () => {
  it("lists every MM_* code of src/ (errors.ts and the few answered elsewhere), and no other", () => {
    const inSource = new Set<string>()
    for (const file of sourceFiles(path.join(root, "src"))) {
      for (const match of fs.readFileSync(file, "utf8").matchAll(/"(MM_[A-Z_]+)"/g)) inSource.add(match[1]!)
    }
    const errorsTs = fs.readFileSync(path.join(root, "src/domain/errors/calls.ts"), "utf8")
    expect(errorsTs).toContain('"MM_INVALID_INPUT"')
    // The per-action codes derive from the actions the Playwright port names (its Action type).
    const targets = fs.readFileSync(path.join(root, "src/adapters/playwright/session/targets.ts"), "utf8")
    const actions = [.../export type Action = ([^\n]+)/.exec(targets)![1]!.matchAll(/"([a-z_]+)"/g)].map((match) => match[1]!)
    expect(actions).toContain("click")
    for (const action of actions) for (const kind of ["TIMEOUT", "FAILED"] as const) inSource.add(actionCode(action, kind))
    const docs = fs.readFileSync(path.join(root, "docs/errors.md"), "utf8")
    const documented = new Set<string>()
    for (const line of docs.split("\n").filter((row) => row.startsWith("| `MM_"))) {
      const codes = line.split("|")[1]!
      for (const match of codes.matchAll(/`(MM_[A-Z_]+)`/g)) documented.add(match[1]!)
    }
    expect([...documented].sort()).toEqual([...inSource].sort())
  })
})

describe("docs/tools.md", () => {
  it("has a row in 'Every tool' for each served tool (mm_navigate among them), and for no other", () => {
    const docs = fs.readFileSync(path.join(root, "docs/tools.md"), "utf8")
    const section = docs.slice(docs.indexOf("## Every tool"), docs.indexOf("\n## ", docs.indexOf("## Every tool") + 1))
    const rows = [...section.matchAll(/^\| `([a-z_]+)[ `]/gm)].map((match) => match[1]!)
    const served = servedRegistry({ toolPrefix: "mm_", batch: defaultSettings.batch }).tools.map((tool) => tool.name)
    expect(rows).toContain("navigate")
    expect([...rows].sort()).toEqual([...served].sort())
  })
})
