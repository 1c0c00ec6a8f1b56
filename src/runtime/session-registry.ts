// The live browser sessions of one server. Each is a slot: its own Session and Observer built in a Scope
// of its own (mm_launch starts its browser context there), owned by the client that launched it, found
// by id (any client: a capability) or by name (its owner, and clients that named its id), and closed by
// mm_cleanup, mm_sessions, its idle lease or the server's end, which closes its scope and all it opened.
import { Clock, Context, Duration, Effect, ExecutionStrategy, Exit, FiberRef, Layer, Option, Ref, Scope } from "effect"
import { clip, InvalidInput, SessionNotFound } from "../domain/errors.js"
import { KnowledgeStore, type KnowledgeStoreService } from "../services/KnowledgeStore.js"
import { privateStore, sharedStore } from "./knowledge-views.js"
import { ObservingClient, type Observer } from "../services/Observer.js"
import { Session, type SessionService } from "../services/Session.js"
import {
  EndedSession,
  OthersRunning,
  handleOf,
  listingOf,
  SessionForCall,
  Sessions,
  type SessionHandle,
  type SessionListing,
  type SessionsService
} from "../services/Sessions.js"
import { awaitPlace, endedKeys, enter, handOver, leave, placement, refusal } from "./session-places.js"
import { clientOf, emptyState, shownAs, visibleIn, withClient, type Entry, type RegistryOptions, type Slot, type State } from "./session-state.js"

export type { RegistryOptions } from "./session-state.js"

/** Builds one session's services in the given scope; nothing starts until its launch. */
export type SlotFactory = (scope: Scope.Scope) => Effect.Effect<Context.Context<Session | Observer>>

/** How many closed sessions' reasons are kept (an id is 30 characters, a reason about 80). */
const CLOSED_KEPT = 256

/** Who closed a session: the names an agent knows the ways by; `endOf`: the call it was for ended (mm_replay). */
export type CloseReason = "cleanup" | "sessions" | "lease" | { readonly endOf: string }

/** Why a session went, as its errors say it ("was closed by mm_cleanup"). */
const closedWhy = (reason: CloseReason, byOther: boolean, died: boolean, idleTimeoutMs: number): string => {
  const how =
    reason === "lease"
      ? `was closed after ${Math.round(idleTimeoutMs / 1000)} s without a call (its idle lease, --session-idle-timeout)`
      : typeof reason === "object"
        ? `was closed when the ${reason.endOf} call that launched it ended`
        : `was closed by ${reason === "cleanup" ? "mm_cleanup" : 'mm_sessions {action: "close"}'}${byOther ? " of another client" : ""}`
  return died ? `ended when its browser died (MM_BROWSER_CLOSED), and ${how}` : how
}

const withoutStarting = (key: string) => (current: State): State => {
  if (!current.starting.has(key)) return current
  const starting = new Map(current.starting)
  starting.delete(key)
  return { ...current, starting }
}

/** The permit of the place `reserving` holds for the launch to come in this fiber (and the fibers it forks). */
const LaunchPermit = FiberRef.unsafeMake<number | undefined>(undefined)

/** Other clients' live sessions whose id this client never named: the shared step memory shows none of them. */
const hiddenFrom = (current: State, client: string): ReadonlySet<string> => {
  const known = clientOf(current, client)
  const hidden = new Set<string>()
  for (const entry of current.entries.values()) {
    if (entry.owner !== client && !known.named.has(entry.slot.key) && !known.known.has(entry.sessionId)) hidden.add(entry.sessionId)
  }
  return hidden
}

/**
 * The session a name names for a client: its own first, then one of another client's it named by id (names
 * are per client: that one may carry the same name, and must not take calls meant for the client's own).
 */
const byName = (visible: ReadonlyArray<Entry>, client: string, name: string): Entry | undefined =>
  visible.find((entry) => entry.owner === client && entry.name === name) ?? visible.find((entry) => entry.name === name)

/**
 * Closes a slot's session and everything it opened; the slot leaves the registry first. Its id keeps why it
 * went, and each client whose current session it was learns so with its next call.
 */
