// Our own DevTools session per page: page scripts through Runtime.evaluate, and the page's console.
// Playwright's page.evaluate would first install its utility script in each new document (a noticeable
// cost on every navigation) to serialize values we never need: ours are plain JSON both ways. Scripts
// that a library user passes in still go through Playwright.
import type { CDPSession, Page } from "playwright"

const sessions = new WeakMap<Page, Promise<CDPSession>>()

const sessionOf = (page: Page): Promise<CDPSession> => {
  const known = sessions.get(page)
  if (known !== undefined) return known
  const opened = page.context().newCDPSession(page)
  sessions.set(page, opened)
  const forget = () => {
    if (sessions.get(page) === opened) sessions.delete(page)
  }
  // A session that could not open, or closed (the renderer crashed, say), is not kept: the next call opens a fresh one.
  opened.then((session) => session.once("close", forget), forget)
  return opened
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
 * The JSON value of `expression` in the page (a promise is awaited); a thrown exception rejects. The
 * script runs at most `timeoutMs` (V8 stops it then) and is waited for as long; a page whose main
 * thread is held by a script of its own never starts ours, and the wait ends with PageDidNotAnswer.
 */
export const evaluateInPage = async <A>(page: Page, expression: string, options: EvaluateOptions = {}): Promise<A> => {
  const timeoutMs = options.timeoutMs ?? EVALUATE_TIMEOUT_MS
  const session = await bounded(sessionOf(page), timeoutMs, options.signal)
  const reply = await bounded(
    session.send("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true, timeout: timeoutMs }),
    timeoutMs,
    options.signal
  )
  if (reply.exceptionDetails !== undefined) {
    throw new Error(`page script failed: ${reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text}`)
  }
  return reply.result.value as A
}

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

/**
 * Whether the page's main thread answers a trivial script within `waitMs`; a page that flooded its
 * console a moment ago gets more time (its events queue in front of the answer).
 */
export const pageAnswers = async (page: Page, waitMs = PROBE_TIMEOUT_MS): Promise<boolean> => {
  if (page.isClosed()) return true
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
    sessionOf(page).then((session) => session.send("Runtime.terminateExecution")),
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
    | {
        readonly subtype?: string | undefined
        readonly overflow?: boolean | undefined
        readonly properties: ReadonlyArray<{ readonly name: string; readonly value?: string | undefined; readonly type: string }>
      }
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
  const session = await sessionOf(page)
  // The listener's own counters: nothing else reads them.
  let release: ReturnType<typeof setTimeout> | undefined
  let windowStart = 0
  let inWindow = 0
  let flooding = false
  const releaseArguments = () => {
    release = undefined
    session.send("Runtime.releaseObjectGroup", { objectGroup: "console" }).catch(() => undefined)
  }
  session.on("Runtime.consoleAPICalled", (event) => {
    if (flooding) return
    const now = Date.now()
    if (now - windowStart > CONSOLE_FLOOD_WINDOW_MS) {
      windowStart = now
      inWindow = 0
    }
    if (++inWindow >= CONSOLE_FLOOD_COUNT) {
      flooding = true
      floodedAt.set(page, now)
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
    if (!flooding || frame !== page.mainFrame()) return
    flooding = false
    inWindow = 0
    session.send("Runtime.enable").catch(() => undefined)
  })
  session.once("close", () => clearTimeout(release))
  await session.send("Runtime.enable")
}

/**
 * Makes alert, confirm and prompt of the page's current document answer at once without a dialog
 * (undefined, false, null): a page that opens dialogs in a loop would otherwise keep its renderer
 * blocked, and a navigation away from it can hang on the dialog. Best effort; false when it failed.
 */
export const silenceDialogs = (page: Page): Promise<boolean> =>
  evaluateInPage<boolean>(
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
