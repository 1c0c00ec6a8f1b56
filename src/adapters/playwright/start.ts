// Starting one session as resources in a Scope: the temporary profile, then the browser (acquired
// uninterruptibly, so an interrupted launch still gets it back and closes it), then the start-up
// (fixtures, the extension's worker, the home page). Whatever fails or is interrupted, closing the
// scope releases all that was started; on success the scope lives as long as the session.
import { randomBytes } from "node:crypto"
import { Effect, Option, Ref } from "effect"
import type { BrowserContext } from "playwright"
import { Fixture, fromEntries as fixturesFromEntries, type FixtureService } from "../../capabilities/Fixture.js"
import type { Settings } from "../../domain/config.js"
import { LaunchFailed } from "../../domain/errors.js"
import type { LaunchOptions } from "../../services/Session.js"
import { baseBrowserArgs, inspectExtension, launchFailureDetail, resolveExecutable, resolveScreenUrl } from "./launch.js"
import { makeLiveSession, trackContext, trackOwnPage } from "./live-session.js"
import { REF_ENGINE, REF_ENGINE_OPTIONS, refSelectorEngine } from "./page-script.js"
import { acquireProfile } from "./profiles.js"
import { noNotices } from "./session-state.js"

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

/** True for Playwright's timeout error class (structure, not message text). */
export const isPlaywrightTimeout = (error: unknown): boolean =>
  timeoutErrorClass !== undefined && error instanceof timeoutErrorClass

let refEngineRegistered: Promise<void> | undefined

/** The ref selector engine is process-wide in Playwright and may be registered only once. */
const registerRefEngine = (playwright: PlaywrightModule) =>
  Effect.promise(() => {
    refEngineRegistered ??= playwright.selectors.register(REF_ENGINE, refSelectorEngine, REF_ENGINE_OPTIONS)
    return refEngineRegistered
  })

/** How long Chromium may take to start before the launch gives up (Playwright's default is 3 minutes). */
const BROWSER_START_TIMEOUT_MS = 30_000

export const newSessionId = () => `mm-${Date.now().toString(36)}-${randomBytes(3).toString("hex")}`

export const firstLine = (error: unknown) => String(error instanceof Error ? error.message : error).split("\n")[0] ?? ""

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

/** The Fixture capability when provided, else the config file's fixtures. */
export const fixturesFor = (settings: Settings) =>
  Effect.map(Effect.serviceOption(Fixture), Option.getOrElse(() => fixturesFromEntries(settings.fixtures, settings.configDir)))

/**
 * Starts a session in the current scope. Checks that need no resources (executable, extension,
 * fixture) come first, so a bad launch fails before anything starts.
 */
export const startSession = (settings: Settings, fixtures: FixtureService, options: LaunchOptions, sessionId: string) =>
  Effect.gen(function* () {
    const playwright = yield* loadPlaywright()
    const chromium = playwright.chromium
    yield* registerRefEngine(playwright)
    const executablePath = yield* resolveExecutable(settings.executablePath, () => chromium.executablePath())
    const extensionDir = options.extensionPath ?? settings.extension
    const extension = extensionDir === undefined ? undefined : yield* inspectExtension(extensionDir)
    const fixture = yield* loadFixture(fixtures, options)

    const userDataDir = yield* acquireProfile()
    const args = [...baseBrowserArgs()]
    if (extension !== undefined) {
      args.push(`--disable-extensions-except=${extension.dir}`, `--load-extension=${extension.dir}`)
    }
    args.push(...settings.browserArgs)

    // acquireRelease runs the launch uninterruptibly: a client that cancels, or a deadline that passes,
    // while Chromium starts waits for it to be up and then closes it, instead of leaving it untracked.
    const context = yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () =>
          chromium.launchPersistentContext(userDataDir, {
            executablePath,
            headless: settings.headless,
            args,
            slowMo: options.slowMo,
            viewport: { width: 1280, height: 800 },
            timeout: BROWSER_START_TIMEOUT_MS,
            handleSIGINT: false,
            handleSIGTERM: false,
            handleSIGHUP: false,
            ...(extension !== undefined ? { ignoreDefaultArgs: ["--disable-extensions"] } : {})
          }),
        catch: (error) =>
          new LaunchFailed({
            reason: "BrowserStartFailed",
            detail: `${executablePath} did not start: ${launchFailureDetail(error, { headless: settings.headless })}`
          })
      }).pipe(Effect.tapError((error) => Effect.logWarning(error.message))),
      (context) => Effect.promise(() => context.close().catch(() => undefined))
    )

    const homeSetting = settings.screens.home
    const homeUrl =
      (homeSetting !== undefined ? resolveScreenUrl(homeSetting, extension, settings.appUrl) : undefined) ??
      (extension?.homePath !== undefined ? `chrome-extension://${extension.id}/${extension.homePath}` : undefined) ??
      settings.appUrl ??
      "about:blank"
    const { live, runSync } = yield* makeLiveSession({
      info: {
        sessionId,
        startedAt: new Date().toISOString(),
        goal: options.goal,
        flowTags: options.flowTags,
        tags: options.tags,
        extensionId: extension?.id
      },
      context,
      extension,
      homeUrl,
      notificationUrl:
        extension === undefined ? undefined : resolveScreenUrl(settings.screens.notification ?? "notification.html", extension, settings.appUrl)
    })
    yield* trackContext(runSync, live)

    if (fixture !== undefined) {
      if (fixture.cookies.length > 0) {
        yield* Effect.tryPromise({
          try: () => context.addCookies(fixture.cookies.map((cookie) => ({ ...cookie })) as Parameters<BrowserContext["addCookies"]>[0]),
          catch: (error) => new LaunchFailed({ reason: "FixtureNotFound", detail: `fixture cookies rejected: ${firstLine(error)}` })
        })
      }
      if (fixture.origins.length > 0) {
        const origins = fixture.origins.map((entry) => ({ origin: entry.origin, localStorage: [...entry.localStorage] }))
        yield* Effect.tryPromise({
          try: () => context.addInitScript(seedLocalStorage, origins),
          catch: (error) => new LaunchFailed({ reason: "FixtureNotFound", detail: `fixture storage not applied: ${firstLine(error)}` })
        })
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

    const page =
      context.pages()[0] ??
      (yield* Effect.tryPromise({
        try: () => context.newPage(),
        catch: (error) => new LaunchFailed({ reason: "BrowserStartFailed", detail: `no first tab: ${firstLine(error)}` })
      }))
    yield* trackOwnPage(runSync, live, page)
    if (homeUrl !== "about:blank") {
      yield* Effect.tryPromise({
        try: (signal) => page.goto(homeUrl, { waitUntil: "load", timeout: 20_000, signal }),
        catch: (error) => new LaunchFailed({ reason: "AppUnreachable", detail: `could not open ${homeUrl}: ${firstLine(error)}` })
      })
    }
    const isHome = extension !== undefined && homeUrl.startsWith(`chrome-extension://${extension.id}/`)
    yield* Ref.update(live.tabs, (tabs) => ({ ...tabs, active: page, homePage: isHome ? page : tabs.homePage }))
    // Pages opened while starting are not news to the agent.
    yield* Ref.set(live.notices, noNotices)
    return live
  })
