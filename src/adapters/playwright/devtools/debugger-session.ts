// The session's JavaScript debugger: a DevTools session of our own per tab for the Debugger domain,
// the state that calls and DevTools events both touch (Refs, updated by callbacks through the captured
// runtime), waiting for a pause, and reading a pause's context. One handle per browser session.
import * as path from "node:path"
import { Context, Deferred, Effect, Layer, Option, Ref, Runtime, SynchronizedRef } from "effect"
import type { CDPSession, Frame as PlaywrightFrame, Page } from "playwright"
import { PAUSE_CONSOLE, type BreakpointLocation, type PauseContext } from "../../../domain/debugger.js"
import { DebuggerFailed, fromPage, InvalidInput, ScreenshotFailed } from "../../../domain/errors.js"
import type { ScreenState, TabInfo, Tabs } from "../../../domain/observation.js"
import type { ScreenshotFile, ScreenshotOptions } from "../../../services/Session.js"
import { firstLine } from "../calls.js"
import { addNotice, type LiveSession } from "../lifecycle/live-session.js"
import { markDebuggerPaused } from "../page-eval.js"
import { writeNamedFile } from "../session/named-files.js"
import { screenshotFile } from "../session/screenshots.js"
import { noticesWithout, roleIn, tabIdIn } from "../lifecycle/session-state.js"
import {
  atText,
  changedLocals,
  frameKeyOf,
  initialDebugger,
  LOCAL_SCOPES,
  localValue,
  newestPause,
  pauseContextOf,
  pausedIn,
  protocolTarget,
  resumedIn,
  scriptAdded,
  scriptFactsOf,
  withContext,
  type BreakpointEntry,
  type DebuggerSessionState,
  type Pause,
  type PausedEvent,
  type RemoteValue,
  type ScriptFacts
} from "./debugger-state.js"

/** Our DevTools session on one tab, with the scripts it has seen. */
export interface TabDebug {
  readonly page: Page
  readonly cdp: CDPSession
  readonly scripts: Ref.Ref<ReadonlyMap<string, ScriptFacts>>
  /** Takes our listeners off the page and the DevTools session. */
  readonly unlisten: () => void
}

export interface DebuggerHandle {
  readonly live: LiveSession
  readonly state: Ref.Ref<DebuggerSessionState>
  readonly tabs: Ref.Ref<ReadonlyMap<Page, TabDebug>>
  /** Completed by the next pause of any tab, then replaced: what a call that waits for a pause awaits. */
  readonly nextPause: Ref.Ref<Deferred.Deferred<void>>
  /** Attaching, detaching and breakpoint changes run one at a time. */
  readonly lock: Effect.Semaphore
  /** Reading a pause's context runs one at a time, so `changed` compares with the pause read before. */
  readonly contextLock: Effect.Semaphore
  /** The context's listener for tabs that open while the debugger is on. */
  readonly onNewPage: Ref.Ref<((page: Page) => void) | undefined>
  /** Told whenever a tab pauses or runs again (shared by every handle of the layer). */
  readonly pauseChanges: PauseSignal
}

/** Listeners told that a tab paused or runs again; none once the layer closed. */
interface PauseSignal {
  readonly listeners: Set<() => void>
  closed: boolean
}

type RunSync = <A>(effect: Effect.Effect<A>) => A

export interface DebuggersService {
  /** The session's debugger, made on first use (the handle of a replaced session is dropped). */
  readonly of: (live: LiveSession) => Effect.Effect<DebuggerHandle>
  /** The session's debugger if it was ever used. */
  readonly find: (live: LiveSession) => Effect.Effect<Option.Option<DebuggerHandle>>
  /**
   * Detaches the debugger from every tab (a pause resumes, our DevTools sessions close) and forgets the
   * handle: before a session ends, so nothing of ours outlives it in the browser or in memory.
   */
  readonly release: Effect.Effect<void>
  /** Runs an Effect from a browser callback, on the runtime captured when the layer was built. */
  readonly runSync: RunSync
  readonly runFork: <A, E>(effect: Effect.Effect<A, E>) => void
  /** Calls `listener` whenever a tab of any session pauses or runs again (what the tool list follows); answers how to stop. */
  readonly onPauseChange: (listener: () => void) => Effect.Effect<() => void>
}

