// The live browser state shared by the Playwright Session and Observer: the session's lifecycle
// (launch and close, one at a time, interruption-safe) and access to the running session.
import { Context, Effect, Exit, Layer, Option, Ref, Runtime, Scope } from "effect"
import type { Page } from "playwright"
import type { Settings } from "../../../domain/config.js"
import { BrowserClosed, LaunchFailed, NoActiveSession, PageClosed, PageUnresponsive, SessionAlreadyRunning } from "../../../domain/errors.js"
import type { TabRole } from "../../../domain/observation.js"
import { Config } from "../../../services/Config.js"
import type { LaunchError, LaunchOptions, LaunchResult } from "../../../services/Session.js"
import { roleOfNow, type LiveSession } from "./live-session.js"
import { removeStaleProfiles } from "./profiles.js"
import { tabIdIn } from "./session-state.js"
import { PRELOAD_DELAY_MS, preloadPlaywright } from "../calls.js"
import { SharedBrowser } from "./shared-browser.js"
import * as RefSpace from "./ref-space.js"
import { isRemote, remoteEndpoints } from "./endpoints.js"
import * as RemotePool from "./remote-pool.js"
import { fixturesFor, newSessionId, startSession } from "./start.js"

export type { LiveSession } from "./live-session.js"

/**
 * Where the session is in its life. Only launch and close change it, one at a time under the
 * lifecycle lock; a browser that dies marks its session ended (in the session's own Ref) and the
 * session stays current, answering MM_BROWSER_CLOSED, until the next launch or cleanup ends it.
 */
type Phase =
  | { readonly _tag: "Idle" }
  | { readonly _tag: "Starting"; readonly sessionId: string }
  | { readonly _tag: "Running"; readonly live: LiveSession; readonly scope: Scope.CloseableScope }

export interface BrowserStateService {
  readonly settings: Settings
  /** The server's ref numbers, shared by all its sessions: a walk takes a block before it hands refs out. */
  readonly refs: RefSpace.RefSpaceService
  /** The current session, also one whose browser died. */
  readonly current: Effect.Effect<Option.Option<LiveSession>>
  /** The running session: MM_NO_ACTIVE_SESSION without one, MM_BROWSER_CLOSED when its browser died. */
  readonly live: Effect.Effect<LiveSession, NoActiveSession | BrowserClosed>
  /**
   * The page tools act on, or MM_PAGE_CLOSED when none is open (at once: a caller that may meet a dying
   * browser runs under refineClosed, which tells MM_BROWSER_CLOSED apart).
   */
  readonly activePage: Effect.Effect<{ readonly live: LiveSession; readonly page: Page }, NoActiveSession | BrowserClosed | PageClosed>
  readonly launch: (options: LaunchOptions) => Effect.Effect<LaunchResult, LaunchError>
  readonly close: Effect.Effect<boolean>
  /** The tab's role now (a synchronous read of the session's tabs). */
  readonly roleOf: (live: LiveSession, page: Page) => TabRole
  /** The tab's id for this session, e.g. "t3". */
  readonly tabIdOf: (live: LiveSession, page: Page) => string
  /** Makes the page the one tools act on. */
  readonly activate: (live: LiveSession, page: Page) => Effect.Effect<void>
  /**
   * A page that closed (or stopped answering) under a call: MM_BROWSER_CLOSED when the whole browser
   * went with it, else the given MM_PAGE_CLOSED or MM_PAGE_UNRESPONSIVE.
   */
  readonly refineClosed: <A, E>(effect: Effect.Effect<A, E>) => Effect.Effect<A, E | BrowserClosed>
}

export class BrowserState extends Context.Tag("browser-workflow-mcp/internal/BrowserState")<BrowserState, BrowserStateService>() {}

const endedError = (live: LiveSession) =>
  Effect.map(Ref.get(live.ended), Option.map((detail) => new BrowserClosed({ sessionId: live.info.sessionId, detail })))

/** How long a call that found every page closed waits for the context's own close event. */
const CONTEXT_CLOSE_GRACE_MS = 300
const CONTEXT_CLOSE_POLL_MS = 25

