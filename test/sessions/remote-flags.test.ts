// A remote browser runs with the switches it was started with, not ours: docs/configuration.md ("Remote
// browsers") says how to start one with the features our launches turn off. Started that way (a Playwright
// browser server with withDisabledFeatures, a Chromium for CDP with our --disable-features), a session there
// runs no omnibox popup renderer, even when the feature is on (Chromium turns it on by field trial in some
// builds; here --enable-features stands in for the trial). The control: a local Chromium with the feature on
// and a page runs one, so the count below can see one; a remote is watched three times as long as that took.
import * as fs from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { chromium } from "playwright"
import { OUR_DISABLED_FEATURES, withDisabledFeatures } from "../../src/index.js"
import { launch } from "../../src/tools/session.js"
import { LOOPBACK_ARGS, testSettings } from "../support/browser.js"
import { browserMainPids, processesBelow } from "../support/processes.js"
import { call, cdpBrowser, executablePath, withLive } from "../reach/helpers.js"

const hasProc = fs.existsSync("/proc/self/cmdline")

/** The arguments of every process below `root` (its renderers and helpers), from /proc. */
const childArgs = (root: number): Array<string> =>
  processesBelow(root).flatMap((pid) => {
    try {
      return [fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ")]
    } catch {
      return []
    }
  })

/** How many omnibox popup renderers (top-chrome WebUI) run below `root`. */
const popups = (root: number) => childArgs(root).filter((args) => args.includes("--type=renderer") && args.includes("--top-chrome-webui")).length

/** The popup count below `root` once it shows at least `atLeast`, else after `ms` (polled: Chromium preloads it a moment after the window opens). */
const popupsReaching = (root: number, atLeast: number, ms: number) =>
  Effect.gen(function* () {
    const deadline = Date.now() + ms
    let count = popups(root)
    while (count < atLeast && Date.now() < deadline) {
      yield* Effect.sleep("100 millis")
      count = popups(root)
    }
    return count
  })

/** A Playwright browser server on 127.0.0.1 with these switches; closed with the scope. */
const browserServer = (args: ReadonlyArray<string>) =>
  Effect.acquireRelease(
    Effect.promise(() => chromium.launchServer({ executablePath: executablePath(), headless: true, args: [...args], host: "127.0.0.1", port: 0 })),
    (server) => Effect.promise(() => server.close().catch(() => undefined))
  )

/** The switch that turns the popup on, as a field trial would. */
const POPUP_ON = `--enable-features=${OUR_DISABLED_FEATURES.join(",")}`

/**
 * The control: a local Chromium with the popup on (and our loopback switches) runs a popup renderer.
 * Answers how long it took to show, so a remote browser is watched long enough to have shown one.
 */
const plainPopupMs = Effect.scoped(
  Effect.gen(function* () {
    const marker = `--remote-flags-control=${process.pid}-${Date.now()}`
    const browser = yield* Effect.acquireRelease(
      Effect.promise(() => chromium.launch({ executablePath: executablePath(), headless: true, args: [...LOOPBACK_ARGS, POPUP_ON, marker] })),
      (browser) => Effect.promise(() => browser.close().catch(() => undefined))
    )
    yield* Effect.promise(() => browser.newPage())
    const started = Date.now()
    const [pid] = browserMainPids(marker)
    expect(pid).toBeTypeOf("number")
    expect(yield* popupsReaching(pid!, 1, 20_000)).toBeGreaterThanOrEqual(1)
    return Date.now() - started
  })
)

/** How long to watch a remote for a popup that must not come: three times the control's, at least 3 s. */
const watchMs = (controlMs: number) => Math.max(3_000, 3 * controlMs)

describe.skipIf(!hasProc)("a remote browser started as docs/configuration.md says", () => {
  it.live("a Playwright browser server with withDisabledFeatures: the session's window has no popup renderer", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const watch = watchMs(yield* plainPopupMs)
        const server = yield* browserServer(withDisabledFeatures([...LOOPBACK_ARGS, POPUP_ON]))
        const pid = server.process().pid!
        expect(popups(pid)).toBe(0)
        yield* withLive(
          testSettings({ wsEndpoints: [server.wsEndpoint()] }),
          Effect.gen(function* () {
            expect((yield* call(launch, {})).ok).toBe(true)
            expect(yield* popupsReaching(pid, 1, watch)).toBe(0)
          })
        )
      })
    )
  )

  it.live("a Chromium for --cdp-endpoint with our --disable-features: no popup renderer, before the session or with it", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const watch = watchMs(yield* plainPopupMs)
        const remote = yield* cdpBrowser([POPUP_ON, `--disable-features=${OUR_DISABLED_FEATURES.join(",")}`])
        yield* withLive(
          testSettings({ cdpEndpoints: [remote.endpoint] }),
          Effect.gen(function* () {
            expect((yield* call(launch, {})).ok).toBe(true)
            expect(yield* popupsReaching(remote.pid, 1, watch)).toBe(0)
          })
        )
      })
    )
  )
})
