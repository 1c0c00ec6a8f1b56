// The widget corpus of bench/widgets: pages that use real widget libraries from their distributed builds
// (installed as dev dependencies, served from node_modules on 127.0.0.1 as they ship: UMD/ESM bundles and
// CSS), plus two esbuild bundles built once at start for the libraries that ship only bare-import ESM
// (@material/web, codemirror 6, the React pages). Every page answers its widget's state, read through the widget's own API
// (`window.benchState()`), over a WebSocket when the server asks after the attempt: the bench judges a
// task by that report, never by what a contender answered.
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as http from "node:http"
import type { AddressInfo, Socket } from "node:net"
import * as path from "node:path"
import * as esbuild from "esbuild"
import { pathOf, send } from "../../demo/serve.js"
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
  "@fluentui/web-components",
  "@mantine/core",
  "@mantine/dates",
  "primereact",
  "vue",
  "vuetify",
  "react-day-picker",
  "element-plus",
  "pikaday",
  "dragula",
  "interactjs"
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

/** A script importing installed packages by their bare names, as one minified script a page can load (in memory). */
export const bundle = async (contents: string): Promise<string> => {
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

/** Bundles of the libraries that ship only ESM with bare imports: built once, in memory. */
const buildBundles = async (more: Readonly<Record<string, string>>): Promise<Record<string, string>> => {
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

/** The state a page reported when asked, by run id and part ("main", or "frame" for a framed page). */
export interface Report {
  readonly state: unknown
}

export interface WidgetCorpus {
  /** The pages' origin. */
  readonly url: string
  /** A second origin serving the same pages (for cross-origin frames). */
  readonly otherUrl: string
  /** Asks the page of the run's part for its state (undefined: no such page is open, or it did not answer within 3 s). */
  readonly reportOf: (run: string, part: string) => Promise<Report | undefined>
  readonly close: () => Promise<void>
}

/**
 * The script every page runs: answers `benchState()` over a WebSocket to its own origin when the bench asks
 * (once, after the attempt). Nothing runs in the page meanwhile: no timer, no request, which either
 * server's settling would count as the page's activity (a report POSTed every 150 ms did).
 */
const REPORTER = `<script>
(() => {
  const params = new URLSearchParams(location.search)
  const run = params.get("run") || "none", part = params.get("part") || "main"
  const socket = new WebSocket("ws://" + location.host + "/__state?run=" + encodeURIComponent(run) + "&part=" + part)
  socket.onmessage = () => {
    let state
    try { state = JSON.stringify(window.benchState ? window.benchState() : null) } catch (error) { state = JSON.stringify({ error: String(error) }) }
    socket.send(state === undefined ? "null" : state)
  }
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
  const sockets = new Map<string, Socket>()
  // Every page's socket, the ones a later page of the same run took over too: all end at close.
  const open = new Set<Socket>()
  const handler: http.RequestListener = (request, response) => {
    const pathname = pathOf(request)
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
  const main = await listen(handler, sockets, open)
  const other = await listen(handler, sockets, open)
  return {
    url: main.url,
    otherUrl: other.url,
    reportOf: (run, part) => askState(sockets.get(`${run}:${part}`)),
    close: async () => {
      for (const socket of open) socket.destroy()
      await Promise.all([main.close(), other.close()])
    }
  }
}

/**
 * Listens on 127.0.0.1 with the handler, and takes WebSocket connections to /__state (RFC 6455, the least
 * of it: the handshake, the page's masked text frames, one unmasked text frame to it), the latest per
 * run and part.
 */
const listen = async (handler: http.RequestListener, sockets: Map<string, Socket>, open: Set<Socket>) => {
  const server = http.createServer(handler)
  server.on("upgrade", (request: http.IncomingMessage, socket: Socket) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1")
    const key = request.headers["sec-websocket-key"]
    if (url.pathname !== "/__state" || typeof key !== "string") return void socket.destroy()
    const accept = crypto.createHash("sha1").update(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest("base64")
    if (!socket.writable) return void socket.destroy()
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`)
    const id = `${url.searchParams.get("run")}:${url.searchParams.get("part")}`
    sockets.set(id, socket)
    open.add(socket)
    socket.on("error", () => socket.destroy())
    socket.on("close", () => {
      open.delete(socket)
      if (sockets.get(id) === socket) sockets.delete(id)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/** One text frame from the page, once a whole one arrived: its text, and what of `buffer` follows it. */
const frameOf = (buffer: Buffer): { readonly opcode: number; readonly text: string; readonly rest: Buffer } | undefined => {
  if (buffer.length < 2) return undefined
  const opcode = buffer[0]! & 0x0f
  const masked = (buffer[1]! & 0x80) !== 0
  let length = buffer[1]! & 0x7f
  let at = 2
  if (length === 126) {
    if (buffer.length < 4) return undefined
    length = buffer.readUInt16BE(2)
    at = 4
  } else if (length === 127) {
    if (buffer.length < 10) return undefined
    length = Number(buffer.readBigUInt64BE(2))
    at = 10
  }
  const mask = masked ? buffer.subarray(at, at + 4) : undefined
  if (masked) at += 4
  if (buffer.length < at + length) return undefined
  const payload = Buffer.from(buffer.subarray(at, at + length))
  if (mask !== undefined) for (let i = 0; i < payload.length; i++) payload[i]! ^= mask[i % 4]!
  return { opcode, text: payload.toString("utf8"), rest: buffer.subarray(at + length) }
}

/** Sends the page "state" and answers its reply: its benchState() as JSON; undefined without a page or a reply within 3 s. */
const askState = (socket: Socket | undefined): Promise<Report | undefined> => {
  if (socket === undefined || socket.destroyed) return Promise.resolve(undefined)
  return new Promise((resolve) => {
    let buffer: Buffer = Buffer.alloc(0)
    const done = (report: Report | undefined) => {
      clearTimeout(timer)
      socket.off("data", onData)
      resolve(report)
    }
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk])
      for (let frame = frameOf(buffer); frame !== undefined; frame = frameOf(buffer)) {
        buffer = frame.rest
        if (frame.opcode === 0x8) return done(undefined)
        if (frame.opcode !== 0x1) continue
        try {
          return done({ state: JSON.parse(frame.text) })
        } catch {
          return done(undefined)
        }
      }
    }
    const timer = setTimeout(() => done(undefined), 3_000)
    socket.on("data", onData)
    socket.write(Buffer.from([0x81, 5, ...Buffer.from("state")]))
  })
}
