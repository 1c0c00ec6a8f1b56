// One running browser session: its fixed facts, its state in Refs, and the Playwright callbacks that
// feed those Refs. Callbacks are plain JavaScript: they apply the pure transitions of session-state.ts
// through the runtime captured when the session started, each in one synchronous step, and they only
// ever touch their own session's Refs (a late callback of a closed session changes nothing that counts).
import { Effect, Option, Ref, Runtime } from "effect"
import type { BrowserContext, Dialog, FileChooser, Page, Request } from "playwright"
import { fromPage, shownUrl } from "../../../domain/errors.js"
import type { TabRole } from "../../../domain/observation.js"
import type { SessionInfo } from "../../../services/Session.js"
import type { ExtensionInfo } from "./launch.js"
import { emptyRanges, type RefRanges } from "./ref-space.js"
import { CONSOLE_FLOOD_COUNT, CONSOLE_FLOOD_WINDOW_MS, silenceDialogs, watchConsole } from "../page-eval.js"
import { watchFrameConsoles } from "../session/frames.js"
import { makeDownloads, watchDownloads, type Downloads, type DownloadTarget } from "../session/downloads.js"
import { makeNamedFiles, type NamedFiles } from "../session/named-files.js"
import { initScriptErrorText } from "../session/emulation-state.js"
import type { ObserveResult, PageAffordances } from "../page-script.js"
import { emptyMocks, type MockState } from "../devtools/mocks.js"
import { emptyNetwork, watchNetwork, type NetworkLog } from "../devtools/network.js"
import {
  consoleLogged,
  consoleNavigated,
  dialogCounted,
  emptyConsole,
  emptyTabs,
  noNotices,
  noticeAdded,
  noticesWithout,
  roleIn,
  tabClosed,
  tabIdIn,
  tabOpened,
  withNotification,
  type ConsoleLog,
  type DialogRate,
  type Notices,
  type RoleFacts,
  type TabState
} from "./session-state.js"

/** What the latest action asked to do with dialogs of its page. */
export interface DialogChoiceOn {
  readonly page: Page
  readonly accept: boolean
  readonly promptText?: string | undefined
}

export interface LiveSession {
  readonly info: SessionInfo
  readonly context: BrowserContext
  readonly extension: ExtensionInfo | undefined
  readonly homeUrl: string
  readonly roleFacts: RoleFacts
  readonly tabs: Ref.Ref<TabState>
  readonly notices: Ref.Ref<Notices>
  readonly console: Ref.Ref<ConsoleLog>
  /** The requests of every tab, once the capture is on (docs/devtools.md). */
  readonly network: Ref.Ref<NetworkLog>
  /** The session's network mocks: rules, their routes and the log of hits and misses. */
  readonly mocks: Ref.Ref<MockState>
  /** What its pages downloaded (session/downloads.ts). */
  readonly downloads: Downloads
  /** The screenshots it wrote (session/named-files.ts): the only files under those names a later one may replace. */
  readonly namedFiles: NamedFiles
  /**
   * What the latest action asked to do with dialogs its page opens (none means dismiss). It stays in
   * force after the action, for a confirm() that comes after a fetch, until the next action says otherwise.
   */
  readonly dialogChoice: Ref.Ref<DialogChoiceOn | undefined>
  readonly dialogRates: Ref.Ref<ReadonlyMap<Page, DialogRate>>
  /** Why the browser went away, once it did: the session has ended, though it is still the current one. */
  readonly ended: Ref.Ref<Option.Option<string>>
  /** The page tools act on: a synchronous view of `tabs` for readers outside Effect. */
  readonly active: Page | undefined
  /** The ref numbers the session's walks and listings took (ref-space.ts): a ref outside them is another session's. */
  readonly refsTaken: RefRanges
  /**
   * One page walk at a time on the session (and one listing of an ambiguous target's matches): each takes
   * its block of the server's ref numbers (ref-space.ts) in the order its page runs it.
   */
  readonly observeLock: Effect.Semaphore
  /**
   * One input at a time on the session: the mouse and keyboard are one device, and a guard armed for one
   * action would otherwise be replaced by a concurrent one's and see the other's events. Held from an
   * action's preparation to its verdict (and, for Playwright's path, its whole action).
   */
  readonly inputLock: Effect.Semaphore
  /**
   * The page's state as read by the last page script of an action (a click's finish, a wait's check) or
   * by a search's walk, so that the state read right after it needs no second trip to the page. The next state
   * read takes it; any other use of the session drops it. A hand-off between the calls of one tool run.
   */
  lastRead: { readonly page: Page; readonly result: ObserveResult } | undefined
  /**
   * The first tab, when the launch opened it on about:blank with no screen rule to match: an empty
   * document whose state is known without a trip to the page. The launch's state read takes it (once,
   * and only while the tab is still active and on about:blank).
   */
  blankFirstTab: Page | undefined
  /**
   * What the page last read offered (a file input, drag sources...), for the tools listed only while
   * they apply. Only calls touch it (the observer's state reads), never a browser callback.
   */
  affordances: { readonly page: Page; readonly affords: PageAffordances } | undefined
  /** A file chooser a page opened (a click on a file input) that no upload has answered yet. */
  readonly fileChooser: Ref.Ref<FileChooser | undefined>
}

