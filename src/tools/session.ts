// Starting and ending browser sessions, and listing, switching and closing them.
import { Effect, Option, Schema } from "effect"
import { StorageState } from "../domain/config.js"
import { InvalidInput } from "../domain/errors.js"
import { FirstPageView } from "../domain/envelope.js"
import { servedText, ToolRegistry } from "../runtime/registry.js"
import { defineTool, Evident, ListedAs, reachesOtherSessions, Unlisted } from "../runtime/tool.js"
import { KnowledgeStore } from "../services/KnowledgeStore.js"
import { Observer } from "../services/Observer.js"
import { Session } from "../services/Session.js"
import { Sessions } from "../services/Sessions.js"

/** Labels for the step memory. */
const Tags = Schema.optionalWith(Schema.Array(Schema.String.pipe(Schema.minLength(1))).pipe(Schema.maxItems(50)), {
  default: () => []
}).annotations({ description: "Labels for the step memory (mm_knowledge filters).", [Evident]: true })

/** Fields kept for upstream compatibility: accepted, not listed. */
const compatibility = { [Unlisted]: true } as const

/** Fields a model seldom needs, accepted but not listed (docs/tools.md): the error that needs `force` says so. */
const rarely = { [Unlisted]: true } as const

const LaunchInput = Schema.Struct({
  name: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(64))).annotations({
    // The server's instructions say a session tool's `session` takes it.
    description: "Its name, for session.",
    [Evident]: true
  }),
  // The launch checks it (absolute, the URL policy): no listed rule.
  url: Schema.optional(Schema.String).annotations({ description: "Absolute URL to open instead of the home page.", [Evident]: true }),
  goal: Schema.optional(Schema.String.pipe(Schema.maxLength(500))).annotations({
    description: "Purpose of the session.",
    [Evident]: true
  }),
  flowTags: Tags,
  tags: Tags,
  // "custom" (upstream's) is accepted, not listed: a fixture or fixturePreset given is used in the default mode too.
  stateMode: Schema.optionalWith(Schema.Literal("default", "onboarding", "custom").annotations({ [ListedAs]: { type: "string", enum: ["default", "onboarding"] } }), {
    default: () => "default" as const
  }).annotations({
    description: "onboarding: a fresh profile, no fixture."
  }),
  fixturePreset: Schema.optional(Schema.String).annotations({ description: "A fixture of the config file.", [Evident]: true }),
  fixture: Schema.optional(StorageState.annotations({ [ListedAs]: { type: "object" } })).annotations({
    description: "Storage state {cookies, origins}."
  }),
  slowMo: Schema.optionalWith(Schema.Number.pipe(Schema.int(), Schema.between(0, 10_000)), { default: () => 0 }).annotations({
    description: "Delay per browser operation, ms (a browser of its own).",
    ...rarely
  }),
  force: Schema.optionalWith(Schema.Boolean, { default: () => false }).annotations({
    description: "Replace the running session (--shared-browser, or the one session names); errors that need it say so.",
    ...rarely
  }),
  extensionPath: Schema.optional(Schema.String.pipe(Schema.minLength(1))).annotations({
    description: "An unpacked MV3 extension's directory.",
    [Evident]: true
  }),
  // Set by mm_replay on the session it starts: the session whose flow it runs.
  replayOf: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))).annotations({
    description: "The session whose flow this one replays.",
    [Unlisted]: true
  }),
  autoBuild: Schema.optional(Schema.Boolean).annotations({
    description: "Accepted for compatibility; this server does not build before launching.",
    ...compatibility
  })
})

