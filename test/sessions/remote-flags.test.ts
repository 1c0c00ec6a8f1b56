// A remote browser runs with the switches it was started with, not ours: docs/configuration.md ("Remote
// browsers") says how to start one with the features our launches turn off. Started that way (a Playwright
// browser server with withDisabledFeatures, a Chromium for CDP with our --disable-features), a session there
// runs no omnibox popup renderer (a WebUI Chromium preloads per window, a process of its own per session);
// started without, the browser server runs one for the session's window, which is what the switch saves.
import * as fs from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { chromium } from "playwright"
import { OUR_DISABLED_FEATURES, withDisabledFeatures } from "../../src/index.js"
import { launch } from "../../src/tools/session.js"
import { LOOPBACK_ARGS, testSettings } from "../support/browser.js"
import { processesBelow } from "../support/processes.js"
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

/** The popup count below `root` once it shows at least `atLeast` (polled: Chromium preloads it a moment after the window opens), else after 20 s. */
const popupsReaching = (root: number, atLeast: number) =>
  Effect.gen(function* () {
    const deadline = Date.now() + 20_000
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

describe.skipIf(!hasProc)("a remote browser started as docs/configuration.md says", () => {
  it.live("a Playwright browser server with withDisabledFeatures: the session's window has no popup renderer; without it, it has one", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const documented = yield* browserServer(withDisabledFeatures([...LOOPBACK_ARGS]))
        const plain = yield* browserServer(LOOPBACK_ARGS)
        for (const [server, expected] of [
          [documented, 0],
          [plain, 1]
        ] as const) {
          const pid = server.process().pid!
          expect(popups(pid)).toBe(0)
          yield* withLive(
            testSettings({ wsEndpoints: [server.wsEndpoint()] }),
            Effect.gen(function* () {
              expect((yield* call(launch, {})).ok).toBe(true)
              // The switch does not stop the popup from coming later: wait for the plain server's one as long for both.
              const count = yield* popupsReaching(pid, 1)
              expect(Math.min(count, 1)).toBe(expected)
            })
          )
        }
      })
    )
  )

  it.live("a Chromium for --cdp-endpoint with our --disable-features: no popup renderer, before the session or with it", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const remote = yield* cdpBrowser([`--disable-features=${OUR_DISABLED_FEATURES.join(",")}`])
        yield* withLive(
          testSettings({ cdpEndpoints: [remote.endpoint] }),
          Effect.gen(function* () {
            expect((yield* call(launch, {})).ok).toBe(true)
            expect(yield* popupsReaching(remote.pid, 1)).toBe(0)
          })
        )
      })
    )
  )
})
