// What the session noticed on its own: notices for the agent (dialogs, tabs that opened or closed)
// and the console of every tab. Both are bounded; nothing here fails.
import type { Effect } from "effect"

export interface ConsoleMessage {
  /**
   * Playwright's console type ("log", "warning", "error", ...), "pageerror" for an uncaught exception,
   * or "dropped" for a count of messages the buffer let go (its text says how many).
   */
  readonly type: string
  readonly text: string
  readonly url: string
}

export interface SessionRecords {
  /** Messages about changes since the last call (the active tab closed, a dialog, ...); reading clears them. */
  readonly takeNotices: Effect.Effect<ReadonlyArray<string>>
  /** Position after the newest console message of the session (0 without a session). */
  readonly consoleCursor: Effect.Effect<number>
  /**
   * Console messages and uncaught page errors of every tab, logged after `cursor`, oldest first. Each
   * tab keeps only its newest messages: those it let go are counted in one "dropped" entry.
   */
  readonly consoleSince: (cursor: number) => Effect.Effect<ReadonlyArray<ConsoleMessage>>
}
