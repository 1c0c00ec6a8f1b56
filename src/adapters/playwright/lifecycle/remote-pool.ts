// The remote browsers sessions run on (--ws-endpoint, --cdp-endpoint, each possibly several): one
// Playwright connection per endpoint, opened when a session first needs it, shared by that endpoint's
// sessions (a context each) and kept open IDLE_KEEP_MS after the last of them closed (a burst of sessions
// one after another connects once), then closed; all close with the server. A new session goes to the endpoint with
// the fewest sessions of this server among those that answer; one that refuses or times out is skipped
// and preferred again only after a backoff (tried anyway when no other answers). One that goes away
// ends its sessions (their contexts close: MM_BROWSER_CLOSED) and leaves the others untouched.
// Placement only: the browsers themselves are the browser servers' (Playwright's run-server).
import { Clock, Context, Effect, Ref, Runtime, type Scope } from "effect"
import type { Browser, BrowserContext } from "playwright"
import { LaunchFailed } from "../../../domain/errors.js"
import { firstLine, type PlaywrightModule } from "../calls.js"
import type { RemoteEndpoint } from "./endpoints.js"
import { shownEndpoint, withoutSecrets } from "./launch.js"

/** How long connecting to one endpoint may take before it counts as not answering. */
export const CONNECT_TIMEOUT_MS = 20_000
/** What a context's error says when the browser server went away under it. */
const GONE = /closed|disconnected|ECONNRESET|socket hang up/i

/** How long a shared connection stays open with no session on it. */
export const IDLE_KEEP_MS = 30_000
/** The first wait before an endpoint that failed is preferred again; it doubles with each failure in a row. */
const BACKOFF_BASE_MS = 1_000
const BACKOFF_MAX_MS = 60_000

interface Member {
  readonly browser: Browser | undefined
  /** Sessions with a context over `browser`. */
  readonly users: number
  /** Sessions placed here not over `browser`: connecting, or on a connection of their own (slowMo). */
  readonly others: number
  /** Failed connections in a row (0: it answered last). */
  readonly failures: number
  /** Failed connections in all: a session waiting to connect learns that the one before it just failed. */
  readonly failedTotal: number
  /** Not preferred before this time (epoch ms): it refused, timed out or went away. */
  readonly retryAt: number
  /** Why it last failed, as shown (never its URL's path or query, never its headers). */
  readonly lastError: string
  /** Counts the times the connection was left with no session: an idle close is for the latest only. */
  readonly idled: number
}

export interface Placement {
  readonly context: BrowserContext
  /** host:port of the browser server the context runs on. */
  readonly where: string
}

export interface RemotePoolService {
  /**
   * A context on the least loaded endpoint that answers, opened by `open` (closed with the current
   * scope, and the endpoint's connection with its last context). A launch with slowMo gets a connection
   * of its own (slowMo is per connection). Fails with ConnectFailed naming every endpoint tried.
   */
  readonly newContext: (
    chromium: PlaywrightModule["chromium"],
    open: (browser: Browser) => Promise<BrowserContext>,
    options: { readonly slowMo: number }
  ) => Effect.Effect<Placement, LaunchFailed, Scope.Scope>
  /** Each endpoint's host:port and sessions (contexts and connections under way), in the configured order. */
  readonly load: Effect.Effect<ReadonlyArray<{ readonly where: string; readonly sessions: number; readonly connected: boolean }>>
}

export class RemotePool extends Context.Tag("browser-workflow-mcp/internal/RemotePool")<RemotePool, RemotePoolService>() {}

const fresh: Member = { browser: undefined, users: 0, others: 0, failures: 0, failedTotal: 0, retryAt: 0, lastError: "", idled: 0 }

const load = (member: Member) => member.users + member.others

const backoff = (failures: number) => Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, failures - 1))

const disconnect = (browser: Browser | undefined) =>
  browser === undefined ? Effect.void : Effect.promise(() => browser.close().catch(() => undefined))

/** The endpoints to try, best first: those not backing off by load (then order), then the others by when they may be tried. */
const candidates = (members: ReadonlyArray<Member>, tried: ReadonlySet<number>, now: number) => {
  const open = members.map((_, index) => index).filter((index) => !tried.has(index))
  const ready = open.filter((index) => members[index]!.retryAt <= now).sort((a, b) => load(members[a]!) - load(members[b]!) || a - b)
  const waiting = open.filter((index) => members[index]!.retryAt > now).sort((a, b) => members[a]!.retryAt - members[b]!.retryAt)
  return [...ready, ...waiting]
}

