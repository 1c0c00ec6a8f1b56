// Observer over Playwright: one in-page walk per observation; each walk hands refs out of a block of the
// server's ref space (lifecycle/ref-space.ts), under the session's lock, so numbering stays unique across
// the session's tabs and the server's sessions.
import { type Context, Effect, FiberRef, Layer, Option, Ref } from "effect"
import type { Page } from "playwright"
import { DiscoveryFailed, PageClosed, PageUnresponsive, shownUrl, StateFailed } from "../../../domain/errors.js"
import type { A11yNode, FindResult, Observation, ScreenState, TestIdItem } from "../../../domain/observation.js"
import { StateSnapshot, type PageProbe } from "../../../capabilities/StateSnapshot.js"
import { Observer, ObservingClient, type FindOptions, type ObserveOptions } from "../../../services/Observer.js"
import { BrowserState, type BrowserStateService, type LiveSession } from "../lifecycle/browser.js"
import { BrowserCallFailed, firstLine } from "../calls.js"
import { withSeparateFrames } from "../session/frames.js"
import { pageQuiet } from "./quiet.js"
import { applyLedger, carryFor, emptyLedgers, ledgerArgs, type TabLedgers } from "./ledgers.js"
import { evaluateAcrossNavigation, hasInstalled, noteInstalled } from "../page-eval.js"
import { failIfStuck, unanswered, unresponsive } from "../session/responsive.js"
import { inBlockEffect } from "../lifecycle/ref-space.js"
import { installedCallExpression, installedObserveExpression, refsOfWalk, walkInstallKey, type ObserveArgs, type ObserveResult, type SettleArgs } from "../page-script.js"

const DEFAULT_TEST_ID_LIMIT = 150
const DEFAULT_A11Y_LIMIT = 400

/**
 * Settling before an observation (see settlePage): the DOM quiet for 100 ms, at most 1.5 s, and only
 * when the page shows activity. 100 ms is the quiet window Chrome DevTools MCP uses after input; it
 * covers a router's render after pushState, a setTimeout chain and a fetch from a local server. The
 * cap keeps a page that never stops changing (a clock, a ticker) from costing more than 1.5 s.
 */
const SETTLE: SettleArgs = { quietMs: 100, capMs: 1_500 }
const SETTLE_SLACK_MS = 1_000
/** How long a read of the page's state, and a walk of the page, may take before the page counts as not answering. */
const STATE_TIMEOUT_MS = 3_000
const WALK_TIMEOUT_MS = 10_000

type WalkArgs = Omit<ObserveArgs, "nextRef" | "refEnd" | "testIdAttribute" | "screenRules" | "ledgerOf" | "carryFrom" | "carry" | "viewer">

/** A page read the page never answered (rather than one that failed in the page). */
const unansweredRead = (error: unknown): boolean => error instanceof BrowserCallFailed && unanswered(error.cause)

/** What the walks and state reads share: the browser state, the app's own state reader, each tab's document ledgers. */
interface ObserverContext {
  readonly browser: BrowserStateService
  readonly appState: Option.Option<Context.Tag.Service<StateSnapshot>>
  readonly ledgers: WeakMap<Page, TabLedgers>
}

