// Everything decided before the browser starts: which executable, which arguments, which extension,
// which browser (launched, or reached over CDP or a Playwright server), and the page settings.
import { createHash } from "node:crypto"
import { existsSync } from "node:fs"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { Effect } from "effect"
import type { Settings } from "../../../domain/config.js"
import { InvalidConfig, LaunchFailed } from "../../../domain/errors.js"
import { editDistance } from "../../../domain/edit-distance.js"
import { remoteOption } from "./endpoints.js"

/** System browsers we look for, in order, when no executable path is configured. */
export const EXECUTABLE_CANDIDATES: ReadonlyArray<string> = [
  "/usr/lib/chromium/chromium",
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/snap/bin/chromium",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
  "/opt/google/chrome/chrome",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
  "/Applications/Chromium.app/Contents/MacOS/Chromium"
]

/**
 * The browser binary: the configured one, else the first system Chromium or Chrome found, else
 * Playwright's own Chromium when it was downloaded. The error names everything it tried.
 */
export const resolveExecutable = (configured: string | undefined, playwrightOwn: () => string) =>
  Effect.gen(function* () {
    if (configured !== undefined) {
      if (existsSync(configured)) return configured
      return yield* new LaunchFailed({
        reason: "ExecutableNotFound",
        detail: `the configured executable ${configured} does not exist. Fix --executable-path or BWM_EXECUTABLE_PATH.`
      })
    }
    const found = EXECUTABLE_CANDIDATES.find((candidate) => existsSync(candidate))
    if (found !== undefined) return found
    // Playwright throws when its own browser was never downloaded; that only means there is none.
    const bundled = yield* Effect.try(playwrightOwn).pipe(Effect.orElseSucceed(() => ""))
    if (bundled !== "" && existsSync(bundled)) return bundled
    return yield* new LaunchFailed({
      reason: "ExecutableNotFound",
      detail: `no Chromium or Chrome found. Tried: ${[...EXECUTABLE_CANDIDATES, bundled || "Playwright's bundled Chromium"].join(", ")}. Install one: Debian/Ubuntu apt-get install -y chromium, or Playwright's build with npx playwright install chromium (add --with-deps on a bare system); or pass --executable-path.`
    })
  })

/** The closed local proxy of LOOPBACK_ARGS: a page on any other host fails as net::ERR_PROXY_CONNECTION_FAILED. */
export const LOOPBACK_PROXY_ARG = "--proxy-server=http://127.0.0.1:9"

/**
 * Keeps every connection on this machine: names other than 127.0.0.1 do not resolve, and anything that
 * still tries goes to a closed local proxy port. Used by --loopback-only, the tests, the demo and the benchmarks.
 */
export const LOOPBACK_ARGS: ReadonlyArray<string> = [
  "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
  LOOPBACK_PROXY_ARG,
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--no-sandbox"
]

/** Flags every launch gets: no first-run UI, no background traffic, and no sandbox when running as root. */
export const baseBrowserArgs = (): ReadonlyArray<string> => {
  const args = ["--no-first-run", "--no-default-browser-check", "--disable-background-networking", "--disable-component-update"]
  if (typeof process.getuid === "function" && process.getuid() === 0) args.push("--no-sandbox")
  return args
}

/**
 * Playwright's own --disable-features list (playwright 1.65.1, its chromiumSwitches), which it puts before
 * the arguments we pass. Chromium keeps only the last --disable-features switch, so a second one replaces
 * this list rather than adding to it: `withDisabledFeatures` passes it again beside ours.
 * test/session/browser-args.test.ts reads the list the installed Playwright passes and fails when it moved.
 */
export const PLAYWRIGHT_DISABLED_FEATURES: ReadonlyArray<string> = [
  "AvoidUnnecessaryBeforeUnloadCheckSync",
  "DestroyProfileOnBrowserClose",
  "HttpsUpgrades",
  "HttpsFirstBalancedModeAutoEnable",
  "LensOverlay",
  "MediaRouter",
  "PaintHolding",
  "ThirdPartyStoragePartitioning",
  "AvoidCorsURLLoaderRestartOnRedirect",
  "TcpPortRandomizationWin",
  "OptimizationHints",
  "NetworkTimeServiceQuerying",
  "AimEnabled",
  "PreconnectToSearch",
  "msForceBrowserSignIn",
  "msEdgeUpdateLaunchServicesPreferredVersion"
]

/**
 * Features of ours off in every browser we launch. The omnibox popup (a WebUI page,
 * chrome://omnibox-popup.top-chrome/, and its AI-mode variant): where a field trial has it on, Chromium
 * preloads it for every browser window, in a renderer process of its own per profile, and every session's context (a profile of its own)
 * opens a window: about 155 MB RSS (35 to 40 MB private) per session, half of what a session cost, for a popup an
 * automated browser never opens. Off, a headed browser's address bar falls back to its native popup; pages,
 * contexts and their isolation are untouched (each context keeps its own renderers and storage).
 */
