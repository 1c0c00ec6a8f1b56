// The reach options through the one option table: flags, variables and config keys, one-line errors
// naming the flag, options that cannot work together, and how a device and explicit options combine.
import * as fs from "node:fs"
import * as path from "node:path"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { CliError, parseCli } from "../../src/cli.js"
import {
  contextOptionsFor,
  DEFAULT_VIEWPORT,
  findDevice,
  settingsConflict,
  shownEndpoint,
  withoutSecrets,
  type DeviceDescriptor
} from "../../src/adapters/playwright/lifecycle/launch.js"
import { defaultSettings } from "../../src/domain/config.js"
import { tempDir } from "../support/browser.js"

const problem = (argv: ReadonlyArray<string>, env: Record<string, string> = {}) => {
  try {
    parseCli(argv, env)
  } catch (error) {
    expect(error).toBeInstanceOf(CliError)
    const message = (error as Error).message
    expect(message).not.toContain("\n")
    return message
  }
  throw new Error(`parsing ${argv.join(" ")} did not fail`)
}

const pixel: DeviceDescriptor = {
  viewport: { width: 412, height: 839 },
  screen: { width: 412, height: 915 },
  userAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 7) Mobile",
  deviceScaleFactor: 2.625,
  isMobile: true,
  hasTouch: true,
  defaultBrowserType: "chromium"
}

