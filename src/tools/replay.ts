// mm_replay: a recorded flow again, in one call. The recipe of a session (or of the newest session with a
// flow tag whose flow succeeded) runs as one mm_run_steps batch that stops at the first failure and brings
// the page back only for that step. Placeholders are filled from `params`; typed secrets are never stored,
// so their values come from the caller.
//
// Waiting: the replay relies on the actions' own waiting rather than inserting waits of its own. Every
// replayed click, type, key and select first waits (up to the step's recorded timeoutMs) until its target
// is there, visible, enabled and still, which is what a wait_for on the next step's target would do; a
// click that starts a navigation returns once the new document has committed; a navigation step waits
// for the load; and the recorded flow's own wait_for steps replay as they were. An inserted wait would
// cost one more round trip per step and wait for nothing more.
import { Clock, Effect, Option, Schema, SchemaAST } from "effect"
import { defaultSettings } from "../domain/config.js"
import { InvalidInput, KnowledgeError, ReplayFailed, ReplayRun } from "../domain/errors.js"
import { type Download, sameDownloadName } from "../domain/download.js"
import type { Recipe, SessionMetadata, StepRecord } from "../domain/knowledge.js"
import { baseOrigin, rebase } from "../knowledge/rebase.js"
import { followParams, textForms, type ParamForms } from "../knowledge/params.js"
import { framesTheFlow, recipeOf, toBatch } from "../knowledge/recipe.js"
import { ToolRegistry, type ToolRegistryService } from "../runtime/registry.js"
import { decodeInput } from "../runtime/runTool.js"
import { defineTool, replayModeOf, type AnyToolDefinition, type ToolDefinition, type ToolServices } from "../runtime/tool.js"
import { Config } from "../services/Config.js"
import { catalogOf, hiddenSessions, KnowledgeStore } from "../services/KnowledgeStore.js"
import { Secrets } from "../services/Secrets.js"
import { Session } from "../services/Session.js"
import { Sessions } from "../services/Sessions.js"
import { BATCH_TOOL_NAME, LAUNCH_ALLOWANCE_MS, makeRunSteps, RunStepsOutput, stepSnapshots } from "./batch.js"
import { fanOut } from "./fan-out.js"
import { sessionSteps } from "./knowledge.js"
import { launch } from "./session.js"
import { RecordOnly } from "./shared.js"

/** The served tools by name. */
type Lookup = ToolRegistryService["lookup"]

const Id = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))

const Params = Schema.Record({ key: Schema.String, value: Schema.String.pipe(Schema.maxLength(100_000)) })

/** The longest deadline a replay's steps get (mm_run_steps' longest batchTimeoutMs). */
const MAX_FLOW_MS = 300_000

/** A replayed step's share of the deadline when its recorded call named no timeoutMs; and what every step gets on top (its observation and record). */
const STEP_BUDGET_MS = 5_000
const STEP_SLACK_MS = 2_000

/**
 * The deadline of a replay's steps (its launch aside): the steps' own timeouts plus slack, so that a long
 * flow fits and a check that waits its recorded time still answers its own verdict; at least the batch
 * default, at most MAX_FLOW_MS.
 */
export const flowDeadlineMs = (
  steps: ReadonlyArray<{ readonly args: Readonly<Record<string, unknown>> }>,
  limits: { readonly defaultTimeoutMs: number }
): number => {
  const own = steps.reduce((sum, step) => sum + (typeof step.args.timeoutMs === "number" ? step.args.timeoutMs : STEP_BUDGET_MS) + STEP_SLACK_MS, 0)
  return Math.min(MAX_FLOW_MS, Math.max(limits.defaultTimeoutMs, own))
}

/** The most runs one fan-out takes, and at once. */
const MAX_RUNS = 1_000
const MAX_CONCURRENCY = 64

