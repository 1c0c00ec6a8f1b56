// Network mocks of a session: each rule is a context-level route (every tab, and it survives
// navigations) that answers matching requests with a status, headers and a body, or fails them; a
// catch-all route beneath the rules logs the requests no rule answered. The log is bounded.
//
// Order of routes (docs/devtools.md): Playwright runs the newest route first, and the mocks are added
// after the session started, so they run before any route set up at launch (the URL policy). A rule
// therefore asks the gate first: a URL that the policy blocks (or a scheme that is not http/https) is
// passed on with `route.fallback()` untouched, and the policy's own route then blocks it. A mock never
// answers a request the policy would not let through.
import { Effect, Ref } from "effect"
import type { BrowserContext, Request, Route } from "playwright"
import { InvalidInput, MockNotFound } from "../../../domain/errors.js"
import type { MockLogEntry, MockReading, MockRule, MockRuleInfo } from "../../../services/session/devtools.js"
import { firstLine } from "../calls.js"
import { markMocked, requestIdOf, summaryUrl } from "./network.js"

/** How many hits and misses the log keeps (the newest). */
export const MOCK_LOG_LIMIT = 200

/** Most rules in force at once. */
export const MOCK_RULES_LIMIT = 100

type Handler = (route: Route) => Promise<void>

export interface MockRuleState {
  readonly id: string
  readonly rule: MockRule
  readonly hits: number
  readonly handler: Handler
}

export interface MockState {
  /** The route under every rule that logs misses, while rules are in force. */
  readonly catchAll: Handler | undefined
  readonly nextId: number
  /** Oldest first. */
  readonly rules: ReadonlyArray<MockRuleState>
  readonly log: ReadonlyArray<MockLogEntry>
  readonly dropped: number
}

export const emptyMocks: MockState = { catchAll: undefined, nextId: 1, rules: [], log: [], dropped: 0 }

/** What the mocks need of a session (a LiveSession has it; named here so this file needs nothing of the lifecycle). */
interface MockedSession {
  readonly context: BrowserContext
  readonly mocks: Ref.Ref<MockState>
}

// ---- pure transitions ---------------------------------------------------------------------------------

export const mockLogged = (state: MockState, entry: MockLogEntry): MockState => {
  const full = state.log.length >= MOCK_LOG_LIMIT
  return {
    ...state,
    log: full ? [...state.log.slice(state.log.length - MOCK_LOG_LIMIT + 1), entry] : [...state.log, entry],
    dropped: full ? state.dropped + state.log.length - MOCK_LOG_LIMIT + 1 : state.dropped
  }
}

export const mockHit = (state: MockState, id: string): MockState => ({
  ...state,
  rules: state.rules.map((rule) => (rule.id === id ? { ...rule, hits: rule.hits + 1 } : rule))
})

export const infoOf = (state: MockRuleState): MockRuleInfo => ({
  id: state.id,
  url: state.rule.url,
  ...(state.rule.method !== undefined ? { method: state.rule.method } : {}),
  ...(state.rule.abort ? { abort: true } : { status: state.rule.status, bodyBytes: Buffer.byteLength(state.rule.body) }),
  hits: state.hits
})

// ---- routes -----------------------------------------------------------------------------------------

/** May a mock answer this URL: http(s) only, and what the URL policy lets through. */
export type MockGate = (url: string) => boolean

/** Mocks answer http and https requests only; the URL policy narrows this further when it is configured. */
export const httpOnly: MockGate = (url) => /^https?:/i.test(url)

type RunSync = <A>(effect: Effect.Effect<A>) => A

/** Requests a rule passed on because the gate blocks them: the catch-all does not count them as misses. */
const passedOn = new WeakSet<Request>()

const logEntry = (request: Request, extra: Partial<MockLogEntry>): MockLogEntry => {
  const id = requestIdOf(request)
  return {
    time: Date.now(),
    ...extra,
    method: request.method(),
    url: summaryUrl(request.url()),
    type: request.resourceType(),
    ...(id !== undefined ? { request: id } : {})
  }
}

/** A route that failed because its page or context went away has nothing left to answer. */
const quietly = (promise: Promise<void>) => promise.catch(() => undefined)

