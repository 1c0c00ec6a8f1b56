// The server's own writes stay inside the artifacts directory: a subdirectory that is a symbolic link to
// elsewhere (pdf/, screenshots/, storage-state/, llm-knowledge/ or one below it) is refused, never written
// through; what it writes is owner-only (files 0600, directories 0700), and a link at the file's own name
// is replaced, not followed.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { createFileAtomic, createSmallFileAtomic, writeFileAtomic } from "../../src/adapters/files.js"
import { tempDir } from "../support/browser.js"

const setup = () => {
  const artifacts = path.join(tempDir("bwm-files-"), "artifacts")
  const elsewhere = tempDir("bwm-files-elsewhere-")
  fs.mkdirSync(artifacts, { recursive: true })
  return { artifacts, elsewhere }
}

const mode = (file: string) => fs.statSync(file).mode & 0o777

describe("writes inside the artifacts directory", () => {
  it("refuses a symlinked subdirectory for each way of writing, and writes nothing where it leads", async () => {
    for (const subdirectory of ["pdf", "screenshots", "storage-state", "llm-knowledge", "reports"]) {
      const { artifacts, elsewhere } = setup()
      fs.symlinkSync(elsewhere, path.join(artifacts, subdirectory))
      const target = path.join(artifacts, subdirectory, "file.json")
      await expect(writeFileAtomic(target, "{}", { within: artifacts }), subdirectory).rejects.toThrow(/symbolic link/)
      await expect(createFileAtomic(target, "{}", () => "never", { within: artifacts }), subdirectory).rejects.toThrow(/symbolic link/)
      const record = path.join(artifacts, subdirectory, "s1", "steps", "step.json")
      expect(() => createSmallFileAtomic(record, "{}", () => "never", artifacts), subdirectory).toThrow(/symbolic link/)
      expect(fs.readdirSync(elsewhere), subdirectory).toEqual([])
    }
  })

  it("refuses a link deeper down (a session's directory) and a path that leaves the directory", async () => {
    const { artifacts, elsewhere } = setup()
    fs.mkdirSync(path.join(artifacts, "llm-knowledge"))
    fs.symlinkSync(elsewhere, path.join(artifacts, "llm-knowledge", "s1"))
    expect(() => createSmallFileAtomic(path.join(artifacts, "llm-knowledge", "s1", "steps", "a.json"), "{}", () => "x", artifacts)).toThrow(/symbolic link/)
    await expect(writeFileAtomic(path.join(artifacts, "..", "outside.json"), "{}", { within: artifacts })).rejects.toThrow(/outside/)
    expect(fs.readdirSync(elsewhere)).toEqual([])
  })

  it("writes files 0600 in directories 0700, and replaces a link at the file's name instead of following it", async () => {
    const { artifacts, elsewhere } = setup()
    const state = path.join(artifacts, "storage-state", "signed-in.json")
    await writeFileAtomic(state, "{}", { within: artifacts })
    const record = createSmallFileAtomic(path.join(artifacts, "llm-knowledge", "s1", "steps", "a.json"), "{}", () => "x", artifacts)
    const report = path.join(artifacts, "reports", "s1.html")
    await createFileAtomic(report, "<p>", () => "x", { within: artifacts })
    for (const file of [state, record, report]) expect(mode(file), file).toBe(0o600)
    for (const directory of ["storage-state", "llm-knowledge", "llm-knowledge/s1", "llm-knowledge/s1/steps", "reports"]) {
      expect(mode(path.join(artifacts, directory)), directory).toBe(0o700)
    }
    const victim = path.join(elsewhere, "victim.txt")
    fs.writeFileSync(victim, "keep")
    fs.symlinkSync(victim, path.join(artifacts, "storage-state", "linked.json"))
    await writeFileAtomic(path.join(artifacts, "storage-state", "linked.json"), "{}", { within: artifacts })
    expect(fs.readFileSync(victim, "utf8")).toBe("keep")
    expect(fs.lstatSync(path.join(artifacts, "storage-state", "linked.json")).isSymbolicLink()).toBe(false)
  })
})
