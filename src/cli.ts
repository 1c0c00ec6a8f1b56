// The browser-workflow-mcp command: options from flags, environment and config file (src/cli/options.ts,
// by the one table in cli/option-table.ts), then MCP over stdio or Streamable HTTP (src/cli/serve.ts), or
// a subcommand from the table below (the MCP client code of `call` loads only when it runs).
import type * as StderrLogger from "./adapters/logger.js"
import type { Settings } from "./domain/config.js"
import { SERVER_VERSION } from "./mcp/server.js"
import { BROWSER_SERVER_USAGE } from "./cli/browser-server.js"
import { CALL_USAGE } from "./cli/call.js"
import { EXPORT_USAGE } from "./cli/export.js"
import { REPLAY_USAGE } from "./cli/replay.js"
import { REPORT_USAGE } from "./cli/report.js"
import { helpText } from "./cli/help.js"
import { CliError, parseOptions, toServeOptions, toSettings, type ServeOptions } from "./cli/options.js"
import { serve } from "./cli/serve.js"
import { readSecretsFile } from "./adapters/secrets-file.js"

export { CliError, parseOptions, toSettings, toServeOptions, type ServeOptions } from "./cli/options.js"
export { appLayer, configCapabilities, makeServer, registryFor, serve } from "./cli/serve.js"
export type { BrowserWorkflowServer, CapabilityLayer, MakeServerOptions } from "./cli/serve.js"
export { runExport, EXPORT_HELP } from "./cli/export.js"
export { runCall, CALL_HELP } from "./cli/call.js"

/** A subcommand: its usage line and how to run it (resolving to the exit code). */
export interface Subcommand {
  readonly usage: string
  readonly run: (argv: ReadonlyArray<string>, env: Readonly<Record<string, string | undefined>>) => Promise<number>
}

/** The subcommands by name; adding one is one entry. */
export const subcommands: Readonly<Record<string, Subcommand>> = {
  call: { usage: CALL_USAGE, run: (argv, env) => import("./cli/call.js").then((module) => module.runCall(argv, env)) },
  export: { usage: EXPORT_USAGE, run: (argv, env) => import("./cli/export.js").then((module) => module.runExport(argv, env)) },
  report: { usage: REPORT_USAGE, run: (argv, env) => import("./cli/report.js").then((module) => module.runReport(argv, env)) },
  replay: { usage: REPLAY_USAGE, run: (argv, env) => import("./cli/replay.js").then((module) => module.runReplay(argv, env)) },
  "browser-server": { usage: BROWSER_SERVER_USAGE, run: (argv, env) => import("./cli/browser-server.js").then((module) => module.runBrowserServer(argv, env)) }
}

export const HELP = helpText(SERVER_VERSION, Object.values(subcommands))

export interface CliOptions {
  readonly settings: Settings
  readonly logLevel: StderrLogger.LevelName
  readonly observation: "default" | "none" | "failures" | undefined
  readonly serve: ServeOptions
  readonly help: boolean
  readonly version: boolean
}

/** Flags, environment and config file to options; throws CliError with a one-line message for the user. */
export const parseCli = (argv: ReadonlyArray<string>, env: Readonly<Record<string, string | undefined>>): CliOptions => {
  const parsed = parseOptions(argv, env)
  const serveOptions = toServeOptions(parsed.values)
  const settings = toSettings(parsed.values, parsed.configDir, parsed.configFile)
  if (settings.secrets !== undefined) {
    const secrets = readSecretsFile(settings.secrets)
    if (!secrets.ok) throw new CliError(`--secrets: ${secrets.problem}`)
    if (secrets.worldReadable) process.stderr.write(`browser-workflow-mcp: warning: --secrets file ${settings.secrets} is readable by every user; chmod 600 it\n`)
  }
  return {
    settings,
    logLevel: serveOptions.logLevel,
    observation: serveOptions.observation,
    serve: serveOptions,
    help: parsed.help,
    version: parsed.version
  }
}

/**
 * The `browser-workflow-mcp` command. `serving` is told when it goes on to serve MCP (not for --help,
 * --version or a subcommand): the installed command then keeps V8's code cache of the server (src/bin.ts).
 */
export const runCli = async (argv: ReadonlyArray<string>, serving?: () => void): Promise<void> => {
  const subcommand = argv[0] === undefined ? undefined : subcommands[argv[0]]
  if (subcommand !== undefined && Object.hasOwn(subcommands, argv[0]!)) {
    process.exitCode = await subcommand.run(argv.slice(1), process.env)
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
  serving?.()
  await serve(options.settings, options.serve)
}
