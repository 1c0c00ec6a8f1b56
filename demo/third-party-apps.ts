// Real third-party apps installed as dev dependencies, served on 127.0.0.1 by the page tests and the
// agent benchmark: Swagger UI with a local OpenAPI spec whose "Try it out" calls a local API, and TodoMVC.
import * as fs from "node:fs"
import type * as http from "node:http"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { send } from "./serve.js"

/** The package root: the nearest directory above this file (source or built) with a node_modules. */
const root = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url))
  while (!fs.existsSync(path.join(dir, "node_modules")) && path.dirname(dir) !== dir) dir = path.dirname(dir)
  return dir
})()
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

export const swaggerPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Planets API - Swagger UI</title>
<link rel="stylesheet" href="/swagger/swagger-ui.css"></head><body><div id="swagger-ui"></div>
<script src="/swagger/swagger-ui-bundle.js"></script><script src="/swagger/swagger-ui-standalone-preset.js"></script>
<script>window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true,
presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: "StandaloneLayout", validatorUrl: null })</script></body></html>`

/**
 * Answers a request for one of the apps: Swagger UI at /swagger/ (its spec at /openapi.json, its API at
 * /api/planets?limit=N), TodoMVC at /todomvc/<framework>/. False when the path is none of theirs.
 */
export const serveThirdParty = (request: http.IncomingMessage, response: http.ServerResponse): boolean => {
  const url = new URL(request.url ?? "/", "http://127.0.0.1")
  const p = url.pathname
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
  return false
}

/** Sends a response; true, for serveThirdParty's answer. */
const sendFile = (response: http.ServerResponse, base: string, relative: string): true => {
  const file = path.resolve(base, "." + relative)
  if (!file.startsWith(base) || !fs.existsSync(file) || !fs.statSync(file).isFile()) return send(response, 404, "text/plain", "not found")
  return send(response, 200, TYPES[path.extname(file)] ?? "application/octet-stream", fs.readFileSync(file))
}
