// Starting one session as resources in a Scope: the browser, launched on a profile (temporary or
// persistent) or reached over CDP or a Playwright server (acquired uninterruptibly, so an interrupted
// launch still gets it back and closes it), then the start-up (storage state, permissions, fixtures,
// the extension's worker, the home page). Whatever fails or is interrupted, closing the scope releases
// all that was started; on success the scope lives as long as the session.
import { randomBytes } from "node:crypto"
import * as fs from "node:fs/promises"
import { Data, Effect, Either, Option, ParseResult, Ref, Schema } from "effect"
import type { BrowserContext, Page, Worker } from "playwright"
import { Fixture, fromEntries as fixturesFromEntries, type FixtureService } from "../../../capabilities/Fixture.js"
import { StorageState, type Settings } from "../../../domain/config.js"
import { InvalidConfig, InvalidInput, LaunchFailed } from "../../../domain/errors.js"
import { checkNavigation, shortUrl } from "../../../domain/url-policy.js"
import type { LaunchOptions } from "../../../services/Session.js"
import { firstLine, loadPlaywright, type PlaywrightModule } from "../calls.js"
import {
  baseBrowserArgs,
  contextOptionsFor,
  findDevice,
  inspectExtension,
  launchFailureDetail,
  resolveExecutable,
  resolveScreenUrl,
  settingsConflict,
  withDisabledFeatures,
  type ContextOptions,
  type ExtensionInfo
} from "./launch.js"
import { isRemote } from "./endpoints.js"
import type { Placement, RemotePoolService } from "./remote-pool.js"
import { makeLiveSession, trackContext, trackOwnPage } from "./live-session.js"
import { capturesNetwork } from "../devtools/network.js"
import { installPolicy, policyOf, withResolverRules } from "./policy.js"
import { REF_ENGINE, REF_ENGINE_OPTIONS, refSelectorEngine } from "../page-script.js"
import { acquireProfile, markLaunchedProfiles, persistentProfile } from "./profiles.js"
import { followEmulation, installInitScripts } from "../session/emulation-state.js"
import { downloadTarget } from "../session/downloads.js"
import type { SharedBrowserService } from "./shared-browser.js"
import { noNotices } from "./session-state.js"
import { startRecording } from "./recording.js"
import { holdArtifacts } from "./artifact-retention.js"

let refEngineRegistered: Promise<void> | undefined

/** The ref selector engine is process-wide in Playwright and may be registered only once. */
const registerRefEngine = (playwright: PlaywrightModule) =>
  Effect.promise(() => {
    refEngineRegistered ??= playwright.selectors.register(REF_ENGINE, refSelectorEngine, REF_ENGINE_OPTIONS)
    return refEngineRegistered
  })

/** How long Chromium may take to start before the launch gives up (Playwright's default is 3 minutes). */
const BROWSER_START_TIMEOUT_MS = 30_000

/**
 * Waits (at most WORKER_SETTLE_MS, never failing) until an extension's service worker is activated, its
 * install handlers had their turn, and a chrome.storage round trip (queued after what they stored) came back.
 */
const workerSettled = (worker: Worker): Promise<void> =>
  Promise.race([
    worker
      .evaluate(async () => {
        const scope = globalThis as any
        for (let waited = 0; scope.serviceWorker !== undefined && scope.serviceWorker.state !== "activated" && waited < 3_000; waited += 20) {
          await new Promise((resolve) => setTimeout(resolve, 20))
        }
        await new Promise((resolve) => setTimeout(resolve, 0))
        if (scope.chrome?.storage?.local !== undefined) await scope.chrome.storage.local.get(null)
      })
      .catch(() => undefined),
    new Promise<void>((resolve) => setTimeout(resolve, WORKER_SETTLE_MS))
  ])

/** The longest launch waits for an extension's service worker to settle after it registered. */
const WORKER_SETTLE_MS = 3_000

/** A session's id: also the capability another client acts on it with, so unguessable (96 random bits). */
export const newSessionId = () => `mm-${Date.now().toString(36)}-${randomBytes(12).toString("base64url")}`

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

