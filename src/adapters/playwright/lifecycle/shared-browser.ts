// The one browser process the sessions of a server share, each session a context of its own in it:
// launched when the first session needs it (again after it died), closed when its last context closes,
// and in any case when the server ends. No browser outlives the sessions that used it.
import { Context, Effect, Ref, type Scope } from "effect"
import type { Browser, BrowserContext } from "playwright"
import { LaunchFailed } from "../../../domain/errors.js"
import { firstLine } from "../calls.js"

export interface SharedBrowserService {
  /**
   * A new context in the shared browser (started with `launch` when none runs), closed with the current
   * scope; the browser closes with its last context.
   */
  readonly newContext: (
    launch: Effect.Effect<Browser, LaunchFailed>,
    open: (browser: Browser) => Promise<BrowserContext>
  ) => Effect.Effect<BrowserContext, LaunchFailed, Scope.Scope>
}

export class SharedBrowser extends Context.Tag("browser-workflow-mcp/internal/SharedBrowser")<SharedBrowser, SharedBrowserService>() {}

interface Running {
  readonly browser: Browser | undefined
  /** Contexts open in it, and launches about to open one. */
  readonly users: number
}

const closeBrowser = (browser: Browser | undefined) =>
  browser === undefined ? Effect.void : Effect.promise(() => browser.close().catch(() => undefined))

/** The shared browser for the current scope: its end closes the browser (and Playwright its temporary profile). */
export const make = Effect.gen(function* () {
  const running = yield* Ref.make<Running>({ browser: undefined, users: 0 })
  const lock = yield* Effect.makeSemaphore(1)
  yield* Effect.addFinalizer(() => Effect.flatMap(Ref.getAndSet(running, { browser: undefined, users: 0 }), (last) => closeBrowser(last.browser)))

  /** One more user of the browser, started now when none runs (uninterruptibly: a launch is never left untracked). */
  const enter = (launch: Effect.Effect<Browser, LaunchFailed>) =>
    lock.withPermits(1)(
      Effect.uninterruptible(
        Effect.gen(function* () {
          const now = yield* Ref.get(running)
          if (now.browser !== undefined && now.browser.isConnected()) {
            yield* Ref.set(running, { ...now, users: now.users + 1 })
            return now.browser
          }
          yield* closeBrowser(now.browser)
          const browser = yield* launch
          yield* Ref.set(running, { browser, users: 1 })
          return browser
        })
      )
    )

  /** One user fewer; the last one closes the browser. A user of a browser that died and was replaced counts no more. */
  const leave = (browser: Browser) =>
    lock.withPermits(1)(
      Effect.flatMap(Ref.get(running), (now) =>
        now.browser !== browser
          ? Effect.void
          : now.users <= 1
            ? Effect.zipRight(Ref.set(running, { browser: undefined, users: 0 }), closeBrowser(browser))
            : Ref.set(running, { ...now, users: now.users - 1 })
      )
    )

  const newContext: SharedBrowserService["newContext"] = (launch, open) =>
    Effect.gen(function* () {
      const browser = yield* Effect.acquireRelease(enter(launch), leave)
      return yield* Effect.acquireRelease(
        Effect.tryPromise({
          try: () => open(browser),
          catch: (error) => new LaunchFailed({ reason: "BrowserStartFailed", detail: `the shared browser did not open a context: ${firstLine(error)}` })
        }),
        (context) => Effect.promise(() => context.close().catch(() => undefined))
      )
    })

  return SharedBrowser.of({ newContext })
})
