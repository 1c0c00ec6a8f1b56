// Moving the session: to a configured screen, a URL (here or in a new tab), or through the history.
import type { Effect } from "effect"
import type { DebuggerPaused, InvalidConfig, NavigationFailed, PageClosed } from "../../domain/errors.js"
import type { SessionGone, Timeout } from "./actions.js"

export type Destination =
  | { readonly screen: "home" | "settings" | "notification" | "popup" }
  /** Through the active tab's history, or the same page again. */
  | { readonly screen: "back" | "forward" | "reload" }
  | { readonly screen: "url"; readonly url: string; readonly newTab?: boolean | undefined }

export interface SessionNavigation {
  readonly navigate: (
    destination: Destination,
    options: Timeout
  ) => Effect.Effect<{ readonly currentUrl: string }, NavigationFailed | SessionGone | PageClosed | InvalidConfig | DebuggerPaused>
}
