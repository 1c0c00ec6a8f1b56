// Recordings of a session in real Chromium (--save-trace, --save-har, --save-video): the files appear
// when the session ends, the trace holds each tool call as a named group in order, and neither it nor
// the HAR nor the step records hold a --secrets value or what was typed into a password field, in any
// entry of the trace (unzipped) or any string of the HAR.
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import type * as http from "node:http"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { chromium } from "playwright"
import { describe, expect, layer } from "@effect/vitest"
import { Context, Deferred, Effect, Fiber, Layer } from "effect"
import { recordingDir } from "../../src/adapters/playwright/lifecycle/recording.js"
import { findFfmpeg } from "../../src/adapters/playwright/lifecycle/recording-video.js"
import { readZip } from "../../src/adapters/zip.js"
import { Secrets } from "../../src/services/Secrets.js"
import { answerPage, listenLoopback, pathOf, send } from "../../demo/serve.js"
import { html, liveLayer, LOOPBACK_ARGS, testSettings } from "../support/browser.js"
import { call, ok } from "../support/calls.js"

const SECRET = "Tr0ub4dor-and-3"
const PASSWORD = "pw-typed-9Xq"

const pages = {
  "/login": html(
    "Sign in",
    `<form action="/echo" method="post">
       <input name="u" data-testid="user" aria-label="User">
       <input name="t" data-testid="token" aria-label="Token">
       <input name="p" type="password" data-testid="pass" aria-label="Password">
       <button data-testid="go">Go</button>
     </form>`
  )
}

class Pages extends Context.Tag("test/RecordingPages")<
  Pages,
  { readonly url: (path: string) => string; readonly slowAsked: Effect.Effect<void> }
>() {}
/** The pages, and /slow, which never answers (until the server closes) and says when it was asked. */
const PagesLive = Layer.scoped(
  Pages,
  Effect.gen(function* () {
    const asked = yield* Deferred.make<void>()
    const held: Array<http.ServerResponse> = []
    const server = yield* Effect.acquireRelease(
      Effect.promise(() =>
        listenLoopback(
          (request, response) => {
            if (pathOf(request) === "/slow") {
              held.push(response)
              Effect.runSync(Deferred.succeed(asked, undefined))
            } else if (!answerPage(pages, request, response)) send(response, 404, "text/plain", "not found")
          },
          () => held.forEach((response) => response.destroy())
        )
      ),
      (running) => Effect.promise(() => running.close())
    )
    return { url: (p: string) => `${server.url}${p}`, slowAsked: Deferred.await(asked) }
  })
)

const ffmpeg = findFfmpeg()
const settings = testSettings({ saveTrace: true, saveHar: true })
const videoSettings = testSettings({ saveVideo: true })
const secrets = Layer.succeed(Secrets, Secrets.make(new Map([["API_TOKEN", SECRET]])))

/** Every file under the directory, as bytes, by its path. */
const filesUnder = (dir: string): ReadonlyArray<readonly [string, Buffer]> =>
  fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((file) => path.join(dir, file))
    .filter((file) => fs.statSync(file).isFile())
    .map((file) => [file, fs.readFileSync(file)] as const)

/**
 * The titles in the action list of Playwright's trace viewer, served by `playwright show-trace` on
 * 127.0.0.1 and loaded in headless Chromium, in the order the list shows them.
 */
const viewerActionTitles = async (traceFile: string): Promise<ReadonlyArray<string>> => {
  const cli = path.resolve(import.meta.dirname, "../../node_modules/playwright/cli.js")
  // Playwright opens no browser tab of its own for a coding agent: the test loads the page itself.
  const viewer = spawn(process.execPath, [cli, "show-trace", "--host", "127.0.0.1", "--port", "0", traceFile], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, CLAUDECODE: "1" }
  })
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = ""
      viewer.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString("utf8")
        const found = /Listening on (http:\/\/127\.0\.0\.1:\d+\S*)/.exec(out)
        if (found !== null) resolve(found[1]!)
      })
      viewer.on("exit", (code) => reject(new Error(`show-trace exited with ${code}: ${out}`)))
    })
    const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: [...LOOPBACK_ARGS, "--no-sandbox"] })
    try {
      const page = await browser.newPage()
      await page.goto(url)
      await page.locator(".action-title", { hasText: "mm_cleanup" }).first().waitFor({ timeout: 60_000 })
      // Each title is followed by the action's duration ("mm_cleanup5ms").
      return (await page.locator(".action-title").allTextContents()).map((title) => title.replace(/\d+(?:\.\d+)?m?s$/, ""))
    } finally {
      await browser.close()
    }
  } finally {
    viewer.kill()
  }
}

