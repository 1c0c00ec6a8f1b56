// Asking the step memory, all in one listed tool (mm_knowledge): the latest steps, a search, the sessions,
// and one session exported as an mm_run_steps batch, a Playwright test, its recipe or its HTML report.
// The tools that did each of these before (knowledge_last, knowledge_search, knowledge_sessions,
// knowledge_summarize, knowledge_export, report) stay callable under their names, unlisted.
import { Clock, Effect, Option, Schema } from "effect"
import { InvalidInput, KnowledgeError, NoActiveSession } from "../domain/errors.js"
import {
  isMemoryStep,
  KnowledgeFilters,
  KnowledgeScope,
  Placeholder,
  Recipe,
  SessionSummary,
  StepSummary,
  type StepRecord
} from "../domain/knowledge.js"
import type { SessionSet } from "../knowledge/catalog.js"
import { recipeOf, toBatch, toPlaywright } from "../knowledge/recipe.js"
import { expandedWords, queryGroups } from "../knowledge/text.js"
import { defineTool, Evident, ListedAs, Unlisted } from "../runtime/tool.js"
import { admitSession, catalogOf, hiddenSessions, KnowledgeStore } from "../services/KnowledgeStore.js"
import { Session } from "../services/Session.js"
import { ToolRegistry, toolLookup } from "../runtime/registry.js"
import { writeReport } from "./report.js"

export { toolLookup }

const queryAnnotations = { readOnly: true, destructive: false, idempotent: true, openWorld: false } as const

/** Definition fields of the step-memory tools: available without a session, never part of a replay. */
const memoryTool = {
  annotations: queryAnnotations,
  group: "knowledge",
  requiresSession: false,
  replay: { mode: "never" },
  stepKinds: ["memory"],
  observation: "none"
} as const

// Words find steps; narrowing by flow tag, tag, screen or age is for people's queries: accepted, not listed (docs/knowledge.md).
const Filters = Schema.optional(KnowledgeFilters.annotations({ [ListedAs]: { type: "object" } })).annotations({
  description: "{flowTag?, tag?, screen?, sinceHours?}",
  [Unlisted]: true
})

const Words = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))
const Query = Words.annotations({ description: 'Words, e.g. "confirm transaction".' })

const Scope = (fallback: "current" | "all") =>
  Schema.optionalWith(KnowledgeScope.annotations({ [ListedAs]: { type: ["string", "object"] } }), {
    default: () => fallback
  }).annotations({ description: `${fallback} (default), ${fallback === "all" ? "current" : "all"} or {sessionId}.` })

export const currentSessionId = Effect.gen(function* () {
  const session = yield* Session
  const current = yield* session.current
  if (Option.isNone(current)) return yield* new NoActiveSession()
  return current.value.sessionId
})

/** The sessions a scope covers; "current" needs a running session. */
const sessionsOf = (scope: KnowledgeScope) =>
  Effect.gen(function* () {
    if (scope === "all") {
      const hidden = yield* hiddenSessions(yield* KnowledgeStore)
      return (hidden.size === 0 ? "all" : { except: hidden }) as SessionSet
    }
    if (scope === "current") return new Set([yield* currentSessionId]) as SessionSet
    // Naming an id is what lets a client read another's session (--private-knowledge).
    yield* admitSession(scope.sessionId)
    return new Set([scope.sessionId]) as SessionSet
  })

/** Steps matching words, best first. */
const searchSteps = (query: string, limit: number, sessions: SessionSet, filters: KnowledgeFilters | undefined) =>
  Effect.gen(function* () {
    const catalog = yield* catalogOf(yield* KnowledgeStore)
    const groups = queryGroups(query)
    const matches = catalog.search({ groups, limit, sessions, filters, now: yield* Clock.currentTimeMillis })
    return { query, words: expandedWords(groups), matches }
  })

const SearchOutput = Schema.Struct({
  query: Schema.String,
  words: Schema.Array(Schema.String).annotations({ description: "The words searched for, synonyms included." }),
  matches: Schema.Array(StepSummary)
})

const LastOutput = Schema.Struct({ steps: Schema.Array(StepSummary) })
const SessionsOutput = Schema.Struct({ sessions: Schema.Array(SessionSummary) })

