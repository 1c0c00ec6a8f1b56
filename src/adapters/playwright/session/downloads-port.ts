// The downloads port over the session's download log (session/downloads.ts): a call's starting point,
// what it started (waited for within what the call allows) and the session's list.
import { Effect, Option, Ref } from "effect"
import type { Download } from "../../../domain/download.js"
import type { SessionDownloads } from "../../../services/Session.js"
import { BrowserState } from "../lifecycle/browser.js"
import { awaitAfter, entriesAfter, takeAfter } from "./downloads.js"

export const make = Effect.gen(function* () {
  const browser = yield* BrowserState
  const none = Effect.succeed<ReadonlyArray<Download>>([])

  const downloadCursor = Effect.flatMap(
    browser.current,
    Option.match({ onNone: () => Effect.succeed(0), onSome: (live) => Effect.map(Ref.get(live.downloads.log), (log) => log.started) })
  )

  const downloadsSince: SessionDownloads["downloadsSince"] = (cursor, waitMs) =>
    Effect.flatMap(
      browser.current,
      Option.match({
        onNone: () => none,
        onSome: (live) =>
          Effect.gen(function* () {
            // Most calls download nothing: one read, no wait.
            if (entriesAfter(yield* Ref.get(live.downloads.log), cursor).length === 0) return []
            if (waitMs > 0) yield* Effect.ignore(Effect.timeout(awaitAfter(live.downloads.log, cursor), waitMs))
            return yield* takeAfter(live.downloads.log, cursor)
          })
      })
    )

  const downloads = Effect.flatMap(
    browser.current,
    Option.match({ onNone: () => none, onSome: (live) => takeAfter(live.downloads.log, 0) })
  )

  const service: SessionDownloads = { downloadCursor, downloadsSince, downloads }
  return service
})
