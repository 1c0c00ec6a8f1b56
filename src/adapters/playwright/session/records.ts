// What the session noticed on its own, over the session's Refs: notices for the agent (taken once)
// and the console rings of every tab (read from a cursor, with the count of what the rings let go).
import { Effect, Option, Ref } from "effect"
import type { ConsoleMessage, SessionRecords } from "../../../services/Session.js"
import { BrowserState } from "../lifecycle/browser.js"
import { consoleAfter, CONSOLE_PER_TAB, noNotices, renderNotices } from "../lifecycle/session-state.js"

export const make = Effect.gen(function* () {
  const browser = yield* BrowserState

  const takeNotices = Effect.flatMap(
    browser.current,
    Option.match({
      onNone: () => Effect.succeed<ReadonlyArray<string>>([]),
      onSome: (live) => Effect.map(Ref.getAndSet(live.notices, noNotices), renderNotices)
    })
  )

  const consoleCursor = Effect.flatMap(
    browser.current,
    Option.match({ onNone: () => Effect.succeed(0), onSome: (live) => Effect.map(Ref.get(live.console), (log) => log.seq) })
  )

  const consoleSince = (cursor: number) =>
    Effect.flatMap(
      browser.current,
      Option.match({
        onNone: () => Effect.succeed<ReadonlyArray<ConsoleMessage>>([]),
        onSome: (live) =>
          Effect.map(Ref.get(live.console), (log): ReadonlyArray<ConsoleMessage> => {
            const { messages, dropped } = consoleAfter(log, cursor)
            const kept = messages.map(({ type, text, url }) => ({ type, text, url }))
            if (dropped === 0) return kept
            const note = `${dropped} message${dropped === 1 ? " was" : "s were"} dropped (each tab keeps its newest ${CONSOLE_PER_TAB}).`
            return [{ type: "dropped", text: note, url: "" }, ...kept]
          })
      })
    )

  const service: SessionRecords = { takeNotices, consoleCursor, consoleSince }
  return service
})
