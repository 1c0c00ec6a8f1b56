// The live browser state shared by the Playwright Session and Observer: the persistent context,
// tracked pages with their roles, the active page, the ref counter, and launch/close.
import { randomBytes } from "node:crypto"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { Context, Data, Effect, Layer, Option } from "effect"
import type { BrowserContext, Page } from "playwright"
import type { Settings } from "../../domain/config.js"
import { InvalidConfig, LaunchFailed, NoActiveSession, PageClosed, SessionAlreadyRunning } from "../../domain/errors.js"
import type { TabRole } from "../../domain/observation.js"
import { Fixture, fromEntries as fixturesFromEntries, type FixtureService } from "../../capabilities/Fixture.js"
import { Config } from "../../services/Config.js"
import type { LaunchOptions, LaunchResult, SessionInfo } from "../../services/Session.js"
import { baseBrowserArgs, inspectExtension, resolveExecutable, resolveScreenUrl, type ExtensionInfo } from "./launch.js"
import { REF_ENGINE, refSelectorEngine, type ObserveResult } from "./page-script.js"

/** One running browser session. Mutable on purpose: Playwright reports pages through callbacks. */
export interface LiveSession {
  readonly info: SessionInfo
  readonly context: BrowserContext
  readonly userDataDir: string
  readonly extension: ExtensionInfo | undefined
  readonly homeUrl: string
  readonly pages: Array<Page>
  active: Page | undefined
  homePage: Page | undefined
  notificationPages: Set<Page>
  notices: Array<string>
  /** The newest console messages of every tab (bounded), each with its sequence number. */
  readonly console: Array<{ readonly seq: number; readonly type: string; readonly text: string; readonly url: string }>
  consoleSeq: number
  nextRef: number
  readonly observeLock: Effect.Semaphore
  /**
   * The page's state as read by the last page script of an action (a click's finish, a wait's check),
   * so that the state read right after that action needs no second trip to the page. The next state
   * read takes it; any other use of the session drops it.
   */
  lastRead: { readonly page: Page; readonly result: ObserveResult } | undefined
  /**
   * What the latest action asked to do with dialogs its page opens (none means dismiss). It stays in
   * force after the action, for a confirm() that comes after a fetch, until the next action says otherwise.
   */
  dialogChoice: { readonly page: Page; readonly accept: boolean; readonly promptText?: string | undefined } | undefined
  /** Each tab's id for this session ("t1", "t2"...), given when the tab is first seen and never reused. */
  readonly tabIds: WeakMap<Page, string>
  nextTabId: number
}

export interface BrowserStateService {
  readonly settings: Settings
  readonly current: Effect.Effect<Option.Option<LiveSession>>
  /** The running session or MM_NO_ACTIVE_SESSION. */
  readonly live: Effect.Effect<LiveSession, NoActiveSession>
  /** The page tools act on, or MM_PAGE_CLOSED when none is open. */
  readonly activePage: Effect.Effect<{ readonly live: LiveSession; readonly page: Page }, NoActiveSession | PageClosed>
  readonly launch: (options: LaunchOptions) => Effect.Effect<LaunchResult, LaunchFailed | SessionAlreadyRunning | InvalidConfig>
  readonly close: Effect.Effect<boolean>
  readonly roleOf: (live: LiveSession, page: Page) => TabRole
  /** The tab's id for this session, e.g. "t3". */
  readonly tabIdOf: (live: LiveSession, page: Page) => string
  readonly activate: (live: LiveSession, page: Page) => void
}

export class BrowserState extends Context.Tag("browser-workflow-mcp/internal/BrowserState")<BrowserState, BrowserStateService>() {}

type PlaywrightModule = typeof import("playwright")

let playwrightModule: Promise<PlaywrightModule> | undefined
let timeoutErrorClass: PlaywrightModule["errors"]["TimeoutError"] | undefined

/**
 * Playwright is loaded on the first launch, not at server start: it is most of the start-up time,
 * and tools/list should answer before a browser is ever needed.
 */
const loadPlaywright = () =>
  Effect.promise(() => {
    playwrightModule ??= import("playwright").then((module) => {
      timeoutErrorClass = module.errors.TimeoutError
      return module
    })
    return playwrightModule
  })

let refEngineRegistered: Promise<void> | undefined

/** The ref selector engine is process-wide in Playwright and may be registered only once. */
const registerRefEngine = (playwright: PlaywrightModule) =>
  Effect.promise(() => {
    refEngineRegistered ??= playwright.selectors.register(REF_ENGINE, refSelectorEngine)
    return refEngineRegistered
  })

