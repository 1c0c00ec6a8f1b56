// Flags, environment variables and the config file to option values, by the one table in cli/option-table.ts:
// flags win over the environment, which wins over the file, which wins over the defaults. Every
// problem is one line naming the flag, variable or key.
import * as fs from "node:fs"
import * as path from "node:path"
import { parseArgs } from "node:util"
import { Either, ParseResult, Schema } from "effect"
import { LOOPBACK_ARGS, settingsConflict } from "../adapters/playwright/lifecycle/launch.js"
import { endpointKeysText, hostPortOf, unmatchedHeaderKey } from "../adapters/playwright/lifecycle/endpoints.js"
import { initScriptSyntaxError } from "../adapters/playwright/session/emulation-state.js"
import type * as StderrLogger from "../adapters/logger.js"
import { defaultBatchLimits, defaultSettings, type InitScript, type Settings } from "../domain/config.js"
import { editDistance } from "../domain/edit-distance.js"
import { optionTable, type OptionName, type OptionSpec, type OptionValues } from "./option-table.js"
import { OptionTypes } from "./option-types.js"

import { CliError } from "./cli-error.js"

export { CliError }

/** Flags that are not options: they pick the config file or ask for help and the version. */
export const commandFlags = {
  config: {
    flag: "config",
    env: "BWM_CONFIG",
    placeholder: "FILE",
    help: "JSON config file holding any option below by its config key; relative paths in it are relative to it."
  },
  help: { flag: "help", short: "h", help: "Show this help and exit." },
  version: { flag: "version", short: "v", help: "Print the version and exit." }
} as const

type AnySpec = OptionSpec<unknown, unknown>

const entries = Object.entries(optionTable) as unknown as ReadonlyArray<readonly [OptionName, AnySpec]>

export const isBooleanOption = (spec: AnySpec) => spec.type === (OptionTypes.boolean as unknown)

/** Where a value came from, for error messages and relative paths. */
type Source = { readonly kind: "flag"; readonly name: string } | { readonly kind: "env"; readonly name: string } | { readonly kind: "file"; readonly file: string; readonly key: string }

const sourceLabel = (source: Source) =>
  source.kind === "file" ? `config file ${source.file}: key "${source.key}"` : source.kind === "flag" ? `--${source.name}` : source.name

/** A value shown in an error: short, one line. */
const shown = (value: unknown) => {
  const text = typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value) ?? String(value)
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}

/** The first issue of a decode failure as "at path: message", one line. */
const firstIssue = (error: ParseResult.ParseError): { readonly path: string; readonly message: string } => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
  const issue = issues[0]
  const message = (issue?.message ?? "invalid").split("\n")[0]!
  return { path: (issue?.path ?? []).join("."), message: message.length > 160 ? `${message.slice(0, 157)}...` : message }
}

/** Decodes one value of an option; the error names where it came from and what was expected. */
const decodeValue = (spec: AnySpec, raw: unknown, source: Source): unknown => {
  const decoded = Schema.decodeUnknownEither(spec.type.schema, { onExcessProperty: "error" })(raw)
  if (Either.isRight(decoded)) return decoded.right
  // Schema's messages quote the value: a secret's error says only what was expected.
  if (spec.secret === true) throw new CliError(`${sourceLabel(source)} must be ${spec.type.expected} (the value is not shown)`)
  const issue = firstIssue(decoded.left)
  if (issue.path === "") {
    throw new CliError(`${sourceLabel(source)} must be ${spec.type.expected}; got ${shown(raw)}`)
  }
  const where = issue.path === "" ? sourceLabel(source) : `${sourceLabel(source)}${source.kind === "file" ? "" : ":"} at "${issue.path}"`
  throw new CliError(`${where}: ${issue.message}`)
}

/** " (did you mean X?)" for a near miss among the candidates. */
const suggestion = (name: string, candidates: ReadonlyArray<string>, prefix: string) => {
  const best = candidates
    .map((candidate) => ({ candidate, distance: editDistance(name, candidate) }))
    .sort((a, b) => a.distance - b.distance)[0]
  return best !== undefined && best.distance <= Math.max(2, Math.floor(name.length / 4)) ? ` (did you mean ${prefix}${best.candidate}?)` : ""
}

