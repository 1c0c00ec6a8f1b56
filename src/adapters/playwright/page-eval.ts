// Our own DevTools session per page: page scripts through Runtime.evaluate, and the page's console.
// Playwright's page.evaluate would first install its utility script in each new document (a noticeable
// cost on every navigation) to serialize values we never need: ours are plain JSON both ways. Scripts
// that a library user passes in still go through Playwright.
//
// Our scripts run in Playwright's utility world, an isolated world of the main frame: the page's own
// scripts cannot see our functions, the ref registry or the click guard, nor patch the DOM methods we
// call, and fake clocks in the page do not reach our timers. It is the world in which Playwright runs
// selector engines registered with `contentScript: true`, so the ref engine finds the registry there
// (see "Refs" in docs/architecture.md). The world spans the page's same-origin frames: a script of the
// top document that reaches into a frame works in the same world there.
import type { CDPSession, Page } from "playwright"

/** Prefix of the name Playwright gives its utility world (`__playwright_utility_world_<page guid>`). */
const UTILITY_WORLD_PREFIX = "__playwright_utility_world_"

/** The function a click or type guard calls, in our world only, when the first trusted event arrives (see page-actions.ts). */
export const REPORT_BINDING = "__bwmReport"

interface WorldContext {
  readonly id: number
  readonly uniqueId?: string | undefined
}

/** One page's DevTools session and what it knows about the page's execution contexts. */
interface Channel {
  readonly session: CDPSession
  readonly mainFrameId: string
  /** The name of Playwright's utility world in this page, once a context of it was announced. */
  utilityName: string | undefined
  /** The utility world's context of the main frame's current document, while Runtime events come. */
  main: WorldContext | undefined
  /** Utility contexts by id, for the unique id of one that `Page.createIsolatedWorld` names. */
  readonly utility: Map<number, WorldContext>
  /** Runtime events are on (off while a console flood is muted): only then are `main` and `utility` current. */
  runtimeOn: boolean
}

const channels = new WeakMap<Page, Promise<Channel>>()

/** The open channel of each page, once open (for what can be known without waiting). */
const opened = new WeakMap<Page, Channel>()

/**
 * What the guards of each page reported through REPORT_BINDING, by token (taken once). Kept apart
 * from the channel, which is let go when its session closes: a report of a click that closed its
 * page is read after that.
 */
const reports = new WeakMap<Page, Map<string, string>>()

/** At most this many unread reports are kept per page (a report is read at the end of its action). */
const MAX_REPORTS = 64

/** Listeners a caller adds before Runtime events start (the console's, so that messages announced at once are heard). */
type Setup = (channel: Channel) => void

const openChannel = async (page: Page, setup: Setup | undefined): Promise<Channel> => {
  const session = await page.context().newCDPSession(page)
  // A page target's id is its main frame's id.
  const { targetInfo } = await session.send("Target.getTargetInfo")
  const channel: Channel = {
    session,
    mainFrameId: targetInfo.targetId,
    utilityName: undefined,
    main: undefined,
    utility: new Map(),
    runtimeOn: false
  }
  const received = reports.get(page) ?? new Map<string, string>()
  reports.set(page, received)
  session.on("Runtime.executionContextCreated", ({ context }) => {
    if (!context.name.startsWith(UTILITY_WORLD_PREFIX)) return
    const first = channel.utilityName === undefined
    channel.utilityName ??= context.name
    const known: WorldContext = { id: context.id, uniqueId: context.uniqueId }
    channel.utility.set(context.id, known)
    if ((context.auxData as { frameId?: string } | undefined)?.frameId === channel.mainFrameId) channel.main = known
    if (first) addReportBinding(channel)
  })
  session.on("Runtime.executionContextDestroyed", ({ executionContextId }) => {
    channel.utility.delete(executionContextId)
    if (channel.main?.id === executionContextId) channel.main = undefined
  })
  session.on("Runtime.executionContextsCleared", () => {
    channel.utility.clear()
    channel.main = undefined
  })
  session.on("Runtime.bindingCalled", ({ name, payload }) => {
    if (name !== REPORT_BINDING) return
    const split = payload.indexOf(" ")
    if (split <= 0) return
    if (received.size >= MAX_REPORTS) received.delete(received.keys().next().value!)
    received.set(payload.slice(0, split), payload.slice(split + 1))
  })
  setup?.(channel)
  await enableRuntime(channel)
  opened.set(page, channel)
  session.once("close", () => {
    if (opened.get(page) === channel) opened.delete(page)
  })
  return channel
}

