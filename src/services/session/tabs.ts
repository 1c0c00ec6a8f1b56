// The session's tabs: list them, pick the one tools act on, close one, wait for a notification window.
import type { Effect } from "effect"
import type { DebuggerPaused, NotificationTimeout, TabNotFound } from "../../domain/errors.js"
import type { TabInfo, TabRole, Tabs } from "../../domain/observation.js"
import type { SessionGone, Timeout } from "./actions.js"

/** Which tab a tab tool means: by id, role, URL prefix, or several (all must match). */
export interface TabSelector {
  readonly tabId?: string | undefined
  readonly role?: TabRole | undefined
  readonly url?: string | undefined
}

export interface SessionTabs {
  readonly tabs: Effect.Effect<Tabs, SessionGone>
  /** How many tabs are open (0 without a session); cheap, for the tool list. */
  readonly tabCount: Effect.Effect<number>
  /**
   * Whether the session's browser closed or crashed (its calls answer MM_BROWSER_CLOSED); cheap, never
   * fails, asks no page (`tabs` reads every tab's title, which waits for a busy page).
   */
  readonly browserEnded: Effect.Effect<boolean>
  /** Waits for a notification tab (already open or opening) and makes it active. */
  readonly waitForNotification: (options: Timeout) => Effect.Effect<TabInfo, SessionGone | NotificationTimeout | DebuggerPaused>
  /** Makes the matching tab active (the most recently opened one when several match). */
  readonly switchTab: (selector: TabSelector) => Effect.Effect<TabInfo, SessionGone | TabNotFound | DebuggerPaused>
  /** Closes the matching tab; never the extension home. Reports the tab tools act on afterwards. */
  readonly closeTab: (
    selector: TabSelector
  ) => Effect.Effect<{ readonly closed: TabInfo; readonly active: Tabs["active"] }, SessionGone | TabNotFound | DebuggerPaused>
}
