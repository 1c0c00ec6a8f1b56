// Diagnostics and network: one tab's console with uncaught errors and their stacks (a core tool), and
// (group devtools, opt-in with --caps devtools) its requests, one request's details, and network mocks.
import { Effect, Option, Schema, Struct } from "effect"
import { InvalidInput } from "../domain/errors.js"
import type { StepRecord } from "../domain/knowledge.js"
import { TabId } from "../domain/observation.js"
import { isSensitiveKey, REDACTED } from "../domain/redaction.js"
import { describeStepTarget } from "../knowledge/entry.js"
import { defineTool, Evident, ListedAs, Unlisted, type ReplayArgs } from "../runtime/tool.js"
import { ToolRegistry } from "../runtime/registry.js"
import { BATCH_TOOL_NAME } from "./batch.js"
import { KnowledgeStore } from "../services/KnowledgeStore.js"
import { Session } from "../services/Session.js"
import { DEVTOOLS_GROUP, type MockLogEntry, type MockRule } from "../services/session/devtools.js"

const readOnly = { readOnly: true, destructive: false, idempotent: true, openWorld: true } as const

/** Definition fields of the devtools tools. */
const devtoolsTool = { group: DEVTOOLS_GROUP, optIn: true, requiresSession: true } as const

/**
 * Definition fields of the tools that only read what the session captured: they work on a page paused
 * in the debugger (nothing runs in the page), so they stay listed beside the stepping tools.
 */
const reading = {
  ...devtoolsTool,
  annotations: readOnly,
  concurrencySafe: true,
  stepKinds: ["discovery"],
  observation: "none",
  whilePaused: "listed"
} as const

/** A time of day in UTC with milliseconds, as the envelope's meta.timestamp writes it: "12:01:02.345". */
export const timeOfDay = (ms: number): string => new Date(ms).toISOString().slice(11, 23)

const TabField = Schema.optional(TabId).annotations({ description: "Default: the active tab.", [Evident]: true })

const limitField = (max: number, fallback: number) =>
  Schema.optionalWith(Schema.Number.pipe(Schema.int(), Schema.between(1, max)), { default: () => fallback }).annotations({
    description: `Newest N (default ${fallback}).`
  })

// ---- console_messages ---------------------------------------------------------------------------------

/** A recorded call's span in time, from its start to its end, its tool and target, and whether it can act on the page. */
export interface CallSpan {
  readonly tool: string
  readonly target: string | undefined
  readonly start: number
  readonly end: number
  /**
   * The call can make the page run code (a click, a navigation, a batch): false for the tools that only
   * read (wait_for, get_text, snapshots...), which cannot have caused a message that came during them.
   */
  readonly acts: boolean
}

const spanOf = (step: StepRecord, readOnly: (tool: string) => boolean): CallSpan | undefined => {
  const end = Date.parse(step.timestamp)
  return Number.isNaN(end)
    ? undefined
    : {
        tool: step.tool.name,
        target: describeStepTarget(step.tool.target),
        start: end - step.timing.durationMs,
        end,
        acts: !readOnly(step.tool.name)
      }
}

/**
 * The call a message is attributed to: the innermost call running when it came ("mm_click testId:save"),
 * unless that call only reads: then, as between calls, the last call that acted before it ("after
 * mm_click testId:save"). So an error thrown by a timer that a click started is the click's, also when
 * it fires while the next step (a wait_for, a snapshot) runs. Undefined before the first recorded call.
 */
export const callAt = (spans: ReadonlyArray<CallSpan>, time: number, served: (tool: string) => string): string | undefined => {
  const name = (span: CallSpan) => (span.target === undefined ? served(span.tool) : `${served(span.tool)} ${span.target}`)
  let during: CallSpan | undefined
  let before: CallSpan | undefined
  let actedBefore: CallSpan | undefined
  for (const span of spans) {
    if (span.start <= time && time <= span.end) {
      if (during === undefined || span.end - span.start < during.end - during.start) during = span
    } else if (span.end < time) {
      if (before === undefined || span.end > before.end) before = span
      // A batch's steps are spans of their own: the step that acted is named, not its batch.
      if (span.acts && span.tool !== BATCH_TOOL_NAME && (actedBefore === undefined || span.end > actedBefore.end)) actedBefore = span
    }
  }
  if (during !== undefined && (during.acts || actedBefore === undefined)) return name(during)
  const after = actedBefore ?? before
  return after === undefined ? undefined : `after ${name(after)}`
}

