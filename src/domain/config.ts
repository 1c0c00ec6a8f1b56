// The server's settings: the typed values the rest of the system reads (Settings and its defaults, the
// schemas of storage state, screen rules, batch limits and the build command). The options that set
// them from flags, environment and the config file are the CLI's (src/cli/option-table.ts).
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
  /** The config file the settings came from, if any: it may hold credentials (endpointHeaders), so no upload reads it. */
  readonly configFile?: string | undefined
  readonly batch: BatchLimits
  /** The build tool's command (cwd relative to configDir); the build tool answers MM_CAPABILITY_NOT_AVAILABLE without it. */
  readonly build: BuildCommandConfig | undefined
  /** Serve one fixed tool list instead of showing tools as they become usable. */
  readonly staticTools: boolean
  /** Optional tool groups to serve. */
  readonly caps: ReadonlyArray<string>
  /** A viewport JPEG recorded with each step: never, for failed steps only (the default), or for every step. */
  readonly stepScreenshots: "off" | "failures" | "all"
  /** Running Chromiums reached over the Chrome DevTools Protocol instead of launching one (a pool with wsEndpoints). */
  readonly cdpEndpoints: ReadonlyArray<string>
  /** Playwright browser servers (`run-server`, `launchServer`) to place sessions on instead of launching a browser. */
  readonly wsEndpoints: ReadonlyArray<string>
  /**
   * Headers sent when connecting to a remote endpoint (auth tokens), by endpoint (as given, or its
   * host:port) or "*" for all. Never shown anywhere.
   */
  readonly endpointHeaders: EndpointHeaders
  /** A persistent profile, kept between sessions; without it each session gets a temporary one. */
  readonly userDataDir: string | undefined
  /** A storage-state file (Playwright's format) every session starts from. */
  readonly storageState: string | undefined
  /** The page's viewport; a device's own when a device is set, else 1280x800. */
  readonly viewportSize: ViewportSize | undefined
  /** A name from Playwright's device list to emulate (viewport, user agent, touch, scale, mobile). */
  readonly device: string | undefined
  readonly locale: string | undefined
  /** IANA time zone, e.g. "Europe/Berlin". */
  readonly timezone: string | undefined
  readonly userAgent: string | undefined
  /** Permissions granted to every origin (Playwright's names: geolocation, notifications, clipboard-read...). */
  readonly grantPermissions: ReadonlyArray<string>
  /** Scripts run in every page and frame before the page's own (--init-script), read when the server started. */
  readonly initScripts: ReadonlyArray<InitScript>
  readonly proxyServer: string | undefined
  /** Comma-separated hosts that bypass the proxy. */
  readonly proxyBypass: string | undefined
  readonly ignoreHttpsErrors: boolean
  /** Origin globs navigations and requests may reach; empty: any (unless blocked). */
  readonly allowedOrigins: ReadonlyArray<string>
  /** Origin globs navigations and requests never reach; they win over allowedOrigins. */
  readonly blockedOrigins: ReadonlyArray<string>
  /**
   * The one list of directories the server reads a user's files from on the agent's request: file: URLs
   * load under them, and mm_upload_file reads from them (besides the artifacts directory). Empty: file:
   * URLs are refused and uploads come from the artifacts directory only.
   */
  readonly allowedRoots: ReadonlyArray<string>
  /** Let navigations load data: URLs (refused by default). */
  readonly allowDataUrls: boolean
  /** A dotenv file of secrets that `type {secret: NAME}` types and that never appear in responses, logs or records. */
  readonly secrets: string | undefined
  /** How click, type and wait_for act: the direct path with Playwright's as the fallback, or Playwright's for everything. */
  readonly actionPath: "auto" | "playwright"
  /** A Playwright trace per session, each tool call a group in it: `<artifacts>/sessions/<id>/trace.zip`. */
  readonly saveTrace: boolean
  /** A video per tab of each session (needs ffmpeg): `<artifacts>/sessions/<id>/video-<tab>.webm`. */
  readonly saveVideo: boolean
  /** A HAR of each session's traffic, secrets redacted: `<artifacts>/sessions/<id>/network.har`. */
  readonly saveHar: boolean
  /** The most the recorded sessions under `<artifacts>/sessions/` may take, in MB; the oldest go first. None: unbounded. */
  readonly outputMaxMb: number | undefined
  /** A download larger than this many megabytes is stopped and deleted. */
  readonly maxDownloadMb: number
  /** One browser session every client shares (the single-session server); else each launch is a session of its own. */
  readonly sharedBrowser: boolean
  /** Open browser sessions at most. */
  readonly maxSessions: number
  /** Seconds after which a session no call used closes; 0 never. */
  readonly sessionIdleTimeout: number
  /** Each session its own browser process rather than a context in one shared browser. */
  readonly browserPerSession: boolean
  /** A client's step-memory reads (queries, prior knowledge, replays) see only its own sessions. */
  readonly privateKnowledge: boolean
}

/** An --init-script file and its source, read once when the server starts. */
export interface InitScript {
  readonly file: string
  readonly source: string
}

export interface ViewportSize {
  readonly width: number
  readonly height: number
}

/** Headers for remote endpoints: by endpoint (its URL as given, or its host:port), "*" for every one. */
export const EndpointHeaders = Schema.Record({
  key: Schema.String.pipe(Schema.minLength(1)),
  value: Schema.Record({ key: Schema.String.pipe(Schema.pattern(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/)), value: Schema.String })
})
export type EndpointHeaders = typeof EndpointHeaders.Type

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
  caps: [],
  stepScreenshots: "failures",
  cdpEndpoints: [],
  wsEndpoints: [],
  endpointHeaders: {},
  userDataDir: undefined,
  storageState: undefined,
  viewportSize: undefined,
  device: undefined,
  locale: undefined,
  timezone: undefined,
  userAgent: undefined,
  grantPermissions: [],
  initScripts: [],
  proxyServer: undefined,
  proxyBypass: undefined,
  ignoreHttpsErrors: false,
  allowedOrigins: [],
  blockedOrigins: [],
  allowedRoots: [],
  allowDataUrls: false,
  secrets: undefined,
  actionPath: "auto",
  saveTrace: false,
  saveVideo: false,
  saveHar: false,
  outputMaxMb: undefined,
  maxDownloadMb: 100,
  sharedBrowser: false,
  maxSessions: 8,
  sessionIdleTimeout: 600,
  browserPerSession: false,
  privateKnowledge: false
}
