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
import { recipeOf, toBatch, toPlaywright } from "../knowledge/recipe.js"
import { expandedWords, queryGroups } from "../knowledge/text.js"
import { defineTool } from "../runtime/tool.js"
import { catalogOf, KnowledgeStore } from "../services/KnowledgeStore.js"
import { Session } from "../services/Session.js"

const queryAnnotations = { readOnly: true, destructive: false, idempotent: true, openWorld: false } as const

/** Tool names in recipes and exports: the default prefix, which is what mm_run_steps and agents know. */
const RECIPE_PREFIX = "mm"

const Filters = Schema.optional(KnowledgeFilters).annotations({
  description: "Narrow the steps: flowTag, tag, screen, sinceHours. They mean the same in every scope."
})

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
  description:
    "The latest tool calls recorded in the step memory (oldest first): tool, target, screen, outcome. Use it to recall what was just done in this session (scope current, the default) or in any session. Returns {steps}.",
  input: Schema.Struct({
    n: Schema.optionalWith(Schema.Number.pipe(Schema.int(), Schema.between(1, 200)), { default: () => 20 }).annotations({
      description: "How many steps (1..200, default 20)."
    }),
    scope: Schema.optionalWith(KnowledgeScope, { default: () => "current" as const }),
    filters: Filters
  }),
  output: Schema.Struct({ steps: Schema.Array(StepSummary) }),
  annotations: queryAnnotations,
  requiresSession: false,
  observation: "none",
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
    'Find recorded steps by words: tool names, screens, test ids, labels, accessibility names, session goals and tags, with synonyms (send~transfer, approve~confirm, unlock~login...). Results are ranked by relevance; newer steps win only among equals, and a query that matches nothing returns nothing. Returns {query, words, matches}.',
  input: Schema.Struct({
    query: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)).annotations({
      description: 'Words to look for, e.g. "confirm transaction" (1..200 characters).'
    }),
    limit: Schema.optionalWith(Schema.Number.pipe(Schema.int(), Schema.between(1, 100)), { default: () => 20 }).annotations({
      description: "Maximum number of matches (1..100, default 20)."
    }),
    scope: Schema.optionalWith(KnowledgeScope, { default: () => "all" as const }),
    filters: Filters
  }),
  output: Schema.Struct({
    query: Schema.String,
    words: Schema.Array(Schema.String).annotations({ description: "The words searched for, synonyms included." }),
    matches: Schema.Array(StepSummary)
  }),
  annotations: queryAnnotations,
  requiresSession: false,
  observation: "none",
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
  description:
    "The sessions in the step memory, most recently active first, with goal, flow tags, tags and how many steps pass the filters. Use a sessionId as scope in the other knowledge tools. Returns {sessions}.",
  input: Schema.Struct({
    limit: Schema.optionalWith(Schema.Number.pipe(Schema.int(), Schema.between(1, 50)), { default: () => 10 }).annotations({
      description: "Maximum number of sessions (1..50, default 10)."
    }),
    filters: Filters
  }),
  output: Schema.Struct({ sessions: Schema.Array(SessionSummary) }),
  annotations: queryAnnotations,
  requiresSession: false,
  observation: "none",
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

const SummarizeScope = Schema.Union(Schema.Literal("current"), Schema.Struct({ sessionId: Schema.String.pipe(Schema.minLength(1)) }))

export const knowledgeSummarize = defineTool({
  name: "knowledge_summarize",
  title: "Summarize a session as a recipe",
  description:
    "One session in short: counts, screens visited, and a recipe that can run again: each successful action as {tool, args, notes} with durable targets (test id, role + name, or selector; never a bare ref) and secrets as {{name}} placeholders. Pass recipe.steps to mm_run_steps after filling the placeholders. Returns {sessionId, goal?, flowTags, tags, stepCount, succeeded, failed, screens, recipe}.",
  input: Schema.Struct({
    scope: Schema.optionalWith(SummarizeScope, { default: () => "current" as const }).annotations({
      description: "current (the running session, the default) or {sessionId}."
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
  annotations: queryAnnotations,
  requiresSession: false,
  observation: "none",
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
      recipe: recipeOf(flow, RECIPE_PREFIX)
    }
  })
})

export const ExportFormat = Schema.Literal("batch", "playwright")

/** A session as a file's content: an mm_run_steps batch (JSON) or a Playwright test (TypeScript). */
export const exportSession = (sessionId: string, format: typeof ExportFormat.Type) =>
  Effect.gen(function* () {
    const { steps, metadata } = yield* sessionSteps(sessionId)
    const recipe = recipeOf(steps, RECIPE_PREFIX)
    const content =
      format === "batch" ? JSON.stringify(toBatch(recipe), null, 2) + "\n" : toPlaywright(recipe, steps, metadata, sessionId)
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
    'Turn a recorded session into something that replays it: format "batch" gives the JSON input of mm_run_steps, format "playwright" a @playwright/test file with one test(). Secrets are placeholders ({{name}} in a batch, BWM_SECRET_* environment variables in a test). Returns {sessionId, format, fileName, content, stepCount, placeholders, skipped}.',
  input: Schema.Struct({
    sessionId: Schema.optional(Schema.String.pipe(Schema.minLength(1))).annotations({
      description: "Session to export; the running session when absent."
    }),
    format: Schema.optionalWith(ExportFormat, { default: () => "batch" as const }).annotations({
      description: 'batch (mm_run_steps JSON, the default) or playwright (a test file).'
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
  annotations: queryAnnotations,
  requiresSession: false,
  observation: "none",
  run: Effect.fn("tool.knowledge_export")(function* (input) {
    const sessionId = input.sessionId ?? (yield* currentSessionId)
    return yield* exportSession(sessionId, input.format)
  })
})

export const knowledgeTools = [knowledgeLast, knowledgeSearch, knowledgeSummarize, knowledgeSessions, knowledgeExport] as const
