// Hostile input (issue 10) with a session: a megabyte in every string field of every tool, from the agent
// and from the page (a megabyte URL hash), then every tool fuzzed from its own schema while a page is open.
// Each answer is a well-formed envelope within the deadline and of bounded size, and the session lives on.
// Its own file beside inputs.test.ts (no session), so the isolated group runs the two at once.
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { getState } from "../../src/tools/discovery.js"
import { knowledgeSearch } from "../../src/tools/knowledge.js"
import { navigate } from "../../src/tools/navigation.js"
import { cleanup, launch } from "../../src/tools/session.js"
import { liveLayer, testSettings } from "../support/browser.js"
import { captureServices, fuzzEveryTool, megabyteEverywhere, Pages, PagesLive, size } from "./hostile.js"
import { call, codeOf, figure, timed } from "./support.js"

const settings = testSettings()

/** A session of its own on the form page, its services captured for the fuzzed calls. */
const openForm = Effect.gen(function* () {
  yield* captureServices
  const { url } = yield* Pages
  expect(codeOf(yield* call(launch, { force: true }))).toBe("ok")
  expect(codeOf(yield* call(navigate, { screen: "url", url: url("/form") }))).toBe("ok")
})

layer(Layer.merge(liveLayer(settings), PagesLive), { timeout: 400_000, excludeTestServices: true })("hostile input", (it) => {
  it.effect("with a session: a megabyte in every string field, and a megabyte URL hash from the page", () =>
    Effect.gen(function* () {
      yield* openForm
      yield* megabyteEverywhere("session")

      // From the page: a megabyte URL (hash) is read, observed and recorded in bounded time and bytes.
      const { click } = yield* Effect.promise(() => import("../../src/tools/interaction.js"))
      const { describeScreen } = yield* Effect.promise(() => import("../../src/tools/discovery.js"))
      expect(codeOf(yield* call(click, { testId: "long" }))).toBe("ok")
      for (const [name, tool, args] of [
        ["get_state", getState, {}],
        ["describe_screen", describeScreen, {}],
        ["click", click, { testId: "go" }],
        ["knowledge_search", knowledgeSearch, { query: "Go" }]
      ] as const) {
        const answered = yield* timed(tool, args)
        figure(`${name} with a 1 MB URL hash`, `${answered.ms} ms, ${size(answered.envelope)} bytes`)
        expect(answered.envelope.ok, `${name}: ${JSON.stringify(answered.envelope.error ?? {}).slice(0, 400)}`).toBe(true)
        // A stall detector, not a speed check: a megabyte handled per character, or copied per step, takes far longer.
        expect(answered.ms, name).toBeLessThan(10_000)
        expect(size(answered.envelope), name).toBeLessThan(20_000)
      }
      expect(codeOf(yield* call(cleanup))).toBe("ok")
    }), 240_000)

  it.effect("with a session: every tool fuzzed from its schema", () =>
    Effect.gen(function* () {
      yield* openForm
      // Valid calls act on the page: keep the session (no launch, cleanup, closing by mm_sessions, or tool hiding) and let each tool have its share of time.
      yield* fuzzEveryTool("session", new Set(["launch", "cleanup", "sessions", "hide_tools", "show_tools", "run_steps", "close_tab", "tabs"]), 2_500)
      expect(codeOf(yield* call(getState))).toBe("ok")
      expect(codeOf(yield* call(cleanup))).toBe("ok")
    }), 240_000)
})
