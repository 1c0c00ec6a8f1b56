// Asking the step memory: the latest steps, a search, one session as a replayable recipe, the sessions,
// and a session exported as an mm_run_steps batch or a Playwright test.
import { Clock, Effect, Option, Schema } from "effect"
import { KnowledgeError, NoActiveSession } from "../domain/errors.js"
import {
  KnowledgeFilters,
  KnowledgeScope,
  Placeholder,
  Recipe,
  SessionSummary,
  StepSummary,
  type StepRecord
} from "../domain/knowledge.js"
import type { SessionSet } from "../knowledge/catalog.js"
import { recipeOf, toBatch, toPlaywright, type ToolLookup } from "../knowledge/recipe.js"
import { expandedWords, queryGroups } from "../knowledge/text.js"
import { makeRegistry } from "../runtime/registry.js"
import { defineTool, ListedAs } from "../runtime/tool.js"
import { ToolView } from "../runtime/visibility.js"
import { catalogOf, KnowledgeStore } from "../services/KnowledgeStore.js"
import { Session } from "../services/Session.js"

const queryAnnotations = { readOnly: true, destructive: false, idempotent: true, openWorld: false } as const

/** Definition fields of the step-memory tools: available without a session, never part of a replay. */
const memoryTool = {
  annotations: queryAnnotations,
  group: "knowledge",
  requiresSession: false,
  replay: { mode: "never" },
  observation: "none"
} as const

/**
 * The definitions of recorded tools, for replays: the served ones, or the built-in ones when no server
 * serves this call (imported when needed: the registry lists these tools, so a static import would be a cycle).
 */
export const toolLookup: Effect.Effect<ToolLookup> = Effect.flatMap(
  Effect.serviceOption(ToolView),
  Option.match({
    onSome: (view) => Effect.succeed(view.registry.lookup),
    onNone: () => Effect.map(Effect.promise(() => import("./registry.js")), (module) => makeRegistry(module.builtinTools, "").lookup)
  })
)

/** Tool names in recipes and exports: the default prefix, which is what mm_run_steps and agents know. */
const RECIPE_PREFIX = "mm"

const Filters = Schema.optional(KnowledgeFilters.annotations({ [ListedAs]: { type: "object" } })).annotations({
  description: "{flowTag?, tag?, screen?, sinceHours?}"
})

const Scope = (fallback: "current" | "all") =>
  Schema.optionalWith(KnowledgeScope.annotations({ [ListedAs]: { type: ["string", "object"] } }), {
    default: () => fallback
  }).annotations({ description: `${fallback} (default), ${fallback === "all" ? "current" : "all"} or {sessionId}.` })

const currentSessionId = Effect.gen(function* () {
  const session = yield* Session
  const current = yield* session.current
  if (Option.isNone(current)) return yield* new NoActiveSession()
  return current.value.sessionId
})

/** The sessions a scope covers; "current" needs a running session. */
const sessionsOf = (scope: KnowledgeScope) =>
  Effect.gen(function* () {
    if (scope === "all") return "all" as SessionSet
    if (scope === "current") return new Set([yield* currentSessionId]) as SessionSet
    return new Set([scope.sessionId]) as SessionSet
  })

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
  output: Schema.Struct({ steps: Schema.Array(StepSummary) }),
  ...memoryTool,
  run: Effect.fn("tool.knowledge_last")(function* (input) {
    const sessions = yield* sessionsOf(input.scope)
    const catalog = yield* catalogOf(yield* KnowledgeStore)
    return { steps: catalog.last(input.n, sessions, input.filters, yield* Clock.currentTimeMillis) }
  })
})

export const knowledgeSearch = defineTool({
  name: "knowledge_search",
  title: "Search recorded steps",
  description:
    "Search recorded steps by words, with synonyms; best first. Returns {words, matches}.",
  input: Schema.Struct({
    query: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)).annotations({
      description: 'Words, e.g. "confirm transaction".'
    }),
    limit: Schema.optionalWith(Schema.Number.pipe(Schema.int(), Schema.between(1, 100)), { default: () => 20 }).annotations({
      description: "Default 20."
    }),
    scope: Scope("all"),
    filters: Filters
  }),
  output: Schema.Struct({
    query: Schema.String,
    words: Schema.Array(Schema.String).annotations({ description: "The words searched for, synonyms included." }),
    matches: Schema.Array(StepSummary)
  }),
  ...memoryTool,
  run: Effect.fn("tool.knowledge_search")(function* (input) {
    const sessions = yield* sessionsOf(input.scope)
    const catalog = yield* catalogOf(yield* KnowledgeStore)
    const groups = queryGroups(input.query)
    const matches = catalog.search({
      groups,
      limit: input.limit,
      sessions,
      filters: input.filters,
      now: yield* Clock.currentTimeMillis
    })
    return { query: input.query, words: expandedWords(groups), matches }
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
  output: Schema.Struct({ sessions: Schema.Array(SessionSummary) }),
  ...memoryTool,
  // Browsing past sessions comes before a launch or after a cleanup; callable at any time.
  listedWhen: (state) => !state.session,
  run: Effect.fn("tool.knowledge_sessions")(function* (input) {
    const catalog = yield* catalogOf(yield* KnowledgeStore)
    return { sessions: catalog.sessions(input.limit, input.filters, yield* Clock.currentTimeMillis) }
  })
})