/** Reads and checks the config file: unknown keys and bad values are one line naming the key. */
export const readConfigFile = (file: string): { readonly values: Partial<Record<OptionName, unknown>>; readonly dir: string } => {
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
    throw new CliError(`config file ${file} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) throw new CliError(`config file ${file} must hold a JSON object`)
  const dir = path.dirname(path.resolve(file))
  const values: Partial<Record<OptionName, unknown>> = {}
  const known = Object.keys(optionTable)
  for (const [key, raw] of Object.entries(json)) {
    if (!Object.hasOwn(optionTable, key)) {
      throw new CliError(`config file ${file}: unknown key "${key}"${suggestion(key, known, "")}; see docs/configuration.md`)
    }
    const name = key as OptionName
    const spec = optionTable[name] as AnySpec
    const value = decodeValue(spec, raw, { kind: "file", file, key })
    values[name] = resolvePaths(spec, value, dir)
  }
  return { values, dir }
}

/** A path option's value (one path, or a list of them) resolved against `base`; other values unchanged. */
const resolvePaths = (spec: AnySpec, value: unknown, base: string): unknown =>
  spec.path !== true
    ? value
    : typeof value === "string"
      ? path.resolve(base, value)
      : Array.isArray(value)
        ? value.map((item: unknown) => (typeof item === "string" ? path.resolve(base, item) : item))
        : value

/** The parseArgs configuration of every flag in the table. */
const flagConfig = () => {
  const config: Record<string, { type: "string" | "boolean"; multiple?: boolean; short?: string }> = {
    [commandFlags.config.flag]: { type: "string" },
    [commandFlags.help.flag]: { type: "boolean", short: commandFlags.help.short },
    [commandFlags.version.flag]: { type: "boolean", short: commandFlags.version.short }
  }
  for (const [, spec] of entries) {
    if (spec.flag === undefined) continue
    config[spec.flag] = isBooleanOption(spec) ? { type: "boolean" } : { type: "string", multiple: spec.repeatable === true }
    if (spec.negation !== undefined) config[spec.negation] = { type: "boolean" }
  }
  return config
}

export interface ParsedOptions {
  readonly values: OptionValues
  /** The config file's directory, or "." without one. */
  readonly configDir: string
  /** The config file's path, when there is one (it may hold credentials: never uploaded). */
  readonly configFile?: string | undefined
  readonly help: boolean
  readonly version: boolean
}

/**
 * Flags, environment and config file to option values. Relative paths from flags and variables are
 * resolved against `cwd`, those in the file against the file's directory. Throws CliError.
 */
export const parseOptions = (
  argv: ReadonlyArray<string>,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string = process.cwd()
): ParsedOptions => {
  const config = flagConfig()
  // Non-strict: the value of a string flag may start with "--" (--browser-arg --lang=de); the checks below are ours.
  const { tokens } = parseArgs({ args: [...argv], options: config, strict: false, allowPositionals: true, tokens: true })
  const fromFlags = new Map<OptionName, unknown>()
  let configPath: string | undefined
  let help = false
  let version = false
  const byFlag = new Map<string, readonly [OptionName, AnySpec, boolean]>()
  for (const [name, spec] of entries) {
    if (spec.flag !== undefined) byFlag.set(spec.flag, [name, spec, true])
    if (spec.negation !== undefined) byFlag.set(spec.negation, [name, spec, false])
  }
  for (const token of tokens) {
    if (token.kind === "positional") throw new CliError(`unexpected argument ${shown(token.value)}; see --help`)
    if (token.kind !== "option") continue
    const known = config[token.name]
    if (known === undefined) {
      throw new CliError(`unknown option ${token.rawName}${suggestion(token.name, Object.keys(config), "--")}; see --help`)
    }
    if (known.type === "boolean" && token.value !== undefined) {
      throw new CliError(`${token.rawName} takes no value; got ${shown(token.value)}`)
    }
    if (known.type === "string" && token.value === undefined) throw new CliError(`${token.rawName} needs a value`)
    if (token.name === commandFlags.help.flag) help = true
    else if (token.name === commandFlags.version.flag) version = true
    else if (token.name === commandFlags.config.flag) configPath = token.value
    else {
      const [name, spec, positive] = byFlag.get(token.name)!
      const source: Source = { kind: "flag", name: token.name }
      if (isBooleanOption(spec)) fromFlags.set(name, positive)
      else if (spec.repeatable === true) {
        const items = (fromFlags.get(name) as Array<string> | undefined) ?? []
        fromFlags.set(name, [...items, token.value!])
      } else fromFlags.set(name, decodeValue(spec, spec.type.fromText(token.value!), source))
    }
  }
  if (help || version) return { values: defaults(cwd), configDir: defaultSettings.configDir, help, version }
  // A repeated flag's items are checked together, as the list they make.
  for (const [name, spec] of entries) {
    if (spec.repeatable === true && spec.flag !== undefined && fromFlags.has(name)) {
      fromFlags.set(name, decodeValue(spec, fromFlags.get(name), { kind: "flag", name: spec.flag }))
    }
  }

  const configFile = configPath ?? nonEmpty(env[commandFlags.config.env])
  const file = configFile === undefined ? undefined : readConfigFile(configFile)
  const values: Record<string, unknown> = {}
  for (const [name, spec] of entries) {
    const variable = spec.env === undefined ? undefined : nonEmpty(env[spec.env])
    let value: unknown
    if (fromFlags.has(name)) {
      value = fromFlags.get(name)
      value = resolvePaths(spec, value, cwd)
    } else if (variable !== undefined) {
      value = decodeValue(spec, spec.type.fromText(variable), { kind: "env", name: spec.env! })
      value = resolvePaths(spec, value, cwd)
    } else if (file !== undefined && Object.hasOwn(file.values, name)) value = file.values[name]
    else value = defaultValue(spec, cwd)
    values[name] = value
  }
  return {
    values: values as OptionValues,
    configDir: file?.dir ?? defaultSettings.configDir,
    ...(configFile !== undefined ? { configFile: path.resolve(configFile) } : {}),
    help,
    version
  }
}

/** An empty variable counts as unset. */
const nonEmpty = (value: string | undefined) => (value === undefined || value === "" ? undefined : value)

const defaultValue = (spec: AnySpec, cwd: string) =>
  spec.path === true && typeof spec.default === "string" ? path.resolve(cwd, spec.default) : spec.default

const defaults = (cwd: string): OptionValues =>
  Object.fromEntries(entries.map(([name, spec]) => [name, defaultValue(spec, cwd)])) as unknown as OptionValues

/** Settings fields that options of the same name fill unchanged; the rest are derived below. */
type SameName = Exclude<keyof Settings & OptionName, "browserArgs" | "batch" | "initScripts">

/** The same-named options whose values do not fit their Settings field: must be none (checked below). */
type Disagreeing = { [K in SameName]: [OptionValues[K]] extends [Settings[K]] ? never : K }[SameName]
const everyOptionFitsItsField: [Disagreeing] extends [never] ? true : Disagreeing = true
const sameNameKeys = Object.keys(defaultSettings).filter(
  (key): key is SameName => everyOptionFitsItsField && Object.hasOwn(optionTable, key) && key !== "browserArgs" && key !== "batch" && key !== "initScripts"
)

/**
 * The settings tools and adapters read, from the option values. An option named like a Settings field
 * fills it, so a new option is one table entry and its field; browserArgs and batch are derived.
 * Throws CliError for options that conflict (settingsConflict).
 */
export const toSettings = (values: OptionValues, configDir: string, configFile?: string): Settings => {
  const settings: Settings = {
    ...defaultSettings,
    ...(Object.fromEntries(sameNameKeys.map((key) => [key, values[key]])) as Pick<Settings, SameName>),
    configDir,
    ...(configFile !== undefined ? { configFile } : {}),
    browserArgs: values.loopbackOnly ? [...LOOPBACK_ARGS, ...values.browserArgs] : values.browserArgs,
    batch: values.batch === undefined ? defaultBatchLimits : { ...defaultBatchLimits, ...withoutUndefined(values.batch) },
    initScripts: values.initScripts.map(readInitScript),
    cdpEndpoints: values.cdpEndpoint,
    wsEndpoints: values.wsEndpoint
  }
  // Headers meant for an endpoint that is not there would silently not be sent (fail closed).
  const unmatched = unmatchedHeaderKey(settings)
  if (unmatched !== undefined) {
    const named = unmatched.includes("://") ? `the key for ${hostPortOf(unmatched)}` : JSON.stringify(unmatched.slice(0, 80))
    throw new CliError(`endpointHeaders: ${named} names none of the endpoints (${endpointKeysText(settings)}); use an endpoint's URL as given, its host:port, or "*"`)
  }
  // Options that cannot work together fail here, at start, rather than at the first launch.
  const conflict = settingsConflict(settings)
  if (conflict !== undefined) throw new CliError(`${conflict.option}: ${conflict.detail}`)
  return settings
}

