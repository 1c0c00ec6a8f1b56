// The session's lifecycle against real Chromium: launches and cleanups one at a time, a launch
// interrupted while Chromium starts leaves nothing behind, and a browser that dies ends its session.
import { randomUUID } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { expect, layer } from "@effect/vitest"
import { Context, Effect, Fiber, Layer, Option, Schedule } from "effect"
import type { Envelope } from "../../src/domain/envelope.js"
import { runTool, type RunOptions } from "../../src/runtime/runTool.js"
import type { AnyToolDefinition } from "../../src/runtime/tool.js"
import { KnowledgeStore } from "../../src/services/KnowledgeStore.js"
import { Session } from "../../src/services/Session.js"
import { getState } from "../../src/tools/discovery.js"
import { click, waitFor } from "../../src/tools/interaction.js"
import { navigate } from "../../src/tools/navigation.js"
import { cleanup, launch } from "../../src/tools/session.js"
import { html, liveLayer, pageServer, testSettings, readable } from "../support/browser.js"
import { browserMainPids, browserPids, profileDirs, waitUntil } from "../support/processes.js"

// Profiles go under a temp root of this test file alone (each test file runs in its own process).
const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), "bwm-lifecycle-"))
process.env.TMPDIR = tmpRoot

const marker = randomUUID()
const settings = testSettings({ browserArgs: [`--bwm-test-marker=${marker}`] })

class Pages extends Context.Tag("test/Pages")<Pages, { readonly url: (path: string) => string }>() {}

const PagesLive = Layer.scoped(
  Pages,
  Effect.map(
    pageServer({
      "/page": html("Page", `<button data-testid="go" onclick="this.textContent = 'Gone'">Go</button>`)
    }),
    (server) => ({ url: (p: string) => `${server.url}${p}` })
  )
)

const call = (tool: AnyToolDefinition, args: Record<string, unknown> = {}, options?: RunOptions) =>
  Effect.map(runTool(tool)(args, options), (response) => readable(response))

const codeOf = (envelope: Envelope<any>) => (envelope.ok ? "ok" : envelope.error?.code)

/** Waits until the browsers of this test have exited (their processes go a moment after close). */
const settled = (count: number) => Effect.promise(() => waitUntil(() => browserMainPids(marker).length === count, 10_000))