export const OUR_DISABLED_FEATURES: ReadonlyArray<string> = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup"]

const DISABLE_FEATURES = "--disable-features="

/**
 * The arguments with one --disable-features switch: Playwright's list, ours, and any in `args` (from
 * --browser-arg) merged, since Chromium would keep only the last switch given.
 */
export const withDisabledFeatures = (args: ReadonlyArray<string>): Array<string> => {
  const given = args.filter((arg) => arg.startsWith(DISABLE_FEATURES)).flatMap((arg) => arg.slice(DISABLE_FEATURES.length).split(","))
  const features = [...new Set([...PLAYWRIGHT_DISABLED_FEATURES, ...OUR_DISABLED_FEATURES, ...given])].filter((feature) => feature !== "")
  return [...args.filter((arg) => !arg.startsWith(DISABLE_FEATURES)), `${DISABLE_FEATURES}${features.join(",")}`]
}

export interface ExtensionInfo {
  readonly dir: string
  readonly id: string
  readonly name: string
  readonly version: string
  readonly manifestVersion: number
  /** Extension-relative path of the page to open as home (popup or options), if the manifest has one. */
  readonly homePath: string | undefined
  /** Extension-relative path of the action popup page, if the manifest declares one. */
  readonly popupPath: string | undefined
  readonly hasServiceWorker: boolean
}

/** Chromium's id for an unpacked extension: sha256 of its key or real path, 32 hex digits mapped 0-f to a-p. */
export const extensionIdFrom = (material: Buffer | string): string =>
  createHash("sha256")
    .update(material)
    .digest("hex")
    .slice(0, 32)
    .replace(/[0-9a-f]/g, (digit) => String.fromCharCode(97 + parseInt(digit, 16)))

/** Reads and checks an unpacked extension: it must exist and be Manifest V3. */
export const inspectExtension = (dir: string) =>
  Effect.gen(function* () {
    const absolute = path.resolve(dir)
    const real = yield* Effect.tryPromise({
      try: () => fs.realpath(absolute),
      catch: () =>
        new LaunchFailed({ reason: "ExtensionNotFound", detail: `extension directory ${absolute} does not exist.` })
    })
    const text = yield* Effect.tryPromise({
      try: () => fs.readFile(path.join(real, "manifest.json"), "utf8"),
      catch: () =>
        new LaunchFailed({ reason: "ExtensionNotFound", detail: `${real} has no manifest.json; point --extension at an unpacked extension.` })
    })
    const manifest = yield* Effect.try({
      try: () => JSON.parse(text) as Record<string, any>,
      catch: (error) =>
        new LaunchFailed({ reason: "InvalidManifest", detail: `${real}/manifest.json is not valid JSON: ${String(error)}` })
    })
    const manifestVersion = Number(manifest.manifest_version)
    if (manifestVersion !== 3) {
      return yield* new LaunchFailed({
        reason: "UnsupportedManifest",
        detail: `${real} is a Manifest V${Number.isFinite(manifestVersion) ? manifestVersion : "?"} extension; Chromium only loads Manifest V3 extensions. Migrate it to manifest_version 3.`
      })
    }
    const id = typeof manifest.key === "string" ? extensionIdFrom(Buffer.from(manifest.key, "base64")) : extensionIdFrom(real)
    const homePath: string | undefined =
      manifest.action?.default_popup ?? manifest.options_ui?.page ?? manifest.options_page ?? undefined
    const info: ExtensionInfo = {
      dir: real,
      id,
      name: String(manifest.name ?? path.basename(real)),
      version: String(manifest.version ?? "0"),
      manifestVersion,
      homePath: homePath?.replace(/^\//, ""),
      popupPath: typeof manifest.action?.default_popup === "string" ? manifest.action.default_popup.replace(/^\//, "") : undefined,
      hasServiceWorker: typeof manifest.background?.service_worker === "string"
    }
    return info
  })

/** A URL for a configured screen: absolute URLs as they are, paths relative to the extension or the app. */
export const resolveScreenUrl = (
  value: string,
  extension: ExtensionInfo | undefined,
  appUrl: string | undefined
): string | undefined => {
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) return value
  if (extension !== undefined) return `chrome-extension://${extension.id}/${value.replace(/^\//, "")}`
  if (appUrl !== undefined) return new URL(value, appUrl).toString()
  return undefined
}

/** How much of Playwright's own account of a failed launch goes into the error. */
const LAUNCH_DETAIL_LIMIT = 700

/** True on a Linux machine where a headed browser has nowhere to show: no X server and no Wayland. */
export const lacksDisplay = (env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): boolean =>
  platform === "linux" && !env.DISPLAY && !env.WAYLAND_DISPLAY

/** Box-drawing characters and colour codes of Playwright's hint boxes and call logs. */
const decoration = /[\u2500-\u257f]|\u001b\[[0-9;]*m/g

/**
 * Why a browser did not start, from Playwright's error: its first line, the hint box it prints (a
 * missing X server, missing system libraries), and the browser's own error lines; bounded.
 */
export const launchFailureDetail = (error: unknown, options: { readonly headless: boolean }): string => {
  const text = error instanceof Error ? error.message : String(error)
  const lines = text.split("\n")
  const first = (lines[0] ?? "").replace(/^[\w.]+: /, "")
  const hint: Array<string> = []
  const browserErrors: Array<string> = []
  let exit: string | undefined
  let inBox = false
  for (const raw of lines.slice(1)) {
    const line = raw.replace(decoration, "").trim()
    if (raw.includes("\u2554")) inBox = true
    else if (raw.includes("\u255a")) inBox = false
    else if (inBox && line !== "" && !line.startsWith("<3")) hint.push(line)
    // Chromium's own error lines in the call log: "[pid=1][err] [1:1:...:ERROR:file.cc:257] Missing X server or $DISPLAY".
    const browserError = /\[err\].*?(?:ERROR|FATAL):[^\]]*\]\s*(.+)$/.exec(line)
    if (browserError?.[1] !== undefined && !/dbus|bus\.cc/i.test(line) && !browserErrors.includes(browserError[1])) browserErrors.push(browserError[1])
    const exited = /process did exit: exitCode=(\w+), signal=(\w+)/.exec(line)
    if (exited !== null) exit = exited[2] !== "null" ? `the browser process was killed by ${exited[2]}` : `the browser process exited with code ${exited[1]}`
  }
  const parts = [first, hint.join(" "), browserErrors.slice(0, 3).join("; "), exit ?? ""].filter((part) => part !== "")
  const ours =
    !options.headless && lacksDisplay()
      ? "No display: the server runs Chromium headed (--headed) but neither DISPLAY nor WAYLAND_DISPLAY is set. Start the server with --headless, or under a virtual display: xvfb-run -a browser-workflow-mcp --headed ..."
      : undefined
  const detail = parts.join(" | ")
  const bounded = detail.length > LAUNCH_DETAIL_LIMIT ? `${detail.slice(0, LAUNCH_DETAIL_LIMIT)}...` : detail
  return ours === undefined ? bounded : `${ours} (Playwright: ${bounded})`
}

