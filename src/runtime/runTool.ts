// runTool: from a tool definition to an Effect that never fails and yields the response envelope.
// One pipeline of named stages, each returning a value: gate, decode, run, observe, record, envelope.
import { Cause, Clock, Context, Effect, Either, Exit, Option, Ref, Schema } from "effect"
import { defaultSettings, type Settings } from "../domain/config.js"
import { consoleLines, observationText, pageChange, pageOf, slowMs, type Envelope, type PageState } from "../domain/envelope.js"
import { DeadlineExceeded, DebuggerPaused, INTERNAL_ERROR_CODE, refsShownBelow, toErrorInfo, type ErrorInfo, type ToolError } from "../domain/errors.js"
import { downloadFields, recordedDownload, type Download } from "../domain/download.js"
import { labelsFor, type StepRecord } from "../domain/knowledge.js"
import type { Observation, ObservationPolicy } from "../domain/observation.js"
import { redactDeep } from "../domain/redaction.js"
import { Config } from "../services/Config.js"
import { programDeadline, targetSighting, verdictDeadline, type Sighting } from "../services/Deadline.js"
import { KnowledgeStore } from "../services/KnowledgeStore.js"
import { Observer } from "../services/Observer.js"
import { groupToOpen, Recorder, type GroupToOpen } from "../services/Recorder.js"
import { Secrets, type SecretsService } from "../services/Secrets.js"
import { Session, type SessionInfo } from "../services/Session.js"
import { nestedSessions, sessionArgument, SessionForCall, Sessions, type SessionServices } from "../services/Sessions.js"
import { callBudget, finishReserveMs, RECORD_RESERVE_MS } from "./budget.js"
import { closedUnder, servedError } from "./closed-under.js"
import { clientMemory, rememberTold, type ClientMemoryService, type Told } from "./client-memory.js"
import { decodeInput } from "./decode.js"
import { servedText } from "./registry.js"
import { takesSession, ToolRegistry, type Attachment, type RecordedCall, type ToolDefinition } from "./tool.js"
import { stepScreenshot, wantsStepScreenshot } from "./step-screenshot.js"
import { servedNameOf, toolGate } from "./visibility.js"

// Decoding lives in decode.ts; batch and replay decode their steps through it as runTool does.
export { decodeInput, invalidInputFrom } from "./decode.js"

export interface RunOptions {
  /** Overrides the tool's observation policy (the batch runner uses it). */
  readonly policy?: ObservationPolicy | undefined
  /** Marks the step as part of a batch in the knowledge store. */
  readonly batch?: { readonly batchId: string; readonly index: number } | undefined
  /** A tighter deadline than the tool's own (e.g. a batch step's timeoutMs). */
  readonly deadlineMs?: number | undefined
  /** The error to answer when `deadlineMs` (not the tool's own deadline) is what stopped the call. */
  readonly onDeadline?: ((timeoutMs: number) => ToolError) | undefined
}

/** The envelope plus content blocks that travel beside it (never inside the JSON). */
export interface ToolResponse<A = unknown> {
  readonly envelope: Envelope<A>
  /** The observation as the step record keeps it (structured nodes), when one was taken: for library users and tests. */
  readonly observation?: Observation | undefined
  readonly attachments: ReadonlyArray<Attachment>
  /**
   * The result says nothing the page text does not (a success whose result only confirms it, a search
   * whose matches are all shown): over MCP the JSON block leaves it out, `{"ok":true}`.
   */
  readonly resultInText?: boolean | undefined
}

/** Default deadline for tools that do not state one: keeps a call well under the client's 60 s. */
export const DEFAULT_DEADLINE_MS = 30_000

/** Limits of the observation attached to a response. */
export const OBSERVATION_LIMITS = { testIds: 50, a11yNodes: 150 } as const

/**
 * What a call came to: the result (as the wire carries it, and as the program returned it, for the
 * record), or the error (`cause` is the typed error; none for an internal error).
 */
