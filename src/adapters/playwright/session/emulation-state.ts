// The page's environment kept per session's context: what mm_emulate set (applied to each tab the context
// opens later), the origins its pages visited (what mm_storage clears without an origin), and the
// --init-script files installed where the context is made. Hooks of one line each in lifecycle/start.ts.
import * as vm from "node:vm"
import { Effect, Ref } from "effect"
import type { BrowserContext, CDPSession, Page } from "playwright"
import type { InitScript } from "../../../domain/config.js"
import { InvalidConfig } from "../../../domain/errors.js"
import { NETWORK_PRESETS, type Emulation, type EmulationSetting } from "../../../services/session/emulation.js"
import { firstLine } from "../calls.js"
import type { DeviceDescriptor } from "../lifecycle/launch.js"
import { devtoolsOf } from "../page-eval.js"

/** What the session emulates, with the device it names resolved. */
export interface EmulationInForce {
  readonly emulation: Emulation
  readonly device: DeviceDescriptor | undefined
}

export interface EmulationHolder {
  readonly state: Ref.Ref<EmulationInForce>
  /** One mm_emulate at a time per session. */
  readonly lock: Effect.Semaphore
  /** The viewport and permissions the session was launched with (what a reset goes back to), and what its context fixed. */
  readonly launch: LaunchEmulation
  /** http(s) origins the session's frames navigated to. */
  readonly origins: Ref.Ref<ReadonlySet<string>>
}

/** What the session's context was made with: Playwright fixes the scale factor, touch and mobile mode then. */
export interface LaunchEmulation {
  readonly viewport: { readonly width: number; readonly height: number }
  readonly permissions: ReadonlyArray<string>
  readonly fixed: { readonly deviceScaleFactor: number; readonly hasTouch: boolean; readonly isMobile: boolean }
}

const holders = new WeakMap<BrowserContext, EmulationHolder>()

/** The holder of a context that `followEmulation` set up (none for a context made elsewhere). */
export const emulationOf = (context: BrowserContext): EmulationHolder | undefined => holders.get(context)

/** A setting the browser refused on one page, and why. */
export interface Refusal {
  readonly setting: EmulationSetting
  readonly detail: string
}

/** The per-page settings, in the order they are applied (geolocation is the context's). */
type PagePart = "network" | "cpuThrottling" | "media" | "viewport" | "userAgent" | "timezone" | "locale"

/** Which per-page parts the changed or reset settings touch. */
export const partsOf = (settings: Iterable<EmulationSetting>): ReadonlySet<PagePart> => {
  const parts = new Set<PagePart>()
  for (const setting of settings) {
    if (setting === "offline" || setting === "network") parts.add("network")
    else if (setting === "colorScheme" || setting === "reducedMotion") parts.add("media")
    else if (setting === "viewport") parts.add("viewport")
    else if (setting === "device") {
      parts.add("viewport")
      parts.add("userAgent")
    } else if (setting === "cpuThrottling" || setting === "timezone" || setting === "locale") parts.add(setting)
  }
  return parts
}

/** The settings a part reports a refusal under. */
const settingOfPart = (part: PagePart, emulation: Emulation): EmulationSetting =>
  part === "network"
    ? emulation.network !== undefined ? "network" : "offline"
    : part === "media"
      ? emulation.colorScheme !== undefined ? "colorScheme" : "reducedMotion"
      : part === "userAgent"
        ? "device"
        : part === "viewport"
          ? emulation.viewport !== undefined ? "viewport" : "device"
          : part

/** Kilobits per second as DevTools' bytes per second (-1: no limit). */
const bytesPerSecond = (kbps: number | undefined) => (kbps === undefined ? -1 : (kbps * 1000) / 8)

const sendPart = async (
  page: Page,
  devtools: CDPSession,
  part: PagePart,
  inForce: EmulationInForce,
  launchViewport: { readonly width: number; readonly height: number }
): Promise<void> => {
  const { emulation, device } = inForce
  switch (part) {
    case "network": {
      const conditions = typeof emulation.network === "string" ? NETWORK_PRESETS[emulation.network] : emulation.network
      await devtools.send("Network.emulateNetworkConditions", {
        offline: emulation.offline === true,
        latency: conditions?.latencyMs ?? 0,
        downloadThroughput: bytesPerSecond(conditions?.downloadKbps),
        uploadThroughput: bytesPerSecond(conditions?.uploadKbps)
      })
      return
    }
    case "cpuThrottling":
      await devtools.send("Emulation.setCPUThrottlingRate", { rate: emulation.cpuThrottling ?? 1 })
      return
    case "media":
      await page.emulateMedia({ colorScheme: emulation.colorScheme ?? null, reducedMotion: emulation.reducedMotion ?? null })
      return
    case "viewport":
      await page.setViewportSize(emulation.viewport ?? device?.viewport ?? launchViewport)
      return
    case "userAgent":
      // An empty override is none: the launch's user agent again.
      await devtools.send("Emulation.setUserAgentOverride", { userAgent: device?.userAgent ?? "" })
      return
    case "timezone":
      await devtools.send("Emulation.setTimezoneOverride", { timezoneId: emulation.timezone ?? "" })
      return
    case "locale":
      await devtools.send("Emulation.setLocaleOverride", emulation.locale === undefined ? {} : { locale: emulation.locale })
      return
  }
}