/**
 * Which of our installed scripts (the walk, the describe function: each under a key naming its
 * version) the page's current document has, as far as this process knows: a script is installed
 * once per document, and a call on a document without it answers `{ missing: true }` and costs a
 * second trip. Knowing the document is new, a caller sends the installing form at once.
 */
const installed = new WeakMap<Page, { readonly document: string; readonly keys: Set<string> }>()

/** The current document of the page's main frame, by its utility context; undefined while unknown. */
const documentOf = (page: Page): string | undefined => {
  const channel = opened.get(page)
  const main = channel?.runtimeOn === true ? channel.main : undefined
  return main === undefined ? undefined : (main.uniqueId ?? String(main.id))
}

/**
 * False when the page's current document is known not to have the script `key` yet: send the form
 * that installs it. True when it has it, or when that is not known (the answer then says `missing`).
 */
export const hasInstalled = (page: Page, key: string): boolean => {
  const document = documentOf(page)
  if (document === undefined) return true
  const entry = installed.get(page)
  return entry !== undefined && entry.document === document && entry.keys.has(key)
}

/** Notes that the page's current document has the script `key` (its call answered without `missing`). */
export const noteInstalled = (page: Page, key: string): void => {
  const document = documentOf(page)
  if (document === undefined) return
  let entry = installed.get(page)
  if (entry === undefined || entry.document !== document) {
    entry = { document, keys: new Set() }
    installed.set(page, entry)
  }
  entry.keys.add(key)
}

/**
 * The report binding lives in the utility world only (by name), so page scripts never see it. A
 * binding reaches the documents created while Runtime events are on; adding it again after they
 * were off reaches the current ones too.
 */
const addReportBinding = (channel: Channel) => {
  if (channel.utilityName === undefined) return
  channel.session.send("Runtime.addBinding", { name: REPORT_BINDING, executionContextName: channel.utilityName }).catch(() => undefined)
}

/** Turns Runtime events on; they announce every existing context again. */
const enableRuntime = async (channel: Channel) => {
  await channel.session.send("Runtime.enable")
  channel.runtimeOn = true
  addReportBinding(channel)
}

const channelOf = (page: Page, setup?: Setup): Promise<Channel> => {
  const known = channels.get(page)
  if (known !== undefined) return setup === undefined ? known : known.then((channel) => (setup(channel), channel))
  const opened = openChannel(page, setup)
  channels.set(page, opened)
  const forget = () => {
    if (channels.get(page) === opened) channels.delete(page)
  }
  // A session that could not open, or closed (the renderer crashed, say), is not kept: the next call opens a fresh one.
  opened.then((channel) => channel.session.once("close", forget), forget)
  return opened
}

/**
 * The utility world's context of the main frame's current document. Known from Runtime events;
 * otherwise (events off, or the new document's not announced yet) asked for by name, which gives
 * the existing context of that world and never makes a new world.
 */
const mainContext = async (channel: Channel): Promise<WorldContext> =>
  channel.runtimeOn && channel.main !== undefined ? channel.main : askContext(channel)

/** The main frame's utility context as the browser names it now. */
const askContext = async (channel: Channel): Promise<WorldContext> => {
  if (channel.utilityName === undefined) throw new Error("Playwright's utility world is not known in this page")
  const { executionContextId } = await channel.session.send("Page.createIsolatedWorld", {
    frameId: channel.mainFrameId,
    worldName: channel.utilityName,
    grantUniveralAccess: true
  })
  return channel.utility.get(executionContextId) ?? { id: executionContextId }
}

/** The error a DevTools call gets for a context that is already gone (a stale id, not one destroyed during the call). */
const isStaleContext = (error: unknown) => error instanceof Error && error.message.includes("Cannot find context with specified id")

/** Runs `call` with the main frame's utility context; once more with a fresh one when the known one was already gone. */
const inMainContext = async <A>(page: Page, call: (channel: Channel, context: WorldContext) => Promise<A>): Promise<A> => {
  const channel = await channelOf(page)
  const context = await mainContext(channel)
  try {
    return await call(channel, context)
  } catch (error) {
    if (!isStaleContext(error)) throw error
    if (channel.main === context) channel.main = undefined
    channel.utility.delete(context.id)
    return call(channel, await askContext(channel))
  }
}

