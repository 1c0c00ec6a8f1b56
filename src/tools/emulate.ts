// mm_emulate (group emulation, off unless --caps emulation): the page's environment at run time, on every
// tab of the session and the tabs it opens later; recorded, replayed, and exported to Playwright.
import { Effect, Schema } from "effect"
import { defineTool, ListedAs, type ReplayArgs } from "../runtime/tool.js"
import { Session } from "../services/Session.js"
import { EMULATION_GROUP, NETWORK_PRESETS, type Emulation, type EmulationSetting } from "../services/session/emulation.js"

const isTimeZone = (text: string) => {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: text })
    return true
  } catch {
    return false
  }
}

const isLocale = (text: string) => {
  try {
    return Intl.getCanonicalLocales(text).length === 1
  } catch {
    return false
  }
}

const SETTINGS = [
  "offline",
  "network",
  "cpuThrottling",
  "colorScheme",
  "reducedMotion",
  "geolocation",
  "viewport",
  "device",
  "timezone",
  "locale"
] as const satisfies ReadonlyArray<EmulationSetting>

const Side = Schema.Number.pipe(Schema.int(), Schema.between(1, 16_384))
const Kbps = Schema.Number.pipe(Schema.positive())

const EmulationFields = {
  offline: Schema.optional(Schema.Boolean).annotations({ description: "No network: navigator.onLine false, requests fail." }),
  network: Schema.optional(
    Schema.Union(
      Schema.Literal("slow-3g", "fast-3g", "fast-4g"),
      Schema.Struct({ latencyMs: Schema.Number.pipe(Schema.between(0, 60_000)), downloadKbps: Kbps, uploadKbps: Kbps })
    ).annotations({ [ListedAs]: {} })
  ).annotations({ description: "Throttling: slow-3g, fast-3g, fast-4g, or {latencyMs, downloadKbps, uploadKbps}." }),
  cpuThrottling: Schema.optional(Schema.Number.pipe(Schema.between(1, 20))).annotations({ description: "CPU slowdown factor (1 = none)." }),
  colorScheme: Schema.optional(Schema.Literal("light", "dark", "no-preference")).annotations({ description: "prefers-color-scheme." }),
  reducedMotion: Schema.optional(Schema.Literal("reduce", "no-preference")).annotations({ description: "prefers-reduced-motion." }),
  geolocation: Schema.optional(
    Schema.Struct({
      latitude: Schema.Number.pipe(Schema.between(-90, 90)),
      longitude: Schema.Number.pipe(Schema.between(-180, 180)),
      accuracy: Schema.optional(Schema.Number.pipe(Schema.nonNegative()))
    }).annotations({ [ListedAs]: { type: "object" } })
  ).annotations({ description: "{latitude, longitude, accuracy?} in degrees and meters; the permission is granted." }),
  viewport: Schema.optional(Schema.Struct({ width: Side, height: Side }).annotations({ [ListedAs]: { type: "object" } })).annotations({
    description: "{width, height} in CSS pixels."
  }),
  device: Schema.optional(Schema.String.pipe(Schema.minLength(1))).annotations({
    description: 'A Playwright device ("Pixel 7"): its viewport and user agent.'
  }),
  timezone: Schema.optional(Schema.String.pipe(Schema.filter(isTimeZone, { message: () => "an IANA time zone such as Europe/Berlin" }))).annotations({
    description: "IANA name, e.g. Asia/Tokyo."
  }),
  locale: Schema.optional(Schema.String.pipe(Schema.filter(isLocale, { message: () => "a BCP 47 language tag such as de-DE" }))).annotations({
    description: "Intl formats, e.g. de-DE."
  })
}

const EmulateInput = Schema.Struct({
  ...EmulationFields,
  reset: Schema.optional(Schema.Union(Schema.Literal(true), Schema.Array(Schema.Literal(...SETTINGS))).annotations({ [ListedAs]: {} })).annotations({
    description: 'true: all back to the launch\'s; or setting names (["network"]). Applied first.'
  })
})

type EmulateArgs = typeof EmulateInput.Type

/** The change and the reset of a call: offline false and cpuThrottling 1 are resets of their setting. */
const changeOf = (input: EmulateArgs): { readonly change: Emulation; readonly reset: ReadonlyArray<EmulationSetting> | "all" } => {
  const { reset, ...fields } = input
  const resets: Array<EmulationSetting> = reset === undefined || reset === true ? [] : [...reset]
  const change: Record<string, unknown> = { ...fields }
  if (change.offline === false) {
    delete change.offline
    resets.push("offline")
  }
  if (change.cpuThrottling === 1) {
    delete change.cpuThrottling
    resets.push("cpuThrottling")
  }
  return { change: change as Emulation, reset: reset === true ? "all" : resets }
}

const js = (value: unknown) => JSON.stringify(value)

