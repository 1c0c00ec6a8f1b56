// The extension loaded in the session: what it is, and its chrome.storage.
import type { Effect, Option } from "effect"
import type { InvalidConfig, StateFailed } from "../../domain/errors.js"
import type { ExtensionSummary } from "../../domain/observation.js"
import type { SessionGone } from "./actions.js"

export type StorageArea = "local" | "sync" | "session"

export interface SessionExtension {
  /** The extension loaded in the session, if any. */
  readonly extension: Effect.Effect<Option.Option<ExtensionSummary>, SessionGone>
  /** Reads chrome.storage of the loaded extension through its service worker; all keys when keys is absent. Not redacted. */
  readonly extensionStorage: (
    area: StorageArea,
    keys: ReadonlyArray<string> | undefined
  ) => Effect.Effect<Readonly<Record<string, unknown>>, SessionGone | InvalidConfig | StateFailed>
}
