// Shared pieces of the devtools tests: an HTTP server on 127.0.0.1 whose routes answer with any status,
// headers and body, a port nothing listens on, and calling tools through runTool.
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"
import type { Envelope } from "../../src/domain/envelope.js"
import { runTool, type RunOptions } from "../../src/runtime/runTool.js"
import type { AnyToolDefinition } from "../../src/runtime/tool.js"

export interface Answer {
  readonly status?: number
  readonly headers?: Readonly<Record<string, string | ReadonlyArray<string>>>
  readonly body: string
}

/** A route: a fixed answer, or one made from the request and its body. */
export type Route = Answer | ((request: http.IncomingMessage, body: string) => Answer)

export interface Served {
  readonly url: (path: string) => string
  readonly origin: string
  /** Requests the server received, by path. */
  readonly hits: (path: string) => number
}

/** Serves the routes on 127.0.0.1 for the scope; unknown paths answer 404. HTML pages get no-store. */
export const serveRoutes = (routes: Readonly<Record<string, Route>>) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const hits = new Map<string, number>()
      const server = http.createServer((request, response) => {
        const url = new URL(request.url ?? "/", "http://127.0.0.1")
        hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1)
        let body = ""
        request.setEncoding("utf8")
        request.on("data", (chunk: string) => (body += chunk))
        request.on("end", () => {
          const route = routes[url.pathname]
          if (route === undefined) {
            response.writeHead(404, { "content-type": "text/plain" }).end("not found")
            return
          }
          const answer = typeof route === "function" ? route(request, body) : route
          response.writeHead(answer.status ?? 200, { "cache-control": "no-store", ...answer.headers }).end(answer.body)
        })
      })
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
      const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const served: Served = { url: (path) => `${origin}${path}`, origin, hits: (path) => hits.get(path) ?? 0 }
      return { server, served }
    }),
    ({ server }) =>
      Effect.promise(
        () =>
          new Promise<void>((resolve) => {
            server.closeAllConnections()
            server.close(() => resolve())
          })
      )
  ).pipe(Effect.map(({ served }) => served))

/** A port of 127.0.0.1 that nothing listens on (it was free a moment ago). */
export const closedPort = () =>
  Effect.promise(
    () =>
      new Promise<number>((resolve) => {
        const probe = http.createServer()
        probe.listen(0, "127.0.0.1", () => {
          const { port } = probe.address() as AddressInfo
          probe.close(() => resolve(port))
        })
      })
  )

export const htmlPage = (title: string, body: string): Answer => ({
  headers: { "content-type": "text/html; charset=utf-8" },
  body: `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`
})

export const json = (value: unknown, extra: Partial<Answer> = {}): Answer => ({
  ...extra,
  headers: { "content-type": "application/json", ...extra.headers },
  body: JSON.stringify(value)
})

/** The envelope of one call through runTool. */
export const call = (tool: AnyToolDefinition, args: Record<string, unknown> = {}, options?: RunOptions) =>
  Effect.map(runTool(tool)(args, options), (response) => response.envelope as Envelope<any> & { result?: any; error?: any })
