// Serving pages on 127.0.0.1 for the demo, the benches and the tests: one listener on an ephemeral port
// of the loopback address, and one way of answering a map of path to page. It lives under demo/ because
// the demo serves its sample app with it and demo code may not import test code; tests import it here.
import * as http from "node:http"
import type { AddressInfo } from "node:net"

export interface RunningServer {
  readonly url: string
  readonly close: () => Promise<void>
}

/**
 * Listens with the handler on 127.0.0.1 and a free port. `close` runs `beforeClose` (to end responses a
 * route holds open), drops open connections and resolves once the server stopped.
 */
export const listenLoopback = async (handler: http.RequestListener, beforeClose?: () => void): Promise<RunningServer> => {
  const server = http.createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        beforeClose?.()
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/** Answers with the status, content type and body, never cached. Answers true (it handled the request). */
export const send = (response: http.ServerResponse, status: number, type: string, body: string | Buffer): true => {
  response.writeHead(status, { "content-type": type, "cache-control": "no-store" }).end(body)
  return true
}

/** The request's path, without its query. */
export const pathOf = (request: http.IncomingMessage) => new URL(request.url ?? "/", "http://127.0.0.1").pathname

/**
 * Answers a request from `pages` (path to text: JavaScript for paths ending in .js, HTML otherwise), with
 * the extra headers; `?delay=ms` answers late, as a slow server would (tests of waiting for a navigation
 * use it). Answers false, having sent nothing, when the path is not one of the pages.
 */
export const answerPage = (
  pages: Readonly<Record<string, string>>,
  request: http.IncomingMessage,
  response: http.ServerResponse,
  headers: Readonly<Record<string, string>> = {}
): boolean => {
  const url = new URL(request.url ?? "/", "http://127.0.0.1")
  const page = pages[url.pathname]
  if (page === undefined) return false
  for (const [name, value] of Object.entries(headers)) response.setHeader(name, value)
  const type = url.pathname.endsWith(".js") ? "text/javascript" : "text/html; charset=utf-8"
  const delay = Math.min(Number(url.searchParams.get("delay") ?? 0) || 0, 10_000)
  if (delay === 0) send(response, 200, type, page)
  else setTimeout(() => send(response, 200, type, page), delay)
  return true
}

/** Serves a map of path to page (HTML, or JavaScript for .js paths) on 127.0.0.1; other paths answer 404. */
export const servePages = (pages: Readonly<Record<string, string>>): Promise<RunningServer> =>
  listenLoopback((request, response) => {
    if (!answerPage(pages, request, response)) send(response, 404, "text/plain", "not found")
  })
