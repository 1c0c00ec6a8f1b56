#!/usr/bin/env node
// The browser-workflow-mcp command: parse flags, build the app layer once, serve MCP over stdio or HTTP.
import * as module from "node:module"

// On Node 22.1+, compiled code of every module loaded from here on is cached on disk: later starts skip
// compiling (the server is spawned at the start of every conversation). Older Node lacks it.
;(module as { readonly enableCompileCache?: () => unknown }).enableCompileCache?.()
void import("./cli.js").then(({ runCli }) => runCli(process.argv.slice(2)))
