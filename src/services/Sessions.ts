// The browser sessions a call may run on: which one a call means (its `session` argument, the calling
// client's current one, or a new one), and listing, switching and closing them for that client.
import { Context, Effect, Either, FiberRef, Option, Ref, type Scope } from "effect"
import { InvalidInput, type ProfileInUse, type SessionLimit, SessionNotFound } from "../domain/errors.js"
import { KnowledgeStore } from "./KnowledgeStore.js"
import { Observer } from "./Observer.js"
import { Session } from "./Session.js"

/** What a tool program requires of a session, and what runTool provides from the call's session. */
export type SessionServices = Session | Observer | KnowledgeStore

/** One session as a value: its services. */
export interface SessionHandle {
  readonly context: Context.Context<SessionServices>
}

export interface SessionRequest {
  /** The call's `session` argument: a session id, or the name of one of the client's own sessions. */
  readonly selector?: string | undefined
  /** The tool starts a session (launch, replay): without a selector it gets a new one of its own. */
  readonly starts: boolean
  /** A new session even from inside a call (a fan-out replay's runs); with `starts`. */
  readonly fresh?: true | undefined
  /**
   * Only to read the session (the tool list): no activity on it, so its idle lease runs on, and a client
   * without one gets a stand-in that cannot launch instead of a new slot.
   */
  readonly peek?: true | undefined
}

/**
 * In a call that has no session because the client's current one closed: which one, and why ("was closed by
 * mm_cleanup"). The session gate's MM_NO_ACTIVE_SESSION says it, so an agent knows what happened.
 */
export class EndedSession extends Context.Tag("browser-workflow-mcp/EndedSession")<
  EndedSession,
  { readonly sessionId: string; readonly why: string }
>() {}

/**
 * In a call that has no session: how many sessions of other clients run on this server. The session gate's
 * MM_NO_ACTIVE_SESSION says a call reaches one only by its id, and never names one (ids are not listed).
 */
export class OthersRunning extends Context.Tag("browser-workflow-mcp/OthersRunning")<
  OthersRunning,
  /** `count` of other clients' sessions it does not know; `yours`: sessions it may use (its own, or named by id) though none is current. */
  { readonly count: number; readonly yours: number }
>() {}

/**
 * Set while a call runs whose session is for that call only (mm_replay without keepSession), to its served
 * name: a session launched meanwhile does not become the client's current one, and its closing says that
 * call ended it. runTool sets it from the definition's `endsSession`.
 */
export const SessionForCall = FiberRef.unsafeMake<string | undefined>(undefined)

/** How `reserving` waits for a place that is not free: a fan-out's runs, which wait for their turn instead of failing. */
export interface PlaceWait {
  /** The moment (epoch ms, the Clock's) after which it answers the error instead of waiting on. */
  readonly until: number
  /** Shared by one fan-out's runs: its error counts their places apart from the client's sessions (never "close one of yours"). */
  readonly group: symbol
  /** Runs once when the place is not free at once, before the wait. */
  readonly onWait?: Effect.Effect<void> | undefined
}

/** A session as `mm_sessions` lists it. */
export interface SessionListing {
  readonly id: string
  readonly name?: string | undefined
  readonly url?: string | undefined
  readonly title?: string | undefined
  /** Seconds since its last call ended (0 while a call runs on it). */
  readonly idle: number
  /** The calling client's current session. */
  readonly current?: true | undefined
  /** The JS heap its tabs' pages use, MB (the adapter's measure: RegistryOptions.memoryOf). */
  readonly heapMb?: number | undefined
  /** host:port of the remote browser server it runs on; none for a browser this server launched. */
  readonly browser?: string | undefined
  /** Its browser closed or crashed; it answers MM_BROWSER_CLOSED until closed. */
  readonly ended?: true | undefined
}

