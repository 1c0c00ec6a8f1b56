// The page's environment at run time (mm_emulate): network, CPU, media features, geolocation, viewport or
// device, time zone and locale, set on every tab of the session and on tabs opened later.
import type { Effect } from "effect"
import type { EmulationFailed, InvalidInput } from "../../domain/errors.js"
import type { SessionGone } from "./actions.js"

/** The opt-in group of mm_emulate. */
export const EMULATION_GROUP = "emulation"

/** Network throttling presets, as Chrome DevTools names them. */
export const NETWORK_PRESETS = {
  "slow-3g": { latencyMs: 2_000, downloadKbps: 400, uploadKbps: 400 },
  "fast-3g": { latencyMs: 563, downloadKbps: 1_440, uploadKbps: 675 },
  "fast-4g": { latencyMs: 165, downloadKbps: 8_100, uploadKbps: 1_350 }
} as const

export type NetworkPreset = keyof typeof NETWORK_PRESETS

export interface NetworkConditions {
  /** Added to every request's round trip. */
  readonly latencyMs: number
  readonly downloadKbps: number
  readonly uploadKbps: number
}

/** What a session emulates beyond how it was launched; an absent field is as launched. */
export interface Emulation {
  readonly offline?: boolean | undefined
  readonly network?: NetworkPreset | NetworkConditions | undefined
  /** 2 means the page's CPU runs at half speed. */
  readonly cpuThrottling?: number | undefined
  readonly colorScheme?: "light" | "dark" | "no-preference" | undefined
  readonly reducedMotion?: "reduce" | "no-preference" | undefined
  readonly geolocation?: { readonly latitude: number; readonly longitude: number; readonly accuracy?: number | undefined } | undefined
  readonly viewport?: { readonly width: number; readonly height: number } | undefined
  /** A name of Playwright's device list: its viewport and user agent (scale, touch and mobile need a new session). */
  readonly device?: string | undefined
  readonly timezone?: string | undefined
  readonly locale?: string | undefined
}

export type EmulationSetting = keyof Emulation

export interface EmulationResult {
  /** Everything in force now (the session's whole emulation, not only this change). */
  readonly emulating: Emulation
  /** Settings the running session could not take, each with why and what to start a session with instead. */
  readonly notApplied: ReadonlyArray<string>
}

export interface SessionEmulation {
  /**
   * Resets the named settings (or all with `"all"`) to the launch's, then applies `change` on every open
   * tab and remembers it for tabs opened later. A device name not in Playwright's list fails with
   * InvalidInput; a setting the browser refuses on a running session is listed in `notApplied`, and
   * when nothing could be applied the call fails with EmulationFailed.
   */
  readonly emulate: (
    change: Emulation,
    reset: ReadonlyArray<EmulationSetting> | "all"
  ) => Effect.Effect<EmulationResult, SessionGone | InvalidInput | EmulationFailed>
}
