// The live browser: Session and Observer over one shared Playwright state.
import { Context, Effect, Layer, Option, Ref, type Scope } from "effect"
import { Config } from "../../services/Config.js"
import type { KnowledgeStore } from "../../services/KnowledgeStore.js"
import type { Session } from "../../services/Session.js"
import { handleOf, type SessionHandle } from "../../services/Sessions.js"
import { Observer } from "../../services/Observer.js"
import * as Browser from "./lifecycle/browser.js"
import * as DebuggerGuard from "./debugger-guard.js"
import * as DebuggerSession from "./devtools/debugger-session.js"
import { recorderLayer } from "./recorder.js"
import * as ObserverAdapter from "./observer/observer.js"
import * as SessionAdapter from "./session/session.js"
import * as SharedBrowser from "./lifecycle/shared-browser.js"
import { remoteEndpoints } from "./lifecycle/endpoints.js"
import { devtoolsOf } from "./page-eval.js"
import * as RemotePool from "./lifecycle/remote-pool.js"
import * as RefSpace from "./lifecycle/ref-space.js"

/** The Observer, answering from what a paused page can still tell while its JavaScript is paused in the debugger. */
const observer = Layer.effect(Observer, Effect.flatMap(ObserverAdapter.make, DebuggerGuard.observer))

/** Session and Observer backed by a real Chromium, and the Recorder of its recordings; requires Config. */
export const layer = Layer.mergeAll(SessionAdapter.layer, observer, recorderLayer).pipe(Layer.provide(Layer.merge(Browser.layer, DebuggerSession.layer)))

/** One session's Session, Observer and Recorder, for a registry's slot (its BrowserState too, for memoryOf). */
const slotLayer = Layer.mergeAll(SessionAdapter.layer, observer, recorderLayer).pipe(
  Layer.provideMerge(Layer.merge(Browser.slotLayer, DebuggerSession.layer))
)

/** How long one tab's heap is asked for: a tab that does not answer (busy, paused) is left out. */
const HEAP_ASK_MS = 1_000

/**
 * The JS heap a slot's session uses now, MB (one decimal): the sum over its tabs of the heap their
 * renderer's V8 isolate has in use (DevTools `Runtime.getHeapUsage`, through our own DevTools session of
 * the tab), for mm_sessions. Not the processes' resident memory: a context's renderers are not its own to
 * measure in a shared or remote browser. None without a running session or an answering tab.
 */
export const memoryOf = (services: Context.Context<Session | Observer>): Effect.Effect<number | undefined> =>
  Effect.gen(function* () {
    const state = Context.getOption(services as unknown as Context.Context<Browser.BrowserState>, Browser.BrowserState)
    if (Option.isNone(state)) return undefined
    const live = yield* state.value.current
    if (Option.isNone(live)) return undefined
    const pages = (yield* Ref.get(live.value.tabs)).pages.filter((page) => !page.isClosed())
    const sizes = yield* Effect.forEach(
      pages,
      (page) =>
        Effect.tryPromise(async () => (await (await devtoolsOf(page)).send("Runtime.getHeapUsage")).usedSize).pipe(
          Effect.timeout(HEAP_ASK_MS),
          Effect.option
        ),
      { concurrency: 4 }
    )
    const answered = sizes.flatMap(Option.toArray)
    return answered.length === 0 ? undefined : Math.round(answered.reduce((sum, size) => sum + size, 0) / 100_000) / 10
  })

/**
 * Builds sessions (for the session registry): each its own Session and Observer in the scope it is given,
 * its context in one browser process shared for the current scope (or a browser of its own when it needs
 * one). The server's housekeeping runs once, here.
 */
export const slots: Effect.Effect<(scope: Scope.Scope) => Effect.Effect<Context.Context<Session | Observer>>, never, Config | Scope.Scope> =
  Effect.gen(function* () {
    yield* Browser.housekeeping
    const shared = yield* SharedBrowser.make
    // The remote browsers every session of the server is placed on (none: sessions launch their own).
    const pool = yield* RemotePool.make(remoteEndpoints(yield* Config))
    // Everything the server was given (Config, the Fixture capability...) reaches every session, and one
    // space of ref numbers: a ref one session was shown names nothing in another.
    const context = (yield* Effect.context<Config>()).pipe(
      Context.add(SharedBrowser.SharedBrowser, shared),
      Context.add(RemotePool.RemotePool, pool),
      Context.add(RefSpace.RefSpace, RefSpace.make())
    )
    return (scope: Scope.Scope) => Layer.buildWithScope(Layer.provide(slotLayer, Layer.succeedContext(context)), scope)
  })

/**
 * A new session for library use, closed with the current scope: `runTool(tool)(input).pipe(withSession(handle))`.
 * Its refs come from the process's ref space (unless the context holds one), shared with every session opened so.
 */
export const openSession: Effect.Effect<SessionHandle, never, Config | KnowledgeStore | Scope.Scope> = Effect.gen(function* () {
  const context = yield* Effect.context<Config | KnowledgeStore>()
  const scope = yield* Effect.scope
  const built = yield* Layer.buildWithScope(Layer.provide(slotLayer, Layer.succeedContext(context)), scope)
  return handleOf(Context.merge(context, built))
})