/** The served name of a recorded tool, with the prefix this server uses. */
const servedNames = Effect.map(ToolRegistry, (registry) => (tool: string) => (registry.prefix === "" ? tool : `${registry.prefix}_${tool}`))

/** Which recorded tools only read, as the served registry defines them. */
const readOnlyTools = Effect.map(ToolRegistry, (registry) => {
  const readOnly = new Set(registry.tools.filter((tool) => tool.annotations.readOnly).map((tool) => tool.name))
  return (tool: string) => readOnly.has(tool)
})

/** The spans of the session's recorded calls; none when the step memory cannot be read (the messages still come). */
const callSpans = Effect.gen(function* () {
  const session = yield* Session
  const store = yield* KnowledgeStore
  const current = yield* session.current
  if (Option.isNone(current)) return []
  const steps = yield* store.steps(current.value.sessionId).pipe(Effect.orElseSucceed((): ReadonlyArray<StepRecord> => []))
  const readOnly = yield* readOnlyTools
  return steps.flatMap((step) => spanOf(step, readOnly) ?? [])
})

const ConsoleMessage = Schema.Struct({
  time: Schema.String.annotations({ description: "When the session heard it, UTC time of day (HH:MM:SS.mmm)." }),
  type: Schema.String.annotations({ description: 'The console method ("log", "warning", "error"...), or "pageerror" for an uncaught exception.' }),
  text: Schema.String,
  stack: Schema.optional(Schema.String).annotations({ description: "An uncaught error's first frames." }),
  call: Schema.optional(Schema.String).annotations({
    description: 'The call that was running ("mm_click testId:save"), or the one it came after ("after mm_click ...") when none was.'
  })
})

const countField = (description: string) => Schema.optional(Schema.Number).annotations({ description })

/**
 * A core tool (group page, listed by default with a session: an agent needs the page's errors without
 * asking for a group), so its entry is kept short: `level` and `tabId` are listed without descriptions, `since` and `limit` are
 * accepted but not listed (docs/devtools.md).
 */
export const consoleMessages = defineTool({
  name: "console_messages",
  title: "Console messages",
  description:
    "A tab's console and uncaught errors (with stacks) since it navigated.",
  input: Schema.Struct({
    // The least severe level shown, default info (all but debug).
    level: Schema.optionalWith(Schema.Literal("error", "warning", "info", "debug", "all"), { default: () => "info" as const }).annotations({
      description: "Default info."
    }),
    since: Schema.optionalWith(Schema.Literal("navigation", "all"), { default: () => "navigation" as const }).annotations({
      description: "navigation (default) or all the tab kept.",
      [Unlisted]: true
    }),
    tabId: TabField,
    limit: limitField(200, 50).annotations({ [Unlisted]: true })
  }),
  output: Schema.Struct({
    tabId: TabId,
    url: Schema.optional(Schema.String).annotations({ description: "The tab's URL now." }),
    messages: Schema.optional(Schema.Array(ConsoleMessage)).annotations({ description: "Oldest first; absent when none." }),
    dropped: countField("Messages of the period the tab's buffer let go (it keeps its newest 200)."),
    more: countField("Older matching messages beyond the limit.")
  }),
  ...reading,
  group: "page",
  optIn: false,
  // The envelope's console (errors since the previous response) leaves out what this result lists: the tab's messages.
  consoleInResult: (result) => (message) => message.url === result.url && (result.messages ?? []).some((shown) => shown.text === message.text),
  run: Effect.fn("tool.console_messages")(function* (input) {
    const session = yield* Session
    const reading = yield* session.consoleMessages(input)
    const spans = reading.messages.length === 0 ? [] : yield* callSpans
    const served = yield* servedNames
    const messages = reading.messages.map((message) => {
        const call = callAt(spans, message.time, served)
        return {
          time: timeOfDay(message.time),
          type: message.type,
          text: message.text,
          ...(message.stack !== undefined ? { stack: message.stack } : {}),
          ...(call !== undefined ? { call } : {})
        }
      })
    return {
      tabId: reading.tabId,
      // A closed tab that logged nothing has no URL left to tell.
      ...(reading.url !== "" ? { url: reading.url } : {}),
      ...(messages.length > 0 ? { messages } : {}),
      ...(reading.dropped > 0 ? { dropped: reading.dropped } : {}),
      ...(reading.more > 0 ? { more: reading.more } : {})
    }
  })
})

