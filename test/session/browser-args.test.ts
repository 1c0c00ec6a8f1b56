// The switches of the browsers we launch: a last --disable-features (Chromium keeps only the last one given)
// holding Playwright's own list, ours and --browser-arg's; Playwright's list as the installed Playwright
// passes it; and, in a real launch, no omnibox popup renderer (a WebUI Chromium preloads per window, a
// process of its own per session otherwise).
import * as fs from "node:fs"
import { randomUUID } from "node:crypto"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { describe, it } from "vitest"
import { chromium } from "playwright"
import { EXECUTABLE_CANDIDATES, OUR_DISABLED_FEATURES, PLAYWRIGHT_DISABLED_FEATURES, withDisabledFeatures } from "../../src/adapters/playwright/lifecycle/launch.js"
import { runTool } from "../../src/runtime/runTool.js"
import { launch } from "../../src/tools/session.js"
import { liveLayer, LOOPBACK_ARGS, testSettings } from "../support/browser.js"
import { browserMainPids, processesBelow } from "../support/processes.js"

const hasProc = fs.existsSync("/proc/self/cmdline")

/** A process's arguments, from /proc. */
const argvOf = (pid: number) => fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter((arg) => arg !== "")

const featuresIn = (argv: ReadonlyArray<string>) =>
  argv.filter((arg) => arg.startsWith("--disable-features=")).map((arg) => arg.slice("--disable-features=".length).split(","))

describe("--disable-features, merged", () => {
  it("Playwright's list, ours and the given ones in one switch; the other arguments as they were", () => {
    const args = withDisabledFeatures(["--a", "--disable-features=Foo,Bar", "--b", "--disable-features=Baz,Foo"])
    expect(args.slice(0, 2)).toEqual(["--a", "--b"])
    expect(featuresIn(args)).toEqual([[...PLAYWRIGHT_DISABLED_FEATURES, ...OUR_DISABLED_FEATURES, "Foo", "Bar", "Baz"]])
  })

  it.skipIf(!hasProc)("PLAYWRIGHT_DISABLED_FEATURES is the list the installed Playwright passes (update it with Playwright)", async () => {
    const server = await chromium.launchServer({ executablePath: EXECUTABLE_CANDIDATES.find((candidate) => fs.existsSync(candidate))!, headless: true, args: [...LOOPBACK_ARGS] })
    try {
      expect(featuresIn(argvOf(server.process().pid!))).toEqual([[...PLAYWRIGHT_DISABLED_FEATURES]])
    } finally {
      await server.close()
    }
  })
})

const marker = randomUUID()

layer(liveLayer(testSettings({ browserArgs: [`--bwm-test-marker=${marker}`, "--disable-features=Foo"] })), { timeout: 120_000, excludeTestServices: true })(
  "a launched browser",
  (it) => {
    it.effect.skipIf(!hasProc)("its last --disable-features holds every list, and it runs no omnibox popup renderer", () =>
      Effect.gen(function* () {
        const launched = yield* runTool(launch)({})
        expect(launched.envelope.ok).toBe(true)
        const [main] = browserMainPids(marker)
        // Playwright's own switch comes first; Chromium keeps the last one, ours, which holds every list.
        const features = featuresIn(argvOf(main!))
        expect(features.at(-1)).toEqual(expect.arrayContaining([...PLAYWRIGHT_DISABLED_FEATURES, ...OUR_DISABLED_FEATURES, "Foo"]))
        const children = processesBelow(main!).map((pid) => argvOf(pid).join(" "))
        expect(children.some((args) => args.includes("--type=renderer"))).toBe(true)
        expect(children.filter((args) => args.includes("--top-chrome-webui"))).toEqual([])
      })
    )
  }
)
