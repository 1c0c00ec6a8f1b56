// Step memory: session metadata and one record per tool call; the in-memory layer lives here too.
import { Context, Effect, Layer, Option, Ref } from "effect"
import type { KnowledgeError } from "../domain/errors.js"
import type { SessionMetadata, StepRecord } from "../domain/knowledge.js"
import { Catalog } from "../knowledge/catalog.js"
import { RefHints } from "../knowledge/hints.js"

export interface KnowledgeStoreService {
  readonly startSession: (metadata: SessionMetadata) => Effect.Effect<void, KnowledgeError>
  /**
   * Records a step. A store may write it after answering (off the call's path): its own reads see it at once,
   * and `flush` waits until it is written (e.g. before files are read from outside the store).
   */
  readonly recordStep: (step: StepRecord) => Effect.Effect<void, KnowledgeError>
  /** Waits until every step recorded so far is written; absent for a store that writes as it records. */
  readonly flush?: Effect.Effect<void>
  /**
   * A session id the caller named (a step-memory query or export of that id): a store that limits what a
   * client reads (--private-knowledge) lets it read that session from then on, the id being a capability.
   * Absent: every session is readable.
   */
  readonly admit?: (sessionId: string) => Effect.Effect<void>
  /**
   * Sessions the caller may not see yet: other clients' live sessions whose id it never named. An id is a
   * capability (it reaches the session), so no listing, search, related session or replay of the shared step
   * memory shows one before it ends; `steps` and `sessions` leave them out. Absent: none.
   */
  readonly hidden?: Effect.Effect<ReadonlySet<string>>
  /** Steps of one session in the order they were recorded. */
  readonly steps: (sessionId: string) => Effect.Effect<ReadonlyArray<StepRecord>, KnowledgeError>
  readonly sessions: Effect.Effect<ReadonlyArray<SessionMetadata>, KnowledgeError>
  /**
   * The index over everything stored, up to date with other writers. Optional so that a store written
   * against the four methods above (a test fake, a consumer's own store) still answers queries: see `catalogOf`.
   */
  readonly catalog?: Effect.Effect<Catalog, KnowledgeError>
  /** The bytes of a file a step recorded (its screenshot), when it is under the artifacts directory and readable. */
  readonly readArtifact?: (file: string) => Effect.Effect<Option.Option<Uint8Array>>
  /**
   * The files a session left besides its steps (its trace, HAR and videos under sessions/<id>/, the
   * downloads directory), each as where it is (absolute) and its name there; none when the store keeps no files.
   */
  readonly sessionFiles?: (sessionId: string) => Effect.Effect<ReadonlyArray<SessionFile>>
  /** Saves a session's HTML report; answers where it went. */
  readonly writeReport?: (sessionId: string, html: string) => Effect.Effect<string, KnowledgeError>
}

/** A file a session left: its absolute path and its name relative to the artifacts directory. */
export interface SessionFile {
  readonly path: string
  readonly name: string
}

export class KnowledgeStore extends Context.Tag("browser-workflow-mcp/KnowledgeStore")<
  KnowledgeStore,
  KnowledgeStoreService
>() {
  static readonly make = Effect.gen(function* () {
    const sessions = yield* Ref.make<ReadonlyArray<SessionMetadata>>([])
    const steps = yield* Ref.make<ReadonlyArray<StepRecord>>([])
    const catalog = new Catalog()
    const hints = new RefHints()
    const reports = new Map<string, string>()
    return KnowledgeStore.of({
      startSession: (metadata) =>
        Ref.update(sessions, (all) => [...all.filter((known) => known.sessionId !== metadata.sessionId), metadata]).pipe(
          Effect.zipRight(Effect.sync(() => catalog.addSession(metadata)))
        ),
      recordStep: (step) =>
        Effect.suspend(() => {
          const enriched = hints.enrich(step)
          catalog.addStep(enriched)
          return Ref.update(steps, (all) => [...all, enriched])
        }),
      steps: (sessionId) => Ref.get(steps).pipe(Effect.map((all) => all.filter((step) => step.sessionId === sessionId))),
      sessions: Ref.get(sessions),
      catalog: Effect.succeed(catalog),
      readArtifact: () => Effect.succeed(Option.none()),
      writeReport: (sessionId, html) =>
        Effect.sync(() => {
          reports.set(sessionId, html)
          return `memory:reports/${sessionId}.html`
        })
    })
  })

  /** Keeps everything in memory: for tests and for library consumers who want no files. */
  static readonly layerMemory = Layer.effect(KnowledgeStore, KnowledgeStore.make)
}

/** Tells the store the caller named this session id (see `admit`); nothing for a store that limits no reads. */
export const admitSession = (sessionId: string): Effect.Effect<void, never, KnowledgeStore> =>
  Effect.flatMap(KnowledgeStore, (store) => store.admit?.(sessionId) ?? Effect.void)

const noneHidden: ReadonlySet<string> = new Set()

/** The sessions the caller may not see yet (see `hidden`). */
export const hiddenSessions = (store: KnowledgeStoreService): Effect.Effect<ReadonlySet<string>> => store.hidden ?? Effect.succeed(noneHidden)

/** The store's index, or one built from a full read of a store that keeps none. */
export const catalogOf = (store: KnowledgeStoreService): Effect.Effect<Catalog, KnowledgeError> =>
  store.catalog ??
  Effect.gen(function* () {
    const catalog = new Catalog()
    const sessions = yield* store.sessions
    for (const session of sessions) catalog.addSession(session)
    const all = yield* Effect.forEach(sessions, (session) => store.steps(session.sessionId))
    for (const steps of all) for (const step of steps) catalog.addStep(step)
    return catalog
  })