export interface LiveSessionFacts {
  readonly info: SessionInfo
  readonly context: BrowserContext
  readonly extension: ExtensionInfo | undefined
  readonly homeUrl: string
  readonly notificationUrl: string | undefined
  readonly downloads: DownloadTarget
}

/** Runs a synchronous Effect from a callback, on the runtime captured when the session started. */
export type RunSync = <A>(effect: Effect.Effect<A>) => A

export const makeLiveSession = (facts: LiveSessionFacts) =>
  Effect.gen(function* () {
    const runSync: RunSync = Runtime.runSync(yield* Effect.runtime<never>())
    const tabs = yield* Ref.make(emptyTabs)
    const live: LiveSession = {
      info: facts.info,
      context: facts.context,
      extension: facts.extension,
      homeUrl: facts.homeUrl,
      roleFacts: { extensionId: facts.extension?.id, notificationUrl: facts.notificationUrl },
      tabs,
      notices: yield* Ref.make(noNotices),
      console: yield* Ref.make(emptyConsole),
      network: yield* Ref.make(emptyNetwork),
      mocks: yield* Ref.make(emptyMocks),
      downloads: yield* makeDownloads(facts.downloads),
      namedFiles: yield* makeNamedFiles,
      dialogChoice: yield* Ref.make<DialogChoiceOn | undefined>(undefined),
      dialogRates: yield* Ref.make<ReadonlyMap<Page, DialogRate>>(new Map()),
      ended: yield* Ref.make(Option.none<string>()),
      get active() {
        return runSync(Ref.get(tabs)).active
      },
      refsTaken: emptyRanges(),
      observeLock: yield* Effect.makeSemaphore(1),
      inputLock: yield* Effect.makeSemaphore(1),
      lastRead: undefined,
      blankFirstTab: undefined,
      affordances: undefined,
      fileChooser: yield* Ref.make<FileChooser | undefined>(undefined)
    }
    return { live, runSync }
  })

/** A tab's role, read synchronously (the observer's page probe wants a plain value). */
export const roleOfNow = (runSync: RunSync, live: LiveSession, page: Page): TabRole =>
  roleIn(runSync(Ref.get(live.tabs)), live.roleFacts, page)

export const addNotice = (live: LiveSession, text: string) => Ref.update(live.notices, (notices) => noticeAdded(notices, text))

/** A new tab a call opened or picked up is its own doing, not news. */
export const dropNewTabNotices = (live: LiveSession) =>
  Ref.update(live.notices, (notices) => noticesWithout(notices, (text) => text.startsWith("A new tab opened")))

const describe = (tabs: TabState, live: LiveSession, page: Page) => `${shownUrl(page.url())} (${roleIn(tabs, live.roleFacts, page)})`

const article = (word: string) => (/^[aeiou]/.test(word) ? "An" : "A")

