// The session's storage state (cookies and localStorage), saved to a file a later session can start from.
import type { Effect } from "effect"
import type { DebuggerPaused, InvalidInput, StorageStateFailed } from "../../domain/errors.js"
import type { SessionGone } from "./actions.js"

export interface SavedStorageState {
  /** Absolute path of the file written. */
  readonly path: string
  readonly cookies: number
  /** Origins with localStorage entries. */
  readonly origins: number
}

export interface SessionStorage {
  /**
   * Writes the session's storage state (Playwright's storageState format) to
   * `<artifacts>/storage-state/<name>.json`, atomically and readable by its owner only. A name that is
   * not a plain file name, or one already taken without `overwrite`, fails with InvalidInput on `name`.
   */
  readonly saveStorageState: (options: {
    readonly name: string
    readonly overwrite: boolean
  }) => Effect.Effect<SavedStorageState, SessionGone | InvalidInput | StorageStateFailed | DebuggerPaused>
}
