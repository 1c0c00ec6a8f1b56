// The app layer built once, MCP served over stdio or Streamable HTTP, and every browser session closed on every way out.
import { Layer, ManagedRuntime } from "effect"
import * as KnowledgeFiles from "../adapters/knowledge-files.js"
import * as StderrLogger from "../adapters/logger.js"
import * as Playwright from "../adapters/playwright/index.js"
import { endpointHeaderValues } from "../adapters/playwright/lifecycle/endpoints.js"
import { readSecretsFile } from "../adapters/secrets-file.js"
import * as Capabilities from "../capabilities/index.js"
import type { Settings } from "../domain/config.js"
import { serveStdio, type McpServerOptions } from "../mcp/server.js"
import { ToolRegistry, type ToolRegistryService } from "../runtime/registry.js"
import * as SessionRegistry from "../runtime/session-registry.js"
import type { AnyToolDefinition } from "../runtime/tool.js"
import { Config } from "../services/Config.js"
import { Secrets } from "../services/Secrets.js"
import { builtinTools, servedRegistry } from "../tools/registry.js"
import { parseOptions, toServeOptions, toSettings, type ServeOptions } from "./options.js"

/** The served registry (its older name). */
export const registryFor = servedRegistry

/**
 * Capability layers: any layer that needs at most Config. Their outputs are typed `never` on purpose: tools
 * reach capabilities through Effect.serviceOption, so nothing in the types depends on which ones are present.
 */
export type CapabilityLayer = Layer.Layer<never, unknown, Config>

/** The capabilities the config file offers: the build command. */
export const configCapabilities = (settings: Settings): CapabilityLayer =>
  settings.build === undefined ? Layer.empty : Capabilities.buildLayerCommand(settings.build, settings.configDir)

/**
 * Everything the built-in tools need, live: Chromium, JSON-file step memory, stderr logs, the served tool
 * registry, plus the capabilities of the config file and the given ones (later layers win over earlier
 * ones for the same tag).
 */
export const appLayer = (
  settings: Settings,
  logLevel: StderrLogger.LevelName = "info",
  capabilities: ReadonlyArray<CapabilityLayer> = [],
  registry: ToolRegistryService = servedRegistry(settings)
) => {
  const provided = [configCapabilities(settings), ...capabilities].reduce<CapabilityLayer>(
    (all, next) => Layer.merge(all, next),
    Layer.empty
  )
  const secrets = secretsOf(settings)
  // Each call runs on a session of the registry: a context in one shared browser, or a browser of its own.
  const sessions = SessionRegistry.layer(Playwright.slots, registryOptionsOf(settings)).pipe(
    Layer.provideMerge(KnowledgeFiles.layerFileSystem(settings.artifactsDir))
  )
  // Capabilities feed the Playwright layer (Fixture, StateSnapshot) and stay visible to tools (Build, ContractSeeding...).
  return Layer.mergeAll(sessions, ToolRegistry.layer(registry)).pipe(
    Layer.provideMerge(provided),
    Layer.provideMerge(Layer.merge(Config.layer(settings), Layer.succeed(Secrets, secrets))),
    Layer.provideMerge(StderrLogger.layer(logLevel, secrets.redactText))
  )
}

/** The session registry's options from the settings. */
export const registryOptionsOf = (settings: Settings): SessionRegistry.RegistryOptions => ({
  maxSessions: settings.maxSessions,
  idleTimeoutMs: settings.sessionIdleTimeout * 1000,
  shared: settings.sharedBrowser,
  privateKnowledge: settings.privateKnowledge,
  memoryOf: Playwright.memoryOf,
  // A remote browser hosts contexts, never this profile (the options refuse both together).
  ...(settings.userDataDir !== undefined ? { profile: settings.userDataDir } : {})
})

/** The secrets of `--secrets` (checked at start by parseCli; a file that broke since is a defect). */
const secretsOf = (settings: Settings) => {
  const headers = endpointHeaderValues(settings.endpointHeaders)
  if (settings.secrets === undefined) return headers.size === 0 ? Secrets.none : Secrets.make(new Map(), headers)
  const file = readSecretsFile(settings.secrets)
  if (!file.ok) throw new Error(`--secrets: ${file.problem}`)
  return Secrets.make(file.entries, headers)
}

const defaultServeOptions: ServeOptions = { logLevel: "info", observation: undefined, http: undefined }