/** A new context in a connected browser, closed with the caller's scope. */
const contextOn = (browser: Browser, url: string, open: (browser: Browser) => Promise<BrowserContext>) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: () => open(browser),
      catch: (error) =>
        new LaunchFailed({
          reason: "ConnectFailed",
          detail: `the browser at ${shownEndpoint(url)} did not open a context: ${withoutSecrets(firstLine(error).replace(/^[\w.]+: /, ""), url)}`
        })
    }),
    (context) => Effect.promise(() => context.close().catch(() => undefined))
  )

/** What the module-level helpers of a pool share with it. */
interface Shared {
  readonly state: Ref.Ref<ReadonlyArray<Member>>
  readonly locks: ReadonlyArray<Effect.Semaphore>
  readonly scope: Scope.Scope
  readonly idleKeepMs: number
}

/** Closes the connection after idleKeepMs unless a session took it meanwhile (the pool's end closes it anyway). */
const closeIdle = (shared: Shared, index: number, browser: Browser, idled: number) =>
  Effect.zipRight(
    Effect.sleep(shared.idleKeepMs),
    shared.locks[index]!.withPermits(1)(
      Effect.flatMap(
        Ref.modify(shared.state, (members): [boolean, ReadonlyArray<Member>] => {
          const member = members[index]!
          if (member.browser !== browser || member.idled !== idled || load(member) > 0) return [false, members]
          return [true, members.map((item, at) => (at === index ? { ...item, browser: undefined } : item))]
        }),
        (idle) => (idle ? disconnect(browser) : Effect.void)
      )
    )
  )

/** A session leaves the endpoint's shared connection; the last one out starts its idle while. */
const leave = (shared: Shared, index: number, browser: Browser) =>
  Effect.flatMap(
    Ref.modify(shared.state, (members): [number | undefined, ReadonlyArray<Member>] => {
      const member = members[index]!
      // A connection that went away and was replaced has no users to count down.
      if (member.browser !== browser) return [undefined, members]
      const last = member.users <= 1 && member.others === 0
      const next: Member = last ? { ...member, users: 0, idled: member.idled + 1 } : { ...member, users: member.users - 1 }
      return [last ? next.idled : undefined, members.map((item, at) => (at === index ? next : item))]
    }),
    // Forked from a release, which is uninterruptible: the wait must stay interruptible, so the pool's end does not wait it out.
    (idled) => (idled === undefined ? Effect.void : Effect.asVoid(Effect.forkIn(Effect.interruptible(closeIdle(shared, index, browser, idled)), shared.scope)))
  )