/** The full records of one session, oldest first; a session with no records is an error naming the way out. */
const sessionSteps = (sessionId: string) =>
  Effect.gen(function* () {
    const store = yield* KnowledgeStore
    const steps = yield* store.steps(sessionId)
    if (steps.length === 0) {
      return yield* new KnowledgeError({
        detail: `no steps are recorded for session ${sessionId}. Call mm_knowledge_sessions to list the sessions.`
      })
    }
    const catalog = yield* catalogOf(store)
    return { steps: steps as ReadonlyArray<StepRecord>, metadata: catalog.metadata(sessionId) }
  })

const SummarizeScope = Schema.Union(Schema.Literal("current"), Schema.Struct({ sessionId: Schema.String.pipe(Schema.minLength(1)) })).annotations({
  [ListedAs]: { type: ["string", "object"] }
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
  output: Schema.Struct({
    sessionId: Schema.String,
    goal: Schema.optional(Schema.String),
    flowTags: Schema.Array(Schema.String),
    tags: Schema.Array(Schema.String),
    stepCount: Schema.Number,
    succeeded: Schema.Number,
    failed: Schema.Number,
    screens: Schema.Array(Schema.String).annotations({ description: "Screens the session went through, in order." }),
    recipe: Recipe
  }),
  ...memoryTool,
  run: Effect.fn("tool.knowledge_summarize")(function* (input) {
    const sessionId = input.scope === "current" ? yield* currentSessionId : input.scope.sessionId
    const { steps, metadata } = yield* sessionSteps(sessionId)
    const flow = steps.filter((step) => !step.tool.name.startsWith("knowledge_"))
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
      recipe: recipeOf(flow, yield* toolLookup, RECIPE_PREFIX)
    }
  })
})

export const ExportFormat = Schema.Literal("batch", "playwright")

/** A session as a file's content: an mm_run_steps batch (JSON) or a Playwright test (TypeScript). */
export const exportSession = (sessionId: string, format: typeof ExportFormat.Type) =>
  Effect.gen(function* () {
    const { steps, metadata } = yield* sessionSteps(sessionId)
    const lookup = yield* toolLookup
    const recipe = recipeOf(steps, lookup, RECIPE_PREFIX)
    const content =
      format === "batch"
        ? JSON.stringify(toBatch(recipe), null, 2) + "\n"
        : toPlaywright(recipe, steps, metadata, sessionId, lookup, RECIPE_PREFIX)
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

export const knowledgeExport = defineTool({
  name: "knowledge_export",
  title: "Export a session",
  description:
    "A session as an mm_run_steps batch or a Playwright test file. Returns {fileName, content, ...}.",
  input: Schema.Struct({
    sessionId: Schema.optional(Schema.String.pipe(Schema.minLength(1))).annotations({
      description: "Default: the running session."
    }),
    format: Schema.optionalWith(ExportFormat, { default: () => "batch" as const }).annotations({
      description: "Default batch."
    })
  }),
  output: Schema.Struct({
    sessionId: Schema.String,
    format: ExportFormat,
    fileName: Schema.String.annotations({ description: "A suggested file name." }),
    content: Schema.String.annotations({ description: "The file's content." }),
    stepCount: Schema.Number,
    placeholders: Schema.Array(Placeholder),
    skipped: Schema.Array(Schema.String)
  }),
  ...memoryTool,
  run: Effect.fn("tool.knowledge_export")(function* (input) {
    const sessionId = input.sessionId ?? (yield* currentSessionId)
    return yield* exportSession(sessionId, input.format)
  })
})

export const knowledgeTools = [knowledgeLast, knowledgeSearch, knowledgeSummarize, knowledgeSessions, knowledgeExport] as const
