// Replay inside iframes on real Chromium: a session that typed and clicked by ref in six kinds of frames
// (same-origin, cross-origin in the page's process and out of it, same-origin inside an out-of-process
// frame, cross-origin inside a same-origin one, inside an open shadow root) records each target with the
// way into its frame; mm_replay redoes it in a fresh browser in those frames (each frame's page says what
// it got), and the exported Playwright test enters them with contentFrame() and passes.
import * as fs from "node:fs"
import * as path from "node:path"
import { expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option } from "effect"
import type { Envelope } from "../../src/domain/envelope.js"
import { ENTER_FRAME } from "../../src/domain/frames.js"
import type { StepRecord } from "../../src/domain/knowledge.js"
import { runTool } from "../../src/runtime/runTool.js"
import { KnowledgeStore } from "../../src/services/KnowledgeStore.js"
import { Session } from "../../src/services/Session.js"
import { servedRegistry } from "../../src/tools/registry.js"
import { linesNamed } from "../page/parse.js"
import { html, liveLayer, testSettings } from "../support/browser.js"
import { FRAME_TITLES, frameHost } from "../support/frames.js"
import { REPO_ROOT, runPlaywrightTests, writePlaywrightConfig } from "../support/playwright-runner.js"

const form = html(
  "Form",
  `<label>Name <input name="name"></label>
   <button onclick="document.getElementById('out').textContent = 'Sent ' + document.querySelector('input').value">Send</button>
   <p id="out"></p>`
)

const FRAMES = FRAME_TITLES.length

class Pages extends Context.Tag("test/ReplayFramePages")<Pages, { readonly url: string }>() {}

const settings = testSettings()
const registry = servedRegistry(settings)

const TestLayer = Layer.merge(
  liveLayer(settings),
  Layer.unwrapScoped(
    Effect.gen(function* () {
      const url = yield* frameHost(form, { frame: { width: 400, height: 160 }, nest: { width: 500, height: 240 } })
      return Layer.succeed(Pages, { url })
    })
  )
)

const call = (name: string, args: Record<string, unknown> = {}) =>
  Effect.gen(function* () {
    const tool = registry.lookup(name)
    if (tool === undefined) throw new Error(`no tool ${name}`)
    return (yield* runTool(tool)(args)).envelope as Envelope<any>
  })

const ok = (name: string, args: Record<string, unknown> = {}) =>
  Effect.tap(call(name, args), (envelope) => Effect.sync(() => expect(envelope.error, `${name} ${JSON.stringify(args)}`).toBeUndefined()))

/** Waits until every frame's form shows: as many "Send" buttons as frames. */
const framesLoaded = Effect.gen(function* () {
  for (let tries = 0; tries < 100; tries++) {
    if ((yield* ok("mm_find", { role: "button", name: "Send" })).result.found === FRAMES) return
    yield* Effect.sleep("100 millis")
  }
  throw new Error("the frames did not load")
})

/** How many frames' pages say they got a name and a click. */
const sentCount = Effect.map(ok("mm_find", { text: "Sent Ada" }), (found) => found.result.found as number)

layer(TestLayer, { timeout: 240_000, excludeTestServices: true })("replay inside iframes on real Chromium", (it) => {
  it.effect("steps by ref inside six kinds of frames record the way into their frame, replay there in a fresh browser, and export a passing Playwright test", () =>
    Effect.gen(function* () {
      const { url } = yield* Pages
      const launched = yield* ok("mm_launch", { goal: "fill the framed forms", force: true })
      const sessionId = launched.result.sessionId as string
      yield* ok("mm_navigate", { screen: "url", url })
      yield* framesLoaded
      const screen = (yield* ok("mm_describe_screen")).snapshot as string
      const names = linesNamed(screen, "textbox", "Name")
      const sends = linesNamed(screen, "button", "Send")
      expect([names.length, sends.length]).toEqual([FRAMES, FRAMES])
      for (const [index, name] of names.entries()) {
        yield* ok("mm_type", { a11yRef: name.ref, text: `Ada${index}` })
        yield* ok("mm_click", { a11yRef: sends[index]!.ref })
      }
      expect(yield* sentCount).toBe(FRAMES)

      // Every action was described inside its frame, with the way in from the top document.
      const steps: ReadonlyArray<StepRecord> = yield* (yield* KnowledgeStore).steps(sessionId)
      const actions = steps.filter((step) => step.tool.name === "type" || step.tool.name === "click")
      expect(actions).toHaveLength(2 * FRAMES)
      for (const step of actions) {
        expect(step.tool.target?.element?.frame, JSON.stringify(step.tool.target)).toBeDefined()
        expect(step.tool.target?.element?.unique).toContain("role")
      }
      const nested = actions.filter((step) => (step.tool.target?.element?.frame ?? "").includes(ENTER_FRAME))
      expect(nested).toHaveLength(2 * 2)
      yield* ok("mm_cleanup")

      // A fresh browser: the replay types and clicks in the frames, not the top document.
      const replayed = yield* ok("mm_replay", { sessionId, keepSession: true })
      expect(replayed.result.summary).toMatchObject({ ok: true })
      expect(replayed.result.leftOut ?? []).toEqual([])
      expect(yield* sentCount).toBe(FRAMES)
      const current = yield* (yield* Session).current
      expect(Option.getOrThrow(current).sessionId).not.toBe(sessionId)
      yield* ok("mm_cleanup")

      // The exported test enters each frame with contentFrame() and passes under Playwright's runner.
      const code = (yield* ok("mm_knowledge", { session: sessionId, export: "playwright" })).result.content as string
      expect(code.match(/\.contentFrame\(\)\.getByRole\("textbox", \{ name: "Name", exact: true \}\)\.fill\("Ada\d"\)/g)).toHaveLength(FRAMES)
      expect(code).not.toContain("enter-frame")
      const dir = path.join(REPO_ROOT, "test-artifacts", `replay-frames-${process.pid}`)
      fs.mkdirSync(dir, { recursive: true })
      fs.writeFileSync(path.join(dir, "frames.spec.ts"), code)
      const run = yield* runPlaywrightTests(writePlaywrightConfig(dir))
      fs.rmSync(dir, { recursive: true, force: true })
      expect(run.status, run.output).toBe(0)
    }), 240_000)
})