/** One walk of the page (settled first when `settle`), under the session's observe lock, with its cross-origin frames. */
const evaluate = (context: ObserverContext, live: LiveSession, page: Page, args: WalkArgs, settle: boolean) =>
  live.observeLock.withPermits(1)(
    Effect.gen(function* () {
      // Changes-only answers and searches are per client: the page keeps each one's record.
      const viewer = yield* FiberRef.get(ObservingClient)
      // Each evaluation numbers within a block of its own (observeWith, withSeparateFrames).
      const base: ObserveArgs = {
        ...args,
        nextRef: 0,
        refEnd: 0,
        testIdAttribute: context.browser.settings.testIdAttribute,
        screenRules: context.browser.settings.screenRules,
        ...(viewer !== "" ? { viewer } : {})
      }
      const tab = context.ledgers.get(page) ?? emptyLedgers()
      context.ledgers.set(page, tab)
      const wantTree = args.wantA11y || args.find !== undefined
      const full: ObserveArgs = wantTree ? { ...base, ...ledgerArgs(tab) } : base
      // A read of the state alone is small; a walk may take a while on a large page.
      const readTimeoutMs = args.wantA11y || args.wantTestIds || args.find !== undefined ? WALK_TIMEOUT_MS : STATE_TIMEOUT_MS
      const read = (expression: string, timeoutMs: number) =>
        Effect.tryPromise({
          try: (signal) => evaluateAcrossNavigation<ObserveResult>(page, expression, { timeoutMs, signal }),
          catch: (cause) =>
            page.isClosed() ? new PageClosed({ detail: "the active page closed while it was being read" }) : new BrowserCallFailed({ cause })
        })
      // The walk is installed once per document; the first observation of a document installs it.
      // A document known to be new gets the walk in the same trip.
      const observeWith = (walkArgs: ObserveArgs, settleArgs: SettleArgs | null, timeoutMs: number) =>
        inBlockEffect(context.browser.refs, refsOfWalk(walkArgs), live.refsTaken, (block) => {
          const numbered: ObserveArgs = { ...walkArgs, nextRef: block.start, refEnd: block.end }
          return Effect.flatMap(
            read(
              hasInstalled(page, walkInstallKey()) ? installedCallExpression(numbered, settleArgs) : installedObserveExpression(numbered, settleArgs),
              timeoutMs
            ),
            (answer) =>
              (answer as { missing?: boolean }).missing === true
                ? read(installedObserveExpression(numbered, settleArgs), timeoutMs)
                : Effect.succeed(answer)
          )
        }).pipe(Effect.tap(() => noteInstalled(page, walkInstallKey())))
      // The first walk of a new document at the URL of an earlier one asks for that one's refs, then walks.
      const observeOnce = (settleArgs: SettleArgs | null, timeoutMs: number) =>
        Effect.flatMap(observeWith(full, settleArgs, timeoutMs), (answer) =>
          answer.carryWanted === undefined
            ? Effect.succeed(answer)
            : observeWith(
                { ...full, carry: carryFor(tab, answer.carryWanted) ?? { url: answer.carryWanted, refs: [], told: [] } },
                null,
                timeoutMs
              )
        )
      // What the page is still fetching to render (a script, a fetch) and the short timers its last input
      // scheduled are waited for first, within the same cap (quiet.ts).
      const waited = settle ? yield* pageQuiet(page, SETTLE.capMs) : 0
      const remaining = { quietMs: SETTLE.quietMs, capMs: Math.max(SETTLE.quietMs, SETTLE.capMs - waited) }
      // A page whose timers never fire (a fake clock) never lets the settling end: past the cap, read it as it is,
      // unless the page does not answer at all (a script of its own holds it).
      const settled = settle
        ? yield* observeOnce(remaining, remaining.capMs + SETTLE_SLACK_MS).pipe(
            Effect.map(Option.some),
            Effect.catchIf(
              unansweredRead,
              () => Effect.flatMap(unresponsive(page, "the page could not be read"), (stuck) => (Option.isSome(stuck) ? Effect.fail(stuck.value) : Effect.succeedNone))
            )
          )
        : Option.none<ObserveResult>()
      const top: ObserveResult = Option.isSome(settled)
        ? settled.value
        : yield* observeOnce(null, readTimeoutMs).pipe(
            Effect.catchIf(
              unansweredRead,
              () =>
                Effect.flatMap(unresponsive(page, "the page could not be read"), (stuck) =>
                  Option.isSome(stuck)
                    ? Effect.fail(stuck.value)
                    : // It answers, slowly (a flood of its own, a loaded machine): once more, then it counts as busy.
                      observeOnce(null, readTimeoutMs).pipe(
                        Effect.catchIf(
                          unansweredRead,
                          () => Effect.fail(new PageUnresponsive({ detail: `the page could not be read within ${readTimeoutMs} ms, twice` }))
                        )
                      )
                )
            )
          )
      // Cross-origin frames run in processes of their own: their trees come from their own walks.
      if (top.ledger !== undefined) applyLedger(tab, top.ledger)
      return yield* Effect.promise(() => withSeparateFrames(page, top, base, context.browser.refs, live.refsTaken).catch(() => top))
    })
  )

