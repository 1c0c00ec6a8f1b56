// Fan-out replay on real Chromium (issue 23): a flow recorded with named params (mm_type {param}) runs once
// per entry of mm_replay {runs}, each in a new session of the registry, two at a time; every run ends with
// exactly its own items (read from what each page load reported to the app on 127.0.0.1), a run without a
// value types the recorded text, a failing run is named with its step, progress comes per finished run,
// and a replay's own session is never the source of a later flowTag replay.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Effect, ManagedRuntime } from "effect"
import { appLayer } from "../../src/cli/serve.js"
import type { Envelope } from "../../src/domain/envelope.js"
import { runTool } from "../../src/runtime/runTool.js"
import { KnowledgeStore } from "../../src/services/KnowledgeStore.js"
import { Progress } from "../../src/services/Progress.js"
import { Sessions } from "../../src/services/Sessions.js"
import { servedRegistry } from "../../src/tools/registry.js"
import { testSettings } from "../support/browser.js"
import { serveListApp, sortedLists, type ListApp } from "./list-app.js"

let app: ListApp
let runtime: ManagedRuntime.ManagedRuntime<any, any>
let registry: ReturnType<typeof servedRegistry>
let source: string

const run = <A>(effect: Effect.Effect<A, never, any>) => runtime.runPromise(effect)

const call = (name: string, args: Record<string, unknown> = {}, progress?: Array<{ progress: number; total?: number; message: string }>) => {
  const tool = registry.lookup(name)
  if (tool === undefined) throw new Error(`no tool ${name}`)
  const effect = Effect.map(runTool(tool)(args), (response) => response.envelope as Envelope<any>)
  return run(
    progress === undefined
      ? effect
      : Effect.provideService(effect, Progress, {
          report: (done, total, message) => Effect.sync(() => void progress.push({ progress: done, ...(total !== undefined ? { total } : {}), message }))
        })
  )
}

const ok = async (name: string, args: Record<string, unknown> = {}) => {
  const envelope = await call(name, args)
  expect(envelope.error, `${name} ${JSON.stringify(args)}: ${JSON.stringify(envelope.error)}`).toBeUndefined()
  return envelope
}

beforeAll(async () => {
  app = await serveListApp()
  const settings = testSettings({ appUrl: `${app.url}/list`, maxSessions: 4 })
  registry = servedRegistry(settings)
  runtime = ManagedRuntime.make(appLayer(settings, "warning"))
  // The recorded flow: two items typed as params.
  const launched = await ok("mm_launch", { goal: "add two items", flowTags: ["fan-list"] })
  source = launched.result.sessionId
  await ok("mm_type", { testId: "new", text: "Milk", param: "first", submit: true })
  await ok("mm_type", { testId: "new", text: "Eggs", param: "second", submit: true })
  await ok("mm_cleanup")
}, 120_000)

afterAll(async () => {
  await runtime?.dispose()
  await app?.close()
})

