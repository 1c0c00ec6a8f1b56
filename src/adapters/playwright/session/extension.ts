// The session's extension over Playwright: what is loaded, and its chrome.storage read through its
// service worker (or one of its open pages when the worker sleeps).
import { Effect, Option, Ref } from "effect"
import { InvalidConfig, StateFailed } from "../../../domain/errors.js"
import type { SessionExtension, StorageArea } from "../../../services/Session.js"
import { BrowserState } from "../lifecycle/browser.js"
import { firstLine } from "../calls.js"

export const make = Effect.gen(function* () {
  const browser = yield* BrowserState

  const extension = Effect.map(browser.live, (live) =>
    Option.map(Option.fromNullable(live.extension), (info) => ({
      id: info.id,
      name: info.name,
      version: info.version,
      manifestVersion: info.manifestVersion
    }))
  )

  const extensionStorage = (area: StorageArea, keys: ReadonlyArray<string> | undefined) =>
    Effect.gen(function* () {
      const live = yield* browser.live
      const info = live.extension
      if (info === undefined) {
        return yield* new InvalidConfig({
          source: "extension",
          detail: "no extension is loaded in this session; launch with extensionPath or start the server with --extension."
        })
      }
      const prefix = `chrome-extension://${info.id}/`
      const read = ({ area, keys }: { area: string; keys: Array<string> | null }) =>
        (globalThis as any).chrome.storage[area].get(keys) as Promise<Record<string, unknown>>
      const arg = { area, keys: keys === undefined ? null : [...keys] }
      const worker = live.context.serviceWorkers().find((candidate) => candidate.url().startsWith(prefix))
      // An idle MV3 worker may have been stopped; any open page of the extension has the same chrome.storage.
      const page = (yield* Ref.get(live.tabs)).pages.find((candidate) => !candidate.isClosed() && candidate.url().startsWith(prefix))
      const evaluate =
        worker !== undefined
          ? () => worker.evaluate(read, arg)
          : page !== undefined
            ? () => page.evaluate(read, arg)
            : undefined
      if (evaluate === undefined) {
        return yield* new StateFailed({
          detail: "the extension's service worker is not running and none of its pages is open; call mm_navigate with screen home or popup, then retry"
        })
      }
      return yield* Effect.tryPromise({
        try: evaluate,
        catch: (error) => new StateFailed({ detail: `chrome.storage.${area} could not be read: ${firstLine(error)}` })
      }).pipe(
        Effect.timeoutFail({
          duration: "10 seconds",
          onTimeout: () => new StateFailed({ detail: `chrome.storage.${area} did not answer within 10 s` })
        })
      )
    })

  const service: SessionExtension = { extension, extensionStorage }
  return service
})