export class Debuggers extends Context.Tag("browser-workflow-mcp/internal/Debuggers")<Debuggers, DebuggersService>() {}

const makeHandle = (live: LiveSession, pauseChanges: PauseSignal) =>
  Effect.gen(function* () {
    const handle: DebuggerHandle = {
      live,
      state: yield* Ref.make(initialDebugger),
      tabs: yield* Ref.make<ReadonlyMap<Page, TabDebug>>(new Map()),
      nextPause: yield* Ref.make(yield* Deferred.make<void>()),
      lock: yield* Effect.makeSemaphore(1),
      contextLock: yield* Effect.makeSemaphore(1),
      onNewPage: yield* Ref.make<((page: Page) => void) | undefined>(undefined),
      pauseChanges
    }
    return handle
  })

export const layer = Layer.scoped(
  Debuggers,
  Effect.gen(function* () {
    const runtime = yield* Effect.runtime<never>()
    const slot = yield* SynchronizedRef.make(Option.none<DebuggerHandle>())
    // A signal, not a log: each reader needs only to know that something changed since it last looked.
    const pauseChanges = yield* Effect.acquireRelease(
      Effect.sync((): PauseSignal => ({ listeners: new Set(), closed: false })),
      (signal) =>
        Effect.sync(() => {
          signal.closed = true
          signal.listeners.clear()
        })
    )
    return Debuggers.of({
      of: (live) =>
        SynchronizedRef.modifyEffect(slot, (current) =>
          Option.isSome(current) && current.value.live === live
            ? Effect.succeed([current.value, current] as const)
            : Effect.gen(function* () {
                // A handle of a session that was replaced (a force launch): detached, then dropped.
                if (Option.isSome(current)) yield* detachAll(current.value)
                const handle = yield* makeHandle(live, pauseChanges)
                return [handle, Option.some(handle)] as const
              })
        ),
      find: (live) => Effect.map(SynchronizedRef.get(slot), Option.filter((handle) => handle.live === live)),
      release: SynchronizedRef.updateEffect(slot, (current) =>
        Option.isNone(current)
          ? Effect.succeed(current)
          : current.value.lock.withPermits(1)(Effect.as(detachAll(current.value), Option.none<DebuggerHandle>()))
      ),
      runSync: Runtime.runSync(runtime),
      runFork: (effect) => void Runtime.runFork(runtime)(effect),
      onPauseChange: (listener) =>
        Effect.sync(() => {
          if (pauseChanges.closed) return () => undefined
          pauseChanges.listeners.add(listener)
          return () => void pauseChanges.listeners.delete(listener)
        })
    })
  })
)

export const failed = (action: string) => (cause: unknown) => new DebuggerFailed({ action, detail: firstLine(cause) })

/** The id of a tab now ("t?" once it closed). */
export const tabIdOf = (handle: DebuggerHandle, page: Page) => Effect.map(Ref.get(handle.live.tabs), (tabs) => tabIdIn(tabs, page))

/** The notice that tells of a pause no call reported; the call that reports it takes it back. */
const noticePrefix = (tabId: string) => `Tab ${tabId} paused in the debugger`

const pauseNotice = (pause: Pause) => {
  const top = pause.frames[0]
  // A script's URL and function name are the page's words.
  const where = top === undefined ? "" : ` at ${fromPage("frame", atText(top))}`
  return `${noticePrefix(pause.tabId)} (${pause.breakpoint ?? pause.reason}${where}); mm_step, mm_evaluate_frame and mm_debugger {"action": "resume"} act on it.`
}

/** Tells the readers of pause changes (the MCP servers, for their tool lists) that a tab paused or runs again. */
const pauseChanged = (handle: DebuggerHandle) =>
  // Browser events still come while the layer closes (the browser going away resumes its tabs): nobody listens then.
  Effect.sync(() => {
    if (handle.pauseChanges.closed) return
    for (const listener of [...handle.pauseChanges.listeners]) listener()
  })

