// The emulation port: mm_emulate's change applied to every tab of the session (and, through
// emulation-state.ts, to the tabs it opens later), geolocation on the context with its permission, offline on
// the context as well.
import { Effect, Ref } from "effect"
import type { BrowserContext } from "playwright"
import { EmulationFailed, InvalidConfig, InvalidInput } from "../../../domain/errors.js"
import type { Emulation, EmulationSetting, SessionEmulation } from "../../../services/Session.js"
import { firstLine, loadPlaywright } from "../calls.js"
import { BrowserState } from "../lifecycle/browser.js"
import { findDevice, type DeviceDescriptor } from "../lifecycle/launch.js"
import { applyToPage, emulationOf, partsOf, type EmulationHolder, type EmulationInForce, type Refusal } from "./emulation-state.js"

/** Settings a running Chromium session may refuse, and the option that sets them at launch instead. */
const LAUNCH_OPTION: Partial<Record<EmulationSetting, string>> = { timezone: "--timezone", locale: "--locale", device: "--device" }

/** One line per refused setting: why, and what to start a session with instead where there is such an option. */
const refusalText = (refusal: Refusal, emulation: Emulation): string => {
  const option = LAUNCH_OPTION[refusal.setting]
  const value = emulation[refusal.setting]
  return option === undefined
    ? `${refusal.setting}: ${refusal.detail}`
    : `${refusal.setting}: needs a new session started with ${option}${typeof value === "string" ? ` ${JSON.stringify(value)}` : ""} (the running one refused it: ${refusal.detail})`
}

/**
 * What of a device a running context cannot take (Playwright fixes them when the context is made): where
 * the device's scale factor, touch or mobile mode differs from the session's launch; or undefined.
 */
const deviceLaunchOnly = (device: DeviceDescriptor, launched: EmulationHolder["launch"]["fixed"]): string | undefined => {
  const fixed = [
    ...(device.deviceScaleFactor !== launched.deviceScaleFactor ? [`its scale factor ${device.deviceScaleFactor}`] : []),
    ...(device.hasTouch !== launched.hasTouch ? [device.hasTouch ? "touch" : "no touch"] : []),
    ...(device.isMobile !== launched.isMobile ? [device.isMobile ? "mobile mode" : "desktop mode"] : [])
  ]
  return fixed.length === 0 ? undefined : fixed.join(", ").replace(/, ([^,]+)$/, " and $1")
}

/** The context's geolocation as the emulation says: granted and set, or back to the launch's permissions. */
const applyGeolocation = (context: BrowserContext, holder: EmulationHolder, geolocation: Emulation["geolocation"]) =>
  Effect.tryPromise({
    try: async () => {
      if (geolocation !== undefined) {
        await context.grantPermissions(["geolocation"])
        await context.setGeolocation({ latitude: geolocation.latitude, longitude: geolocation.longitude, accuracy: geolocation.accuracy ?? 10 })
        return
      }
      await context.setGeolocation(null)
      await context.clearPermissions()
      if (holder.launch.permissions.length > 0) await context.grantPermissions([...holder.launch.permissions])
    },
    catch: (error): Refusal => ({ setting: "geolocation", detail: firstLine(error).replace(/^[\w.]+: /, "") })
  }).pipe(
    Effect.as([] as ReadonlyArray<Refusal>),
    Effect.catchAll((refusal) => Effect.succeed([refusal]))
  )

/**
 * Offline on the context too: Playwright sets it on each tab the context opens before that tab's first
 * script, also a tab the page opens itself (the DevTools conditions reach those only once they are open).
 */
const applyOffline = (context: BrowserContext, offline: boolean) =>
  Effect.tryPromise({
    try: () => context.setOffline(offline),
    catch: (error): Refusal => ({ setting: "offline", detail: firstLine(error).replace(/^[\w.]+: /, "") })
  }).pipe(
    Effect.as([] as ReadonlyArray<Refusal>),
    Effect.catchAll((refusal) => Effect.succeed([refusal]))
  )

