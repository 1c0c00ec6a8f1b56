// Playwright's load through V8's code cache (src/adapters/playwright/lifecycle/code-cache.ts): modules load and
// behave as Node loads them, the cache is written atomically into a private directory and used the
// next time, and any doubt (a directory others may write to, a damaged cache file) compiles as Node would.
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as os from "node:os"
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { codeCacheDirectory, withCodeCache } from "../../src/adapters/playwright/lifecycle/code-cache.js"

const scratch: Array<string> = []
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bwm-code-cache-"))
  scratch.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of scratch.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

/** A CommonJS package of two modules that use require, require.resolve, module.exports, __filename and __dirname. */
const writePackage = (root: string) => {
  const dir = path.join(root, "pkg")
  fs.mkdirSync(dir, { recursive: true })
  fs.writeFileSync(path.join(dir, "helper.js"), "exports.twice = (n) => n * 2\n")
  fs.writeFileSync(
    path.join(dir, "index.js"),
    [
      "const helper = require('./helper')",
      "module.exports = {",
      "  value: helper.twice(21),",
      "  resolved: require.resolve('./helper'),",
      "  paths: Array.isArray(require.resolve.paths('anything')),",
      "  file: __filename,",
      "  dir: __dirname,",
      "  loads: (globalThis.__bwmLoads = (globalThis.__bwmLoads ?? 0) + 1)",
      "}"
    ].join("\n")
  )
  return dir
}

const load = (dir: string, cache: string | undefined) => {
  const require = createRequire(path.join(dir, "index.js"))
  for (const name of ["index.js", "helper.js"]) delete require.cache[path.join(dir, name)]
  return withCodeCache(() => require("./index.js") as Record<string, unknown>, cache)
}

const cacheFiles = (dir: string) => fs.readdirSync(dir).filter((name) => name.endsWith(".bin"))

/** Waits until a load's cache files are written (a moment after it: the timer). */
const written = () => new Promise((resolve) => setTimeout(resolve, 2_300))

/** A package loaded once with a fresh private cache directory, its cache written. */
const cached = async () => {
  const root = tempDir()
  const dir = writePackage(root)
  const cache = path.join(root, "cache")
  fs.mkdirSync(cache, { mode: 0o700 })
  const first = load(dir, cache)
  await written()
  return { dir, cache, first }
}

describe("loading with V8's code cache", () => {
  it("loads a module as Node does, writes the cache at exit of the load's work, and loads from it next time", async () => {
    const { dir, cache, first } = await cached()
    expect(first).toMatchObject({ value: 42, resolved: path.join(dir, "helper.js"), paths: true, file: path.join(dir, "index.js"), dir })
    // Written a moment after the load (here: at the timer), one file per module, only the owner may read them.
    const files = cacheFiles(cache)
    expect(files).toHaveLength(2)
    for (const name of files) expect(fs.statSync(path.join(cache, name)).mode & 0o077).toBe(0)
    const second = load(dir, cache)
    expect(second).toMatchObject({ value: 42, resolved: path.join(dir, "helper.js"), file: path.join(dir, "index.js") })
    expect(second.loads).toBe((first.loads as number) + 1)
    // Used, not replaced: nothing new to write.
    expect(cacheFiles(cache)).toEqual(files)
  })

  it("a damaged cache file is rejected by V8 and the module compiles as usual", async () => {
    const { dir, cache } = await cached()
    for (const name of cacheFiles(cache)) fs.writeFileSync(path.join(cache, name), Buffer.from("not bytecode at all"))
    expect(load(dir, cache)).toMatchObject({ value: 42 })
  })

  it("a changed module is not served the old module's bytecode, and its new cache file replaces the old one", async () => {
    const { dir, cache } = await cached()
    const before = cacheFiles(cache)
    fs.writeFileSync(path.join(dir, "helper.js"), "exports.twice = (n) => n * 3\n")
    expect(load(dir, cache)).toMatchObject({ value: 63 })
    await written()
    // Two files still: index.js's, and helper.js's new one in place of its old one (upgrades do not pile up).
    const after = cacheFiles(cache)
    expect(after).toHaveLength(2)
    expect(after.filter((name) => before.includes(name))).toHaveLength(1)
  })

  it("the cache directory is private to this user, or not used at all", () => {
    const home = tempDir()
    const made = codeCacheDirectory({ XDG_CACHE_HOME: home })
    expect(made).toBeDefined()
    expect(fs.statSync(made!).mode & 0o777).toBe(0o700)
    // A directory others may write to could hand us their bytecode: it is not used.
    fs.chmodSync(made!, 0o777)
    expect(codeCacheDirectory({ XDG_CACHE_HOME: home })).toBeUndefined()
    expect(codeCacheDirectory({ XDG_CACHE_HOME: home, BWM_CODE_CACHE: "off" })).toBeUndefined()
  })

  it("without a directory the load is Node's own", () => {
    const dir = writePackage(tempDir())
    expect(load(dir, undefined)).toMatchObject({ value: 42 })
  })
})
