// Errors of the browser session: none running, one already running, a launch that failed, the browser
// gone, a session not found or over the limit, tabs, notification pages, saved storage state.
import { Schema } from "effect"

export class NoActiveSession extends Schema.TaggedError<NoActiveSession>()("NoActiveSession", {
  /** The served name of the tool that needs the session, when the gate (not the tool) refused it. */
  tool: Schema.optional(Schema.String),
  /** The served name of the launch tool, for the hint. */
  launch: Schema.optional(Schema.String),
  /** The client's current session when it had one that is gone, and why: "was closed by mm_cleanup". */
  ended: Schema.optional(Schema.Struct({ sessionId: Schema.String, why: Schema.String })),
  /** How many sessions of other clients run on this server (none of them named: ids are never listed to another client). */
  others: Schema.optional(Schema.Number),
  /** How many sessions the client may use though none is its current one (its own, or another's it named by id). */
  yours: Schema.optional(Schema.Number)
}) {
  get code() {
    return "MM_NO_ACTIVE_SESSION" as const
  }
  override get message() {
    const launch = this.launch ?? "mm_launch"
    if (this.ended !== undefined) {
      const switchTo = this.yours !== undefined && this.yours > 0 ? `, or mm_sessions to switch to another of yours (or pass session: "<id or name>")` : ""
      return `${this.tool ?? "This call"} needs a running session: your current one (${this.ended.sessionId}) ${this.ended.why}. Call ${launch} to start a new one${switchTo}.`
    }
    if (this.yours !== undefined && this.yours > 0) {
      const which = this.yours === 1 ? "1 session you may use runs" : `${this.yours} sessions you may use run`
      return `${this.tool ?? "This call"} needs a current session: ${which} (mm_sessions lists ${this.yours === 1 ? "it" : "them"}; action "switch" makes one current, or pass session: "<id or name>"), or call ${launch} to start one.`
    }
    const first = this.tool === undefined ? `No active session. Call ${launch} first.` : `${this.tool} needs a running session: call ${launch} first.`
    if (this.others === undefined || this.others < 1) return first
    const sessions = this.others === 1 ? "1 session of another client runs" : `${this.others} sessions of other clients run`
    return `${first} ${sessions} here: a call acts on one only by its id, session: "<id>" (the sessionId its ${launch} answered).`
  }
}

export class SessionAlreadyRunning extends Schema.TaggedError<SessionAlreadyRunning>()("SessionAlreadyRunning", {
  sessionId: Schema.String
}) {
  get code() {
    return "MM_SESSION_ALREADY_RUNNING" as const
  }
  override get message() {
    return `Session ${this.sessionId} is already running. Call mm_cleanup first, or mm_launch with force: true to replace it.`
  }
  get details() {
    return { sessionId: this.sessionId }
  }
}

export class LaunchFailed extends Schema.TaggedError<LaunchFailed>()("LaunchFailed", {
  reason: Schema.Literal(
    "ExecutableNotFound",
    "ExtensionNotFound",
    "UnsupportedManifest",
    "InvalidManifest",
    "FixtureNotFound",
    "BrowserStartFailed",
    "AppUnreachable",
    "ConnectFailed",
    "ProfileInUse"
  ),
  detail: Schema.String
}) {
  get code() {
    return "MM_LAUNCH_FAILED" as const
  }
  override get message() {
    return `Launch failed (${this.reason}): ${this.detail}`
  }
  get details() {
    return { reason: this.reason }
  }
}

export class BrowserClosed extends Schema.TaggedError<BrowserClosed>()("BrowserClosed", {
  sessionId: Schema.String,
  /** What ended it, e.g. "the browser process exited" (crashed, killed or disconnected). */
  detail: Schema.String
}) {
  get code() {
    return "MM_BROWSER_CLOSED" as const
  }
  override get message() {
    return `The browser of session ${this.sessionId} closed (${this.detail}); the session ended and its recorded steps are kept. Call mm_launch to start a new session.`
  }
  get details() {
    return { sessionId: this.sessionId }
  }
}

/** The `session` argument names no session this client may use (unknown, closed, or another client's name). */
export class SessionNotFound extends Schema.TaggedError<SessionNotFound>()("SessionNotFound", {
  /** What the call named, clipped. */
  session: Schema.String,
  /** The calling client's own live sessions, as "id (name)". */
  yours: Schema.Array(Schema.String),
  /** Why the session the call named by id is gone, when this server closed it: "was closed by mm_cleanup". */
  ended: Schema.optional(Schema.String)
}) {
  get code() {
    return "MM_SESSION_NOT_FOUND" as const
  }
  override get message() {
    const yours = this.yours.length === 0 ? "you have none open; call mm_launch" : `yours: ${this.yours.join(", ")}`
    const why = this.ended === undefined ? " (it closed, or its idle lease ran out; a name reaches only your own sessions, an id any)" : `: it ${this.ended}`
    return `No open session ${JSON.stringify(this.session)}${why}; ${yours}.`
  }
}

/**
 * --max-sessions sessions are open: a launch must wait for one to close. A fan-out's run (`waitedMs`) waited
 * for one as long as the call's deadline let it; its own call's runs are counted apart (`runs`), never
 * listed as the client's to close.
 */
