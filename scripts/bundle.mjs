#!/usr/bin/env node
// Bundles the command (src/main.ts) into dist/bin with esbuild: one tree-shaken file plus lazily loaded
// chunks, so a client's spawn parses a fraction of Effect and the MCP SDK instead of importing their
// full module graphs (1.1 s to --help unbundled, ~0.2 s bundled). Playwright stays external: it loads
// only when a browser launches. The library (dist/src, by tsc) is unchanged.
import { build } from "esbuild"
import { rmSync } from "node:fs"

const outdir = new URL("../dist/bin/", import.meta.url).pathname
rmSync(outdir, { recursive: true, force: true })
await build({
  entryPoints: { "browser-workflow-mcp": new URL("../src/main.ts", import.meta.url).pathname },
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: ["playwright", "playwright-core"],
  chunkNames: "chunks/[name]-[hash]",
  minify: true,
  sourcemap: "linked",
  sourcesContent: false,
  legalComments: "linked",
  logLevel: "warning",
  // CommonJS dependencies (ajv) call require(); give the ESM bundle a real one.
  banner: { js: 'import { createRequire as __bwmCreateRequire } from "node:module"; const require = __bwmCreateRequire(import.meta.url);' }
})