/**
 * Requests a page has in flight that can feed a render (the document, scripts, styles, fetch and XHR;
 * not images, media, fonts or sockets), with when each started. Read by the observer's settling: a
 * page that is still fetching what it will render is not settled however quiet its DOM is.
 */
const pending = new WeakMap<Page, Map<Request, number>>()
const RENDER_INPUTS: ReadonlySet<string> = new Set(["document", "script", "stylesheet", "xhr", "fetch"])

/** How many render-feeding requests of the page started less than `maxAgeMs` ago and have not ended. */
export const requestsInFlight = (page: Page, maxAgeMs: number): number => {
  const requests = pending.get(page)
  if (requests === undefined || requests.size === 0) return 0
  const since = Date.now() - maxAgeMs
  let count = 0
  for (const started of requests.values()) if (started >= since) count++
  return count
}

const trackRequests = (page: Page) => {
  const requests = new Map<Request, number>()
  pending.set(page, requests)
  page.on("request", (request) => {
    if (RENDER_INPUTS.has(request.resourceType())) requests.set(request, Date.now())
  })
  const ended = (request: Request) => requests.delete(request)
  page.on("requestfinished", ended)
  page.on("requestfailed", ended)
}

/** Wires one page's events into the session's Refs; a page already tracked is left alone. */
const trackPage = (runSync: RunSync, live: LiveSession, page: Page) => {
  const known = runSync(Ref.modify(live.tabs, (tabs) => [tabs.pages.includes(page), tabOpened(tabs, page)]))
  if (known) return
  const tabId = () => tabIdIn(runSync(Ref.get(live.tabs)), page)
  const log = (type: string, text: string, stack?: string) =>
    runSync(
      Ref.update(live.console, (log) =>
        consoleLogged(log, tabId(), { type, text, url: shownUrl(page.url()), time: Date.now(), ...(stack !== undefined ? { stack } : {}) })
      )
    )

  void watchConsole(page, {
    onMessage: log,
    onFlood: () => {
      const text = `Tab ${tabId()} logged more than ${CONSOLE_FLOOD_COUNT} console messages within ${CONSOLE_FLOOD_WINDOW_MS} ms; its console is muted and no longer recorded until it navigates.`
      log("dropped", text)
      runSync(addNotice(live, text))
    }
  }).catch(() => undefined)
  // Out-of-process (cross-origin) frames log through sessions of their own; their uncaught errors come as pageerror.
  watchFrameConsoles(page, {
    onMessage: (type, text, origin) => log(type, `[frame ${origin}] ${text}`),
    onFlood: (origin) => log("dropped", `A frame of ${origin} in tab ${tabId()} floods its console; it is no longer recorded until the frame navigates.`)
  })
  page.on("pageerror", (error) => log("pageerror", initScriptErrorText(error.message, error.stack), error.stack))
  // "Since the last navigation" in the console starts here (a client-side route change counts too).
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) runSync(Ref.update(live.console, (log) => consoleNavigated(log, tabId())))
  })
  trackRequests(page)
  watchDownloads(runSync, live.downloads, page, (text) => runSync(addNotice(live, text)))
  page.on("crash", () => runSync(addNotice(live, `The page in tab ${tabId()} crashed (${fromPage("URL", page.url())}); reload it with mm_navigate {screen: "reload"}.`)))
  page.on("dialog", (dialog) => answerDialog(runSync, live, page, dialog, tabId))
  // Listening makes Playwright intercept the page's file choosers (no native dialog): one waits for mm_upload_file.
  page.on("filechooser", (chooser) => {
    runSync(Ref.set(live.fileChooser, chooser))
    runSync(
      addNotice(
        live,
        `A file chooser opened${page === live.active ? "" : ` in tab ${tabId()}`}${chooser.isMultiple() ? " (several files allowed)" : ""}; choose files with mm_upload_file {paths}.`
      )
    )
  })
  page.on("close", () =>
    runSync(
      Effect.gen(function* () {
        const { fallback, tabs } = yield* Ref.modify(live.tabs, (tabs) => {
          const closed = tabClosed(tabs, live.roleFacts, page)
          return [closed, closed.tabs]
        })
        yield* Ref.update(live.fileChooser, (chooser) => (chooser?.page() === page ? undefined : chooser))
        yield* Ref.update(live.dialogRates, (rates) => {
          const next = new Map(rates)
          next.delete(page)
          return next
        })
        // When the browser itself went away, the session's end says it all.
        if (fallback === undefined || Option.isSome(yield* Ref.get(live.ended))) return
        yield* addNotice(
          live,
          fallback.to === undefined
            ? "The active tab closed and no tab is left open."
            : `The active tab closed; tools now act on ${describe(tabs, live, fallback.to)}.`
        )
      })
    )
  )
}

