// Temporary profiles: a server killed with SIGKILL leaves its profile behind, and the next server
// removes it when it starts; a live server's profile (or one a browser still runs on) is never touched.
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import { randomUUID } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { OWNER_FILE, PROFILE_PREFIX, removeStaleProfiles } from "../../src/adapters/playwright/lifecycle/profiles.js"
import { LOOPBACK_ARGS, tempDir } from "../support/browser.js"
import { browserPids, profileDirs, waitUntil } from "../support/processes.js"

const serverEntry = path.resolve(import.meta.dirname, "../../dist/src/main.js")

/** The pid of a process that has exited. */
const deadPid = () => spawnSync(process.execPath, ["-e", ""]).pid!

const makeProfile = (root: string, owner: { pid: number; host?: string } | undefined, ageMs = 0) => {
  const dir = fs.mkdtempSync(path.join(root, PROFILE_PREFIX))
  if (owner !== undefined) fs.writeFileSync(path.join(dir, OWNER_FILE), JSON.stringify({ pid: owner.pid, host: owner.host ?? os.hostname() }))
  fs.writeFileSync(path.join(dir, "Preferences"), "{}")
  if (ageMs > 0) {
    const then = new Date(Date.now() - ageMs)
    fs.utimesSync(dir, then, then)
  }
  return dir
}

describe("stale profile removal", () => {
  const children: Array<ChildProcess> = []
  afterAll(() => {
    for (const child of children) child.kill("SIGKILL")
  })

  it.effect("removes profiles of dead servers and old unmarked ones; keeps live servers', other hosts', new and locked ones", () =>
    Effect.gen(function* () {
      const root = tempDir("bwm-profiles-")
      const alive = spawn("sleep", ["60"])
      children.push(alive)
      const dead = deadPid()

      const ofDeadServer = makeProfile(root, { pid: dead })
      const ofLiveServer = makeProfile(root, { pid: alive.pid! })
      const ofThisServer = makeProfile(root, { pid: process.pid })
      const ofOtherHost = makeProfile(root, { pid: dead, host: "another-machine" })
      const unmarkedOld = makeProfile(root, undefined, 10 * 60_000)
      const unmarkedNew = makeProfile(root, undefined)
      // A browser still runs on this one, though its server is gone.
      const lockedByBrowser = makeProfile(root, { pid: deadPid() })
      fs.symlinkSync(`${os.hostname()}-${alive.pid}`, path.join(lockedByBrowser, "SingletonLock"))
      // A lock whose browser is gone does not keep it.
      const staleLock = makeProfile(root, { pid: dead })
      fs.symlinkSync(`${os.hostname()}-${dead}`, path.join(staleLock, "SingletonLock"))
      // A browser whose command line names it runs on this one (Linux: /proc), though its server is gone.
      const namedByBrowser = makeProfile(root, { pid: dead }, 10 * 60_000)
      const browser = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)", "--", `--user-data-dir=${namedByBrowser}`])
      children.push(browser)
      const commandLine = `/proc/${browser.pid}/cmdline`
      yield* Effect.promise(() => waitUntil(() => fs.existsSync(commandLine) && fs.readFileSync(commandLine, "utf8").includes("--user-data-dir"), 5_000))
      const unrelated = fs.mkdtempSync(path.join(root, "something-else-"))

      const removed = yield* removeStaleProfiles(root)
      expect([...removed].sort()).toEqual([ofDeadServer, unmarkedOld, staleLock].sort())
      for (const dir of [ofLiveServer, ofThisServer, ofOtherHost, unmarkedNew, lockedByBrowser, namedByBrowser, unrelated]) {
        expect(fs.existsSync(dir)).toBe(true)
      }
      for (const dir of removed) expect(fs.existsSync(dir)).toBe(false)
    }))

  it.effect("a root that does not exist is nothing to remove", () =>
    Effect.map(removeStaleProfiles(path.join(os.tmpdir(), `bwm-missing-${randomUUID()}`)), (removed) => expect(removed).toEqual([])))
})

describe("the built server", () => {
  const start = (tmp: string, marker: string) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        serverEntry,
        "--artifacts-dir",
        tempDir(),
        ...LOOPBACK_ARGS.map((arg) => `--browser-arg=${arg}`),
        "--browser-arg",
        `--bwm-test-marker=${marker}`
      ],
      env: { ...getDefaultEnvironment(), TMPDIR: tmp },
      stderr: "ignore"
    })
    const client = new Client({ name: "profiles-test", version: "1.0.0" })
    return { transport, client, connected: client.connect(transport) }
  }

  it("a profile left by a server killed with SIGKILL is removed when the next server starts", { timeout: 90_000 }, async () => {
    expect(fs.existsSync(serverEntry), "run npm run build first").toBe(true)
    const tmp = tempDir("bwm-killed-server-")
    const marker = randomUUID()

    const first = start(tmp, marker)
    await first.connected
    const launched = await first.client.callTool({ name: "mm_launch", arguments: {} })
    expect(launched.isError).toBeFalsy()
    const [left] = profileDirs(tmp)
    expect(left).toBeDefined()
    expect(JSON.parse(fs.readFileSync(path.join(left!, OWNER_FILE), "utf8")).pid).toBe(first.transport.pid)

    process.kill(first.transport.pid!, "SIGKILL")
    await first.client.close().catch(() => undefined)
    // Chromium goes when its pipe to the dead server closes; the profile stays.
    expect(await waitUntil(() => browserPids(marker).length === 0, 15_000)).toBe(true)
    expect(fs.existsSync(left!)).toBe(true)

    const second = start(tmp, randomUUID())
    await second.connected
    try {
      expect(await waitUntil(() => !fs.existsSync(left!), 15_000)).toBe(true)
      // The new server's own session gets a profile of its own, which stays while it runs.
      await second.client.callTool({ name: "mm_launch", arguments: {} })
      expect(profileDirs(tmp)).toHaveLength(1)
    } finally {
      await second.client.close()
    }
    expect(await waitUntil(() => profileDirs(tmp).length === 0, 15_000)).toBe(true)
  })
})