/** An --init-script file, read and compiled now: a server never starts with a script it cannot run. */
const readInitScript = (file: string): InitScript => {
  let source: string
  try {
    source = fs.readFileSync(file, "utf8")
  } catch (error) {
    throw new CliError(`--init-script: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`)
  }
  const syntaxError = initScriptSyntaxError(file, source)
  if (syntaxError !== undefined) throw new CliError(`--init-script: ${syntaxError}`)
  return { file, source }
}

/** The fields that are set: the file's batch limits over the defaults. */
const withoutUndefined = <A extends object>(value: A): { [K in keyof A]?: Exclude<A[K], undefined> } =>
  Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as { [K in keyof A]?: Exclude<A[K], undefined> }

/** How the server is reached: stdio, or Streamable HTTP when a port is given. */
export interface ServeOptions {
  readonly logLevel: StderrLogger.LevelName
  /** Observation policy for calls that do not choose one; each tool's own when absent. */
  readonly observation: "default" | "none" | "failures" | undefined
  readonly http:
    | {
        readonly port: number
        readonly host: string
        readonly allowedHosts: ReadonlyArray<string> | undefined
        readonly authToken: string | undefined
        readonly idleTimeoutMs: number
        readonly maxClients: number
        readonly evictAfterMs: number
      }
    | undefined
}