/** DevTools' Network.emulateNetworkConditions parameters of a recorded network setting. */
const networkParameters = (network: unknown, offline: boolean) => {
  const conditions =
    typeof network === "string" && Object.hasOwn(NETWORK_PRESETS, network)
      ? NETWORK_PRESETS[network as keyof typeof NETWORK_PRESETS]
      : (network as { latencyMs: number; downloadKbps: number; uploadKbps: number } | undefined)
  return {
    offline,
    latency: conditions?.latencyMs ?? 0,
    downloadThroughput: conditions === undefined ? -1 : (conditions.downloadKbps * 1000) / 8,
    uploadThroughput: conditions === undefined ? -1 : (conditions.uploadKbps * 1000) / 8
  }
}

/**
 * A recorded emulation as lines of a Playwright test: Playwright's own calls where it has them (setOffline,
 * emulateMedia, setGeolocation, setViewportSize), a DevTools session for the rest, a comment for a device.
 */
const playwrightLines = (args: ReplayArgs): ReadonlyArray<string> => {
  const reset = args.reset === true ? SETTINGS : Array.isArray(args.reset) ? (args.reset as ReadonlyArray<EmulationSetting>) : []
  const has = (setting: EmulationSetting) => args[setting] !== undefined
  const resets = (setting: EmulationSetting) => reset.includes(setting) && !has(setting)
  const lines: Array<string> = []
  const cdp: Array<string> = []
  if (has("network")) cdp.push(`await cdp.send("Network.emulateNetworkConditions", ${js(networkParameters(args.network, args.offline === true))})`)
  else if (resets("network")) cdp.push(`await cdp.send("Network.emulateNetworkConditions", ${js(networkParameters(undefined, args.offline === true))})`)
  if (!has("network") && (has("offline") || resets("offline"))) lines.push(`await page.context().setOffline(${args.offline === true})`)
  if (has("cpuThrottling") || resets("cpuThrottling")) cdp.push(`await cdp.send("Emulation.setCPUThrottlingRate", { rate: ${js(args.cpuThrottling ?? 1)} })`)
  if (has("timezone") || resets("timezone")) cdp.push(`await cdp.send("Emulation.setTimezoneOverride", { timezoneId: ${js(args.timezone ?? "")} })`)
  if (has("locale") || resets("locale")) cdp.push(`await cdp.send("Emulation.setLocaleOverride", ${has("locale") ? `{ locale: ${js(args.locale)} }` : "{}"})`)
  const media = (["colorScheme", "reducedMotion"] as const).filter((setting) => has(setting) || resets(setting))
  if (media.length > 0) lines.push(`await page.emulateMedia({ ${media.map((setting) => `${setting}: ${js(args[setting] ?? null)}`).join(", ")} })`)
  if (has("geolocation")) {
    lines.push(`await page.context().grantPermissions(["geolocation"])`, `await page.context().setGeolocation(${js(args.geolocation)})`)
  } else if (resets("geolocation")) lines.push(`await page.context().setGeolocation(null)`, `await page.context().clearPermissions()`)
  if (has("viewport")) lines.push(`await page.setViewportSize(${js(args.viewport)})`)
  else if (resets("viewport")) lines.push(`// mm_emulate reset the viewport to the session's: set it with page.setViewportSize if the test needs it`)
  if (has("device") || resets("device")) {
    lines.push(`// mm_emulate device ${js(args.device ?? "reset")}: Playwright sets a device per context, test.use({ ...devices[${js(args.device ?? "Desktop Chrome")}] })`)
  }
  if (cdp.length === 0) return lines
  // Playwright has no call for these: a DevTools session of the page, kept attached (detaching ends its overrides).
  return ["{", "  const cdp = await page.context().newCDPSession(page)", ...cdp.map((line) => `  ${line}`), "}", ...lines]
}

/** The recipe's note: what the step sets, briefly. */
const noteOf = (args: ReplayArgs): string => {
  const parts = SETTINGS.filter((setting) => args[setting] !== undefined).map((setting) => {
    const value = args[setting]
    return `${setting} ${typeof value === "object" ? js(value) : String(value)}`
  })
  const reset = args.reset === true ? "reset everything" : Array.isArray(args.reset) ? `reset ${args.reset.join(", ")}` : undefined
  return `Emulate ${[...(reset !== undefined ? [reset] : []), ...parts].join(", ") || "nothing"}`
}

export const emulate = defineTool({
  name: "emulate",
  title: "Emulate the page's environment",
  description:
    "Change every tab's environment (also tabs opened later); several at once, or reset. Returns {emulating, notApplied?}.",
  input: EmulateInput,
  output: Schema.Struct({
    emulating: Schema.Struct(EmulationFields).annotations({ description: "Everything emulated now, beyond the launch's settings." }),
    notApplied: Schema.optional(Schema.Array(Schema.String)).annotations({
      description: "Settings the running session refused, each saying what to start a new session with."
    })
  }),
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
  group: EMULATION_GROUP,
  optIn: true,
  requiresSession: true,
  stepKinds: ["navigation"],
  observation: "none",
  replay: { note: noteOf, playwright: playwrightLines },
  run: Effect.fn("tool.emulate")(function* (input) {
    const { change, reset } = changeOf(input)
    const result = yield* (yield* Session).emulate(change, reset)
    return { emulating: result.emulating, ...(result.notApplied.length > 0 ? { notApplied: result.notApplied } : {}) }
  })
})
