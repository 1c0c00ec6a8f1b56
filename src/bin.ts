#!/usr/bin/env node
// The installed command's entry (dist/bin, built by scripts/bundle.mjs; src/main.ts is the same command
// unbundled, in dist/src). The server is one CommonJS bundle beside this file, required through V8's
// code cache (src/adapters/playwright/lifecycle/code-cache.ts): Node 20 compiles ESM afresh at every spawn, with
// no compile cache before 22.1, and compiling the bundle was about a third of what a client waits for
// tools/list. The cache is kept by a process that serves, with the bytecode of everything it ran up to
// two seconds in (or its exit), so the next spawn runs the handshake without compiling it.
import * as module from "node:module"
import { loadWithCodeCache } from "./adapters/playwright/lifecycle/code-cache.js"

/** The server bundle, beside this file in dist/bin; and `call`'s, which needs none of the server. */
const SERVER_BUNDLE = "./browser-workflow-mcp.cjs"
const CALL_BUNDLE = "./browser-workflow-mcp-call.cjs"

// On Node 22.1+ Node caches compiled code itself (and loadWithCodeCache stands aside).
;(module as { readonly enableCompileCache?: () => unknown }).enableCompileCache?.()
const require = module.createRequire(import.meta.url)
const argv = process.argv.slice(2)
if (argv[0] === "call") {
  const call = require(CALL_BUNDLE) as Pick<typeof import("./cli.js"), "runCall">
  void call.runCall(argv.slice(1), process.env).then((code) => {
    process.exitCode = code
  })
} else {
  const server = loadWithCodeCache(() => require(SERVER_BUNDLE) as typeof import("./cli.js"))
  void server.value.runCli(argv, server.save)
}
