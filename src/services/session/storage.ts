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

/** A cookie as mm_storage shows it: flags only when set, the value redacted when the name looks secret. */
export interface CookieInfo {
  readonly name: string
  readonly value: string
  readonly domain: string
  readonly path: string
  /** Seconds since the epoch; absent for a session cookie. */
  readonly expires?: number | undefined
  readonly httpOnly?: true | undefined
  readonly secure?: true | undefined
  readonly sameSite?: "Strict" | "Lax" | "None" | undefined
}

export interface ClearedStorage {
  /** Cookies removed. */
  readonly cookies: number
  /** Origins whose localStorage, sessionStorage and IndexedDB were cleared. */
  readonly origins: ReadonlyArray<string>
}

export interface SessionStorage {
  /** The session's cookies (those sent to `origin` when given), oldest first as the browser keeps them; values unredacted. */
  readonly cookies: (origin: string | undefined) => Effect.Effect<ReadonlyArray<CookieInfo>, SessionGone | StorageStateFailed>
  /**
   * Removes cookies and/or storage (localStorage, sessionStorage, IndexedDB, Cache Storage) of one origin, or of
   * every origin the session's pages visited (and its storage state holds) without one.
   */
  readonly clearStorage: (options: {
    readonly origin: string | undefined
    readonly cookies: boolean
    readonly storage: boolean
  }) => Effect.Effect<ClearedStorage, SessionGone | StorageStateFailed | DebuggerPaused>
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