export const knowledgeLast = defineTool({
  name: "knowledge_last",
  title: "Latest recorded steps",
  description: "Latest recorded steps, oldest first: what was just done. Returns {steps}.",
  input: Schema.Struct({
    n: Schema.optionalWith(Schema.Number.pipe(Schema.int(), Schema.between(1, 200)), { default: () => 20 }).annotations({
      description: "Default 20."
    }),
    scope: Scope("current"),
    filters: Filters
  }),
  output: LastOutput,
  ...memoryTool,
  // mm_knowledge without a query does this.
  unlisted: true,
  run: Effect.fn("tool.knowledge_last")(function* (input) {
    const sessions = yield* sessionsOf(input.scope)
    const catalog = yield* catalogOf(yield* KnowledgeStore)
    return { steps: catalog.last(input.n, sessions, input.filters, yield* Clock.currentTimeMillis) }
  })
})

export const knowledgeSearch = defineTool({
  name: "knowledge_search",
  title: "Search recorded steps",
  description: "Search recorded steps by words, with synonyms; best first. Returns {words, matches}.",
  input: Schema.Struct({
    query: Query,
    limit: Schema.optionalWith(Schema.Number.pipe(Schema.int(), Schema.between(1, 100)), { default: () => 20 }).annotations({
      description: "Default 20."
    }),
    scope: Scope("all"),
    filters: Filters
  }),
  output: SearchOutput,
  ...memoryTool,
  // mm_knowledge {query} does this.
  unlisted: true,
  run: Effect.fn("tool.knowledge_search")(function* (input) {
    return yield* searchSteps(input.query, input.limit, yield* sessionsOf(input.scope), input.filters)
  })
})

export const knowledgeSessions = defineTool({
  name: "knowledge_sessions",
  title: "Recorded sessions",
  description: "Recorded sessions, newest first. Returns {sessions}.",
  input: Schema.Struct({
    limit: Schema.optionalWith(Schema.Number.pipe(Schema.int(), Schema.between(1, 50)), { default: () => 10 }).annotations({
      description: "Default 10."
    }),
    filters: Filters
  }),
  output: SessionsOutput,
  ...memoryTool,
  // mm_knowledge {sessions: true} does this.
  unlisted: true,
  run: Effect.fn("tool.knowledge_sessions")(function* (input) {
    const store = yield* KnowledgeStore
    const catalog = yield* catalogOf(store)
    return { sessions: catalog.sessions(input.limit, input.filters, yield* Clock.currentTimeMillis, { except: yield* hiddenSessions(store) }) }
  })
})

/** The full records of one session, oldest first; a session with no records is an error naming the way out. */
export const sessionSteps = (sessionId: string) =>
  Effect.gen(function* () {
    const store = yield* KnowledgeStore
    yield* admitSession(sessionId)
    const steps = yield* store.steps(sessionId)
    if (steps.length === 0) {
      return yield* new KnowledgeError({
        detail: `no steps are recorded for session ${sessionId}. mm_knowledge {sessions: true} lists the sessions.`
      })
    }
    const catalog = yield* catalogOf(store)
    return { steps: steps as ReadonlyArray<StepRecord>, metadata: catalog.metadata(sessionId) }
  })

const SummarizeScope = Schema.Union(Schema.Literal("current"), Schema.Struct({ sessionId: Schema.String.pipe(Schema.minLength(1)) })).annotations({
  [ListedAs]: { type: ["string", "object"] }
})

const SummaryFields = {
  sessionId: Schema.String,
  goal: Schema.optional(Schema.String),
  flowTags: Schema.Array(Schema.String),
  tags: Schema.Array(Schema.String),
  stepCount: Schema.Number,
  succeeded: Schema.Number,
  failed: Schema.Number,
  screens: Schema.Array(Schema.String).annotations({ description: "Screens the session went through, in order." }),
  recipe: Recipe
}

/** A session in brief: counts, the screens it went through, and its recipe. */
export const summarizeSession = (sessionId: string) =>
  Effect.gen(function* () {
    const { steps, metadata } = yield* sessionSteps(sessionId)
    const flow = steps.filter((step) => !isMemoryStep(step))
    const screens: Array<string> = []
    for (const step of flow) {
      const screen = step.observation?.state.currentScreen
      if (screen !== undefined && screen !== "unknown" && screens[screens.length - 1] !== screen) screens.push(screen)
    }
    const succeeded = flow.filter((step) => step.outcome.ok).length
    return {
      sessionId,
      ...(metadata?.goal !== undefined ? { goal: metadata.goal } : {}),
      flowTags: metadata?.flowTags ?? [],
      tags: metadata?.tags ?? [],
      stepCount: flow.length,
      succeeded,
      failed: flow.length - succeeded,
      screens,
      recipe: recipeOf(flow, yield* ToolRegistry)
    }
  })