export const launch = defineTool({
  name: "launch",
  role: "launch",
  title: "Launch the browser",
  description:
    "Start a new session (then your current one) at url or the home page.",
  input: LaunchInput,
  output: Schema.Struct({
    sessionId: Schema.String,
    extensionId: Schema.optional(Schema.String),
    browser: Schema.optional(Schema.String).annotations({ description: "host:port of the remote browser server it landed on (--ws-endpoint, --cdp-endpoint)." }),
    state: FirstPageView
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  group: "session",
  requiresSession: false,
  startsSession: true,
  stepKinds: ["navigation"],
  replay: { mode: "never" },
  observation: "custom",
  deadlineMs: () => 60_000,
  observe: (result) => ({ state: result.state }),
  record: (input) => ({
    input: {
      stateMode: input.stateMode,
      ...(input.fixturePreset !== undefined ? { fixturePreset: input.fixturePreset } : {}),
      ...(input.fixture !== undefined ? { fixture: "[inline fixture]" } : {}),
      flowTags: input.flowTags,
      tags: input.tags,
      ...(input.replayOf !== undefined ? { replayOf: input.replayOf } : {})
    }
  }),
  run: Effect.fn("tool.launch")(function* (input) {
    const session = yield* Session
    const observer = yield* Observer
    const store = yield* KnowledgeStore
    const launched = yield* session.launch({
      goal: input.goal,
      flowTags: input.flowTags,
      tags: input.tags,
      stateMode: input.stateMode,
      fixturePreset: input.fixturePreset,
      fixture: input.fixture,
      slowMo: input.slowMo,
      force: input.force,
      extensionPath: input.extensionPath,
      name: input.name,
      url: input.url
    })
    // The session's record is written while its first page is read (a file and the page: neither waits for the other).
    const written = store
      .startSession({
        schemaVersion: 1,
        sessionId: launched.sessionId,
        createdAt: new Date().toISOString(),
        ...(input.goal !== undefined ? { goal: input.goal } : {}),
        flowTags: input.flowTags,
        tags: input.tags,
        ...(input.replayOf !== undefined ? { replayOf: input.replayOf } : {}),
        launch: {
          stateMode: input.stateMode,
          ...(input.fixturePreset !== undefined ? { fixturePreset: input.fixturePreset } : {}),
          ...(input.extensionPath !== undefined ? { extensionPath: input.extensionPath } : {})
        }
      })
      .pipe(Effect.catchTag("KnowledgeError", (error) => Effect.logWarning("session metadata not written", error.message)))
    // The session started: a first page that cannot be read yet is no reason to call the launch failed.
    const unread = { isLoaded: false, currentUrl: launched.homeUrl, title: "", currentScreen: "unknown" }
    const [, state] = yield* Effect.all(
      [
        written,
        observer.state.pipe(
          Effect.catchTags({
            NoActiveSession: () => Effect.succeed(unread),
            BrowserClosed: () => Effect.succeed(unread),
            PageClosed: () => Effect.succeed(unread),
            StateFailed: () => Effect.succeed(unread)
          })
        )
      ],
      { concurrency: 2 }
    )
    // Where it landed, when that is a remote browser server (one of a pool): mm_sessions says the same.
    const info = yield* session.current
    const browser = Option.isSome(info) ? info.value.browser : undefined
    return {
      sessionId: launched.sessionId,
      ...(launched.extensionId !== undefined ? { extensionId: launched.extensionId } : {}),
      ...(browser !== undefined ? { browser } : {}),
      state
    }
  })
})

export const cleanup = defineTool({
  name: "cleanup",
  title: "Close the browser",
  description: "Close the session and all it opened.",
  input: Schema.Struct({
    sessionId: Schema.optional(Schema.String).annotations({
      description: "Accepted for compatibility; the running session is closed.",
      ...compatibility
    })
  }),
  output: Schema.Struct({
    cleanedUp: Schema.Boolean,
    stillOpen: Schema.optional(Schema.Array(Schema.String)).annotations({
      description: "Your other sessions, still open (name, else id): mm_cleanup {session} closes one."
    })
  }),
  annotations: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
  group: "session",
  requiresSession: false,
  sessionArgument: true,
  replay: { mode: "never" },
  observation: "none",
  deadlineMs: () => 30_000,
  run: Effect.fn("tool.cleanup")(function* () {
    const session = yield* Session
    const cleanedUp = yield* session.cleanup
    // An agent that closed one of several sessions is told the others run on (it may believe all is closed).
    const registry = yield* Effect.serviceOption(Sessions)
    if (Option.isNone(registry) || (yield* registry.value.count) === 0) return { cleanedUp }
    const open = yield* registry.value.list
    return open.length === 0 ? { cleanedUp } : { cleanedUp, stillOpen: open.map((listing) => listing.name ?? listing.id) }
  })
})

const SessionListing = Schema.Struct({
  id: Schema.String,
  name: Schema.optional(Schema.String),
  url: Schema.optional(Schema.String),
  title: Schema.optional(Schema.String),
  idle: Schema.Number.annotations({ description: "Seconds since its last call." }),
  current: Schema.optional(Schema.Literal(true)),
  heapMb: Schema.optional(Schema.Number).annotations({ description: "JS heap its tabs' pages use, MB (DevTools Runtime.getHeapUsage)." }),
  browser: Schema.optional(Schema.String).annotations({ description: "host:port of its remote browser server." }),
  ended: Schema.optional(Schema.Literal(true)).annotations({ description: "Its browser closed: close it." })
})

/** mm_sessions' list when the client has no session (the server's words name tools as served by default). */
const NO_SESSION = "You have no session: mm_launch starts one."

export const sessions = defineTool({
  name: "sessions",
  title: "Sessions",
  description: "List your sessions, or switch to the one session names.",
  input: Schema.Struct({
    // Accepted, not listed: naming a session that is not the current one switches to it, and mm_cleanup closes one.
    action: Schema.optional(Schema.Literal("list", "switch", "close")).annotations({
      description: "Default: switch when session names one that is not your current one, else list.",
      [Unlisted]: true
    })
  }),
  output: Schema.Struct({
    sessions: Schema.optional(Schema.Array(SessionListing)).annotations({ description: "Yours; absent when you have none." }),
    none: Schema.optional(Schema.String).annotations({ description: "When you have no session: what starts one." }),
    current: Schema.optional(SessionListing),
    closed: Schema.optional(Schema.String)
  }),
  annotations: { readOnly: false, destructive: true, idempotent: false, openWorld: false },
  group: "session",
  requiresSession: false,
  sessionArgument: true,
  // With one current session there is nothing to switch to: listed once there is (a second, or one not current).
  listedWhen: reachesOtherSessions,
  replay: { mode: "never" },
  observation: "none",
  run: Effect.fn("tool.sessions")(function* (input) {
    const registry = yield* Sessions
    // The call runs on the session its `session` argument named (else the current one): that is the one meant.
    const current = yield* (yield* Session).current
    const listed = input.action === undefined || input.action === "list" ? yield* registry.list : []
    const onCurrent = Option.isSome(current) && listed.some((session) => session.id === current.value.sessionId && session.current === true)
    const action = input.action ?? (Option.isSome(current) && !onCurrent ? "switch" : "list")
    if (action === "list") {
      // No empty list: with no session, one line on what starts one (a bare ok left an agent guessing).
      if (listed.length > 0) return { sessions: listed }
      const tools = yield* Effect.serviceOption(ToolRegistry)
      const served = Option.isSome(tools) ? servedText(tools.value) : (text: string) => text
      return { none: served(NO_SESSION) }
    }
    if (Option.isNone(current)) {
      return yield* new InvalidInput({ field: "session", problem: `${action} needs a session: give session (an id or a name; mm_sessions lists them)` })
    }
    const id = current.value.sessionId
    return action === "switch" ? { current: yield* registry.switchTo(id) } : { closed: yield* registry.close(id) }
  })
})