/**
 * Serves the given tools with the live layers: over stdio until stdin closes, or over Streamable HTTP
 * until a signal arrives. Every way out (stdin closing, SIGINT, SIGTERM, SIGHUP) closes the HTTP
 * server and every browser session (the registry's scope), then exits.
 */
export const serve = async (
  settings: Settings,
  serveOptions: ServeOptions | StderrLogger.LevelName = defaultServeOptions,
  tools: ReadonlyArray<AnyToolDefinition> = builtinTools,
  mcpOptions: McpServerOptions = {},
  capabilities: ReadonlyArray<CapabilityLayer> = []
): Promise<void> => {
  const options = typeof serveOptions === "string" ? { ...defaultServeOptions, logLevel: serveOptions } : serveOptions
  const registry = servedRegistry(settings, tools)
  return serveWith(settings, options, registry, appLayer(settings, options.logLevel, capabilities, registry), mcpOptions)
}

/** Serves a registry already built, on its app layer (built once by the caller). */
const serveWith = async (
  settings: Settings,
  options: ServeOptions,
  registry: ToolRegistryService,
  layer: ReturnType<typeof appLayer>,
  mcpOptions: McpServerOptions
): Promise<void> => {
  const runtime = ManagedRuntime.make(layer)
  // Build the layers now rather than at the first call: the browser's layer removes the temporary
  // profiles a killed server left behind when this one starts (a failure shows at the first call).
  void runtime.runtime().catch(() => undefined)
  const serverOptions: McpServerOptions = {
    observation: options.observation,
    staticTools: settings.staticTools,
    caps: settings.caps,
    secretNames: secretsOf(settings).names,
    ...mcpOptions
  }
  let closeHttp: (() => Promise<void>) | undefined
  let stopping: Promise<void> | undefined
  const stop = (code: number) => {
    stopping ??= (async () => {
      // Never hang on the way out: a stuck browser gets 10 s, then the process exits anyway.
      const timer = setTimeout(() => process.exit(code), 10_000)
      timer.unref()
      await closeHttp?.().catch(() => undefined)
      await runtime.dispose().catch(() => undefined)
      process.exit(code)
    })()
    return stopping
  }
  process.once("SIGINT", () => void stop(130))
  process.once("SIGTERM", () => void stop(143))
  process.once("SIGHUP", () => void stop(129))
  if (options.http === undefined) {
    await serveStdio(registry, runtime, serverOptions)
    await stop(0)
    return
  }
  // Loaded only here: the HTTP transport pulls in Node's fetch machinery, which stdio never needs.
  const { serveHttp } = await import("../mcp/http.js")
  const server = await serveHttp(registry, runtime, { ...serverOptions, ...options.http }).catch((error: unknown) => {
    process.stderr.write(`browser-workflow-mcp: cannot listen on ${options.http!.host}:${options.http!.port}: ${String(error)}\n`)
    return stop(1)
  })
  if (server === undefined) return
  closeHttp = server.close
  // The address really bound first (0.0.0.0 is every address of the machine, not 127.0.0.1).
  process.stderr.write(`browser-workflow-mcp: listening on ${server.bound}${server.bound === server.url ? "" : ` (this machine: ${server.url})`}\n`)
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
  /** Serves as the command line says: over Streamable HTTP with --port, else over stdio. */
  readonly serve: () => Promise<void>
}

/** The library's entry point: the built-in server plus a consumer's own tools and capability layers. */
export const makeServer = (options: MakeServerOptions = {}): BrowserWorkflowServer => {
  const parsed = options.settings === undefined ? parseOptions(process.argv.slice(2), process.env) : undefined
  const settings = options.settings ?? toSettings(parsed!.values, parsed!.configDir, parsed!.configFile)
  const fromCommandLine = parsed === undefined ? defaultServeOptions : toServeOptions(parsed.values)
  const serveOptions: ServeOptions = { ...fromCommandLine, logLevel: options.logLevel ?? fromCommandLine.logLevel }
  const tools = [...(options.builtins === false ? [] : builtinTools), ...(options.tools ?? [])]
  // One registry and one app layer, shared by the library's in-process use and whichever way it serves.
  const registry = servedRegistry(settings, tools)
  const layer = appLayer(settings, serveOptions.logLevel, options.layers ?? [], registry)
  return {
    settings,
    tools,
    layer,
    serveStdio: () => serveWith(settings, { ...serveOptions, http: undefined }, registry, layer, {}),
    serve: () => serveWith(settings, serveOptions, registry, layer, {})
  }
}
