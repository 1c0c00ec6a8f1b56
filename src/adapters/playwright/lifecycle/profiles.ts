// Browser profiles. Temporary ones: one directory per session under the OS temp dir, marked with the
// pid of the server that made it, so that the next server can remove what a killed one left behind.
// A persistent one (--user-data-dir) is the user's: never marked, never removed.
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { Effect } from "effect"
import { LaunchFailed } from "../../../domain/errors.js"

export const PROFILE_PREFIX = "bwm-profile-"

/** The marker inside each profile: which server owns it. */
export const OWNER_FILE = "bwm-owner.json"

/** A profile without a marker this young may be one being created right now. */
const UNMARKED_GRACE_MS = 60_000

interface Owner {
  readonly pid: number
  readonly host: string
}

/** True when a process with this pid exists (EPERM: it exists, under another user). */
const isAlive = (pid: number): boolean => {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

const readOwner = (dir: string): Promise<Owner | undefined> =>
  fs
    .readFile(path.join(dir, OWNER_FILE), "utf8")
    .then((text) => {
      const owner = JSON.parse(text) as Partial<Owner>
      return typeof owner.pid === "number" && typeof owner.host === "string" ? { pid: owner.pid, host: owner.host } : undefined
    })
    .catch(() => undefined)

/** Chromium's own lock in a profile it runs on: a symlink to "host-pid" while the browser lives. */
const browserHolds = (dir: string): Promise<boolean> =>
  fs
    .readlink(path.join(dir, "SingletonLock"))
    .then((target) => {
      const dash = target.lastIndexOf("-")
      return target.slice(0, dash) !== os.hostname() || isAlive(Number(target.slice(dash + 1)))
    })
    .catch(() => false)

/**
 * The profiles browsers run on now, from their command lines (--user-data-dir=...): Linux's /proc;
 * elsewhere none are known and Chromium's own lock is the only sign.
 */
const profilesInUse = async (): Promise<ReadonlySet<string>> => {
  const pids = await fs.readdir("/proc").catch(() => [] as Array<string>)
  const inUse = new Set<string>()
  for (const pid of pids) {
    if (!/^\d+$/.test(pid)) continue
    const commandLine = await fs.readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "")
    for (const arg of commandLine.split("\0")) {
      if (arg.startsWith("--user-data-dir=")) inUse.add(path.resolve(arg.slice("--user-data-dir=".length)))
    }
  }
  return inUse
}

/** Whether a profile may go: its server is gone (or it has no marker and is not new) and no browser runs on it. */
const isStale = async (dir: string, now: number, inUse: ReadonlySet<string>): Promise<boolean> => {
  if (inUse.has(path.resolve(dir))) return false
  const owner = await readOwner(dir)
  if (owner !== undefined) {
    // Another machine sharing the temp dir, or a live server: never ours to judge.
    if (owner.host !== os.hostname() || owner.pid === process.pid || isAlive(owner.pid)) return false
  } else {
    const stat = await fs.stat(dir).catch(() => undefined)
    if (stat === undefined || now - stat.mtimeMs < UNMARKED_GRACE_MS) return false
  }
  return !(await browserHolds(dir))
}

/**
 * Removes the profiles under `root` whose owning server is dead (killed with SIGKILL, say) and on
 * which no browser runs any more; never `keep` (the configured persistent profile). Gives the
 * directories it removed.
 */
export const removeStaleProfiles = (root: string = os.tmpdir(), keep?: string) =>
  Effect.promise(async () => {
    const entries = await fs.readdir(root).catch(() => [] as Array<string>)
    const names = entries.filter((name) => name.startsWith(PROFILE_PREFIX))
    // Playwright's own profile of a shared browser, when this program marked it as its own (markLaunchedProfiles).
    for (const name of entries.filter((entry) => entry.startsWith(PLAYWRIGHT_PROFILE_PREFIX))) {
      if ((await readOwner(path.join(root, name))) !== undefined) names.push(name)
    }
    if (names.length === 0) return [] as ReadonlyArray<string>
    const inUse = await profilesInUse()
    const now = Date.now()
    const removed: Array<string> = []
    const kept = keep === undefined ? undefined : path.resolve(keep)
    for (const name of names) {
      const dir = path.join(root, name)
      if (dir === kept || !(await isStale(dir, now, inUse))) continue
      await fs.rm(dir, { recursive: true, force: true, maxRetries: 2 }).then(
        () => removed.push(dir),
        () => undefined
      )
    }
    return removed as ReadonlyArray<string>
  })

