// runTool: from a tool definition to an Effect that never fails and yields the response envelope.
// Decode, session gate, deadline, observation by policy, recording, and error-to-code mapping live here once.
import { Cause, Clock, Effect, Exit, Option, ParseResult, Ref, Schema } from "effect"
import { programDeadline } from "../services/Deadline.js"
import type { ParseError } from "effect/ParseResult"
import { consoleLines, observationText, pageChange, pageOf, slowMs, type Envelope, type PageState } from "../domain/envelope.js"
import {
  DeadlineExceeded,
  INTERNAL_ERROR_CODE,
  InvalidInput,
  toErrorInfo,
  type ErrorInfo,
  type ToolError
} from "../domain/errors.js"
import { labelsFor, type StepRecord } from "../domain/knowledge.js"
import type { Observation, ObservationPolicy } from "../domain/observation.js"
import { redactDeep } from "../domain/redaction.js"
import { defaultSettings, type Settings } from "../domain/config.js"
import { Config } from "../services/Config.js"
import { KnowledgeStore } from "../services/KnowledgeStore.js"
import { Observer } from "../services/Observer.js"
import { Secrets } from "../services/Secrets.js"
import { Session } from "../services/Session.js"
import { clientMemory } from "./client-memory.js"
import type { Attachment, RecordedCall, ToolDefinition } from "./tool.js"
import { callBudget, finishReserveMs, RECORD_RESERVE_MS } from "./budget.js"
import { inputTooCostly } from "./input-limits.js"
import { toolGate } from "./visibility.js"

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
}

/** Default deadline for tools that do not state one: keeps a call well under the client's 60 s. */
export const DEFAULT_DEADLINE_MS = 30_000

/** Limits of the observation attached to a response. */
export const OBSERVATION_LIMITS = { testIds: 50, a11yNodes: 150 } as const

/** A decode failure as MM_INVALID_INPUT naming the field(s). */
export const invalidInputFrom = (error: ParseError): InvalidInput => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) => ({
    field: issue.path.map(String).join("."),
    problem: issue.message
  }))
  const first = issues[0] ?? { field: "", problem: "invalid input" }
  return new InvalidInput({ field: first.field, problem: first.problem, issues })
}

const decodeOptions = { errors: "all", onExcessProperty: "error" } as const

/** Decodes raw arguments with a tool's input schema; errors name the field. Arguments too costly to take (input-limits.ts) are refused first. */
export const decodeInput = <I, IE>(schema: Schema.Schema<I, IE>, raw: unknown): Effect.Effect<I, InvalidInput> =>
  Option.match(inputTooCostly(raw), {
    onSome: (refused) => Effect.fail(refused),
    onNone: () => Schema.decodeUnknown(schema, decodeOptions)(raw ?? {}).pipe(Effect.mapError(invalidInputFrom))
  })

const observe = (policy: ObservationPolicy, ok: boolean) =>
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

/** A step's screenshot: a small viewport JPEG, taken within a bounded time. */
const STEP_SCREENSHOT = { quality: 50, timeoutMs: 1_500, limit: "2 seconds" } as const

/** After these the page cannot be captured, or the call never reached it: no step screenshot. */
const NO_PAGE_CODES: ReadonlySet<string> = new Set([
  "MM_PAGE_CLOSED",
  "MM_NO_ACTIVE_SESSION",
  "MM_LAUNCH_FAILED",
  "MM_SESSION_ALREADY_RUNNING",
  "MM_INVALID_INPUT",
  "MM_PAGE_UNRESPONSIVE"
])

/** Whether the `stepScreenshots` setting wants a screenshot of this step: for failures (the default) or for every step of a tool that looks at the page. */
const wantsStepScreenshot = (
  mode: Settings["stepScreenshots"],
  observation: ObservationPolicy,
  outcome: { readonly ok: true } | { readonly ok: false; readonly error: ErrorInfo }
): boolean => mode !== "off" && observation !== "none" && (outcome.ok ? mode === "all" : !NO_PAGE_CODES.has(outcome.error.code))