type Outcome<O, OE> =
  | {
      readonly ok: true
      readonly result: OE
      readonly value: O
      readonly pageText: string
      readonly attachments: ReadonlyArray<Attachment>
      /** The result says nothing its page text does not (see `ToolDefinition.saidByText`). */
      readonly saidByText: boolean
      /** The result is not a success as a whole (see `ToolDefinition.failedWith`): the envelope's error beside it. */
      readonly failure?: ErrorInfo | undefined
    }
  | { readonly ok: false; readonly error: ErrorInfo; readonly cause: ToolError | undefined }

const failed = (cause: ToolError): Outcome<never, never> => ({ ok: false, error: toErrorInfo(cause), cause })

const internalError = (): Outcome<never, never> => ({
  ok: false,
  error: {
    code: INTERNAL_ERROR_CODE,
    message: "Internal error in the server; the details went to its log (stderr). Try again, or call mm_cleanup and mm_launch."
  },
  cause: undefined
})

/** What every stage reads about the call: when it began, the session then, the client's memory, the secrets to scrub. */
interface Call {
  readonly startedAt: number
  readonly before: Option.Option<SessionInfo>
  readonly consoleAtStart: number
  readonly downloadsAtStart: number
  readonly memory: Option.Option<ClientMemoryService>
  readonly secrets: SecretsService
  readonly settings: Settings
}

const begin = Effect.gen(function* () {
  const startedAt = yield* Clock.currentTimeMillis
  const session = yield* Session
  const call: Call = {
    startedAt,
    before: yield* session.current,
    consoleAtStart: yield* session.consoleCursor,
    downloadsAtStart: yield* session.downloadCursor,
    memory: yield* clientMemory,
    // Every secret value leaves the call's answer and its step record as [secret:NAME].
    secrets: Option.getOrElse(yield* Effect.serviceOption(Secrets), () => Secrets.none),
    settings: Option.getOrElse(yield* Effect.serviceOption(Config), () => defaultSettings)
  }
  return call
})

// ---- run ------------------------------------------------------------------------------------------

/** The call's deadline: the tool's own, or a tighter one from outside (a batch's), and the program's share of it. */
const deadlineOf = <I>(definition: ToolDefinition<I, any, any, any, any>, input: I, options: RunOptions, startedAt: number, settings: Settings) => {
  const own = definition.deadlineMs?.(input, settings) ?? DEFAULT_DEADLINE_MS
  const deadline = options.deadlineMs === undefined ? own : Math.min(own, options.deadlineMs)
  // The program gets the tool's own deadline less a reserve for the observation and the record. A tighter
  // deadline from outside is the program's own: its caller answers for what follows, and the observation
  // gets only what that deadline leaves.
  const fromOutside = deadline < own
  return { ms: deadline, fromOutside, programMs: fromOutside ? deadline : own - finishReserveMs(own), budget: callBudget(startedAt, deadline) }
}
type Deadline = ReturnType<typeof deadlineOf>

/** The timeout a deadline error quotes: the caller's own `timeoutMs` (the deadline adds slack to it), else the deadline. */
const quotedTimeout = (input: unknown, deadline: Deadline): number => {
  const given = typeof input === "object" && input !== null && "timeoutMs" in input ? input.timeoutMs : undefined
  return typeof given === "number" && !deadline.fromOutside ? Math.min(given, deadline.ms) : deadline.ms
}