/** Reads the --storage-state file: JSON with cookies and origins as Playwright writes it. Never shows its content. */
const readStorageState = (file: string) =>
  Effect.gen(function* () {
    const fail = (detail: string) => new InvalidConfig({ source: "--storage-state", detail })
    const text = yield* Effect.tryPromise({
      try: () => fs.readFile(file, "utf8"),
      catch: (error) => fail(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? firstLine(error)}`)
    })
    const json = yield* Effect.try({ try: () => JSON.parse(text) as unknown, catch: () => fail(`${file} is not JSON.`) })
    const decoded = Schema.decodeUnknownEither(StorageState)(json)
    if (Either.isLeft(decoded)) {
      const issue = ParseResult.ArrayFormatter.formatErrorSync(decoded.left)[0]
      return yield* fail(
        `${file} is not a storage state (Playwright's format: {cookies: [...], origins: [...]}): at ${issue?.path.join(".") || "the top"}, ${(issue?.message ?? "invalid").split("\n")[0]}`
      )
    }
    // Playwright gets the file's own object: it may hold more than we check (partition keys, IndexedDB).
    return json as StorageStateValue
  })

type StorageStateValue = Exclude<Parameters<BrowserContext["setStorageState"]>[0], string>

interface PageSettings {
  readonly contextOptions: ContextOptions
  readonly slowMo: number
}

/**
 * Launches Chromium on a profile (a temporary one, removed with the scope, or the persistent
 * --user-data-dir). The launch runs uninterruptibly: a client that cancels, or a deadline that passes,
 * while Chromium starts waits for it to be up and then closes it, instead of leaving it untracked.
 */
const launchBrowser = (
  chromium: PlaywrightModule["chromium"],
  settings: Settings,
  extension: ExtensionInfo | undefined,
  page: PageSettings
) =>
  Effect.gen(function* () {
    const executablePath = yield* resolveExecutable(settings.executablePath, () => chromium.executablePath())
    const userDataDir = settings.userDataDir === undefined ? yield* acquireProfile() : yield* persistentProfile(settings.userDataDir)
    const args = [...baseBrowserArgs()]
    if (extension !== undefined) {
      args.push(`--disable-extensions-except=${extension.dir}`, `--load-extension=${extension.dir}`)
    }
    // The URL policy in name resolution too: what request interception never sees reaches no refused host.
    args.push(...withResolverRules(policyOf(settings, extension), settings.browserArgs))
    return yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () =>
          chromium.launchPersistentContext(userDataDir, {
            ...page.contextOptions,
            executablePath,
            headless: settings.headless,
            // A switch given twice (ours and --browser-arg's) once; the disabled features in one switch.
            args: withDisabledFeatures([...new Set(args)]),
            slowMo: page.slowMo,
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
  })

/** Starts the browser the sessions share (no profile of ours: Playwright removes its own when it closes). */
const launchSharedBrowser = (chromium: PlaywrightModule["chromium"], settings: Settings) =>
  Effect.gen(function* () {
    const executablePath = yield* resolveExecutable(settings.executablePath, () => chromium.executablePath())
    const args = [...baseBrowserArgs(), ...withResolverRules(policyOf(settings, undefined), settings.browserArgs)]
    return yield* Effect.tryPromise({
      try: () =>
        chromium.launch({
          executablePath,
          headless: settings.headless,
          args: withDisabledFeatures([...new Set(args)]),
          timeout: BROWSER_START_TIMEOUT_MS,
          handleSIGINT: false,
          handleSIGTERM: false,
          handleSIGHUP: false
        }),
      catch: (error) =>
        new LaunchFailed({
          reason: "BrowserStartFailed",
          detail: `${executablePath} did not start: ${launchFailureDetail(error, { headless: settings.headless })}`
        })
    }).pipe(
      Effect.tapError((error) => Effect.logWarning(error.message)),
      // Its profile is Playwright's: marked as ours so that a server killed with SIGKILL leaves nothing the next one keeps.
      Effect.tap(() => markLaunchedProfiles)
    )
  })

/** A context of the session's own in the shared browser; the scope closes the context, never the browser. */
const contextInSharedBrowser = (
  chromium: PlaywrightModule["chromium"],
  settings: Settings,
  shared: SharedBrowserService,
  page: PageSettings,
  storageState: StorageStateValue | undefined
) =>
  shared.newContext(launchSharedBrowser(chromium, settings), (browser) =>
    browser.newContext({ ...page.contextOptions, ...(storageState !== undefined ? { storageState } : {}) })
  )

/**
 * Whether a session gets a browser of its own rather than a context in the shared one: an extension
 * (Chromium loads extensions per browser), a persistent profile, --browser-per-session, slowMo (a
 * browser-wide setting), or no shared browser offered (a single-session layer).
 */
const ownsBrowser = (settings: Settings, extension: ExtensionInfo | undefined, options: LaunchOptions, shared: SharedBrowserService | undefined) =>
  shared === undefined || extension !== undefined || settings.userDataDir !== undefined || settings.browserPerSession || options.slowMo > 0

/**
 * Starts a session in the current scope. Checks that need no resources (options that conflict,
 * extension, fixture, device, storage-state file, executable) come first, so a bad launch fails
 * before anything starts.
 */
/** Where a session's first tab goes: the home screen, the extension's home page, the app, or a blank page. */
const homeUrlOf = (settings: Settings, extension: ExtensionInfo | undefined): string => {
  const homeSetting = settings.screens.home
  return (
    (homeSetting !== undefined ? resolveScreenUrl(homeSetting, extension, settings.appUrl) : undefined) ??
    (extension?.homePath !== undefined ? `chrome-extension://${extension.id}/${extension.homePath}` : undefined) ??
    settings.appUrl ??
    "about:blank"
  )
}

/**
 * A first tab this launch opened on about:blank (itself, or the browser it started on a fresh profile) holds
 * nothing: its state is known without a trip to the page, and the launch's answer takes it instead of installing
 * the walk in an empty document. A tab of a remote browser or of a user's profile was there before: it is read,
 * and so is any page when a screen rule could name about:blank.
 */
const isOwnBlankTab = (page: Page, opened: boolean, settings: Settings): boolean =>
  opened && page.url() === "about:blank" && settings.screenRules.length === 0

/** A start that failed after its remote browser server went away under it (its context closed): another server may take it. */
export class PlacementLost extends Data.TaggedError("PlacementLost")<{ readonly where: string; readonly detail: string }> {}

/**
 * One session's start. On a remote pool, a failure once the context it was placed on closed (its browser
 * server went away between the placement and the first tab, whatever step noticed it) is a PlacementLost.
 */
export const startSession = (
  settings: Settings,
  fixtures: FixtureService,
  options: LaunchOptions,
  sessionId: string,
  shared?: SharedBrowserService | undefined,
  pool?: RemotePoolService | undefined
) => {
  let placed: { readonly where: string; gone: boolean } | undefined
  const onPlaced = (placement: Placement) => {
    const watched = { where: placement.where, gone: false }
    placement.context.once("close", () => (watched.gone = true))
    placed = watched
  }
  return Effect.mapError(start(settings, fixtures, options, sessionId, onPlaced, shared, pool), (error) =>
    placed?.gone === true ? new PlacementLost({ where: placed.where, detail: error.message }) : error
  )
}

/** A launch's own first page (mm_launch's url) that is no absolute URL, or one the URL policy refuses, fails it before a browser starts. */
const firstPageAllowed = (settings: Settings, extension: ExtensionInfo | undefined, url: string) =>
  Effect.gen(function* () {
    if (!URL.canParse(url)) return yield* new InvalidInput({ field: "url", problem: "an absolute URL, e.g. http://127.0.0.1:8080/" })
    const verdict = checkNavigation(policyOf(settings, extension), url)
    if (!verdict.allowed) {
      return yield* new LaunchFailed({ reason: "AppUnreachable", detail: `the URL policy refuses ${shortUrl(url)}: ${verdict.reason} ${verdict.hint}` })
    }
  })

/** Loads the first tab's page (the home page, or the launch's url); a blank one needs no trip. */
const openFirstPage = (page: Page, url: string) =>
  url === "about:blank"
    ? Effect.void
    : Effect.tryPromise({
        try: (signal) => page.goto(url, { waitUntil: "load", timeout: 20_000, signal }),
        catch: (error) => new LaunchFailed({ reason: "AppUnreachable", detail: `could not open ${url}: ${firstLine(error)}` })
      })

const start = (
  settings: Settings,
  fixtures: FixtureService,
  options: LaunchOptions,
  sessionId: string,
  onPlaced: (placement: Placement) => void,
  shared?: SharedBrowserService | undefined,
  pool?: RemotePoolService | undefined
) =>
  Effect.gen(function* () {
    const extensionDir = options.extensionPath ?? settings.extension
    const conflict = settingsConflict({ ...settings, extension: extensionDir })
    if (conflict !== undefined) {
      const source = conflict.option === "--extension" && options.extensionPath !== undefined ? "extensionPath" : conflict.option
      return yield* new InvalidConfig({ source, detail: conflict.detail })
    }
    const playwright = yield* loadPlaywright()
    yield* registerRefEngine(playwright)
    const extension = extensionDir === undefined ? undefined : yield* inspectExtension(extensionDir)
    if (options.url !== undefined) yield* firstPageAllowed(settings, extension, options.url)
    const fixture = yield* loadFixture(fixtures, options)
    const device = settings.device === undefined ? undefined : yield* findDevice(settings.device, playwright.devices)
    const pageSettings: PageSettings = { contextOptions: contextOptionsFor(settings, device?.descriptor), slowMo: options.slowMo }
    const storageState = settings.storageState === undefined ? undefined : yield* readStorageState(settings.storageState)

    const remote = isRemote(settings) && pool !== undefined ? pool : undefined
    if (remote !== undefined && (!settings.headless || settings.executablePath !== undefined)) {
      yield* Effect.logWarning("--headed and --executable-path apply to a browser this server launches; the remote browser runs as it was started")
    }
    const own = ownsBrowser(settings, extension, options, shared)
    // A remote session's context opens on the least loaded browser server of the pool.
    const placed =
      remote === undefined
        ? undefined
        : yield* remote.newContext(
            playwright.chromium,
            (browser) => browser.newContext({ ...pageSettings.contextOptions, ...(storageState !== undefined ? { storageState } : {}) }),
            { slowMo: options.slowMo }
          )
    if (placed !== undefined) onPlaced(placed)
    const launched = placed === undefined
    const context =
      placed !== undefined
        ? placed.context
        : own || shared === undefined
          ? yield* launchBrowser(playwright.chromium, settings, extension, pageSettings)
          : yield* contextInSharedBrowser(playwright.chromium, settings, shared, pageSettings, storageState)
    // Before the recordings start: --output-max-mb prunes again once they were written (a later resource is released first).
    yield* holdArtifacts(settings, context)
    yield* installInitScripts(context, settings.initScripts)
    // A launched profile takes the state after the start (launchPersistentContext has no such option).
    if (storageState !== undefined && launched && own) {
      yield* Effect.tryPromise({
        try: () => context.setStorageState(storageState),
        catch: (error) => new InvalidConfig({ source: "--storage-state", detail: `the browser did not take the state: ${firstLine(error)}` })
      })
    }
    if (settings.grantPermissions.length > 0) {
      yield* Effect.tryPromise({
        try: () => context.grantPermissions([...settings.grantPermissions]),
        catch: (error) => new InvalidConfig({ source: "--grant-permissions", detail: firstLine(error).replace(/^[\w.]+: /, "") })
      })
    }

    const homeUrl = homeUrlOf(settings, extension)
    const { live, runSync } = yield* makeLiveSession({
      info: {
        sessionId,
        startedAt: new Date().toISOString(),
        goal: options.goal,
        flowTags: options.flowTags,
        tags: options.tags,
        extensionId: extension?.id,
        ...(placed !== undefined ? { browser: placed.where } : {})
      },
      context,
      extension,
      homeUrl,
      downloads: downloadTarget(settings),
      notificationUrl:
        extension === undefined ? undefined : resolveScreenUrl(settings.screens.notification ?? "notification.html", extension, settings.appUrl)
    })
    yield* trackContext(runSync, live, { captureNetwork: capturesNetwork(settings), remote: placed?.where })
    const { viewport, deviceScaleFactor = 1, hasTouch = false, isMobile = false } = pageSettings.contextOptions
    yield* followEmulation(context, { viewport, permissions: settings.grantPermissions, fixed: { deviceScaleFactor, hasTouch, isMobile } })
    // In a shared browser other contexts are other sessions': the policy goes on this context only.
    yield* installPolicy(runSync, live, policyOf(settings, extension), { ownsBrowser: launched && own })
    // Before the first page loads, so the recordings hold the whole session; finished when its scope closes.
    yield* startRecording(settings, context, sessionId)

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
      // Registered is not ready: a popup read now could come before the worker's install handlers seeded its storage.
      const worker = context.serviceWorkers().find((candidate) => candidate.url().startsWith(prefix))
      if (worker !== undefined) yield* Effect.promise(() => workerSettled(worker))
    }

    const existing = context.pages()[0]
    const page =
      existing ??
      (yield* Effect.tryPromise({
        try: () => context.newPage(),
        catch: (error) => new LaunchFailed({ reason: "BrowserStartFailed", detail: `no first tab: ${firstLine(error)}` })
      }))
    yield* trackOwnPage(runSync, live, page)
    yield* openFirstPage(page, options.url ?? homeUrl)
    if (isOwnBlankTab(page, existing === undefined || (launched && settings.userDataDir === undefined), settings)) live.blankFirstTab = page
    const isHome = options.url === undefined && extension !== undefined && homeUrl.startsWith(`chrome-extension://${extension.id}/`)
    yield* Ref.update(live.tabs, (tabs) => ({ ...tabs, active: page, homePage: isHome ? page : tabs.homePage }))
    // Pages opened while starting are not news to the agent.
    yield* Ref.set(live.notices, noNotices)
    return live
  })
