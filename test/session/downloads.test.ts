// Downloads in real Chromium, from pages this test serves on 127.0.0.1: each kind a call can start (a
// link with `download`, an attachment response, a blob: and a data: URL, window.open to a file) saved
// under <artifacts>/downloads/ with its hash checked, names that never overwrite, the size cap, one still
// running when its call answers, a page that closes mid-download, many at once, a batch step's downloads,
// mm_navigate to a file.
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Schedule } from "effect"
import type { Download } from "../../src/domain/download.js"
import { KnowledgeStore } from "../../src/services/KnowledgeStore.js"
import { Session } from "../../src/services/Session.js"
import { call, ok } from "../support/calls.js"
import { html, liveLayer, testSettings } from "../support/browser.js"
import { runPlaywrightTests, writePlaywrightConfig } from "../support/playwright-runner.js"

const CSV = "id,name\n1,alice\n2,bob\n"
const JSON_BODY = JSON.stringify({ report: [1, 2, 3] })
const BLOB_TEXT = "made in the page\n"
const DATA_TEXT = "from a data URL"
const OPENED = "opened by window.open\n"
const PDF = "%PDF-1.4\n% a statement\n"
/** What /attachment serves: the replay test changes it. */
const attachment = { body: JSON_BODY, name: "report.json" }
const root = path.resolve(import.meta.dirname, "../..")
const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex")

/** Streams `chunks` of `size` bytes (64 KB by default), one every `everyMs`. */
const trickle = (response: http.ServerResponse, chunks: number, everyMs: number, headers: http.OutgoingHttpHeaders, size = 64 * 1024) => {
  response.writeHead(200, headers)
  let sent = 0
  const timer = setInterval(() => {
    if (response.destroyed) return clearInterval(timer)
    response.write(Buffer.alloc(size, sent % 251))
    if (++sent >= chunks) {
      clearInterval(timer)
      response.end()
    }
  }, everyMs)
}

const page = html(
  "Downloads",
  `<a id="attr" download="report.csv" href="/file.csv">CSV</a>
   <a id="attach" href="/attachment">JSON</a>
   <button id="blob" onclick="const a = document.createElement('a'); a.href = window.URL.createObjectURL(new Blob(['made in the page\\n'], {type: 'text/plain'})); a.download = 'made.txt'; document.body.append(a); a.click()">Blob</button>
   <a id="data" download="data.txt" href="data:text/plain;base64,${Buffer.from(DATA_TEXT).toString("base64")}">Data</a>
   <button id="open" onclick="window.open('/opened')">Open</button>
   <button id="twin" onclick="window.open(location.href)">Twin</button>
   <a id="big" href="/big">Big</a>
   <a id="slow" href="/slow">Slow</a>
   <a id="endless" href="/endless">Endless</a>
   <a id="statement" download="statement" href="/statement">Statement</a>
   <a id="export" href="/export">Export</a>
   <button id="many" onclick="for (let i = 0; i < 5; i++) { const a = document.createElement('a'); a.href = '/file.csv?n=' + i; a.download = 'many.csv'; document.body.append(a); a.click() }">Many</button>`
)

class Server extends Context.Tag("test/DownloadServer")<Server, { readonly url: (p: string) => string }>() {}

/** The responses of /endless still open: the test cuts them. */
const endless = new Set<http.ServerResponse>()