/** The emulation after a reset of `reset` and the change: a field set to undefined is as launched. */
const nextEmulation = (current: Emulation, change: Emulation, reset: ReadonlyArray<EmulationSetting> | "all"): Emulation => {
  const kept: Record<string, unknown> = reset === "all" ? {} : { ...current }
  if (reset !== "all") for (const setting of reset) delete kept[setting]
  for (const [key, value] of Object.entries(change)) if (value !== undefined) kept[key] = value
  // A viewport given with a device wins over the device's; a device given alone replaces an earlier viewport.
  if (change.device !== undefined && change.viewport === undefined) delete kept.viewport
  return kept as Emulation
}

/** Only the fields that are set, for the answer. */
const setFields = (emulation: Emulation): Emulation =>
  Object.fromEntries(Object.entries(emulation).filter(([, value]) => value !== undefined)) as Emulation

export const make = Effect.gen(function* () {
  const browser = yield* BrowserState

  const emulate: SessionEmulation["emulate"] = (change, reset) =>
    Effect.gen(function* () {
      const live = yield* browser.live
      const holder = emulationOf(live.context)
      if (holder === undefined) return yield* new EmulationFailed({ detail: "this session was started without emulation support; launch a new one." })
      const device =
        change.device === undefined
          ? undefined
          : yield* findDevice(change.device, (yield* loadPlaywright()).devices).pipe(
              Effect.catchTag("InvalidConfig", (error: InvalidConfig) =>
                Effect.fail(new InvalidInput({ field: "device", problem: error.detail }))
              )
            )
      return yield* holder.lock.withPermits(1)(
        Effect.gen(function* () {
          const before = yield* Ref.get(holder.state)
          const emulation = nextEmulation(before.emulation, device === undefined ? change : { ...change, device: device.name }, reset)
          const inForce: EmulationInForce = {
            emulation,
            device: device?.descriptor ?? (emulation.device === undefined ? undefined : before.device)
          }
          // Settings that change: those given, and those reset that were set (a reset of what was never set sends nothing).
          const touched = new Set<EmulationSetting>(Object.keys(setFields(change)) as Array<EmulationSetting>)
          for (const key of Object.keys(setFields(before.emulation)) as Array<EmulationSetting>) {
            if (emulation[key] === undefined) touched.add(key)
          }
          if (touched.has("device") && !touched.has("viewport") && before.emulation.viewport !== undefined) touched.add("viewport")
          yield* Ref.set(holder.state, inForce)
          const parts = partsOf(touched)
          const perPage = yield* Effect.forEach(
            live.context.pages(),
            (page) => Effect.promise(() => applyToPage(page, parts, inForce, holder.launch.viewport)),
            { concurrency: 4 }
          )
          const geolocation = touched.has("geolocation") ? yield* applyGeolocation(live.context, holder, emulation.geolocation) : []
          const offline = touched.has("offline") ? yield* applyOffline(live.context, emulation.offline === true) : []
          const refused = new Map<EmulationSetting, Refusal>()
          for (const refusal of [...perPage.flat(), ...geolocation, ...offline]) if (!refused.has(refusal.setting)) refused.set(refusal.setting, refusal)
          if (refused.size > 0) {
            // What the browser refused is not in force: later tabs must not get it either.
            const kept = { ...inForce.emulation } as Record<string, unknown>
            for (const setting of refused.keys()) kept[setting] = before.emulation[setting]
            yield* Ref.set(holder.state, { ...inForce, emulation: kept as Emulation })
          }
          const notApplied = [...refused.values()].map((refusal) => refusalText(refusal, emulation))
          if (notApplied.length > 0 && [...touched].every((setting) => refused.has(setting))) {
            return yield* new EmulationFailed({ detail: notApplied.join("; ") })
          }
          // Said by every call that names a device, also one the session has in force already.
          const fixed = device === undefined || refused.has("device") ? undefined : deviceLaunchOnly(device.descriptor, holder.launch.fixed)
          if (fixed !== undefined) notApplied.push(`device: ${fixed} need a new session started with --device ${JSON.stringify(device!.name)}`)
          return { emulating: setFields((yield* Ref.get(holder.state)).emulation), notApplied }
        })
      )
    })

  const emulation: SessionEmulation = { emulate }
  return emulation
})
