// The session's lifecycle: start a browser session, end it, and tell which one runs.
import type { Effect, Option } from "effect"
import type { StorageState } from "../../domain/config.js"
import type { InvalidConfig, InvalidInput, LaunchFailed, ProfileInUse, SessionAlreadyRunning, SessionLimit } from "../../domain/errors.js"

export interface LaunchOptions {
  readonly goal?: string | undefined
  readonly flowTags: ReadonlyArray<string>
  readonly tags: ReadonlyArray<string>
  readonly stateMode: "default" | "onboarding" | "custom"
  readonly fixturePreset?: string | undefined
  readonly fixture?: StorageState | undefined
  readonly slowMo: number
  readonly force: boolean
  /** Overrides the configured extension directory for this launch. */
  readonly extensionPath?: string | undefined
  /** A name the launching client addresses the session by (the registry keeps it). */
  readonly name?: string | undefined
  /** The first tab opens this absolute URL instead of the home page (the URL policy applies). */
  readonly url?: string | undefined
}

export interface SessionInfo {
  readonly sessionId: string
  readonly startedAt: string
  readonly goal?: string | undefined
  readonly flowTags: ReadonlyArray<string>
  readonly tags: ReadonlyArray<string>
  readonly extensionId?: string | undefined
  /** host:port of the remote browser server it runs on (--ws-endpoint, --cdp-endpoint); none for a browser this server launched. */
  readonly browser?: string | undefined
}

export interface LaunchResult {
  readonly sessionId: string
  readonly extensionId?: string | undefined
  readonly homeUrl: string
}

/** Why a launch failed; SessionLimit and InvalidInput (a name taken) come from the session registry. */
export type LaunchError = LaunchFailed | SessionAlreadyRunning | InvalidConfig | SessionLimit | ProfileInUse | InvalidInput

export interface SessionLifecycle {
  /**
   * The session, if any: also one whose browser died, until the next launch or cleanup ends it (its
   * calls answer MM_BROWSER_CLOSED meanwhile, and its steps keep its id).
   */
  readonly current: Effect.Effect<Option.Option<SessionInfo>>
  /**
   * Starts a session. Launches and cleanups run one at a time; a launch while a live session runs (or
   * another launch is starting one) fails with MM_SESSION_ALREADY_RUNNING unless `force`. A session
   * whose browser died is replaced without `force`. An interrupted launch leaves nothing behind.
   */
  readonly launch: (options: LaunchOptions) => Effect.Effect<LaunchResult, LaunchError>
  /** Closes the browser and removes its profile; true when a session (live or dead) was there. */
  readonly cleanup: Effect.Effect<boolean>
}
