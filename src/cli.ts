// The command line: flags, environment variables and the JSON config file parsed once into Settings,
// the app layer built once, MCP served over stdio, and the browser closed on every way out.
import * as fs from "node:fs"
import * as path from "node:path"
import { Either, Layer, ManagedRuntime, Schema } from "effect"
import * as KnowledgeFiles from "./adapters/knowledge-files.js"
import * as StderrLogger from "./adapters/logger.js"
import * as Playwright from "./adapters/playwright/index.js"
import { LOOPBACK_ARGS } from "./adapters/playwright/launch.js"
import { ConfigFile, defaultSettings, type Settings } from "./domain/config.js"
import { serveStdio, SERVER_VERSION } from "./mcp/server.js"
import { makeRegistry } from "./runtime/registry.js"
import type { AnyToolDefinition } from "./runtime/tool.js"
import { Config } from "./services/Config.js"
import { builtinTools } from "./tools/registry.js"

export const HELP = `browser-workflow-mcp ${SERVER_VERSION}: an MCP server (stdio) that drives Chromium for LLM agents.

Usage: browser-workflow-mcp [options]

Options (flag / environment variable / config file key; flags win over the environment, which wins over the file):
  --headless                 Run the browser without a window (default).        BWM_HEADLESS=true   headless
  --headed                   Show the browser window.                           BWM_HEADLESS=false  headless
  --executable-path PATH     Chromium or Chrome binary. Default: the first of   BWM_EXECUTABLE_PATH executablePath
                             /usr/lib/chromium/chromium, /usr/bin/chromium, /usr/bin/google-chrome, ...
                             then Playwright's own Chromium.
  --extension DIR            Unpacked Manifest V3 extension to load.            BWM_EXTENSION       extension
  --app-url URL              Home page of the web app under test.               BWM_APP_URL         appUrl
  --artifacts-dir DIR        Screenshots and step memory (default ./test-artifacts).
                                                                                BWM_ARTIFACTS_DIR   artifactsDir
  --tool-prefix P            Tool name prefix (default mm: mm_click, ...).      BWM_TOOL_PREFIX     toolPrefix
  --browser-arg=ARG          Extra Chromium argument; repeatable. Values that   BWM_BROWSER_ARGS    browserArgs
                             start with -- work: --browser-arg=--lang=de       (JSON array)
  --loopback-only            Keep all browser traffic on 127.0.0.1 (host-resolver and proxy guards).
  --test-id-attribute NAME   Attribute holding test ids (default data-testid). BWM_TEST_ID_ATTRIBUTE testIdAttribute
  --config FILE              JSON config file (see docs/configuration.md):      BWM_CONFIG
                             screens {home, settings, notification}, screenRules [{screen, testId|selector|urlPattern}],
                             fixtures {name: storage state or path to a storage-state JSON file}.
  --log-level LEVEL          debug | info | warning | error | none (default info); logs go to stderr.
                                                                                BWM_LOG_LEVEL
  -h, --help                 Show this help and exit.
  -v, --version              Print the version and exit.
`

export interface CliOptions {
  readonly settings: Settings
  readonly logLevel: StderrLogger.LevelName
  readonly help: boolean
  readonly version: boolean
}

export class CliError extends Error {}

const VALUE_FLAGS = new Set([
  "--executable-path",
  "--extension",
  "--app-url",
  "--artifacts-dir",
  "--tool-prefix",
  "--browser-arg",
  "--config",
  "--log-level",
  "--test-id-attribute"
])

const parseBoolean = (name: string, value: string): boolean => {
  if (/^(1|true|yes)$/i.test(value)) return true
  if (/^(0|false|no)$/i.test(value)) return false
  throw new CliError(`${name} must be true or false, got "${value}"`)
}