layer(Layer.merge(liveLayer(settings), PagesLive), { timeout: 120_000, excludeTestServices: true })("session lifecycle in real Chromium", (it) => {
  it.effect("two launches at the same time start one browser; the other answers MM_SESSION_ALREADY_RUNNING", () =>
    Effect.gen(function* () {
      const both = yield* Effect.all([call(launch), call(launch)], { concurrency: "unbounded" })
      expect(both.map(codeOf).sort()).toEqual(["MM_SESSION_ALREADY_RUNNING", "ok"])
      const winner = both.find((envelope) => envelope.ok)!
      const loser = both.find((envelope) => !envelope.ok)!
      expect(loser.error?.details?.sessionId).toBe(winner.result.sessionId)
      expect(browserMainPids(marker)).toHaveLength(1)
      expect(profileDirs(tmpRoot)).toHaveLength(1)

      expect((yield* call(cleanup)).result).toEqual({ cleanedUp: true })
      expect(yield* settled(0)).toBe(true)
      expect(profileDirs(tmpRoot)).toEqual([])
    }))

  it.effect("two forced launches at the same time leave one browser, the one of the session that is current", () =>
    Effect.gen(function* () {
      const both = yield* Effect.all([call(launch, { force: true }), call(launch, { force: true })], { concurrency: "unbounded" })
      expect(both.map(codeOf)).toEqual(["ok", "ok"])
      const session = yield* Session
      const current = yield* session.current
      const ids = both.map((envelope) => envelope.result.sessionId)
      expect(Option.isSome(current) && ids.includes(current.value.sessionId)).toBe(true)
      expect(yield* settled(1)).toBe(true)
      expect(profileDirs(tmpRoot)).toHaveLength(1)
      yield* call(cleanup)
      expect(yield* settled(0)).toBe(true)
    }))

  it.effect("a cleanup called while a launch starts Chromium waits for it, then closes it", () =>
    Effect.gen(function* () {
      const launching = yield* Effect.fork(call(launch))
      expect(yield* Effect.promise(() => waitUntil(() => browserPids(marker).length > 0, 15_000))).toBe(true)
      const cleaned = yield* call(cleanup)
      const launched = yield* Fiber.join(launching)
      expect(launched.ok).toBe(true)
      expect(cleaned.result).toEqual({ cleanedUp: true })
      expect(Option.isNone(yield* (yield* Session).current)).toBe(true)
      expect(yield* settled(0)).toBe(true)
      expect(profileDirs(tmpRoot)).toEqual([])
    }))

  it.effect("a launch interrupted while Chromium starts leaves no browser and no profile, and the next launch works", () =>
    Effect.gen(function* () {
      const launching = yield* Effect.fork(call(launch))
      // The browser process is there: Chromium is starting.
      expect(yield* Effect.promise(() => waitUntil(() => browserPids(marker).length > 0, 15_000))).toBe(true)
      yield* Fiber.interrupt(launching)
      expect(yield* settled(0)).toBe(true)
      expect(yield* Effect.promise(() => waitUntil(() => browserPids(marker).length === 0, 10_000))).toBe(true)
      expect(profileDirs(tmpRoot)).toEqual([])
      expect(Option.isNone(yield* (yield* Session).current)).toBe(true)

      expect(codeOf(yield* call(launch))).toBe("ok")
      yield* call(cleanup)
      expect(yield* settled(0)).toBe(true)
    }))

  it.effect("a launch whose deadline passes while Chromium starts leaves no browser and no profile", () =>
    Effect.gen(function* () {
      const timedOut = yield* call(launch, {}, { deadlineMs: 200 })
      expect(timedOut.error?.code).toBe("MM_TIMEOUT")
      expect(yield* settled(0)).toBe(true)
      expect(profileDirs(tmpRoot)).toEqual([])
      expect(Option.isNone(yield* (yield* Session).current)).toBe(true)
    }))

  it.effect("Chromium killed mid-session: calls answer MM_BROWSER_CLOSED, a plain launch starts anew, and the steps stay", () =>
    Effect.gen(function* () {
      const { url } = yield* Pages
      const first = yield* call(launch)
      const firstId: string = first.result.sessionId
      expect(codeOf(yield* call(navigate, { screen: "url", url: url("/page") }))).toBe("ok")
      expect(codeOf(yield* call(click, { testId: "go" }))).toBe("ok")

      // A call waiting in the browser when it dies ends then, not when its own time runs out.
      const waiting = yield* Effect.fork(call(waitFor, { testId: "never-there", timeoutMs: 30_000 }, { deadlineMs: 5_000 }))
      yield* Effect.sleep("300 millis")
      const [pid] = browserMainPids(marker)
      expect(pid).toBeDefined()
      process.kill(pid!, "SIGKILL")
      expect((yield* Fiber.join(waiting)).error?.code).toBe("MM_BROWSER_CLOSED")

      // Later calls answer at once (a 5 s deadline would say MM_TIMEOUT otherwise), with the hint.
      const state = yield* call(getState, {}, { deadlineMs: 5_000 })
      expect(state.error?.code).toBe("MM_BROWSER_CLOSED")
      expect(state.error?.message).toContain("mm_launch")
      // The dead session stays current, so the call is recorded under it.
      expect(Option.getOrUndefined(yield* (yield* Session).current)?.sessionId).toBe(firstId)
      expect((yield* call(click, { testId: "go" }, { deadlineMs: 5_000 })).error?.code).toBe("MM_BROWSER_CLOSED")
      expect((yield* call(navigate, { screen: "url", url: url("/page") }, { deadlineMs: 5_000 })).error?.code).toBe("MM_BROWSER_CLOSED")

      const again = yield* call(launch)
      expect(again.ok).toBe(true)
      expect(again.result.sessionId).not.toBe(firstId)
      expect(browserMainPids(marker)).toHaveLength(1)
      // The dead session's profile went with it.
      expect(profileDirs(tmpRoot)).toHaveLength(1)

      const store = yield* KnowledgeStore
      const steps = yield* store.steps(firstId)
      expect(steps.map((step) => [step.tool.name, step.outcome.ok])).toEqual([
        ["launch", true],
        ["navigate", true],
        ["click", true],
        ["wait_for", false],
        ["get_state", false],
        ["click", false],
        ["navigate", false]
      ])
      expect((yield* call(cleanup)).result).toEqual({ cleanedUp: true })
      expect(yield* settled(0)).toBe(true)
    }))

  it.effect("a cleanup after the browser died ends the session and answers cleanedUp: true", () =>
    Effect.gen(function* () {
      expect(codeOf(yield* call(launch))).toBe("ok")
      const [pid] = browserMainPids(marker)
      process.kill(pid!, "SIGKILL")
      const session = yield* Session
      // The session knows within moments; until the cleanup it is still the current one.
      const ended = yield* session.extension.pipe(
        Effect.flip,
        Effect.retry(Schedule.spaced("50 millis")),
        Effect.timeoutOption("5 seconds")
      )
      expect(Option.map(ended, (error) => error._tag)).toEqual(Option.some("BrowserClosed"))
      expect(Option.isSome(yield* session.current)).toBe(true)
      expect((yield* call(cleanup)).result).toEqual({ cleanedUp: true })
      expect(Option.isNone(yield* session.current)).toBe(true)
      expect(profileDirs(tmpRoot)).toEqual([])
      expect((yield* call(getState)).error?.code).toBe("MM_NO_ACTIVE_SESSION")
    }))
})