/**
 * The session's end once a page closed under a call. A browser that dies closes its pages first and
 * its context a moment later (separate protocol events), so a call that finds every page closed waits
 * briefly for the context's close before it blames the page.
 */
const endedAfterPageClose = (live: LiveSession) =>
  Effect.gen(function* () {
    for (let waited = 0; ; waited += CONTEXT_CLOSE_POLL_MS) {
      const ended = yield* endedError(live)
      if (Option.isSome(ended) || waited >= CONTEXT_CLOSE_GRACE_MS) return ended
      if (live.context.pages().some((page) => !page.isClosed())) return ended
      yield* Effect.sleep(CONTEXT_CLOSE_POLL_MS)
    }
  })

/** Once per server, not per session: stale profiles removed, Playwright preloaded. */
export const housekeeping = Effect.gen(function* () {
  const settings = yield* Config
  // Profiles a killed server left behind go when the next server starts; never a live server's.
  yield* Effect.forkScoped(
    removeStaleProfiles(undefined, settings.userDataDir).pipe(
      Effect.tap((removed) =>
        removed.length === 0 ? Effect.void : Effect.logInfo(`removed ${removed.length} temporary profile(s) left by servers that are gone`, removed)
      )
    )
  )
  // Playwright loads in the background once the server has answered its client's first requests,
  // so that the first launch does not wait for it (interrupted when the layer closes first).
  yield* Effect.forkScoped(Effect.delay(preloadPlaywright, PRELOAD_DELAY_MS))
})