describe("reach options", () => {
  it("reads every reach option from flags, the environment and the config file", () => {
    const dir = tempDir()
    const file = path.join(dir, "config.json")
    fs.writeFileSync(file, JSON.stringify({ viewportSize: "800x600", locale: "fr-FR", userDataDir: "profile", grantPermissions: ["geolocation"] }))
    const { settings } = parseCli(
      ["--config", file, "--device", "Pixel 7", "--timezone", "Europe/Berlin", "--ignore-https-errors", "--proxy-server", "http://proxy.internal:3128", "--proxy-bypass", ".internal"],
      { BWM_USER_AGENT: "agent/1", BWM_LOCALE: "de-DE" }
    )
    expect(settings).toMatchObject({
      device: "Pixel 7",
      viewportSize: { width: 800, height: 600 },
      // The variable wins over the file.
      locale: "de-DE",
      timezone: "Europe/Berlin",
      userAgent: "agent/1",
      grantPermissions: ["geolocation"],
      ignoreHttpsErrors: true,
      proxyServer: "http://proxy.internal:3128",
      proxyBypass: ".internal",
      // Relative to the config file.
      userDataDir: path.join(dir, "profile")
    })
    expect(parseCli(["--cdp-endpoint", "http://127.0.0.1:9222"], {}).settings.cdpEndpoints).toEqual(["http://127.0.0.1:9222"])
    expect(parseCli([], { BWM_WS_ENDPOINT: "ws://127.0.0.1:3000/abc" }).settings.wsEndpoints).toEqual(["ws://127.0.0.1:3000/abc"])
    expect(parseCli(["--storage-state", "state.json"], {}).settings.storageState).toBe(path.resolve("state.json"))
    expect(parseCli(["--viewport-size", "390X844"], {}).settings.viewportSize).toEqual({ width: 390, height: 844 })
  })

  it("bad values are one line naming the flag, variable or key", () => {
    expect(problem(["--viewport-size", "big"])).toBe('--viewport-size must be WIDTHxHEIGHT in pixels, each from 1 to 16384, e.g. 1280x720; got "big"')
    expect(problem(["--viewport-size", "0x600"])).toContain("--viewport-size must be WIDTHxHEIGHT")
    expect(problem([], { BWM_VIEWPORT_SIZE: "1280x99999" })).toContain("BWM_VIEWPORT_SIZE must be WIDTHxHEIGHT")
    expect(problem(["--locale", "not a locale"])).toBe('--locale must be a BCP 47 language tag such as en-US or de-DE; got "not a locale"')
    expect(problem(["--timezone", "Mars/Olympus"])).toBe('--timezone must be an IANA time zone such as Europe/Berlin or UTC; got "Mars/Olympus"')
    expect(problem(["--cdp-endpoint", "127.0.0.1:9222"])).toContain("--cdp-endpoint must be an http(s) or ws(s) URL")
    expect(problem(["--ws-endpoint", "http://127.0.0.1:3000/"])).toContain("--ws-endpoint must be a ws(s) URL")
    expect(problem(["--proxy-server", "not a proxy"])).toContain("--proxy-server must be a proxy such as")
    const dir = tempDir()
    const file = path.join(dir, "config.json")
    fs.writeFileSync(file, JSON.stringify({ viewportSize: { width: 1 } }))
    expect(problem(["--config", file])).toContain(`config file ${file}: key "viewportSize" must be WIDTHxHEIGHT`)
  })

  it("options that cannot work together fail at start, naming one of them", () => {
    expect(problem(["--cdp-endpoint", "http://127.0.0.1:9222", "--extension", "ext"])).toMatch(/^--extension: loading an unpacked extension needs a browser this server launches/)
    expect(problem(["--ws-endpoint", "ws://127.0.0.1:3000/", "--user-data-dir", "p"])).toMatch(/^--user-data-dir: /)
    expect(problem(["--user-data-dir", "p", "--storage-state", "s.json"])).toMatch(/^--storage-state: /)
    expect(problem(["--loopback-only", "--proxy-server", "http://127.0.0.1:3128"])).toMatch(/^--proxy-server: .*--loopback-only/)
    expect(problem(["--proxy-bypass", "localhost"])).toMatch(/^--proxy-bypass: /)
  })

  it("a device is the base and explicit options win; without either, desktop 1280x800", () => {
    const base = { ...defaultSettings }
    expect(contextOptionsFor(base, undefined)).toEqual({ viewport: DEFAULT_VIEWPORT })
    expect(contextOptionsFor(base, pixel)).toEqual({
      viewport: { width: 412, height: 839 },
      screen: { width: 412, height: 915 },
      deviceScaleFactor: 2.625,
      isMobile: true,
      hasTouch: true,
      userAgent: pixel.userAgent
    })
    expect(
      contextOptionsFor(
        { ...base, viewportSize: { width: 800, height: 600 }, userAgent: "mine", locale: "de-DE", timezone: "UTC", ignoreHttpsErrors: true, proxyServer: "socks5://127.0.0.1:1080", proxyBypass: "localhost" },
        pixel
      )
    ).toEqual({
      viewport: { width: 800, height: 600 },
      deviceScaleFactor: 2.625,
      isMobile: true,
      hasTouch: true,
      userAgent: "mine",
      locale: "de-DE",
      timezoneId: "UTC",
      ignoreHTTPSErrors: true,
      proxy: { server: "socks5://127.0.0.1:1080", bypass: "localhost" }
    })
  })

  it("device names match ignoring case and punctuation; an unknown one lists the closest", async () => {
    const devices = { "Pixel 7": pixel, "Pixel 7 landscape": pixel, "iPhone 15": pixel, "Galaxy S9+": pixel }
    expect((await Effect.runPromise(findDevice("pixel-7", devices))).name).toBe("Pixel 7")
    expect((await Effect.runPromise(findDevice("GALAXY S9+", devices))).name).toBe("Galaxy S9+")
    const unknown = await Effect.runPromise(Effect.flip(findDevice("Pixle 7", devices)))
    expect(unknown.message).toBe(
      'Invalid configuration in --device: "Pixle 7" is not in Playwright\'s device list; closest: "Pixel 7".'
    )
    expect((await Effect.runPromise(Effect.flip(findDevice("pixel", devices)))).message).toContain('closest: "Pixel 7", "Pixel 7 landscape".')
    const far = await Effect.runPromise(Effect.flip(findDevice("Nokia 3310", devices)))
    expect(far.message).toContain("it has 4 devices")
  })

  it("endpoints make a pool: the flag repeats, the variable takes several, the file a list; a single value works as before", () => {
    const flags = parseCli(["--ws-endpoint", "ws://127.0.0.1:3001/a", "--ws-endpoint=ws://127.0.0.1:3002/b", "--cdp-endpoint", "http://127.0.0.1:9222"], {}).settings
    expect(flags.wsEndpoints).toEqual(["ws://127.0.0.1:3001/a", "ws://127.0.0.1:3002/b"])
    expect(flags.cdpEndpoints).toEqual(["http://127.0.0.1:9222"])
    expect(parseCli([], { BWM_WS_ENDPOINT: " ws://127.0.0.1:3001/a  ws://127.0.0.1:3002/b " }).settings.wsEndpoints).toEqual(["ws://127.0.0.1:3001/a", "ws://127.0.0.1:3002/b"])
    expect(parseCli([], { BWM_CDP_ENDPOINT: '["http://127.0.0.1:9222","http://127.0.0.1:9223"]' }).settings.cdpEndpoints).toEqual(["http://127.0.0.1:9222", "http://127.0.0.1:9223"])
    // The same endpoint twice is one browser.
    expect(parseCli(["--ws-endpoint", "ws://127.0.0.1:3001/", "--ws-endpoint", "ws://127.0.0.1:3001/"], {}).settings.wsEndpoints).toEqual(["ws://127.0.0.1:3001/"])
    const dir = tempDir()
    const file = path.join(dir, "config.json")
    fs.writeFileSync(file, JSON.stringify({ wsEndpoint: ["ws://127.0.0.1:3001/", "ws://127.0.0.1:3002/"], cdpEndpoint: "http://127.0.0.1:9222" }))
    const fromFile = parseCli(["--config", file], {}).settings
    expect(fromFile.wsEndpoints).toEqual(["ws://127.0.0.1:3001/", "ws://127.0.0.1:3002/"])
    expect(fromFile.cdpEndpoints).toEqual(["http://127.0.0.1:9222"])
    expect(parseCli([], {}).settings.wsEndpoints).toEqual([])
    // Every item is checked, a repeated flag's too.
    expect(problem(["--ws-endpoint", "ws://127.0.0.1:3001/", "--ws-endpoint", "http://127.0.0.1:3002/"])).toContain("--ws-endpoint")
    expect(problem(["--ws-endpoint", "ws://127.0.0.1:3001/", "--ws-endpoint", "http://127.0.0.1:3002/"])).toContain("a ws(s) URL")
  })

  it("endpoint headers come from the variable or the file, for all or per endpoint; an error never shows a value", () => {
    const ws = ["--ws-endpoint", "ws://127.0.0.1:3001/pw?token=t0k", "--ws-endpoint", "ws://127.0.0.1:3002/"]
    expect(parseCli(ws, { BWM_ENDPOINT_HEADERS: '{"Authorization":"Bearer s3cr3t-all"}' }).settings.endpointHeaders).toEqual({
      "*": { Authorization: "Bearer s3cr3t-all" }
    })
    const dir = tempDir()
    const file = path.join(dir, "config.json")
    const perEndpoint = { "ws://127.0.0.1:3001/pw?token=t0k": { "X-Token": "one" }, "127.0.0.1:3002": { "X-Token": "two" }, "*": { "X-Team": "qa" } }
    fs.writeFileSync(file, JSON.stringify({ endpointHeaders: perEndpoint }))
    expect(parseCli([...ws, "--config", file], {}).settings.endpointHeaders).toEqual(perEndpoint)
    // A key for no endpoint would send no token: the server does not start.
    expect(problem(ws, { BWM_ENDPOINT_HEADERS: '{"127.0.0.1:9999":{"X-Token":"s3cr3t-typo"}}' })).toMatch(/^endpointHeaders: "127.0.0.1:9999" names none of the endpoints \(127.0.0.1:3001, 127.0.0.1:3002\)/)
    for (const bad of ['{"Authorization": 42, "x": "s3cr3t-bad"}', "s3cr3t-not-json", '{"Bad Header": "s3cr3t-name"}']) {
      const message = problem(ws, { BWM_ENDPOINT_HEADERS: bad })
      expect(message).toMatch(/^BWM_ENDPOINT_HEADERS must be a JSON object/)
      expect(message).not.toContain("s3cr3t")
    }
    // No flag: never from the command line (nor from a tool call, which reads no settings).
    expect(problem(["--endpoint-headers", "{}"])).toContain("unknown option --endpoint-headers")
  })

  it("an endpoint is shown without its path and query; tokens in a text are masked", () => {
    expect(shownEndpoint("wss://chrome.example.com/playwright?token=abc")).toBe("wss://chrome.example.com")
    expect(withoutSecrets("WebSocket error: wss://chrome.example.com/playwright?token=abc 401", "wss://chrome.example.com/playwright?token=abc")).toBe(
      "WebSocket error: wss://chrome.example.com 401"
    )
    expect(withoutSecrets("GET /json/version?apiKey=xyz&x=1 failed", "http://other")).toBe("GET /json/version?apiKey=***&x=1 failed")
    expect(settingsConflict({ ...defaultSettings })).toBeUndefined()
  })
})