const ReplayInput = Schema.Struct({
  sessionId: Schema.optional(Id).annotations({ description: "The session to redo." }),
  flowTag: Schema.optional(Id).annotations({ description: "Or the newest successful session with this flow tag." }),
  params: Schema.optional(Params).annotations({
    description: "{{placeholder}} values."
  }),
  runs: Schema.optional(Schema.Array(Schema.Struct({ params: Schema.optional(Params).annotations({ description: "The run's values." }) })).pipe(Schema.minItems(1), Schema.maxItems(MAX_RUNS))).annotations({
    description: "Run it once per entry, each in a new session."
  }),
  concurrency: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1, MAX_CONCURRENCY))).annotations({
    description: "Runs at once (default 1); beyond free --max-sessions places they wait."
  }),
  baseUrl: Schema.optional(
    Schema.String.pipe(
      Schema.maxLength(2_048),
      Schema.pattern(/^https?:\/\/[^/?#\s]+\/?$/, { message: () => "must be an origin only (scheme://host:port), e.g. http://127.0.0.1:4173: the recorded paths are kept" })
    )
  ).annotations({
    description: "The origin the app is at now (e.g. http://127.0.0.1:4173), when it is not where the flow was recorded: the recorded origin's URLs go there."
  }),
  keepSession: Schema.optional(Schema.Boolean).annotations({
    description: "Keep the new session open as your current one, to go on from where the flow ended (default: it closes)."
  }),
  timeoutMs: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1_000, MAX_FLOW_MS))).annotations({
    description: "Deadline of each run's steps, ms; the launch does not count (default: the recorded steps' own timeouts plus slack)."
  })
}).pipe(
  Schema.filter((input) =>
    (input.sessionId === undefined) === (input.flowTag === undefined)
      ? { path: ["sessionId"], message: "give exactly one of sessionId or flowTag" }
      : input.runs !== undefined && input.params !== undefined
        ? { path: ["params"], message: "give params in each run, not beside runs" }
        : input.concurrency !== undefined && input.runs === undefined
          ? { path: ["concurrency"], message: "concurrency goes with runs" }
          : input.keepSession === true && input.runs !== undefined
            ? { path: ["keepSession"], message: "runs close their sessions; replay one run with keepSession to go on from it" }
            : true
  )
)

const LeftOut = Schema.optional(Schema.Array(Schema.String)).annotations({ description: "Recorded steps the recipe leaves out, each with why." })

/** How many sessions with the flow tag are looked at, newest first. */
const FLOW_CANDIDATES = 20

/** Failures that did nothing to the page (refused input): they neither end nor break a flow. */
const REFUSED_CODES: ReadonlySet<string> = new Set(["MM_INVALID_INPUT", "MM_TOOL_UNAVAILABLE", "MM_NAVIGATION_BLOCKED"])

/**
 * A session's flow succeeded when its last step that a replay would run succeeded; a call refused before
 * it acted (bad input) is passed over, as the recipe leaves it out.
 */
const flowSucceeded = (steps: ReadonlyArray<StepRecord>, lookup: Lookup): boolean => {
  for (let index = steps.length - 1; index >= 0; index--) {
    const step = steps[index]!
    const tool = lookup(step.tool.name)
    if (tool !== undefined && replayModeOf(tool) !== "step") continue
    if (!step.outcome.ok && step.outcome.error !== undefined && REFUSED_CODES.has(step.outcome.error.code)) continue
    return step.outcome.ok
  }
  return false
}

/** Why a session with the flow tag was passed over, for the error. */
const whyNot = (recipe: Recipe, steps: ReadonlyArray<StepRecord>, lookup: Lookup): string =>
  !acts(recipe) ? "no step to replay" : noDurable(recipe) ? "a step without a durable target" : !flowSucceeded(steps, lookup) ? "its last action failed" : "?"


/** Recipe steps that act (not the start page or the end-of-flow check alone). */
const acts = (recipe: Recipe) => recipe.steps.some((step) => !framesTheFlow(step))

const noDurable = (recipe: Recipe) => recipe.skipped.some((reason) => /: (only a ref|no durable form|the element had no|its locator was scoped)/.test(reason))

