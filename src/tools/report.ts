// mm_report: one session as a self-contained HTML page a person can open: the timeline of its steps with
// durations, targets, outcomes, errors and screenshots, the recipe that replays it, and links to its recordings.
import { pathToFileURL } from "node:url"
import { Clock, Effect, Option, Schema } from "effect"
import { KnowledgeError, NoActiveSession } from "../domain/errors.js"
import { isMemoryStep, type StepRecord } from "../domain/knowledge.js"
import { recipeOf } from "../knowledge/recipe.js"
import { renderReport } from "../knowledge/report.js"
import { defineTool } from "../runtime/tool.js"
import { admitSession, catalogOf, KnowledgeStore } from "../services/KnowledgeStore.js"
import { Session } from "../services/Session.js"
import { ToolRegistry } from "../runtime/registry.js"

const IMAGE_TYPES: Readonly<Record<string, string>> = { ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".png": "image/png" }

const mimeOf = (file: string) => IMAGE_TYPES[file.slice(file.lastIndexOf(".")).toLowerCase()]

/** A session's report as HTML, with its counts; fails with MM_KNOWLEDGE_ERROR when nothing is recorded for it. */
export const buildReport = (sessionId: string) =>
  Effect.gen(function* () {
    const store = yield* KnowledgeStore
    yield* admitSession(sessionId)
    // The flow, without the agent's questions to the step memory and earlier reports.
    const steps: ReadonlyArray<StepRecord> = (yield* store.steps(sessionId)).filter(
      (step) => !isMemoryStep(step)
    )
    if (steps.length === 0) {
      return yield* new KnowledgeError({
        detail: `no steps are recorded for session ${sessionId}. mm_knowledge {sessions: true} lists the sessions.`
      })
    }
    const catalog = yield* catalogOf(store)
    const images = new Map<string, string>()
    const shots = [...new Set(steps.flatMap((step) => (step.artifacts?.screenshot === undefined ? [] : [step.artifacts.screenshot])))]
    yield* Effect.forEach(
      shots,
      (file) =>
        Effect.gen(function* () {
          const mime = mimeOf(file)
          if (mime === undefined || store.readArtifact === undefined) return
          const bytes = yield* store.readArtifact(file)
          if (Option.isSome(bytes)) images.set(file, `data:${mime};base64,${Buffer.from(bytes.value).toString("base64")}`)
        }),
      { concurrency: 8 }
    )
    const files = store.sessionFiles === undefined ? [] : yield* store.sessionFiles(sessionId)
    const html = renderReport({
      sessionId,
      metadata: catalog.metadata(sessionId),
      steps,
      recipe: recipeOf(steps, yield* ToolRegistry),
      images,
      files: files.map((file) => ({ name: file.name, path: file.path, href: pathToFileURL(file.path).href })),
      hrefOf: (file) => pathToFileURL(file).href,
      generatedAt: new Date(yield* Clock.currentTimeMillis).toISOString()
    })
    return { html, steps: steps.length, failed: steps.filter((step) => !step.outcome.ok).length, screenshots: images.size }
  })

/** Writes a session's report under <artifacts>/reports/ and says where, with its counts. */
export const writeReport = (sessionId: string) =>
  Effect.gen(function* () {
    const store = yield* KnowledgeStore
    if (store.writeReport === undefined) {
      return yield* new KnowledgeError({ detail: "this knowledge store cannot write reports" })
    }
    const built = yield* buildReport(sessionId)
    const path = yield* store.writeReport(sessionId, built.html)
    return { path, sessionId, steps: built.steps, failed: built.failed, screenshots: built.screenshots, bytes: Buffer.byteLength(built.html) }
  })

export const report = defineTool({
  name: "report",
  title: "Write a session report",
  description:
    "Write a self-contained HTML report of a session for a person: steps with timings, targets, errors and screenshots, and the recipe. Returns {path, steps, failed}.",
  input: Schema.Struct({
    sessionId: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))).annotations({
      description: "Session id; the running one when absent."
    })
  }),
  output: Schema.Struct({
    path: Schema.String.annotations({ description: "Where the HTML file was written (under <artifacts>/reports/)." }),
    sessionId: Schema.String,
    steps: Schema.Number.annotations({ description: "Steps in the timeline." }),
    failed: Schema.Number.annotations({ description: "Steps that failed." }),
    screenshots: Schema.Number.annotations({ description: "Screenshots embedded." }),
    bytes: Schema.Number.annotations({ description: "Size of the file." })
  }),
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  group: "knowledge",
  requiresSession: false,
  // mm_knowledge {export: "report"} does this.
  unlisted: true,
  replay: { mode: "never" },
  stepKinds: ["memory"],
  observation: "none",
  run: Effect.fn("tool.report")(function* (input) {
    let sessionId = input.sessionId
    if (sessionId === undefined) {
      const current = yield* (yield* Session).current
      if (Option.isNone(current)) return yield* new NoActiveSession()
      sessionId = current.value.sessionId
    }
    return yield* writeReport(sessionId)
  })
})