/** The pool over these endpoints for the current scope, whose end disconnects every connection. */
export const make = (endpoints: ReadonlyArray<RemoteEndpoint>, idleKeepMs = IDLE_KEEP_MS) =>
  Effect.gen(function* () {
    const scope = yield* Effect.scope
    const state = yield* Ref.make<ReadonlyArray<Member>>(endpoints.map(() => fresh))
    const locks = yield* Effect.forEach(endpoints, () => Effect.makeSemaphore(1))
    // Plain callbacks: Playwright's disconnected events come outside any fiber.
    const runSync = Runtime.runSync(yield* Effect.runtime<never>())
    yield* Effect.addFinalizer(() =>
      Effect.flatMap(Ref.getAndSet(state, endpoints.map(() => fresh)), (members) =>
        Effect.forEach(members, (member) => disconnect(member.browser), { discard: true })
      )
    )

    const update = (index: number, change: (member: Member) => Member) =>
      Ref.update(state, (members) => members.map((member, at) => (at === index ? change(member) : member)))

    const failed = (index: number, reason: string) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        update(index, (member) => ({
          ...member,
          failures: member.failures + 1,
          failedTotal: member.failedTotal + 1,
          retryAt: now + backoff(member.failures + 1),
          lastError: reason
        }))
      )

    /** The connection went away (the server died, restarted or dropped it): its sessions have ended. */
    const lost = (index: number, browser: Browser) => () =>
      runSync(
        Effect.gen(function* () {
          const before = (yield* Ref.get(state))[index]!
          if (before.browser !== browser) return
          yield* update(index, (member) => ({ ...member, browser: undefined, users: 0 }))
          // An idle connection the server dropped ended nothing: the next session connects again.
          if (load(before) === 0) return yield* Effect.logDebug(`the idle connection to the browser server at ${endpoints[index]!.where} closed`)
          yield* failed(index, "it went away")
          yield* Effect.logWarning(
            `the browser server at ${endpoints[index]!.where} went away: its ${before.users} session(s) ended (MM_BROWSER_CLOSED); ${endpoints.length > 1 ? "new sessions go to the others until it answers again" : "a new session connects again"}`
          )
        })
      )

    const connect = (chromium: PlaywrightModule["chromium"], endpoint: RemoteEndpoint, slowMo: number) => {
      const option = endpoint.kind === "Cdp" ? "--cdp-endpoint" : "--ws-endpoint"
      const options = { timeout: CONNECT_TIMEOUT_MS, slowMo, headers: { ...endpoint.headers } }
      return Effect.tryPromise({
        try: () => (endpoint.kind === "Cdp" ? chromium.connectOverCDP(endpoint.url, options) : chromium.connect(endpoint.url, options)),
        catch: (error) =>
          `could not connect to the browser at ${shownEndpoint(endpoint.url)} (${option}): ${withoutSecrets(firstLine(error).replace(/^[\w.]+: /, ""), endpoint.url)}`
      })
    }

    /** Joins the endpoint's shared connection, opening it when none is up; the session's scope leaves it. */
    const join = (chromium: PlaywrightModule["chromium"], index: number, seen: number) =>
      Effect.acquireRelease(
        locks[index]!.withPermits(1)(
          Effect.uninterruptible(
            Effect.gen(function* () {
              const up = yield* Ref.modify(state, (members): [Browser | undefined, ReadonlyArray<Member>] => {
                const member = members[index]!
                if (member.browser === undefined || !member.browser.isConnected()) return [undefined, members]
                return [member.browser, members.map((item, at) => (at === index ? { ...item, users: item.users + 1, others: item.others - 1 } : item))]
              })
              if (up !== undefined) return up
              const now = (yield* Ref.get(state))[index]!
              // The session before this one just failed to connect here: no second wait for the same answer.
              if (now.failedTotal > seen) return yield* Effect.fail(now.lastError)
              const browser = yield* Effect.tapError(connect(chromium, endpoints[index]!, 0), (reason) => failed(index, reason))
              browser.on("disconnected", lost(index, browser))
              // Users of a connection that died unnoticed (its event still to come) are not this one's.
              yield* update(index, (member) => ({ ...member, browser, users: 1, others: member.others - 1, failures: 0, retryAt: 0 }))
              return browser
            })
          )
        ).pipe(Effect.tapError(() => update(index, (member) => ({ ...member, others: member.others - 1 })))),
        (browser) => leave({ state, locks, scope, idleKeepMs }, index, browser)
      )

    /** A connection of the session's own (slowMo), counted on the endpoint while it lasts. */
    const own = (chromium: PlaywrightModule["chromium"], index: number, slowMo: number) =>
      Effect.acquireRelease(
        connect(chromium, endpoints[index]!, slowMo).pipe(
          Effect.tap(() => update(index, (member) => ({ ...member, failures: 0, retryAt: 0 }))),
          Effect.tapError((reason) => Effect.zipRight(failed(index, reason), update(index, (member) => ({ ...member, others: member.others - 1 }))))
        ),
        (browser) => Effect.zipRight(update(index, (member) => ({ ...member, others: member.others - 1 })), disconnect(browser))
      )

    const newContext: RemotePoolService["newContext"] = (chromium, open, options) =>
      Effect.gen(function* () {
        const tried = new Set<number>()
        const reasons: Array<string> = []
        for (;;) {
          const now = yield* Clock.currentTimeMillis
          // Chosen and counted in one step, so that launches at the same moment spread.
          const picked = yield* Ref.modify(state, (members): [{ index: number; seen: number } | undefined, ReadonlyArray<Member>] => {
            const index = candidates(members, tried, now)[0]
            if (index === undefined) return [undefined, members]
            return [
              { index, seen: members[index]!.failedTotal },
              members.map((member, at) => (at === index ? { ...member, others: member.others + 1 } : member))
            ]
          })
          if (picked === undefined) {
            return yield* new LaunchFailed({
              reason: "ConnectFailed",
              detail: reasons.length === 1 ? reasons[0]! : `no browser of the pool answered: ${reasons.join("; ")}`
            })
          }
          tried.add(picked.index)
          const endpoint = endpoints[picked.index]!
          const browser = yield* Effect.either(options.slowMo > 0 ? own(chromium, picked.index, options.slowMo) : join(chromium, picked.index, picked.seen))
          if (browser._tag === "Left") {
            yield* Effect.logWarning(browser.left)
            reasons.push(browser.left)
            continue
          }
          const context = yield* Effect.either(contextOn(browser.right, endpoint.url, open))
          if (context._tag === "Left") {
            // A browser server that went away between the connection and the context (its disconnection may not
            // have been told yet: the context's error says so): the next one is tried.
            if (browser.right.isConnected() && !GONE.test(context.left.detail)) return yield* context.left
            yield* Effect.logWarning(context.left.detail)
            reasons.push(context.left.detail)
            continue
          }
          return { context: context.right, where: endpoint.where }
        }
      })

    const loadNow: RemotePoolService["load"] = Effect.map(Ref.get(state), (members) =>
      members.map((member, index) => ({ where: endpoints[index]!.where, sessions: load(member), connected: member.browser !== undefined }))
    )

    return RemotePool.of({ newContext, load: loadNow })
  })