/** One session's browser state; in a registry's slot it opens its context in the shared browser when offered one. */
export const make = Effect.gen(function* () {
  const settings = yield* Config
  // A Fixture capability replaces the config file's fixtures; read once, when the layer is built.
  const fixtures = yield* fixturesFor(settings)
  const shared = Option.getOrUndefined(yield* Effect.serviceOption(SharedBrowser))
  // The server's pool of remote browsers; a session built alone (a single-session layer) gets one of its own.
  const offered = Option.getOrUndefined(yield* Effect.serviceOption(RemotePool.RemotePool))
  const pool = offered ?? (isRemote(settings) ? yield* RemotePool.make(remoteEndpoints(settings)) : undefined)
  const refs = yield* RefSpace.RefSpace
  const runSync = Runtime.runSync(yield* Effect.runtime<never>())
  const phase = yield* Ref.make<Phase>({ _tag: "Idle" })
  const lifecycle = yield* Effect.makeSemaphore(1)

  /** Ends a running session: its scope closes the browser and removes the profile. Not to be interrupted half-way. */
  const end = (running: Extract<Phase, { _tag: "Running" }>) =>
    Effect.uninterruptible(Effect.zipRight(Ref.set(phase, { _tag: "Idle" }), Scope.close(running.scope, Exit.void)))

  const close = lifecycle.withPermits(1)(
    Effect.flatMap(Ref.get(phase), (current) => (current._tag === "Running" ? Effect.as(end(current), true) : Effect.succeed(false)))
  )

  const retriesOnLoss = isRemote(settings) ? remoteEndpoints(settings).length - 1 : 0

  /** One start in a scope of its own, which outlives this call when the start succeeds; on failure or interruption it closes here. */
  const startOnce = (options: LaunchOptions) =>
    Effect.gen(function* () {
      const sessionId = newSessionId()
      yield* Ref.set(phase, { _tag: "Starting", sessionId })
      const scope = yield* Scope.make()
      return yield* startSession(settings, fixtures, options, sessionId, shared, pool).pipe(
        Scope.extend(scope),
        Effect.onExit((exit) =>
          Exit.isSuccess(exit)
            ? // Its ref numbers count while it runs; its end gives back those no live session holds.
              Effect.zipRight(Scope.addFinalizer(scope, Effect.sync(refs.track(exit.value.refsTaken))), Ref.set(phase, { _tag: "Running", live: exit.value, scope }))
            : Effect.zipRight(Scope.close(scope, exit), Ref.set(phase, { _tag: "Idle" }))
        )
      )
    })

  const launchInTurn = (options: LaunchOptions) =>
    Effect.gen(function* () {
      const current = yield* Ref.get(phase)
      if (current._tag === "Running") {
        const ended = yield* Ref.get(current.live.ended)
        // A session whose browser died is over: replacing it needs no force.
        if (Option.isNone(ended) && !options.force) {
          return yield* new SessionAlreadyRunning({ sessionId: current.live.info.sessionId })
        }
        yield* end(current)
      }
      const live = yield* startOnce(options).pipe(
        // A remote browser server that went away while the session started on it (after its placement): the
        // start runs again, at most once per other server of the pool (the one gone is tried last, or not at all).
        Effect.tapErrorTag("PlacementLost", (lost) =>
          Effect.logWarning(`the browser server at ${lost.where} went away while a session started on it: ${lost.detail}`)
        ),
        Effect.retry({ times: retriesOnLoss, while: (error) => error._tag === "PlacementLost" }),
        Effect.catchTag("PlacementLost", (lost) =>
          Effect.fail(new LaunchFailed({ reason: "ConnectFailed", detail: `the browser server at ${lost.where} went away while the session started (${lost.detail})` }))
        )
      )
      const result: LaunchResult = { sessionId: live.info.sessionId, extensionId: live.extension?.id, homeUrl: live.homeUrl }
      return result
    })

  const launch = (options: LaunchOptions) =>
    Effect.gen(function* () {
      // A launch that is starting a browser right now answers a second one at once; everything else
      // (a force launch, a cleanup, a launch after a cleanup) waits its turn.
      const current = yield* Ref.get(phase)
      if (current._tag === "Starting" && !options.force) return yield* new SessionAlreadyRunning({ sessionId: current.sessionId })
      return yield* lifecycle.withPermits(1)(launchInTurn(options))
    })

  const currentLive = Effect.map(Ref.get(phase), (current) => (current._tag === "Running" ? Option.some(current.live) : Option.none()))

  const live = Effect.gen(function* () {
    const running = yield* currentLive
    if (Option.isNone(running)) return yield* new NoActiveSession()
    const ended = yield* endedError(running.value)
    if (Option.isSome(ended)) return yield* ended.value
    running.value.lastRead = undefined
    return running.value
  })

  // Every port call that reaches the active page runs under refineClosed, which waits for the context's
  // close when the browser may be dying: a page found closed here is answered at once, not waited for twice.
  const activePage = Effect.gen(function* () {
    const current = yield* live
    const page = (yield* Ref.get(current.tabs)).active
    if (page === undefined || page.isClosed()) return yield* new PageClosed({ detail: "no tab is active (every tab of the session is closed)" })
    return { live: current, page }
  })

  const refineClosed = <A, E>(effect: Effect.Effect<A, E>): Effect.Effect<A, E | BrowserClosed> =>
    Effect.catchIf(
      effect,
      // A page that stopped answering because its browser died is a closed browser, not a stuck page.
      (error) => error instanceof PageClosed || error instanceof PageUnresponsive,
      (error) =>
        Effect.flatMap(currentLive, (running) =>
          Effect.flatMap(
            Option.isNone(running) ? Effect.succeedNone : endedAfterPageClose(running.value),
            Option.match({ onNone: () => Effect.fail<E | BrowserClosed>(error), onSome: (ended) => Effect.fail(ended) })
          )
        )
    )

  yield* Effect.addFinalizer(() => close)

  return BrowserState.of({
    settings,
    refs,
    current: currentLive,
    live,
    activePage,
    launch,
    close,
    roleOf: (session, page) => roleOfNow(runSync, session, page),
    tabIdOf: (session, page) => tabIdIn(runSync(Ref.get(session.tabs)), page),
    activate: (session, page) => Ref.update(session.tabs, (tabs) => ({ ...tabs, active: page })),
    refineClosed
  })
})

/** The single-session layer: one session's state plus the server's housekeeping, its refs numbered from e1. */
export const layer = Layer.scoped(BrowserState, Effect.zipRight(housekeeping, make)).pipe(Layer.provide(RefSpace.layer))

/** One session of a registry (the factory does the housekeeping once). */
export const slotLayer = Layer.scoped(BrowserState, make)