// ---- network_requests, network_request ----------------------------------------------------------------

const RequestId = Schema.String.pipe(
  Schema.pattern(/^r[0-9]+$/, { message: () => 'must look like "r12" (an id from mm_network_requests)' })
).annotations({ description: "Request id from network_requests, e.g. r12." })

const RequestSummary = Schema.Struct({
  id: Schema.String,
  method: Schema.String,
  url: Schema.String,
  type: Schema.String.annotations({ description: "document, script, fetch, xhr, image..." }),
  status: Schema.optional(Schema.Number),
  failure: Schema.optional(Schema.String).annotations({ description: 'Why there was no response, e.g. "net::ERR_CONNECTION_REFUSED".' }),
  ms: Schema.optional(Schema.Number).annotations({ description: "Start to finish." }),
  mocked: Schema.optional(Schema.Boolean).annotations({ description: "A mock_network rule answered it." })
})

export const networkRequests = defineTool({
  name: "network_requests",
  title: "Network requests",
  description: "A tab's requests with status, failure and time; filter by URL, method, status or failures. Returns {tabId, requests?, dropped?, more?}.",
  input: Schema.Struct({
    urlPattern: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(1_000))).annotations({
      description: "URL glob (** any, * within a segment) or substring."
    }),
    method: Schema.optional(Schema.String.pipe(Schema.pattern(/^[A-Za-z]{1,20}$/))).annotations({ description: "e.g. POST." }),
    status: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(100, 599))).annotations({ description: "Status code." }),
    failedOnly: Schema.optional(Schema.Boolean).annotations({ description: "Only failures: no response, or status 400+." }),
    tabId: TabField,
    limit: limitField(300, 50)
  }),
  output: Schema.Struct({
    tabId: TabId,
    requests: Schema.optional(Schema.Array(RequestSummary)).annotations({ description: "Oldest first; absent when none." }),
    dropped: countField("Requests the tab's buffer let go (it keeps its newest 300)."),
    more: countField("Older matching requests beyond the limit."),
    startedNow: Schema.optional(Schema.Boolean).annotations({
      description: "The capture started with this call: earlier requests were not seen (start with --caps devtools to capture from launch)."
    })
  }),
  ...reading,
  run: Effect.fn("tool.network_requests")(function* (input) {
    const session = yield* Session
    const reading = yield* session.networkRequests(input)
    return {
      tabId: reading.tabId,
      ...(reading.requests.length > 0 ? { requests: reading.requests } : {}),
      ...(reading.dropped > 0 ? { dropped: reading.dropped } : {}),
      ...(reading.more > 0 ? { more: reading.more } : {}),
      ...(reading.startedNow === true ? { startedNow: true } : {})
    }
  })
})

const Headers = Schema.Record({ key: Schema.String, value: Schema.String })

