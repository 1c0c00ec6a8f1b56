// --save-video on a machine without ffmpeg (issue 21): the launch fails saying what to install instead of
// recording without video. This machine has ffmpeg, so the search finds none here by the test's say-so;
// everything else (the launch, the error, the answer) is the server's own.
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { vi } from "vitest"
import { liveLayer, testSettings } from "../support/browser.js"
import { call, ok } from "../support/calls.js"

vi.mock("../../src/adapters/playwright/lifecycle/recording-video.js", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../src/adapters/playwright/lifecycle/recording-video.js")>()),
  findFfmpeg: () => undefined
}))

const settings = testSettings({ saveVideo: true })

layer(liveLayer(settings), { timeout: 120_000, excludeTestServices: true })("--save-video without ffmpeg, in real Chromium", (it) => {
  describe("the launch", () => {
    it.effect("fails with MM_LAUNCH_FAILED naming what to install for each system, and a launch without video still works", () =>
      Effect.gen(function* () {
        const launched = yield* call("mm_launch", {})
        expect(launched.error?.code).toBe("MM_LAUNCH_FAILED")
        expect(launched.error?.message).toContain("--save-video needs ffmpeg")
        expect(launched.error?.message).toContain("apt-get install -y ffmpeg")
        expect(launched.error?.message).toContain("brew install ffmpeg")
        expect(launched.error?.message).toContain("npx playwright install ffmpeg")
        expect(launched.error?.message).toContain("start without --save-video")
        // No session was left half-started: the next call still has none.
        expect((yield* call("mm_get_state", {})).error?.code).toBe("MM_NO_ACTIVE_SESSION")
      }))
  })
})

layer(liveLayer(testSettings()), { timeout: 120_000, excludeTestServices: true })("without --save-video, in real Chromium", (it) => {
  it.effect("the same search finding nothing does not stop a launch", () =>
    Effect.gen(function* () {
      yield* ok("mm_launch", {})
      yield* ok("mm_cleanup", {})
    }))
})