/** The state of a tab just opened on about:blank, as the page script reads it with no screen rules: nothing to afford. */
const blankPageState = (): ObserveResult => ({
  url: "about:blank",
  title: "",
  readyState: "complete",
  screen: "unknown",
  rootFound: true,
  testIds: null,
  testIdsUnchanged: 0,
  a11y: null,
  nextRef: 0
})

const probeOf = (context: ObserverContext, live: LiveSession, page: Page, result: ObserveResult): PageProbe => ({
  url: shownUrl(result.url),
  title: result.title,
  role: context.browser.roleOf(live, page),
  detectedScreen: result.screen,
  evaluate: (fn, arg) =>
    Effect.tryPromise({
      try: () => page.evaluate(fn as (arg: unknown) => unknown, arg as unknown) as Promise<any>,
      catch: (error) => new StateFailed({ detail: `the StateSnapshot capability's page script failed: ${firstLine(error)}` })
    })
})

/** The screen state an observation answers, with the app's own state when a reader was provided. */
const stateOf = (context: ObserverContext, live: LiveSession, page: Page, result: ObserveResult) =>
  Effect.gen(function* () {
    live.affordances = { page, affords: result.affords ?? {} }
    const tabs = yield* Ref.get(live.tabs)
    // A page the session has not (or no longer) given an id (a tab closing, one opening) is observed without one.
    const tabId = tabs.tabIds.get(page)
    const base: ScreenState = {
      isLoaded: result.readyState === "complete",
      currentUrl: shownUrl(result.url),
      title: result.title,
      currentScreen: result.screen,
      ...(tabId !== undefined ? { tabId } : {}),
      ...(live.extension !== undefined ? { extensionId: live.extension.id } : {})
    }
    if (Option.isNone(context.appState)) return base
    const app = yield* context.appState.value.snapshot(probeOf(context, live, page, result))
    const state: ScreenState = {
      ...base,
      ...(app.screen !== undefined ? { currentScreen: app.screen } : {}),
      ...(app.fields !== undefined ? { app: app.fields } : {})
    }
    return state
  })

