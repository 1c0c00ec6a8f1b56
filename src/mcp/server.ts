// The only code that knows the MCP wire format: tools/list from tool definitions (only the tools that
// apply now, announced with tools/list_changed), tools/call through runTool, envelopes to
// CallToolResult, cancellation to fiber interruption.
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js"
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool
} from "@modelcontextprotocol/sdk/types.js"
import { Cause, Effect, Exit, type ManagedRuntime, Option } from "effect"
import { envelopeSchema } from "../domain/envelope.js"
import { INTERNAL_ERROR_CODE, toErrorInfo, UnknownTool, type ErrorInfo } from "../domain/errors.js"
import { optInGroups, servedText, ToolRegistry, type ToolRegistryService } from "../runtime/registry.js"
import { ClientMemory } from "../runtime/client-memory.js"
import { runTool, type ToolResponse } from "../runtime/runTool.js"
import { reachesOtherSessions, takesSession, type AnyToolDefinition } from "../runtime/tool.js"
import { ALL_CAPS, ToolView, visibleToolsMemo } from "../runtime/visibility.js"
import { ObservingClient } from "../services/Observer.js"
import { Session } from "../services/Session.js"
import { Progress } from "../services/Progress.js"
import { onCurrentSession, Sessions } from "../services/Sessions.js"
import { inputJsonSchema, jsonSchemaOf, withSessionArgument } from "./json-schema.js"
import { toolListChangesOf, type ToolListChanges } from "./tool-list.js"

import { OBSERVATION_META_KEY, SERVER_NAME, SERVER_VERSION } from "./names.js"

export { OBSERVATION_META_KEY, SERVER_NAME, SERVER_VERSION } from "./names.js"

/**
 * What the server tells a client once, at initialize. Written, like every server-authored text, in the
 * default prefix's names (mm_launch) and rendered as this registry serves them (servedText).
 */
export const instructions = (registry: ToolRegistryService, secretNames: ReadonlyArray<string> = []) => {
  const secrets =
    secretNames.length === 0
      ? []
      : [`Secrets: mm_type {secret: NAME} (instead of text) types one; names: ${secretNames.slice(0, 50).join(", ")}. Their values never appear in answers.`]
  return servedText(registry)(
    [
      "Drive a real Chromium browser (a web app or an MV3 extension) and remember what worked.",
      "Start with mm_launch: tools appear as they apply, the page tools once a session runs.",
      "Each launch is a session of its own; every session tool takes session (an id from mm_launch, or its name) to act on one, else your current one; mm_sessions lists, switches, closes.",
      "Name an element by exactly one of a11yRef (a ref like e12 from the page text), testId (its test id) or selector (CSS or Playwright). A string takes at most 2000 characters unless its schema says more; a field the tool does not take is refused.",
      "A response is JSON {ok, result? (none when the text says it) | error: {code, message}, page? (when it changed), console? (new errors), notices?}, then the page as text: after an action only what changed since you last looked (a mm_find counts; other refs stay valid), after a failure all of it.",
      "Send known steps together with mm_run_steps; mm_knowledge finds what earlier sessions did, mm_replay redoes one. An error's message says how to recover.",
      ...secrets
    ].join(" ")
  )
}

/**
 * A definition's annotations as MCP's hints, each only where it differs from the default the spec gives
 * (not read-only, destructive, not idempotent, open world): every byte of tools/list is read by the model.
 * destructiveHint and idempotentHint mean something only for a tool that is not read-only (the spec), so a
 * read-only tool carries readOnlyHint alone (and openWorldHint when it stays inside the server).
 */
export const hintsOf = (annotations: AnyToolDefinition["annotations"]): Tool["annotations"] | undefined => {
  const hints = {
    ...(annotations.readOnly ? { readOnlyHint: true } : {}),
    ...(!annotations.readOnly && !annotations.destructive ? { destructiveHint: false } : {}),
    ...(!annotations.readOnly && annotations.idempotent ? { idempotentHint: true } : {}),
    ...(annotations.openWorld ? {} : { openWorldHint: false })
  }
  return Object.keys(hints).length === 0 ? undefined : hints
}

export interface DescribeOptions {
  /** Add the tool's output schema (the envelope around its result). */
  readonly outputSchema?: boolean | undefined
  /**
   * List the optional `session` argument of a tool that takes one (default true). The server lists it
   * while the client has two sessions or more, or one that is not its current one: with its one current
   * session, every call goes to it anyway.
   */
  readonly sessionArgument?: boolean | undefined
}

