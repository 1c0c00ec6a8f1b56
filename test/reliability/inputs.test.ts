// Hostile input (issue 10) without a session: every tool fuzzed from its own schema, and a megabyte in
// every string field of every tool. Each answer is a short envelope within the deadline, and the server
// keeps answering others meanwhile. With a session: inputs-fuzz.test.ts (its own file, so the isolated
// group runs the two at once).
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { cleanup } from "../../src/tools/session.js"
import { liveLayer, testSettings } from "../support/browser.js"
import { captureServices, fuzzEveryTool, megabyteEverywhere } from "./hostile.js"
import { call, codeOf } from "./support.js"

const settings = testSettings()

layer(liveLayer(settings), { timeout: 400_000, excludeTestServices: true })("hostile input", (it) => {
  it.effect("without a session: every tool fuzzed from its schema; a megabyte in every string field", () =>
    Effect.gen(function* () {
      yield* captureServices
      // Launching is what this part leaves out (a launch is a session).
      yield* fuzzEveryTool("no session", new Set(["launch"]), 1_500)
      expect(codeOf(yield* call(cleanup))).toBe("ok")
      yield* megabyteEverywhere("no session")
    }), 120_000)
})
