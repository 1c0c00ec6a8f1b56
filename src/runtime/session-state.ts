// What the session registry holds in its one Ref: the live sessions (slots, with an entry once launched), its
// clients, and the places held for sessions to come (launches under way, reservations, runs waiting for one).
import type { Context, Deferred, Effect, Ref, Scope } from "effect"
import type { Observer } from "../services/Observer.js"
import type { Session } from "../services/Session.js"

export interface RegistryOptions {
  /** Open sessions at most (a dead or closed one does not count). */
  readonly maxSessions: number
  /** A session no call used for this long closes (0: never). */
  readonly idleTimeoutMs: number
  /** One session every client shares (--shared-browser): today's single-session server. */
  readonly shared: boolean
  /** Step memory a client reads is its own sessions' only (--private-knowledge). */
  readonly privateKnowledge: boolean
  /**
   * The profile every session's browser runs on (--user-data-dir): Chromium runs one browser per profile,
   * so one session holds it at a time and another launch answers MM_PROFILE_IN_USE at once.
   */
  readonly profile?: string | undefined
  /** The JS heap a session's pages use, MB, for mm_sessions (when the adapter can tell). */
  readonly memoryOf?: ((session: Context.Context<Session | Observer>) => Effect.Effect<number | undefined>) | undefined
}

export interface Slot {
  readonly key: string
  readonly scope: Scope.CloseableScope
  readonly services: Context.Context<Session | Observer>
  /** Calls running on it, and when the last one ended. */
  readonly use: Ref.Ref<{ readonly calls: number; readonly lastUsed: number }>
}

/** A slot whose session was launched. */
export interface Entry {
  readonly slot: Slot
  readonly sessionId: string
  readonly name?: string | undefined
  readonly owner: string
  /** The fan-out whose run launched it (PlaceWait.group). */
  readonly group?: symbol | undefined
}

export interface ClientState {
  /** The slot key of its current session. */
  readonly current?: string | undefined
  /** Its current session closed (and no other became current since): its id, for the next call's MM_NO_ACTIVE_SESSION. */
  readonly lost?: string | undefined
  /** Slot keys of other clients' sessions it named by id. */
  readonly named: ReadonlySet<string>
  /**
   * Every session id it launched or named (in a call's `session`, or a step-memory query's), closed ones
   * included: its step memory with --private-knowledge. An id is a capability, as for calls.
   */
  readonly known: ReadonlySet<string>
}

/** A launch under way, or a place held for one. */
export interface Starting {
  readonly owner: string
  readonly name?: string | undefined
  /** The fan-out whose run it is (PlaceWait.group). */
  readonly group?: symbol | undefined
}

/** A run waiting for a place (`reserving` with a wait), in the order they asked: `ready` completes once the place is its permit's. */
export interface Waiter {
  readonly permit: number
  readonly owner: string
  readonly group: symbol
  readonly ready: Deferred.Deferred<void>
}

export interface State {
  readonly entries: ReadonlyMap<string, Entry>
  readonly clients: ReadonlyMap<string, ClientState>
  /** Launches under way by slot key, counted against the limit; their names are taken. */
  readonly starting: ReadonlyMap<string, Starting>
  /** Places held for a launch to come (`reserving`), by permit, counted against the limit. */
  readonly permits: ReadonlyMap<number, Starting>
  /** Runs waiting for a place, first come first: a place that frees is the first one's. */
  readonly waiting: ReadonlyArray<Waiter>
  /** Why the sessions closed lately went (the newest CLOSED_KEPT), by id: "was closed by mm_cleanup". */
  readonly closed: ReadonlyMap<string, string>
}

export const emptyState: State = { entries: new Map(), clients: new Map(), starting: new Map(), permits: new Map(), waiting: [], closed: new Map() }

const noClient: ClientState = { named: new Set(), known: new Set() }

export const shownAs = (entry: Entry) => (entry.name === undefined ? entry.sessionId : `${entry.sessionId} (${entry.name})`)

export const clientOf = (current: State, client: string) => current.clients.get(client) ?? noClient

export const withClient = (current: State, client: string, change: (before: ClientState) => ClientState): State => ({
  ...current,
  clients: new Map(current.clients).set(client, change(clientOf(current, client)))
})

/** The sessions a client sees: its own and those it named by id (all with --shared-browser). */
export const visibleIn = (current: State, client: string, shared: boolean): ReadonlyArray<Entry> =>
  [...current.entries.values()].filter((entry) => shared || entry.owner === client || clientOf(current, client).named.has(entry.slot.key))
