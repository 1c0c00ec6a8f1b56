// Flags, environment variables and the config file become one Settings value by one option table, with
// one precedence rule, one-line errors, and --help and docs/configuration.md written from the same table.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { CliError, HELP, parseCli } from "../src/cli.js"
import { withOptionsTable } from "../src/cli/help.js"
import { ConfigFile, optionTable } from "../src/cli/option-table.js"
import { LOOPBACK_ARGS } from "../src/adapters/playwright/lifecycle/launch.js"
import { tempDir } from "./support/browser.js"
import { REPLAY_USAGE } from "../src/cli/replay.js"

const root = path.resolve(import.meta.dirname, "..")

const configFile = (content: unknown) => {
  const dir = tempDir()
  const file = path.join(dir, "config.json")
  fs.writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content))
  return { dir, file }
}

/** The one-line message of the CliError that parsing throws. */
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

describe("parseCli", () => {
  it("defaults to headless, mm prefix, ./test-artifacts, stdio and info logs", () => {
    const options = parseCli([], {})
    expect(options.settings.headless).toBe(true)
    expect(options.settings.toolPrefix).toBe("mm")
    expect(options.settings.artifactsDir).toBe(path.resolve("./test-artifacts"))
    expect(options.settings.browserArgs).toEqual([])
    expect(options.settings.staticTools).toBe(false)
    expect(options.settings.caps).toEqual([])
    expect(options.serve).toEqual({ logLevel: "info", observation: undefined, http: undefined })
  })

  it("accepts --browser-arg values that start with --, in both spellings, repeatedly", () => {
    const { settings } = parseCli(["--browser-arg=--lang=de", "--browser-arg", "--mute-audio", "--headed"], {})
    expect(settings.browserArgs).toEqual(["--lang=de", "--mute-audio"])
    expect(settings.headless).toBe(false)
  })

  it("the last of --headless and --headed wins", () => {
    expect(parseCli(["--headed", "--headless"], {}).settings.headless).toBe(true)
    expect(parseCli(["--headless", "--headed"], {}).settings.headless).toBe(false)
  })

  it("flags win over the environment, which wins over the config file, which wins over the defaults", () => {
    const { dir, file } = configFile({
      toolPrefix: "file",
      appUrl: "http://127.0.0.1:1/",
      testIdAttribute: "data-file",
      logLevel: "error",
      extension: "ext",
      browserArgs: ["--from-file"],
      screens: { settings: "/settings" },
      screenRules: [{ screen: "home", testId: "home-page" }],
      fixtures: { default: { origins: [] } },
      staticTools: true,
      caps: ["file-cap"]
    })
    const options = parseCli(["--config", file, "--tool-prefix", "flag", "--caps", "a, b"], {
      BWM_APP_URL: "http://127.0.0.1:2/",
      BWM_TOOL_PREFIX: "env",
      BWM_LOG_LEVEL: "warning",
      BWM_BROWSER_ARGS: '["--from-env"]',
      BWM_CAPS: "env-cap"
    })
    const { settings } = options
    expect(settings.toolPrefix).toBe("flag")
    expect(settings.caps).toEqual(["a", "b"])
    expect(settings.appUrl).toBe("http://127.0.0.1:2/")
    expect(options.logLevel).toBe("warning")
    // A list from a higher source replaces the lower one's.
    expect(settings.browserArgs).toEqual(["--from-env"])
    expect(settings.testIdAttribute).toBe("data-file")
    expect(settings.staticTools).toBe(true)
    // Paths in the file are relative to the file.
    expect(settings.extension).toBe(path.join(dir, "ext"))
    expect(settings.screens.settings).toBe("/settings")
    expect(settings.screenRules).toEqual([{ screen: "home", testId: "home-page" }])
    expect(settings.configDir).toBe(dir)
    // The file itself is known, so no upload hands it to a page (it may hold endpointHeaders).
    expect(settings.configFile).toBe(path.resolve(file))
    expect(parseCli([], {}).settings.configFile).toBeUndefined()
    expect(settings.headless).toBe(true)
  })

  it("BWM_CONFIG names the file, and an empty variable counts as unset", () => {
    const { file } = configFile({ toolPrefix: "file" })
    expect(parseCli([], { BWM_CONFIG: file, BWM_TOOL_PREFIX: "" }).settings.toolPrefix).toBe("file")
  })

  it("reads BWM_BROWSER_ARGS as a JSON array and booleans from the environment", () => {
    const { settings } = parseCli([], { BWM_BROWSER_ARGS: '["--a","--b"]', BWM_HEADLESS: "false", BWM_STATIC_TOOLS: "yes" })
    expect(settings.browserArgs).toEqual(["--a", "--b"])
    expect(settings.headless).toBe(false)
    expect(settings.staticTools).toBe(true)
  })

  it("--loopback-only adds the loopback guards before the extra arguments", () => {
    const { settings } = parseCli(["--loopback-only", "--browser-arg=--x"], {})
    expect(settings.browserArgs).toEqual([...LOOPBACK_ARGS, "--x"])
  })

  it("merges the file's batch limits over the defaults", () => {
    const { file } = configFile({ batch: { maxSteps: 7, toolLimits: { click: { maxSteps: 2 } } } })
    const { settings } = parseCli(["--config", file], {})
    expect(settings.batch).toEqual({ maxSteps: 7, maxAggregateChars: 200_000, defaultTimeoutMs: 45_000, toolLimits: { click: { maxSteps: 2 } } })
  })

  it("HTTP options: --port switches to Streamable HTTP with host 127.0.0.1 and the given token", () => {
    const options = parseCli(["--port", "0", "--auth-token", "s3cret", "--allowed-hosts", "a.test,b.test"], { BWM_IDLE_TIMEOUT: "60" })
    expect(options.serve.http).toEqual({
      port: 0,
      host: "127.0.0.1",
      allowedHosts: ["a.test", "b.test"],
      authToken: "s3cret",
      idleTimeoutMs: 60_000,
      maxClients: 64,
      evictAfterMs: 30_000
    })
  })

  it("--host beyond loopback without --auth-token and --allowed-hosts refuses to start, saying what to add", () => {
    for (const host of ["0.0.0.0", "::", "[::]", "192.168.1.5", "example.test"]) {
      expect(() => parseCli(["--port", "0", "--host", host], {}), host).toThrow(CliError)
      expect(() => parseCli(["--port", "0", "--host", host], {}), host).toThrow(/--auth-token TOKEN .* and --allowed-hosts NAMES/)
      expect(() => parseCli(["--port", "0", "--host", host, "--auth-token", "t0ken"], {}), host).toThrow(/add --allowed-hosts/)
      expect(() => parseCli(["--port", "0", "--host", host, "--allowed-hosts", "box.test"], {}), host).toThrow(/add --auth-token/)
      expect(parseCli(["--port", "0", "--host", host, "--auth-token", "t0ken", "--allowed-hosts", "box.test"], {}).serve.http?.host).toBe(host)
    }
    // From the environment too; loopback addresses need neither.
    expect(() => parseCli([], { BWM_PORT: "0", BWM_HOST: "0.0.0.0" })).toThrow(/--auth-token/)
    for (const host of ["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]", "::ffff:127.0.0.1"]) {
      expect(parseCli(["--port", "0", "--host", host], {}).serve.http?.host, host).toBe(host)
    }
    // stdio ignores --host.
    expect(parseCli(["--host", "0.0.0.0"], {}).serve.http).toBeUndefined()
  })

  it("rejects bad flags and values in one line that names the flag", () => {
    expect(problem(["--log-level", "constructor"])).toBe('--log-level must be one of debug, info, warning, error, none; got "constructor"')
    expect(problem(["--nope"])).toBe("unknown option --nope; see --help")
    expect(problem(["--app-urll", "x"])).toContain("did you mean --app-url?")
    expect(problem(["--app-url"])).toBe("--app-url needs a value")
    expect(problem(["--headless=false"])).toContain("--headless takes no value")
    expect(problem(["--tool-prefix", "a b"])).toContain("--tool-prefix must be at most 32 letters")
    expect(problem(["--app-url", "not a url"])).toBe('--app-url must be an absolute URL; got "not a url"')
    expect(problem(["--port", "70000"])).toContain("--port must be a whole number from 0 to 65535")
    expect(problem(["--observation", "custom"])).toContain("--observation must be one of tool, default, failures, none")
    expect(problem(["stray"])).toContain('unexpected argument "stray"')
  })

  it("rejects bad variables in one line that names the variable", () => {
    expect(problem([], { BWM_LOG_LEVEL: "constructor" })).toContain("BWM_LOG_LEVEL must be one of")
    expect(problem([], { BWM_HEADLESS: "maybe" })).toBe('BWM_HEADLESS must be true or false; got "maybe"')
    expect(problem([], { BWM_BROWSER_ARGS: "--lang=de" })).toContain("BWM_BROWSER_ARGS must be a JSON array of strings")
  })

  it("rejects a bad config file in one short line that names the key", () => {
    const unknown = configFile({ appURL: "http://127.0.0.1/" })
    const message = problem(["--config", unknown.file])
    expect(message).toBe(`config file ${unknown.file}: unknown key "appURL" (did you mean appUrl?); see docs/configuration.md`)
    const nested = configFile({ screens: { home: 3 } })
    expect(problem(["--config", nested.file])).toBe(`config file ${nested.file}: key "screens" at "home": Expected string, actual 3`)
    const level = configFile({ logLevel: "constructor" })
    expect(problem(["--config", level.file])).toContain(`key "logLevel" must be one of debug, info`)
    const big = configFile({ fixtures: { default: { cookies: "x".repeat(5000) } } })
    expect(problem(["--config", big.file]).length).toBeLessThan(400)
    expect(problem(["--config", configFile("{ not json").file])).toContain("not valid JSON")
    expect(problem(["--config", path.join(tempDir(), "missing.json")])).toContain("cannot read config file")
  })
})