const closeSlotIn = (state: Ref.Ref<State>, options: RegistryOptions) => (slot: Slot, reason: CloseReason) =>
  Effect.uninterruptible(
    Effect.gen(function* () {
      const closer = yield* FiberRef.get(ObservingClient)
      const died = (yield* endedKeys([...(yield* Ref.get(state)).entries.values()].filter((entry) => entry.slot.key === slot.key))).size > 0
      yield* Ref.update(state, (current) => {
        const entry = current.entries.get(slot.key)
        const entries = new Map(current.entries)
        entries.delete(slot.key)
        const clients = new Map(
          [...current.clients].map(([id, client]) => [
            id,
            client.current === slot.key ? { ...client, current: undefined, ...(entry !== undefined ? { lost: entry.sessionId } : {}) } : client
          ])
        )
        if (entry === undefined) return { ...current, entries, clients }
        const byOther = (reason === "cleanup" || reason === "sessions") && closer !== entry.owner
        const closed = new Map(current.closed).set(entry.sessionId, closedWhy(reason, byOther, died, options.idleTimeoutMs))
        for (const oldest of closed.keys()) {
          if (closed.size <= CLOSED_KEPT) break
          closed.delete(oldest)
        }
        return { ...current, entries, clients, closed }
      })
      // Our DevTools sessions detach before the browser goes; the scope then closes the rest.
      yield* Effect.zipRight(Context.get(slot.services, Session).cleanup, Scope.close(slot.scope, Exit.void))
      // Its place goes to the first run waiting for one once its browser context is gone.
      yield* handOver(state, options)
    })
  )

interface Core {
  readonly state: Ref.Ref<State>
  readonly options: RegistryOptions
  readonly closeSlot: (slot: Slot, reason: CloseReason) => Effect.Effect<void>
}

/** A launch name that could never be reached (a `session` argument is an id before it is a name): the error; else none. */
const nameRefusal = (name: string | undefined): InvalidInput | undefined =>
  name !== undefined && name.startsWith("mm-") ? new InvalidInput({ field: "name", problem: 'a name may not start with "mm-", as session ids do' }) : undefined

/** The slot's Session, as tools see it: a launch registers the session (within the limit), a cleanup closes the slot. */
const registeredSession = ({ state, options, closeSlot }: Core, slot: Slot, inner: SessionService): SessionService => {
  const visibleTo = (current: State, client: string) => visibleIn(current, client, options.shared)
  return {
    ...inner,
    launch: (launchOptions) =>
      Effect.gen(function* () {
        const client = yield* FiberRef.get(ObservingClient)
        const forCall = yield* FiberRef.get(SessionForCall)
        const permit = yield* FiberRef.get(LaunchPermit)
        const before = yield* Ref.get(state)
        const own = before.entries.get(slot.key)
        const name = launchOptions.name
        const refused = nameRefusal(name)
        if (refused !== undefined) return yield* refused
        // A place that freed unseen (a browser that died) goes to the runs waiting for one first.
        if (own === undefined) yield* handOver(state, options)
        const ended = own === undefined ? yield* endedKeys([...(yield* Ref.get(state)).entries.values()]) : new Set<string>()
        // The name check and the slot count in one step: concurrent launches cannot both take a name or the last slot.
        const reserved = yield* Ref.modify(state, (current): [Entry | "taken" | "full" | "profile" | "ok", State] => {
          if (name !== undefined) {
            const taken = visibleTo(current, client).find((entry) => entry.name === name && entry.slot.key !== slot.key)
            if (taken !== undefined) return [taken, current]
            if ([...current.starting].some(([key, launch]) => key !== slot.key && launch.owner === client && launch.name === name)) return ["taken", current]
          }
          if (current.entries.has(slot.key)) return ["ok", current]
          const held = permit === undefined ? undefined : current.permits.get(permit)
          const starting = new Map(current.starting).set(slot.key, { owner: client, name, group: held?.group })
          // A place `reserving` holds for this launch becomes its reservation: no second check another launch could race.
          if (permit !== undefined && held !== undefined) {
            const permits = new Map(current.permits)
            permits.delete(permit)
            return ["ok", { ...current, starting, permits }]
          }
          // Runs waiting for a place come first: one that frees is theirs.
          const fits = placement(current, options, ended, current.waiting.length)
          if (fits !== "ok") return [fits, current]
          return ["ok", { ...current, starting }]
        })
        if (reserved === "profile" || reserved === "full") return yield* refusal(options, reserved, yield* Ref.get(state), client, ended)
        if (reserved !== "ok") {
          const which = reserved === "taken" ? "being launched" : `already (${reserved.sessionId})`
          return yield* new InvalidInput({
            field: "name",
            problem: `you have a session named ${JSON.stringify(name)} ${which}; close it or choose another name`
          })
        }
        // The entry replaces its reservation in the same step; a failed or interrupted launch gives it back.
        // A session for one call only (SessionForCall) is the client's, but not its current one.
        const register = (launched: { readonly sessionId: string }) =>
          Ref.update(state, (before) => {
            const group = own?.group ?? before.starting.get(slot.key)?.group
            const entry: Entry = { slot, sessionId: launched.sessionId, name: name ?? own?.name, owner: own?.owner ?? client, ...(group !== undefined ? { group } : {}) }
            const next = { ...withoutStarting(slot.key)(before), entries: new Map(before.entries).set(slot.key, entry) }
            return withClient(next, client, (known) => ({
              ...known,
              ...(forCall === undefined ? { current: slot.key, lost: undefined } : {}),
              known: new Set(known.known).add(launched.sessionId)
            }))
          })
        // A launch that failed gives its place back: to the first run waiting for one.
        const launched = yield* Effect.ensuring(
          Effect.tap(inner.launch(launchOptions), register),
          Effect.zipRight(Ref.update(state, withoutStarting(slot.key)), handOver(state, options))
        )
        return launched
      }),
    cleanup: Effect.flatMap(Ref.get(state), (current) =>
      current.entries.has(slot.key)
        ? Effect.flatMap(FiberRef.get(SessionForCall), (forCall) => Effect.as(closeSlot(slot, forCall === undefined ? "cleanup" : { endOf: forCall }), true))
        : inner.cleanup
    )
  }
}

