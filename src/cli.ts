// The command line: flags, environment variables and the JSON config file parsed once into Settings,
// the app layer built once, MCP served over stdio, and the browser closed on every way out.
import * as fs from "node:fs"
import * as path from "node:path"
import { Cause, Effect, Either, Exit, Layer, ManagedRuntime, Option, Schema } from "effect"
import * as KnowledgeFiles from "./adapters/knowledge-files.js"
import * as StderrLogger from "./adapters/logger.js"
import * as Playwright from "./adapters/playwright/index.js"
import { LOOPBACK_ARGS } from "./adapters/playwright/launch.js"
import { ConfigFile, defaultBatchLimits, defaultSettings, type Settings } from "./domain/config.js"
import { serveStdio, SERVER_VERSION, type McpServerOptions } from "./mcp/server.js"
import { makeRegistry, type ToolRegistry } from "./runtime/registry.js"
import type { AnyToolDefinition } from "./runtime/tool.js"
import * as Capabilities from "./capabilities/index.js"
import { Config } from "./services/Config.js"
import { makeRunSteps } from "./tools/batch.js"
import { exportSession } from "./tools/knowledge.js"
import { builtinTools } from "./tools/registry.js"

export const HELP = `browser-workflow-mcp ${SERVER_VERSION}: an MCP server (stdio) that drives Chromium for LLM agents.

Usage: browser-workflow-mcp [options]
       browser-workflow-mcp export <sessionId> [--format batch|playwright] [--artifacts-dir DIR]

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
                             fixtures {name: storage state or path to a storage-state JSON file},
                             build {command, cwd?, timeoutMs?} (enables mm_build).
  --observation POLICY       Observation after each call: tool (each tool's own, default), default (full),
                             failures (full only on failure), none (state only). A call can also set it
                             with _meta {"browser-workflow-mcp/observation": POLICY}.
                                                                                BWM_OBSERVATION
  --static-tools             One fixed tool list, every group on, for clients    BWM_STATIC_TOOLS    staticTools
                             that ignore notifications/tools/list_changed (default: tools
                             appear as they apply, e.g. the page tools after mm_launch).
  --caps GROUPS              Opt-in tool groups, comma-separated, or all.       BWM_CAPS            caps
  --log-level LEVEL          debug | info | warning | error | none (default info); logs go to stderr.
                                                                                BWM_LOG_LEVEL
  -h, --help                 Show this help and exit.
  -v, --version              Print the version and exit.
`

export interface CliOptions {
  readonly settings: Settings
  readonly logLevel: StderrLogger.LevelName
  readonly observation: "default" | "none" | "failures" | undefined
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
  "--observation",
  "--test-id-attribute",
  "--caps"
])

/** "a, b" as ["a", "b"]: opt-in group names. */
const capsList = (value: string): ReadonlyArray<string> => {
  const caps = value.split(",").map((cap) => cap.trim()).filter((cap) => cap !== "")
  const bad = caps.find((cap) => !/^[a-z][a-z0-9-]*$/.test(cap))
  if (bad !== undefined) throw new CliError(`--caps takes group names like debugger or devtools, got "${bad}"`)
  return caps
}

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
  if (config.build !== undefined) out.build = config.build
  if (config.staticTools !== undefined) out.staticTools = config.staticTools
  if (config.caps !== undefined) out.caps = capsList(config.caps.join(","))
  if (config.batch !== undefined) {
    const { toolLimits, ...limits } = config.batch
    out.batch = { ...defaultBatchLimits, ...limits, toolLimits: toolLimits ?? {} }
  }
  return out as Partial<Settings>
}

