// The step memory as one client of a server with many sessions reads it: limited to its own sessions and those
// it named (--private-knowledge), or shared less other clients' live sessions, whose id is a capability.
import { Effect } from "effect"
import type { KnowledgeStoreService } from "../services/KnowledgeStore.js"

/**
 * Store reads limited to the given sessions; without `catalog`, queries read those sessions' records only.
 * `admit` adds a session id the client named; any other id reads as unknown (nothing tells it exists).
 */
export const privateStore = (
  store: KnowledgeStoreService,
  allowed: Effect.Effect<ReadonlySet<string>>,
  admit: (sessionId: string) => Effect.Effect<void>
): KnowledgeStoreService => ({
  startSession: store.startSession,
  admit,
  recordStep: store.recordStep,
  ...(store.flush !== undefined ? { flush: store.flush } : {}),
  steps: (sessionId) => Effect.flatMap(allowed, (ids) => (ids.has(sessionId) ? store.steps(sessionId) : Effect.succeed([]))),
  sessions: Effect.flatMap(allowed, (ids) => Effect.map(store.sessions, (all) => all.filter((session) => ids.has(session.sessionId)))),
  ...(store.readArtifact !== undefined ? { readArtifact: store.readArtifact } : {}),
  ...(store.writeReport !== undefined ? { writeReport: store.writeReport } : {})
})

/** The shared step memory as one client reads it: everything but the sessions `hidden` names (see KnowledgeStoreService.hidden). */
export const sharedStore = (
  store: KnowledgeStoreService,
  hidden: Effect.Effect<ReadonlySet<string>>,
  admit: (sessionId: string) => Effect.Effect<void>
): KnowledgeStoreService => ({
  ...store,
  admit,
  hidden,
  steps: (sessionId) => Effect.flatMap(hidden, (ids) => (ids.has(sessionId) ? Effect.succeed([]) : store.steps(sessionId))),
  sessions: Effect.flatMap(hidden, (ids) => Effect.map(store.sessions, (all) => (ids.size === 0 ? all : all.filter((session) => !ids.has(session.sessionId)))))
})