/** The program under its deadline, as an Exit. */
const run = <I, IE, O, OE, R>(definition: ToolDefinition<I, IE, O, OE, R>, input: I, deadline: Deadline, options: RunOptions, startedAt: number) =>
  Effect.gen(function* () {
    const elapsed = (yield* Clock.currentTimeMillis) - startedAt
    const sighting = yield* Ref.make<Sighting>({ looked: false, matched: false })
    const onTimeout = (seen: Sighting): ToolError =>
      (options.onDeadline !== undefined && deadline.fromOutside ? options.onDeadline(deadline.ms) : undefined) ??
      definition.onDeadline?.(input, quotedTimeout(input, deadline), seen) ??
      new DeadlineExceeded({ tool: definition.name, timeoutMs: deadline.ms })
    return yield* definition.run(input).pipe(
      // Waits inside the program end in time for their own answer; under a tighter deadline from outside,
      // the caller's (a batch's), running out is the caller's answer.
      Effect.locally(programDeadline, deadline.fromOutside ? undefined : startedAt + deadline.programMs),
      // But a check answers its own verdict (what it read) within the caller's deadline too.
      Effect.locally(verdictDeadline, deadline.fromOutside ? startedAt + deadline.programMs : undefined),
      // What the program saw of its target decides what running out means (not found, or not ready).
      Effect.locally(targetSighting, sighting),
      Effect.timeoutTo({
        duration: Math.max(0, deadline.programMs - elapsed),
        onSuccess: (value: O): Option.Option<O> => Option.some(value),
        onTimeout: (): Option.Option<O> => Option.none()
      }),
      Effect.flatMap((done) => (Option.isSome(done) ? Effect.succeed(done.value) : Effect.flatMap(Ref.get(sighting), (seen) => Effect.fail(onTimeout(seen))))),
      Effect.exit
    )
  })

/** A result whose one field is true (`{clicked: true}`): it confirms the success and says nothing else. */
const onlyConfirms = (result: unknown): boolean => {
  if (typeof result !== "object" || result === null) return false
  const values = Object.values(result)
  return values.length === 1 && values[0] === true
}

/**
 * The program's exit as an outcome: the result split into page text and attachments and encoded, or the
 * error. A refusal because the page is paused names this tool (the port that refused does not know it).
 */
const settle = <I, IE, O, OE, R>(definition: ToolDefinition<I, IE, O, OE, R>, input: I, exit: Exit.Exit<O, ToolError>) =>
  Effect.gen(function* () {
    if (Exit.isSuccess(exit)) {
      let value = exit.value
      let pageText = ""
      let attachments: ReadonlyArray<Attachment> = []
      if (definition.pageText) {
        const split = definition.pageText(value)
        value = split.result
        pageText = split.text
      }
      if (definition.attachments) {
        const split = definition.attachments(input, value)
        value = split.result
        attachments = split.attachments
      }
      const encoded = yield* Effect.either(Schema.encode(definition.output)(value))
      if (encoded._tag === "Right") {
        const saidByText = definition.saidByText === undefined ? onlyConfirms(encoded.right) : definition.saidByText(input, exit.value)
        const failedWith = definition.failedWith?.(input, exit.value)
        const failure = failedWith !== undefined ? { failure: toErrorInfo(failedWith) } : {}
        const outcome: Outcome<O, OE> = { ok: true, result: encoded.right, value: exit.value, pageText, attachments, saidByText, ...failure }
        return outcome
      }
      yield* Effect.logError(`${definition.name}: result does not match its output schema`, encoded.left.message)
      return internalError()
    }
    const failure = Cause.failureOption(exit.cause)
    if (Option.isNone(failure)) {
      yield* Effect.logError(`${definition.name}: defect`, Cause.pretty(exit.cause))
      return internalError()
    }
    const error = failure.value
    if (error._tag === "DebuggerPaused" && error.tool === undefined && error.during === undefined) {
      return failed(new DebuggerPaused({ ...error, tool: yield* servedNameOf(definition) }))
    }
    return failed(error)
  })

// ---- observe --------------------------------------------------------------------------------------

/** After these the page is not observed: nothing was done to it (bad input, a blocked URL), or it cannot be read. */
const leavesPageUnobserved = (error: ToolError): boolean => {
  switch (error._tag) {
    case "PageUnresponsive":
    case "InvalidInput":
    case "NavigationBlocked":
      return true
    default:
      return false
  }
}

