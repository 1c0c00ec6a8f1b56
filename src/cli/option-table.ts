// The one table of options: each option's flag, environment variable, config-file key, value type,
// default and help text, from which the CLI parser (options.ts), --help (help.ts) and
// docs/configuration.md (scripts/docs-options.mjs) are all made.
import { Schema } from "effect"
import { BatchLimitsFile, BuildCommandConfig, defaultSettings, ScreenRule, StorageState } from "../domain/config.js"
import { OptionTypes, type ValueType } from "./option-types.js"

/** Where an option is listed in --help and the docs. */
export type OptionSection = "browser" | "remote" | "context" | "security" | "tools" | "server" | "http" | "file"

/** One option: its flag, environment variable and config key (the table's key), value type, default and help. */
export interface OptionSpec<A, D extends A | undefined = A | undefined> {
  readonly section: OptionSection
  readonly type: ValueType<A>
  /** The flag without "--"; none for options that only the config file holds. */
  readonly flag?: string
  /** Boolean options: a second flag that sets false (--headed for headless). */
  readonly negation?: string
  readonly env?: string
  /** The flag may repeat, each occurrence one item of the list. */
  readonly repeatable?: boolean
  /** The value is a secret: an error about it never shows it. */
  readonly secret?: boolean
  /** The value is a path: resolved against the working directory, or the config file's directory in the file. */
  readonly path?: boolean
  readonly default: D
  /** The default as the docs show it, when the value itself says too little ("auto", "none"). */
  readonly defaultText?: string
  /** One line for --help. */
  readonly help: string
  /** More for docs/configuration.md. */
  readonly details?: string
}

const option = <A, const D extends A | undefined>(spec: OptionSpec<A, D>): OptionSpec<A, D> => spec