/** The tag a replay's session carries (beside replayOf, which names its source). */
const REPLAY_TAG = "replay"

/** A session a replay started (or one launched with the replay tag). */
const isReplay = (tags: ReadonlyArray<string>, metadata: SessionMetadata | undefined) => tags.includes(REPLAY_TAG) || metadata?.replayOf !== undefined

/** The session to replay and its recipe. */
const chooseSession = (input: typeof ReplayInput.Type, registry: ToolRegistryService) =>
  Effect.gen(function* () {
    const { lookup } = registry
    if (input.sessionId !== undefined) {
      const { steps, metadata } = yield* sessionSteps(input.sessionId)
      const recipe = recipeOf(steps, registry)
      if (!acts(recipe)) {
        return yield* new KnowledgeError({
          detail: `session ${input.sessionId} has no step to replay${recipe.skipped.length > 0 ? `; left out: ${recipe.skipped.slice(0, 5).join("; ")}` : ""}`
        })
      }
      return { sessionId: input.sessionId, metadata, recipe }
    }
    const flowTag = input.flowTag!
    const store = yield* KnowledgeStore
    const catalog = yield* catalogOf(store)
    const current = yield* (yield* Session).current
    const running = Option.isSome(current) ? current.value.sessionId : undefined
    // A replay's own session is never the source: the recorded flow is (after many replays, too).
    const sessions = catalog
      .sessions(Number.MAX_SAFE_INTEGER, { flowTag }, yield* Clock.currentTimeMillis, { except: yield* hiddenSessions(store) })
      .filter((summary) => !isReplay(summary.tags, catalog.metadata(summary.sessionId)))
      .slice(0, FLOW_CANDIDATES)
    const passed: Array<string> = []
    for (const summary of sessions) {
      // The running session is the one the replay runs in, not one to copy.
      if (summary.sessionId === running) continue
      const steps = yield* store.steps(summary.sessionId)
      const recipe = recipeOf(steps, registry)
      if (acts(recipe) && !noDurable(recipe) && flowSucceeded(steps, lookup)) {
        return { sessionId: summary.sessionId, metadata: catalog.metadata(summary.sessionId), recipe }
      }
      passed.push(`${summary.sessionId} (${whyNot(recipe, steps, lookup)})`)
    }
    return yield* new KnowledgeError({
      detail:
        passed.length === 0
          ? `no recorded session has the flow tag ${JSON.stringify(flowTag)}. mm_knowledge {sessions: true} lists the sessions.`
          : `no session with the flow tag ${JSON.stringify(flowTag)} has a flow that succeeded with every step replayable (looked at ${passed.join(", ")}); replay one of them by sessionId to see where it fails`
    })
  })

/** The step that failed: the first one that ran and failed, else the first one not run (a batch deadline). */
const firstFailure = (steps: ReadonlyArray<{ readonly ok: boolean; readonly skipped?: boolean | undefined }>): number => {
  const ran = steps.findIndex((step) => !step.ok && step.skipped !== true)
  return ran >= 0 ? ran : steps.findIndex((step) => !step.ok)
}


/** Whether a served tool takes a secret by name (a --secrets file) instead of text, as the type tool does with `{secret: NAME}`. */
const takesNamedSecret = (tool: AnyToolDefinition | undefined): boolean =>
  tool !== undefined && SchemaAST.getPropertySignatures(tool.input.ast).some((signature) => signature.name === "secret")

/**
 * The batch steps with every `{{name}}` filled from `params`. A typed secret without a value in `params`
 * becomes `{secret: NAME}` when its step's tool can read named secrets and --secrets has one of that name;
 * anything else missing is an error (before anything runs). A step recorded as `{secret: NAME}` stays so.
 */