const observeBy = (policy: ObservationPolicy, ok: boolean) =>
  Effect.gen(function* () {
    const observer = yield* Observer
    const full = policy === "default" || (policy === "failures" && !ok)
    const observation: Observation = full
      ? yield* observer.observe({
          testIds: true,
          a11y: true,
          testIdLimit: OBSERVATION_LIMITS.testIds,
          a11yLimit: OBSERVATION_LIMITS.a11yNodes,
          // After a success the agent needs what changed (its refs stay valid); after a failure, everything.
          changesOnly: ok
        })
      : { state: yield* observer.state }
    return observation
  }).pipe(
    // The call already succeeded or failed on its own terms: a page that cannot be read now is no reason to change that.
    Effect.catchTags({
      NoActiveSession: () => Effect.succeed(undefined),
      BrowserClosed: () => Effect.succeed(undefined),
      PageClosed: () => Effect.succeed(undefined),
      PageUnresponsive: () => Effect.succeed(undefined),
      StateFailed: (error) => Effect.logDebug("observation skipped", error.message).pipe(Effect.as(undefined)),
      DiscoveryFailed: (error) => Effect.logDebug("observation skipped", error.message).pipe(Effect.as(undefined))
    })
  )

/** The observation did not finish within the call's deadline. */
const LATE = Symbol("late")

interface Observed {
  readonly observation: Observation | undefined
  /** The result itself says where the page is (launch, get_state, describe_screen): the envelope leaves `page` out. */
  readonly stateInResult: boolean
  readonly notices: ReadonlyArray<string>
}

/**
 * The page after the call, by the policy, within what the deadline leaves. A call refused before it
 * touched the page leaves the page as the agent saw it; one that does not answer cannot be observed.
 */
const observe = <O, OE>(
  definition: ToolDefinition<any, any, O, OE, any>,
  policy: ObservationPolicy,
  outcome: Outcome<O, OE>,
  running: boolean,
  deadline: Deadline
) =>
  Effect.gen(function* () {
    const none: Observed = { observation: undefined, stateInResult: false, notices: [] }
    if (!running || (!outcome.ok && outcome.cause !== undefined && leavesPageUnobserved(outcome.cause))) return none
    if (policy === "custom") {
      const own = outcome.ok ? definition.observe?.(outcome.value) : undefined
      if (own !== undefined) return { observation: own, stateInResult: true, notices: [] } satisfies Observed
    }
    const observed = yield* deadline.budget.within(observeBy(policy === "custom" ? "none" : policy, outcome.ok), LATE, RECORD_RESERVE_MS)
    if (observed !== LATE) return { ...none, observation: observed }
    return {
      ...none,
      notices: [`The page could not be observed within the call's deadline (${deadline.ms} ms); call mm_get_state or mm_describe_screen.`]
    }
  })

// ---- downloads ------------------------------------------------------------------------------------

/**
 * The downloads the call started (in the session it ran in: a new session's from its start) and any that
 * started after an earlier answer, each waited for within what the deadline leaves before the record; one
 * still running is reported in progress.
 */
const downloadsOf = (call: Call, sessionId: string | undefined, deadline: Deadline) =>
  Effect.gen(function* () {
    const session = yield* Session
    const current = sessionIdOf(yield* session.current)
    if (current === undefined || current !== sessionId) return []
    const from = sessionIdOf(call.before) === current ? call.downloadsAtStart : 0
    return yield* session.downloadsSince(from, yield* deadline.budget.left(RECORD_RESERVE_MS))
  })

// ---- record ---------------------------------------------------------------------------------------

/** An action the page paused in the debugger during: it reached the page, and finishes when the page runs again. */
const deliveredBeforeError = (outcome: Outcome<unknown, unknown>): boolean =>
  !outcome.ok && outcome.cause?._tag === "DebuggerPaused" && outcome.cause.during !== undefined