interface TraceEvent {
  readonly type: string
  readonly callId?: string
  readonly parentId?: string
  readonly method?: string
  readonly title?: string
  readonly params?: { readonly name?: string }
}

/** The events of a trace.zip's .trace files, in order. */
const traceEvents = (file: string): ReadonlyArray<TraceEvent> =>
  readZip(fs.readFileSync(file))
    .filter((entry) => entry.name.endsWith(".trace"))
    .flatMap((entry) => Buffer.from(entry.data).toString("utf8").split("\n"))
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as TraceEvent)

/** The groups a trace opened, with the group each sits in. */
const traceGroups = (events: ReadonlyArray<TraceEvent>) => {
  const opened = events.filter((event) => event.type === "before" && event.method === "tracingGroup")
  const nameOf = (callId: string | undefined) => {
    const parent = opened.find((event) => event.callId === callId)
    return parent === undefined ? undefined : (parent.title ?? parent.params?.name)
  }
  return opened.map((event) => ({ name: event.title ?? event.params?.name, within: nameOf(event.parentId) }))
}

/** Where a value shows in the bytes, as is or URL-encoded. */
const leaks = (bytes: Buffer, value: string) => [value, encodeURIComponent(value)].some((form) => bytes.includes(form))

layer(Layer.mergeAll(liveLayer(settings), PagesLive, secrets), { timeout: 180_000, excludeTestServices: true })("session recordings in real Chromium", (it) => {
  describe("trace, HAR and video of a session that typed secrets", () => {
    it.effect("are written at cleanup, group each call in order (also in the trace viewer), and hold no secret or password anywhere", () =>
      Effect.gen(function* () {
        const { url } = yield* Pages
        const sessionId = (yield* ok("mm_launch", {})).result.sessionId as string
        yield* ok("mm_navigate", { url: url("/login") })
        yield* ok("mm_type", { testId: "user", text: "alice" })
        // By a selector: Playwright's fill of all but the last character, then that one typed.
        yield* ok("mm_type", { selector: 'role=textbox[name="Token"]', secret: "API_TOKEN" })
        const typed = yield* ok("mm_type", { testId: "pass", text: PASSWORD })
        expect(typed.result.sensitive).toBe(true)
        yield* ok("mm_click", { testId: "go" })
        const early = yield* call("mm_knowledge", { export: "trace", session: "current" })
        expect(early.error?.code).toBe("MM_KNOWLEDGE_ERROR")
        expect(early.error?.message).toContain("still running")
        // A session the memory does not know is named as such, not blamed on --save-trace.
        const unknown = yield* call("mm_knowledge", { export: "trace", session: "no-such-session" })
        expect(unknown.error?.message).toContain("no steps are recorded for session no-such-session")
        yield* ok("mm_cleanup")

        const dir = recordingDir(settings.artifactsDir, sessionId)
        // The step memory says where the trace is, and the report links the trace and the HAR.
        expect((yield* ok("mm_knowledge", { export: "trace", session: sessionId })).result).toEqual({
          format: "trace",
          path: path.join(dir, "trace.zip"),
          sessionId
        })
        const report = fs.readFileSync((yield* ok("mm_knowledge", { export: "report", session: sessionId })).result.path as string, "utf8")
        expect(report).toContain(`href="${pathToFileURL(path.join(dir, "trace.zip")).href}"`)
        expect(report).toContain(`href="${pathToFileURL(path.join(dir, "network.har")).href}"`)
        expect(report).toContain("Playwright trace")
        const names = fs.readdirSync(dir).sort()
        expect(names).toEqual(["network.har", "trace.zip"])
        // Nothing half-written is left.
        expect(names.filter((name) => name.includes("partial"))).toEqual([])

        // The trace: every entry readable, each call a group, in the order they were made.
        const entries = readZip(fs.readFileSync(path.join(dir, "trace.zip")))
        const events = traceEvents(path.join(dir, "trace.zip"))
        const groups = traceGroups(events).map((group) => group.name)
        const calls = ["mm_launch", `mm_navigate "${url("/login")}"`, 'mm_type "user"', 'mm_type "role=textbox[name=\\"Token\\"]"', 'mm_type "pass"', 'mm_click "go"', "mm_knowledge", "mm_knowledge", "mm_cleanup"]
        expect(groups).toEqual(calls)
        expect(events.some((event) => event.type === "frame-snapshot")).toBe(true)

        // The HAR: JSON with the page's requests, the fetch among them.
        const har = JSON.parse(fs.readFileSync(path.join(dir, "network.har"), "utf8")) as { log: { entries: Array<{ request: { url: string; method: string } }> } }
        expect(har.log.entries.some((entry) => entry.request.url.endsWith("/echo") && entry.request.method === "POST")).toBe(true)

        // No secret, no password in any entry of the trace, the HAR, or any other file the session left.
        // Nor their beginnings: a snapshot taken while a secret was being typed into a plain field holds
        // all of it but its last character (the direct input path presses that one as a key).
        for (const entry of entries) {
          const bytes = Buffer.from(entry.data)
          expect(leaks(bytes, SECRET), `trace entry ${entry.name}`).toBe(false)
          expect(leaks(bytes, PASSWORD), `trace entry ${entry.name}`).toBe(false)
          expect(leaks(bytes, SECRET.slice(0, -1)), `trace entry ${entry.name}`).toBe(false)
          expect(leaks(bytes, PASSWORD.slice(0, -1)), `trace entry ${entry.name}`).toBe(false)
        }
        for (const [file, bytes] of filesUnder(settings.artifactsDir)) {
          expect(leaks(bytes, SECRET), file).toBe(false)
          expect(leaks(bytes, PASSWORD), file).toBe(false)
        }
        // What was not secret stays: the user name in the HAR and the trace.
        expect(fs.readFileSync(path.join(dir, "network.har"), "utf8")).toContain("u=alice&t=")

        // Playwright's own trace viewer lists the calls, in order, among the actions they made.
        const titles = yield* Effect.promise(() => viewerActionTitles(path.join(dir, "trace.zip")))
        expect(titles.filter((title) => title.startsWith("mm_"))).toEqual(calls)
      }))

    it.effect("a call interrupted half-way (a navigation the server never answers) closes its group: the next call's group stands beside it", () =>
      Effect.gen(function* () {
        const { url, slowAsked } = yield* Pages
        const sessionId = (yield* ok("mm_launch", {})).result.sessionId as string
        const navigating = yield* Effect.fork(call("mm_navigate", { url: url("/slow") }))
        yield* slowAsked
        yield* Fiber.interrupt(navigating)
        yield* ok("mm_navigate", { url: url("/login") })
        yield* ok("mm_cleanup")
        const groups = traceGroups(traceEvents(path.join(recordingDir(settings.artifactsDir, sessionId), "trace.zip")))
        expect(groups).toEqual([
          { name: "mm_launch", within: undefined },
          { name: `mm_navigate "${url("/slow")}"`, within: undefined },
          { name: `mm_navigate "${url("/login")}"`, within: undefined },
          { name: "mm_cleanup", within: undefined }
        ])
      }))
  })
})