const fillPlaceholders = (recipe: Recipe, params: Readonly<Record<string, string>>, lookup: Lookup) =>
  Effect.gen(function* () {
    const known = new Set(recipe.placeholders.map((placeholder) => placeholder.name))
    for (const name of Object.keys(params)) {
      if (!known.has(name)) {
        return yield* new InvalidInput({
          field: `params.${name}`,
          problem:
            known.size === 0
              ? "the recipe has no placeholders"
              : `the recipe has no placeholder of that name; it has ${[...known].join(", ")}`
        })
      }
    }
    const secrets = Option.getOrElse(yield* Effect.serviceOption(Secrets), () => Secrets.none)
    const namedSecret = (tool: string, name: string) => takesNamedSecret(lookup(tool)) && Option.isSome(secrets.lookup(name))
    // A param without a value types its recorded text.
    const values = new Map<string, string>()
    for (const placeholder of recipe.placeholders) if (placeholder.default !== undefined) values.set(placeholder.name, placeholder.default)
    for (const [name, value] of Object.entries(params)) values.set(name, value)
    const missing = recipe.placeholders.filter((placeholder) => !values.has(placeholder.name))
    // What the flow read of a param's text follows the value typed (see followParams).
    const forms: ParamForms = (placeholder) => {
      const value = values.get(placeholder.name)
      return value === undefined || value === placeholder.default ? undefined : textForms(value)
    }
    const steps = followParams(toBatch(recipe).steps, recipe, forms).map((step) => {
      const fill = (value: unknown): unknown => {
        if (typeof value === "string") {
          const match = /^\{\{(.+)\}\}$/.exec(value)
          return match && values.has(match[1]!) ? values.get(match[1]!) : value
        }
        if (Array.isArray(value)) return value.map(fill)
        if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, fill(inner)]))
        return value
      }
      const args = fill(step.args) as Record<string, unknown>
      const secret = typeof args.text === "string" ? /^\{\{(.+)\}\}$/.exec(args.text)?.[1] : undefined
      const expectation = step.expectation !== undefined ? { expectation: step.expectation } : {}
      if (secret !== undefined && !values.has(secret) && namedSecret(step.tool, secret)) {
        const { text: _text, ...rest } = args
        return { tool: step.tool, args: { ...rest, secret }, ...expectation }
      }
      return { tool: step.tool, args, ...expectation }
    })
    const unfilled = missing.filter(
      (placeholder) => !steps.some((step) => step.args.secret === placeholder.name && namedSecret(step.tool, placeholder.name))
    )
    if (unfilled.length > 0) {
      const first = unfilled[0]!
      return yield* new InvalidInput({
        field: `params.${first.name}`,
        problem: `the recipe needs it (${first.target})${unfilled.length > 1 ? `; also ${unfilled.slice(1).map((placeholder) => placeholder.name).join(", ")}` : ""}`
      })
    }
    return steps
  })

/**
 * The first replayed step whose downloads are not the recorded ones: a recorded file's name missing (its
 * volatile parts, a timestamp or an id, aside: `sameDownloadName`), or
 * (with `hashes`) no file of that name with the recorded content. `offset`: the batch steps before the recipe's.
 */
export const downloadMismatch = (
  recipe: Recipe,
  results: ReadonlyArray<{ readonly downloads?: ReadonlyArray<Download> | undefined }>,
  offset: number,
  hashes: boolean
): { readonly index: number; readonly message: string } | undefined => {
  for (const [position, step] of recipe.steps.entries()) {
    const index = position + offset
    const got = results[index]?.downloads ?? []
    for (const expected of step.downloads ?? []) {
      const named = got.filter((download) => sameDownloadName(expected.name, download.name))
      if (named.length === 0) {
        const what = got.length === 0 ? "no download" : got.map((download) => JSON.stringify(download.name)).join(", ")
        return { index, message: `expected the download ${JSON.stringify(expected.name)} (recorded), got ${what}.` }
      }
      if (hashes && expected.sha256 !== undefined && !named.some((download) => download.sha256 === expected.sha256)) {
        const now = named[0]!
        return {
          index,
          message: `${JSON.stringify(expected.name)} is not the recorded file (hash mismatch): expected sha256 ${expected.sha256}, got ${now.sha256 !== undefined ? `sha256 ${now.sha256}` : `a download that is ${now.state ?? "unsaved"}`}.`
        }
      }
    }
  }
  return undefined
}