export const networkRequest = defineTool({
  name: "network_request",
  title: "One request",
  description:
    "One request's headers (secrets redacted), text bodies cut to a size, timing and failure. Returns {url, status?, requestHeaders, responseHeaders?, requestBody?, responseBody?, timing?, notes?}.",
  input: Schema.Struct({
    id: RequestId,
    bodyChars: Schema.optionalWith(Schema.Number.pipe(Schema.int(), Schema.between(0, 100_000)), { default: () => 2_000 }).annotations({
      description: "Max characters per body (default 2000)."
    })
  }),
  output: Schema.Struct({
    ...Struct.omit(RequestSummary.fields, "id"),
    tabId: TabId,
    statusText: Schema.optional(Schema.String),
    requestHeaders: Headers.annotations({ description: "Secret headers (Authorization, Cookie, tokens...) read [REDACTED]." }),
    responseHeaders: Schema.optional(Headers),
    requestBody: Schema.optional(Schema.String).annotations({ description: "Text bodies only; values of secret-looking keys redacted." }),
    responseBody: Schema.optional(Schema.String),
    timing: Schema.optional(
      Schema.Struct({
        dnsMs: Schema.optional(Schema.Number),
        connectMs: Schema.optional(Schema.Number),
        waitMs: Schema.optional(Schema.Number).annotations({ description: "Request sent to first byte." }),
        downloadMs: Schema.optional(Schema.Number),
        totalMs: Schema.optional(Schema.Number)
      })
    ),
    pending: Schema.optional(Schema.Boolean).annotations({ description: "It has not finished yet." }),
    notes: Schema.optional(Schema.Array(Schema.String)).annotations({ description: "What was not shown and why." })
  }),
  ...reading,
  run: Effect.fn("tool.network_request")(function* (input) {
    const session = yield* Session
    // The id is the caller's own: not echoed.
    const { id: _id, ...details } = yield* session.networkRequest(input.id, { bodyChars: input.bodyChars })
    return details
  })
})

// ---- mock_network -----------------------------------------------------------------------------------

/** Most characters of a mock's body. */
export const MOCK_BODY_LIMIT = 1_000_000

/** Bodies up to this size are recorded with the step (so the rule replays); larger ones only by size. */
export const MOCK_BODY_RECORDED = 4_000

const MockAction = Schema.Literal("add", "remove", "clear", "list", "log")

const MockInput = Schema.Struct({
  action: MockAction.annotations({ description: "remove needs id; log: hits and misses." }),
  url: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(2_000))).annotations({
    description: "add: URL glob, e.g. **/api/items (** any, * within a segment)."
  }),
  method: Schema.optional(Schema.String.pipe(Schema.pattern(/^[A-Za-z]{1,20}$/))).annotations({ description: "add: only this method." }),
  status: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(100, 599))).annotations({ description: "add: default 200." }),
  headers: Schema.optional(Headers.annotations({ [ListedAs]: { type: "object" } })).annotations({ description: "add: response headers." }),
  json: Schema.optional(Schema.Unknown).annotations({ description: "add: JSON body." }),
  body: Schema.optional(Schema.String.pipe(Schema.maxLength(MOCK_BODY_LIMIT, { message: () => `must be at most ${MOCK_BODY_LIMIT} characters long` }))).annotations({
    description: "add: text body."
  }),
  abort: Schema.optional(Schema.Boolean).annotations({ description: "add: fail the request instead." }),
  id: Schema.optional(Schema.String.pipe(Schema.pattern(/^m[0-9]+$/, { message: () => 'must look like "m3" (a rule id from add or list)' }))).annotations({
    description: "remove: rule id."
  }),
  limit: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1, 200))).annotations({ description: "log: newest N (default 50)." })
}).pipe(
  Schema.filter((input) => {
    if (input.action === "add") {
      if (input.url === undefined) return { path: ["url"], message: "action add needs url (a glob such as **/api/items)" }
      if (input.json !== undefined && input.body !== undefined) return { path: ["body"], message: "give json or body, not both" }
      if (input.abort === true && (input.json !== undefined || input.body !== undefined || input.status !== undefined)) {
        return { path: ["abort"], message: "an aborted request gets no status or body" }
      }
      return true
    }
    if (input.action === "remove" && input.id === undefined) return { path: ["id"], message: "action remove needs the rule's id (from add or list)" }
    return true
  })
)

type MockInput = typeof MockInput.Type

/** The JSON text of a `json` body; MM_INVALID_INPUT when it cannot be written as JSON or is too large. */
const jsonBody = (value: unknown) =>
  Effect.gen(function* () {
    const text = yield* Effect.try({
      try: () => JSON.stringify(value),
      catch: () => new InvalidInput({ field: "json", problem: "cannot be written as JSON" })
    })
    if (text === undefined) return yield* new InvalidInput({ field: "json", problem: "cannot be written as JSON" })
    if (text.length > MOCK_BODY_LIMIT) return yield* new InvalidInput({ field: "json", problem: `must be at most ${MOCK_BODY_LIMIT} characters as JSON` })
    return text
  })