/** How many console messages a session keeps. */
const CONSOLE_BUFFER = 500

const newSessionId = () => `mm-${Date.now().toString(36)}-${randomBytes(3).toString("hex")}`

const firstLine = (error: unknown) => String(error instanceof Error ? error.message : error).split("\n")[0] ?? ""

/** The state a launch starts from: inline, a named preset of the Fixture capability, or none. */
const loadFixture = (fixtures: FixtureService, options: LaunchOptions) =>
  Effect.gen(function* () {
    if (options.stateMode === "onboarding") return undefined
    if (options.fixture !== undefined) return options.fixture
    const name = options.fixturePreset ?? (options.stateMode === "default" ? "default" : undefined)
    if (name === undefined) {
      return yield* new LaunchFailed({
        reason: "FixtureNotFound",
        detail: 'stateMode "custom" needs fixturePreset (a name from the config file\'s fixtures) or an inline fixture.'
      })
    }
    const entry = yield* fixtures.resolve(name)
    if (Option.isSome(entry)) return entry.value
    // Only a preset asked for by name is an error; "default" is optional.
    if (options.fixturePreset === undefined) return undefined
    const known = yield* fixtures.names
    return yield* new LaunchFailed({
      reason: "FixtureNotFound",
      detail: `no fixture named "${name}". Known fixtures: ${known.length === 0 ? "(none; add them under fixtures in the config file, or provide a Fixture layer)" : known.join(", ")}.`
    })
  })

/** Seeds localStorage per origin before the page's own scripts run, without clobbering later changes. */
const seedLocalStorage = (entries: ReadonlyArray<{ origin: string; localStorage: ReadonlyArray<{ name: string; value: string }> }>) => {
  for (const entry of entries) {
    if (location.origin !== entry.origin) continue
    for (const item of entry.localStorage) {
      if (localStorage.getItem(item.name) === null) localStorage.setItem(item.name, item.value)
    }
  }
}