/** The one session of --shared-browser as tools see it: the name it was launched with is kept (listings, `session` arguments). */
const namedShared = (inner: SessionService, name: Ref.Ref<string | undefined>): SessionService => ({
  ...inner,
  // A launch that succeeds started a new session (a running one refuses it, or `force` replaced it): its name.
  launch: (launchOptions) => nameRefusal(launchOptions.name) ?? Effect.tap(inner.launch(launchOptions), () => Ref.set(name, launchOptions.name)),
  cleanup: Effect.zipLeft(inner.cleanup, Ref.set(name, undefined))
})

/** The shared session's listing, with its launch name. */
const withSharedName = (listing: Effect.Effect<Option.Option<SessionListing>>, sharedName: Ref.Ref<string | undefined>) =>
  Effect.gen(function* () {
    const name = yield* Ref.get(sharedName)
    return Option.map(yield* listing, ({ id, ...rest }): SessionListing => (name === undefined ? { id, ...rest } : { id, name, ...rest }))
  })

/** Whether a `session` argument names the shared session: its id, or its launch name. */
const namesShared = (listing: SessionListing, selector: string) => listing.id === selector || (listing.name !== undefined && listing.name === selector)

/**
 * Closes the sessions whose idle lease ran out (no call running on them, none ended for idleTimeoutMs) and
 * answers how long until the next one can: the earliest idle session's lease end, else a quarter lease (a
 * session in a call renews its lease when the call ends), never below 250 ms nor above 30 s.
 */
const leaseSweep = ({ state, options, closeSlot }: Core) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    let next = Math.min(30_000, Math.floor(options.idleTimeoutMs / 4))
    for (const entry of (yield* Ref.get(state)).entries.values()) {
      const use = yield* Ref.get(entry.slot.use)
      if (use.calls > 0) continue
      const left = use.lastUsed + options.idleTimeoutMs - now
      if (left <= 0) {
        yield* Effect.logInfo("closed a browser session whose idle lease ran out (--session-idle-timeout)").pipe(
          Effect.annotateLogs("sessionId", entry.sessionId)
        )
        yield* closeSlot(entry.slot, "lease")
      } else next = Math.min(next, left)
    }
    return Math.max(250, next)
  })

