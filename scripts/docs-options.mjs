#!/usr/bin/env node
// Rewrites the options table of docs/configuration.md from the option table (after `npm run build`).
import { readFileSync, writeFileSync } from "node:fs"
import { withOptionsTable } from "../dist/src/cli/help.js"

const file = new URL("../docs/configuration.md", import.meta.url)
writeFileSync(file, withOptionsTable(readFileSync(file, "utf8")))