export const replay = defineTool({
  name: "replay",
  title: "Replay a recorded flow",
  description:
    "Redo a recorded flow in one batch, in a new session of its own that closes after it unless keepSession (or in the one session names), stopping at the first failing step (then MM_REPLAY_FAILED). Returns {replayed, session, open, steps, summary}; with runs, {runs, passed}.",
  input: ReplayInput,
  output: Schema.Union(
    Schema.Struct({
      replayed: Schema.String.annotations({ description: "The session whose flow ran." }),
      session: Schema.String.annotations({ description: "The session it ran in." }),
      open: Schema.Boolean.annotations({ description: "Whether that session is still open (keepSession, or the one session named)." }),
      leftOut: LeftOut,
      ...RunStepsOutput.fields,
      // The batch's step tools, for the headings of the page texts after the JSON.
      stepTools: RecordOnly(Schema.Array(Schema.String))
    }),
    Schema.Struct({
      replayed: Schema.String.annotations({ description: "The session whose flow ran." }),
      leftOut: LeftOut,
      runs: Schema.Array(ReplayRun).annotations({ description: "Each run's session and ms, in order." }),
      passed: Schema.Number,
      ms: Schema.Number
    })
  ),
  // It redoes a recorded flow: page actions among its steps.
  annotations: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  group: "knowledge",
  requiresSession: false,
  startsSession: true,
  // Its own session closes after it (a kept one would hold a --max-sessions place and a browser context until its lease).
  endsSession: (input) => input.keepSession !== true,
  sessionArgument: true,
  // Listed before a launch (or after a cleanup); called with a session running, it still runs in a new one.
  listedWhen: (state) => !state.session,
  replay: { mode: "never" },
  stepKinds: ["memory"],
  // A failed replay shows the page it stopped on (the batch stops there) beside its error.
  observation: "failures",
  // The batch keeps its own deadline (timeoutMs, else flowDeadlineMs) and answers with what ran; this is a backstop
  // (per round of runs for a fan-out: at most --max-sessions run at once, whatever the concurrency).
  deadlineMs: (input, settings) =>
    ((input.timeoutMs ?? MAX_FLOW_MS) + LAUNCH_ALLOWANCE_MS + 10_000) *
    (input.runs === undefined ? 1 : Math.ceil(input.runs.length / Math.max(1, Math.min(input.concurrency ?? 1, settings.maxSessions)))),
  // As run_steps: the failing step's page text goes after the JSON, under its "## step N tool" line.
  attachments: (_input, result) => {
    if (!("steps" in result)) return { result, attachments: [] }
    const { steps, text } = stepSnapshots(result.steps, result.stepTools ?? [])
    return { result: { ...result, steps }, attachments: text === "" ? [] : [{ type: "text", text }] }
  },
  // Only the names of the params: their values may be secrets, whatever they are called.
  record: (input) => ({
    input: {
      ...(input.sessionId !== undefined ? { sessionId: input.sessionId } : {}),
      ...(input.flowTag !== undefined ? { flowTag: input.flowTag } : {}),
      ...(input.params !== undefined ? { params: Object.keys(input.params) } : {}),
      ...(input.runs !== undefined ? { runs: input.runs.length, concurrency: input.concurrency ?? 1 } : {}),
      ...(input.keepSession === true ? { keepSession: true } : {}),
      ...(input.timeoutMs !== undefined ? { timeoutMs: input.timeoutMs } : {}),
      ...(input.baseUrl !== undefined ? { baseUrl: input.baseUrl } : {})
    }
  }),
  run: Effect.fn("tool.replay")(function* (input) {
    const registry = yield* ToolRegistry
    const chosen = yield* Effect.flatMap(chooseSession(input, registry), (found) => movedTo(found, input.baseUrl))
    const leftOut = chosen.recipe.skipped.filter((reason) => !reason.endsWith(": read-only"))
    const shown = leftOut.length > 0 ? { leftOut } : {}
    const settings = Option.getOrElse(yield* Effect.serviceOption(Config), () => defaultSettings)
    const timeoutMs = input.timeoutMs ?? flowDeadlineMs(chosen.recipe.steps, settings.batch)
    if (input.runs === undefined) {
      const params = input.params ?? {}
      const steps = yield* fillPlaceholders(chosen.recipe, params, registry.lookup)
      return { ...shown, ...(yield* replayOnce(chosen, steps, { hashes: hashesFor(chosen.recipe, params), keep: input.keepSession === true, timeoutMs }, registry)) }
    }
    // More runs at once than free --max-sessions places: the runs beyond wait for a place, in turn (fan-out.ts).
    const concurrency = input.concurrency ?? 1
    // Every run's params are checked before any run starts: a typo fails the call, not one run in the middle.
    const filled = yield* Effect.forEach(input.runs, (run, index) =>
      Effect.map(
        Effect.mapError(fillPlaceholders(chosen.recipe, run.params ?? {}, registry.lookup), (error) =>
          error._tag === "InvalidInput" ? new InvalidInput({ field: `runs.${index}.${error.field}`, problem: error.problem }) : error
        ),
        (steps) => ({ steps, hashes: hashesFor(chosen.recipe, run.params ?? {}) })
      )
    )
    // A run takes its launch and its steps once it has a place: what a run waiting for one must still have left.
    const fan = { concurrency, runMs: LAUNCH_ALLOWANCE_MS + timeoutMs }
    return { ...shown, ...(yield* fanOut(chosen.sessionId, filled, fan, (run) => replayOnce(chosen, run.steps, { hashes: run.hashes, keep: false, timeoutMs }, registry))) }
  })
})

