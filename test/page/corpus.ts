// Real third-party apps (installed as dev dependencies) and hand-made tricky pages, served on
// 127.0.0.1 for the page tests: Swagger UI with a local OpenAPI spec and API, TodoMVC (React, Vue).
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { Effect } from "effect"
import { send, serveThirdParty } from "../../demo/third-party-apps.js"

export { openApiSpec } from "../../demo/third-party-apps.js"

export interface Corpus {
  readonly url: string
  readonly close: () => Promise<void>
}

/**
 * A response header that puts the pages' origin in a process of its own when another origin frames them:
 * 127.0.0.1 on another port is the same site (one process even with site isolation, and
 * `--isolate-origins` does not take an IP address with a port), but an origin-keyed agent cluster is
 * isolated by origin.
 */
export const ORIGIN_KEYED = { "origin-agent-cluster": "?1" } as const

/** Serves the corpus plus `pages` (path to HTML) on 127.0.0.1, the pages with the given extra headers. */
export const serveCorpus = async (pages: Readonly<Record<string, string>> = {}, headers: Readonly<Record<string, string>> = {}): Promise<Corpus> => {
  const server = http.createServer((request, response) => {
    const p = new URL(request.url ?? "/", "http://127.0.0.1").pathname
    if (pages[p] !== undefined) {
      for (const [name, value] of Object.entries(headers)) response.setHeader(name, value)
      return send(response, 200, "text/html; charset=utf-8", pages[p]!)
    }
    if (!serveThirdParty(request, response)) send(response, 404, "text/plain", "not found")
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/** The corpus for the scope of a test. */
export const corpusServer = (pages: Readonly<Record<string, string>> = {}) =>
  Effect.acquireRelease(
    Effect.promise(() => serveCorpus(pages)),
    (server) => Effect.promise(() => server.close())
  )