/** The options, in the order --help and the docs list them. A new option is one entry here (and a field where it is used). */
export const optionTable = {
  headless: option({
    section: "browser",
    type: OptionTypes.boolean,
    flag: "headless",
    negation: "headed",
    env: "BWM_HEADLESS",
    default: defaultSettings.headless,
    help: "Run the browser without a window (default); --headed shows it.",
    details:
      "Headed on Linux needs a display (`DISPLAY` or `WAYLAND_DISPLAY`): without one `mm_launch` fails saying so; run the server under `xvfb-run -a` or use `--headless`."
  }),
  executablePath: option({
    section: "browser",
    type: OptionTypes.path("PATH"),
    flag: "executable-path",
    env: "BWM_EXECUTABLE_PATH",
    path: true,
    default: defaultSettings.executablePath,
    defaultText: "auto",
    help: "Chromium or Chrome binary; by default the first installed one, then Playwright's Chromium.",
    details:
      "Auto-detection tries `/usr/lib/chromium/chromium`, `/usr/bin/chromium`, `/usr/bin/chromium-browser`, `/snap/bin/chromium`, `/usr/bin/google-chrome(-stable)`, `/opt/google/chrome/chrome`, the macOS app bundles, then Playwright's own Chromium, and names them all when none exists."
  }),
  extension: option({
    section: "browser",
    type: OptionTypes.path("DIR"),
    flag: "extension",
    env: "BWM_EXTENSION",
    path: true,
    default: defaultSettings.extension,
    defaultText: "none",
    help: "Unpacked Manifest V3 extension to load."
  }),
  appUrl: option({
    section: "browser",
    type: OptionTypes.url,
    flag: "app-url",
    env: "BWM_APP_URL",
    default: defaultSettings.appUrl,
    defaultText: "none",
    help: "Home page of the web app under test."
  }),
  browserArgs: option({
    section: "browser",
    type: OptionTypes.jsonList("ARG", "--lang=de"),
    flag: "browser-arg",
    env: "BWM_BROWSER_ARGS",
    repeatable: true,
    default: defaultSettings.browserArgs,
    defaultText: "none",
    help: "Extra Chromium argument; repeatable; --browser-arg=--lang=de and --browser-arg --lang=de both work.",
    details: "The variable and the config key take a JSON array of strings."
  }),
  loopbackOnly: option({
    section: "browser",
    type: OptionTypes.boolean,
    flag: "loopback-only",
    env: "BWM_LOOPBACK_ONLY",
    default: false,
    help: "Keep every browser connection on 127.0.0.1 (host-resolver and proxy guards)."
  }),
  testIdAttribute: option({
    section: "browser",
    type: OptionTypes.text("NAME"),
    flag: "test-id-attribute",
    env: "BWM_TEST_ID_ATTRIBUTE",
    default: defaultSettings.testIdAttribute,
    help: "Attribute holding test ids, read by testId targets and list_testids."
  }),
  cdpEndpoint: option({
    section: "remote",
    type: OptionTypes.endpoints(["http:", "https:", "ws:", "wss:"], "an http(s) or ws(s) URL"),
    flag: "cdp-endpoint",
    env: "BWM_CDP_ENDPOINT",
    repeatable: true,
    default: defaultSettings.cdpEndpoints,
    defaultText: "none: launch",
    help: "Attach to a running Chromium over CDP (http://host:9222 or its ws:// URL): Browserless, a Grid node, your own Chrome; repeatable.",
    details: "Each session opens a context of its own there (isolated: no cookies of the browser's profile) and closes only that context at cleanup; the browser keeps running. Needs `--remote-debugging-port` on that browser. Several (the flag repeated, URLs separated by spaces in the variable, an array in the file) make a pool with the `--ws-endpoint` ones (docs/scale.md). See [Remote browsers](#remote-browsers)."
  }),
  wsEndpoint: option({
    section: "remote",
    type: OptionTypes.endpoints(["ws:", "wss:"], "a ws(s) URL"),
    flag: "ws-endpoint",
    env: "BWM_WS_ENDPOINT",
    repeatable: true,
    default: defaultSettings.wsEndpoints,
    defaultText: "none: launch",
    help: "Connect to a Playwright browser server (its wsEndpoint, from `playwright run-server` or launchServer); repeatable: a pool.",
    details: "The server must run the same Playwright version as this one (1.65). Cleanup closes this server's context. Several (the flag repeated, URLs separated by spaces in the variable, an array in the file) make a pool: each new session goes to the reachable one with the fewest sessions of this server, over one connection per browser server shared by its sessions (docs/scale.md)."
  }),
  endpointHeaders: option({
    section: "remote",
    type: OptionTypes.endpointHeaders,
    env: "BWM_ENDPOINT_HEADERS",
    secret: true,
    default: defaultSettings.endpointHeaders,
    defaultText: "none",
    help: 'Headers sent when connecting to the remote endpoints (auth tokens): {"Authorization": "Bearer ..."} for all, or per endpoint {"ws://host:3000/": {...}} (its URL as given, its host:port, or "*").',
    details: "JSON in the variable. Only from the environment or the config file, never from a tool call; the values never appear in responses, step records, reports or logs. A key that names none of the endpoints stops the server at start."
  }),
  userDataDir: option({
    section: "context",
    type: OptionTypes.path("DIR"),
    flag: "user-data-dir",
    env: "BWM_USER_DATA_DIR",
    path: true,
    default: defaultSettings.userDataDir,
    defaultText: "none: a temporary profile per session",
    help: "Persistent browser profile (cookies, storage, logins) kept between sessions and never deleted.",
    details:
      "Without it each session runs on a fresh temporary profile removed at cleanup. One browser at a time can use a profile: a second server on the same directory fails with `ProfileInUse`. Not with a remote browser."
  }),
  storageState: option({
    section: "context",
    type: OptionTypes.path("FILE"),
    flag: "storage-state",
    env: "BWM_STORAGE_STATE",
    path: true,
    default: defaultSettings.storageState,
    defaultText: "none",
    help: "Start each session from this storage state (cookies and localStorage, Playwright's storageState format).",
    details:
      "`mm_save_storage_state` (--caps storage) writes such files under `<artifacts>/storage-state/`. A fixture of `mm_launch` is applied on top. Not with `--user-data-dir`, whose profile keeps its own state."
  }),
  device: option({
    section: "context",
    type: OptionTypes.text("NAME"),
    flag: "device",
    env: "BWM_DEVICE",
    default: defaultSettings.device,
    defaultText: "none",
    help: 'Emulate a device of Playwright\'s list ("Pixel 7", "iPhone 15", "iPad Mini"...): viewport, user agent, touch, scale, mobile.',
    details:
      "An unknown name fails the launch with the closest names. The browser stays Chromium (an iPhone is emulated, not WebKit). Options given explicitly (`--viewport-size`, `--user-agent`, `--locale`...) win over the device's."
  }),
  viewportSize: option({
    section: "context",
    type: OptionTypes.size,
    flag: "viewport-size",
    env: "BWM_VIEWPORT_SIZE",
    default: defaultSettings.viewportSize,
    defaultText: "the device's, else 1280x800",
    help: "Viewport in CSS pixels, e.g. 1280x720; wins over the device's."
  }),
  locale: option({
    section: "context",
    type: OptionTypes.locale,
    flag: "locale",
    env: "BWM_LOCALE",
    default: defaultSettings.locale,
    defaultText: "the system's",
    help: "Locale of the pages: navigator.language, Accept-Language, Intl formats (e.g. de-DE)."
  }),
  timezone: option({
    section: "context",
    type: OptionTypes.timezone,
    flag: "timezone",
    env: "BWM_TIMEZONE",
    default: defaultSettings.timezone,
    defaultText: "the system's",
    help: "Time zone of the pages (IANA name, e.g. Europe/Berlin)."
  }),
  userAgent: option({
    section: "context",
    type: OptionTypes.text("UA"),
    flag: "user-agent",
    env: "BWM_USER_AGENT",
    default: defaultSettings.userAgent,
    defaultText: "the browser's (or the device's)",
    help: "User agent string of the pages."
  }),
  grantPermissions: option({
    section: "context",
    type: OptionTypes.commaList("LIST"),
    flag: "grant-permissions",
    env: "BWM_GRANT_PERMISSIONS",
    default: defaultSettings.grantPermissions,
    defaultText: "none",
    help: "Permissions granted to every page, comma-separated: geolocation, notifications, clipboard-read, camera...",
    details: "Playwright's names; one it does not know fails the launch naming it."
  }),
  initScripts: option({
    section: "context",
    type: OptionTypes.jsonList("FILE", "./scripts/seed.js"),
    flag: "init-script",
    env: "BWM_INIT_SCRIPTS",
    repeatable: true,
    path: true,
    default: [] as ReadonlyArray<string>,
    defaultText: "none",
    help: "JavaScript file run in every page and frame before the page's own scripts; repeat for more (in order).",
    details: "Read and compiled once when the server starts (a file that cannot be read or does not parse stops it, naming the file and line); installed in every session's context (Playwright's `addInitScript`). An error it throws in a page shows in the console lines as `uncaught: ... (--init-script FILE:LINE)`. The variable and the config key take a JSON array of paths."
  }),
  proxyServer: option({
    section: "context",
    type: OptionTypes.proxy,
    flag: "proxy-server",
    env: "BWM_PROXY_SERVER",
    default: defaultSettings.proxyServer,
    defaultText: "none",
    help: "Send the browser's traffic through this proxy (http://host:port, socks5://host:port).",
    details: "Not with `--loopback-only`, which points the browser at a closed local proxy."
  }),
  proxyBypass: option({
    section: "context",
    type: OptionTypes.text("LIST"),
    flag: "proxy-bypass",
    env: "BWM_PROXY_BYPASS",
    default: defaultSettings.proxyBypass,
    defaultText: "none",
    help: 'Hosts that skip the proxy, comma-separated (".example.com, localhost").'
  }),
  ignoreHttpsErrors: option({
    section: "context",
    type: OptionTypes.boolean,
    flag: "ignore-https-errors",
    env: "BWM_IGNORE_HTTPS_ERRORS",
    default: defaultSettings.ignoreHttpsErrors,
    help: "Accept invalid TLS certificates (self-signed test servers)."
  }),
  allowedOrigins: option({
    section: "security",
    type: OptionTypes.commaList("LIST"),
    flag: "allowed-origins",
    env: "BWM_ALLOWED_ORIGINS",
    default: defaultSettings.allowedOrigins,
    defaultText: "any",
    help: "Only these origins load, in navigations and in every request of every tab (globs: https://*.example.com, 127.0.0.1:*).",
    details:
      "A glob with a scheme matches the origin (`https://app.example.com`, `http://127.0.0.1:8080`); one without matches the host, with or without its port, on any scheme. `*` is any run of characters except `/`. A `ws:`/`wss:` URL belongs to its `http:`/`https:` origin. `mm_navigate` to another origin answers `MM_NAVIGATION_BLOCKED`; a link, a redirect hop, a popup, a subresource, a worker's or service worker's request or a page's WebSocket to one is stopped before it leaves the browser and a notice says so (docs/security.md). The loaded extension's pages are always allowed. An allow list pauses every request for a check (a round trip); --blocked-origins alone pauses only requests naming a blocked host. In a browser the server launched, other hosts also resolve to nothing (unless --browser-arg brings its own --host-resolver-rules)."
  }),
  blockedOrigins: option({
    section: "security",
    type: OptionTypes.commaList("LIST"),
    flag: "blocked-origins",
    env: "BWM_BLOCKED_ORIGINS",
    default: defaultSettings.blockedOrigins,
    defaultText: "none",
    help: "These origins never load, in navigations and requests (globs as --allowed-origins); they win over it.",
    details:
      "In a browser the server launched, a blocked origin's host (with its port when the glob names a port or a scheme) also resolves to nothing, so not even a worker's WebSocket or a preconnect reaches it (docs/security.md)."
  }),
  allowedRoots: option({
    section: "security",
    type: OptionTypes.commaList("DIRS"),
    flag: "allowed-roots",
    env: "BWM_ALLOWED_ROOTS",
    path: true,
    default: defaultSettings.allowedRoots,
    defaultText: "none: file: URLs are refused, uploads come from the artifacts directory only",
    help: "Directories the server may read your files from, comma-separated: file: URLs load under them, mm_upload_file reads from them.",
    details:
      "One list for every path the server reads from your disk on the agent's request. Without it file: URLs are refused and mm_upload_file reads from the artifacts directory only; a path outside the roots (after following symbolic links) is refused with `MM_NAVIGATION_BLOCKED` (a file: URL) or `MM_INVALID_INPUT` (an upload). `javascript:`, `view-source:` and the browser's internal pages (`chrome:`, `chrome-untrusted:`, `devtools:`) are never loaded, by `mm_navigate`, a link or `window.open`. Files tools write stay under `--artifacts-dir`."
  }),
  allowDataUrls: option({
    section: "security",
    type: OptionTypes.boolean,
    flag: "allow-data-urls",
    env: "BWM_ALLOW_DATA_URLS",
    default: defaultSettings.allowDataUrls,
    help: "Let mm_navigate, links and window.open load data: URLs (refused by default)."
  }),
  secrets: option({
    section: "security",
    type: OptionTypes.path("FILE"),
    flag: "secrets",
    env: "BWM_SECRETS",
    path: true,
    default: defaultSettings.secrets,
    defaultText: "none",
    help: "Dotenv file of secrets (NAME=value): mm_type {secret: \"NAME\"} types one; values never appear in responses, logs or records.",
    details:
      "One `NAME=value` a line; `#` comments, blank lines, `export NAME=...`, and values in single quotes (literal) or double quotes (`\\n`, `\\\"` and `\\\\` escapes) are accepted; anything else fails the start naming the line, never its value. Names are letters, digits and `_`; values have at least 3 characters (a shorter one could not be kept out of responses without mangling them). Every response, step record, export, report and log line is scrubbed of each value (also URL-encoded). See docs/security.md."
  }),
  artifactsDir: option({
    section: "tools",
    type: OptionTypes.path("DIR"),
    flag: "artifacts-dir",
    env: "BWM_ARTIFACTS_DIR",
    path: true,
    default: defaultSettings.artifactsDir,
    help: "Where the server writes: step memory, screenshots, reports, downloads, recordings (docs/artifacts.md)."
  }),
  toolPrefix: option({
    section: "tools",
    type: OptionTypes.pattern("P", /^[A-Za-z0-9_.-]{0,32}$/, 'at most 32 letters, digits, "_", "." or "-"'),
    flag: "tool-prefix",
    env: "BWM_TOOL_PREFIX",
    default: defaultSettings.toolPrefix,
    help: "Tool name prefix: P_click, ...; empty for none."
  }),
  observation: option({
    section: "tools",
    type: OptionTypes.oneOf("tool", "default", "failures", "none"),
    flag: "observation",
    env: "BWM_OBSERVATION",
    default: "tool",
    help: "Page observation after each call: each tool's own, full, full only on failure, or state only.",
    details:
      'A call can also choose with `_meta: {"browser-workflow-mcp/observation": "default" | "failures" | "none"}`.'
  }),
  staticTools: option({
    section: "tools",
    type: OptionTypes.boolean,
    flag: "static-tools",
    env: "BWM_STATIC_TOOLS",
    default: defaultSettings.staticTools,
    help: "Serve one fixed tool list with every group on, for clients that ignore tools/list_changed (docs/tools.md)."
  }),
  caps: option({
    section: "tools",
    type: OptionTypes.commaList("LIST"),
    flag: "caps",
    env: "BWM_CAPS",
    default: defaultSettings.caps,
    defaultText: "none",
    help: "Opt-in tool groups to serve, comma-separated (all for every one): debugger, devtools (network log and mocks), evaluate, testing (expect), pdf (save_pdf), storage (save_storage_state, storage), emulation (emulate)."
  }),
  stepScreenshots: option({
    section: "tools",
    type: OptionTypes.oneOf("off", "failures", "all"),
    flag: "step-screenshots",
    env: "BWM_STEP_SCREENSHOTS",
    default: defaultSettings.stepScreenshots,
    help: "A small viewport JPEG recorded with each step, for the session report: off, failures (default) or all."
  }),
  saveTrace: option({
    section: "tools",
    type: OptionTypes.boolean,
    flag: "save-trace",
    env: "BWM_SAVE_TRACE",
    default: defaultSettings.saveTrace,
    help: "Record a Playwright trace per session (<artifacts>/sessions/<id>/trace.zip), each tool call a named group; open it with npx playwright show-trace.",
    details:
      "DOM snapshots, screenshots and network of every action, grouped by tool call (`mm_click e12`). Written when the session ends (mm_cleanup, a new launch, the server closing), with every `--secrets` value and every password field's value replaced by a marker. See docs/artifacts.md."
  }),
  saveVideo: option({
    section: "tools",
    type: OptionTypes.boolean,
    flag: "save-video",
    env: "BWM_SAVE_VIDEO",
    default: defaultSettings.saveVideo,
    help: "Record a video of each tab (<artifacts>/sessions/<id>/video-<tab>.webm); needs ffmpeg.",
    details:
      "The frames are encoded by ffmpeg: the first of `ffmpeg` on the PATH, /usr/bin/ffmpeg, /usr/local/bin/ffmpeg, /opt/homebrew/bin/ffmpeg, and Playwright's own (`npx playwright install ffmpeg`). Without one `mm_launch` fails with `MM_LAUNCH_FAILED` saying what to install (Debian/Ubuntu: `apt-get install -y ffmpeg`; `npm run ensure-browser` installs it as root). A video shows the page as drawn: a password field's dots, but a secret typed into a plain text field as its characters."
  }),
  saveHar: option({
    section: "tools",
    type: OptionTypes.boolean,
    flag: "save-har",
    env: "BWM_SAVE_HAR",
    default: defaultSettings.saveHar,
    help: "Record a HAR of each session's traffic (<artifacts>/sessions/<id>/network.har), secrets redacted.",
    details:
      "Bodies embedded. Finished when the session ends: every `--secrets` value and every value typed into a password field is replaced by a marker, and credential headers (Authorization, Cookie, Set-Cookie, token and key headers) and cookie values are blanked, before the file appears (written atomically)."
  }),
  outputMaxMb: option({
    section: "tools",
    type: OptionTypes.integer(1, 1_000_000),
    flag: "output-max-mb",
    env: "BWM_OUTPUT_MAX_MB",
    default: defaultSettings.outputMaxMb,
    defaultText: "none: unbounded",
    help: "Bound what the server writes under the artifacts directory to this many MB: the oldest downloads, screenshots, PDFs, reports and sessions' recordings are removed first, never a running session's.",
    details:
      "Checked when a session starts and when one ends. Everything the server writes counts; the step memory (llm-knowledge/), saved storage states (storage-state/) and files being written count but are never removed, and a file of a session still running (its screenshots, PDFs, downloads, recordings) is never touched, so the directory may exceed the bound until they end. Files and folders of your own are neither counted nor removed (docs/artifacts.md)."
  }),
  maxDownloadMb: option({
    section: "tools",
    type: OptionTypes.integer(1, 100_000),
    flag: "max-download-mb",
    env: "BWM_MAX_DOWNLOAD_MB",
    default: defaultSettings.maxDownloadMb,
    help: "A download larger than this (MB) is stopped and its file deleted, with a notice.",
    details:
      "Every download a call starts (a link, an attachment response, a blob: or data: URL, window.open or mm_navigate to a file) is saved under `<artifacts>/downloads/` with a name that never replaces another file; the call's answer lists it (`download: {name, path, bytes, sha256, mime}`) and `mm_downloads` lists the session's. See docs/tools.md, \"Downloads\"."
  }),
  actionPath: option({
    section: "browser",
    type: OptionTypes.oneOf("auto", "playwright"),
    flag: "action-path",
    env: "BWM_ACTION_PATH",
    default: defaultSettings.actionPath,
    help: "How click, type, press_key on a target and wait_for act: auto (one page check, real input, a guard that confirms it; else Playwright's) or playwright (Playwright's actions only).",
    details:
      "`auto` reports success only when the page saw the first trusted event of the input reach the target; anything uncertain goes to Playwright's action before any input, and an input whose outcome stays unknown answers `MM_ACTION_UNCONFIRMED` (see docs/architecture.md, \"Acting on an element\"). `playwright` is slower on every action and never answers that code."
  }),
  maxSessions: option({
    section: "server",
    type: OptionTypes.integer(1, 1_000),
    flag: "max-sessions",
    env: "BWM_MAX_SESSIONS",
    default: defaultSettings.maxSessions,
    help: "At most this many browser sessions open at once; a launch beyond answers MM_SESSION_LIMIT.",
    details:
      "The error names the caller's open sessions and how to close one (`mm_cleanup {session}`). A session whose browser closed or crashed does not count. A fan-out replay's runs (`mm_replay {runs}`) wait for a free place instead, in turn, while the call's deadline allows."
  }),
  sessionIdleTimeout: option({
    section: "server",
    type: OptionTypes.integer(0, 86_400),
    flag: "session-idle-timeout",
    env: "BWM_SESSION_IDLE_TIMEOUT",
    default: defaultSettings.sessionIdleTimeout,
    help: "Seconds after which a browser session no call used closes (its context or browser and profile; listing tools is no call); 0 never.",
    details:
      "This lease is what closes the sessions of a client that went away without `mm_cleanup`: an HTTP client leaving does not close them at once, since another client may go on with one by its id."
  }),
  browserPerSession: option({
    section: "server",
    type: OptionTypes.boolean,
    flag: "browser-per-session",
    env: "BWM_BROWSER_PER_SESSION",
    default: defaultSettings.browserPerSession,
    help: "Give every session a browser process of its own instead of a context in one shared browser.",
    details:
      "By default sessions are contexts (own cookies, storage, pages) of one browser process; an extension, `--user-data-dir` or a launch with `slowMo` gets a browser of its own anyway."
  }),
  sharedBrowser: option({
    section: "server",
    type: OptionTypes.boolean,
    flag: "shared-browser",
    env: "BWM_SHARED_BROWSER",
    default: defaultSettings.sharedBrowser,
    help: "One browser session that every client shares, instead of sessions of their own.",
    details:
      "Every call goes to that one session; `mm_launch` while it runs answers `MM_SESSION_ALREADY_RUNNING` unless `force`, and `mm_sessions` lists it to every client. No idle lease applies."
  }),
  privateKnowledge: option({
    section: "server",
    type: OptionTypes.boolean,
    flag: "private-knowledge",
    env: "BWM_PRIVATE_KNOWLEDGE",
    default: defaultSettings.privateKnowledge,
    help: "Limit a client's step-memory reads (queries, listings, prior knowledge, replays) to the sessions it launched or named by id.",
    details: "A session id is a capability: naming it in any call (a `session` argument, or the step-memory query or export itself) lets the client read that session too; an id it never named reads as unknown. By default a server's clients share one step history, so one agent learns from another's steps (another client's live session shows there once it ends)."
  }),
  logLevel: option({
    section: "server",
    type: OptionTypes.oneOf("debug", "info", "warning", "error", "none"),
    flag: "log-level",
    env: "BWM_LOG_LEVEL",
    default: "info",
    help: "Logs go to stderr only."
  }),
  port: option({
    section: "http",
    type: OptionTypes.integer(0, 65535),
    flag: "port",
    env: "BWM_PORT",
    default: undefined,
    defaultText: "none: stdio",
    help: "Serve MCP over Streamable HTTP on this port (at /mcp) instead of stdio; 0 picks a free one.",
    details: "The server prints `listening on http://HOST:PORT/mcp` to stderr once it accepts connections."
  }),
  host: option({
    section: "http",
    type: OptionTypes.text("HOST"),
    flag: "host",
    env: "BWM_HOST",
    default: "127.0.0.1",
    help: "Address the HTTP server binds to.",
    details:
      "Beyond loopback (not localhost, 127.x.x.x or ::1) the server starts only with both --auth-token and --allowed-hosts (else it exits with code 2 saying what to add): anyone on the network can send any Host header. stderr names the address really bound (`listening on http://0.0.0.0:PORT/mcp (this machine: http://127.0.0.1:PORT/mcp)`)."
  }),
  allowedHosts: option({
    section: "http",
    type: OptionTypes.commaList("LIST"),
    flag: "allowed-hosts",
    env: "BWM_ALLOWED_HOSTS",
    default: undefined,
    defaultText: "the bound host, localhost, 127.0.0.1, [::1]",
    help: "Host names accepted in the Host and Origin headers (DNS-rebinding guard); * accepts any.",
    details: "A request whose `Host`, or whose `Origin` when it has one, names another host gets 403. Ports are not compared."
  }),
  authToken: option({
    section: "http",
    type: OptionTypes.text("TOKEN"),
    flag: "auth-token",
    env: "BWM_AUTH_TOKEN",
    default: undefined,
    defaultText: "none",
    help: "Require the header Authorization: Bearer TOKEN on every HTTP request (401 without it)."
  }),
  idleTimeout: option({
    section: "http",
    type: OptionTypes.integer(0, 86_400),
    flag: "idle-timeout",
    env: "BWM_IDLE_TIMEOUT",
    default: 1800,
    help: "Seconds after which an HTTP client (MCP session) that sent nothing is closed; 0 never. Its browser sessions stay until their own lease (--session-idle-timeout)."
  }),
  maxClients: option({
    section: "http",
    type: OptionTypes.integer(1, 10_000),
    flag: "max-clients",
    env: "BWM_MAX_CLIENTS",
    default: 64,
    help: "At most this many HTTP clients (MCP sessions) at once; closed ones (DELETE, --idle-timeout) do not count.",
    details: "At the limit a new client takes the place of the least recently active one idle (nothing in flight) for --client-evict-after; only when none is gets an initialize 503 with a JSON-RPC error saying so, and no session."
  }),
  clientEvictAfter: option({
    section: "http", type: OptionTypes.integer(0, 86_400), flag: "client-evict-after", env: "BWM_CLIENT_EVICT_AFTER", default: 30,
    help: "Seconds an HTTP client must have been idle, with no call in flight, before a new client may take its place at --max-clients (its browser sessions stay, reachable by id; stderr logs it)."
  }),
  screens: option({
    section: "file",
    type: OptionTypes.structure(
      Schema.Struct({
        home: Schema.optional(Schema.String),
        settings: Schema.optional(Schema.String),
        notification: Schema.optional(Schema.String)
      }),
      "{home, settings, notification}"
    ),
    default: defaultSettings.screens,
    defaultText: "none",
    help: "Where mm_navigate goes for home, settings and notification."
  }),
  screenRules: option({
    section: "file",
    type: OptionTypes.structure(Schema.Array(ScreenRule), "[{screen, testId | selector | urlPattern}]"),
    default: defaultSettings.screenRules,
    defaultText: "none",
    help: "How the page's screen (state.screen) is named: the first rule that matches."
  }),
  fixtures: option({
    section: "file",
    type: OptionTypes.structure(
      Schema.Record({ key: Schema.String, value: Schema.Union(Schema.String, StorageState) }),
      "{name: storage state | path}"
    ),
    default: defaultSettings.fixtures,
    defaultText: "none",
    help: "Storage states by name, inline or as a path to a JSON file."
  }),
  batch: option({
    section: "file",
    type: OptionTypes.structure(BatchLimitsFile, "{maxSteps, maxAggregateChars, defaultTimeoutMs, toolLimits}"),
    default: undefined,
    defaultText: "50 steps, 200000 chars, 45 s",
    help: "Limits of mm_run_steps (docs/batch.md)."
  }),
  build: option({
    section: "file",
    type: OptionTypes.structure(BuildCommandConfig, "{command, cwd?, timeoutMs?}"),
    default: defaultSettings.build,
    defaultText: "none",
    help: "The command mm_build runs; without it mm_build answers MM_CAPABILITY_NOT_AVAILABLE."
  })
}

export type OptionTable = typeof optionTable
export type OptionName = keyof OptionTable
/** Every option's value after flags, environment, config file and defaults. */
export type OptionValues = { readonly [K in OptionName]: OptionTable[K] extends OptionSpec<infer A, infer D> ? A | D : never }

/** The JSON config file (`--config FILE`): every option of the table, each optional. */
export const ConfigFile = Schema.Struct(
  Object.fromEntries(Object.entries(optionTable).map(([key, spec]) => [key, Schema.optional(spec.type.schema as Schema.Schema<unknown, any>)]))
) as unknown as Schema.Schema<Partial<OptionValues>, Record<string, unknown>>
export type ConfigFile = Partial<OptionValues>