/** Writes the step record (redacted), within what the deadline leaves; a write that fails is logged, never the call's outcome. */
const record = <I, O, OE>(
  definition: ToolDefinition<I, any, O, OE, any>,
  input: I,
  outcome: Outcome<O, OE>,
  observation: Observation | undefined,
  downloads: ReadonlyArray<Download>,
  at: { readonly call: Call; readonly sessionId: string; readonly running: boolean; readonly deadline: Deadline; readonly options: RunOptions }
) =>
  Effect.gen(function* () {
    const { call, sessionId } = at
    const known = yield* secretsNow(call)
    const recorded: RecordedCall = definition.record?.(input, outcome.ok ? Option.some(outcome.value) : Option.none(), known.redactText) ?? {
      input: input as Record<string, unknown>
    }
    // Text kept out of the record (a password field's) is kept out of the session's trace and HAR too.
    const typed = (input as { readonly text?: unknown }).text
    const sensitive = recorded.textRedacted === true && typeof typed === "string"
    if (sensitive) yield* recorderDo((recorder) => recorder.sensitive([typed]))
    const secrets = sensitive ? yield* secretsNow(call) : known
    const screenshot =
      recorded.screenshot ??
      (at.running && wantsStepScreenshot(call.settings.stepScreenshots, definition.observation, outcome)
        ? yield* at.deadline.budget.within(stepScreenshot(definition.name, sessionId), undefined, RECORD_RESERVE_MS)
        : undefined)
    const finishedAt = yield* Clock.currentTimeMillis
    const step: StepRecord = {
      schemaVersion: 1,
      timestamp: new Date(finishedAt).toISOString(),
      sessionId,
      tool: {
        name: definition.name,
        input: {
          ...(redactDeep(recorded.input) as Record<string, unknown>),
          ...Object.fromEntries((recorded.verbatim ?? []).filter((key) => key in recorded.input).map((key) => [key, recorded.input[key]]))
        },
        ...(recorded.target ? { target: recorded.target } : {}),
        ...(recorded.textRedacted !== undefined ? { textRedacted: recorded.textRedacted } : {})
      },
      timing: { durationMs: finishedAt - call.startedAt },
      outcome: outcome.ok
        ? outcome.failure === undefined ? { ok: true } : { ok: false, error: { code: outcome.failure.code, message: outcome.failure.message } }
        : {
            ok: false,
            error: { code: outcome.error.code, message: outcome.error.message, ...(deliveredBeforeError(outcome) ? { delivered: true } : {}) }
          },
      ...(observation ? { observation } : {}),
      ...(screenshot !== undefined ? { artifacts: { screenshot } } : {}),
      ...(downloads.length > 0 ? { downloads: downloads.map(recordedDownload) } : {}),
      labels: labelsFor(definition.stepKinds ?? [], recorded.target, outcome.ok && outcome.failure === undefined),
      ...(at.options.batch ? { batch: at.options.batch } : {})
    }
    const store = yield* KnowledgeStore
    yield* at.deadline.budget.settle(definition.name, store.recordStep(secrets.redact(step)))
  })

/**
 * The secrets to scrub from what the call answers and records: every --secrets value, and the values typed
 * into the session's secret fields (this call's too) wherever and in whatever form the text shows them.
 */
const secretsNow = (call: Call) =>
  Effect.map(
    recorderDo((recorder) => recorder.typedScrub, Option.none()),
    (scrub) => (Option.isSome(scrub) ? Secrets.andThen(call.secrets, scrub.value) : call.secrets)
  )

// ---- envelope -------------------------------------------------------------------------------------

/**
 * The response, lean: the page only when it changed since this client last heard (never when the result
 * itself carries the state), console errors since its previous response, the observation as text, the
 * duration only for a slow call (never a launch's); every secret scrubbed from it and from the blocks beside it.
 */