/** The tools/list entry of a tool: name, description, compact input schema, the hints that differ from the defaults. */
export const describeTool = (registry: ToolRegistryService, tool: AnyToolDefinition, options: DescribeOptions = {}): Tool => {
  const annotations = hintsOf(tool.annotations)
  // Descriptions name other tools as served by default (mm_launch): rendered as this registry serves them.
  const served = servedText(registry)
  const schema = (json: unknown) => JSON.parse(served(JSON.stringify(json))) as unknown
  return {
    name: registry.servedName(tool),
    description: served(tool.description),
    inputSchema: schema(
      takesSession(tool) && options.sessionArgument !== false ? withSessionArgument(inputJsonSchema(tool.input)) : inputJsonSchema(tool.input)
    ) as Tool["inputSchema"],
    ...(options.outputSchema === true ? { outputSchema: schema(jsonSchemaOf(envelopeSchema(tool.output))) as Tool["outputSchema"] } : {}),
    ...(annotations === undefined ? {} : { annotations })
  }
}

/**
 * An envelope as a CallToolResult: the envelope as JSON text, the page snapshot as a second text block
 * (read as text: no escaped newlines and quotes; the result left out of the JSON when the text says all it
 * does, `resultInText`), then the blocks a tool moved out of its result
 * (images, a batch's snapshots). With `structured`, the envelope (snapshot included) also goes as
 * structuredContent; off by default because clients that show both to the model pay for it twice,
 * and some drop the text (and its images) when structuredContent is present.
 */
export const toCallToolResult = (response: ToolResponse, structured = false): CallToolResult => {
  const { snapshot, ...whole } = response.envelope
  const { result: _result, ...withoutResult } = whole
  const envelope = response.resultInText === true && snapshot !== undefined ? withoutResult : whole
  return {
    content: [
      { type: "text", text: JSON.stringify(envelope) },
      ...(snapshot !== undefined ? [{ type: "text" as const, text: snapshot }] : []),
      ...response.attachments.map((attachment) => ({ ...attachment }))
    ],
    ...(structured ? { structuredContent: response.envelope as unknown as Record<string, unknown> } : {}),
    isError: !response.envelope.ok
  }
}

/** A failure answered by the MCP layer itself, outside any tool. */
const failureResponse = (error: ErrorInfo): ToolResponse => ({ envelope: { ok: false, error }, attachments: [] })


const isPolicy = (value: unknown): value is "default" | "none" | "failures" =>
  value === "default" || value === "none" || value === "failures"

export interface McpServerOptions {
  /** Observation policy for every call that does not ask for one; each tool's own when absent. */
  readonly observation?: "default" | "none" | "failures" | undefined
  /** One fixed tool list with every group on, for clients that ignore notifications/tools/list_changed. */
  readonly staticTools?: boolean | undefined
  /** Opt-in groups to serve (`all` for every one), as `--caps` gives them. */
  readonly caps?: ReadonlyArray<string> | undefined
  /** Output schemas in tools/list and structuredContent in results (default false: the JSON text only). */
  readonly structuredOutput?: boolean | undefined
  /**
   * Where the servers over one browser hear that the tool list may have changed. Servers built on the
   * same runtime share one by default, so a launch by one client updates every client's list.
   */
  readonly toolListChanges?: ToolListChanges | undefined
  /** Names of the --secrets secrets, told in the instructions (never their values). */
  readonly secretNames?: ReadonlyArray<string> | undefined
}

/** A misspelt group would otherwise leave its tools off without a word. */
const warnUnknownCaps = <R, ER>(registry: ToolRegistryService, runtime: ManagedRuntime.ManagedRuntime<R, ER>, caps: McpServerOptions["caps"]) => {
  const groups = new Set(optInGroups(registry.tools))
  const unknownCaps = (caps ?? []).filter((cap) => cap !== ALL_CAPS && !groups.has(cap))
  if (unknownCaps.length === 0) return
  runtime.runFork(
    Effect.logWarning(
      `--caps names no opt-in group of this server: ${unknownCaps.join(", ")} (groups: ${[...groups].join(", ") || "none"})`
    ) as Effect.Effect<void, never, R>
  )
}

/**
 * Builds the SDK server for a registry, running every call on the given runtime. Call it once per
 * client: each server keeps its client's hide/show rules and tells its client when its list changed.
 */