/** How Playwright names the temporary profile of a browser it launches (removed by Playwright when the browser closes). */
const PLAYWRIGHT_PROFILE_PREFIX = "playwright_chromiumdev_profile-"

/**
 * Marks the temporary profiles of the browsers this process launched through Playwright (found as
 * its child processes' --user-data-dir, Linux only) with this server's pid: Playwright removes them
 * when the browser closes, but not when this server is killed with SIGKILL; the next server's
 * removeStaleProfiles then takes them. Never fails.
 */
export const markLaunchedProfiles = Effect.promise(async () => {
  const pids = await fs.readdir("/proc").catch(() => [] as Array<string>)
  for (const pid of pids) {
    if (!/^\d+$/.test(pid)) continue
    const stat = await fs.readFile(`/proc/${pid}/stat`, "utf8").catch(() => "")
    // The fields after the command's closing parenthesis: state, then the parent's pid.
    const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
    if (parent !== process.pid) continue
    const commandLine = await fs.readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "")
    for (const arg of commandLine.split("\0")) {
      if (!arg.startsWith("--user-data-dir=")) continue
      const dir = path.resolve(arg.slice("--user-data-dir=".length))
      if (!path.basename(dir).startsWith(PLAYWRIGHT_PROFILE_PREFIX) || (await readOwner(dir)) !== undefined) continue
      const owner: Owner = { pid: process.pid, host: os.hostname() }
      await fs.writeFile(path.join(dir, OWNER_FILE), JSON.stringify(owner), { mode: 0o600 }).catch(() => undefined)
    }
  }
})

/**
 * A fresh profile directory for one session, marked with this server's pid; removed when the scope
 * closes (the session ends, or its launch failed or was interrupted).
 */
export const acquireProfile = (root: string = os.tmpdir()) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const dir = await fs.mkdtemp(path.join(root, PROFILE_PREFIX))
        const owner: Owner = { pid: process.pid, host: os.hostname() }
        await fs.writeFile(path.join(dir, OWNER_FILE), JSON.stringify(owner)).catch(async (error: unknown) => {
          await fs.rm(dir, { recursive: true, force: true }).catch(() => undefined)
          throw error
        })
        return dir
      },
      catch: (error) =>
        new LaunchFailed({
          reason: "BrowserStartFailed",
          detail: `cannot create a temporary profile under ${root}: ${error instanceof Error ? error.message : String(error)}`
        })
    }),
    (dir) => Effect.promise(() => fs.rm(dir, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined))
  )

/**
 * The persistent profile of --user-data-dir, created when missing and never removed. Refused when it
 * looks like a temporary profile (a later server would sweep it away) or a live browser holds it
 * (Chromium lets one browser use a profile at a time; the second would fail obscurely).
 */
export const persistentProfile = (dir: string, root: string = os.tmpdir()) =>
  Effect.gen(function* () {
    const absolute = path.resolve(dir)
    if (path.dirname(absolute) === path.resolve(root) && path.basename(absolute).startsWith(PROFILE_PREFIX)) {
      return yield* new LaunchFailed({
        reason: "ProfileInUse",
        detail: `--user-data-dir ${absolute} is named like the temporary profiles (${PROFILE_PREFIX}*) that servers remove; choose another directory.`
      })
    }
    yield* Effect.tryPromise({
      try: () => fs.mkdir(absolute, { recursive: true }),
      catch: (error) =>
        new LaunchFailed({
          reason: "BrowserStartFailed",
          detail: `cannot create --user-data-dir ${absolute}: ${error instanceof Error ? error.message : String(error)}`
        })
    })
    if (yield* Effect.promise(() => browserHolds(absolute))) {
      return yield* new LaunchFailed({
        reason: "ProfileInUse",
        detail: `another browser is running on --user-data-dir ${absolute} (its SingletonLock); close it, or give this server another directory.`
      })
    }
    return absolute
  })