/** The chosen flow with its recorded origin's URLs at `baseUrl` (an origin); as it is without one. */
const movedTo = <Chosen extends { readonly sessionId: string; readonly recipe: Recipe }>(chosen: Chosen, baseUrl: string | undefined) =>
  Effect.gen(function* () {
    if (baseUrl === undefined) return chosen
    const base = baseOrigin(baseUrl)
    if ("problem" in base) return yield* new InvalidInput({ field: "baseUrl", problem: base.problem })
    const { recipe, from } = rebase(chosen.recipe, base.origin)
    if (from === undefined) {
      return yield* new InvalidInput({ field: "baseUrl", problem: `the flow of ${chosen.sessionId} loads no URL of its own: there is no recorded origin to replace` })
    }
    return { ...chosen, recipe }
  })

/** Downloads are checked by content too when the flow runs with the recorded inputs (no placeholders, no params). */
const hashesFor = (recipe: Recipe, params: Readonly<Record<string, string>>) => recipe.placeholders.length === 0 && Object.keys(params).length === 0

/**
 * The recorded flow once, in the session the call runs on (a new one: the replay launches it first, when
 * one more session fits: else the launch's own error, MM_SESSION_LIMIT, not a replay that failed; the place
 * is taken before the batch starts, so no launch in between can take it).
 * `hashes`: downloads are checked by content; `keep`: a session it launches stays open (runTool closes it otherwise);
 * `timeoutMs`: the deadline of the steps (the launch is not counted).
 */
const replayOnce = (
  chosen: { readonly sessionId: string; readonly metadata: SessionMetadata | undefined; readonly recipe: Recipe },
  steps: Effect.Effect.Success<ReturnType<typeof fillPlaceholders>>,
  options: { readonly hashes: boolean; readonly keep: boolean; readonly timeoutMs: number },
  registry: ToolRegistryService
) =>
  Effect.gen(function* () {
    const session = yield* Session
    const running = Option.isSome(yield* session.current)
    // Else the launch step could find its place taken by then, and answer MM_REPLAY_FAILED for a full server.
    const replay = replayBatch(chosen, steps, options, registry, session, running)
    return yield* running ? replay : (yield* Sessions).reserving(replay)
  })