/** Flags, environment and config file to options; throws CliError with a message for the user. */
export const parseCli = (argv: ReadonlyArray<string>, env: Readonly<Record<string, string | undefined>>): CliOptions => {
  const flags: Record<string, string> = {}
  const browserArgs: Array<string> = []
  let headless: boolean | undefined
  let staticTools: boolean | undefined
  let help = false
  let version = false
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === "-h" || arg === "--help") help = true
    else if (arg === "-v" || arg === "--version") version = true
    else if (arg === "--headless") headless = true
    else if (arg === "--headed") headless = false
    else if (arg === "--loopback-only") browserArgs.push(...LOOPBACK_ARGS)
    else if (arg === "--static-tools") staticTools = true
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
    browserArgs: [...(fromFile.browserArgs ?? []), ...(envBrowserArgs ?? []), ...browserArgs],
    staticTools:
      staticTools ??
      (env.BWM_STATIC_TOOLS !== undefined ? parseBoolean("BWM_STATIC_TOOLS", env.BWM_STATIC_TOOLS) : undefined) ??
      fromFile.staticTools ??
      false,
    caps: (() => {
      const caps = pick("--caps", "BWM_CAPS")
      return caps === undefined ? (fromFile.caps ?? []) : capsList(caps)
    })()
  }
  const observation = pick("--observation", "BWM_OBSERVATION") ?? "tool"
  if (!["tool", "default", "none", "failures"].includes(observation)) {
    throw new CliError(`--observation must be one of tool, default, none, failures; got "${observation}"`)
  }
  return {
    settings,
    logLevel,
    observation: observation === "tool" ? undefined : (observation as "default" | "none" | "failures"),
    help,
    version
  }
}

/** The served tools: the given ones plus mm_run_steps over all of them. */
export const registryFor = (settings: Settings, tools: ReadonlyArray<AnyToolDefinition> = builtinTools): ToolRegistry => {
  const registry: ToolRegistry = makeRegistry([...tools, makeRunSteps(() => registry, settings.batch)], settings.toolPrefix)
  return registry
}

/**
 * Capability layers: any layer that needs at most Config. Their outputs are typed `never` on purpose: tools
 * reach capabilities through Effect.serviceOption, so nothing in the types depends on which ones are present.
 */
export type CapabilityLayer = Layer.Layer<never, unknown, Config>

/** The capabilities the config file offers: the build command. */
export const configCapabilities = (settings: Settings): CapabilityLayer =>
  settings.build === undefined ? Layer.empty : Capabilities.buildLayerCommand(settings.build, settings.configDir)

/**
 * Everything the built-in tools need, live: Chromium, JSON-file step memory, stderr logs, plus the
 * capabilities of the config file and the given ones (later layers win over earlier ones for the same tag).
 */
export const appLayer = (
  settings: Settings,
  logLevel: StderrLogger.LevelName = "info",
  capabilities: ReadonlyArray<CapabilityLayer> = []
) => {
  const provided = [configCapabilities(settings), ...capabilities].reduce<CapabilityLayer>(
    (all, next) => Layer.merge(all, next),
    Layer.empty
  )
  // Capabilities feed the Playwright layer (Fixture, StateSnapshot) and stay visible to tools (Build, ContractSeeding...).
  return Layer.mergeAll(Playwright.layer, KnowledgeFiles.layerFileSystem(settings.artifactsDir)).pipe(
    Layer.provideMerge(provided),
    Layer.provide(Config.layer(settings)),
    Layer.provideMerge(StderrLogger.layer(logLevel))
  )
}

/** Serves the given tools with the live layers until stdin closes or a signal arrives; then closes the browser. */
export const serve = async (
  settings: Settings,
  logLevel: StderrLogger.LevelName,
  tools: ReadonlyArray<AnyToolDefinition> = builtinTools,
  mcpOptions: McpServerOptions = {},
  capabilities: ReadonlyArray<CapabilityLayer> = []
): Promise<void> => {
  const runtime = ManagedRuntime.make(appLayer(settings, logLevel, capabilities))
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
  await serveStdio(registryFor(settings, tools), runtime, { ...mcpOptions, staticTools: settings.staticTools, caps: settings.caps })
  await stop(0)
}

