// Remote browsers: a running Chromium reached over CDP and a Playwright browser server, both on
// 127.0.0.1, drive a flow; cleanup closes only what this server opened there; a remote browser that
// goes away ends the session like a local one that dies.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { chromium } from "playwright"
import { loginPageWith } from "../../demo/sample-app.js"
import { getState } from "../../src/tools/discovery.js"
import { click, type, waitFor } from "../../src/tools/interaction.js"
import { navigate } from "../../src/tools/navigation.js"
import { cleanup, launch } from "../../src/tools/session.js"
import { pageServer, tempDir, testSettings } from "../support/browser.js"
import { call, cdpBrowser, envPage, isAlive, memoryPages, textOf, withLive, wsServer } from "./helpers.js"

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

/**
 * The codes of get_state until the session is seen closed (at most 5 s). The process of a remote
 * browser can be gone a moment before its socket says so; a call in that moment may find its tab
 * closed first. Nothing else may be answered.
 */
const codesUntilClosed = Effect.gen(function* () {
  const codes: Array<string> = []
  const deadline = Date.now() + 5_000
  while (codes.at(-1) !== "MM_BROWSER_CLOSED" && Date.now() < deadline) {
    codes.push((yield* call(getState, {})).error?.code ?? "ok")
    if (codes.at(-1) !== "MM_BROWSER_CLOSED") yield* Effect.sleep("20 millis")
  }
  expect(codes.filter((code) => code !== "MM_PAGE_CLOSED" && code !== "MM_BROWSER_CLOSED")).toEqual([])
  return codes
})

describe("remote browsers", () => {
  it.live("over CDP: a flow runs in a context of our own (with its emulation and storage state), and cleanup leaves the browser running with its own context only", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const app = yield* pageServer({ "/": loginPageWith(3, 0), "/env": envPage, ...memoryPages })
        const remote = yield* cdpBrowser()
        // The context of our own takes the emulation options and a storage state.
        const state = path.join(tempDir(), "state.json")
        fs.writeFileSync(state, JSON.stringify({ cookies: [], origins: [{ origin: app.url, localStorage: [{ name: "theme", value: "remote" }] }] }))
        const settings = testSettings({ cdpEndpoints: [remote.endpoint], device: "Pixel 7", storageState: state })
        yield* withLive(
          settings,
          Effect.gen(function* () {
            expect((yield* call(launch, {})).ok).toBe(true)
            yield* signIn(`${app.url}/`)
            expect((yield* call(navigate, { screen: "url", url: `${app.url}/env` })).ok).toBe(true)
            expect(JSON.parse(yield* textOf("env"))).toMatchObject({ width: 412, touchEvents: true })
            expect((yield* call(navigate, { screen: "url", url: `${app.url}/recall` })).ok).toBe(true)
            expect(yield* textOf("theme")).toBe("theme=remote")
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
          testSettings({ cdpEndpoints: [remote.endpoint] }),
          Effect.gen(function* () {
            expect((yield* call(launch, {})).ok).toBe(true)
            yield* Effect.promise(() => remote.kill())
            expect(yield* codesUntilClosed).toContain("MM_BROWSER_CLOSED")
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
        const settings = testSettings({ wsEndpoints: [first.wsEndpoint()] })
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
            expect(yield* codesUntilClosed).toContain("MM_BROWSER_CLOSED")
            yield* wsServer({ port: Number(endpoint.port), wsPath: endpoint.pathname })
            expect((yield* call(launch, {})).ok).toBe(true)
            expect((yield* call(navigate, { screen: "url", url: `${app.url}/` })).ok).toBe(true)
          })
        )
      })
    ))

  it.live("an endpoint's token never shows in the error, and an extension cannot be loaded into a remote browser", () =>
    withLive(
      testSettings({ wsEndpoints: ["ws://127.0.0.1:1/playwright?token=hunter2"] }),
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
