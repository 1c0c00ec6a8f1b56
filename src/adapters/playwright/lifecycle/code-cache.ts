// Loading Playwright with V8's code cache on Node versions without module.enableCompileCache (before
// 22.1). Most of a cold launch's Playwright load (0.3 s of CPU on a 2-core machine) is V8 compiling
// its 3.5 MB CommonJS bundle; with the bytecode V8 produced last time it takes about two thirds of
// that. Newer Node caches every module itself (src/main.ts turns that on), and this does nothing there.
//
// The cache lives in a directory only this user may read or write (V8 trusts cached bytecode that
// matches its source's length: a directory others can write to would let them run code as us), one
// file per module named by a hash of its path and content, written atomically after the load. Any
// doubt (no such directory, another owner, a file V8 rejects) compiles as Node would.
import { createHash, randomBytes } from "node:crypto"
import * as fs from "node:fs"
import Module from "node:module"
import * as os from "node:os"
import * as path from "node:path"
import * as vm from "node:vm"

/** True when Node caches compiled modules itself (22.1+), or V8 cannot produce cached data here. */
const nodeCachesItself = (): boolean =>
  typeof (Module as unknown as { enableCompileCache?: unknown }).enableCompileCache === "function"

/** The directory for this Node's V8, private to this user; undefined when it cannot be made so. */
export const codeCacheDirectory = (env: NodeJS.ProcessEnv = process.env): string | undefined => {
  if (env.BWM_CODE_CACHE === "off") return undefined
  const base = env.XDG_CACHE_HOME !== undefined && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(os.homedir(), ".cache")
  const directory = path.join(base, "browser-workflow-mcp", `v8-${process.versions.v8}-${process.arch}`)
  try {
    fs.mkdirSync(directory, { recursive: true, mode: 0o700 })
    const stat = fs.statSync(directory)
    const ours = typeof process.getuid !== "function" || stat.uid === process.getuid()
    return stat.isDirectory() && ours && (stat.mode & 0o077) === 0 ? directory : undefined
  } catch {
    return undefined
  }
}

type Compile = (this: NodeJS.Module, content: string, filename: string) => unknown

interface InternalModule {
  prototype: { _compile: Compile }
  _resolveFilename: (request: string, parent: NodeJS.Module, isMain: boolean, options?: { paths?: Array<string> }) => string
  _resolveLookupPaths: (request: string, parent: NodeJS.Module) => Array<string> | null
  _extensions: NodeJS.RequireExtensions
  _cache: NodeJS.Dict<NodeJS.Module>
  wrap: (content: string) => string
}

/** The `require` a module's code gets, as Node makes it (resolve, resolve.paths, main, extensions, cache). */
const requireFor = (internal: InternalModule, module: NodeJS.Module): NodeJS.Require => {
  const require = ((id: string) => module.require(id)) as NodeJS.Require
  const resolve = ((request: string, options?: { paths?: Array<string> }) => internal._resolveFilename(request, module, false, options)) as NodeJS.RequireResolve
  resolve.paths = (request: string) => internal._resolveLookupPaths(request, module)
  require.resolve = resolve
  require.main = process.mainModule
  require.extensions = internal._extensions
  require.cache = internal._cache
  return require
}