const envelope = <O, OE>(
  definition: ToolDefinition<any, any, O, OE, any>,
  call: Call,
  outcome: Outcome<O, OE>,
  sessionId: string | undefined,
  observed: Observed,
  downloads: ReadonlyArray<Download> = []
) =>
  Effect.gen(function* () {
    const session = yield* Session
    const { observation } = observed
    // The server's own words name tools as served by default (mm_launch); the served registry renders them as it serves them.
    const registry = yield* Effect.serviceOption(ToolRegistry)
    const served = Option.isSome(registry) ? servedText(registry.value) : (text: string) => text
    const notices = [...(yield* session.takeNotices), ...observed.notices].map(served)
    let page: PageState | undefined
    let consoleErrors: ReadonlyArray<string> = []
    const current = sessionIdOf(yield* session.current)
    if (current !== undefined && current === sessionId) {
      const known = Option.isSome(call.memory) ? (yield* Ref.get(call.memory.value.told)).get(current) : undefined
      // Errors since this client's previous response; without one, since this call began (a new session: since it started).
      const from = known?.consoleCursor ?? (sessionIdOf(call.before) === current ? call.consoleAtStart : 0)
      const cursor = yield* session.consoleCursor
      const since = cursor > from ? yield* session.consoleSince(from) : []
      const shown = outcome.ok && definition.consoleInResult !== undefined ? definition.consoleInResult(outcome.result) : undefined
      const messages = shown === undefined ? since : since.filter((message) => !shown(message))
      const now = observation === undefined ? undefined : pageOf(observation.state, observation.state.tabId)
      consoleErrors = consoleLines(messages, now?.url ?? known?.page?.url)
      if (now !== undefined && !observed.stateInResult) page = pageChange(known?.page, now)
      if (Option.isSome(call.memory)) {
        const told: Told = { sessionId: current, page: now ?? known?.page, consoleCursor: Math.max(cursor, from) }
        yield* Ref.update(call.memory.value.told, (all) => rememberTold(all, told))
      }
    }
    // A result's own page text (a snapshot, a search) is the page this call shows; else the observation's.
    const pageText = outcome.ok ? outcome.pageText : ""
    const snapshot = pageText !== "" ? pageText : observation === undefined ? "" : observationText(observation)
    const finishedAt = yield* Clock.currentTimeMillis
    // A result that failed as a whole (a batch with a failed step) keeps its result, with the error first.
    const failure = outcome.ok ? outcome.failure : outcome.error
    const body: Envelope<OE> = {
      ok: failure === undefined,
      ...(failure !== undefined ? { error: leanError({ ...failure, message: served(failure.message) }, snapshot !== "") } : {}),
      ...(outcome.ok && !isEmptyObject(outcome.result) ? { result: outcome.result } : {}),
      ...downloadFields(downloads),
      ...(page !== undefined ? { page } : {}),
      ...(consoleErrors.length > 0 ? { console: consoleErrors } : {}),
      ...(notices.length > 0 ? { notices } : {}),
      // A launch starts a browser: its second or more is what a launch takes, not news.
      ...(definition.role === "launch" ? {} : slowMs(finishedAt - call.startedAt)),
      ...(snapshot !== "" ? { snapshot } : {})
    }
    const secrets = yield* secretsNow(call)
    // The blocks beside the envelope (a batch's page text, get_text's text) and the observation handed to library users are scrubbed as the envelope is.
    const attachments = (outcome.ok ? outcome.attachments : []).map((attachment) =>
      attachment.type === "text" ? { ...attachment, text: secrets.redactText(attachment.text) } : attachment
    )
    // A success whose result only repeats what its page text shows: over MCP, {"ok":true} says it worked.
    const resultInText = outcome.ok && outcome.failure === undefined && outcome.saidByText && snapshot !== ""
    const response: ToolResponse<OE> = {
      envelope: secrets.redact(body),
      ...(resultInText ? { resultInText } : {}),
      ...(observation !== undefined ? { observation: secrets.redact(observation) } : {}),
      attachments
    }
    return response
  })

// ---- the pipeline ---------------------------------------------------------------------------------