/** The viewport of a session without a device or --viewport-size. */
export const DEFAULT_VIEWPORT = { width: 1280, height: 800 } as const

/** One entry of Playwright's device list (`playwright.devices`). */
export interface DeviceDescriptor {
  readonly viewport: { readonly width: number; readonly height: number }
  readonly screen?: { readonly width: number; readonly height: number } | undefined
  readonly userAgent: string
  readonly deviceScaleFactor: number
  readonly isMobile: boolean
  readonly hasTouch: boolean
  readonly defaultBrowserType?: string | undefined
}

/** A device name without case, spaces and punctuation: "iphone15pro" for "iPhone 15 Pro". */
const deviceKey = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, "")

/**
 * The device of that name in Playwright's list: exactly, or ignoring case, spaces and punctuation
 * ("pixel-7" is "Pixel 7"). An unknown name fails naming --device and the closest names.
 */
export const findDevice = (name: string, devices: Readonly<Record<string, DeviceDescriptor>>) =>
  Effect.gen(function* () {
    const exact = devices[name]
    if (exact !== undefined && Object.hasOwn(devices, name)) return { name, descriptor: exact }
    const key = deviceKey(name)
    const names = Object.keys(devices)
    const same = names.find((candidate) => deviceKey(candidate) === key)
    if (same !== undefined) return { name: same, descriptor: devices[same]! }
    const close = names
      .map((candidate) => {
        const other = deviceKey(candidate)
        // A name that contains what was typed ("pixel" in "Pixel 7") is as close as a small typo.
        return { candidate, distance: key !== "" && other.includes(key) ? 1 : editDistance(key, other) }
      })
      .sort((a, b) => a.distance - b.distance || a.candidate.length - b.candidate.length)
      .filter((entry, index) => index < 5 && entry.distance <= Math.max(3, Math.floor(key.length / 2)))
      .map((entry) => `"${entry.candidate}"`)
    return yield* new InvalidConfig({
      source: "--device",
      detail: `"${name.slice(0, 60)}" is not in Playwright's device list; ${close.length > 0 ? `closest: ${close.join(", ")}` : `it has ${names.length} devices, e.g. "Pixel 7", "iPhone 15", "iPad Mini", "Desktop Chrome"`}.`
    })
  })