const readConfigFile = (file: string): Partial<Settings> => {
  let text: string
  try {
    text = fs.readFileSync(file, "utf8")
  } catch {
    throw new CliError(`cannot read config file ${file}`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new CliError(`config file ${file} is not valid JSON: ${String(error)}`)
  }
  const decoded = Schema.decodeUnknownEither(ConfigFile, { onExcessProperty: "error", errors: "all" })(json)
  if (Either.isLeft(decoded)) throw new CliError(`config file ${file} is invalid: ${decoded.left.message}`)
  const config = decoded.right
  const dir = path.dirname(path.resolve(file))
  const relative = (value: string | undefined) => (value === undefined ? undefined : path.resolve(dir, value))
  const out: Record<string, unknown> = { configDir: dir }
  if (config.headless !== undefined) out.headless = config.headless
  if (config.executablePath !== undefined) out.executablePath = relative(config.executablePath)
  if (config.extension !== undefined) out.extension = relative(config.extension)
  if (config.appUrl !== undefined) out.appUrl = config.appUrl
  if (config.artifactsDir !== undefined) out.artifactsDir = relative(config.artifactsDir)
  if (config.toolPrefix !== undefined) out.toolPrefix = config.toolPrefix
  if (config.browserArgs !== undefined) out.browserArgs = config.browserArgs
  if (config.testIdAttribute !== undefined) out.testIdAttribute = config.testIdAttribute
  if (config.screens !== undefined) out.screens = config.screens
  if (config.screenRules !== undefined) out.screenRules = config.screenRules
  if (config.fixtures !== undefined) out.fixtures = config.fixtures
  return out as Partial<Settings>
}

/** Flags, environment and config file to options; throws CliError with a message for the user. */
export const parseCli = (argv: ReadonlyArray<string>, env: Readonly<Record<string, string | undefined>>): CliOptions => {
  const flags: Record<string, string> = {}
  const browserArgs: Array<string> = []
  let headless: boolean | undefined
  let help = false
  let version = false
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === "-h" || arg === "--help") help = true
    else if (arg === "-v" || arg === "--version") version = true
    else if (arg === "--headless") headless = true
    else if (arg === "--headed") headless = false
    else if (arg === "--loopback-only") browserArgs.push(...LOOPBACK_ARGS)
    else {
      const eq = arg.indexOf("=")
      const name = eq > 0 && arg.startsWith("--") ? arg.slice(0, eq) : arg
      if (!VALUE_FLAGS.has(name)) throw new CliError(`unknown option ${arg}; see --help`)
      let value: string
      if (eq > 0 && arg.startsWith("--")) value = arg.slice(eq + 1)
      else {
        // The next word is the value even when it starts with "--" (e.g. --browser-arg --lang=de).
        const next = argv[i + 1]
        if (next === undefined) throw new CliError(`${name} needs a value`)
        value = next
        i++
      }
      if (name === "--browser-arg") browserArgs.push(value)
      else flags[name] = value
    }
  }

  const configPath = flags["--config"] ?? env.BWM_CONFIG
  const fromFile = configPath === undefined ? {} : readConfigFile(configPath)

  const envBrowserArgs = (() => {
    const raw = env.BWM_BROWSER_ARGS
    if (raw === undefined || raw.trim() === "") return undefined
    try {
      const parsed: unknown = JSON.parse(raw)
      if (Array.isArray(parsed) && parsed.every((item) => typeof item === "string")) return parsed as Array<string>
    } catch {
      // fall through to the error below
    }
    throw new CliError('BWM_BROWSER_ARGS must be a JSON array of strings, e.g. ["--lang=de"]')
  })()

  const pick = (flag: string, envName: string): string | undefined => flags[flag] ?? env[envName]
  const resolvePath = (value: string | undefined) => (value === undefined ? undefined : path.resolve(value))

  const toolPrefix = pick("--tool-prefix", "BWM_TOOL_PREFIX") ?? fromFile.toolPrefix ?? defaultSettings.toolPrefix
  if (!/^[A-Za-z0-9_.-]{0,32}$/.test(toolPrefix)) {
    throw new CliError(`--tool-prefix may only hold letters, digits, "_", "." and "-" (at most 32), got "${toolPrefix}"`)
  }
  const logLevel = (pick("--log-level", "BWM_LOG_LEVEL") ?? "info") as StderrLogger.LevelName
  if (!(logLevel in StderrLogger.levels)) throw new CliError(`--log-level must be one of ${Object.keys(StderrLogger.levels).join(", ")}`)
  const appUrl = pick("--app-url", "BWM_APP_URL") ?? fromFile.appUrl
  if (appUrl !== undefined && !URL.canParse(appUrl)) throw new CliError(`--app-url must be an absolute URL, got "${appUrl}"`)

  const settings: Settings = {
    ...defaultSettings,
    ...fromFile,
    headless:
      headless ?? (env.BWM_HEADLESS !== undefined ? parseBoolean("BWM_HEADLESS", env.BWM_HEADLESS) : undefined) ?? fromFile.headless ?? true,
    executablePath: resolvePath(pick("--executable-path", "BWM_EXECUTABLE_PATH")) ?? fromFile.executablePath,
    extension: resolvePath(pick("--extension", "BWM_EXTENSION")) ?? fromFile.extension,
    appUrl,
    artifactsDir: path.resolve(pick("--artifacts-dir", "BWM_ARTIFACTS_DIR") ?? fromFile.artifactsDir ?? defaultSettings.artifactsDir),
    toolPrefix,
    testIdAttribute: pick("--test-id-attribute", "BWM_TEST_ID_ATTRIBUTE") ?? fromFile.testIdAttribute ?? defaultSettings.testIdAttribute,
    browserArgs: [...(fromFile.browserArgs ?? []), ...(envBrowserArgs ?? []), ...browserArgs]
  }
  return { settings, logLevel, help, version }
}

