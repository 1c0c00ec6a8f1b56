// A fan-out replay on real Chromium at --max-sessions 2: runs beyond the free places wait for one instead of
// failing with MM_SESSION_LIMIT. 4 runs at concurrency 3 all pass, each with exactly its own items (read from
// what each page load reported to the app on 127.0.0.1), the run that waited says so in a progress
// notification; and a fan-out whose places another client holds goes on once that client closes one.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Effect, ManagedRuntime } from "effect"
import { appLayer } from "../../src/cli/serve.js"
import type { Envelope } from "../../src/domain/envelope.js"
import { runTool } from "../../src/runtime/runTool.js"
import { ObservingClient } from "../../src/services/Observer.js"
import { Progress } from "../../src/services/Progress.js"
import { defaultSettings } from "../../src/domain/config.js"
import { servedRegistry } from "../../src/tools/registry.js"
import { replay } from "../../src/tools/replay.js"
import { testSettings } from "../support/browser.js"
import { serveListApp, sortedLists, type ListApp } from "./list-app.js"

let app: ListApp
let runtime: ManagedRuntime.ManagedRuntime<any, any>
let registry: ReturnType<typeof servedRegistry>

interface Notice {
  readonly progress: number
  readonly message: string
}

/** A tool call as `client`; `onProgress` hears its progress notifications. */
const call = (name: string, args: Record<string, unknown>, options: { readonly client?: string; readonly onProgress?: (notice: Notice) => void } = {}) => {
  const tool = registry.lookup(name)
  if (tool === undefined) throw new Error(`no tool ${name}`)
  const report = (progress: number, _total: number | undefined, message: string) => Effect.sync(() => options.onProgress?.({ progress, message }))
  const effect = Effect.map(runTool(tool)(args), (response) => response.envelope as Envelope<any>).pipe(Effect.provideService(Progress, { report }))
  return runtime.runPromise(Effect.locally(effect, ObservingClient, options.client ?? "me"))
}

const ok = async (name: string, args: Record<string, unknown> = {}, client?: string) => {
  const envelope = await call(name, args, client === undefined ? {} : { client })
  expect(envelope.error, `${name} ${JSON.stringify(args)}: ${JSON.stringify(envelope.error)}`).toBeUndefined()
  return envelope
}

beforeAll(async () => {
  app = await serveListApp()
  const settings = testSettings({ appUrl: `${app.url}/list`, maxSessions: 2 })
  registry = servedRegistry(settings)
  runtime = ManagedRuntime.make(appLayer(settings, "warning"))
  await ok("mm_launch", { goal: "add an item", flowTags: ["wait-list"] })
  await ok("mm_type", { testId: "new", text: "Milk", param: "item", submit: true })
  await ok("mm_cleanup")
}, 120_000)

afterAll(async () => {
  await runtime?.dispose()
  await app?.close()
})

describe("a fan-out replay waits for a free session place", { timeout: 240_000 }, () => {
  it("at --max-sessions 2, 4 runs at concurrency 3 all pass, each with its own items; the run beyond the places waits and says so", async () => {
    app.reset()
    const notices: Array<Notice> = []
    const runs = ["W0", "W1", "W2", "W3"].map((item) => ({ params: { item } }))
    const answer = await call("mm_replay", { flowTag: "wait-list", runs, concurrency: 3 }, { onProgress: (notice) => void notices.push(notice) })
    expect(answer.error, JSON.stringify(answer.error)).toBeUndefined()
    expect(answer.result.passed).toBe(4)
    expect(new Set(answer.result.runs.map((run: { session: string }) => run.session)).size).toBe(4)
    expect(sortedLists(app.lists())).toEqual(["W0", "W1", "W2", "W3"])
    // Run 2 asked while runs 0 and 1 held both places: it waited, and the notification said so before it ran.
    expect(notices.map((notice) => notice.message)).toContain("run 2 waits for a free session place (all --max-sessions are open)")
    expect(answer.result.runs[2].waitedMs).toBeGreaterThan(0)
    expect(notices.filter((notice) => Number.isInteger(notice.progress)).map((notice) => notice.progress)).toEqual([1, 2, 3, 4])
    const order = notices.map((notice) => notice.progress)
    expect(order).toEqual([...order].sort((a, b) => a - b))
  })

  it("with both places held by another client, the fan-out waits and goes on once that client closes one", async () => {
    app.reset()
    const held = [(await ok("mm_launch", {}, "other")).result.sessionId as string, (await ok("mm_launch", {}, "other")).result.sessionId as string]
    let waited!: () => void
    const waiting = new Promise<void>((resolve) => (waited = resolve))
    const answer = call(
      "mm_replay",
      { flowTag: "wait-list", runs: [{ params: { item: "O0" } }, { params: { item: "O1" } }], concurrency: 2 },
      { onProgress: (notice) => (notice.message.includes("waits") ? waited() : undefined) }
    )
    await waiting
    // No run typed anything while the places were the other client's (its own pages loaded empty).
    expect(sortedLists(app.lists())).toEqual([])
    await ok("mm_cleanup", { session: held[0] }, "other")
    const done = await answer
    expect(done.error, JSON.stringify(done.error)).toBeUndefined()
    expect(done.result.passed).toBe(2)
    expect(sortedLists(app.lists())).toEqual(["O0", "O1"])
    await ok("mm_cleanup", { session: held[1] }, "other")
  })
})

describe("a fan-out's backstop deadline", () => {
  it("counts rounds of at most --max-sessions runs: concurrency above the limit does not shorten it", () => {
    const deadline = (runs: number, concurrency: number, maxSessions: number) =>
      replay.deadlineMs!({ flowTag: "f", runs: Array.from({ length: runs }, () => ({})), concurrency } as any, { ...defaultSettings, maxSessions })
    const round = deadline(1, 1, 8)
    expect(deadline(8, 8, 8)).toBe(round)
    expect(deadline(8, 8, 2)).toBe(4 * round)
    expect(deadline(8, 2, 8)).toBe(4 * round)
    expect(deadline(9, 4, 3)).toBe(3 * round)
  })
})