const contextParams = (context: WorldContext) =>
  context.uniqueId !== undefined ? { uniqueContextId: context.uniqueId } : { contextId: context.id }

const valueOf = <A>(reply: { result: { value?: unknown }; exceptionDetails?: { text: string; exception?: { description?: string } } }): A => {
  if (reply.exceptionDetails !== undefined) {
    throw new Error(`page script failed: ${reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text}`)
  }
  return reply.result.value as A
}

/** How long a page script may run, and be waited for, unless its caller says otherwise. */
export const EVALUATE_TIMEOUT_MS = 10_000

/**
 * How long a page gets to answer a trivial script before it counts as unresponsive: a page busy with
 * its own work (a console flood at 50k messages/s) still answers within a second; a stuck one never does.
 */
export const PROBE_TIMEOUT_MS = 1_500

/** A page script got no answer in time, or its caller stopped waiting (the page may be stuck in a script of its own). */
export class PageDidNotAnswer extends Error {
  constructor(readonly waitedMs: number) {
    super(`the page did not answer within ${waitedMs} ms`)
  }
}

export interface EvaluateOptions {
  /** How long the script may run and be waited for; EVALUATE_TIMEOUT_MS by default. */
  readonly timeoutMs?: number | undefined
  /** Stops waiting (the call was interrupted). */
  readonly signal?: AbortSignal | undefined
  /** Called as soon as the script's message is on its way (evaluateInPage), for a message of ours to run right behind it. */
  readonly onSent?: (() => void) | undefined
}

/** Waits for `promise` at most `timeoutMs`, or until `signal` aborts: then rejects with PageDidNotAnswer. */
const bounded = <A>(promise: Promise<A>, timeoutMs: number, signal: AbortSignal | undefined): Promise<A> =>
  new Promise<A>((resolve, reject) => {
    if (signal?.aborted === true) return reject(new PageDidNotAnswer(0))
    const started = Date.now()
    const stop = () => reject(new PageDidNotAnswer(Date.now() - started))
    const timer = setTimeout(stop, timeoutMs)
    signal?.addEventListener("abort", stop, { once: true })
    const done = () => {
      clearTimeout(timer)
      signal?.removeEventListener("abort", stop)
    }
    promise.then(
      (value) => (done(), resolve(value)),
      (error: unknown) => (done(), reject(error))
    )
  })

/**
 * A page script's call, bounded: the script runs at most the timeout (V8 stops it then: `timeout`
 * goes to DevTools) and is waited for as long, opening the channel and finding the world included.
 * A page whose main thread is held by a script of its own never starts ours, and the wait ends with
 * PageDidNotAnswer.
 */
export const inTime = <A>(options: EvaluateOptions, call: (timeoutMs: number) => Promise<A>): Promise<A> => {
  const timeoutMs = options.timeoutMs ?? EVALUATE_TIMEOUT_MS
  return bounded(call(timeoutMs), timeoutMs, options.signal)
}

/**
 * The JSON value of `expression` in our isolated world of the page (a promise is awaited); a thrown
 * exception rejects. Bounded in time (EvaluateOptions): a stuck page ends the wait with PageDidNotAnswer.
 */