const ServerLive = Layer.scoped(
  Server,
  Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<http.Server>((resolve) => {
          const server = http.createServer((request, response) => {
            const url = new URL(request.url ?? "/", "http://127.0.0.1")
            switch (url.pathname) {
              case "/":
                response.writeHead(200, { "Content-Type": "text/html" })
                return response.end(page)
              case "/file.csv":
                response.writeHead(200, { "Content-Type": "text/csv" })
                return response.end(CSV)
              case "/attachment":
                response.writeHead(200, { "Content-Type": "application/json", "Content-Disposition": `attachment; filename="${attachment.name}"` })
                return response.end(attachment.body)
              case "/statement":
                // A PDF the server does not type, under a name without an extension: its bytes tell.
                response.writeHead(200, { "Content-Type": "application/octet-stream" })
                return response.end(PDF)
              case "/export":
                // An attachment without an extension: its response's type tells.
                response.writeHead(200, { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": "attachment; filename=export" })
                return response.end(CSV)
              case "/opened":
                response.writeHead(200, { "Content-Type": "text/plain", "Content-Disposition": 'attachment; filename="opened.txt"' })
                return response.end(OPENED)
              case "/big":
                // 3 MB in 48 chunks, past a 1 MB cap after about a third.
                return trickle(response, 48, 30, { "Content-Type": "application/octet-stream", "Content-Disposition": "attachment; filename=big.bin" })
              case "/slow":
                // 12 chunks (768 KB, under the cap) over about 9 s: far longer than a 3 s click's deadline.
                return trickle(response, 12, 750, { "Content-Type": "application/octet-stream", "Content-Disposition": "attachment; filename=slow.bin" })
              case "/endless":
                // Never ends by itself: the test cuts the connection.
                endless.add(response)
                return trickle(response, 100_000, 100, { "Content-Type": "application/octet-stream", "Content-Disposition": "attachment; filename=endless.bin" }, 1024)
              default:
                response.writeHead(404)
                return response.end()
            }
          })
          server.listen(0, "127.0.0.1", () => resolve(server))
        })
    ),
    (server) => Effect.promise(() => new Promise<void>((resolve) => server.closeAllConnections() ?? server.close(() => resolve())))
  ).pipe(Effect.map((server) => ({ url: (p: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${p}` })))
)

const settings = testSettings({ maxDownloadMb: 1 })
const downloadsDir = path.join(settings.artifactsDir, "downloads")

/** The files in <artifacts>/downloads/ (none before the first download). */
const filesSaved = () => (fs.existsSync(downloadsDir) ? fs.readdirSync(downloadsDir) : [])

const open = Effect.gen(function* () {
  const { url } = yield* Server
  const session = yield* Session
  if ((yield* session.current)._tag === "None") yield* ok("mm_launch")
  yield* ok("mm_navigate", { screen: "url", url: url("/") })
})

/** The one download a call's answer names, checked against the file it says it saved. */
const savedFile = (download: Download | undefined, content: string) => {
  expect(download?.state).toBeUndefined()
  expect(download?.path).toBeDefined()
  const file = download!.path!
  expect(path.dirname(file)).toBe(downloadsDir)
  expect(fs.readFileSync(file, "utf8")).toBe(content)
  expect(download).toEqual({ name: path.basename(file).replace(/ \(\d+\)/, ""), path: file, bytes: Buffer.byteLength(content), sha256: sha256(content), ...(download!.mime !== undefined ? { mime: download!.mime } : {}) })
  expect(fs.statSync(file).mode & 0o777).toBe(0o600)
  return download!
}

/**
 * The session's downloads once `until` holds (downloads that finish in the background), read from the port:
 * a call's answer would take the notices the tests look for.
 */
const listedUntil = (until: (downloads: ReadonlyArray<Download>) => boolean) =>
  Effect.flatMap(Session, (session) => session.downloads).pipe(
    Effect.filterOrFail(until, () => "not yet"),
    Effect.retry(Schedule.spaced("200 millis")),
    Effect.timeout("20 seconds")
  )

/** The download named `name` from the next answer that lists it (one that started after its call answered). */
const nextAnswerListing = (name: string) =>
  ok("mm_get_state").pipe(
    Effect.map((envelope) => [...(envelope.download !== undefined ? [envelope.download] : envelope.downloads ?? [])].find((download) => download.name === name)),
    Effect.filterOrFail((download): download is Download => download !== undefined, () => "not yet"),
    Effect.retry(Schedule.spaced("200 millis")),
    Effect.timeout("20 seconds")
  )

layer(Layer.merge(liveLayer(settings), ServerLive), { timeout: 180_000, excludeTestServices: true })("downloads in real Chromium", (it) => {
  describe("each kind a call can start is saved, hashed, and named in the call's answer", () => {
    it.effect("a link with download, an attachment response, a blob: URL, a data: URL, window.open to a file", () =>
      Effect.gen(function* () {
        yield* open
        expect(fs.statSync(settings.artifactsDir).isDirectory()).toBe(true)
        const link = yield* ok("mm_click", { selector: "#attr" })
        expect(savedFile(link.download, CSV)).toMatchObject({ name: "report.csv", mime: "text/csv" })
        expect(fs.statSync(downloadsDir).mode & 0o777).toBe(0o700)

        const attachment = yield* ok("mm_click", { selector: "#attach" })
        expect(savedFile(attachment.download, JSON_BODY)).toMatchObject({ name: "report.json", mime: "application/json" })

        const blob = yield* ok("mm_click", { selector: "#blob" })
        expect(savedFile(blob.download, BLOB_TEXT).name).toBe("made.txt")

        const data = yield* ok("mm_click", { selector: "#data" })
        expect(savedFile(data.download, DATA_TEXT)).toMatchObject({ name: "data.txt", mime: "text/plain" })

        // window.open's new tab starts the download after the click answered, or before: then the next answer lists it.
        const opened = yield* ok("mm_click", { selector: "#open" })
        expect(savedFile(opened.download ?? (yield* nextAnswerListing("opened.txt")), OPENED).name).toBe("opened.txt")

        // The same name again never replaces the first file.
        const again = yield* ok("mm_click", { selector: "#attr" })
        expect(savedFile(again.download, CSV).path).toBe(path.join(downloadsDir, "report (2).csv"))
        expect(fs.readFileSync(path.join(downloadsDir, "report.csv"), "utf8")).toBe(CSV)

        // mm_downloads lists them all, oldest first; nothing else (no temporary file) is left in the directory.
        const listed = yield* listedUntil((downloads) => downloads.length >= 6)
        expect(listed.map((download) => download.name)).toEqual(["report.csv", "report.json", "made.txt", "data.txt", "opened.txt", "report.csv"])
        expect(fs.readdirSync(downloadsDir).sort()).toEqual(["data.txt", "made.txt", "opened.txt", "report (2).csv", "report.csv", "report.json"])
      }))
  })

  describe("a navigation to a file", () => {
    it.effect("mm_navigate to an attachment saves it and answers with it; the tab stays on its page", () =>
      Effect.gen(function* () {
        const { url } = yield* Server
        yield* open
        const navigated = yield* ok("mm_navigate", { screen: "url", url: url("/attachment") })
        expect(savedFile(navigated.download, JSON_BODY)).toMatchObject({ name: "report.json", mime: "application/json" })
        expect(navigated.page?.url).toBe(url("/"))
        // The page is still there to act on.
        expect(savedFile((yield* ok("mm_click", { selector: "#attr" })).download, CSV).name).toBe("report.csv")
      }))

    it.effect("mm_navigate to a file in a new tab saves it and answers with it; the blank tab closes, the tab before stays active", () =>
      Effect.gen(function* () {
        const { url } = yield* Server
        yield* open
        const before = yield* ok("mm_tabs", { action: "list" })
        const navigated = yield* ok("mm_navigate", { screen: "url", url: url("/attachment"), newTab: true })
        expect(savedFile(navigated.download, JSON_BODY)).toMatchObject({ name: "report.json", mime: "application/json" })
        expect(navigated.page?.url).toBe(url("/"))
        expect(yield* ok("mm_tabs", { action: "list" })).toEqual(before)
      }))
  })

  describe("types", () => {
    it.effect("a download's type comes from its response's Content-Type, else from its first bytes, not only its name", () =>
      Effect.gen(function* () {
        yield* open
        const statement = yield* ok("mm_click", { selector: "#statement" })
        expect(savedFile(statement.download, PDF)).toMatchObject({ name: "statement", mime: "application/pdf" })
        const exported = yield* ok("mm_click", { selector: "#export" })
        expect(savedFile(exported.download, CSV)).toMatchObject({ name: "export", mime: "text/csv" })
      }))
  })

  describe("limits", () => {
    it.effect("a download past --max-download-mb is stopped and deleted, with a notice saying so", () =>
      Effect.gen(function* () {
        yield* open
        const big = yield* ok("mm_click", { selector: "#big" })
        expect(big.download).toEqual({ name: "big.bin", mime: "application/octet-stream", state: "too large" })
        expect(big.notices?.join("\n")).toMatch(/page file name: "big\.bin"\) was stopped at 1\.\d MB: larger than --max-download-mb 1; its file was deleted/)
        expect(filesSaved().filter((name) => name.includes("big"))).toEqual([])
      }))

    it.effect("a download longer than its call's deadline is in progress in the answer and finishes in the background, with a notice", () =>
      Effect.gen(function* () {
        yield* open
        // The click waits (up to its timeout) for the download to start, and answers within its deadline (timeout + 1 s).
        const slow = yield* ok("mm_click", { selector: "#slow", timeoutMs: 3_000 })
        expect(slow.download).toEqual({ name: "slow.bin", mime: "application/octet-stream", state: "in progress" })
        const listed = yield* listedUntil((downloads) => downloads.some((download) => download.name === "slow.bin" && download.state === undefined))
        const done = listed.find((download) => download.name === "slow.bin" && download.state === undefined)!
        expect(done.bytes).toBe(12 * 64 * 1024)
        expect(done.sha256).toBe(sha256(fs.readFileSync(done.path!)))
        const next = yield* ok("mm_get_state")
        expect(next.notices?.join("\n")).toContain(`(page file name: "slow.bin") was saved to ${done.path}`)
      }))

    it.effect("a download outlives the page that started it and ends as failed when its connection is cut, its partial file gone", () =>
      Effect.gen(function* () {
        yield* open
        const started = yield* ok("mm_click", { selector: "#endless", timeoutMs: 1_000 })
        expect(started.download).toMatchObject({ name: "endless.bin", state: "in progress" })
        // A second tab to go on in, then the downloading page closes; the server answers throughout.
        yield* ok("mm_click", { selector: "#twin" })
        yield* ok("mm_tabs", { action: "close", tabId: "t1" })
        expect((yield* ok("mm_get_state")).ok).toBe(true)
        for (const response of endless) response.destroy()
        const listed = yield* listedUntil((downloads) => downloads.some((download) => download.name === "endless.bin" && download.state !== "in progress"))
        expect(listed.find((download) => download.name === "endless.bin")).toMatchObject({ state: "failed", error: expect.any(String) })
        expect(filesSaved().filter((name) => name.includes("endless"))).toEqual([])
        const next = yield* ok("mm_get_state")
        expect(next.notices?.join("\n")).toContain('(page file name: "endless.bin") failed')
      }))

    it.effect("five downloads at once from one click are each saved under its own name", () =>
      Effect.gen(function* () {
        yield* open
        const many = yield* ok("mm_click", { selector: "#many" })
        const all = yield* listedUntil((downloads) => downloads.filter((download) => download.name === "many.csv" && download.state === undefined).length === 5)
        const saved = all.filter((download) => download.name === "many.csv")
        expect(new Set(saved.map((download) => download.path)).size).toBe(5)
        for (const download of saved) expect(fs.readFileSync(download.path!, "utf8")).toBe(CSV)
        // The click's answer names the ones that started before it answered; the rest come with the next answer.
        const answered = [...(many.download !== undefined ? [many.download] : many.downloads ?? [])]
        const next = yield* ok("mm_get_state")
        answered.push(...(next.download !== undefined ? [next.download] : next.downloads ?? []))
        expect(answered.filter((download) => download.name === "many.csv")).toHaveLength(5)
      }))
  })

  describe("batches", () => {
    it.effect("a step with includeDownloads lists the downloads it started; the batch's answer lists every step's", () =>
      Effect.gen(function* () {
        yield* open
        const batch = yield* ok("mm_run_steps", {
          steps: [
            { tool: "mm_click", args: { selector: "#attach" }, expectation: { includeDownloads: true } },
            { tool: "mm_get_state", args: {}, expectation: { includeDownloads: true } },
            { tool: "mm_click", args: { selector: "#attr" } }
          ],
          includeObservations: "none"
        })
        const steps = batch.result.steps as ReadonlyArray<{ downloads?: ReadonlyArray<Download> }>
        expect(steps[0]!.downloads?.map((download) => download.name)).toEqual(["report.json"])
        expect(steps[0]!.downloads?.[0]?.sha256).toBe(sha256(JSON_BODY))
        expect(steps[1]!.downloads).toBeUndefined()
        expect(steps[2]!.downloads).toBeUndefined()
        expect(batch.downloads?.map((download) => download.name)).toEqual(["report.json", "report.csv"])
      }))
  })
  describe("replay and export", () => {
    it.effect("a recorded download replays with its name and hash checked, fails when the file changed, and exports to a passing Playwright test", () =>
      Effect.gen(function* () {
        const { url } = yield* Server
        const sessionId = (yield* ok("mm_launch", { force: true })).result.sessionId as string
        yield* ok("mm_navigate", { screen: "url", url: url("/") })
        const recorded = yield* ok("mm_click", { selector: "#attach" })
        expect(recorded.download?.sha256).toBe(sha256(JSON_BODY))
        // The step memory keeps the file's name and hash.
        const steps = yield* Effect.flatMap(KnowledgeStore, (store) => store.steps(sessionId))
        expect(steps.find((step) => step.tool.name === "click")?.downloads).toEqual([
          { name: "report.json", sha256: sha256(JSON_BODY), bytes: Buffer.byteLength(JSON_BODY), path: recorded.download?.path }
        ])
        // The report's step links the file it saved.
        const report = fs.readFileSync((yield* ok("mm_knowledge", { export: "report", session: sessionId })).result.path as string, "utf8")
        expect(report).toContain(`<dt>downloaded</dt><dd><a href="${pathToFileURL(recorded.download!.path!).href}">report.json</a>`)

        // The Playwright export (of the flow as recorded, before the replays below add their steps to the session) waits for the download and checks its name and hash.
        const exported = (yield* ok("mm_knowledge", { session: sessionId, export: "playwright" })).result.content as string
        expect(exported).toContain(`page.waitForEvent("download")`)
        expect(exported).toContain(`.suggestedFilename()).toBe("report.json")`)
        expect(exported).toContain(`.toBe(${JSON.stringify(sha256(JSON_BODY))})`)
        const specDir = path.join(root, "test-artifacts", `download-specs-${process.pid}`)
        fs.mkdirSync(specDir, { recursive: true })
        fs.writeFileSync(path.join(specDir, "download.spec.ts"), exported)
        const config = writePlaywrightConfig(specDir)
        const replayed = yield* ok("mm_replay", { sessionId })
        const clickStep = (replayed.result.steps as ReadonlyArray<{ downloads?: ReadonlyArray<Download> }>).find((step) => step.downloads !== undefined)
        expect(clickStep?.downloads?.map((download) => [download.name, download.sha256])).toEqual([["report.json", sha256(JSON_BODY)]])

        // The same name with other content: the replay fails at that step, saying so.
        attachment.body = JSON.stringify({ report: [4, 5, 6] })
        const changed = yield* call("mm_replay", { sessionId }).pipe(Effect.ensuring(Effect.sync(() => (attachment.body = JSON_BODY))))
        expect(changed.error?.code).toBe("MM_REPLAY_FAILED")
        expect(changed.error?.details?.failed).toMatchObject({ code: "MM_DOWNLOAD_MISMATCH", tool: "mm_click" })
        // The message names the step, the file and the hashes, and does not count the mismatched step as succeeded.
        const { total, succeeded, failed } = changed.error?.details?.summary as { total: number; succeeded: number; failed: number }
        expect([succeeded, failed]).toEqual([total - 1, 1])
        expect(changed.error?.message).toContain(
          `step ${(changed.error?.details?.failed as { index: number }).index} (mm_click, MM_DOWNLOAD_MISMATCH): "report.json" is not the recorded file (hash mismatch): expected sha256 ${sha256(JSON_BODY)}, got sha256 ${sha256(JSON.stringify({ report: [4, 5, 6] }))}.`
        )
        expect(changed.error?.message).toContain(`${total - 1} of ${total} steps succeeded`)
        // Another name: expected and got, by name.
        attachment.name = "summary.json"
        const renamed = yield* call("mm_replay", { sessionId }).pipe(Effect.ensuring(Effect.sync(() => (attachment.name = "report.json"))))
        expect(renamed.error?.message).toContain('(mm_click, MM_DOWNLOAD_MISMATCH): expected the download "report.json" (recorded), got "summary.json".')
        expect(renamed.error?.message).not.toMatch(/(\d+) of \1 steps succeeded/)

        // The exported test passes under npx playwright test.
        const run = yield* runPlaywrightTests(config).pipe(Effect.ensuring(Effect.sync(() => fs.rmSync(specDir, { recursive: true, force: true }))))
        expect(run.status, run.output).toBe(0)
        expect(run.output).toMatch(/1 passed/)
      }))
  })
})