export const knowledgeSummarize = defineTool({
  name: "knowledge_summarize",
  title: "Summarize a session as a recipe",
  description:
    "A session as a recipe for mm_run_steps (durable targets, {{secret}} placeholders). Returns {recipe, ...}.",
  input: Schema.Struct({
    scope: Schema.optionalWith(SummarizeScope, { default: () => "current" as const }).annotations({
      description: "current (default) or {sessionId}."
    })
  }),
  output: Schema.Struct(SummaryFields),
  ...memoryTool,
  // mm_knowledge {export: "recipe"} does this.
  unlisted: true,
  run: Effect.fn("tool.knowledge_summarize")(function* (input) {
    return yield* summarizeSession(input.scope === "current" ? yield* currentSessionId : input.scope.sessionId)
  })
})

export const FileFormat = Schema.Literal("batch", "playwright")

/**
 * A batch file types each param's recorded text, as the Playwright export does: run as it is, mm_run_steps
 * would type "{{item}}" itself. The step keeps `param`, so a session run from it records the param again;
 * redacted placeholders ({{password}}) stay, to fill. mm_replay fills the recipe's own copy instead.
 */
const withParamTexts = (batch: ReturnType<typeof toBatch>, recipe: Recipe): ReturnType<typeof toBatch> => {
  const defaults = new Map(recipe.placeholders.flatMap((placeholder) => (placeholder.default !== undefined ? [[placeholder.name, placeholder.default] as const] : [])))
  return {
    ...batch,
    steps: batch.steps.map((step) => {
      const name = typeof step.args.param === "string" ? step.args.param : undefined
      const text = name !== undefined && step.args.text === `{{${name}}}` ? defaults.get(name) : undefined
      return text === undefined ? step : { ...step, args: { ...step.args, text } }
    })
  }
}

/** A session as a file's content: an mm_run_steps batch (JSON) or a Playwright test (TypeScript). */
export const exportSession = (sessionId: string, format: typeof FileFormat.Type) =>
  Effect.gen(function* () {
    const { steps, metadata } = yield* sessionSteps(sessionId)
    const registry = yield* ToolRegistry
    const recipe = recipeOf(steps, registry)
    const content =
      format === "batch"
        ? JSON.stringify(withParamTexts(toBatch(recipe), recipe), null, 2) + "\n"
        : toPlaywright(recipe, steps, metadata, sessionId, registry)
    return {
      sessionId,
      format,
      fileName: format === "batch" ? `${sessionId}.batch.json` : `${sessionId}.spec.ts`,
      content,
      stepCount: recipe.steps.length,
      placeholders: recipe.placeholders,
      skipped: recipe.skipped
    }
  })

const FileExport = Schema.Struct({
  sessionId: Schema.String,
  format: FileFormat,
  fileName: Schema.String.annotations({ description: "A suggested file name." }),
  content: Schema.String.annotations({ description: "The file's content." }),
  stepCount: Schema.Number,
  placeholders: Schema.Array(Placeholder),
  skipped: Schema.Array(Schema.String).annotations({ description: "Recorded steps left out, each with why." })
})

export const knowledgeExport = defineTool({
  name: "knowledge_export",
  title: "Export a session",
  description: "A session as an mm_run_steps batch or a Playwright test file. Returns {fileName, content, ...}.",
  input: Schema.Struct({
    sessionId: Schema.optional(Schema.String.pipe(Schema.minLength(1))).annotations({
      description: "Default: the running session."
    }),
    format: Schema.optionalWith(FileFormat, { default: () => "batch" as const }).annotations({
      description: "Default batch."
    })
  }),
  output: FileExport,
  ...memoryTool,
  // mm_knowledge {export} does this.
  unlisted: true,
  run: Effect.fn("tool.knowledge_export")(function* (input) {
    return yield* exportSession(input.sessionId ?? (yield* currentSessionId), input.format)
  })
})

const RecipeExport = Schema.Struct({ format: Schema.Literal("recipe"), ...SummaryFields })

const ReportExport = Schema.Struct({
  format: Schema.Literal("report"),
  path: Schema.String.annotations({ description: "Where the HTML file was written (under <artifacts>/reports/)." }),
  sessionId: Schema.String,
  steps: Schema.Number,
  failed: Schema.Number,
  screenshots: Schema.Number,
  bytes: Schema.Number
})

const TraceExport = Schema.Struct({
  format: Schema.Literal("trace"),
  path: Schema.String.annotations({ description: "The session's Playwright trace; open it with npx playwright show-trace PATH." }),
  sessionId: Schema.String
})

export const ExportFormat = Schema.Literal("batch", "playwright", "recipe", "report", "trace")

