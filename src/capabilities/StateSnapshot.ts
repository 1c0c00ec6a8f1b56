// The StateSnapshot capability: app-specific state fields and screen detection, read from the active
// page for get_state and every observation (upstream's wallet fields: isUnlocked, networkName, ...).
import { Context, Effect, Layer } from "effect"
import type { StateFailed } from "../domain/errors.js"
import type { TabRole } from "../domain/observation.js"

/** The active page as a capability sees it, without Playwright types. */
export interface PageProbe {
  readonly url: string
  readonly title: string
  readonly role: TabRole
  /** The screen the configured rules detected ("unknown" when none matched). */
  readonly detectedScreen: string
  /** Runs a function in the page with a JSON-serialisable argument; the function must not close over anything. */
  readonly evaluate: <A, Arg>(fn: (arg: Arg) => A | Promise<A>, arg: Arg) => Effect.Effect<A, StateFailed>
}

export interface AppSnapshot {
  /** Overrides currentScreen when given. */
  readonly screen?: string | undefined
  /** Reported as state.app; JSON values only. Sensitive key names are redacted when recorded. */
  readonly fields?: Readonly<Record<string, unknown>> | undefined
}

export interface StateSnapshotService {
  readonly snapshot: (page: PageProbe) => Effect.Effect<AppSnapshot, StateFailed>
}

export class StateSnapshot extends Context.Tag("browser-workflow-mcp/capabilities/StateSnapshot")<StateSnapshot, StateSnapshotService>() {
  static readonly layer = (service: StateSnapshotService) => Layer.succeed(StateSnapshot, service)
}
