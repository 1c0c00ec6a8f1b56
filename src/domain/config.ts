// The server's settings: one typed value built once from flags, environment and the config file.
import { Schema } from "effect"

export const ScreenRule = Schema.Struct({
  screen: Schema.String.annotations({ description: "Screen name reported as currentScreen." }),
  testId: Schema.optional(Schema.String).annotations({ description: "Matches when a visible element has this test id." }),
  selector: Schema.optional(Schema.String).annotations({ description: "Matches when a visible element matches this CSS selector." }),
  urlPattern: Schema.optional(Schema.String).annotations({ description: "Matches when the URL matches this regular expression." })
})
export type ScreenRule = typeof ScreenRule.Type

/** Playwright-style storage state: cookies and per-origin localStorage. */
export const StorageState = Schema.Struct({
  cookies: Schema.optionalWith(
    Schema.Array(
      Schema.Struct({
        name: Schema.String,
        value: Schema.String,
        domain: Schema.optional(Schema.String),
        path: Schema.optional(Schema.String),
        url: Schema.optional(Schema.String),
        expires: Schema.optional(Schema.Number),
        httpOnly: Schema.optional(Schema.Boolean),
        secure: Schema.optional(Schema.Boolean),
        sameSite: Schema.optional(Schema.Literal("Strict", "Lax", "None"))
      })
    ),
    { default: () => [] }
  ),
  origins: Schema.optionalWith(
    Schema.Array(
      Schema.Struct({
        origin: Schema.String,
        localStorage: Schema.Array(Schema.Struct({ name: Schema.String, value: Schema.String }))
      })
    ),
    { default: () => [] }
  )
}).annotations({ description: "Storage state: cookies and localStorage entries per origin (Playwright's storageState format)." })
export type StorageState = typeof StorageState.Type

/** Safety limits of mm_run_steps, from the config file's `batch` key. */
export const BatchLimitsFile = Schema.Struct({
  maxSteps: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1, 500))),
  maxAggregateChars: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.greaterThanOrEqualTo(1_000))),
  defaultTimeoutMs: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1_000, 300_000))),
  toolLimits: Schema.optional(
    Schema.Record({
      key: Schema.String,
      value: Schema.Struct({
        maxSteps: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(0, 500))),
        timeoutMs: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(100, 300_000)))
      })
    })
  )
})

export interface BatchLimits {
  /** Most steps one batch may hold. */
  readonly maxSteps: number
  /** Most characters of step results one batch returns; later results are truncated with a warning. */
  readonly maxAggregateChars: number
  /** The batch deadline when the call gives none. */
  readonly defaultTimeoutMs: number
  /** Per tool (bare name): how often it may appear in one batch, and its default step timeout. */
  readonly toolLimits: Readonly<Record<string, { readonly maxSteps?: number | undefined; readonly timeoutMs?: number | undefined }>>
}

export const defaultBatchLimits: BatchLimits = {
  maxSteps: 50,
  maxAggregateChars: 200_000,
  defaultTimeoutMs: 45_000,
  toolLimits: {}
}

/** The config file's build command: what the build tool runs (the Build capability of the CLI). */
export const BuildCommandConfig = Schema.Struct({
  command: Schema.String.pipe(Schema.minLength(1)).annotations({ description: "Shell command, e.g. \"npm run build:test\"." }),
  cwd: Schema.optional(Schema.String).annotations({ description: "Directory to run it in, relative to the config file." }),
  timeoutMs: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1_000, 1_800_000))).annotations({
    description: "Kill the build after this many milliseconds (default 600000)."
  })
})
export type BuildCommandConfig = typeof BuildCommandConfig.Type

/** The JSON config file (`--config FILE`); every field optional. */
export const ConfigFile = Schema.Struct({
  headless: Schema.optional(Schema.Boolean),
  executablePath: Schema.optional(Schema.String),
  extension: Schema.optional(Schema.String),
  appUrl: Schema.optional(Schema.String),
  artifactsDir: Schema.optional(Schema.String),
  toolPrefix: Schema.optional(Schema.String),
  browserArgs: Schema.optional(Schema.Array(Schema.String)),
  testIdAttribute: Schema.optional(Schema.String),
  screens: Schema.optional(
    Schema.Struct({
      home: Schema.optional(Schema.String),
      settings: Schema.optional(Schema.String),
      notification: Schema.optional(Schema.String)
    })
  ),
  screenRules: Schema.optional(Schema.Array(ScreenRule)),
  fixtures: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Union(Schema.String, StorageState) })),
  batch: Schema.optional(BatchLimitsFile),
  build: Schema.optional(BuildCommandConfig),
  staticTools: Schema.optional(Schema.Boolean),
  caps: Schema.optional(Schema.Array(Schema.String))
})
export type ConfigFile = typeof ConfigFile.Type

export interface Settings {
  readonly headless: boolean
  readonly executablePath: string | undefined
  readonly extension: string | undefined
  readonly appUrl: string | undefined
  readonly artifactsDir: string
  readonly toolPrefix: string
  readonly browserArgs: ReadonlyArray<string>
  readonly testIdAttribute: string
  readonly screens: { readonly home?: string | undefined; readonly settings?: string | undefined; readonly notification?: string | undefined }
  readonly screenRules: ReadonlyArray<ScreenRule>
  /** Fixture name to storage state, or to a path of a storage-state JSON file (relative to the config file). */
  readonly fixtures: Readonly<Record<string, StorageState | string>>
  readonly configDir: string
  readonly batch: BatchLimits
  /** The build tool's command (cwd relative to configDir); the build tool answers MM_CAPABILITY_NOT_AVAILABLE without it. */
  readonly build: BuildCommandConfig | undefined
  /** One fixed tool list with every group on, for MCP clients that ignore notifications/tools/list_changed. */
  readonly staticTools: boolean
  /** Opt-in tool groups to serve (e.g. "debugger"; "all" for every one). */
  readonly caps: ReadonlyArray<string>
}

export const defaultSettings: Settings = {
  headless: true,
  executablePath: undefined,
  extension: undefined,
  appUrl: undefined,
  artifactsDir: "./test-artifacts",
  toolPrefix: "mm",
  browserArgs: [],
  testIdAttribute: "data-testid",
  screens: {},
  screenRules: [],
  fixtures: {},
  configDir: ".",
  batch: defaultBatchLimits,
  build: undefined,
  staticTools: false,
  caps: []
}