/** Where a session's trace is (--save-trace writes it when the session ends), or MM_KNOWLEDGE_ERROR saying why there is none. */
const traceOf = (sessionId: string) =>
  Effect.gen(function* () {
    const store = yield* KnowledgeStore
    const files = store.sessionFiles === undefined ? [] : yield* store.sessionFiles(sessionId)
    const trace = files.find((file) => file.name.endsWith("/trace.zip"))
    if (trace !== undefined) return { format: "trace" as const, path: trace.path, sessionId }
    const current = yield* (yield* Session).current
    if (Option.isSome(current) && current.value.sessionId === sessionId) {
      return yield* new KnowledgeError({
        detail: `session ${sessionId} is still running: its trace (with --save-trace) is written when it ends; call mm_cleanup first.`
      })
    }
    // A session the memory does not know is that, whatever the server records.
    yield* sessionSteps(sessionId)
    return yield* new KnowledgeError({ detail: `no trace of session ${sessionId}: traces are recorded when the server runs with --save-trace.` })
  })

/** A session as a file (batch, playwright), its recipe, or its HTML report written under <artifacts>/reports/. */
export const exportAs = (sessionId: string, format: typeof ExportFormat.Type) =>
  Effect.gen(function* () {
    if (format === "recipe") return { format: "recipe" as const, ...(yield* summarizeSession(sessionId)) }
    if (format === "report") return { format: "report" as const, ...(yield* writeReport(sessionId)) }
    if (format === "trace") return yield* traceOf(sessionId)
    return yield* exportSession(sessionId, format)
  })

/** Search matches at most; sessions at most. */
const MAX_MATCHES = 100
const MAX_SESSIONS = 50

const conflict = (field: string, problem: string) => new InvalidInput({ field, problem })

export const knowledge = defineTool({
  name: "knowledge",
  title: "Step memory",
  description:
    "Recorded steps (the latest, or matching a query), sessions, or one session exported.",
  input: Schema.Struct({
    query: Schema.optional(Words).annotations({ description: "Words (synonyms too); best first." }),
    session: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))).annotations({
      description: "current, all or a session id."
    }),
    sessions: Schema.optional(Schema.Boolean).annotations({ description: "true: sessions, newest first.", [Evident]: true }),
    export: Schema.optional(ExportFormat).annotations({
      description: "batch: mm_run_steps steps; report: an HTML file; trace: its path (--save-trace)."
    }),
    limit: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1, 200))).annotations({ description: "Default 20 (10 sessions)." }),
    filters: Filters
  }),
  output: Schema.Union(LastOutput, SearchOutput, SessionsOutput, FileExport, RecipeExport, ReportExport, TraceExport),
  ...memoryTool,
  // export "report" writes a file.
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  run: Effect.fn("tool.knowledge")(function* (input) {
    const { session, limit, filters } = input
    if (input.export !== undefined) {
      if (input.query !== undefined) return yield* conflict("query", "export takes no query")
      if (input.sessions === true) return yield* conflict("sessions", "export takes one session")
      if (session === "all") return yield* conflict("session", "export takes one session: current or a session id")
      if (filters !== undefined) return yield* conflict("filters", "export takes the whole session")
      return yield* exportAs(session === undefined || session === "current" ? yield* currentSessionId : session, input.export)
    }
    if (input.sessions === true) {
      if (input.query !== undefined) return yield* conflict("query", "sessions are listed, not searched; search steps without sessions")
      if (session !== undefined) return yield* conflict("session", "sessions: true lists every session")
      const store = yield* KnowledgeStore
      const catalog = yield* catalogOf(store)
      return { sessions: catalog.sessions(Math.min(limit ?? 10, MAX_SESSIONS), filters, yield* Clock.currentTimeMillis, { except: yield* hiddenSessions(store) }) }
    }
    const running = Option.isSome(yield* (yield* Session).current)
    const scope: KnowledgeScope =
      session === "current" || session === "all" ? session : session !== undefined ? { sessionId: session } : input.query === undefined && running ? "current" : "all"
    const sessions = yield* sessionsOf(scope)
    if (input.query !== undefined) return yield* searchSteps(input.query, Math.min(limit ?? 20, MAX_MATCHES), sessions, filters)
    const catalog = yield* catalogOf(yield* KnowledgeStore)
    return { steps: catalog.last(limit ?? 20, sessions, filters, yield* Clock.currentTimeMillis) }
  })
})

export const knowledgeTools = [knowledge, knowledgeLast, knowledgeSearch, knowledgeSummarize, knowledgeSessions, knowledgeExport] as const