/** A pause the call answers with: its notice would only say it again. */
export const reported = (handle: DebuggerHandle, pause: Pause) =>
  Ref.update(handle.live.notices, (notices) => noticesWithout(notices, (text) => text.startsWith(noticePrefix(pause.tabId))))

/** Whether no call has answered with this pause yet (it came between calls: its notice still waits). */
export const unreported = (handle: DebuggerHandle, pause: Pause) =>
  Effect.map(Ref.get(handle.live.notices), (notices) => notices.entries.some((entry) => entry.text.startsWith(noticePrefix(pause.tabId))))

/** Lets a page that paused outside its own code (an evaluation that slipped past the ignore list) run on. */
const letRun = (cdp: CDPSession, pauseAgain: boolean) =>
  void cdp
    .send("Debugger.resume")
    .then(() => (pauseAgain ? cdp.send("Debugger.pause") : undefined))
    .catch(() => undefined)

const onPaused = (handle: DebuggerHandle, tab: TabDebug, event: PausedEvent) =>
  Effect.gen(function* () {
    const scripts = yield* Ref.get(tab.scripts)
    const top = event.callFrames[0]
    const pageCode = top !== undefined && scripts.has(top.location.scriptId)
    if (!pageCode && (event.hitBreakpoints ?? []).length === 0) {
      letRun(tab.cdp, (yield* Ref.get(handle.state)).pauseRequested.has(tab.page))
      return
    }
    const tabId = yield* tabIdOf(handle, tab.page)
    const pause = yield* Ref.modify(handle.state, (state) => {
      const next = pausedIn(state, tab.page, tabId, event, scripts)
      return [next.pause, next.state]
    })
    const waiting = yield* Ref.getAndSet(handle.nextPause, yield* Deferred.make<void>())
    yield* Deferred.succeed(waiting, undefined)
    yield* addNotice(handle.live, pauseNotice(pause))
    yield* pauseChanged(handle)
  })

/** The tab runs again (resumed, stepping, or its paused document left). */
const resumed = (handle: DebuggerHandle, page: Page) =>
  Effect.zipRight(
    Ref.update(handle.state, (state) => resumedIn(state, page)),
    pauseChanged(handle)
  )

/** The tab is gone (closed, or its DevTools session went away): its pause, scripts and bindings go with it. */
const forgetTab = (handle: DebuggerHandle, page: Page) =>
  Effect.gen(function* () {
    yield* Ref.update(handle.tabs, (tabs) => {
      if (!tabs.has(page)) return tabs
      const next = new Map(tabs)
      next.delete(page)
      return next
    })
    yield* Ref.update(handle.state, (state) => {
      const pauseRequested = new Set(state.pauseRequested)
      pauseRequested.delete(page)
      return {
        ...resumedIn(state, page),
        pauseRequested,
        breakpoints: state.breakpoints.map((entry) => {
          if (!entry.bound.has(page)) return entry
          const bound = new Map(entry.bound)
          bound.delete(page)
          return { ...entry, bound }
        })
      }
    })
    yield* pauseChanged(handle)
  })

const locationFrom = (scripts: ReadonlyMap<string, ScriptFacts>, location: { scriptId: string; lineNumber: number; columnNumber?: number }): BreakpointLocation => ({
  url: scripts.get(location.scriptId)?.url ?? "",
  line: location.lineNumber + 1,
  column: (location.columnNumber ?? 0) + 1
})

/** A breakpoint bound in a script that loaded after it was set. */
const onResolved = (handle: DebuggerHandle, tab: TabDebug, event: { breakpointId: string; location: { scriptId: string; lineNumber: number; columnNumber?: number } }) =>
  Effect.gen(function* () {
    const scripts = yield* Ref.get(tab.scripts)
    yield* Ref.update(handle.state, (state) => ({
      ...state,
      breakpoints: state.breakpoints.map((entry) => {
        const bound = entry.bound.get(tab.page)
        if (bound === undefined || bound.protocolId !== event.breakpointId) return entry
        const location = locationFrom(scripts, event.location)
        // A document loaded again binds the same place again: keep each place once.
        const known = bound.locations.some((other) => other.url === location.url && other.line === location.line && other.column === location.column)
        return known ? entry : { ...entry, bound: new Map(entry.bound).set(tab.page, { ...bound, locations: [...bound.locations, location] }) }
      })
    }))
  })