export interface MakeServerOptions {
  /** Settings; parsed like the CLI's from process.argv and the environment when absent. */
  readonly settings?: Settings | undefined
  readonly logLevel?: StderrLogger.LevelName | undefined
  /** Capability layers (Build, Fixture, StateSnapshot, Chain, ContractSeeding) and services your own tools use. */
  readonly layers?: ReadonlyArray<CapabilityLayer> | undefined
  /** Your tools, served after the built-in ones: same defineTool shape, run by the same runTool. */
  readonly tools?: ReadonlyArray<AnyToolDefinition> | undefined
  /** False to serve only `tools` (default true). */
  readonly builtins?: boolean | undefined
}

export interface BrowserWorkflowServer {
  readonly settings: Settings
  /** Every tool served, built-in ones first (mm_run_steps is added over all of them when served). */
  readonly tools: ReadonlyArray<AnyToolDefinition>
  /** The full app layer, to run tools in-process with runTool (e.g. in tests). */
  readonly layer: ReturnType<typeof appLayer>
  /** Serves MCP over stdio until stdin closes or a signal arrives, then closes the browser and exits. */
  readonly serveStdio: () => Promise<void>
}

/** The library's entry point: the built-in server plus a consumer's own tools and capability layers. */
export const makeServer = (options: MakeServerOptions = {}): BrowserWorkflowServer => {
  const parsed = options.settings === undefined ? parseCli(process.argv.slice(2), process.env) : undefined
  const settings = options.settings ?? parsed!.settings
  const logLevel = options.logLevel ?? parsed?.logLevel ?? "info"
  const tools = [...(options.builtins === false ? [] : builtinTools), ...(options.tools ?? [])]
  const layers = options.layers ?? []
  return {
    settings,
    tools,
    layer: appLayer(settings, logLevel, layers),
    serveStdio: () => serve(settings, logLevel, tools, { observation: parsed?.observation }, layers)
  }
}

export const EXPORT_HELP = `Usage: browser-workflow-mcp export <sessionId> [--format batch|playwright] [--artifacts-dir DIR]

Prints a recorded session as an mm_run_steps batch (JSON, the default) or a @playwright/test file.
`

/** `export <sessionId> --format batch|playwright --artifacts-dir DIR`: a recorded session to stdout. */
export const runExport = async (argv: ReadonlyArray<string>, env: Readonly<Record<string, string | undefined>>): Promise<number> => {
  let sessionId: string | undefined
  let format = "batch"
  let artifactsDir = env.BWM_ARTIFACTS_DIR ?? defaultSettings.artifactsDir
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    const [name, inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined]
    const value = () => inline ?? argv[++i]
    if (name === "-h" || name === "--help") {
      process.stdout.write(EXPORT_HELP)
      return 0
    } else if (name === "--format") format = value() ?? ""
    else if (name === "--artifacts-dir") artifactsDir = value() ?? ""
    else if (!name.startsWith("-") && sessionId === undefined) sessionId = name
    else {
      process.stderr.write(`browser-workflow-mcp export: unexpected ${arg}\n${EXPORT_HELP}`)
      return 2
    }
  }
  if (sessionId === undefined || (format !== "batch" && format !== "playwright")) {
    process.stderr.write(`browser-workflow-mcp export: give a session id and --format batch or playwright\n${EXPORT_HELP}`)
    return 2
  }
  const exit = await Effect.runPromiseExit(
    exportSession(sessionId, format).pipe(
      Effect.provide(Layer.provideMerge(KnowledgeFiles.layerFileSystem(path.resolve(artifactsDir)), StderrLogger.layer("warning")))
    )
  )
  if (Exit.isSuccess(exit)) {
    process.stdout.write(exit.value.content)
    return 0
  }
  const failure = Cause.failureOption(exit.cause)
  process.stderr.write(`browser-workflow-mcp export: ${Option.isSome(failure) ? failure.value.message : Cause.pretty(exit.cause)}\n`)
  return 1
}

/** The `browser-workflow-mcp` command. */
export const runCli = async (argv: ReadonlyArray<string>): Promise<void> => {
  if (argv[0] === "export") {
    process.exitCode = await runExport(argv.slice(1), process.env)
    return
  }
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
  await serve(options.settings, options.logLevel, builtinTools, { observation: options.observation })
}
