#!/usr/bin/env node
// `npm run demo`'s and `npm test`'s build: runs `npm run build` only when dist is missing or older than what it is built from,
// so a demo after `npm install` (whose prepare built) or after another demo starts at once. On a fresh clone,
// or after an edit under src/, demo/, bench/, examples/ or a build script, it builds as before.
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

/** What the demo runs; the build writes them last (the command's bundle) or with the library (tsc). */
export const BUILT = ["dist/bin/browser-workflow-mcp.js", "dist/demo/run-demo.js"]

/** What the build reads: a file or any file below a folder. */
export const SOURCES = ["src", "demo", "bench", "examples", "scripts/bundle.mjs", "scripts/bundle-page.mjs", "package.json", "tsconfig.json", "tsconfig.build.json"]

/** The newest file at or below `file`: [path, mtime ms]; undefined when there is none. */
const newest = (file) => {
  let stat
  try {
    stat = fs.statSync(file)
  } catch {
    return undefined
  }
  if (!stat.isDirectory()) return [file, stat.mtimeMs]
  let best
  for (const entry of fs.readdirSync(file)) {
    if (entry === "node_modules") continue
    const found = newest(path.join(file, entry))
    if (found !== undefined && (best === undefined || found[1] > best[1])) best = found
  }
  return best
}

/** Why the build in `root` is stale ("dist/... is missing", "src/x.ts is newer than the build"); undefined when it is fresh. */
export const staleReason = (root) => {
  let built = Infinity
  for (const file of BUILT) {
    const found = newest(path.join(root, file))
    if (found === undefined) return `${file} is missing`
    built = Math.min(built, found[1])
  }
  for (const source of SOURCES) {
    const found = newest(path.join(root, source))
    if (found !== undefined && found[1] > built) return `${path.relative(root, found[0])} is newer than the build`
  }
  return undefined
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
  const why = staleReason(root)
  if (why === undefined) {
    process.stderr.write("build-if-stale: dist is newer than its sources; not rebuilding\n")
  } else {
    process.stderr.write(`build-if-stale: ${why}; building\n`)
    execFileSync(process.platform === "win32" ? "npm.cmd" : "npm", ["run", "build"], { cwd: root, stdio: "inherit" })
  }
}