export const make = (runSync: RunSync, gate: MockGate) => {
  const lock = Effect.unsafeMakeSemaphore(1)

  const log = (live: MockedSession, entry: MockLogEntry) => runSync(Ref.update(live.mocks, (state) => mockLogged(state, entry)))

  const catchAllFor =
    (live: MockedSession): Handler =>
    (route) => {
      const request = route.request()
      if (!passedOn.has(request)) log(live, logEntry(request, {}))
      return quietly(route.fallback())
    }

  const handlerFor =
    (live: MockedSession, id: string, rule: MockRule): Handler =>
    (route) => {
      const request = route.request()
      if (rule.method !== undefined && request.method() !== rule.method) return quietly(route.fallback())
      if (!gate(request.url())) {
        passedOn.add(request)
        log(live, logEntry(request, { rule: id, blocked: true }))
        return quietly(route.fallback())
      }
      runSync(Ref.update(live.mocks, (state) => mockLogged(mockHit(state, id), logEntry(request, { rule: id }))))
      markMocked(request)
      if (rule.abort) return quietly(route.abort("failed"))
      return quietly(
        route.fulfill({
          status: rule.status,
          headers: { ...rule.headers },
          body: rule.body,
          ...(rule.contentType !== undefined ? { contentType: rule.contentType } : {})
        })
      )
    }

  const routeCall = (what: string, call: () => Promise<unknown>) =>
    Effect.tryPromise({
      try: call,
      catch: (error) => new InvalidInput({ field: "url", problem: `${what}: ${firstLine(error).slice(0, 300)}` })
    })

  const add = (live: MockedSession, rule: MockRule) =>
    lock.withPermits(1)(
      Effect.gen(function* () {
        const state = yield* Ref.get(live.mocks)
        if (state.rules.length >= MOCK_RULES_LIMIT) {
          return yield* new InvalidInput({ field: "action", problem: `at most ${MOCK_RULES_LIMIT} rules may be in force; remove or clear some first` })
        }
        // The catch-all comes first, so that every rule (a newer route) runs before it.
        if (state.catchAll === undefined) {
          const catchAll = catchAllFor(live)
          yield* routeCall("the mocks could not be set up", () => live.context.route("**", catchAll))
          yield* Ref.update(live.mocks, (current) => ({ ...current, catchAll }))
        }
        const id = `m${state.nextId}`
        const handler = handlerFor(live, id, rule)
        yield* routeCall("not a URL glob Playwright accepts", () => live.context.route(rule.url, handler))
        const added: MockRuleState = { id, rule, hits: 0, handler }
        yield* Ref.update(live.mocks, (current) => ({ ...current, nextId: current.nextId + 1, rules: [...current.rules, added] }))
        return infoOf(added)
      })
    )

  const unroute = (live: MockedSession, url: string, handler: Handler) =>
    Effect.promise(() => live.context.unroute(url, handler).catch(() => undefined))

  /** Without rules the catch-all goes too: nothing is intercepted any more (and the browser's cache is used again). */
  const dropCatchAllWhenEmpty = (live: MockedSession) =>
    Effect.gen(function* () {
      const state = yield* Ref.get(live.mocks)
      if (state.rules.length > 0 || state.catchAll === undefined) return
      yield* unroute(live, "**", state.catchAll)
      yield* Ref.update(live.mocks, (current) => ({ ...current, catchAll: undefined }))
    })

  const remove = (live: MockedSession, id: string) =>
    lock.withPermits(1)(
      Effect.gen(function* () {
        const state = yield* Ref.get(live.mocks)
        const found = state.rules.find((rule) => rule.id === id)
        if (found === undefined) return yield* new MockNotFound({ id, available: state.rules.map((rule) => rule.id) })
        yield* unroute(live, found.rule.url, found.handler)
        yield* Ref.update(live.mocks, (current) => ({ ...current, rules: current.rules.filter((rule) => rule.id !== id) }))
        yield* dropCatchAllWhenEmpty(live)
        return infoOf(found)
      })
    )

  const clear = (live: MockedSession) =>
    lock.withPermits(1)(
      Effect.gen(function* () {
        const state = yield* Ref.get(live.mocks)
        yield* Effect.forEach(state.rules, (rule) => unroute(live, rule.rule.url, rule.handler), { discard: true })
        yield* Ref.update(live.mocks, (current) => ({ ...current, rules: [] }))
        yield* dropCatchAllWhenEmpty(live)
        return state.rules.length
      })
    )

  const read = (live: MockedSession, limit: number) =>
    Effect.map(Ref.get(live.mocks), (state): MockReading => {
      const shown = state.log.slice(Math.max(0, state.log.length - limit))
      return { rules: state.rules.map(infoOf), log: shown, dropped: state.dropped, more: state.log.length - shown.length }
    })

  return { add, remove, clear, read }
}