export const make = Effect.gen(function* () {
  const browser = yield* BrowserState
  const context: ObserverContext = {
    browser,
    // An app's own state reader, when the library user provided one; read once, when the layer is built.
    appState: yield* Effect.serviceOption(StateSnapshot),
    // Each tab's document ledgers (see ledgers.ts), so refs carry over to a new document at the same URL.
    ledgers: new WeakMap<Page, TabLedgers>()
  }

  const run = <E>(args: WalkArgs, onError: (detail: string) => E, settle = false) =>
    Effect.gen(function* () {
      const { live, page } = yield* browser.activePage
      yield* failIfStuck(page, "the page could not be read")
      const result = yield* evaluate(context, live, page, args, settle).pipe(
        Effect.mapError((error) =>
          error instanceof PageClosed || error instanceof PageUnresponsive ? error : onError(firstLine(error.cause))
        )
      )
      return { live, page, result }
    })

  const read = Effect.flatMap(
    run(
      { testIdLimit: 0, a11yLimit: 0, rootSelector: null, wantTestIds: false, wantA11y: false, changesOnly: false },
      (detail) => new StateFailed({ detail })
    ),
    ({ live, page, result }) => stateOf(context, live, page, result)
  )

  // The action that just ran may have read the state on its last trip to the page: take it. The blank first tab of
  // a launch needs no trip at all.
  const state = Effect.flatMap(browser.current, (current) => {
    if (Option.isNone(current)) return read
    const live = current.value
    const last = live.lastRead
    live.lastRead = undefined
    const blank = live.blankFirstTab
    live.blankFirstTab = undefined
    if (blank !== undefined && blank === live.active && !blank.isClosed() && blank.url() === "about:blank") {
      return stateOf(context, live, blank, blankPageState())
    }
    return last !== undefined && last.page === live.active && !last.page.isClosed() ? stateOf(context, live, last.page, last.result) : read
  })

  const observePage = (options: ObserveOptions) =>
    Effect.gen(function* () {
      const { live, page, result } = yield* run(
        {
          testIdLimit: options.testIdLimit ?? DEFAULT_TEST_ID_LIMIT,
          a11yLimit: options.a11yLimit ?? DEFAULT_A11Y_LIMIT,
          rootSelector: options.rootSelector ?? null,
          wantTestIds: options.testIds,
          wantA11y: options.a11y,
          // A scoped snapshot is always whole: the walk does not see the rest of the page.
          changesOnly: options.changesOnly === true && options.rootSelector === undefined,
          textLimit: options.textLimit
        },
        (detail) => new DiscoveryFailed({ detail }),
        options.settle !== false
      )
      if (!result.rootFound) {
        return yield* new DiscoveryFailed({ detail: `rootSelector ${options.rootSelector} matches no element` })
      }
      const changesOnly = options.changesOnly === true && options.rootSelector === undefined
      const observation: Observation = {
        state: yield* stateOf(context, live, page, result),
        ...(result.testIds !== null ? { testIds: result.testIds as ReadonlyArray<TestIdItem> } : {}),
        ...(result.testIds !== null && changesOnly ? { testIdsUnchanged: result.testIdsUnchanged } : {}),
        ...(result.a11y !== null
          ? {
              a11y: {
                nodes: result.a11y.nodes as ReadonlyArray<A11yNode>,
                ...(result.a11y.truncated ? { truncated: true } : {}),
                ...(result.a11y.behindModal !== undefined ? { behindModal: result.a11y.behindModal } : {}),
                ...(changesOnly
                  ? { changesOnly: true, unchanged: result.a11y.unchanged, removed: result.a11y.removed }
                  : {})
              }
            }
          : {})
      }
      return observation
    })

  const find = (options: FindOptions) =>
    Effect.gen(function* () {
      const { live, page, result } = yield* run(
        {
          testIdLimit: 0,
          a11yLimit: 0,
          rootSelector: null,
          wantTestIds: false,
          wantA11y: false,
          changesOnly: false,
          find: { text: options.text, role: options.role, name: options.name, limit: options.limit }
        },
        (detail) => new DiscoveryFailed({ detail }),
        true
      )
      // The search read the settled page's state on the same trip: the state read that answers the call takes it.
      live.lastRead = { page, result }
      const found: FindResult = result.found ?? { lines: [], total: 0 }
      return found
    })

  // A page that closed (or stopped answering) because its browser died is a closed browser.
  const observe = (options: ObserveOptions) => browser.refineClosed(observePage(options))
  return Observer.of({
    find: (options) => browser.refineClosed(find(options)),
    state: browser.refineClosed(state),
    observe,
    testIds: (limit) => Effect.map(observe({ testIds: true, a11y: false, testIdLimit: limit }), (o) => o.testIds ?? []),
    accessibility: (options) =>
      Effect.map(
        observe({ testIds: false, a11y: true, a11yLimit: options.limit, rootSelector: options.rootSelector }),
        (o) => ({ nodes: o.a11y?.nodes ?? [], truncated: o.a11y?.truncated ?? false })
      )
  })
})

export const layer = Layer.effect(Observer, make)
