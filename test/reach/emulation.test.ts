// Emulation seen by the page: a device of Playwright's list (viewport, user agent, touch, scale,
// mobile), an explicit viewport over the device's, locale and time zone, permissions, and a proxy.
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { LOOPBACK_ARGS } from "../../src/adapters/playwright/lifecycle/launch.js"
import { navigate } from "../../src/tools/navigation.js"
import { launch } from "../../src/tools/session.js"
import { html, pageServer, testSettings } from "../support/browser.js"
import { call, envPage, textOf, withLive } from "./helpers.js"

interface Env {
  readonly width: number
  readonly height: number
  readonly userAgent: string
  readonly maxTouchPoints: number
  readonly touchEvents: boolean
  readonly devicePixelRatio: number
  readonly coarsePointer: boolean
  readonly language: string
  readonly timeZone: string
  readonly dateText: string
}

/** Launches, opens the page, and reads what it saw. */
const envAt = (url: string) =>
  Effect.gen(function* () {
    const launched = yield* call(launch, {})
    expect(launched.error).toBeUndefined()
    expect((yield* call(navigate, { screen: "url", url })).error).toBeUndefined()
    return JSON.parse(yield* textOf("env")) as Env
  })

describe("emulation", () => {
  it.live("--device Pixel 7 shows the page its viewport, user agent, touch and scale; without it, desktop 1280x800", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const app = yield* pageServer({ "/env": envPage })
        const pixel = yield* withLive(testSettings({ device: "Pixel 7" }), envAt(`${app.url}/env`))
        expect(pixel).toMatchObject({ width: 412, height: 839, maxTouchPoints: 1, touchEvents: true, devicePixelRatio: 2.625, coarsePointer: true })
        expect(pixel.userAgent).toContain("Pixel 7")
        expect(pixel.userAgent).toContain("Mobile")

        const desktop = yield* withLive(testSettings(), envAt(`${app.url}/env`))
        expect(desktop).toMatchObject({ width: 1280, height: 800, maxTouchPoints: 0, touchEvents: false, devicePixelRatio: 1, coarsePointer: false })
        expect(desktop.userAgent).not.toContain("Pixel")
      })
    ))

  it.live("an explicit viewport and user agent win over the device's; the device's touch and scale stay", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const app = yield* pageServer({ "/env": envPage })
        const env = yield* withLive(
          testSettings({ device: "iphone 15", viewportSize: { width: 600, height: 500 }, userAgent: "bwm-test-agent/1.0" }),
          envAt(`${app.url}/env`)
        )
        expect(env).toMatchObject({ width: 600, height: 500, userAgent: "bwm-test-agent/1.0", touchEvents: true, devicePixelRatio: 3 })
      })
    ))

  it.live("--locale and --timezone reach navigator.language and Intl", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const app = yield* pageServer({ "/env": envPage })
        const env = yield* withLive(testSettings({ locale: "de-DE", timezone: "Asia/Tokyo" }), envAt(`${app.url}/env`))
        expect(env.language).toBe("de-DE")
        expect(env.timeZone).toBe("Asia/Tokyo")
        // 12:00 UTC is 21:00 in Tokyo, written the German way.
        expect(env.dateText).toBe("15.1.2024, 21:00:00 GMT+9")
      })
    ))

  it.live("an unknown device or permission fails the launch naming the option and the closest names", () =>
    Effect.gen(function* () {
      const device = yield* withLive(testSettings({ device: "Pixel 77" }), call(launch, {}))
      expect(device.error?.code).toBe("MM_INVALID_CONFIG")
      expect(device.error?.message).toMatch(/^Invalid configuration in --device: "Pixel 77" is not in Playwright's device list; closest: .*"Pixel 7"/)
      const permission = yield* withLive(testSettings({ grantPermissions: ["geolocation", "mind-reading"] }), call(launch, {}))
      expect(permission.error?.code).toBe("MM_INVALID_CONFIG")
      expect(permission.error?.message).toContain("--grant-permissions")
      expect(permission.error?.message).toContain("mind-reading")
    }))

  it.live("--grant-permissions grants to every page", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const app = yield* pageServer({
          "/permission": html(
            "Permission",
            `<p data-testid="state"></p>
             <script>navigator.permissions.query({ name: 'geolocation' }).then((status) => { document.querySelector('[data-testid=state]').textContent = status.state })</script>`
          )
        })
        yield* withLive(
          testSettings({ grantPermissions: ["geolocation"] }),
          Effect.gen(function* () {
            expect((yield* call(launch, {})).ok).toBe(true)
            expect((yield* call(navigate, { screen: "url", url: `${app.url}/permission` })).ok).toBe(true)
            expect(yield* textOf("state")).toBe("granted")
          })
        )
      })
    ))

  it.live("--proxy-server sends the browser's requests through the proxy (a proxy of this test on 127.0.0.1)", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const seen: Array<string> = []
        // The proxy answers itself: nothing goes further than this process.
        const proxy = yield* Effect.acquireRelease(
          Effect.promise(
            () =>
              new Promise<http.Server>((resolve) => {
                const server = http.createServer((request, response) => {
                  seen.push(request.url ?? "")
                  response.writeHead(200, { "content-type": "text/html" })
                  response.end(html("Proxied", `<p data-testid="via">via proxy: ${request.headers.host}</p>`))
                })
                server.listen(0, "127.0.0.1", () => resolve(server))
              })
          ),
          (server) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
        )
        const port = (proxy.address() as AddressInfo).port
        // The loopback flags minus their own (closed) proxy; names still resolve nowhere.
        const settings = {
          ...testSettings({ proxyServer: `http://127.0.0.1:${port}` }),
          browserArgs: LOOPBACK_ARGS.filter((arg) => !arg.startsWith("--proxy-server"))
        }
        yield* withLive(
          settings,
          Effect.gen(function* () {
            expect((yield* call(launch, {})).ok).toBe(true)
            expect((yield* call(navigate, { screen: "url", url: "http://app.example.test/page" })).error).toBeUndefined()
            expect(yield* textOf("via")).toBe("via proxy: app.example.test")
          })
        )
        expect(seen).toContain("http://app.example.test/page")
      })
    ))
})