/** One tool call end to end on the session provided. */
const runOn = <I, IE, O, OE, R>(definition: ToolDefinition<I, IE, O, OE, R>, raw: unknown, options: RunOptions) =>
    Effect.gen(function* () {
      const call = yield* begin
      const nothingObserved: Observed = { observation: undefined, stateInResult: false, notices: [] }
      const refuse = (error: ToolError) => envelope(definition, call, failed(error), sessionIdOf(call.before), nothingObserved)

      // gate: a tool that is not available now (no session, group off, hidden, paused...) says when it will be, whatever its arguments.
      const refused = yield* toolGate(definition)
      if (Option.isSome(refused)) return yield* refuse(refused.value)

      // decode
      const decoded = yield* Effect.either(decodeInput(definition.input, raw))
      if (decoded._tag === "Left") return yield* refuse(decoded.left)
      const input = decoded.right
      const answer = answerOf(definition, input, options, call)
      if (definition.endsSession?.(input) !== true) return yield* answer
      // A session the call launches is for the call: not the client's current one, closed once the call has answered, however it ends.
      return yield* answer.pipe(Effect.ensuring(closeLaunched(call)), Effect.locally(SessionForCall, yield* servedNameOf(definition)))
    })

/** Closes the session the call launched (none ran when it began; one runs now). */
const closeLaunched = (call: Call) =>
  Option.isSome(call.before)
    ? Effect.void
    : Effect.flatMap(Session, (session) => Effect.flatMap(session.current, (now) => (Option.isSome(now) ? Effect.asVoid(session.cleanup) : Effect.void)))

/** Runs the decoded call, observes, records and answers with the envelope. */
const answerOf = <I, IE, O, OE, R>(definition: ToolDefinition<I, IE, O, OE, R>, input: I, options: RunOptions, call: Call) =>
    Effect.gen(function* () {
      // run, observe, download, record: a named group of the session's trace when one is recorded, closed however the call ends
      const { outcome, sessionId, observed, downloads } = yield* Effect.acquireUseRelease(
        traceGroup(definition, input),
        (group) =>
          Effect.gen(function* () {
            const deadline = deadlineOf(definition, input, options, call.startedAt, call.settings)
            const exit = yield* run(definition, input, deadline, options, call.startedAt)
            const outcome = yield* settle(definition, input, exit)

            // observe
            const after = yield* (yield* Session).current
            const sessionId = sessionIdOf(after) ?? sessionIdOf(call.before)
            const observed = yield* observe(definition, options.policy ?? definition.observation, outcome, Option.isSome(after), deadline)

            // downloads
            const downloads = yield* downloadsOf(call, sessionId, deadline)

            // record
            if (sessionId !== undefined) {
              yield* record(definition, input, outcome, observed.observation, downloads, { call, sessionId, running: Option.isSome(after), deadline, options })
            }
            return { outcome, sessionId, observed, downloads }
          }).pipe(Effect.locally(groupToOpen, Option.some(group.toOpen))),
        (group) => group.close
      )

      // envelope
      return yield* envelope(definition, call, outcome, sessionId, observed, downloads)
    })

/**
 * The call's group in the session's trace: opened now when a recording runs; else opened by a recording
 * that starts during the call (mm_launch's, once its context exists). `close` ends whichever was opened.
 */
const traceGroup = <I>(definition: ToolDefinition<I, any, any, any, any>, input: I) =>
  Effect.gen(function* () {
    const label = traceLabel(yield* servedNameOf(definition), input)
    const opened = yield* recorderDo((recorder) => recorder.callStarted(label), Effect.void)
    const closeLater = yield* Ref.make<Effect.Effect<void>>(Effect.void)
    const toOpen: GroupToOpen = { label, close: closeLater }
    return { toOpen, close: Effect.zipRight(opened, Effect.flatten(Ref.get(closeLater))) }
  })

