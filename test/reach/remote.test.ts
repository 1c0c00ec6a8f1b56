// Remote browsers: a running Chromium reached over CDP and a Playwright browser server, both on
// 127.0.0.1, drive a flow; cleanup closes only what this server opened there; a remote browser that
// goes away ends the session like a local one that dies.
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { chromium } from "playwright"
import { loginPageWith } from "../../demo/sample-app.js"
import { getState } from "../../src/tools/discovery.js"
import { click, type, waitFor } from "../../src/tools/interaction.js"
import { navigate } from "../../src/tools/navigation.js"
import { cleanup, launch } from "../../src/tools/session.js"
import { pageServer, testSettings } from "../support/browser.js"
import { call, cdpBrowser, isAlive, withLive, wsServer } from "./helpers.js"

const fixtures = path.resolve(import.meta.dirname, "../fixtures")

/** Sign in on the sample page: navigate, type, type, click, wait for the greeting. */
const signIn = (url: string) =>
  Effect.gen(function* () {
    for (const [tool, args] of [
      [navigate, { screen: "url", url }],
      [type, { testId: "username", text: "alice" }],
      [type, { testId: "password", text: "correct horse" }],
      [click, { testId: "login-submit" }],
      [waitFor, { selector: "text=Welcome, alice" }]
    ] as const) {
      const envelope = yield* call(tool, args)
      expect(envelope.error, `${tool.name}`).toBeUndefined()
    }
  })

describe("remote browsers", () => {
  it.live("over CDP: a flow runs in a context of our own, and cleanup leaves the browser running with its own context only", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const app = yield* pageServer({ "/": loginPageWith(3, 0) })
        const remote = yield* cdpBrowser()
        const settings = testSettings({ cdpEndpoint: remote.endpoint })
        yield* withLive(
          settings,
          Effect.gen(function* () {
            expect((yield* call(launch, {})).ok).toBe(true)
            yield* signIn(`${app.url}/`)
            expect((yield* call(cleanup, {})).result).toEqual({ cleanedUp: true })
          })
        )
        expect(isAlive(remote.pid)).toBe(true)
        // A new connection works, and finds no page of ours left: only the browser's own context and tab.
        const browser = yield* Effect.promise(() => chromium.connectOverCDP(remote.endpoint))
        const contexts = browser.contexts().length
        const urls = browser.contexts().flatMap((context) => context.pages().map((page) => page.url()))
        yield* Effect.promise(() => browser.close())
        expect(contexts).toBe(1)
        expect(urls).not.toContain(`${app.url}/`)
        expect(isAlive(remote.pid)).toBe(true)
      })
    ))

  it.live("over CDP: a browser that goes away ends the session with MM_BROWSER_CLOSED; a launch then says it cannot connect", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const remote = yield* cdpBrowser()
        yield* withLive(
          testSettings({ cdpEndpoint: remote.endpoint }),
          Effect.gen(function* () {
            expect((yield* call(launch, {})).ok).toBe(true)
            yield* Effect.promise(() => remote.kill())
            const gone = yield* call(getState, {})
            expect(gone.error?.code).toBe("MM_BROWSER_CLOSED")
            const again = yield* call(launch, {})
            expect(again.error?.code).toBe("MM_LAUNCH_FAILED")
            expect(again.error?.details).toEqual({ reason: "ConnectFailed" })
            expect(again.error?.message).toContain("--cdp-endpoint")
          })
        )
      })
    ))

  it.live("a Playwright browser server: a flow runs, cleanup leaves the server's browser up, and after the server restarts a plain launch works", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const app = yield* pageServer({ "/": loginPageWith(3, 0) })
        const first = yield* wsServer()
        const endpoint = new URL(first.wsEndpoint())
        const settings = testSettings({ wsEndpoint: first.wsEndpoint() })
        yield* withLive(
          settings,
          Effect.gen(function* () {
            expect((yield* call(launch, {})).ok).toBe(true)
            yield* signIn(`${app.url}/`)
            expect((yield* call(cleanup, {})).result).toEqual({ cleanedUp: true })
            const pid = first.process().pid!
            expect(isAlive(pid)).toBe(true)
            const browser = yield* Effect.promise(() => chromium.connect(first.wsEndpoint()))
            expect(browser.isConnected()).toBe(true)
            yield* Effect.promise(() => browser.close())

            // The server goes away under a running session, then comes back at the same address.
            expect((yield* call(launch, {})).ok).toBe(true)
            yield* Effect.promise(() => first.close())
            expect((yield* call(getState, {})).error?.code).toBe("MM_BROWSER_CLOSED")
            yield* wsServer({ port: Number(endpoint.port), wsPath: endpoint.pathname })
            expect((yield* call(launch, {})).ok).toBe(true)
            expect((yield* call(navigate, { screen: "url", url: `${app.url}/` })).ok).toBe(true)
          })
        )
      })
    ))

  it.live("an endpoint's token never shows in the error, and an extension cannot be loaded into a remote browser", () =>
    withLive(
      testSettings({ wsEndpoint: "ws://127.0.0.1:1/playwright?token=hunter2" }),
      Effect.gen(function* () {
        const failed = yield* call(launch, {})
        expect(failed.error?.details).toEqual({ reason: "ConnectFailed" })
        expect(failed.error?.message).toContain("ws://127.0.0.1:1 (--ws-endpoint)")
        expect(JSON.stringify(failed)).not.toContain("hunter2")
        const extension = yield* call(launch, { extensionPath: path.join(fixtures, "extension-mv3") })
        expect(extension.error?.code).toBe("MM_INVALID_CONFIG")
        expect(extension.error?.message).toContain("extensionPath")
        expect(extension.error?.message).toContain("needs a browser this server launches")
      })
    ))
})