export const makeMcpServer = <R, ER>(
  registry: ToolRegistryService,
  runtime: ManagedRuntime.ManagedRuntime<R, ER>,
  options: McpServerOptions = {}
): Server => {
  const defaultPolicy = options.observation
  const staticTools = options.staticTools ?? false
  const structured = options.structuredOutput ?? false
  const server = new Server(
    { name: SERVER_NAME, version: SERVER_VERSION, title: "Browser Workflow MCP" },
    { capabilities: { tools: { listChanged: !staticTools }, logging: {} }, instructions: instructions(registry, options.secretNames) }
  )
  const view = ToolView.make(registry, { caps: options.caps, staticTools })
  // What this client was last told (the page, the console read so far) and its id in the pages it looks at: responses say only what changed.
  const memory = ClientMemory.make()
  warnUnknownCaps(registry, runtime, options.caps)
  // Each tool's entry with and without its `session` argument, built once.
  const entries = new Map<AnyToolDefinition, { readonly one: Tool; readonly many: Tool }>()
  const entryOf = (tool: AnyToolDefinition, sessionArgument: boolean) => {
    let entry = entries.get(tool)
    if (entry === undefined) {
      const many = describeTool(registry, tool, { outputSchema: structured })
      entry = { one: takesSession(tool) ? describeTool(registry, tool, { outputSchema: structured, sessionArgument: false }) : many, many }
      entries.set(tool, entry)
    }
    return sessionArgument ? entry.many : entry.one
  }

  // The list follows this client's current session; `session` arguments are listed once it reaches another (always with a fixed list).
  // It is checked after every call: memoized on what decides it, so an unchanged state passes over no tool.
  const visible = visibleToolsMemo(registry.tools)
  const listing = Effect.gen(function* () {
    const tools = yield* visible
    const current = yield* (yield* Session).current
    const sessionArgument = staticTools || reachesOtherSessions({ session: Option.isSome(current), sessions: yield* (yield* Sessions).count })
    return { tools, sessionArgument, session: Option.isSome(current) ? current.value.sessionId : undefined } satisfies Listing
  })
  const listNow = () =>
    runtime.runPromise(
      onCurrentSession(listing).pipe(
        Effect.provideService(ToolView, view),
        Effect.locally(ObservingClient, memory.viewer)
      ) as Effect.Effect<Listing, never, R>
    )

  // What the client was last shown (or told about), and the session its list followed then; refreshes and listings run one at a time.
  let shown: string | undefined
  let shownSession: string | undefined
  let queue: Promise<unknown> = Promise.resolve()
  const serialized = <A>(task: () => Promise<A>): Promise<A> => {
    const next = queue.then(task)
    queue = next.catch(() => undefined)
    return next
  }
  // The same tools (the memo's same array) and the same session argument make the same key: it is not built again.
  let keyed: { readonly tools: Listing["tools"]; readonly sessionArgument: boolean; readonly key: string } | undefined
  const keyOf = (listing: Listing) => {
    if (keyed !== undefined && keyed.tools === listing.tools && keyed.sessionArgument === listing.sessionArgument) return keyed.key
    const key = `${listing.sessionArgument ? "+session:" : ""}${listing.tools.map((tool) => tool.name).join(",")}`
    keyed = { tools: listing.tools, sessionArgument: listing.sessionArgument, key }
    return key
  }
  // Every call ends with every client's refresh; the changes that come in before a waiting refresh starts share it.
  let waiting: Promise<void> | undefined
  const refresh = () =>
    (waiting ??= serialized(async () => {
      waiting = undefined
      const listing = await listNow()
      shownSession = listing.session
      const key = keyOf(listing)
      if (key === shown) return
      const hadList = shown !== undefined
      shown = key
      if (hadList && server.transport !== undefined) await server.sendToolListChanged().catch(() => undefined)
    }))

  const changes = staticTools ? undefined : (options.toolListChanges ?? toolListChangesOf(runtime))
  // A client without a session follows any change (with --shared-browser another client's launch gives it one).
  if (changes !== undefined) followChanges(server, runtime, changes, refresh, (sessions) => shownSession === undefined || sessions.has(shownSession))

  server.setRequestHandler(ListToolsRequestSchema, () =>
    serialized(async () => {
      const listing = await listNow()
      shown = keyOf(listing)
      shownSession = listing.session
      return { tools: listing.tools.map((tool) => entryOf(tool, listing.sessionArgument)) }
    })
  )

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = registry.lookup(request.params.name)
    if (tool === undefined) {
      const available = (await listNow()).tools.map(registry.servedName)
      const unknown = new UnknownTool({ tool: request.params.name, available })
      return toCallToolResult(failureResponse(toErrorInfo(unknown)), structured)
    }
    const progressToken = request.params._meta?.progressToken
    const requested = request.params._meta?.[OBSERVATION_META_KEY]
    const policy = isPolicy(requested) ? requested : defaultPolicy
    const call = runTool(tool)(request.params.arguments ?? {}, { policy }).pipe(
      Effect.provideService(ToolView, view),
      // The registry this server serves is the one its calls (a batch, a replay, an export) see.
      Effect.provideService(ToolRegistry, registry),
      Effect.provideService(ClientMemory, memory),
      Effect.locally(ObservingClient, memory.viewer)
    ) as Effect.Effect<
      ToolResponse,
      never,
      R | Progress
    >
    // Progress goes out only when the client asked for it by sending a token.
    const program =
      progressToken === undefined
        ? (call as Effect.Effect<ToolResponse, never, R>)
        : Effect.provideService(call, Progress, {
            report: (progress, total, message) =>
              Effect.promise(() =>
                extra
                  .sendNotification({
                    method: "notifications/progress",
                    params: { progressToken, progress, ...(total === undefined ? {} : { total }), message }
                  })
                  .catch(() => undefined)
              )
          })
    // The client's current session as its list last showed it: a call with no `session` argument runs there.
    const ranOn = sessionOfCall(tool, request.params.arguments, shownSession)
    // The client's cancellation aborts extra.signal, which interrupts the fiber and with it the browser action.
    const exit = await runtime.runPromiseExit(program, { signal: extra.signal })
    // The call may have started or ended a session, or changed this client's rules: every client's list is checked;
    // a call that only acted on one session (this client's list follows it) checks the lists that follow that session.
    await changes?.changed(ranOn === undefined || !Exit.isSuccess(exit) ? undefined : new Set([ranOn]))
    if (Exit.isSuccess(exit)) return toCallToolResult(exit.value, structured)
    if (Cause.isInterruptedOnly(exit.cause)) {
      return toCallToolResult(failureResponse({ code: "MM_CANCELLED", message: "The call was cancelled by the client." }), structured)
    }
    await runtime.runPromise(Effect.logError("tool call failed outside runTool", Cause.pretty(exit.cause)) as Effect.Effect<void, never, R>)
    return toCallToolResult(
      failureResponse({ code: INTERNAL_ERROR_CODE, message: "Internal error in the server; the details went to its log (stderr)." }),
      structured
    )
  })

  return server
}