/** Binds one of our breakpoints in a tab's DevTools session. */
export const bindBreakpoint = (tab: TabDebug, entry: BreakpointEntry) =>
  Effect.gen(function* () {
    const reply = yield* Effect.tryPromise({
      try: () =>
        tab.cdp.send("Debugger.setBreakpointByUrl", {
          ...protocolTarget(entry.spec),
          lineNumber: entry.spec.line - 1,
          ...(entry.spec.column !== undefined ? { columnNumber: entry.spec.column - 1 } : {}),
          ...(entry.spec.condition !== undefined ? { condition: entry.spec.condition } : {})
        }),
      catch: failed("set the breakpoint")
    })
    const scripts = yield* Ref.get(tab.scripts)
    return { protocolId: reply.breakpointId, locations: reply.locations.map((location) => locationFrom(scripts, location)) }
  })

/** Attaches the debugger to a tab: our own DevTools session, the Debugger domain, every breakpoint. */
export const attachTab = (debuggers: DebuggersService, handle: DebuggerHandle, page: Page) =>
  Effect.gen(function* () {
    const known = (yield* Ref.get(handle.tabs)).get(page)
    if (known !== undefined) return known
    const { runSync } = debuggers
    const cdp = yield* Effect.tryPromise({ try: () => handle.live.context.newCDPSession(page), catch: failed("attach to the tab") })
    const scripts = yield* Ref.make<ReadonlyMap<string, ScriptFacts>>(new Map())
    const listeners: Array<() => void> = []
    const tab: TabDebug = {
      page,
      cdp,
      scripts,
      unlisten: () => {
        markDebuggerPaused(page, false)
        listeners.splice(0).forEach((off) => off())
      }
    }
    const onCdp = (
      event: "Debugger.scriptParsed" | "Debugger.paused" | "Debugger.resumed" | "Debugger.breakpointResolved",
      listener: (payload: never) => void
    ) => {
      cdp.on(event, listener as never)
      listeners.push(() => cdp.off(event, listener as never))
    }
    onCdp("Debugger.scriptParsed", (event: { scriptId: string; url: string; sourceMapURL?: string; executionContextAuxData?: unknown }) => {
      const facts = scriptFactsOf(event)
      if (facts !== undefined) runSync(Ref.update(scripts, (known) => scriptAdded(known, event.scriptId, facts)))
    })
    // A paused page does not answer our scripts: it is not an unresponsive one (page-eval.ts).
    onCdp("Debugger.paused", (event: PausedEvent) => (markDebuggerPaused(page, true), runSync(onPaused(handle, tab, event))))
    onCdp("Debugger.resumed", () => (markDebuggerPaused(page, false), runSync(resumed(handle, page))))
    onCdp("Debugger.breakpointResolved", (event: Parameters<typeof onResolved>[2]) => runSync(onResolved(handle, tab, event)))
    // A document that is left while paused never says it resumed: leaving it ends the pause.
    const onNavigated = (frame: PlaywrightFrame) => {
      if (frame !== page.mainFrame()) return
      markDebuggerPaused(page, false)
      runSync(resumed(handle, page))
    }
    const onGone = () => (markDebuggerPaused(page, false), runSync(forgetTab(handle, page)))
    page.on("framenavigated", onNavigated)
    page.on("close", onGone)
    cdp.on("close" as never, onGone as never)
    listeners.push(
      () => page.off("framenavigated", onNavigated),
      () => page.off("close", onGone),
      () => cdp.off("close" as never, onGone as never)
    )
    const state = yield* Ref.get(handle.state)
    yield* Effect.tryPromise({
      try: async () => {
        await cdp.send("Debugger.enable")
        // Evaluations without a URL (ours, Playwright's) are not the page's code: never paused or stepped in.
        await cdp.send("Debugger.setBlackboxPatterns", { patterns: [], skipAnonymous: true })
        await cdp.send("Debugger.setPauseOnExceptions", { state: state.pauseOnExceptions })
      },
      catch: failed("attach to the tab")
    }).pipe(Effect.tapError(() => Effect.sync(() => void releaseTab(tab))))
    yield* Ref.update(handle.tabs, (tabs) => new Map(tabs).set(page, tab))
    for (const entry of state.breakpoints) {
      const bound = yield* bindBreakpoint(tab, entry).pipe(Effect.option)
      if (Option.isSome(bound)) {
        yield* Ref.update(handle.state, (current) => ({
          ...current,
          breakpoints: current.breakpoints.map((other) =>
            other.id === entry.id ? { ...other, bound: new Map(other.bound).set(page, bound.value) } : other
          )
        }))
      }
    }
    return tab
  })

