// Flags, environment variables and the config file become one Settings value, with clear errors.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { CliError, parseCli } from "../src/cli.js"
import { tempDir } from "./support/browser.js"

describe("parseCli", () => {
  it("defaults to headless, mm prefix and ./test-artifacts", () => {
    const { settings } = parseCli([], {})
    expect(settings.headless).toBe(true)
    expect(settings.toolPrefix).toBe("mm")
    expect(settings.artifactsDir).toBe(path.resolve("./test-artifacts"))
    expect(settings.browserArgs).toEqual([])
  })

  it("accepts --browser-arg values that start with --, in both spellings, repeatedly", () => {
    const { settings } = parseCli(["--browser-arg=--lang=de", "--browser-arg", "--mute-audio", "--headed"], {})
    expect(settings.browserArgs).toEqual(["--lang=de", "--mute-audio"])
    expect(settings.headless).toBe(false)
  })

  it("flags win over the environment, which wins over the config file", () => {
    const dir = tempDir()
    const file = path.join(dir, "config.json")
    fs.writeFileSync(
      file,
      JSON.stringify({
        toolPrefix: "file",
        appUrl: "http://127.0.0.1:1/",
        extension: "ext",
        screens: { settings: "/settings" },
        screenRules: [{ screen: "home", testId: "home-page" }],
        fixtures: { default: { origins: [] } }
      })
    )
    const { settings } = parseCli(["--config", file, "--tool-prefix", "flag"], { BWM_APP_URL: "http://127.0.0.1:2/", BWM_TOOL_PREFIX: "env" })
    expect(settings.toolPrefix).toBe("flag")
    expect(settings.appUrl).toBe("http://127.0.0.1:2/")
    // Paths in the file are relative to the file.
    expect(settings.extension).toBe(path.join(dir, "ext"))
    expect(settings.screens.settings).toBe("/settings")
    expect(settings.screenRules).toEqual([{ screen: "home", testId: "home-page" }])
    expect(settings.configDir).toBe(dir)
  })

  it("reads BWM_BROWSER_ARGS as a JSON array and BWM_HEADLESS as a boolean", () => {
    const { settings } = parseCli([], { BWM_BROWSER_ARGS: '["--a","--b"]', BWM_HEADLESS: "false" })
    expect(settings.browserArgs).toEqual(["--a", "--b"])
    expect(settings.headless).toBe(false)
  })

  it("--static-tools and --caps come from flags, the environment or the config file; a bad group name is refused", () => {
    expect(parseCli([], {}).settings).toMatchObject({ staticTools: false, caps: [] })
    expect(parseCli(["--static-tools", "--caps", "devtools, debugger"], {}).settings).toMatchObject({
      staticTools: true,
      caps: ["devtools", "debugger"]
    })
    expect(parseCli([], { BWM_STATIC_TOOLS: "true", BWM_CAPS: "all" }).settings).toMatchObject({ staticTools: true, caps: ["all"] })
    const file = path.join(tempDir(), "config.json")
    fs.writeFileSync(file, JSON.stringify({ staticTools: true, caps: ["pdf"] }))
    expect(parseCli(["--config", file], {}).settings).toMatchObject({ staticTools: true, caps: ["pdf"] })
    expect(parseCli(["--config", file, "--caps=evaluate"], { BWM_STATIC_TOOLS: "false" }).settings).toMatchObject({
      staticTools: false,
      caps: ["evaluate"]
    })
    expect(() => parseCli(["--caps", "Debugger!"], {})).toThrow(CliError)
  })

  it("--loopback-only adds the loopback guards", () => {
    const { settings } = parseCli(["--loopback-only"], {})
    expect(settings.browserArgs.some((arg) => arg.startsWith("--host-resolver-rules="))).toBe(true)
  })

  it("rejects unknown options, missing values, bad prefixes, bad URLs and invalid config files with a clear message", () => {
    expect(() => parseCli(["--nope"], {})).toThrow(CliError)
    expect(() => parseCli(["--app-url"], {})).toThrow("--app-url needs a value")
    expect(() => parseCli(["--tool-prefix", "a b"], {})).toThrow("--tool-prefix")
    expect(() => parseCli(["--app-url", "not a url"], {})).toThrow("absolute URL")
    const file = path.join(tempDir(), "bad.json")
    fs.writeFileSync(file, JSON.stringify({ screens: { home: 3 } }))
    expect(() => parseCli(["--config", file], {})).toThrow(/config file .* is invalid/)
    fs.writeFileSync(file, "{ not json")
    expect(() => parseCli(["--config", file], {})).toThrow("not valid JSON")
  })
})