/** Everything the built-in tools need, live: Chromium, JSON-file step memory, stderr logs. */
export const appLayer = (settings: Settings, logLevel: StderrLogger.LevelName = "info") =>
  Layer.mergeAll(Playwright.layer, KnowledgeFiles.layerFileSystem(settings.artifactsDir)).pipe(
    Layer.provide(Config.layer(settings)),
    Layer.provideMerge(StderrLogger.layer(logLevel))
  )

/** Serves the given tools with the live layers until stdin closes or a signal arrives; then closes the browser. */
export const serve = async (
  settings: Settings,
  logLevel: StderrLogger.LevelName,
  tools: ReadonlyArray<AnyToolDefinition> = builtinTools
): Promise<void> => {
  const runtime = ManagedRuntime.make(appLayer(settings, logLevel))
  let stopping: Promise<void> | undefined
  const stop = (code: number) => {
    stopping ??= (async () => {
      // Never hang on the way out: a stuck browser gets 10 s, then the process exits anyway.
      const timer = setTimeout(() => process.exit(code), 10_000)
      timer.unref()
      await runtime.dispose().catch(() => undefined)
      process.exit(code)
    })()
    return stopping
  }
  process.once("SIGINT", () => void stop(130))
  process.once("SIGTERM", () => void stop(143))
  process.once("SIGHUP", () => void stop(129))
  await serveStdio(makeRegistry(tools, settings.toolPrefix), runtime)
  await stop(0)
}

/** The `browser-workflow-mcp` command. */
export const runCli = async (argv: ReadonlyArray<string>): Promise<void> => {
  let options: CliOptions
  try {
    options = parseCli(argv, process.env)
  } catch (error) {
    if (error instanceof CliError) {
      process.stderr.write(`browser-workflow-mcp: ${error.message}\n`)
      process.exit(2)
    }
    throw error
  }
  if (options.help) {
    process.stdout.write(HELP)
    return
  }
  if (options.version) {
    process.stdout.write(`${SERVER_VERSION}\n`)
    return
  }
  await serve(options.settings, options.logLevel)
}