/**
 * Detaches from a tab: our listeners off, the Debugger domain off (a pause resumes), the session closed.
 * Never fails; a browser that is gone has nothing left to detach.
 */
export const releaseTab = (tab: TabDebug): Promise<void> => {
  tab.unlisten()
  return tab.cdp
    .send("Debugger.disable")
    .catch(() => undefined)
    .then(() => tab.cdp.detach())
    .catch(() => undefined)
}

/** How long a detach may take before we stop waiting for it (a browser that hangs must not hold a cleanup). */
const DETACH_WAIT = "2 seconds"

/** Every tab the session has open, attached (the ones that fail to attach, e.g. closing, are skipped). */
export const attachAll = (debuggers: DebuggersService, handle: DebuggerHandle) =>
  Effect.gen(function* () {
    const pages = (yield* Ref.get(handle.live.tabs)).pages.filter((page) => !page.isClosed())
    yield* Effect.forEach(pages, (page) => Effect.option(attachTab(debuggers, handle, page)), { discard: true })
    if ((yield* Ref.get(handle.onNewPage)) !== undefined) return
    const onNewPage = (page: Page) =>
      debuggers.runFork(
        handle.lock.withPermits(1)(
          Effect.gen(function* () {
            if (!(yield* Ref.get(handle.state)).enabled) return
            yield* Effect.option(attachTab(debuggers, handle, page))
          })
        )
      )
    yield* Ref.set(handle.onNewPage, onNewPage)
    handle.live.context.on("page", onNewPage)
  })

/** Detaches from every tab and stops attaching new ones. */
export const detachAll = (handle: DebuggerHandle) =>
  Effect.gen(function* () {
    const onNewPage = yield* Ref.getAndSet(handle.onNewPage, undefined)
    if (onNewPage !== undefined) handle.live.context.off("page", onNewPage)
    const tabs = yield* Ref.getAndSet(handle.tabs, new Map())
    yield* Effect.promise(() => Promise.all([...tabs.values()].map(releaseTab))).pipe(Effect.timeoutOption(DETACH_WAIT))
    const paused = newestPause(yield* Ref.getAndSet(handle.state, initialDebugger)) !== undefined
    if (paused) yield* pauseChanged(handle)
  })

/** The newest pause, when the debugger is on and something is paused. */
export const currentPause = (handle: DebuggerHandle) => Effect.map(Ref.get(handle.state), newestPause)

/**
 * Waits for a pause newer than `seq` (of any tab). The deferred is taken before the state is read, so a
 * pause between the two is not missed.
 */
export const pauseAfter = (handle: DebuggerHandle, seq: number): Effect.Effect<Pause> =>
  Effect.gen(function* () {
    for (;;) {
      const next = yield* Ref.get(handle.nextPause)
      const newest = newestPause(yield* Ref.get(handle.state))
      if (newest !== undefined && newest.seq > seq) return newest
      yield* Deferred.await(next)
    }
  })

const PROPERTIES_TIMEOUT = "2 seconds"

/** The variables of one scope object, in order. */
const variablesOf = (cdp: CDPSession, objectId: string) =>
  Effect.tryPromise({
    try: () => cdp.send("Runtime.getProperties", { objectId, ownProperties: true, generatePreview: true }),
    catch: failed("read the local variables")
  }).pipe(
    Effect.timeoutFail({ duration: PROPERTIES_TIMEOUT, onTimeout: () => new DebuggerFailed({ action: "read the local variables", detail: "no answer" }) }),
    Effect.map((reply) => reply.result.map((property) => [property.name, property.value as RemoteValue | undefined] as const))
  )

