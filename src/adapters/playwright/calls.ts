// What every part of the adapter needs around a Playwright call: Playwright itself, loaded once on
// demand, and its failures told apart (a timeout by its class, the first line of a message, a rejected
// call kept whole until it is classified). Imports nothing of the adapter but the code cache, so any
// part may use it without closing a circle.
import { createRequire } from "node:module"
import { Data, Effect } from "effect"
import { withCodeCache } from "./lifecycle/code-cache.js"

export type PlaywrightModule = typeof import("playwright")

let playwrightModule: PlaywrightModule | undefined
let timeoutErrorClass: PlaywrightModule["errors"]["TimeoutError"] | undefined

/**
 * Playwright is loaded on the first launch, not at server start: it is most of the start-up time,
 * and tools/list should answer before a browser is ever needed. It is required, not imported:
 * importing its CommonJS entry from ESM makes Node scan its 3.5 MB bundle for export names first
 * (0.1-0.25 s of a cold launch on a 2-core machine).
 */
export const loadPlaywright = () =>
  Effect.sync(() => {
    if (playwrightModule === undefined) {
      const require = createRequire(import.meta.url)
      playwrightModule = withCodeCache(() => require("playwright") as PlaywrightModule)
      timeoutErrorClass = playwrightModule.errors.TimeoutError
    }
    return playwrightModule
  })

/**
 * How long after the server starts Playwright is loaded in the background: after a client's
 * handshake and tools/list (answered in well under a second), usually before its first mm_launch
 * (a model's turn later), which then does not wait the 0.3-0.5 s the load takes. A launch that comes
 * sooner loads it itself.
 */
export const PRELOAD_DELAY_MS = 1_500

/** Loads Playwright now, if no launch did yet; never fails (a broken install shows at the launch). */
export const preloadPlaywright = Effect.asVoid(Effect.exit(loadPlaywright()))

/** True for Playwright's timeout error class (structure, not message text). */
export const isPlaywrightTimeout = (error: unknown): boolean =>
  timeoutErrorClass !== undefined && error instanceof timeoutErrorClass

/** The promise's value, or `late` when it has not settled within `ms` (a bounded wait on a page that may be stuck); its timer cleared either way. */
export const within = <A, B>(promise: Promise<A>, ms: number, late: B): Promise<A | B> => {
  let timer: ReturnType<typeof setTimeout> | undefined
  return Promise.race([promise, new Promise<B>((resolve) => (timer = setTimeout(() => resolve(late), Math.max(0, ms))))]).finally(() => clearTimeout(timer))
}

/** The first line of a failure's message: Playwright's later lines are its call log. */
export const firstLine = (error: unknown) => String(error instanceof Error ? error.message : error).split("\n")[0] ?? ""

/** A rejected Playwright call, kept whole until it is classified into one of our tagged errors. */
export class BrowserCallFailed extends Data.TaggedError("BrowserCallFailed")<{ readonly cause: unknown }> {}
