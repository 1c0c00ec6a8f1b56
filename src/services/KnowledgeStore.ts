// Step memory: session metadata and one record per tool call; the in-memory layer lives here too.
import { Context, Effect, Layer, Ref } from "effect"
import type { KnowledgeError } from "../domain/errors.js"
import type { SessionMetadata, StepRecord } from "../domain/knowledge.js"

export interface KnowledgeStoreService {
  readonly startSession: (metadata: SessionMetadata) => Effect.Effect<void, KnowledgeError>
  readonly recordStep: (step: StepRecord) => Effect.Effect<void, KnowledgeError>
  /** Steps of one session in the order they were recorded. */
  readonly steps: (sessionId: string) => Effect.Effect<ReadonlyArray<StepRecord>, KnowledgeError>
  readonly sessions: Effect.Effect<ReadonlyArray<SessionMetadata>, KnowledgeError>
}

export class KnowledgeStore extends Context.Tag("browser-workflow-mcp/KnowledgeStore")<
  KnowledgeStore,
  KnowledgeStoreService
>() {
  static readonly make = Effect.gen(function* () {
    const sessions = yield* Ref.make<ReadonlyArray<SessionMetadata>>([])
    const steps = yield* Ref.make<ReadonlyArray<StepRecord>>([])
    return KnowledgeStore.of({
      startSession: (metadata) => Ref.update(sessions, (all) => [...all, metadata]),
      recordStep: (step) => Ref.update(steps, (all) => [...all, step]),
      steps: (sessionId) => Ref.get(steps).pipe(Effect.map((all) => all.filter((step) => step.sessionId === sessionId))),
      sessions: Ref.get(sessions)
    })
  })

  /** Keeps everything in memory: for tests and for library consumers who want no files. */
  static readonly layerMemory = Layer.effect(KnowledgeStore, KnowledgeStore.make)
}