layer(Layer.mergeAll(liveLayer(videoSettings), PagesLive), { timeout: 120_000, excludeTestServices: true })("session video in real Chromium", (it) => {
  it.effect(
    ffmpeg === undefined
      ? "without ffmpeg, a launch with --save-video fails saying what to install"
      : "--save-video writes a WebM video of each tab when the session ends",
    () =>
      Effect.gen(function* () {
        const { url } = yield* Pages
        const launched = yield* call("mm_launch", {})
        if (ffmpeg === undefined) {
          // No encoder on this machine: the launch says what to install instead of recording without video.
          expect(launched.error?.code).toBe("MM_LAUNCH_FAILED")
          expect(launched.error?.message).toMatch(/ffmpeg.*apt-get install -y ffmpeg/s)
          return
        }
        const sessionId = launched.result.sessionId as string
        yield* ok("mm_navigate", { url: url("/login") })
        yield* ok("mm_type", { testId: "user", text: "alice" })
        yield* ok("mm_cleanup")
        const dir = recordingDir(videoSettings.artifactsDir, sessionId)
        expect(fs.readdirSync(dir)).toEqual(["video-tab1.webm"])
        // A WebM file (its EBML header) with frames in it, readable by its owner only.
        const file = path.join(dir, "video-tab1.webm")
        const video = fs.readFileSync(file)
        expect(video.subarray(0, 4).toString("hex")).toBe("1a45dfa3")
        expect(video.length).toBeGreaterThan(1_000)
        expect(fs.statSync(file).mode & 0o777).toBe(0o600)
        // The report links it.
        const report = fs.readFileSync((yield* ok("mm_knowledge", { export: "report", session: sessionId })).result.path as string, "utf8")
        expect(report).toContain(`<a href="${pathToFileURL(file).href}">Video of tab 1</a>`)
        // Recorded without --save-trace: the answer says so.
        const trace = yield* call("mm_knowledge", { export: "trace", session: sessionId })
        expect(trace.error?.message).toContain("traces are recorded when the server runs with --save-trace")
      })
  )
})