/**
 * The context of a pause: location, frames, the top frame's locals (marked when changed since the
 * pause read before, in the same function), the exception, the tab's last console messages. Read once
 * per pause and kept, so asking again answers the same.
 */
export const contextOf = (handle: DebuggerHandle, pause: Pause): Effect.Effect<PauseContext> =>
  handle.contextLock.withPermits(1)(
    Effect.gen(function* () {
      const state = yield* Ref.get(handle.state)
      const kept = state.pauses.find((other) => other.seq === pause.seq)?.context ?? pause.context
      if (kept !== undefined) return kept
      const tab = (yield* Ref.get(handle.tabs)).get(pause.page)
      const top = pause.event.callFrames[0]
      const scopes: Array<string> = []
      for (const scope of top?.scopeChain ?? []) {
        if (!LOCAL_SCOPES.has(scope.type)) break
        if (scope.object.objectId !== undefined) scopes.push(scope.object.objectId)
      }
      const values = new Map<string, string>()
      if (tab !== undefined) {
        for (const objectId of scopes) {
          // A pause that ended meanwhile has no scopes left to read: its context has no locals.
          const variables = yield* variablesOf(tab.cdp, objectId).pipe(Effect.orElseSucceed(() => []))
          // The innermost scope's variable shadows an outer one of the same name.
          for (const [name, value] of variables) if (!values.has(name)) values.set(name, localValue(value))
        }
      }
      const frameKey = top === undefined ? "" : frameKeyOf(top)
      const console = yield* Effect.map(Ref.get(handle.live.console), (log) => log.rings.get(pause.tabId)?.messages.slice(-PAUSE_CONSOLE) ?? [])
      const context = pauseContextOf({
        pause,
        locals: [...values],
        totalLocals: values.size,
        changed: changedLocals(state.lastLocals, frameKey, values),
        console,
        otherPausedTabs: state.pauses.filter((other) => other.seq !== pause.seq).map((other) => `${other.tabId} at ${other.frames[0] === undefined ? "?" : atText(other.frames[0])}`)
      })
      yield* Ref.update(handle.state, (current) => ({ ...withContext(current, pause.seq, context), lastLocals: { frameKey, values } }))
      return context
    })
  )

// ---- reading a paused page --------------------------------------------------------------------

/**
 * A page script through our DevTools session that works while the page is paused (no promise awaited:
 * a paused page runs no microtasks). Bounded: a page in another paused renderer may not answer.
 */
const evaluateWhilePaused = <A>(tab: TabDebug, expression: string) =>
  Effect.tryPromise(() => tab.cdp.send("Runtime.evaluate", { expression, returnByValue: true, silent: true })).pipe(
    Effect.timeout("1 second"),
    Effect.map((reply) => (reply.exceptionDetails === undefined ? Option.some(reply.result.value as A) : Option.none<A>())),
    Effect.orElseSucceed(() => Option.none<A>())
  )

/** Title and load state of a paused page (or "" and not loaded when it cannot say). */
const documentFacts = (tab: TabDebug | undefined) =>
  tab === undefined
    ? Effect.succeed({ title: "", readyState: "" })
    : Effect.map(
        evaluateWhilePaused<{ title: string; readyState: string }>(tab, "({ title: document.title, readyState: document.readyState })"),
        Option.getOrElse(() => ({ title: "", readyState: "" }))
      )

/** The active page's state while JavaScript is paused: what the browser and the paused page can still tell. */
export const pausedState = (handle: DebuggerHandle, page: Page) =>
  Effect.gen(function* () {
    const facts = yield* documentFacts((yield* Ref.get(handle.tabs)).get(page))
    // With its tab id, as the observer's state: a page that did not change is not told again after a resume.
    const tabId = (yield* Ref.get(handle.live.tabs)).tabIds.get(page)
    const state: ScreenState = {
      isLoaded: facts.readyState === "complete",
      currentUrl: page.url(),
      title: facts.title,
      currentScreen: "unknown",
      ...(tabId !== undefined ? { tabId } : {}),
      ...(handle.live.extension !== undefined ? { extensionId: handle.live.extension.id } : {})
    }
    return state
  })

