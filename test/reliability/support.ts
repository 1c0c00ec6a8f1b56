// Shared pieces of the reliability suite: a page server with a slow route, calls through runTool, and
// measured figures printed for the report (acceptance limits are generous; the figures are the news).
import type * as http from "node:http"
import { Arbitrary, Duration, Effect, FastCheck as fc } from "effect"
import { answerPage, listenLoopback, pathOf, send, type RunningServer } from "../../demo/serve.js"
import type { Envelope } from "../../src/domain/envelope.js"
import { runTool, type RunOptions } from "../../src/runtime/runTool.js"
import type { AnyToolDefinition } from "../../src/runtime/tool.js"

/** Prints one measured figure on stderr, as `[reliability] name: value`, for the lead's report. */
export const figure = (name: string, value: string | number) => {
  process.stderr.write(`[reliability] ${name}: ${value}\n`)
}

export const call = (tool: AnyToolDefinition, args: Record<string, unknown> = {}, options?: RunOptions) =>
  Effect.map(runTool(tool)(args, options), (response) => response.envelope as Envelope<any>)

/** A call and how long it took. */
export const timed = (tool: AnyToolDefinition, args: Record<string, unknown> = {}, options?: RunOptions) =>
  Effect.map(Effect.timed(call(tool, args, options)), ([duration, envelope]) => ({ envelope, ms: Math.round(Duration.toMillis(duration)) }))

export const codeOf = (envelope: Envelope<any>) => (envelope.ok ? "ok" : envelope.error?.code)

export type SlowServer = RunningServer

/**
 * Pages on 127.0.0.1; `/slow` answers after 30 s (or when the server closes), as the slow
 * server did. Everything else is a page from `pages`.
 */
export const serveWithSlowRoute = (pages: Readonly<Record<string, string>>): Promise<SlowServer> => {
  const waiting = new Set<http.ServerResponse>()
  return listenLoopback(
    (request, response) => {
      if (pathOf(request) === "/slow") {
        waiting.add(response)
        const timer = setTimeout(() => send(response, 200, "text/html", "<title>Slow</title>slow"), 30_000)
        response.on("close", () => (clearTimeout(timer), waiting.delete(response)))
        return
      }
      if (!answerPage(pages, request, response)) send(response, 404, "text/plain", "not found")
    },
    () => {
      for (const response of waiting) response.destroy()
    }
  )
}

export const slowServer = (pages: Readonly<Record<string, string>>) =>
  Effect.acquireRelease(
    Effect.promise(() => serveWithSlowRoute(pages)),
    (server) => Effect.promise(() => server.close())
  )

/** The server's resident memory in MB. */
export const rssMb = () => Math.round(process.memoryUsage().rss / 1024 / 1024)

/** Fuzzed arguments for a tool: mostly from its schema, some anything at all. */
export const argumentsFor = (tool: AnyToolDefinition): fc.Arbitrary<unknown> => {
  const fromSchema = (() => {
    try {
      return Arbitrary.make(tool.input) as fc.Arbitrary<unknown>
    } catch {
      return fc.object()
    }
  })()
  return fc.oneof(
    { weight: 3, arbitrary: fromSchema },
    { weight: 1, arbitrary: fc.object({ maxDepth: 2 }) },
    { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) }
  )
}