/** Writes `data` to `file` through a temporary file and a rename: a reader never sees half of it. */
const writeAtomically = (file: string, data: Buffer) => {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`
  try {
    fs.writeFileSync(temporary, data, { mode: 0o600 })
    fs.renameSync(temporary, file)
  } catch {
    fs.rmSync(temporary, { force: true })
  }
}

/**
 * Removes the cache files of earlier versions of the modules just written (same module prefix, another
 * version), so that rebuilds and upgrades do not pile files up; files of the old unprefixed naming go too.
 */
const removeOlderVersions = (written: ReadonlyArray<string>) => {
  if (written.length === 0) return
  const directory = path.dirname(written[0]!)
  const kept = new Set(written.map((file) => path.basename(file)))
  const prefixes = new Set([...kept].map((name) => name.slice(0, name.indexOf("-") + 1)))
  let names: Array<string>
  try {
    names = fs.readdirSync(directory)
  } catch {
    return
  }
  for (const name of names) {
    if (kept.has(name) || !name.endsWith(".bin")) continue
    const dash = name.indexOf("-")
    if (dash === -1 ? /^[0-9a-f]{40}\.bin$/.test(name) : prefixes.has(name.slice(0, dash + 1))) fs.rmSync(path.join(directory, name), { force: true })
  }
}

/** What loadWithCodeCache loaded, and how to keep what V8 compiled for next time. */
export interface CodeCacheLoad<A> {
  readonly value: A
  /**
   * Writes the cache files of the modules that had none (or one V8 rejected), 2 s from now or at exit,
   * whichever comes first: the bytecode of every function compiled by then goes in, so call it once the
   * process ran what its next start will run. Calling it again does nothing.
   */
  readonly save: () => void
}

/** How V8 compiles a cached module's dynamic import(): as the main context would (missing on older Node 20). */
const dynamicImport = vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER === undefined ? {} : { importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER }

/**
 * `load()` (a synchronous require) with every CommonJS module it compiles taken from the code cache in
 * `directory`; the modules that had no cache are kept for `save`.
 */
export const loadWithCodeCache = <A>(load: () => A, directory: string | undefined = nodeCachesItself() ? undefined : codeCacheDirectory()): CodeCacheLoad<A> => {
  if (directory === undefined) return { value: load(), save: () => undefined }
  const internal = Module as unknown as InternalModule
  const original = internal.prototype._compile
  const produced: Array<{ readonly file: string; readonly script: vm.Script }> = []
  internal.prototype._compile = function (this: NodeJS.Module, content: string, filename: string) {
    // A module that is not plain CommonJS JavaScript (JSON goes elsewhere; ESM through require) is Node's.
    if (!filename.endsWith(".js") && !filename.endsWith(".cjs")) return original.call(this, content, filename)
    // Named by the module's path, length and modification time (hashing 3.5 MB of source would cost 10 ms).
    let stamp: string
    try {
      stamp = String(fs.statSync(filename).mtimeMs)
    } catch {
      return original.call(this, content, filename)
    }
    // The module's own prefix, then its version: a newer version's file replaces the older ones.
    const prefix = `${createHash("sha256").update(filename).digest("hex").slice(0, 16)}-`
    const file = path.join(directory, `${prefix}${createHash("sha256").update(`${filename}\0${content.length}\0${stamp}`).digest("hex").slice(0, 24)}.bin`)
    let cachedData: Buffer | undefined
    try {
      cachedData = fs.readFileSync(file)
    } catch {
      cachedData = undefined
    }
    const script = new vm.Script(internal.wrap(content), { filename, cachedData, ...dynamicImport })
    if (cachedData === undefined || script.cachedDataRejected === true) produced.push({ file, script })
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: Array<unknown>) => unknown
    return wrapper.call(this.exports, this.exports, requireFor(internal, this), this, filename, path.dirname(filename))
  }
  let value: A
  try {
    value = load()
  } finally {
    internal.prototype._compile = original
  }
  let scheduled = false
  const save = () => {
    if (scheduled || produced.length === 0) return
    scheduled = true
    let written = false
    const write = () => {
      if (written) return
      written = true
      for (const { file, script } of produced) writeAtomically(file, script.createCachedData())
      removeOlderVersions(produced.map(({ file }) => file))
    }
    // A server that a client closes at once still leaves its cache.
    setTimeout(write, 2_000).unref()
    process.once("exit", write)
  }
  return { value, save }
}

/**
 * `load()` (a synchronous require) with every CommonJS module it compiles taken from, or added to,
 * the code cache in `directory`. New cache files are written a moment later, off the caller's path,
 * after the load has run its code (the functions it compiled on the way are in the cache too).
 */
export const withCodeCache = <A>(load: () => A, directory?: string): A => {
  const loaded = directory === undefined ? loadWithCodeCache(load) : loadWithCodeCache(load, directory)
  loaded.save()
  return loaded.value
}
