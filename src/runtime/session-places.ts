// The places of the session registry: whether one more session fits (--max-sessions, the --user-data-dir
// profile), the error of one that does not, and the places held ahead of a launch (`reserving`): taken at
// once, or (a fan-out's runs) waited for in the order asked, a place that frees going to the first waiting.
import { Clock, Context, Deferred, Duration, Effect, FiberRef, Option, Ref } from "effect"
import { ProfileInUse, SessionLimit } from "../domain/errors.js"
import { ObservingClient } from "../services/Observer.js"
import { Session } from "../services/Session.js"
import type { PlaceWait } from "../services/Sessions.js"
import { clientOf, shownAs, visibleIn, type Entry, type RegistryOptions, type State } from "./session-state.js"

/**
 * Sessions whose browser closed or crashed: they count toward no limit. Asked of each session's own state,
 * never of its pages: a launch must not wait for other sessions' busy pages.
 */
export const endedKeys = (entries: ReadonlyArray<Entry>) =>
  Effect.map(
    Effect.forEach(entries, (entry) => Effect.map(Context.get(entry.slot.services, Session).browserEnded, (ended) => (ended ? [entry.slot.key] : [])), {
      concurrency: "unbounded"
    }),
    (keys) => new Set(keys.flat())
  )

const entriesOf = (state: Ref.Ref<State>) => Effect.map(Ref.get(state), (current) => [...current.entries.values()])

/** The places held: open sessions (their browser alive), launches under way, places reserved. */
const held = (current: State, ended: ReadonlySet<string>) =>
  [...current.entries.keys()].filter((key) => !ended.has(key)).length + current.starting.size + current.permits.size

/**
 * Whether one more session fits: "ok", or why not. `ahead`: runs waiting before this one, whose the next
 * places are (a newcomer counts them all; the hand-over to the first of them none).
 */
export const placement = (current: State, options: RegistryOptions, ended: ReadonlySet<string>, ahead: number): "ok" | "full" | "profile" => {
  const open = held(current, ended) + ahead
  if (options.profile !== undefined && open > 0) return "profile"
  return open >= options.maxSessions ? "full" : "ok"
}

/** A client's own launches under way (and places held for one), as SessionLimit lists them; a fan-out's (`group`) aside. */
const startingOf = (current: State, client: string, group?: symbol) =>
  [...current.starting.values(), ...current.permits.values()]
    .filter((launch) => launch.owner === client && (group === undefined || launch.group !== group))
    .map((launch) => (launch.name === undefined ? "one starting" : `one starting (${launch.name})`))

/** A fan-out's run that gave up waiting: its group and how long it waited. */
interface Waited {
  readonly group: symbol
  readonly waitedMs: number
}

/** The error a launch that does not fit answers: the profile is held, or the limit is reached (naming the client's sessions). */
export const refusal = (options: RegistryOptions, why: "full" | "profile", current: State, client: string, ended: ReadonlySet<string>, waited?: Waited) =>
  why === "profile" ? profileInUse(current, client, options.profile!, ended) : sessionLimit(options, current, client, ended, waited)

/**
 * The limit is reached: the client's sessions (and launches under way), and whether its only one is its current
 * one. For a fan-out's run that waited: its own call's places and other clients' counted apart from the client's.
 */
const sessionLimit = (options: RegistryOptions, current: State, client: string, ended: ReadonlySet<string>, waited?: Waited) => {
  const group = waited?.group
  const visible = visibleIn(current, client, options.shared).filter((entry) => group === undefined || entry.group !== group)
  const starting = startingOf(current, client, group)
  const yours = [...visible.map(shownAs), ...starting]
  if (waited === undefined) {
    const onlyCurrent = visible.length === 1 && starting.length === 0 && clientOf(current, client).current === visible[0]!.slot.key
    return new SessionLimit({ limit: options.maxSessions, yours, ...(onlyCurrent ? { onlyCurrent: true as const } : {}) })
  }
  const live = (entry: Entry) => !ended.has(entry.slot.key)
  const runs =
    [...current.entries.values()].filter((entry) => live(entry) && entry.group === group).length +
    [...current.starting.values(), ...current.permits.values()].filter((launch) => launch.group === group).length
  const mine = visible.filter(live).length + starting.length
  const others = Math.max(0, held(current, ended) - runs - mine)
  return new SessionLimit({ limit: options.maxSessions, yours, waitedMs: waited.waitedMs, runs, others })
}

/** The --user-data-dir profile is held: by which session (named only to a client that may use it). */
const profileInUse = (current: State, client: string, profile: string, ended: ReadonlySet<string>) => {
  const holder = [...current.entries.values()].find((entry) => !ended.has(entry.slot.key))
  const yours = holder !== undefined && visibleIn(current, client, false).includes(holder)
  const isCurrent = yours && clientOf(current, client).current === holder.slot.key
  return new ProfileInUse({
    profile,
    heldBy: holder === undefined ? "a session that is starting" : yours ? shownAs(holder) : "another client's session",
    yours,
    ...(isCurrent ? { current: true as const } : {})
  })
}

/**
 * Hands the places free now to the runs waiting, first come first, each in the same step as the check that it
 * fits (so waiters, however many, never hold more than --max-sessions), then wakes them. Run after every change
 * that can free a place: a session closed, a launch failed, a place given back, and before any new check (a
 * browser that died frees its place unseen).
 */