/** A session as its client lists it: name, idle seconds, whether it is the client's current one, memory. */
const listingFor = (options: RegistryOptions, entry: Entry, current: boolean, now: number) =>
  Effect.gen(function* () {
    const use = yield* Ref.get(entry.slot.use)
    const heapMb = options.memoryOf === undefined ? undefined : yield* options.memoryOf(entry.slot.services)
    return yield* listingOf(handleOf(entry.slot.services as Context.Context<Session | Observer | KnowledgeStore>), {
      ...(entry.name !== undefined ? { name: entry.name } : {}),
      idle: use.calls > 0 ? 0 : Math.floor((now - use.lastUsed) / 1000),
      ...(current ? { current: true as const } : {}),
      ...(heapMb !== undefined ? { heapMb } : {})
    })
  })

/** A new slot's handle for a client whose current session closed since its last call: the call's gate says which and why. */
/** A handle without a session, told why the client has none: its current one ended, or (others) other clients' sessions run. */
const withEnded = (handle: SessionHandle, current: State, client: string, yours: number): SessionHandle => {
  const lost = clientOf(current, client).lost
  const why = lost === undefined ? undefined : current.closed.get(lost)
  const ended = lost === undefined || why === undefined ? handle.context : Context.add(handle.context, EndedSession, { sessionId: lost, why })
  const others = current.entries.size - yours
  const told = others > 0 || yours > 0 ? Context.add(ended, OthersRunning, { count: others, yours }) : ended
  return told === handle.context ? handle : handleOf(told)
}

/**
 * Holds the slot for the caller's scope; a new slot nobody launched in closes with it. A call is activity:
 * its end renews the idle lease; a look (`peek`: the tool list) holds the slot without renewing it.
 */
const holdIn = (state: Ref.Ref<State>) => (slot: Slot, fresh: boolean, activity = true) =>
  Effect.acquireRelease(
    Ref.update(slot.use, (use) => ({ ...use, calls: use.calls + 1 })),
    () =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        yield* Ref.update(slot.use, (use) => ({ calls: use.calls - 1, lastUsed: activity ? now : use.lastUsed }))
        if (fresh && !(yield* Ref.get(state)).entries.has(slot.key)) yield* Scope.close(slot.scope, Exit.void)
      })
  )

/** A session that is not there, for reading only (a client's tool list before its launch): launching in it is a defect. */
const standInFor = (services: Context.Context<Session | Observer>): Context.Context<Session | Observer> => {
  const session = Context.get(services, Session)
  return Context.add(services, Session, {
    ...session,
    launch: () => Effect.dieMessage("a stand-in session (resolve with peek) was asked to launch: resolve without peek to run calls")
  })
}

/** The entry a selector names for a client: an id (any client's), or a name among its sessions; a named entry of another client becomes one it knows. */
const finderIn = (state: Ref.Ref<State>, options: RegistryOptions) => (selector: string, client: string) =>
  Effect.gen(function* () {
    const current = yield* Ref.get(state)
    const visible = visibleIn(current, client, options.shared)
    const byId = [...current.entries.values()].find((entry) => entry.sessionId === selector)
    const entry = byId ?? byName(visible, client, selector)
    const ended = current.closed.get(selector)
    if (entry === undefined) return yield* new SessionNotFound({ session: clip(selector), yours: visible.map(shownAs), ...(ended !== undefined ? { ended } : {}) })
    if (entry.owner !== client) yield* Ref.update(state, (now) => withClient(now, client, (known) => ({ ...known, named: new Set(known.named).add(entry.slot.key) })))
    // Named by its id: its step memory is the client's to read too (--private-knowledge).
    if (byId !== undefined) yield* Ref.update(state, (now) => withClient(now, client, (known) => ({ ...known, known: new Set(known.known).add(byId.sessionId) })))
    return entry
  })

/** Why the registry closed a session, while it keeps the reason. */
const whyClosedIn = (state: Ref.Ref<State>) => (sessionId: string) => Effect.map(Ref.get(state), (current) => Option.fromNullable(current.closed.get(sessionId)))

/** Makes new slots, each in its own scope under the registry's (the server's end closes it); the pauses of any slot's tabs reach every listener. */
const slotMaker = (factory: SlotFactory, registryScope: Scope.Scope, listeners: ReadonlySet<() => void>) => {
  let slots = 0
  return Effect.gen(function* () {
    const scope = yield* Scope.fork(registryScope, ExecutionStrategy.sequential)
    const services = yield* factory(scope)
    const now = yield* Clock.currentTimeMillis
    const slot: Slot = { key: `slot-${++slots}`, scope, services, use: yield* Ref.make({ calls: 0, lastUsed: now }) }
    // Pauses of any session's tabs reach every client's tool list.
    const stop = yield* Context.get(services, Session).onPauseChange(() => {
      for (const listener of listeners) listener()
    })
    yield* Scope.addFinalizer(scope, Effect.sync(stop))
    return slot
  })
}