export const evaluateInPage = <A>(page: Page, expression: string, options: EvaluateOptions = {}): Promise<A> =>
  inTime(options, (timeout) =>
    inMainContext(page, async (channel, context) => {
      const reply = channel.session.send("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true, timeout, ...contextParams(context) })
      options.onSent?.()
      return valueOf<A>(await reply)
    })
  )

/** Objects an action holds in the page between DevTools calls (released together). */
export const ACTION_OBJECTS = "bwm-action"

/**
 * The value of `expression` in our isolated world as a remote object: an object id for an element,
 * or the JSON of a primitive. For the few steps that hand an element to DevTools (its content quads).
 */
export const evaluateToObject = (
  page: Page,
  expression: string,
  options: EvaluateOptions = {}
): Promise<{ readonly objectId?: string; readonly value?: unknown }> =>
  inTime(options, (timeout) =>
    inMainContext(page, async (channel, context) => {
      const reply = await channel.session.send("Runtime.evaluate", {
        expression,
        returnByValue: false,
        awaitPromise: true,
        timeout,
        objectGroup: ACTION_OBJECTS,
        ...contextParams(context)
      })
      valueOf(reply)
      return reply.result.objectId !== undefined ? { objectId: reply.result.objectId } : { value: reply.result.value }
    })
  )

/** Calls a self-contained function with `this` bound to a remote object and JSON or object arguments; its JSON value. */
export const callOnObject = <A>(
  page: Page,
  objectId: string,
  fn: string,
  args: ReadonlyArray<{ readonly value: unknown } | { readonly objectId: string }>,
  options: EvaluateOptions = {}
): Promise<A> =>
  inTime(options, async () => {
    // Runtime.callFunctionOn takes no timeout of its own: the wait is bounded, and a stuck page is rescued by the caller.
    const { session } = await channelOf(page)
    return valueOf<A>(
      await session.send("Runtime.callFunctionOn", {
        objectId,
        functionDeclaration: fn,
        arguments: args.map((arg) => ({ ...arg })),
        returnByValue: true,
        awaitPromise: true
      })
    )
  })

/** The node `backendNodeId` as a remote object of our isolated world (for comparing it with an element there). */
export const resolveNodeInWorld = (page: Page, backendNodeId: number, options: EvaluateOptions = {}): Promise<string | undefined> =>
  inTime(options, () =>
    inMainContext(page, async (channel, context) => {
      const { object } = await channel.session.send("DOM.resolveNode", { backendNodeId, executionContextId: context.id, objectGroup: ACTION_OBJECTS })
      return object.objectId
    })
  )

/** Lets go of the objects an action held. */
export const releaseActionObjects = (page: Page): Promise<void> =>
  channelOf(page)
    .then((channel) => channel.session.send("Runtime.releaseObjectGroup", { objectGroup: ACTION_OBJECTS }))
    .then(() => undefined, () => undefined)

/**
 * The name of Playwright's utility world in this page (the same in each of its frames), once the page
 * announced it; undefined before (no script of ours ran there yet).
 */
export const utilityWorldName = async (page: Page): Promise<string | undefined> => (await channelOf(page)).utilityName

/** The page's DevTools session, for geometry calls (DOM.getContentQuads, DOM.getNodeForLocation). */
export const devtoolsOf = async (page: Page): Promise<CDPSession> => (await channelOf(page)).session

/** The report a guard sent for `token` (taken once), if it arrived. */
export const takeReport = (page: Page, token: string): string | undefined => {
  const received = reports.get(page)
  const report = received?.get(token)
  received?.delete(token)
  return report
}

/**
 * The JSON value of `expression` in the page's main world, where the page's own scripts live: only for
 * changing what the page sees (its dialogs, its console) and watching what its own scripts do (its
 * timers and requests after typing), never for reading the page.
 */
export const evaluateInMainWorld = <A>(page: Page, expression: string, options: EvaluateOptions = {}): Promise<A> =>
  inTime(options, async (timeout) => {
    const { session } = await channelOf(page)
    return valueOf<A>(await session.send("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true, timeout }))
  })

/**
 * The same, once more after the next document is in when the first try failed on a live page: a
 * navigation can destroy the execution context mid-call. A page that did not answer is not asked twice.
 */
export const evaluateAcrossNavigation = async <A>(page: Page, expression: string, options: EvaluateOptions = {}): Promise<A> => {
  try {
    return await evaluateInPage<A>(page, expression, options)
  } catch (error) {
    if (page.isClosed() || error instanceof PageDidNotAnswer) throw error
    await page.waitForLoadState("domcontentloaded", { timeout: 5_000 }).catch(() => undefined)
    return evaluateInPage<A>(page, expression, options)
  }
}

/** When each page last flooded its console: the DevTools events it sent queue in front of every answer for a while. */
const floodedAt = new WeakMap<Page, number>()

/** After a console flood, answers may wait behind its events this long before the page counts as stuck. */
const FLOOD_BACKLOG_MS = 10_000

/** Pages whose JavaScript is paused in our debugger (debugger-session.ts keeps this): held on purpose, not stuck. */
const pausedInDebugger = new WeakSet<Page>()

/** The debugger paused the page's JavaScript (true) or let it run again (false). */
export const markDebuggerPaused = (page: Page, paused: boolean): void => {
  if (paused) pausedInDebugger.add(page)
  else pausedInDebugger.delete(page)
}

/**
 * Whether the page's main thread answers a trivial script within `waitMs`; a page that flooded its
 * console a moment ago gets more time (its events queue in front of the answer). A page paused in the
 * debugger counts as answering: it is held on purpose, and its script must not be stopped.
 */
export const pageAnswers = async (page: Page, waitMs = PROBE_TIMEOUT_MS): Promise<boolean> => {
  if (page.isClosed() || pausedInDebugger.has(page)) return true
  const probe = (timeoutMs: number) =>
    evaluateInPage<number>(page, "1", { timeoutMs }).then(
      () => true,
      (error: unknown) => !(error instanceof PageDidNotAnswer)
    )
  if (await probe(waitMs)) return true
  const flooded = floodedAt.get(page)
  return flooded !== undefined && Date.now() - flooded < FLOOD_BACKLOG_MS ? probe(FLOOD_BACKLOG_MS / 2) : false
}

/**
 * Stops the script that holds the page's main thread (DevTools' Runtime.terminateExecution, which
 * interrupts a running script, `while (true)` included); the page lives on and the next task runs.
 * Only for a page that did not answer: it ends whatever script runs. Best effort.
 */
export const stopPageScript = (page: Page): Promise<boolean> =>
  bounded(
    channelOf(page).then((channel) => channel.session.send("Runtime.terminateExecution")),
    2_000,
    undefined
  ).then(
    () => true,
    () => false
  )

/** A page that does not answer gets its running script stopped: true when it had to be (and now answers, or not). */
export const rescuePage = async (page: Page): Promise<boolean> => {
  if (await pageAnswers(page)) return false
  await stopPageScript(page)
  return true
}

/** The expression that calls a self-contained page function with a JSON argument. */
export const callExpression = <Arg>(fn: (arg: Arg) => unknown, arg: Arg): string => `(${fn.toString()})(${JSON.stringify(arg)})`

/** The parts of a DevTools RemoteObject that a console line is made of. */
export interface RemoteValue {
  readonly type: string
  readonly subtype?: string | undefined
  readonly value?: unknown
  readonly unserializableValue?: string | undefined
  readonly description?: string | undefined
  readonly preview?:
    | { readonly subtype?: string; readonly overflow?: boolean; readonly properties: ReadonlyArray<{ readonly name: string; readonly value?: string; readonly type: string }> }
    | undefined
}

const previewOf = (value: RemoteValue): string => {
  if (value.type === "string") return String(value.value)
  if (value.type === "undefined") return "undefined"
  if (value.unserializableValue !== undefined) return value.unserializableValue
  if (value.subtype === "null") return "null"
  if (value.type !== "object" || value.preview === undefined || value.subtype === "error") {
    return value.description ?? (value.value === undefined ? value.type : JSON.stringify(value.value))
  }
  const more = value.preview.overflow === true ? ", ..." : ""
  const shown = (property: { readonly value?: string | undefined; readonly type: string }) =>
    property.value ?? property.type
  if (value.preview.subtype === "array" || value.subtype === "array") {
    return `[${value.preview.properties.map(shown).join(", ")}${more}]`
  }
  return `{${value.preview.properties.map((property) => `${property.name}: ${shown(property)}`).join(", ")}${more}}`
}

/** A console call's text as the DevTools console would print it on one line (Playwright's rendering). */
export const consoleText = (args: ReadonlyArray<RemoteValue>): string => args.map(previewOf).join(" ")

/** How often the page's console arguments are let go in the page (they are held until released). */
const RELEASE_EVERY_MS = 500

/** A document that logs this many messages within CONSOLE_FLOOD_WINDOW_MS floods the console. */
export const CONSOLE_FLOOD_COUNT = 2_000
export const CONSOLE_FLOOD_WINDOW_MS = 500

export interface ConsoleWatch {
  readonly onMessage: (type: string, text: string) => void
  /** The document floods its console: it was muted, and nothing more is reported until the tab navigates. */
  readonly onFlood: () => void
}

/** Turns the console methods of the page's current document into no-ops. */
const muteConsoleExpression = `(() => {
  for (const name of Object.keys(console)) if (typeof console[name] === "function") console[name] = () => undefined
  return true
})()`

/**
 * Streams the page's console calls to `watch` as text. It listens on our own DevTools session
 * instead of Playwright's page.on("console"), which keeps a handle per argument (in the page, in
 * Playwright's server and in its client) for as long as the page lives: a page that logs thousands
 * of messages a second grew the server by hundreds of MB. The arguments our session receives are
 * released in the page every RELEASE_EVERY_MS while messages come.
 *
 * A document that floods its console (CONSOLE_FLOOD_COUNT messages within CONSOLE_FLOOD_WINDOW_MS) is muted: every
 * message costs the browser a DevTools event per listening session, and at tens of thousands a second
 * the events queue up for tens of seconds in front of every answer the session waits for. Until the
 * tab navigates, our session stops listening (a page that kept its own reference to console.log is
 * not muted by the override, but no longer costs our share).
 */
export const watchConsole = async (page: Page, watch: ConsoleWatch): Promise<void> => {
  await channelOf(page, (channel) => listenToConsole(page, channel, watch))
}

/**
 * One document's flood count: `seen` counts a console message and answers "flood" for the one that makes
 * CONSOLE_FLOOD_COUNT within CONSOLE_FLOOD_WINDOW_MS, "muted" after it until `reset` (a new document),
 * else "record". Shared by the page's listener and its out-of-process frames' (frames.ts).
 */
export const floodCount = () => {
  let windowStart = 0
  let inWindow = 0
  let flooding = false
  return {
    get flooding() {
      return flooding
    },
    seen: (now: number): "record" | "flood" | "muted" => {
      if (flooding) return "muted"
      if (now - windowStart > CONSOLE_FLOOD_WINDOW_MS) {
        windowStart = now
        inWindow = 0
      }
      if (++inWindow < CONSOLE_FLOOD_COUNT) return "record"
      flooding = true
      return "flood"
    },
    reset: () => {
      flooding = false
      inWindow = 0
    }
  }
}

const listenToConsole = (page: Page, channel: Channel, watch: ConsoleWatch) => {
  const session = channel.session
  // The listener's own counters: nothing else reads them.
  let release: ReturnType<typeof setTimeout> | undefined
  const flood = floodCount()
  const releaseArguments = () => {
    release = undefined
    session.send("Runtime.releaseObjectGroup", { objectGroup: "console" }).catch(() => undefined)
  }
  session.on("Runtime.consoleAPICalled", (event) => {
    const now = Date.now()
    const verdict = flood.seen(now)
    if (verdict === "muted") return
    if (verdict === "flood") {
      floodedAt.set(page, now)
      // From now on the known contexts may go stale unannounced: our scripts ask for the current one by name.
      channel.runtimeOn = false
      session.send("Runtime.evaluate", { expression: muteConsoleExpression }).catch(() => undefined)
      session.send("Runtime.disable").then(releaseArguments, () => undefined)
      watch.onFlood()
      return
    }
    watch.onMessage(event.type, consoleText(event.args as ReadonlyArray<RemoteValue>))
    if (release === undefined) {
      release = setTimeout(releaseArguments, RELEASE_EVERY_MS)
      release.unref()
    }
  })
  page.on("framenavigated", (frame) => {
    if (!flood.flooding || frame !== page.mainFrame()) return
    flood.reset()
    enableRuntime(channel).catch(() => undefined)
  })
  session.once("close", () => clearTimeout(release))
}

/**
 * Makes alert, confirm and prompt of the page's current document answer at once without a dialog
 * (undefined, false, null): a page that opens dialogs in a loop would otherwise keep its renderer
 * blocked, and a navigation away from it can hang on the dialog. Best effort; false when it failed.
 */
export const silenceDialogs = (page: Page): Promise<boolean> =>
  evaluateInMainWorld<boolean>(
    page,
    `(() => {
      const quiet = { alert: () => undefined, confirm: () => false, prompt: () => null }
      for (const [name, value] of Object.entries(quiet)) {
        try { Object.defineProperty(window, name, { value, configurable: true, writable: true }) } catch {}
      }
      return true
    })()`,
    { timeoutMs: 1_000 }
  ).catch(() => false)
