#!/usr/bin/env node
// Bundles the command into dist/bin with esbuild, tree-shaken and minified, so a client's spawn parses a
// fraction of Effect and the MCP SDK instead of importing their full module graphs (1.1 s to --help
// unbundled, ~0.2 s bundled). Two files:
// - browser-workflow-mcp.cjs: the server (src/cli.ts and all it loads, the subcommands and HTTP too), as
//   one CommonJS file, because CommonJS is what V8's code cache can serve on Node 20 (no compile cache
//   for ESM before 22.1): with it a spawn skips compiling the bundle.
// - browser-workflow-mcp.js: the entry (src/bin.ts), ESM, which requires the server through the cache.
// - browser-workflow-mcp-call.cjs: the `call` subcommand alone (src/cli/call.ts and the MCP client), which the
//   entry requires instead of the server: a script's call spawns every time, and loading the server for it
//   cost ~0.6 s a call.
// Playwright stays external: it loads only when a browser launches. The library (dist/src, by tsc) is
// unchanged.
import { build } from "esbuild"
import { rmSync } from "node:fs"

const outdir = new URL("../dist/bin/", import.meta.url).pathname
const source = (file) => new URL(`../src/${file}`, import.meta.url).pathname
const SERVER = "./browser-workflow-mcp.cjs"
const CALL = "./browser-workflow-mcp-call.cjs"
rmSync(outdir, { recursive: true, force: true })
const common = {
  outdir,
  bundle: true,
  platform: "node",
  target: "node20",
  external: ["playwright", "playwright-core"],
  minify: true,
  sourcemap: "linked",
  sourcesContent: false,
  legalComments: "linked",
  logLevel: "warning"
}
await build({
  ...common,
  entryPoints: { "browser-workflow-mcp": source("cli.ts") },
  format: "cjs",
  outExtension: { ".js": ".cjs" },
  // import.meta.url (Playwright's require in adapters/playwright/calls.ts) is this file's URL, as in ESM.
  define: { "import.meta.url": "__bwmImportMetaUrl" },
  banner: { js: 'const __bwmImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' }
})
await build({
  ...common,
  entryPoints: { "browser-workflow-mcp-call": source("cli/call.ts") },
  format: "cjs",
  outExtension: { ".js": ".cjs" }
})
await build({
  ...common,
  entryPoints: { "browser-workflow-mcp": source("bin.ts") },
  format: "esm",
  external: [...common.external, SERVER, CALL]
})
