// Real third-party apps (installed as dev dependencies) and hand-made tricky pages, served on
// 127.0.0.1 for the page tests: Swagger UI with a local OpenAPI spec and API, TodoMVC (React, Vue).
import { Effect } from "effect"
import { answerPage, listenLoopback, send, type RunningServer } from "../../demo/serve.js"
import { serveThirdParty } from "../../demo/third-party-apps.js"

export { openApiSpec } from "../../demo/third-party-apps.js"

export type Corpus = RunningServer

/**
 * A response header that puts the pages' origin in a process of its own when another origin frames them:
 * 127.0.0.1 on another port is the same site (one process even with site isolation, and
 * `--isolate-origins` does not take an IP address with a port), but an origin-keyed agent cluster is
 * isolated by origin.
 */
export const ORIGIN_KEYED = { "origin-agent-cluster": "?1" } as const

/** Serves the corpus plus `pages` (path to HTML) on 127.0.0.1, the pages with the given extra headers. */
export const serveCorpus = (pages: Readonly<Record<string, string>> = {}, headers: Readonly<Record<string, string>> = {}): Promise<Corpus> =>
  listenLoopback((request, response) => {
    if (!answerPage(pages, request, response, headers) && !serveThirdParty(request, response)) send(response, 404, "text/plain", "not found")
  })

/** The corpus for the scope of a test. */
export const corpusServer = (pages: Readonly<Record<string, string>> = {}, headers: Readonly<Record<string, string>> = {}) =>
  Effect.acquireRelease(
    Effect.promise(() => serveCorpus(pages, headers)),
    (server) => Effect.promise(() => server.close())
  )