/**
 * The screenshot recorded with a step: a viewport JPEG with field text drawn as dots, so nothing typed
 * shows. A capture that fails or takes too long is skipped; it never changes the call's outcome.
 */
const stepScreenshot = (tool: string, sessionId: string) =>
  Effect.gen(function* () {
    const session = yield* Session
    const unique = Math.random().toString(36).slice(2, 8)
    const shot = yield* session.screenshot({
      name: `step-${sessionId}-${yield* Clock.currentTimeMillis}-${unique}-${tool}`,
      fullPage: false,
      format: "jpeg",
      quality: STEP_SCREENSHOT.quality,
      timeoutMs: STEP_SCREENSHOT.timeoutMs,
      hideFieldText: true
    })
    return shot.path
  }).pipe(
    Effect.timeout(STEP_SCREENSHOT.limit),
    Effect.catchAllCause((cause) => Effect.logDebug(`${tool}: no step screenshot`, Cause.pretty(cause)).pipe(Effect.as(undefined)))
  )

/** Runs one tool call end to end and answers with the envelope; never fails. */
export const runTool =
  <I, IE, O, OE, R>(definition: ToolDefinition<I, IE, O, OE, R>) =>
  (raw: unknown, options: RunOptions = {}): Effect.Effect<ToolResponse<OE>, never, R | Session | Observer | KnowledgeStore> =>
    Effect.gen(function* () {
      const startedAt = yield* Clock.currentTimeMillis
      const session = yield* Session
      const store = yield* KnowledgeStore
      const settings = Option.getOrElse(yield* Effect.serviceOption(Config), () => defaultSettings)
      // Every secret value leaves the call's answer and its step record as [secret:NAME].
      const secrets = Option.getOrElse(yield* Effect.serviceOption(Secrets), () => Secrets.none)
      const before = yield* session.current
      const lateNotices: Array<string> = []

      const memory = yield* clientMemory
      const consoleAtStart = yield* session.consoleCursor

      /**
       * The envelope, lean: the page only when it changed since this client last heard (never when the
       * result itself carries the state), console errors since its previous response, the observation
       * as text, the duration only for a slow call.
       */
      const finish = (
        outcome: { readonly ok: true; readonly result: OE } | { readonly ok: false; readonly error: ErrorInfo },
        sessionId: string | undefined,
        observation: Observation | undefined,
        stateInResult = false,
        pageText = ""
      ) =>
        Effect.gen(function* () {
          const notices = [...(yield* session.takeNotices), ...lateNotices]
          let page: PageState | undefined
          let consoleErrors: ReadonlyArray<string> = []
          const current = sessionIdOf(yield* session.current)
          if (current !== undefined && current === sessionId) {
            const told = Option.isSome(memory) ? yield* Ref.get(memory.value.told) : undefined
            const known = told?.sessionId === current ? told : undefined
            // Errors since this client's previous response; without one, since this call began (a new session: since it started).
            const from = known?.consoleCursor ?? (sessionIdOf(before) === current ? consoleAtStart : 0)
            const cursor = yield* session.consoleCursor
            const since = cursor > from ? yield* session.consoleSince(from) : []
            const shown = outcome.ok && definition.consoleInResult !== undefined ? definition.consoleInResult(outcome.result) : undefined
            const messages = shown === undefined ? since : since.filter((message) => !shown(message))
            const now = observation === undefined ? undefined : pageOf(observation.state, observation.state.tabId)
            consoleErrors = consoleLines(messages, now?.url ?? known?.page?.url)
            if (now !== undefined && !stateInResult) page = pageChange(known?.page, now)
            if (Option.isSome(memory)) {
              yield* Ref.set(memory.value.told, { sessionId: current, page: now ?? known?.page, consoleCursor: Math.max(cursor, from) })
            }
          }
          // A result's own page text (a snapshot, a search) is the page this call shows; else the observation's.
          const snapshot = pageText !== "" ? pageText : observation === undefined ? "" : observationText(observation)
          const finishedAt = yield* Clock.currentTimeMillis
          const envelope: Envelope<OE> = {
            ok: outcome.ok,
            ...(outcome.ok ? (isEmptyObject(outcome.result) ? {} : { result: outcome.result }) : { error: leanError(outcome.error, snapshot !== "") }),
            ...(page !== undefined ? { page } : {}),
            ...(consoleErrors.length > 0 ? { console: consoleErrors } : {}),
            ...(notices.length > 0 ? { notices } : {}),
            ...slowMs(finishedAt - startedAt),
            ...(snapshot !== "" ? { snapshot } : {})
          }
          return secrets.redact(envelope)
        })

      // A tool that is not available now (no session, group off, hidden...) says when it will be, whatever its arguments.
      const gate = yield* toolGate(definition)
      if (Option.isSome(gate)) {
        const envelope = yield* finish({ ok: false, error: toErrorInfo(gate.value) }, sessionIdOf(before), undefined)
        return { envelope, attachments: [] }
      }

      const decoded = yield* Effect.either(decodeInput(definition.input, raw))
      if (decoded._tag === "Left") {
        const envelope = yield* finish({ ok: false, error: toErrorInfo(decoded.left) }, sessionIdOf(before), undefined)
        return { envelope, attachments: [] }
      }
      const input = decoded.right

      const ownDeadline = definition.deadlineMs?.(input) ?? DEFAULT_DEADLINE_MS
      const deadline = options.deadlineMs === undefined ? ownDeadline : Math.min(ownDeadline, options.deadlineMs)
      // The deadline bounds the whole call: the program gets the tool's own deadline less a reserve for the
      // observation and the record. A tighter deadline from outside (a batch's) is the program's own: its
      // caller answers for what follows, and the observation gets only what that deadline leaves.
      const budget = callBudget(startedAt, deadline)
      const fromOutside = deadline < ownDeadline
      const programMs = fromOutside ? deadline : ownDeadline - finishReserveMs(ownDeadline)
      const exit = yield* definition.run(input).pipe(
        // Waits inside the program end in time for their own answer; under a tighter deadline from outside,
        // the caller's (a batch's), running out is the caller's answer.
        Effect.locally(programDeadline, fromOutside ? undefined : startedAt + programMs),
        Effect.timeoutFail({
          duration: Math.max(0, programMs - ((yield* Clock.currentTimeMillis) - startedAt)),
          onTimeout: (): ToolError =>
            (options.onDeadline !== undefined && fromOutside ? options.onDeadline(deadline) : undefined) ??
            definition.onDeadline?.(input, deadline) ??
            new DeadlineExceeded({ tool: definition.name, timeoutMs: deadline })
        }),
        Effect.exit
      )

      const after = yield* session.current
      const sessionId = sessionIdOf(after) ?? sessionIdOf(before)
      const policy = options.policy ?? definition.observation

      let outcome: { readonly ok: true; readonly result: OE } | { readonly ok: false; readonly error: ErrorInfo }
      let attachments: ReadonlyArray<Attachment> = []
      let pageText = ""
      let observation: Observation | undefined
      let stateInResult = false
      let recordedResult: Option.Option<O> = Option.none()

      if (Exit.isSuccess(exit)) {
        let value = exit.value
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
          outcome = { ok: true, result: encoded.right }
          recordedResult = Option.some(exit.value)
        } else {
          yield* Effect.logError(`${definition.name}: result does not match its output schema`, encoded.left.message)
          outcome = { ok: false, error: internalError() }
        }
      } else {
        const failure = Cause.failureOption(exit.cause)
        if (Option.isSome(failure)) {
          outcome = { ok: false, error: toErrorInfo(failure.value) }
        } else {
          yield* Effect.logError(`${definition.name}: defect`, Cause.pretty(exit.cause))
          outcome = { ok: false, error: internalError() }
        }
      }

      // A page that does not answer cannot be observed either: its error says what to do.
      // An observation the deadline leaves no time for is skipped, and the answer says so.
      const observeInTime = (observing: Effect.Effect<Observation | undefined, never, Observer>) =>
        Effect.map(budget.within(observing, LATE, RECORD_RESERVE_MS), (observed) => {
          if (observed !== LATE) return observed
          lateNotices.push(`The page could not be observed within the call's deadline (${deadline} ms); call mm_get_state or mm_describe_screen.`)
          return undefined
        })
      // A call refused before it touched the page (bad input, a blocked URL) leaves the page as the agent
      // saw it: no page text; one that does not answer cannot be observed either.
      if (Option.isSome(after) && (outcome.ok || !UNOBSERVED_FAILURES.has(outcome.error.code))) {
        if (policy === "custom") {
          observation = Option.match(recordedResult, {
            onNone: () => undefined,
            onSome: (result) => definition.observe?.(result)
          })
          // A tool that observes through its own result (launch, get_state, describe_screen) already says where the page is.
          stateInResult = observation !== undefined
          if (observation === undefined) observation = yield* observeInTime(observe("none", outcome.ok))
        } else {
          observation = yield* observeInTime(observe(policy, outcome.ok))
        }
      }

      if (sessionId !== undefined) {
        const recorded: RecordedCall = definition.record?.(input, recordedResult) ?? { input: input as Record<string, unknown> }
        const screenshot =
          recorded.screenshot ??
          (Option.isSome(after) && wantsStepScreenshot(settings.stepScreenshots, definition.observation, outcome)
            ? yield* budget.within(stepScreenshot(definition.name, sessionId), undefined, RECORD_RESERVE_MS)
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
            ...(recorded.textRedacted !== undefined ? { textRedacted: recorded.textRedacted } : {}),
            ...(recorded.textLength !== undefined ? { textLength: recorded.textLength } : {})
          },
          timing: { durationMs: finishedAt - startedAt },
          outcome: outcome.ok ? { ok: true } : { ok: false, error: { code: outcome.error.code, message: outcome.error.message } },
          ...(observation ? { observation } : {}),
          ...(screenshot !== undefined ? { artifacts: { screenshot } } : {}),
          labels: labelsFor(definition.stepKinds ?? [], recorded.target, outcome.ok),
          ...(options.batch ? { batch: options.batch } : {})
        }
        // A step that cannot be written is logged; it never turns the call's own outcome around, nor holds the answer past the deadline.
        yield* budget.settle(definition.name, store.recordStep(secrets.redact(step)))
      }

      const envelope = yield* finish(outcome, sessionId, observation, stateInResult, outcome.ok ? pageText : "")
      // The blocks beside the envelope (a batch's page text, get_text's text) and the observation handed to library users are scrubbed as the envelope is.
      const redactedAttachments = attachments.map((attachment) =>
        attachment.type === "text" ? { ...attachment, text: secrets.redactText(attachment.text) } : attachment
      )
      return {
        envelope,
        ...(observation !== undefined ? { observation: secrets.redact(observation) } : {}),
        attachments: redactedAttachments
      }
    })