/** Runs `use` with the Recorder when one is provided; else answers `otherwise`. */
const recorderDo = <A>(use: (recorder: typeof Recorder.Service) => Effect.Effect<A>, otherwise?: A) =>
  Effect.flatMap(Effect.serviceOption(Recorder), (recorder) =>
    Option.isSome(recorder) ? use(recorder.value) : Effect.succeed(otherwise as A)
  )

/** How a call is named in the trace: the served name and what it aimed at (`mm_click e12`, `mm_navigate http://...`); never typed text. */
export const traceLabel = (served: string, input: unknown): string => {
  const fields = (typeof input === "object" && input !== null ? input : {}) as Record<string, unknown>
  const aim = ["a11yRef", "testId", "selector", "url", "key", "direction"]
    .map((key) => fields[key])
    .find((value): value is string => typeof value === "string" && value !== "")
  if (aim === undefined) return served
  return `${served} ${fields.a11yRef === aim ? aim : JSON.stringify(aim.length > 80 ? `${aim.slice(0, 80)}…` : aim)}`
}

/**
 * Runs one tool call end to end and answers with the envelope; never fails. It resolves the call's session
 * (its `session` argument, else the calling client's current one, or a new one for a tool that starts one)
 * and provides that session's Session, Observer and KnowledgeStore to the program: the effect returned
 * requires none of them. Calls the program makes (a batch's steps) run on the same session.
 */
export const runTool =
  <I, IE, O, OE, R>(definition: ToolDefinition<I, IE, O, OE, R>) =>
  (raw: unknown, options: RunOptions = {}): Effect.Effect<ToolResponse<OE>, never, Exclude<R, SessionServices>> =>
    Effect.gen(function* () {
      // A tool that works on no session (knowledge) keeps its arguments whole (mm_knowledge has a session field of its own).
      const argument = takesSession(definition) ? sessionArgument(raw) : Either.right({ selector: undefined, rest: raw })
      if (argument._tag === "Left") return yield* unanswered<OE>(argument.left)
      const sessions = yield* Sessions
      return yield* Effect.scoped(
        Effect.gen(function* () {
          const handle = yield* Effect.either(sessions.resolve({ selector: argument.right.selector, starts: definition.startsSession === true }))
          if (handle._tag === "Left") return yield* unanswered<OE>(handle.left)
          const before = sessionIdOf(yield* Context.get(handle.right.context, Session).current)
          const response = yield* runOn(definition, argument.right.rest, options).pipe(
            Effect.provide(handle.right.context),
            Effect.provideService(Sessions, yield* nestedSessions(sessions, handle.right))
          )
          if (response.envelope.ok) return response
          const closed = yield* closedUnder(definition, sessions, before, argument.right.selector)
          return Option.isSome(closed) ? { ...response, envelope: { ...response.envelope, error: closed.value } } : response
        })
      )
    }) as Effect.Effect<ToolResponse<OE>, never, Exclude<R, SessionServices>>

/** A call answered before it reached a session (its `session` argument is bad or names none), tools named as served. */
const unanswered = <OE>(error: ToolError) => Effect.map(servedError(error), (info): ToolResponse<OE> => ({ envelope: { ok: false, error: info }, attachments: [] }))


/** A result with nothing in it (all its fields were optional and absent, or moved to the page text): left out of the envelope. */
const isEmptyObject = (value: unknown): boolean =>
  typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 0

const sessionIdOf = (info: Option.Option<{ readonly sessionId: string }>): string | undefined =>
  Option.isSome(info) ? info.value.sessionId : undefined

/** A failure's error as the envelope carries it: the refs a stale-ref error lists are in the snapshot beside it. */
const leanError = (error: ErrorInfo, withSnapshot: boolean): ErrorInfo => {
  if (!withSnapshot || error.details === undefined || !("availableRefs" in error.details)) return error
  const { availableRefs: _refs, ...details } = error.details
  const message = refsShownBelow(error.message)
  return Object.keys(details).length > 0 ? { ...error, message, details } : { code: error.code, message }
}