export const make = Effect.gen(function* () {
  const settings = yield* Config
  // A Fixture capability replaces the config file's fixtures; read once, when the layer is built.
  const fixtures = Option.getOrElse(yield* Effect.serviceOption(Fixture), () =>
    fixturesFromEntries(settings.fixtures, settings.configDir)
  )
  let session: LiveSession | undefined

  /** The notification page's URL: the configured screen, else the extension's notification.html. */
  const notificationUrl = (live: LiveSession) =>
    live.extension === undefined
      ? undefined
      : resolveScreenUrl(settings.screens.notification ?? "notification.html", live.extension, settings.appUrl)

  const roleOf = (live: LiveSession, page: Page): TabRole => {
    const url = page.url()
    if (live.notificationPages.has(page)) return "notification"
    if (live.extension !== undefined && url.startsWith(`chrome-extension://${live.extension.id}/`)) {
      const notification = notificationUrl(live)
      if (notification !== undefined && url.startsWith(notification) && page !== live.homePage) return "notification"
      return "extension"
    }
    if (url.startsWith("http://") || url.startsWith("https://")) return "app"
    return "other"
  }

  const describePage = (live: LiveSession, page: Page) => `${page.url()} (${roleOf(live, page)})`

  const activate = (live: LiveSession, page: Page) => {
    live.active = page
  }

  const logConsole = (live: LiveSession, page: Page, type: string, text: string) => {
    live.consoleSeq += 1
    live.console.push({ seq: live.consoleSeq, type, text: text.slice(0, 2_000), url: page.url() })
    if (live.console.length > CONSOLE_BUFFER) live.console.splice(0, live.console.length - CONSOLE_BUFFER)
  }

  const tabIdOf = (live: LiveSession, page: Page): string => {
    const known = live.tabIds.get(page)
    if (known !== undefined) return known
    const id = `t${live.nextTabId++}`
    live.tabIds.set(page, id)
    return id
  }

  const track = (live: LiveSession, page: Page) => {
    if (live.pages.includes(page)) return
    live.pages.push(page)
    tabIdOf(live, page)
    page.on("console", (message) => logConsole(live, page, message.type(), message.text()))
    page.on("pageerror", (error) => logConsole(live, page, "pageerror", error.message))
    // A dialog blocks its page until answered: answer at once, as the running action asked (dismiss
    // by default; a page being left is let go), and tell the agent what it said and what was done.
    page.on("dialog", (dialog) => {
      const choice = live.dialogChoice?.page === page ? live.dialogChoice : undefined
      const type = dialog.type()
      const accept = type === "beforeunload" ? choice?.accept !== false : choice?.accept === true
      const message = Array.from(dialog.message().replace(/\s+/g, " ")).slice(0, 200).join("")
      const tab = page === live.active ? "" : ` in tab ${tabIdOf(live, page)}`
      live.notices.push(
        `${/^[aeiou]/.test(type) ? "An" : "A"} ${type} dialog${tab} said "${message}"; it was ${accept ? "accepted" : "dismissed"}.` +
          (accept || type === "alert"
            ? ""
            : ' To accept it, pass dialog: {"accept": true} (and promptText for a prompt) to the click, key, type, select or hover that opens it.')
      )
      void (accept ? dialog.accept(choice?.promptText) : dialog.dismiss()).catch(() => undefined)
    })
    page.on("close", () => {
      const index = live.pages.indexOf(page)
      if (index >= 0) live.pages.splice(index, 1)
      live.notificationPages.delete(page)
      if (live.homePage === page) live.homePage = undefined
      if (live.active !== page || session !== live) return
      // Fall back to the extension home, else an app page, else anything still open.
      const fallback =
        live.homePage ?? live.pages.find((candidate) => roleOf(live, candidate) === "app") ?? live.pages[0]
      live.active = fallback
      live.notices.push(
        fallback === undefined
          ? "The active tab closed and no tab is left open."
          : `The active tab closed; tools now act on ${describePage(live, fallback)}.`
      )
    })
  }

  const close = Effect.gen(function* () {
    const live = session
    if (live === undefined) return false
    session = undefined
    yield* Effect.promise(() => live.context.close().catch(() => undefined))
    yield* Effect.promise(() => fs.rm(live.userDataDir, { recursive: true, force: true }).catch(() => undefined))
    return true
  })

  const launch = (options: LaunchOptions) =>
    Effect.gen(function* () {
      if (session !== undefined) {
        if (!options.force) return yield* new SessionAlreadyRunning({ sessionId: session.info.sessionId })
        yield* close
      }
      const playwright = yield* loadPlaywright()
      const chromium = playwright.chromium
      yield* registerRefEngine(playwright)
      const executablePath = yield* resolveExecutable(settings.executablePath, () => chromium.executablePath())
      const extensionDir = options.extensionPath ?? settings.extension
      const extension = extensionDir === undefined ? undefined : yield* inspectExtension(extensionDir)
      const fixture = yield* loadFixture(fixtures, options)

      const userDataDir = yield* Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "bwm-profile-")))
      const args = [...baseBrowserArgs()]
      if (extension !== undefined) {
        args.push(`--disable-extensions-except=${extension.dir}`, `--load-extension=${extension.dir}`)
      }
      args.push(...settings.browserArgs)

      const context = yield* Effect.tryPromise({
        try: () =>
          chromium.launchPersistentContext(userDataDir, {
            executablePath,
            headless: settings.headless,
            args,
            slowMo: options.slowMo,
            viewport: { width: 1280, height: 800 },
            handleSIGINT: false,
            handleSIGTERM: false,
            handleSIGHUP: false,
            ...(extension !== undefined ? { ignoreDefaultArgs: ["--disable-extensions"] } : {})
          }),
        catch: (error) =>
          new LaunchFailed({ reason: "BrowserStartFailed", detail: `${executablePath} did not start: ${firstLine(error)}` })
      }).pipe(Effect.tapError(() => Effect.promise(() => fs.rm(userDataDir, { recursive: true, force: true }))))

      const startup = Effect.gen(function* () {
        if (fixture !== undefined) {
          if (fixture.cookies.length > 0) {
            yield* Effect.tryPromise({
              try: () => context.addCookies(fixture.cookies.map((cookie) => ({ ...cookie })) as Parameters<BrowserContext["addCookies"]>[0]),
              catch: (error) => new LaunchFailed({ reason: "FixtureNotFound", detail: `fixture cookies rejected: ${firstLine(error)}` })
            })
          }
          if (fixture.origins.length > 0) {
            const origins = fixture.origins.map((entry) => ({ origin: entry.origin, localStorage: [...entry.localStorage] }))
            yield* Effect.promise(() => context.addInitScript(seedLocalStorage, origins))
          }
        }

        if (extension?.hasServiceWorker) {
          // Confirm the derived id by the extension's own service worker.
          const prefix = `chrome-extension://${extension.id}/`
          const present = context.serviceWorkers().some((worker) => worker.url().startsWith(prefix))
          if (!present) {
            yield* Effect.tryPromise({
              try: () =>
                context.waitForEvent("serviceworker", {
                  predicate: (worker) => worker.url().startsWith(prefix),
                  timeout: 10_000
                }),
              catch: () =>
                new LaunchFailed({
                  reason: "BrowserStartFailed",
                  detail: `the extension's service worker (${prefix}) did not start within 10 s; check the extension for errors.`
                })
            })
          }
        }

        const homeSetting = settings.screens.home
        const homeUrl =
          (homeSetting !== undefined ? resolveScreenUrl(homeSetting, extension, settings.appUrl) : undefined) ??
          (extension?.homePath !== undefined ? `chrome-extension://${extension.id}/${extension.homePath}` : undefined) ??
          settings.appUrl ??
          "about:blank"

        const live: LiveSession = {
          info: {
            sessionId: newSessionId(),
            startedAt: new Date().toISOString(),
            goal: options.goal,
            flowTags: options.flowTags,
            tags: options.tags,
            extensionId: extension?.id
          },
          context,
          userDataDir,
          extension,
          homeUrl,
          pages: [],
          active: undefined,
          homePage: undefined,
          notificationPages: new Set(),
          notices: [],
          console: [],
          consoleSeq: 0,
          nextRef: 1,
          observeLock: yield* Effect.makeSemaphore(1),
          lastRead: undefined,
          tabIds: new WeakMap(),
          nextTabId: 1,
          dialogChoice: undefined
        }
        for (const page of context.pages()) track(live, page)
        context.on("page", (page) => {
          track(live, page)
          if (session === live && page.opener() !== null && live.extension !== undefined && page.url().startsWith(`chrome-extension://${live.extension.id}/`)) {
            live.notificationPages.add(page)
          }
          if (session === live) live.notices.push(`A new tab opened: ${page.url() || "about:blank"}.`)
        })

        const page = context.pages()[0] ?? (yield* Effect.promise(() => context.newPage()))
        track(live, page)
        if (homeUrl !== "about:blank") {
          yield* Effect.tryPromise({
            try: (signal) => page.goto(homeUrl, { waitUntil: "load", timeout: 20_000, signal }),
            catch: (error) =>
              new LaunchFailed({ reason: "AppUnreachable", detail: `could not open ${homeUrl}: ${firstLine(error)}` })
          })
        }
        if (extension !== undefined && homeUrl.startsWith(`chrome-extension://${extension.id}/`)) live.homePage = page
        live.active = page
        return live
      })

      const live = yield* startup.pipe(
        Effect.onError(() =>
          Effect.promise(async () => {
            await context.close().catch(() => undefined)
            await fs.rm(userDataDir, { recursive: true, force: true }).catch(() => undefined)
          })
        )
      )
      // Pages opened while starting are not news to the agent.
      live.notices.length = 0
      session = live
      const result: LaunchResult = { sessionId: live.info.sessionId, extensionId: extension?.id, homeUrl: live.homeUrl }
      return result
    })

  const live = Effect.suspend(() => {
    if (session === undefined) return Effect.fail(new NoActiveSession())
    session.lastRead = undefined
    return Effect.succeed(session)
  })

  const activePage = Effect.flatMap(live, (current) => {
    const page = current.active
    if (page === undefined || page.isClosed()) {
      return Effect.fail(new PageClosed({ detail: "no tab is active (every tab of the session is closed)" }))
    }
    return Effect.succeed({ live: current, page })
  })

  yield* Effect.addFinalizer(() => close)

  return BrowserState.of({
    settings,
    current: Effect.sync(() => Option.fromNullable(session)),
    live,
    activePage,
    launch,
    close,
    roleOf,
    tabIdOf,
    activate
  })
})

export const layer = Layer.scoped(BrowserState, make)

/** A rejected Playwright call, kept whole until it is classified into one of our tagged errors. */
export class BrowserCallFailed extends Data.TaggedError("BrowserCallFailed")<{ readonly cause: unknown }> {}

/** True for Playwright's timeout error class (structure, not message text). */
export const isPlaywrightTimeout = (error: unknown): boolean =>
  timeoutErrorClass !== undefined && error instanceof timeoutErrorClass

export { firstLine }