/** The batch of a replay: its launch step (when it starts a new session), then the recipe's steps; a failure as ReplayFailed. */
const replayBatch = (
  chosen: { readonly sessionId: string; readonly metadata: SessionMetadata | undefined; readonly recipe: Recipe },
  steps: Effect.Effect.Success<ReturnType<typeof fillPlaceholders>>,
  options: { readonly hashes: boolean; readonly keep: boolean; readonly timeoutMs: number },
  registry: ToolRegistryService,
  session: Effect.Effect.Success<typeof Session>,
  running: boolean
) =>
  Effect.gen(function* () {
    const launchStep = running
      ? []
      : [
          {
            tool: registry.servedName(launch),
            args: {
              goal: chosen.metadata?.goal ?? `replay of ${chosen.sessionId}`,
              flowTags: [...(chosen.metadata?.flowTags ?? [])],
              tags: [REPLAY_TAG],
              replayOf: chosen.sessionId
            }
          }
        ]
    const batchSteps = [...launchStep, ...steps]
    // A recorded flow longer than a batch the agent may send (mm_run_steps' maxSteps) replays whole all the same.
    const limits = Option.getOrElse(yield* Effect.serviceOption(Config), () => defaultSettings).batch
    const batchTool = (
      batchSteps.length > limits.maxSteps ? makeRunSteps({ ...limits, maxSteps: batchSteps.length }) : (registry.lookup(BATCH_TOOL_NAME) ?? makeRunSteps())
    ) as ToolDefinition<unknown, unknown, unknown, unknown, ToolServices>
    const batchInput = yield* decodeInput(batchTool.input, { steps: batchSteps, stopOnError: true, includeObservations: "none", batchTimeoutMs: options.timeoutMs })
    const result = (yield* batchTool.run(batchInput)) as typeof RunStepsOutput.Type
    const now = yield* session.current
    const ranIn = Option.isSome(now) ? { session: now.value.sessionId, open: running || options.keep } : undefined
    if (!result.summary.ok) {
      // The flow did not happen again: an error, naming the step that failed and why.
      const index = Math.max(0, firstFailure(result.steps))
      const error = result.steps[index]?.error
      const { warnings: _warnings, notRun: _notRun, ok: _ok, ...summary } = result.summary
      return yield* new ReplayFailed({
        replayed: chosen.sessionId,
        ...ranIn,
        summary,
        failed: {
          index,
          tool: batchSteps[index]?.tool ?? "?",
          code: error?.code ?? "MM_INTERNAL_ERROR",
          message: error?.message ?? "the step failed without an error"
        }
      })
    }
    // The files the flow downloaded came again: the same names, and for a flow without params the same content.
    const mismatch = downloadMismatch(chosen.recipe, result.steps, launchStep.length, options.hashes)
    if (mismatch !== undefined) {
      // The step ran but did not do what it did when recorded: it counts as failed, not as succeeded.
      const { warnings: _warnings, notRun: _notRun, ok: _ok, ...counts } = result.summary
      const summary = { ...counts, succeeded: counts.succeeded - 1, failed: (counts.failed ?? 0) + 1 }
      return yield* new ReplayFailed({
        replayed: chosen.sessionId,
        ...ranIn,
        summary,
        failed: { index: mismatch.index, tool: batchSteps[mismatch.index]?.tool ?? "?", code: "MM_DOWNLOAD_MISMATCH", message: mismatch.message }
      })
    }
    // A flow that succeeded ran in a session (a launch step that failed fails the batch).
    const { session: ran, open } = ranIn ?? { session: chosen.sessionId, open: false }
    return { replayed: chosen.sessionId, session: ran, open, ...result, stepTools: batchSteps.map((step) => step.tool) }
  })