const hasHeader = (headers: Readonly<Record<string, string>>, name: string) => Object.keys(headers).some((key) => key.toLowerCase() === name)

/** The rule an add asks for. */
const ruleOf = (input: MockInput) =>
  Effect.gen(function* () {
    const headers = input.headers ?? {}
    const body = input.json !== undefined ? yield* jsonBody(input.json) : (input.body ?? "")
    const contentType = hasHeader(headers, "content-type")
      ? undefined
      : input.json !== undefined
        ? "application/json"
        : input.body !== undefined
          ? "text/plain; charset=utf-8"
          : undefined
    const rule: MockRule = {
      url: input.url ?? "",
      method: input.method?.toUpperCase(),
      status: input.status ?? 200,
      headers,
      body,
      contentType,
      abort: input.abort === true
    }
    return rule
  })

const MockRuleInfo = Schema.Struct({
  id: Schema.String,
  url: Schema.String,
  method: Schema.optional(Schema.String),
  status: Schema.optional(Schema.Number),
  abort: Schema.optional(Schema.Boolean),
  bodyBytes: Schema.optional(Schema.Number),
  hits: Schema.Number.annotations({ description: "Requests it answered." })
})

const MockLogLine = Schema.Struct({
  time: Schema.String.annotations({ description: "UTC time of day." }),
  rule: Schema.optional(Schema.String).annotations({ description: "The rule that answered; absent for a miss." }),
  blocked: Schema.optional(Schema.Boolean).annotations({ description: "A rule matched but the URL policy blocks the URL: not answered." }),
  method: Schema.String,
  url: Schema.String,
  type: Schema.String,
  request: Schema.optional(Schema.String).annotations({ description: "Its id in network_requests." })
})

const logLine = (entry: MockLogEntry) => ({ ...entry, time: timeOfDay(entry.time) })

/** Header values recorded with a step: secret ones redacted, as network_request shows them. */
const recordedHeaders = (headers: Readonly<Record<string, string>>) =>
  Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      /^(authorization|proxy-authorization|cookie|set-cookie)$/i.test(name) || isSensitiveKey(name) ? REDACTED : value
    ])
  )

/** How a recorded add becomes the lines of a Playwright test: a context route answering as the rule did. */
const playwrightRoute = (args: ReplayArgs): ReadonlyArray<string> | undefined => {
  const url = typeof args.url === "string" ? args.url : undefined
  if (url === undefined) return undefined
  const js = (value: unknown) => JSON.stringify(value)
  let answer: string
  if (args.abort === true) {
    answer = `route.abort()`
  } else {
    const headers = (args.headers ?? {}) as Record<string, string>
    const body = args.json !== undefined ? JSON.stringify(args.json) : typeof args.body === "string" ? args.body : ""
    const contentType = hasHeader(headers, "content-type")
      ? undefined
      : args.json !== undefined
        ? "application/json"
        : args.body !== undefined
          ? "text/plain; charset=utf-8"
          : undefined
    const options = [
      `status: ${typeof args.status === "number" ? args.status : 200}`,
      ...(Object.keys(headers).length > 0 ? [`headers: ${js(headers)}`] : []),
      ...(contentType !== undefined ? [`contentType: ${js(contentType)}`] : []),
      `body: ${js(body)}`
    ]
    answer = `route.fulfill({ ${options.join(", ")} })`
  }
  const method = typeof args.method === "string" ? args.method.toUpperCase() : undefined
  const handler = method === undefined ? answer : `route.request().method() === ${js(method)} ? ${answer} : route.fallback()`
  return [`await page.context().route(${js(url)}, (route) => ${handler})`]
}

