// Real third-party apps (installed as dev dependencies) and hand-made tricky pages, served on
// 127.0.0.1 for the page tests: Swagger UI with a local OpenAPI spec and API, TodoMVC (React, Vue).
import * as fs from "node:fs"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")
const modules = path.join(root, "node_modules")

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".png": "image/png",
  ".map": "application/json"
}

/** The OpenAPI document Swagger UI shows: its "Try it out" calls the API below, on the same server. */
export const openApiSpec = {
  openapi: "3.0.3",
  info: { title: "Planets API", version: "1.0.0", description: "A small API of planets, served by the test." },
  servers: [{ url: "/api" }],
  paths: {
    "/planets": {
      get: {
        summary: "Get all planets",
        operationId: "listPlanets",
        parameters: [{ name: "limit", in: "query", description: "How many planets", schema: { type: "integer", default: 3 } }],
        responses: { "200": { description: "The planets", content: { "application/json": { schema: { type: "array", items: { $ref: "#/components/schemas/Planet" } } } } } }
      },
      post: {
        summary: "Add a planet",
        operationId: "addPlanet",
        requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/Planet" } } } },
        responses: { "201": { description: "Created" } }
      }
    },
    "/planets/{id}": {
      get: {
        summary: "Get one planet",
        operationId: "getPlanet",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
        responses: { "200": { description: "The planet" }, "404": { description: "No such planet" } }
      },
      delete: {
        summary: "Remove a planet",
        operationId: "removePlanet",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }],
        responses: { "204": { description: "Removed" } }
      }
    }
  },
  components: {
    schemas: {
      Planet: { type: "object", properties: { id: { type: "integer" }, name: { type: "string" }, moons: { type: "integer" } } }
    }
  }
}

const PLANETS = ["Mercury", "Venus", "Earth", "Mars", "Jupiter", "Saturn", "Uranus", "Neptune"].map((name, i) => ({
  id: i + 1,
  name,
  moons: [0, 0, 1, 2, 95, 146, 28, 16][i]
}))

const swaggerPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Planets API - Swagger UI</title>
<link rel="stylesheet" href="/swagger/swagger-ui.css"></head><body><div id="swagger-ui"></div>
<script src="/swagger/swagger-ui-bundle.js"></script><script src="/swagger/swagger-ui-standalone-preset.js"></script>
<script>window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true,
presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: "StandaloneLayout", validatorUrl: null })</script></body></html>`

export interface Corpus {
  readonly url: string
  readonly close: () => Promise<void>
}

/** Serves the corpus plus `pages` (path to HTML) on 127.0.0.1. */
export const serveCorpus = async (pages: Readonly<Record<string, string>> = {}): Promise<Corpus> => {
  const send = (response: http.ServerResponse, status: number, type: string, body: string | Buffer) =>
    response.writeHead(status, { "content-type": type, "cache-control": "no-store" }).end(body)
  const sendFile = (response: http.ServerResponse, base: string, relative: string) => {
    const file = path.resolve(base, "." + relative)
    if (!file.startsWith(base) || !fs.existsSync(file) || !fs.statSync(file).isFile()) return send(response, 404, "text/plain", "not found")
    send(response, 200, TYPES[path.extname(file)] ?? "application/octet-stream", fs.readFileSync(file))
  }
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1")
    const p = url.pathname
    if (pages[p] !== undefined) return send(response, 200, "text/html; charset=utf-8", pages[p]!)
    if (p === "/swagger" || p === "/swagger/") return send(response, 200, "text/html; charset=utf-8", swaggerPage)
    if (p === "/openapi.json") return send(response, 200, "application/json", JSON.stringify(openApiSpec))
    if (p === "/api/planets") {
      const limit = Math.max(0, Math.min(PLANETS.length, Number(url.searchParams.get("limit") ?? 3) || 0))
      return send(response, 200, "application/json", JSON.stringify(PLANETS.slice(0, limit)))
    }
    if (p.startsWith("/swagger/")) return sendFile(response, path.join(modules, "swagger-ui-dist"), p.slice("/swagger".length))
    if (p.startsWith("/todomvc/")) {
      const relative = p.endsWith("/") ? `${p}index.html` : p
      return sendFile(response, path.join(modules, "todomvc", "examples"), relative.slice("/todomvc".length))
    }
    send(response, 404, "text/plain", "not found")
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