/** A result with nothing in it (all its fields were optional and absent, or moved to the page text): left out of the envelope. */
const isEmptyObject = (value: unknown): boolean =>
  typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 0

const sessionIdOf = (info: Option.Option<{ readonly sessionId: string }>): string | undefined =>
  Option.isSome(info) ? info.value.sessionId : undefined

/** A failure's error as the envelope carries it: the refs a stale-ref error lists are in the snapshot beside it. */
/** Failures after which the page is not observed: nothing was done to it, or it cannot be read. */
const UNOBSERVED_FAILURES: ReadonlySet<string> = new Set(["MM_PAGE_UNRESPONSIVE", "MM_INVALID_INPUT", "MM_NAVIGATION_BLOCKED"])

const leanError = (error: ErrorInfo, withSnapshot: boolean): ErrorInfo => {
  if (!withSnapshot || error.details === undefined || !("availableRefs" in error.details)) return error
  const { availableRefs: _refs, ...details } = error.details
  return Object.keys(details).length > 0 ? { ...error, details } : { code: error.code, message: error.message }
}

const internalError = (): ErrorInfo => ({
  code: INTERNAL_ERROR_CODE,
  message: "Internal error in the server; the details went to its log (stderr). Try again, or call mm_cleanup and mm_launch."
})
