// mm_replay baseUrl on real Chromium: a flow recorded against an app on one port replays against the same
// app served on another port (the first one gone), its URLs and end check moved there; without baseUrl the
// replay goes to the recorded port and fails; a base URL with a path is refused before anything runs.
import { Effect, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { appLayer } from "../../src/cli/serve.js"
import type { Envelope } from "../../src/domain/envelope.js"
import { runTool } from "../../src/runtime/runTool.js"
import { servedRegistry } from "../../src/tools/registry.js"
import { testSettings } from "../support/browser.js"
import { serveListApp, type ListApp } from "./list-app.js"

let recordedAt: ListApp
let movedTo: ListApp
let runtime: ManagedRuntime.ManagedRuntime<any, any>
let call: (name: string, args?: Record<string, unknown>) => Promise<Envelope<any>>

beforeAll(async () => {
  recordedAt = await serveListApp()
  movedTo = await serveListApp()
  const settings = testSettings()
  const registry = servedRegistry(settings)
  runtime = ManagedRuntime.make(appLayer(settings, "warning"))
  call = (name, args = {}) => runtime.runPromise(Effect.map(runTool(registry.lookup(name)!)(args), (response) => response.envelope as Envelope<any>))
  for (const [name, args] of [
    ["mm_launch", { goal: "add two items", flowTags: ["moved-list"] }],
    ["mm_navigate", { screen: "url", url: `${recordedAt.url}/list` }],
    ["mm_type", { testId: "new", text: "Milk", submit: true }],
    ["mm_type", { testId: "new", text: "Eggs", submit: true }],
    ["mm_cleanup", {}]
  ] as const) {
    expect((await call(name, args)).error, name).toBeUndefined()
  }
  expect(recordedAt.lists()).toContainEqual(["Milk", "Eggs"])
  // The app moves: the recorded port serves nothing any more.
  await recordedAt.close()
}, 120_000)

afterAll(async () => {
  await runtime?.dispose()
  await movedTo?.close()
})

describe("mm_replay baseUrl", { timeout: 120_000 }, () => {
  it("replays the flow against the app on another port: its pages load there and its end check passes there", async () => {
    const replayed = await call("mm_replay", { flowTag: "moved-list", baseUrl: movedTo.url })
    expect(replayed.error).toBeUndefined()
    expect(replayed.ok).toBe(true)
    // The start page loaded at the new origin, and the end check (a wait for the recorded end URL) found it there.
    expect(replayed.result.steps[1].page.url).toBe(`${movedTo.url}/list`)
    expect(replayed.result.steps.at(-1).result).toEqual({ found: true })
    expect(movedTo.lists()).toContainEqual(["Milk", "Eggs"])
  })

  it("without baseUrl the replay goes to the recorded port, where nothing answers: MM_REPLAY_FAILED", async () => {
    const replayed = await call("mm_replay", { flowTag: "moved-list" })
    expect(replayed.error?.code).toBe("MM_REPLAY_FAILED")
  })

  it("a base URL with a path is refused before anything runs, saying the form", async () => {
    movedTo.reset()
    const replayed = await call("mm_replay", { flowTag: "moved-list", baseUrl: `${movedTo.url}/list` })
    expect(replayed.error?.code).toBe("MM_INVALID_INPUT")
    expect(replayed.error?.message).toContain("baseUrl")
    expect(replayed.error?.message).toContain("origin only")
    expect(movedTo.lists()).toEqual([])
  })
})
