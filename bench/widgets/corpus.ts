// The widget corpus of bench/widgets: pages that use real widget libraries from their distributed builds
// (installed as dev dependencies, served from node_modules on 127.0.0.1 as they ship: UMD/ESM bundles and
// CSS), plus two esbuild bundles built once at start for the libraries that ship only bare-import ESM
// (@material/web, codemirror 6, the React pages). Every page reports its widget's state, read through the widget's own API
// (`window.benchState()`), to the server whenever it changes: the bench judges a task by that report,
// never by what a contender answered.
import * as fs from "node:fs"
import type * as http from "node:http"
import * as path from "node:path"
import * as esbuild from "esbuild"
import { listenLoopback, pathOf, send, type RunningServer } from "../../demo/serve.js"
import { root } from "../support.js"

/** The packages pages may load files of, each from its own folder in node_modules. */
const PACKAGES = [
  "@shoelace-style/shoelace",
  "flatpickr",
  "air-datepicker",
  "tom-select",
  "choices.js",
  "quill",
  "ag-grid-community",
  "tabulator-tables",
  "sortablejs",
  "@ionic/core",
  "jquery",
  "jquery-ui",
  "select2",
  "jstree",
  "nouislider",
  "tinymce",
  "handsontable",
  "bootstrap",
  "react-datepicker",
  "monaco-editor",
  "@fluentui/web-components"
] as const

const TYPES: Readonly<Record<string, string>> = {
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".css": "text/css",
  ".svg": "image/svg+xml",
  ".json": "application/json",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".png": "image/png",
  ".gif": "image/gif"
}

/** Bundles of the libraries that ship only ESM with bare imports: built once, in memory. */
const buildBundles = async (more: Readonly<Record<string, string>>): Promise<Record<string, string>> => {
  const bundle = async (contents: string) => {
    const result = await esbuild.build({
      stdin: { contents, resolveDir: root, loader: "js" },
      bundle: true,
      write: false,
      format: "iife",
      minify: true,
      define: { "process.env.NODE_ENV": '"production"' },
      logLevel: "silent"
    })
    return result.outputFiles[0]!.text
  }
  const extra = await Promise.all(Object.entries(more).map(async ([at, contents]) => [at, await bundle(contents)] as const))
  return {
    ...Object.fromEntries(extra),
    "/bundle/material.js": await bundle(
      `import "@material/web/checkbox/checkbox.js"; import "@material/web/switch/switch.js";`
    ),
    "/bundle/codemirror.js": await bundle(
      `import { EditorView, basicSetup } from "codemirror"; window.CM = { EditorView, basicSetup };`
    ),
    "/bundle/react-select.js": await bundle(
      `import * as React from "react"; import { createRoot } from "react-dom/client"; import Select from "react-select"; window.RS = { React, createRoot, Select };`
    ),
    "/bundle/radix-select.js": await bundle(
      `import * as React from "react"; import { createRoot } from "react-dom/client"; import * as Select from "@radix-ui/react-select"; window.RX = { React, createRoot, Select };`
    ),
    "/bundle/mui.js": await bundle(
      `import * as React from "react"; import { createRoot } from "react-dom/client"; import { Autocomplete, FormControl, InputLabel, MenuItem, Select, TextField } from "@mui/material";
       window.MUI = { React, createRoot, M: { Autocomplete, FormControl, InputLabel, MenuItem, Select, TextField } };`
    ),
    "/bundle/react-datepicker.js": await bundle(
      `import * as React from "react"; import { createRoot } from "react-dom/client"; import DatePicker from "react-datepicker"; window.RD = { React, createRoot, DatePicker };`
    )
  }
}

/** The latest state a page reported, by run id and part ("main", or "frame" for a framed page). */
export interface Report {
  readonly at: number
  readonly state: unknown
}

export interface WidgetCorpus {
  /** The pages' origin. */
  readonly url: string
  /** A second origin serving the same pages (for cross-origin frames). */
  readonly otherUrl: string
  readonly reportOf: (run: string, part: string) => Report | undefined
  readonly close: () => Promise<void>
}

/** The script every page runs: reports `benchState()` to its own origin whenever it changes. */
const REPORTER = `<script>
(() => {
  const params = new URLSearchParams(location.search)
  const run = params.get("run") || "none", part = params.get("part") || "main"
  let last = ""
  const tick = () => {
    let state
    try { state = JSON.stringify(window.benchState ? window.benchState() : null) } catch (error) { state = JSON.stringify({ error: String(error) }) }
    if (state === last) return
    last = state
    fetch("/__state?run=" + encodeURIComponent(run) + "&part=" + part, { method: "POST", body: state, keepalive: true }).catch(() => {})
  }
  setInterval(tick, 150)
})()
</script>`

/** A page: its title, what goes in the head, the body. The reporter comes first so a broken page still reports. */
export const page = (title: string, head: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${REPORTER}${head}</head><body>${body}</body></html>`

export const css = (href: string) => `<link rel="stylesheet" href="${href}">`
export const js = (src: string) => `<script src="${src}"></script>`

const serveFile = (file: string, response: http.ServerResponse): boolean => {
  const type = TYPES[path.extname(file)] ?? "application/octet-stream"
  try {
    return send(response, 200, type, fs.readFileSync(file))
  } catch {
    return send(response, 404, "text/plain", "not found")
  }
}

/** Serves `pages` (path to HTML), the packages' files under /lib/<package>/, the bundles (and those of `more`: path to entry source), and the state reports. */
export const serveWidgetCorpus = async (pages: Readonly<Record<string, string>>, more: Readonly<Record<string, string>> = {}): Promise<WidgetCorpus> => {
  const bundles = await buildBundles(more)
  const reports = new Map<string, Report>()
  const handler: http.RequestListener = (request, response) => {
    const pathname = pathOf(request)
    const url = new URL(request.url ?? "/", "http://127.0.0.1")
    if (pathname === "/__state" && request.method === "POST") {
      let body = ""
      request.setEncoding("utf8")
      request.on("data", (chunk: string) => (body += chunk))
      request.on("end", () => {
        try {
          reports.set(`${url.searchParams.get("run")}:${url.searchParams.get("part")}`, { at: Date.now(), state: JSON.parse(body) })
        } catch {
          // A report that is not JSON is no report.
        }
        send(response, 204, "text/plain", "")
      })
      return
    }
    const bundle = bundles[pathname]
    if (bundle !== undefined) return void send(response, 200, "text/javascript", bundle)
    const html = pages[pathname]
    if (html !== undefined) return void send(response, 200, "text/html; charset=utf-8", html)
    if (pathname.startsWith("/lib/")) {
      const rest = decodeURIComponent(pathname.slice("/lib/".length))
      const name = PACKAGES.find((candidate) => rest.startsWith(candidate + "/"))
      if (name !== undefined) {
        const base = path.join(root, "node_modules", name)
        const file = path.resolve(base, rest.slice(name.length + 1))
        if (file.startsWith(base + path.sep)) return void serveFile(file, response)
      }
    }
    if (pathname === "/favicon.ico") return void send(response, 204, "text/plain", "")
    send(response, 404, "text/plain", "not found")
  }
  const main: RunningServer = await listenLoopback(handler)
  const other: RunningServer = await listenLoopback(handler)
  return {
    url: main.url,
    otherUrl: other.url,
    reportOf: (run, part) => reports.get(`${run}:${part}`),
    close: async () => {
      await Promise.all([main.close(), other.close()])
    }
  }
}