export const mockNetwork = defineTool({
  name: "mock_network",
  title: "Mock the network",
  description:
    "Answer requests matching a URL glob (and method) with a status, headers and a JSON or text body, or fail them; every tab, across navigations. Returns {added|removed|cleared|count, rules?|count, log?}.",
  input: MockInput,
  output: Schema.Struct({
    added: Schema.optional(MockRuleInfo),
    removed: Schema.optional(MockRuleInfo),
    cleared: Schema.optional(Schema.Number).annotations({ description: "How many rules were removed." }),
    count: Schema.optional(Schema.Number).annotations({ description: "list, log: how many rules are in force, or log entries shown." }),
    rules: Schema.optional(Schema.Array(MockRuleInfo)).annotations({ description: "The rules in force (absent when none); the newest matching one answers." }),
    log: Schema.optional(Schema.Array(MockLogLine)).annotations({ description: "Hits and misses (requests no rule answered), oldest first; absent when none." }),
    dropped: countField("Log entries let go (the log keeps its newest 200)."),
    more: countField("Older log entries beyond the limit.")
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  ...devtoolsTool,
  stepKinds: ["navigation"],
  observation: "none",
  // A body is recorded only when it is small; secret-looking headers never are.
  record: (input, result) => {
    if (input.action !== "add") {
      const removed = Option.flatMap(result, (value) => Option.fromNullable(value.removed))
      return {
        input: {
          action: input.action,
          ...(input.id !== undefined ? { id: input.id } : {}),
          ...(Option.isSome(removed) ? { url: removed.value.url } : {}),
          ...(input.limit !== undefined ? { limit: input.limit } : {})
        }
      }
    }
    const body = input.json !== undefined ? JSON.stringify(input.json) ?? "" : (input.body ?? "")
    const small = body.length <= MOCK_BODY_RECORDED
    return {
      input: {
        action: "add",
        url: input.url,
        ...(input.method !== undefined ? { method: input.method } : {}),
        ...(input.status !== undefined ? { status: input.status } : {}),
        ...(input.headers !== undefined ? { headers: recordedHeaders(input.headers) } : {}),
        ...(input.abort === true ? { abort: true } : {}),
        ...(small && input.json !== undefined ? { json: input.json } : {}),
        ...(small && input.body !== undefined ? { body: input.body } : {}),
        ...(body.length > 0 ? { bodyBytes: Buffer.byteLength(body) } : {})
      }
    }
  },
  replay: {
    note: (args) => {
      if (args.action === "add") {
        return `Mock ${typeof args.method === "string" ? `${args.method.toUpperCase()} ` : ""}${String(args.url)} with ${args.abort === true ? "a failure" : `status ${typeof args.status === "number" ? args.status : 200}`}`
      }
      return args.action === "remove" ? `Remove the mock ${String(args.url ?? args.id)}` : args.action === "clear" ? "Remove every mock" : "Read the mocks"
    },
    args: (args) => {
      if (args.action === "list" || args.action === "log") return { skip: "reads the mocks only" }
      if (args.action === "add" && typeof args.bodyBytes === "number" && args.json === undefined && args.body === undefined) {
        return { skip: `its body (${args.bodyBytes} bytes) was too large to record` }
      }
      const { bodyBytes: _bodyBytes, url: _url, ...rest } = args
      return { args: args.action === "add" ? { ...rest, url: args.url } : rest }
    },
    playwright: (args, context) => {
      if (args.action === "add") return playwrightRoute(args)
      if (args.action === "clear") return ["await page.context().unrouteAll()"]
      const url = context.record.tool.input.url
      return typeof url === "string" ? [`await page.context().unroute(${JSON.stringify(url)})`] : undefined
    }
  },
  run: Effect.fn("tool.mock_network")(function* (input) {
    const session = yield* Session
    switch (input.action) {
      case "add":
        return { added: yield* session.addMock(yield* ruleOf(input)) }
      case "remove":
        return { removed: yield* session.removeMock(input.id ?? "") }
      case "clear":
        return { cleared: yield* session.clearMocks }
      case "list": {
        const { rules } = yield* session.mocks(1)
        return { count: rules.length, ...(rules.length > 0 ? { rules } : {}) }
      }
      case "log": {
        const reading = yield* session.mocks(input.limit ?? 50)
        return {
          count: reading.log.length,
          ...(reading.log.length > 0 ? { log: reading.log.map(logLine) } : {}),
          ...(reading.dropped > 0 ? { dropped: reading.dropped } : {}),
          ...(reading.more > 0 ? { more: reading.more } : {})
        }
      }
    }
  })
})
