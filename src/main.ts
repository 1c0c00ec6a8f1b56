#!/usr/bin/env node
// The browser-workflow-mcp command: parse flags, build the app layer once, serve MCP over stdio.
import { runCli } from "./cli.js"

void runCli(process.argv.slice(2))
