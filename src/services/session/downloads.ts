// The files pages downloaded: what a call started (waited for within its deadline) and the session's list.
import type { Effect } from "effect"
import type { Download } from "../../domain/download.js"

export interface SessionDownloads {
  /** How many downloads the current session has started (0 without a session): a call's starting point. */
  readonly downloadCursor: Effect.Effect<number>
  /**
   * The downloads started after `cursor` (and earlier ones no answer listed yet), oldest first, each once
   * it is saved (or failed), or as "in progress" when it is still running after `waitMs` (it goes on in
   * the background, and its end comes as a notice).
   */
  readonly downloadsSince: (cursor: number, waitMs: number) => Effect.Effect<ReadonlyArray<Download>>
  /** Every download of the session, oldest first. */
  readonly downloads: Effect.Effect<ReadonlyArray<Download>>
}