/** The page settings of a context: what Playwright's launchPersistentContext and newContext both take. */
export interface ContextOptions {
  readonly viewport: { readonly width: number; readonly height: number }
  readonly screen?: { readonly width: number; readonly height: number }
  readonly deviceScaleFactor?: number
  readonly isMobile?: boolean
  readonly hasTouch?: boolean
  readonly userAgent?: string
  readonly locale?: string
  readonly timezoneId?: string
  readonly ignoreHTTPSErrors?: boolean
  readonly proxy?: { readonly server: string; readonly bypass?: string }
}

/**
 * The context options of the settings: the device's as a base, then every option set explicitly
 * (so --viewport-size wins over the device's viewport, --user-agent over its user agent).
 */
export const contextOptionsFor = (
  settings: Pick<
    Settings,
    "viewportSize" | "userAgent" | "locale" | "timezone" | "ignoreHttpsErrors" | "proxyServer" | "proxyBypass"
  >,
  device: DeviceDescriptor | undefined
): ContextOptions => {
  const viewport = settings.viewportSize ?? device?.viewport ?? DEFAULT_VIEWPORT
  return {
    viewport: { width: viewport.width, height: viewport.height },
    // A device's screen belongs with its own viewport; with another viewport Playwright takes the viewport.
    ...(device?.screen !== undefined && settings.viewportSize === undefined ? { screen: { ...device.screen } } : {}),
    ...(device !== undefined
      ? { deviceScaleFactor: device.deviceScaleFactor, isMobile: device.isMobile, hasTouch: device.hasTouch, userAgent: device.userAgent }
      : {}),
    ...(settings.userAgent !== undefined ? { userAgent: settings.userAgent } : {}),
    ...(settings.locale !== undefined ? { locale: settings.locale } : {}),
    ...(settings.timezone !== undefined ? { timezoneId: settings.timezone } : {}),
    ...(settings.ignoreHttpsErrors ? { ignoreHTTPSErrors: true } : {}),
    ...(settings.proxyServer !== undefined
      ? { proxy: { server: settings.proxyServer, ...(settings.proxyBypass !== undefined ? { bypass: settings.proxyBypass } : {}) } }
      : {})
  }
}

/**
 * An endpoint as it may be shown or logged: scheme, host and port only. Hosted browsers put their API
 * token in the query (or the path), which must never reach an error message or the logs.
 */
export const shownEndpoint = (endpoint: string) => {
  if (!URL.canParse(endpoint)) return "(endpoint)"
  const url = new URL(endpoint)
  return `${url.protocol}//${url.host}`
}

/** A text from Playwright with the endpoint (and anything that looks like a token in a URL) taken out. */
export const withoutSecrets = (text: string, endpoint: string) =>
  text
    .split(endpoint)
    .join(shownEndpoint(endpoint))
    .replace(/([?&](?:token|key|apikey|api_key|auth|access_token|password|secret)=)[^&\s"']+/gi, "$1***")

/**
 * Settings that cannot work together, as an option and why (one line), or undefined. Checked when the
 * command line is read and again at launch.
 */
export const settingsConflict = (
  settings: Pick<
    Settings,
    "cdpEndpoints" | "wsEndpoints" | "extension" | "userDataDir" | "storageState" | "proxyServer" | "proxyBypass" | "browserArgs"
  >
): { readonly option: string; readonly detail: string } | undefined => {
  const remote = remoteOption(settings)
  if (remote !== undefined && settings.extension !== undefined) {
    return {
      option: "--extension",
      detail: `loading an unpacked extension needs a browser this server launches; it cannot be added to a browser reached with ${remote}. Drop ${remote} to test the extension (docs/configuration.md, Remote browsers).`
    }
  }
  if (remote !== undefined && settings.userDataDir !== undefined) {
    return { option: "--user-data-dir", detail: `a profile directory belongs to a browser this server launches; a browser reached with ${remote} has its own.` }
  }
  if (settings.userDataDir !== undefined && settings.storageState !== undefined) {
    return {
      option: "--storage-state",
      detail: "a --user-data-dir profile keeps its own cookies and storage; --storage-state starts a temporary profile from a file. Use one of them."
    }
  }
  if (settings.proxyServer !== undefined && settings.browserArgs.some((arg) => arg.startsWith("--proxy-server"))) {
    return {
      option: "--proxy-server",
      detail: "the browser already gets a proxy from --loopback-only (a closed local proxy that keeps it offline) or a --browser-arg; use one."
    }
  }
  if (settings.proxyBypass !== undefined && settings.proxyServer === undefined) {
    return { option: "--proxy-bypass", detail: "lists hosts that skip the proxy of --proxy-server, which is not set." }
  }
  return undefined
}