/**
 * Subscribes a server's `refresh` to the runtime's changes (`follows`: which sessions its client's list follows)
 * and to the pauses of its sessions in the debugger; its `onclose` unsubscribes both.
 */
const followChanges = <R, ER>(
  server: Server,
  runtime: ManagedRuntime.ManagedRuntime<R, ER>,
  changes: ToolListChanges,
  refresh: () => Promise<void>,
  follows: (sessions: ReadonlySet<string>) => boolean
) => {
  const unsubscribe = changes.subscribe(refresh, follows)
  // A pause between calls (a timer or an event handler hit a breakpoint) and its end change the list
  // with no call to follow: this client is told at once. A step resumes and pauses within
  // milliseconds: the list is compared once things are quiet, so it does not flicker.
  let settling: ReturnType<typeof setTimeout> | undefined
  const onPause = () => {
    clearTimeout(settling)
    settling = setTimeout(() => void refresh().catch(() => undefined), PAUSE_SETTLE_MS)
  }
  let stopPauses: (() => void) | undefined
  let closed = false
  runtime
    .runPromise(Effect.flatMap(Sessions, (sessions) => sessions.onPauseChange(onPause)) as Effect.Effect<() => void, never, R>)
    .then((stop) => (closed ? stop() : (stopPauses = stop)), () => undefined)
  const previous = server.onclose
  server.onclose = () => {
    closed = true
    unsubscribe()
    stopPauses?.()
    clearTimeout(settling)
    previous?.()
  }
}

/** What a client is shown: the tools, whether their `session` arguments are listed, and the session they follow. */
interface Listing {
  readonly tools: ReadonlyArray<AnyToolDefinition>
  readonly sessionArgument: boolean
  /** The client's current session (its id); none while it has none. */
  readonly session: string | undefined
}

/**
 * The one session a call can have changed, when that is all it can have changed: a tool that needs a running
 * session acts on it and starts or closes none, on the client's current one (`current`) unless its `session`
 * argument names another. Any other call (launch, cleanup, sessions, replay, a batch, the client's own rules), or
 * a `session` argument that is not the current one's id (a name is the client's own word), is undefined: it may
 * have changed any client's list.
 */
const sessionOfCall = (tool: AnyToolDefinition, args: Record<string, unknown> | undefined, current: string | undefined): string | undefined => {
  if (!tool.requiresSession || current === undefined) return undefined
  const selector = args?.session
  return selector === undefined || selector === current ? current : undefined
}

/** How long pause changes must be quiet before a client's tool list is compared (a step resumes, then pauses). */
const PAUSE_SETTLE_MS = 50

/** Serves the registry over stdio until stdin closes; resolves when the connection closed. */
export const serveStdio = async <R, ER>(
  registry: ToolRegistryService,
  runtime: ManagedRuntime.ManagedRuntime<R, ER>,
  options: McpServerOptions = {}
): Promise<void> => {
  const server = makeMcpServer(registry, runtime, options)
  const transport = new StdioServerTransport()
  const closed = new Promise<void>((resolve) => {
    const previous = server.onclose
    server.onclose = () => {
      previous?.()
      resolve()
    }
    process.stdin.once("end", () => resolve())
    process.stdin.once("close", () => resolve())
  })
  await server.connect(transport)
  await closed
}