/**
 * `reserving` over the registry's places: one held at once, or waited for in turn with `wait`; inside it (a
 * fan-out's run's replay), the place already held.
 */
const reservingIn = (state: Ref.Ref<State>, options: RegistryOptions): SessionsService["reserving"] => {
  let permits = 0
  return (effect, wait) =>
    Effect.flatMap(Effect.all([FiberRef.get(LaunchPermit), Ref.get(state)]), ([held, current]) => {
      if (held !== undefined && current.permits.has(held)) return effect
      const permit = ++permits
      return Effect.acquireUseRelease(
        enter(state, options, permit, wait),
        (entered) =>
          Effect.zipRight(
            "ready" in entered && wait !== undefined ? awaitPlace(state, options, permit, wait, entered.ready) : Effect.void,
            Effect.locally(effect, LaunchPermit, permit)
          ),
        () => leave(state, options, permit)
      )
    })
}

export const make = (factory: SlotFactory, options: RegistryOptions) =>
  Effect.gen(function* () {
    const store = yield* KnowledgeStore
    const registryScope = yield* Effect.scope
    const state = yield* Ref.make<State>(emptyState)
    // Plain callbacks, called from the browser's pause events (outside any fiber).
    const listeners = new Set<() => void>()

    const visibleTo = (current: State, client: string) => visibleIn(current, client, options.shared)
    const closeSlot = closeSlotIn(state, options)

    const registered = (slot: Slot, inner: SessionService) => registeredSession({ state, options, closeSlot }, slot, inner)

    /** Step memory as a client may read it. */
    const storeFor = (client: string): KnowledgeStoreService => {
      const admit = (sessionId: string) =>
        Ref.update(state, (now) => withClient(now, client, (known) => ({ ...known, known: new Set(known.known).add(sessionId) })))
      if (options.privateKnowledge) return privateStore(store, Effect.map(Ref.get(state), (current) => clientOf(current, client).known), admit)
      // Only a live session can be hidden: naming any other id needs no note (nor memory for made-up ids).
      const admitLive = (sessionId: string) =>
        Effect.flatMap(Ref.get(state), (current) => ([...current.entries.values()].some((entry) => entry.sessionId === sessionId) ? admit(sessionId) : Effect.void))
      return options.shared ? store : sharedStore(store, Effect.map(Ref.get(state), (current) => hiddenFrom(current, client)), admitLive)
    }

    const newSlot = slotMaker(factory, registryScope, listeners)
    const sharedName = yield* Ref.make<string | undefined>(undefined)

    const handleFor = (slot: Slot, client: string): SessionHandle => {
      const session = Context.get(slot.services, Session)
      return handleOf(
        slot.services.pipe(
          Context.add(Session, options.shared ? namedShared(session, sharedName) : registered(slot, session)),
          Context.add(KnowledgeStore, storeFor(client))
        )
      )
    }

    const hold = holdIn(state)

    const shared = options.shared ? yield* newSlot : undefined
    // What a client without a session reads its tool list from: one slot, built on first use, never launched.
    const standIn = yield* Effect.cached(Effect.map(newSlot, (slot) => standInFor(slot.services)))

    const find = finderIn(state, options)

    const sharedListing = (slot: Slot, client: string, extra?: { readonly current: true }) => withSharedName(listingOf(handleFor(slot, client), extra), sharedName)

    const resolve: SessionsService["resolve"] = (request) =>
      Effect.gen(function* () {
        const client = yield* FiberRef.get(ObservingClient)
        if (request.peek === true && request.selector === undefined) {
          const current = yield* Ref.get(state)
          const currentKey = clientOf(current, client).current
          const slot = shared ?? (currentKey === undefined ? undefined : current.entries.get(currentKey)?.slot)
          if (slot === undefined) return handleOf(Context.add(yield* standIn, KnowledgeStore, storeFor(client)))
          yield* hold(slot, false, false)
          return handleFor(slot, client)
        }
        if (shared !== undefined) {
          if (request.selector !== undefined) {
            const listing = yield* sharedListing(shared, client)
            if (Option.isNone(listing) || !namesShared(listing.value, request.selector)) {
              return yield* new SessionNotFound({ session: clip(request.selector), yours: Option.toArray(listing).map((known) => known.id) })
            }
          }
          yield* hold(shared, false)
          return handleFor(shared, client)
        }
        if (request.selector !== undefined) {
          const entry = yield* find(request.selector, client)
          yield* hold(entry.slot, false)
          return handleFor(entry.slot, client)
        }
        const current = yield* Ref.get(state)
        const currentKey = clientOf(current, client).current
        const entry = request.starts || currentKey === undefined ? undefined : current.entries.get(currentKey)
        if (entry !== undefined) {
          yield* hold(entry.slot, false)
          return handleFor(entry.slot, client)
        }
        const slot = yield* newSlot
        yield* hold(slot, true)
        return request.starts ? handleFor(slot, client) : withEnded(handleFor(slot, client), current, client, visibleTo(current, client).length)
      })

    const list: SessionsService["list"] = Effect.gen(function* () {
      const client = yield* FiberRef.get(ObservingClient)
      if (shared !== undefined) return Option.toArray(yield* sharedListing(shared, client, { current: true }))
      const current = yield* Ref.get(state)
      const now = yield* Clock.currentTimeMillis
      const listed = yield* Effect.forEach(visibleTo(current, client), (entry) => listingFor(options, entry, clientOf(current, client).current === entry.slot.key, now), { concurrency: 4 })
      return listed.flatMap(Option.toArray)
    })

    const reserving: SessionsService["reserving"] = shared !== undefined ? (effect) => effect : reservingIn(state, options)

    const count: SessionsService["count"] = Effect.gen(function* () {
      if (shared !== undefined) return Option.isSome(yield* Context.get(shared.services, Session).current) ? 1 : 0
      const client = yield* FiberRef.get(ObservingClient)
      return visibleTo(yield* Ref.get(state), client).length
    })

    const switchTo: SessionsService["switchTo"] = (selector) =>
      Effect.gen(function* () {
        const client = yield* FiberRef.get(ObservingClient)
        if (shared !== undefined) return yield* Effect.orDie(Effect.flatMap(list, (all) => Option.fromNullable(all[0])))
        const entry = yield* find(selector, client)
        yield* Ref.update(state, (current) => withClient(current, client, (known) => ({ ...known, current: entry.slot.key, lost: undefined })))
        const now = yield* Clock.currentTimeMillis
        const listing = yield* listingFor(options, entry, true, now)
        return Option.getOrElse(listing, (): SessionListing => ({ id: entry.sessionId, idle: 0, current: true }))
      })

    const close: SessionsService["close"] = (selector) =>
      Effect.gen(function* () {
        const client = yield* FiberRef.get(ObservingClient)
        if (shared !== undefined) {
          const handle = handleFor(shared, client)
          const listing = yield* sharedListing(shared, client)
          if (Option.isNone(listing) || !namesShared(listing.value, selector)) {
            return yield* new SessionNotFound({ session: clip(selector), yours: Option.toArray(listing).map((known) => known.id) })
          }
          yield* Context.get(handle.context, Session).cleanup
          return listing.value.id
        }
        const entry = yield* find(selector, client)
        yield* closeSlot(entry.slot, "sessions")
        return entry.sessionId
      })

    const onPauseChange: SessionsService["onPauseChange"] = (listener) =>
      Effect.sync(() => {
        listeners.add(listener)
        return () => void listeners.delete(listener)
      })

    // The idle lease: a session no call used for idleTimeoutMs closes, checked when the earliest lease ends.
    if (options.idleTimeoutMs > 0 && shared === undefined) {
      const sweep = leaseSweep({ state, options, closeSlot })
      yield* Effect.forkScoped(Effect.forever(Effect.flatMap(sweep, (wait) => Effect.sleep(Duration.millis(wait)))))
    }

    const service: SessionsService = { resolve, list, reserving, count, switchTo, close, onPauseChange, whyClosed: whyClosedIn(state) }
    return service
  })

/** The registry as the Sessions service, over the slots a factory builds; the scope's end closes every session. */
export const layer = <R>(factory: Effect.Effect<SlotFactory, never, R>, options: RegistryOptions) =>
  Layer.scoped(Sessions, Effect.flatMap(factory, (built) => make(built, options)))