describe("one option table", () => {
  it("docs/configuration.md holds the table generated from it (run npm run docs:options after a change)", () => {
    const docs = fs.readFileSync(path.join(root, "docs/configuration.md"), "utf8")
    expect(withOptionsTable(docs)).toBe(docs)
  })

  it("--help lists every flag, variable and config key of the table", () => {
    for (const [key, spec] of Object.entries(optionTable) as Array<[string, { flag?: string; negation?: string; env?: string }]>) {
      expect(HELP).toContain(`config ${key}`)
      if (spec.flag !== undefined) expect(HELP).toContain(`--${spec.flag}`)
      if (spec.negation !== undefined) expect(HELP).toContain(`--${spec.negation}`)
      if (spec.env !== undefined) expect(HELP).toContain(spec.env)
    }
    expect(HELP).toContain("--observation")
  })

  it("an option without a flag is not listed like one: endpointHeaders shows as its variable, saying it has no flag", () => {
    expect(HELP).not.toMatch(/^ {2}endpointHeaders /m)
    expect(HELP).toMatch(/^ {2}BWM_ENDPOINT_HEADERS=JSON /m)
    expect(HELP).toContain("no flag: env BWM_ENDPOINT_HEADERS, config endpointHeaders")
    // Outside the config-file-only section, every entry starts with a flag or a variable.
    const beforeFileOnly = HELP.slice(0, HELP.indexOf("Config file only:"))
    for (const line of beforeFileOnly.split("\n").filter((line) => /^ {2}\S/.test(line))) expect(line, line).toMatch(/^ {2}(-|BWM_)/)
  })

  it("the config file schema holds exactly the table's keys", () => {
    const fields = (ConfigFile as unknown as { fields: Record<string, unknown> }).fields
    expect(Object.keys(fields).sort()).toEqual(Object.keys(optionTable).sort())
  })

  it("every --flag --help prints (subcommands' too) is in docs/configuration.md", () => {
    const docs = fs.readFileSync(path.join(root, "docs/configuration.md"), "utf8")
    const printed = new Set([...HELP.matchAll(/(?<![\w-])--([a-z][a-z-]*)/g)].map((match) => match[1]!))
    for (const flag of ["format", "out", "version", "help", "server"]) expect(printed.has(flag), flag).toBe(true)
    for (const flag of printed) expect(docs.includes(`--${flag}`), `--${flag}`).toBe(true)
    expect(docs).toContain("`-v, --version`")
  })

  it("every --flag the README and the docs show for this server exists", () => {
    const flags = new Set(["help", "version", "config"])
    for (const spec of Object.values(optionTable) as Array<{ flag?: string; negation?: string }>) {
      if (spec.flag !== undefined) flags.add(spec.flag)
      if (spec.negation !== undefined) flags.add(spec.negation)
    }
    const texts = ["README.md", "docs/configuration.md"].map((file) => fs.readFileSync(path.join(root, file), "utf8"))
    // Command lines of ours: `browser-workflow-mcp ...` up to the end of the line; Chromium's own flags follow --browser-arg.
    for (const text of texts) {
      for (const line of text.matchAll(/browser-workflow-mcp((?: [^\n`]*)?)/g)) {
        const words = line[1]!.split(/\s+/)
        // Subcommands' own flags are checked against --help above.
        if (["call", "export", "report", "replay", "browser-server"].includes(words[1] ?? "")) continue
        // replay takes the server's options and its own (its usage line names them).
        const own = words[1] === "replay" ? new Set([...REPLAY_USAGE.matchAll(/--([a-z-]+)/g)].map((match) => match[1]!)) : new Set<string>()
        words.forEach((word, index) => {
          const flag = /^--([a-z-]+)/.exec(word)?.[1]
          if (flag !== undefined && !words[index - 1]?.startsWith("--browser-arg") && !word.startsWith("--browser-arg=")) {
            expect(flags.has(flag) || own.has(flag), `${flag} in: ${line[0]}`).toBe(true)
          }
        })
      }
    }
  })
})
