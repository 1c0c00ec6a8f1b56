// A launch that fails keeps its cause and a hint: headed without a display says so and names
// xvfb-run and --headless; a missing or broken executable says what to install or fix; and nothing
// of the failed launch is left behind.
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { lacksDisplay, launchFailureDetail } from "../../src/adapters/playwright/lifecycle/launch.js"
import type { Envelope } from "../../src/domain/envelope.js"
import { runTool } from "../../src/runtime/runTool.js"
import { launch } from "../../src/tools/session.js"
import { liveLayer, testSettings } from "../support/browser.js"
import { profileDirs } from "../support/processes.js"

const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), "bwm-launch-failures-"))
process.env.TMPDIR = tmpRoot
// This file's process has no display, whatever the machine running it has.
delete process.env.DISPLAY
delete process.env.WAYLAND_DISPLAY

const launchEnvelope = Effect.map(runTool(launch)({}), (response) => response.envelope as Envelope<any>)

// What Playwright 1.65 says when Chromium is started headed without an X server (shortened call log).
const noXServer = `browserType.launchPersistentContext: Target page, context or browser has been closed
Browser logs:

\u2554\u2550\u2550\u2550\u2550\u2557
\u2551 Looks like you launched a headed browser without having a XServer running.                     \u2551
\u2551 Set either 'headless: true' or use 'xvfb-run <your-playwright-app>' before running Playwright. \u2551
\u2551                                                                                                \u2551
\u2551 <3 Playwright Team                                                                             \u2551
\u255a\u2550\u2550\u2550\u2550\u255d
Call log:
\u001b[2m  - <launching> /usr/lib/chromium/chromium --no-sandbox about:blank\u001b[22m
\u001b[2m  - [pid=10761][err] [10761:10775:1123/122335.802628:ERROR:dbus/bus.cc:405] Failed to connect to the bus: Failed to connect to socket\u001b[22m
\u001b[2m  - [pid=10761][err] [10761:10761:1123/122335.805408:ERROR:ui/ozone/platform/x11/ozone_platform_x11.cc:257] Missing X server or $DISPLAY\u001b[22m
\u001b[2m  - [pid=10761][err] [10761:10761:1123/122335.805452:ERROR:ui/aura/env.cc:246] The platform failed to initialize.  Exiting.\u001b[22m
\u001b[2m  - [pid=10761] <process did exit: exitCode=1, signal=null>\u001b[22m`

describe("launch failure details", () => {
  it("keep Playwright's first line, its hint box and the browser's own errors, without decoration", () => {
    const detail = launchFailureDetail(new Error(noXServer), { headless: true })
    expect(detail).toBe(
      "Target page, context or browser has been closed | Looks like you launched a headed browser without having a XServer running. Set either 'headless: true' or use 'xvfb-run <your-playwright-app>' before running Playwright. | Missing X server or $DISPLAY; The platform failed to initialize.  Exiting. | the browser process exited with code 1"
    )
  })

  it("headed without a display leads with our own hint", () => {
    expect(lacksDisplay({}, "linux")).toBe(true)
    expect(lacksDisplay({ DISPLAY: ":99" }, "linux")).toBe(false)
    expect(lacksDisplay({}, "darwin")).toBe(false)
    const detail = launchFailureDetail(new Error(noXServer), { headless: false })
    expect(detail).toMatch(/^No display: .*--headless.*xvfb-run -a/)
    expect(detail).toContain("Missing X server")
  })

  it("are bounded, however long Playwright's message is", () => {
    const detail = launchFailureDetail(new Error(`${"x".repeat(5_000)}\n${"y".repeat(5_000)}`), { headless: true })
    expect(detail.length).toBeLessThanOrEqual(703)
  })
})

describe("launching headed without a display", () => {
  layer(liveLayer(testSettings({ headless: false })), { excludeTestServices: true, timeout: 60_000 })("headed", (it) => {
    it.effect("fails with MM_LAUNCH_FAILED naming the missing display, xvfb-run and --headless, and leaves no profile", () =>
      Effect.gen(function* () {
        const envelope = yield* launchEnvelope
        expect(envelope.error?.code).toBe("MM_LAUNCH_FAILED")
        expect(envelope.error?.details).toEqual({ reason: "BrowserStartFailed" })
        expect(envelope.error?.message).toContain("No display")
        expect(envelope.error?.message).toContain("xvfb-run")
        expect(envelope.error?.message).toContain("--headless")
        expect(envelope.error?.message).toContain("Missing X server")
        expect(profileDirs(tmpRoot)).toEqual([])
      }))
  })
})

describe("launching an executable that is no browser", () => {
  layer(liveLayer(testSettings({ executablePath: "/bin/false" })), { excludeTestServices: true, timeout: 60_000 })("broken", (it) => {
    it.effect("fails with MM_LAUNCH_FAILED naming the executable and what the launch said", () =>
      Effect.gen(function* () {
        const envelope = yield* launchEnvelope
        expect(envelope.error?.code).toBe("MM_LAUNCH_FAILED")
        expect(envelope.error?.message).toContain("/bin/false did not start")
        expect(envelope.error?.message).toContain("the browser process exited with code 1")
        expect(envelope.error?.message.length).toBeLessThan(1_000)
        expect(profileDirs(tmpRoot)).toEqual([])
      }))
  })
})

describe("launching without any browser", () => {
  layer(liveLayer(testSettings({ executablePath: "/nonexistent/chrome" })), { excludeTestServices: true })("missing", (it) => {
    it.effect("a configured executable that does not exist says how to fix it", () =>
      Effect.gen(function* () {
        const envelope = yield* launchEnvelope
        expect(envelope.error?.code).toBe("MM_LAUNCH_FAILED")
        expect(envelope.error?.details).toEqual({ reason: "ExecutableNotFound" })
        expect(envelope.error?.message).toContain("/nonexistent/chrome does not exist")
        expect(envelope.error?.message).toContain("--executable-path")
      }))
  })
})