/** Whether an address to bind stays on this machine: localhost, 127.0.0.0/8, ::1 (bracketed or mapped). */
export const isLoopbackHost = (host: string): boolean => {
  const bare = host.toLowerCase().replace(/^\[(.*)\]$/, "$1")
  return bare === "localhost" || bare === "::1" || /^(?:::ffff:)?127(?:\.\d{1,3}){3}$/.test(bare)
}

/**
 * Beyond loopback anyone on the network can send any Host header: the server listens there only when
 * every request must carry the token and the host names clients use are named (fail closed).
 */
const exposedWithoutGuards = (values: OptionValues): string | undefined => {
  if (values.port === undefined || isLoopbackHost(values.host)) return undefined
  const missing = [
    ...(values.authToken === undefined ? ["--auth-token TOKEN (every client must send Authorization: Bearer TOKEN)"] : []),
    ...(values.allowedHosts === undefined ? ["--allowed-hosts NAMES (the host names clients reach this server by)"] : [])
  ]
  return missing.length === 0
    ? undefined
    : `--host ${values.host} listens beyond this machine, where any program can send any Host header: add ${missing.join(" and ")}, or bind --host 127.0.0.1`
}

/** How the server is reached; throws CliError for an HTTP server that would listen beyond loopback unguarded. */
export const toServeOptions = (values: OptionValues): ServeOptions => {
  const exposed = exposedWithoutGuards(values)
  if (exposed !== undefined) throw new CliError(exposed)
  return serveOptionsOf(values)
}

const serveOptionsOf = (values: OptionValues): ServeOptions => ({
  logLevel: values.logLevel,
  observation: values.observation === "tool" ? undefined : values.observation,
  http:
    values.port === undefined
      ? undefined
      : {
          port: values.port,
          host: values.host,
          allowedHosts: values.allowedHosts,
          authToken: values.authToken,
          idleTimeoutMs: values.idleTimeout * 1000,
          maxClients: values.maxClients,
          evictAfterMs: values.clientEvictAfter * 1000
        }
})