export interface SessionsService {
  /** The session a call runs on, held for the caller's scope (no idle lease closes it meanwhile). */
  readonly resolve: (request: SessionRequest) => Effect.Effect<SessionHandle, SessionNotFound, Scope.Scope>
  /** The calling client's live sessions, plus those it named by id (every session with --shared-browser). */
  readonly list: Effect.Effect<ReadonlyArray<SessionListing>>
  /**
   * Runs `effect` holding a place for one new session, taken at once beside the open ones (else the error a
   * launch would answer: MM_SESSION_LIMIT, MM_PROFILE_IN_USE, and `effect` does not run). The first launch in
   * `effect` takes that place instead of checking again, so no other launch can take it in between; the place
   * goes back when `effect` ends without launching. With `wait`, a place not free at once is waited for (in
   * the order asked) until `wait.until`, then that error. Inside `effect`, `reserving` runs on the place held.
   */
  readonly reserving: <A, E, R>(effect: Effect.Effect<A, E, R>, wait?: PlaceWait) => Effect.Effect<A, E | SessionLimit | ProfileInUse, R>
  /** How many sessions `list` would show, without reading them (the tool list asks after every call). */
  readonly count: Effect.Effect<number>
  /** Makes a session the calling client's current one. */
  readonly switchTo: (selector: string) => Effect.Effect<SessionListing, SessionNotFound>
  /** Closes a session and all it opened; answers its id. */
  readonly close: (selector: string) => Effect.Effect<string, SessionNotFound>
  /** Tells `listener` when a tab of any session pauses in the debugger or runs again; answers the unsubscribe. */
  readonly onPauseChange: (listener: () => void) => Effect.Effect<() => void>
  /** Why this server closed the session with that id, while it remembers (its newest 256): "was closed by mm_cleanup". */
  readonly whyClosed: (sessionId: string) => Effect.Effect<Option.Option<string>>
}

/** A handle over the services in a context (a single-session layer, or a registry's slot). */
export const handleOf = (context: Context.Context<SessionServices>): SessionHandle => ({ context })

const sessionOf = (handle: SessionHandle) => Context.get(handle.context, Session)

/** The handle's session as a listing (url and title of its active tab); none before a launch. */
export const listingOf = (handle: SessionHandle, extra: Partial<SessionListing> = {}): Effect.Effect<Option.Option<SessionListing>> =>
  Effect.gen(function* () {
    const session = sessionOf(handle)
    const info = yield* session.current
    if (Option.isNone(info)) return Option.none()
    const tabs = yield* Effect.either(session.tabs)
    const active = tabs._tag === "Right" ? tabs.right.tracked.find((tab) => tab.active) : undefined
    const listing: SessionListing = {
      id: info.value.sessionId,
      ...extra,
      ...(active !== undefined ? { url: active.url, ...(active.title !== undefined ? { title: active.title } : {}) } : {}),
      idle: extra.idle ?? 0,
      ...(info.value.browser !== undefined ? { browser: info.value.browser } : {}),
      ...(tabs._tag === "Left" && tabs.left._tag === "BrowserClosed" ? { ended: true as const } : {})
    }
    return Option.some(listing)
  })

/** One handle as the only session: what `withSession` provides. */
export const singleSessions = (handle: SessionHandle): SessionsService => {
  const matching = (selector: string) =>
    Effect.flatMap(listingOf(handle), (listing) =>
      Option.isSome(listing) && (listing.value.id === selector || listing.value.name === selector)
        ? Effect.succeed(listing.value)
        : Effect.fail(new SessionNotFound({ session: selector.slice(0, 120), yours: Option.isSome(listing) ? [listing.value.id] : [] }))
    )
  return {
    resolve: (request) => (request.selector === undefined ? Effect.succeed(handle) : Effect.as(matching(request.selector), handle)),
    list: Effect.map(listingOf(handle, { current: true }), Option.toArray),
    reserving: (effect) => effect,
    count: Effect.suspend(() => Effect.map(sessionOf(handle).current, (info) => (Option.isSome(info) ? 1 : 0))),
    switchTo: matching,
    close: (selector) => Effect.tap(Effect.map(matching(selector), (listing) => listing.id), () => sessionOf(handle).cleanup),
    onPauseChange: (listener) => sessionOf(handle).onPauseChange(listener),
    whyClosed: () => Effect.succeedNone
  }
}

/**
 * Without a registry or a handle, the ambient services (the single-session layers: Playwright.layer and
 * the test layers) are the one session. Missing too, the call is a defect: nothing says where to run it.
 */
const ambientOption: Effect.Effect<Option.Option<SessionHandle>> = Effect.map(Effect.context<never>(), (context) =>
  Option.map(Context.getOption(context as Context.Context<Session>, Session), () => handleOf(context as Context.Context<SessionServices>))
)

const ambientHandle: Effect.Effect<SessionHandle> = Effect.flatMap(ambientOption, (handle) =>
  Option.isSome(handle)
    ? Effect.succeed(handle.value)
    : Effect.dieMessage("No session to run on: pipe the call through withSession(handle), or provide the app layer (its Sessions registry).")
)

/** A selector names the ambient session or, with no ambient session either, nothing. */
const onAmbient = <A>(selector: string, use: (sessions: SessionsService) => Effect.Effect<A, SessionNotFound>): Effect.Effect<A, SessionNotFound> =>
  Effect.flatMap(ambientOption, (handle) =>
    Option.isSome(handle) ? use(singleSessions(handle.value)) : new SessionNotFound({ session: selector.slice(0, 120), yours: [] })
  )

