// scripts/build-if-stale.mjs (npm run demo's build step) on tiny trees: a missing build or a source newer
// than the build is stale and says which; a build newer than every source is fresh (no rebuild).
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { BUILT, SOURCES, staleReason } from "../../scripts/build-if-stale.mjs"

const roots: Array<string> = []
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true })
})

/** Writes `file` under `root` dated `secondsAgo` seconds back. */
const write = (root: string, file: string, secondsAgo: number) => {
  const full = path.join(root, file)
  fs.mkdirSync(path.dirname(full), { recursive: true })
  fs.writeFileSync(full, "x")
  const when = new Date(Date.now() - secondsAgo * 1000)
  fs.utimesSync(full, when, when)
}

/** A checkout whose sources are an hour old and whose build is a minute old. */
const checkout = () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "bwm-stale-"))
  roots.push(root)
  for (const file of ["src/index.ts", "demo/run-demo.ts", "package.json", "tsconfig.json"]) write(root, file, 3600)
  for (const file of BUILT) write(root, file, 60)
  return root
}

describe("build-if-stale", () => {
  it("a build newer than every source is fresh; the demo's own files are among what it checks", () => {
    expect(staleReason(checkout())).toBeUndefined()
    expect(BUILT).toContain("dist/demo/run-demo.js")
    expect(SOURCES).toEqual(expect.arrayContaining(["src", "demo", "package.json"]))
  })

  it("a fresh clone (no dist) is stale: the build is missing", () => {
    const root = checkout()
    fs.rmSync(path.join(root, "dist"), { recursive: true })
    expect(staleReason(root)).toBe(`${BUILT[0]} is missing`)
  })

  it("a source edited after the build, at any depth, is stale and named; node_modules is not looked at", () => {
    const root = checkout()
    write(root, "node_modules/dep/index.js", 0)
    expect(staleReason(root)).toBeUndefined()
    write(root, "src/adapters/deep/file.ts", 0)
    expect(staleReason(root)).toBe(`${path.join("src", "adapters", "deep", "file.ts")} is newer than the build`)
  })
})