/** The session's tabs while JavaScript is paused (Playwright's own title read would wait for the page). */
export const pausedTabs = (handle: DebuggerHandle) =>
  Effect.gen(function* () {
    const tabs = yield* Ref.get(handle.live.tabs)
    const attached = yield* Ref.get(handle.tabs)
    const open = tabs.pages.filter((page) => !page.isClosed())
    const tracked = yield* Effect.forEach(
      open,
      (page) =>
        Effect.map(documentFacts(attached.get(page)), (facts): TabInfo => ({
          tabId: tabIdIn(tabs, page),
          role: roleIn(tabs, handle.live.roleFacts, page),
          url: page.url(),
          title: facts.title,
          active: page === tabs.active
        })),
      { concurrency: "unbounded" }
    )
    const active = tabs.active !== undefined && !tabs.active.isClosed() ? tabs.active : undefined
    const result: Tabs = {
      active: active === undefined ? null : { tabId: tabIdIn(tabs, active), role: roleIn(tabs, handle.live.roleFacts, active), url: active.url() },
      tracked
    }
    return result
  })

/**
 * A screenshot of a paused page through DevTools (Playwright's waits for the page to render a frame,
 * which a paused page never does). Element shots and hidden field text need the page's JavaScript.
 */
export const pausedScreenshot = (handle: DebuggerHandle, page: Page, artifactsDir: string, options: ScreenshotOptions) =>
  Effect.gen(function* () {
    if (options.selector !== undefined) {
      return yield* new ScreenshotFailed({
        detail: "an element screenshot needs the page's JavaScript, which is paused in the debugger: take the whole page, or resume first"
      })
    }
    if (options.hideFieldText === true) {
      return yield* new ScreenshotFailed({ detail: "field text cannot be hidden while the page is paused in the debugger" })
    }
    const jpeg = options.format === "jpeg"
    const file = screenshotFile(path.resolve(artifactsDir, "screenshots"), options.name, jpeg ? "jpg" : "png")
    // Fail closed even if a caller skipped the tool's schema.
    if (file === undefined) {
      return yield* new InvalidInput({ field: "name", problem: "must be a plain file name: letters, digits, '.', '_' and '-', starting with a letter or digit." })
    }
    const tab = (yield* Ref.get(handle.tabs)).get(page)
    if (tab === undefined) return yield* new ScreenshotFailed({ detail: "the paused tab has no debugger session" })
    const capture = Effect.tryPromise({
      try: async () => {
        const metrics = await tab.cdp.send("Page.getLayoutMetrics")
        const size = options.fullPage
          ? { width: Math.ceil(metrics.cssContentSize.width), height: Math.ceil(metrics.cssContentSize.height) }
          : { width: metrics.cssLayoutViewport.clientWidth, height: metrics.cssLayoutViewport.clientHeight }
        const shot = await tab.cdp.send("Page.captureScreenshot", {
          format: jpeg ? "jpeg" : "png",
          ...(jpeg ? { quality: options.quality ?? 50 } : {}),
          ...(options.fullPage ? { captureBeyondViewport: true, clip: { x: 0, y: 0, ...size, scale: 1 } } : {})
        })
        return { data: shot.data, ...size }
      },
      catch: (cause) => new ScreenshotFailed({ detail: firstLine(cause) })
    }).pipe(
      Effect.timeoutFail({
        duration: options.timeoutMs ?? 15_000,
        onTimeout: () => new ScreenshotFailed({ detail: "the paused page did not give a screenshot in time" })
      })
    )
    const shot = yield* capture
    const image = Buffer.from(shot.data, "base64")
    const placed = yield* writeNamedFile(
      handle.live.namedFiles,
      handle.live.context,
      file,
      image,
      artifactsDir,
      (error) => new ScreenshotFailed({ detail: `cannot write ${file}: ${firstLine(error)}` })
    )
    const result: ScreenshotFile = { path: placed, width: shot.width, height: shot.height, base64: shot.data }
    return result
  })