/**
 * A dialog blocks its page until answered: answer at once, as the running action asked (dismiss by
 * default; a page being left is let go), and tell the agent what it said and what was done. A page
 * that opens dialogs in a loop gets them silenced, so that it cannot wedge the session.
 */
const answerDialog = (runSync: RunSync, live: LiveSession, page: Page, dialog: Dialog, tabId: () => string) => {
  const choice = runSync(Ref.get(live.dialogChoice))
  const own = choice?.page === page ? choice : undefined
  const type = dialog.type()
  const accept = type === "beforeunload" ? own?.accept !== false : own?.accept === true
  void (accept ? dialog.accept(own?.promptText) : dialog.dismiss()).catch(() => undefined)
  const message = fromPage("text", dialog.message().replace(/\s+/g, " "), 200)
  const tab = page === live.active ? "" : ` in tab ${tabId()}`
  const loop = runSync(
    Ref.modify(live.dialogRates, (rates) => {
      const counted = dialogCounted(rates.get(page), Date.now())
      return [counted.loop, new Map(rates).set(page, counted.rate)]
    })
  )
  runSync(
    addNotice(
      live,
      `${article(type)} ${type} dialog${tab} was ${accept ? "accepted" : "dismissed"} (${message}).` +
        (accept || type === "alert"
          ? ""
          : ' To accept it, pass dialog: {"accept": true} (and promptText for a prompt) to the click, key, type, select or hover that opens it.')
    )
  )
  if (!loop) return
  runSync(
    addNotice(
      live,
      `The page${tab} opens dialogs in a loop; alert, confirm and prompt of this document now answer at once without a dialog (until it navigates).`
    )
  )
  void silenceDialogs(page)
}

/**
 * Tracks the context's pages from now on and marks the session ended when the browser goes away
 * (crash, kill, disconnect: the persistent context closes). With `captureNetwork` (the devtools group
 * is on) every tab's requests are captured from the first one. Gives nothing to undo: the listeners go
 * with the context.
 */
export const trackContext = (
  runSync: RunSync,
  live: LiveSession,
  options: { readonly captureNetwork?: boolean; readonly remote?: string | undefined } = {}
) =>
  Effect.sync(() => {
    if (options.captureNetwork === true) watchNetwork(runSync, live)
    for (const page of live.context.pages()) trackPage(runSync, live, page)
    live.context.on("page", (page) => {
      trackPage(runSync, live, page)
      const opensNotification =
        page.opener() !== null && live.extension !== undefined && page.url().startsWith(`chrome-extension://${live.extension.id}/`)
      runSync(
        Effect.zipRight(
          Ref.update(live.tabs, (tabs) => (opensNotification ? withNotification(tabs, page, true) : tabs)),
          addNotice(live, `A new tab opened (${fromPage("URL", page.url() || "about:blank")}).`)
        )
      )
    })
    const why = options.remote === undefined ? "the browser process exited or lost its connection" : `the browser server at ${options.remote} went away or dropped the connection`
    live.context.on("close", () => {
      runSync(Ref.update(live.ended, (ended) => (Option.isSome(ended) ? ended : Option.some(why))))
    })
  })

/** Starts tracking one page the session opened itself (the first tab). */
export const trackOwnPage = (runSync: RunSync, live: LiveSession, page: Page) => Effect.sync(() => trackPage(runSync, live, page))