const ambient: SessionsService = {
  resolve: () => ambientHandle,
  list: Effect.succeed([]),
  reserving: (effect) => effect,
  count: Effect.succeed(0),
  switchTo: (selector) => onAmbient(selector, (sessions) => sessions.switchTo(selector)),
  close: (selector) => onAmbient(selector, (sessions) => sessions.close(selector)),
  onPauseChange: () => Effect.succeed(() => undefined),
  whyClosed: () => Effect.succeedNone
}

/**
 * The sessions of this server. A reference with a default (the ambient services), so a program that
 * runs tools needs no more than before; the app layer provides the registry, `withSession` one handle.
 */
export class Sessions extends Context.Reference<Sessions>()("browser-workflow-mcp/Sessions", {
  defaultValue: (): SessionsService => ambient
}) {}

/** Runs tool calls (runTool's effects) on the given session: no requirement left. */
export const withSession =
  (handle: SessionHandle) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, Exclude<R, SessionServices>> =>
    Effect.provideService(effect, Sessions, singleSessions(handle)) as Effect.Effect<A, E, Exclude<R, SessionServices>>

/**
 * Runs an effect that only reads the calling client's current session (none: a session not launched yet), e.g.
 * to list its tools: it renews no idle lease and builds nothing for a client without a session.
 */
export const onCurrentSession = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, Exclude<R, SessionServices>> =>
  Effect.scoped(
    Effect.flatMap(Sessions, (sessions) =>
      Effect.flatMap(Effect.orDie(sessions.resolve({ starts: false, peek: true })), (handle) => Effect.provide(effect, handle.context))
    )
  ) as Effect.Effect<A, E, Exclude<R, SessionServices>>

/**
 * Inside a call, calls without a `session` argument run on the call's session: the one it ran on, or the one a
 * launch inside it started since. A launch (or replay) there gets a new session as a call of its own would when
 * the call's session is launched (a batch's launch step beside session "a" starts "b", never replaces "a"), and
 * the calls after it run on that one once it launched; while the call's session is not launched yet, a launch
 * launches that one (a batch that starts with its launch). `fresh` asks for a new one anyway; a `session`
 * argument names its own.
 */
export const nestedSessions = (outer: SessionsService, handle: SessionHandle): Effect.Effect<SessionsService> =>
  Effect.map(Ref.make<{ readonly own: SessionHandle; readonly ownId?: string; readonly started?: SessionHandle }>({ own: handle }), (state) => {
    const launchedId = (candidate: SessionHandle) => Effect.map(sessionOf(candidate).current, Option.map((info) => info.sessionId))
    // A session a launch started in an earlier call becomes the call's own once it launched; else it is forgotten.
    const own = Effect.gen(function* () {
      const now = yield* Ref.get(state)
      if (now.started === undefined) return now
      const id = yield* launchedId(now.started)
      const next = Option.isSome(id) ? { own: now.started, ownId: id.value } : { own: now.own, ...(now.ownId !== undefined ? { ownId: now.ownId } : {}) }
      yield* Ref.set(state, next)
      return next
    })
    const resolve: SessionsService["resolve"] = (request) =>
      Effect.gen(function* () {
        if (request.selector !== undefined || request.fresh === true) return yield* outer.resolve(request)
        const current = yield* own
        if (request.starts && Option.isSome(yield* launchedId(current.own))) {
          const started = yield* outer.resolve(request)
          yield* Ref.update(state, (before) => ({ ...before, started }))
          return started
        }
        // One a launch started is held for each call on it (its idle lease waits), as a call of its own would.
        return current.ownId === undefined ? current.own : yield* outer.resolve({ ...request, selector: current.ownId })
      })
    return { ...outer, resolve }
  })

/** The longest `session` argument taken (ids are 30 characters; names at most 64). */
const SESSION_ARGUMENT_MAX = 200

/** Takes the `session` argument out of the arguments (the tool's schema never sees it). */
export const sessionArgument = (
  raw: unknown
): Either.Either<{ readonly selector: string | undefined; readonly rest: unknown }, InvalidInput> => {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw) || !Object.hasOwn(raw, "session")) {
    return Either.right({ selector: undefined, rest: raw })
  }
  const { session, ...rest } = raw as Record<string, unknown>
  if (typeof session !== "string" || session.length === 0 || session.length > SESSION_ARGUMENT_MAX) {
    return Either.left(
      new InvalidInput({ field: "session", problem: `a session id from mm_launch, or a session's name (1 to ${SESSION_ARGUMENT_MAX} characters)` })
    )
  }
  return Either.right({ selector: session, rest })
}