describe("fan-out replay", { timeout: 240_000 }, () => {
  it("the recipe shows params as placeholders with their recorded text; the Playwright export reads them as test parameters", async () => {
    const recipe = (await ok("mm_knowledge", { session: source, export: "batch" })).result
    expect(recipe.placeholders).toEqual([
      { name: "first", target: "testId:new", default: "Milk" },
      { name: "second", target: "testId:new", default: "Eggs" }
    ])
    const steps = JSON.parse(recipe.content).steps as Array<{ tool: string; args: Record<string, unknown> }>
    // The batch runs as it is: each param is filled with its recorded text, its name kept beside it.
    expect(steps.filter((step) => step.tool === "mm_type").map((step) => [step.args.param, step.args.text])).toEqual([
      ["first", "Milk"],
      ["second", "Eggs"]
    ])
    const spec = (await ok("mm_knowledge", { session: source, export: "playwright" })).result.content as string
    expect(spec).toContain('.fill((process.env["BWM_PARAM_FIRST"] ?? "Milk"))')
    expect(spec).toContain("set BWM_PARAM_FIRST, BWM_PARAM_SECOND")
    expect(spec).not.toContain("requiredEnv")
  })

  it("runs with params, two at a time, each in its own session: every run ends with exactly its own items", async () => {
    app.reset()
    const progress: Array<{ progress: number; total?: number; message: string }> = []
    const runs = [
      { params: { first: "A1", second: "A2" } },
      { params: { first: "B1", second: "B2" } },
      { params: { first: "C1" } },
      {}
    ]
    const answer = await call("mm_replay", { flowTag: "fan-list", runs, concurrency: 2 }, progress)
    expect(answer.error, JSON.stringify(answer.error)).toBeUndefined()
    const result = answer.result
    expect(result.replayed).toBe(source)
    expect(result.passed).toBe(4)
    expect(result.runs).toHaveLength(4)
    const ids = result.runs.map((entry: { session: string }) => entry.session)
    expect(new Set(ids).size).toBe(4)
    expect(ids).not.toContain(source)
    for (const entry of result.runs) expect(Object.keys(entry).sort()).toEqual(["ms", "session"])
    // A run without a value types the recorded text.
    expect(sortedLists(app.lists())).toEqual(sortedLists([["A1", "A2"], ["B1", "B2"], ["C1", "Eggs"], ["Milk", "Eggs"]]))
    // One progress notification per finished run, counting up to the total.
    expect(progress.map((entry) => entry.progress)).toEqual([1, 2, 3, 4])
    expect(progress.every((entry) => entry.total === 4 && /^run \d ok$/.test(entry.message))).toBe(true)
    // Every run's session closed after it; its steps stay, recorded as a replay of the source.
    expect(await run(Effect.flatMap(Sessions, (sessions) => sessions.list))).toEqual([])
    const metadata = await run(Effect.flatMap(KnowledgeStore, (store) => Effect.orDie(store.sessions)))
    for (const id of ids) expect(metadata.find((session) => session.sessionId === id)).toMatchObject({ replayOf: source, tags: ["replay"], flowTags: ["fan-list"] })
  })

  it("a failing run is named with its step; the others pass; MM_REPLAY_FAILED lists every run", async () => {
    app.reset()
    const answer = await call("mm_replay", { flowTag: "fan-list", runs: [{ params: { first: "ok1" } }, { params: { first: "boom" } }], concurrency: 2 })
    expect(answer.ok).toBe(false)
    const error = answer.error as { code: string; message: string; details: any }
    expect(error.code).toBe("MM_REPLAY_FAILED")
    expect(error.message).toMatch(/^1 of 2 runs of \S+ failed: run 1 \(MM_\w+ at step 3\)/)
    const { runs, passed, failed, replayed } = error.details
    expect({ passed, failed, replayed }).toEqual({ passed: 1, failed: 1, replayed: source })
    expect(runs[0].failed).toBeUndefined()
    expect(runs[1].failed).toMatchObject({ index: 3, tool: "mm_type" })
    expect(runs[1].failed.code).toMatch(/^MM_(TARGET_NOT_FOUND|TYPE_TIMEOUT)$/)
    expect(runs[1].failed.message.length).toBeGreaterThan(0)
    expect(sortedLists(app.lists())).toEqual(sortedLists([["ok1", "Eggs"], ["boom"]]))
  })

  it("a check of a param's recorded text follows the value replayed, alone and in runs", async () => {
    // Recorded: the item typed as a param, then a read of the list (a check of "Milk" when replayed) and of the field's label.
    await ok("mm_launch", { goal: "add and check", flowTags: ["fan-check"] })
    await ok("mm_type", { testId: "new", text: "Milk", param: "item", submit: true })
    expect((await ok("mm_get_text", { testId: "list" })).result.text).toBe("Milk")
    await ok("mm_cleanup")
    // Another value: the check of the list reads it (it expected "Milk" and failed).
    const one = await call("mm_replay", { flowTag: "fan-check", params: { item: "Bread and milk" } })
    expect(one.error, JSON.stringify(one.error)).toBeUndefined()
    const runs = await call("mm_replay", { flowTag: "fan-check", runs: [{ params: { item: "Tea" } }, {}, { params: { item: "Milk" } }], concurrency: 2 })
    expect(runs.error, JSON.stringify(runs.error)).toBeUndefined()
    expect(runs.result.passed).toBe(3)
  })

  it("bad params of any run refuse the call before a run starts", async () => {
    app.reset()
    const answer = await call("mm_replay", { flowTag: "fan-list", runs: [{ params: { first: "x" } }, { params: { frist: "y" } }] })
    expect(answer.error).toMatchObject({ code: "MM_INVALID_INPUT", details: { field: "runs.1.params.frist" } })
    const tooMany = await call("mm_replay", { flowTag: "fan-list", runs: [{}], concurrency: 65 })
    expect(tooMany.error).toMatchObject({ code: "MM_INVALID_INPUT", details: { field: "concurrency" } })
    expect(app.lists()).toEqual([])
  })

  it("a replay's own session is never the source of a later flowTag replay", async () => {
    // The newest sessions with the tag are replays that succeeded; the flow tag still finds the recording.
    const first = await ok("mm_replay", { flowTag: "fan-list", params: { first: "D1" } })
    expect(first.result.replayed).toBe(source)
    await ok("mm_cleanup")
    const again = await ok("mm_replay", { flowTag: "fan-list", params: { first: "E1" } })
    expect(again.result.replayed).toBe(source)
    await ok("mm_cleanup")
    const sessions = (await ok("mm_knowledge", { sessions: true, filters: { flowTag: "fan-list" } })).result
    const listed = JSON.stringify(sessions)
    expect(listed).toContain(source)
  })

  it("a plain replay closes the session it launched once it answered and leaves the current session current; keepSession keeps it open as the current one", async () => {
    app.reset()
    const mine = (await ok("mm_launch", { name: "mine" })).result.sessionId as string
    const listed = async () =>
      (await ok("mm_sessions")).result.sessions.map((session: { id: string; current?: boolean }) => `${session.id}${session.current === true ? " current" : ""}`)
    const plain = await ok("mm_replay", { flowTag: "fan-list", params: { first: "P1" } })
    expect(plain.result).toMatchObject({ replayed: source, open: false })
    expect(plain.result.session).not.toBe(mine)
    expect(await listed()).toEqual([`${mine} current`])
    const gone = await call("mm_get_state", { session: plain.result.session })
    expect(gone.error?.code).toBe("MM_SESSION_NOT_FOUND")
    expect(gone.error?.message).toContain("was closed when the mm_replay call that launched it ended")
    // A fan-out's runs leave the current session current too.
    await ok("mm_replay", { flowTag: "fan-list", runs: [{ params: { first: "R1" } }] })
    expect(await listed()).toEqual([`${mine} current`])
    const kept = await ok("mm_replay", { flowTag: "fan-list", params: { first: "K1" }, keepSession: true })
    expect(kept.result).toMatchObject({ replayed: source, open: true })
    expect(await listed()).toEqual([mine, `${kept.result.session} current`])
    expect((await ok("mm_get_text", { testId: "list" })).result.text).toContain("K1")
    expect(sortedLists(app.lists())).toEqual(sortedLists([["P1", "Eggs"], ["R1", "Eggs"], ["K1", "Eggs"]]))
    await ok("mm_cleanup")
    await ok("mm_cleanup", { session: mine })
    const refused = await call("mm_replay", { flowTag: "fan-list", runs: [{}], keepSession: true })
    expect(refused.error).toMatchObject({ code: "MM_INVALID_INPUT", details: { field: "keepSession" } })
  })

  it("at --max-sessions a replay answers MM_SESSION_LIMIT itself, with its hint; a fan-out's runs wait for a place as long as the deadline leaves them time, then report it per run", async () => {
    app.reset()
    const open: Array<string> = []
    for (const name of ["l1", "l2", "l3", "l4"]) open.push((await ok("mm_launch", { name })).result.sessionId)
    try {
      const single = await call("mm_replay", { flowTag: "fan-list" })
      expect(single.error?.code).toBe("MM_SESSION_LIMIT")
      expect(single.error?.message).toContain("at most 4 browser sessions")
      expect(single.error?.message).toContain("mm_cleanup {session: ID}")
      // A 1 s flow: the call's deadline (the run's steps, its launch's allowance and 10 s) leaves the runs ~8 s to wait.
      const runs = await call("mm_replay", { flowTag: "fan-list", runs: [{}, {}], concurrency: 2, timeoutMs: 1_000 })
      expect(runs.error?.code).toBe("MM_REPLAY_FAILED")
      const details = (runs.error as { details: any }).details
      expect(details.passed).toBe(0)
      for (const entry of details.runs) {
        expect(entry.failed.code).toBe("MM_SESSION_LIMIT")
        expect(entry.session).toBeUndefined()
        // The places are this client's own four sessions, which it may close; never its fan-out's runs.
        expect(entry.failed.message).toContain("this run could wait for one")
        expect(entry.failed.message).toContain(`4 by yours: ${open.map((id, index) => `${id} (l${index + 1})`).join(", ")}; close one with mm_cleanup {session: ID}`)
        expect(entry.failed.message).not.toContain("starting")
      }
      expect(sortedLists(app.lists())).toEqual([])
    } finally {
      for (const id of open) await ok("mm_cleanup", { session: id })
    }
  })
})
