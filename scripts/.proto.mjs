import { build } from "esbuild"
import { rmSync } from "node:fs"
const outdir = "/work/wt/clean/.proto-bin/"
rmSync(outdir, { recursive: true, force: true })
const common = { bundle: true, platform: "node", target: "node20", external: ["playwright", "playwright-core"], minify: true, sourcemap: "linked", sourcesContent: false, legalComments: "linked", logLevel: "warning" }
await build({ ...common, entryPoints: { "browser-workflow-mcp": "/work/wt/clean/src/cli.ts" }, outdir, outExtension: { ".js": ".cjs" }, format: "cjs",
  define: { "import.meta.url": "__bwmImportMetaUrl" }, banner: { js: 'const __bwmImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' } })
await build({ ...common, entryPoints: { "browser-workflow-mcp": "/work/wt/clean/src/bin.ts" }, outdir, format: "esm", external: [...common.external, "./browser-workflow-mcp.cjs"] })