export const handOver = (state: Ref.Ref<State>, options: RegistryOptions) =>
  Effect.gen(function* () {
    if ((yield* Ref.get(state)).waiting.length === 0) return
    const ended = yield* endedKeys(yield* entriesOf(state))
    const woken = yield* Ref.modify(state, (current) => {
      let next = current
      const ready: Array<Deferred.Deferred<void>> = []
      while (next.waiting.length > 0 && placement(next, options, ended, 0) === "ok") {
        const [first, ...rest] = next.waiting
        next = { ...next, waiting: rest, permits: new Map(next.permits).set(first!.permit, { owner: first!.owner, group: first!.group }) }
        ready.push(first!.ready)
      }
      return [ready, next]
    })
    yield* Effect.forEach(woken, (ready) => Deferred.succeed(ready, undefined), { discard: true })
  })

/** A place taken at once, or a turn among the runs waiting (its Deferred completes once the place is its). */
export type Entered = { readonly placed: true } | { readonly ready: Deferred.Deferred<void> }

/**
 * Takes a place for the launch to come (the `permit`) in the same step as the check that it fits, when no run
 * waits ahead of it; else, with `wait`, joins the runs waiting; else the error that launch would answer.
 */
export const enter = (state: Ref.Ref<State>, options: RegistryOptions, permit: number, wait: PlaceWait | undefined) =>
  Effect.gen(function* () {
    const client = yield* FiberRef.get(ObservingClient)
    yield* handOver(state, options)
    const ended = yield* endedKeys(yield* entriesOf(state))
    const ready = wait === undefined ? undefined : yield* Deferred.make<void>()
    const entered = yield* Ref.modify(state, (current): [Entered | "full" | "profile", State] => {
      const fits = placement(current, options, ended, current.waiting.length)
      if (fits === "ok") return [{ placed: true }, { ...current, permits: new Map(current.permits).set(permit, { owner: client, group: wait?.group }) }]
      if (ready === undefined || wait === undefined) return [fits, current]
      return [{ ready }, { ...current, waiting: [...current.waiting, { permit, owner: client, group: wait.group, ready }] }]
    })
    if (entered === "full" || entered === "profile") return yield* refusal(options, entered, yield* Ref.get(state), client, ended)
    return entered
  })

/** How often a waiting run looks for a place freed by a browser that died (which changes no registry state, so wakes nobody). */
const RECHECK_MS = 1_000

/** Whether the turn came before `until`: awaited in slices of RECHECK_MS, each followed by a hand-over that sees dead browsers. */
const turnCame = (state: Ref.Ref<State>, options: RegistryOptions, ready: Deferred.Deferred<void>, until: number) =>
  Effect.gen(function* () {
    for (;;) {
      const left = until - (yield* Clock.currentTimeMillis)
      if (left <= 0) return Option.isSome(yield* Deferred.poll(ready))
      if (Option.isSome(yield* Effect.timeoutOption(Deferred.await(ready), Duration.millis(Math.min(left, RECHECK_MS))))) return true
      yield* handOver(state, options)
    }
  })

/**
 * Waits for the place a turn among the waiting runs brings, until `wait.until`; then, if the place has not come
 * (checked and the turn left in one step: a hand-over in between is kept), the error naming what holds them.
 */
export const awaitPlace = (state: Ref.Ref<State>, options: RegistryOptions, permit: number, wait: PlaceWait, ready: Deferred.Deferred<void>) =>
  Effect.gen(function* () {
    const client = yield* FiberRef.get(ObservingClient)
    const since = yield* Clock.currentTimeMillis
    if (wait.onWait !== undefined) yield* wait.onWait
    if (yield* turnCame(state, options, ready, wait.until)) return
    yield* handOver(state, options)
    const ended = yield* endedKeys(yield* entriesOf(state))
    const gaveUp = yield* Ref.modify(state, (current): [boolean, State] =>
      current.permits.has(permit) ? [false, current] : [true, { ...current, waiting: current.waiting.filter((waiter) => waiter.permit !== permit) }]
    )
    if (!gaveUp) return
    const current = yield* Ref.get(state)
    const why = placement(current, options, ended, 0) === "profile" ? "profile" : "full"
    return yield* refusal(options, why, current, client, ended, { group: wait.group, waitedMs: (yield* Clock.currentTimeMillis) - since })
  })

/** Gives a place back (leaving the runs waiting too) unless a launch took it; a place given back goes to the first run waiting. */
export const leave = (state: Ref.Ref<State>, options: RegistryOptions, permit: number) =>
  Effect.gen(function* () {
    const gaveBack = yield* Ref.modify(state, (current): [boolean, State] => {
      const waiting = current.waiting.some((waiter) => waiter.permit === permit) ? current.waiting.filter((waiter) => waiter.permit !== permit) : current.waiting
      if (!current.permits.has(permit)) return [false, waiting === current.waiting ? current : { ...current, waiting }]
      const permits = new Map(current.permits)
      permits.delete(permit)
      return [true, { ...current, permits, waiting }]
    })
    if (gaveBack) yield* handOver(state, options)
  })