/** Applies the given parts of the emulation in force to one page; what the browser refused, by setting. */
export const applyToPage = async (
  page: Page,
  parts: ReadonlySet<PagePart>,
  inForce: EmulationInForce,
  launchViewport: { readonly width: number; readonly height: number }
): Promise<ReadonlyArray<Refusal>> => {
  if (parts.size === 0 || page.isClosed()) return []
  const refusals: Array<Refusal> = []
  const devtools = await devtoolsOf(page).catch(() => undefined)
  for (const part of parts) {
    if (devtools === undefined && part !== "media" && part !== "viewport") {
      refusals.push({ setting: settingOfPart(part, inForce.emulation), detail: "the tab's DevTools session did not open" })
      continue
    }
    await sendPart(page, devtools!, part, inForce, launchViewport).catch((error: unknown) => {
      // A tab that closed meanwhile has nothing to take it.
      if (!page.isClosed()) refusals.push({ setting: settingOfPart(part, inForce.emulation), detail: firstLine(error).replace(/^[\w.]+: /, "") })
    })
  }
  return refusals
}

/** Every per-page part the emulation sets: what a newly opened tab needs. */
const partsInForce = (emulation: Emulation) =>
  partsOf(Object.entries(emulation).flatMap(([key, value]) => (value === undefined ? [] : [key as EmulationSetting])))

/** Each tab's first application of the emulation in force, while it runs. */
const firstApplication = new WeakMap<Page, Promise<unknown>>()

/**
 * Resolves once a tab the context opened has taken the emulation in force (at once for a tab it did not
 * follow). A tab the server opens itself waits for it before loading its URL, so its first script runs
 * under the whole emulation; a tab the page opens runs its first document before (docs/tools.md).
 */
export const emulationApplied = (page: Page): Promise<void> => (firstApplication.get(page) ?? Promise.resolve()).then(() => undefined)

const originOf = (url: string): string | undefined => (/^https?:/i.test(url) ? new URL(url).origin : undefined)

/**
 * Follows the session's context from now on: each tab it opens takes the emulation in force, and each
 * frame's origin is remembered for mm_storage. Nothing to undo: the listeners go with the context.
 */
export const followEmulation = (context: BrowserContext, launch: LaunchEmulation) =>
  Effect.gen(function* () {
    const holder: EmulationHolder = {
      state: yield* Ref.make<EmulationInForce>({ emulation: {}, device: undefined }),
      lock: yield* Effect.makeSemaphore(1),
      launch,
      origins: yield* Ref.make<ReadonlySet<string>>(new Set())
    }
    holders.set(context, holder)
    const visited = (url: string) => {
      const origin = originOf(url)
      if (origin !== undefined) Effect.runSync(Ref.update(holder.origins, (origins) => (origins.has(origin) ? origins : new Set(origins).add(origin))))
    }
    const watch = (page: Page) => page.on("framenavigated", (frame) => visited(frame.url()))
    for (const page of context.pages()) watch(page)
    context.on("page", (page) => {
      watch(page)
      const inForce = Effect.runSync(Ref.get(holder.state))
      const applying = applyToPage(page, partsInForce(inForce.emulation), inForce, launch.viewport)
      firstApplication.set(page, applying)
      void applying.finally(() => firstApplication.delete(page))
    })
  })

/**
 * The --init-script files, in order, in every page and frame of the context before the page's own
 * scripts. Named by their file in stack traces.
 */
export const installInitScripts = (context: BrowserContext, scripts: ReadonlyArray<InitScript>) =>
  Effect.forEach(
    scripts,
    (script) => {
      // The CLI checked its files at start; settings a library built are checked here.
      const syntaxError = initScriptSyntaxError(script.file, script.source)
      if (syntaxError !== undefined) return Effect.fail(new InvalidConfig({ source: "--init-script", detail: syntaxError }))
      return Effect.tryPromise({
        try: () => context.addInitScript({ content: `${script.source}\n//# sourceURL=${script.file}` }),
        catch: (error) => new InvalidConfig({ source: "--init-script", detail: `${script.file} was not installed: ${firstLine(error)}` })
      })
    },
    { discard: true }
  )

/**
 * Where the script does not parse, as "file:line: SyntaxError: ...", or undefined. Compiled (never run) as
 * Playwright installs it: the body of an arrow function, so the file's own lines start on the second.
 */
export const initScriptSyntaxError = (file: string, source: string): string | undefined => {
  try {
    new vm.Script(`(() => {\n${source}\n})()`, { filename: file })
    return undefined
  } catch (error) {
    if (!(error instanceof SyntaxError)) return undefined
    const line = Number(/:(\d+)$/.exec(error.stack?.split("\n")[0] ?? "")?.[1] ?? 0) - 1
    return `${file}${line > 0 ? `:${line}` : ""}: SyntaxError: ${error.message}`
  }
}

/**
 * An uncaught error thrown by an --init-script, as its console line shows it: the message and where in the
 * file ("init failed (--init-script /abs/seed.js:2)"). Init scripts are named by their path (their
 * sourceURL), which no page script has: a page's come from URLs.
 */
export const initScriptErrorText = (message: string, stack: string | undefined): string => {
  const top = stack?.split("\n").find((line) => /^\s+at /.test(line))
  const where = top === undefined ? null : /(?:\(|at )((?:\/|[A-Za-z]:\\)[^()]*?):(\d+):\d+\)?$/.exec(top)
  // Playwright wraps the source in a function whose first line comes before the file's.
  return where === null ? message : `${message} (--init-script ${where[1]}:${Math.max(1, Number(where[2]) - 1)})`
}