export class SessionLimit extends Schema.TaggedError<SessionLimit>()("SessionLimit", {
  limit: Schema.Number,
  /** The calling client's own open sessions, as "id (name)" (a fan-out's own runs aside). */
  yours: Schema.Array(Schema.String),
  /** Its only one is its current one: mm_cleanup closes it (no `session` argument is listed then). */
  onlyCurrent: Schema.optional(Schema.Literal(true)),
  /** How long a fan-out's run waited for a place before giving up (the call's deadline left no more). */
  waitedMs: Schema.optional(Schema.Number),
  /** The places that run's own call (the other runs of its fan-out) held when it gave up. */
  runs: Schema.optional(Schema.Number),
  /** The places other clients' sessions held then (never named: an id is a capability). */
  others: Schema.optional(Schema.Number)
}) {
  get code() {
    return "MM_SESSION_LIMIT" as const
  }
  override get message() {
    const plural = this.limit === 1 ? "" : "s"
    if (this.waitedMs !== undefined) {
      const held = [
        ...(this.runs !== undefined && this.runs > 0 ? [`${this.runs} by this call's other runs`] : []),
        ...(this.others !== undefined && this.others > 0 ? [`${this.others} by other clients`] : []),
        ...(this.yours.length > 0 ? [`${this.yours.length} by yours: ${this.yours.join(", ")}; close one with mm_cleanup {session: ID}`] : [])
      ]
      const later = this.yours.length === 0 ? "; try again once one closes (mm_cleanup, or its idle lease, --session-idle-timeout)" : ""
      return `This server holds at most ${this.limit} browser session${plural} at once (--max-sessions), and none freed in the ${Math.round(this.waitedMs / 1000)} s this run could wait for one (what the call's deadline left it): held ${held.join(", ")}${later}.`
    }
    const yours =
      this.yours.length === 0
        ? "none of them is yours; try again once one closes (mm_cleanup, or its idle lease, --session-idle-timeout)"
        : this.onlyCurrent === true
          ? `yours: ${this.yours.join(", ")}, your current one; close it with mm_cleanup`
          : `yours: ${this.yours.join(", ")}; close one with mm_cleanup {session: ID}`
    return `This server holds at most ${this.limit} browser session${plural} at once (--max-sessions) and all are open: ${yours}.`
  }
  get details() {
    return { limit: this.limit }
  }
}

/**
 * The server's --user-data-dir profile is held by an open session: Chromium runs one browser per profile,
 * so a second session on it would only fail after Chromium's own wait. Answered at once, naming the holder.
 */
export class ProfileInUse extends Schema.TaggedError<ProfileInUse>()("ProfileInUse", {
  profile: Schema.String,
  /** The session that holds it, as "id (name)"; its id only when it is the calling client's own or one it named. */
  heldBy: Schema.String,
  /** The holder is the calling client's (or one it named): it may close it or go on in it. */
  yours: Schema.Boolean,
  /** The holder is the calling client's current session: its calls go there already, mm_cleanup closes it. */
  current: Schema.optional(Schema.Literal(true))
}) {
  get code() {
    return "MM_PROFILE_IN_USE" as const
  }
  override get message() {
    const next = this.current === true
      ? "go on in it (your calls go to it), or close it (mm_cleanup) and launch again"
      : this.yours
      ? `go on in it ({"session": "${this.heldBy.split(" ")[0]}"}), or close it (mm_cleanup {session: ID}) and launch again`
      : "try again once it closes (mm_cleanup by its client, or its idle lease, --session-idle-timeout)"
    return `--user-data-dir ${this.profile} is in use by ${this.yours ? `your session ${this.heldBy}` : "another client's session"}: Chromium runs one browser per profile, so this server holds one session on it at a time. ${next}.`
  }
  get details() {
    return this.yours ? { profile: this.profile, heldBy: this.heldBy } : { profile: this.profile }
  }
}

export class TabNotFound extends Schema.TaggedError<TabNotFound>()("TabNotFound", {
  detail: Schema.String
}) {
  get code() {
    return "MM_TAB_NOT_FOUND" as const
  }
  override get message() {
    return `${this.detail} Call mm_get_state to list the open tabs.`
  }
}

const OpenTab = Schema.Struct({ role: Schema.String, url: Schema.String })

export class NotificationTimeout extends Schema.TaggedError<NotificationTimeout>()("NotificationTimeout", {
  timeoutMs: Schema.Number,
  openTabs: Schema.Array(OpenTab)
}) {
  get code() {
    return "MM_NOTIFICATION_TIMEOUT" as const
  }
  override get message() {
    const tabs = this.openTabs.map((tab) => `${tab.url} (${tab.role})`).join(", ")
    return `No notification page appeared within ${this.timeoutMs} ms. Open tabs: ${tabs === "" ? "(none)" : tabs}. Trigger the request again, raise timeoutMs, or switch with mm_tabs {action: "switch"}.`
  }
  get details() {
    return { timeoutMs: this.timeoutMs, openTabs: this.openTabs }
  }
}

/** The session's storage state could not be read from the browser, written to its file, or cleared (mm_storage). */
export class StorageStateFailed extends Schema.TaggedError<StorageStateFailed>()("StorageStateFailed", {
  detail: Schema.String,
  /** What was being done; saving when absent. */
  during: Schema.optional(Schema.Literal("read", "clear"))
}) {
  get code() {
    return "MM_STORAGE_STATE_FAILED" as const
  }
  override get message() {
    const what = this.during === "read" ? "read the cookies" : this.during === "clear" ? "clear the storage" : "save the storage state"
    return `Could not ${what}: ${this.detail}`
  }
}

/** The browser refused every emulation setting of an mm_emulate call. */
export class EmulationFailed extends Schema.TaggedError<EmulationFailed>()("EmulationFailed", {
  detail: Schema.String
}) {
  get code() {
    return "MM_EMULATION_FAILED" as const
  }
  override get message() {
    return `The emulation was not applied: ${this.detail}`
  }
}
