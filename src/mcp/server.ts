// The only code that knows the MCP wire format: tools/list from tool definitions, tools/call through
// runTool, envelopes to CallToolResult, cancellation to fiber interruption.
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js"
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool
} from "@modelcontextprotocol/sdk/types.js"
import { Cause, Effect, Exit, JSONSchema, type ManagedRuntime, Schema } from "effect"
import { envelopeSchema } from "../domain/envelope.js"
import { INTERNAL_ERROR_CODE, toErrorInfo, UnknownTool, type ErrorInfo } from "../domain/errors.js"
import type { ToolRegistry } from "../runtime/registry.js"
import { runTool, type ToolResponse } from "../runtime/runTool.js"
import type { AnyToolDefinition, ToolServices } from "../runtime/tool.js"
import { Progress } from "../services/Progress.js"

export const SERVER_NAME = "browser-workflow-mcp"
export const SERVER_VERSION = "0.1.0"

export const instructions = (prefix: string) => {
  const p = prefix === "" ? "" : `${prefix}_`
  return [
    "Drive a real Chromium browser (a web app or a Chrome extension) and remember what worked.",
    `Workflow: ${p}launch starts a session; ${p}describe_screen shows the active tab (state, visible test ids, accessibility nodes with refs e1, e2...) and what earlier sessions did on this screen;`,
    `act with ${p}click / ${p}type / ${p}wait_for / ${p}get_text targeting exactly one of a11yRef, testId or selector (optionally within a parent);`,
    "each action's response carries an observation of the page afterwards, so you rarely need another describe call.",
    `When you know several next steps, send them in one ${p}run_steps call (includeObservations "none" is fastest).`,
    `Use ${p}navigate to load pages, the tab tools (${p}list_tabs, ${p}switch_to_tab, ${p}wait_for_notification) for popups, ${p}screenshot for evidence, ${p}knowledge_search / ${p}knowledge_summarize to reuse what worked before, and ${p}cleanup when done.`,
    "Every response is an envelope {ok, result | error{code, message}, meta}; error messages say how to recover (e.g. a stale ref lists the current refs)."
  ].join(" ")
}

/** JSON Schema for MCP: object root, no $ref at the root, defaults not required. */
export const toJsonSchema = (schema: Schema.Schema.Any): Tool["inputSchema"] => {
  // Effect gives every Schema.Unknown the same "$id"; two in one tool schema make the SDK client's
  // validator (Ajv) reject the whole tools/list, so the ids go.
  const json = JSON.parse(
    JSON.stringify(JSONSchema.make(schema), (key, value) => (key === "$id" && value === "/schemas/unknown" ? undefined : value))
  ) as Record<string, unknown>
  delete json.$schema
  // An empty struct comes out as "any object or array"; MCP wants an object root.
  if (json.type !== "object") return { type: "object", properties: {}, additionalProperties: false }
  return json as Tool["inputSchema"]
}

/** The tools/list entry of a tool. */
export const describeTool = (registry: ToolRegistry, tool: AnyToolDefinition): Tool => ({
  name: registry.servedName(tool),
  title: tool.title,
  description: tool.description,
  inputSchema: toJsonSchema(tool.input),
  outputSchema: toJsonSchema(envelopeSchema(tool.output)) as Tool["outputSchema"],
  annotations: {
    title: tool.title,
    readOnlyHint: tool.annotations.readOnly,
    destructiveHint: tool.annotations.destructive,
    idempotentHint: tool.annotations.idempotent,
    openWorldHint: tool.annotations.openWorld
  }
})

/** An envelope as a CallToolResult: the JSON as text (for every client) and as structured content. */
export const toCallToolResult = (response: ToolResponse): CallToolResult => ({
  content: [
    { type: "text", text: JSON.stringify(response.envelope) },
    ...response.attachments.map((attachment) => ({ ...attachment }))
  ],
  structuredContent: response.envelope as unknown as Record<string, unknown>,
  isError: !response.envelope.ok
})

/** A failure answered by the MCP layer itself, outside any tool. */
const failureResponse = (error: ErrorInfo): ToolResponse => ({
  envelope: { ok: false, error, meta: { timestamp: new Date().toISOString(), durationMs: 0 } },
  attachments: []
})

/**
 * Request `_meta` key with which a client sets one call's observation policy ("default", "none" or
 * "failures"), e.g. to skip the page observation on calls whose result is all it needs.
 */
export const OBSERVATION_META_KEY = "browser-workflow-mcp/observation"

const isPolicy = (value: unknown): value is "default" | "none" | "failures" =>
  value === "default" || value === "none" || value === "failures"

export interface McpServerOptions {
  /** Observation policy for every call that does not ask for one; each tool's own when absent. */
  readonly observation?: "default" | "none" | "failures" | undefined
}

/** Builds the SDK server for a registry, running every call on the given runtime. */
export const makeMcpServer = <R extends ToolServices, ER>(
  registry: ToolRegistry,
  runtime: ManagedRuntime.ManagedRuntime<R, ER>,
  options: McpServerOptions = {}
): Server => {
  const defaultPolicy = options.observation
  const server = new Server(
    { name: SERVER_NAME, version: SERVER_VERSION, title: "Browser Workflow MCP" },
    { capabilities: { tools: {}, logging: {} }, instructions: instructions(registry.prefix) }
  )
  const listed = registry.tools.map((tool) => describeTool(registry, tool))

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed }))

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = registry.lookup(request.params.name)
    if (tool === undefined) {
      const unknown = new UnknownTool({ tool: request.params.name, available: registry.tools.map(registry.servedName) })
      return toCallToolResult(failureResponse(toErrorInfo(unknown)))
    }
    const progressToken = request.params._meta?.progressToken
    const requested = request.params._meta?.[OBSERVATION_META_KEY]
    const policy = isPolicy(requested) ? requested : defaultPolicy
    const call = runTool(tool)(request.params.arguments ?? {}, { policy }) as Effect.Effect<ToolResponse, never, R | Progress>
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
    // The client's cancellation aborts extra.signal, which interrupts the fiber and with it the browser action.
    const exit = await runtime.runPromiseExit(program, { signal: extra.signal })
    if (Exit.isSuccess(exit)) return toCallToolResult(exit.value)
    if (Cause.isInterruptedOnly(exit.cause)) {
      return toCallToolResult(failureResponse({ code: "MM_CANCELLED", message: "The call was cancelled by the client." }))
    }
    await runtime.runPromise(Effect.logError("tool call failed outside runTool", Cause.pretty(exit.cause)) as Effect.Effect<void, never, R>)
    return toCallToolResult(
      failureResponse({ code: INTERNAL_ERROR_CODE, message: "Internal error in the server; the details went to its log (stderr)." })
    )
  })

  return server
}

/** Serves the registry over stdio until stdin closes; resolves when the connection closed. */
export const serveStdio = async <R extends ToolServices, ER>(
  registry: ToolRegistry,
  runtime: ManagedRuntime.ManagedRuntime<R, ER>,
  options: McpServerOptions = {}
): Promise<void> => {
  const server = makeMcpServer(registry, runtime, options)
  const transport = new StdioServerTransport()
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve()
    process.stdin.once("end", () => resolve())
    process.stdin.once("close", () => resolve())
  })
  await server.connect(transport)
  await closed
}
