// `browser-workflow-mcp report <sessionId>`: a recorded session as a self-contained HTML page, written under
// the artifacts directory (or to --out FILE); the file's path goes to stdout.
import * as path from "node:path"
import { Cause, Effect, Exit, Layer, Option } from "effect"
import { OWNER_ONLY_FILE, writeFileAtomic } from "../adapters/files.js"
import * as KnowledgeFiles from "../adapters/knowledge-files.js"
import * as StderrLogger from "../adapters/logger.js"
import { defaultSettings } from "../domain/config.js"
import { KnowledgeError } from "../domain/errors.js"
import { KnowledgeStore } from "../services/KnowledgeStore.js"
import { buildReport } from "../tools/report.js"
import * as BuiltinTools from "../tools/registry.js"

export const REPORT_USAGE = "report <sessionId> [--artifacts-dir DIR] [--out FILE]"

export const REPORT_HELP = `Usage: browser-workflow-mcp ${REPORT_USAGE}

Writes a self-contained HTML page of a recorded session (timeline, screenshots, recipe) to
<artifacts>/reports/<sessionId>.html, or to FILE, and prints its path.
`

const fail = (message: string) => {
  process.stderr.write(`browser-workflow-mcp report: ${message}\n`)
}

/** Runs the subcommand; answers the exit code. */
export const runReport = async (argv: ReadonlyArray<string>, env: Readonly<Record<string, string | undefined>>): Promise<number> => {
  let sessionId: string | undefined
  let artifactsDir = env.BWM_ARTIFACTS_DIR ?? defaultSettings.artifactsDir
  let out: string | undefined
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1
    const name = eq > 0 ? arg.slice(0, eq) : arg
    const value = () => (eq > 0 ? arg.slice(eq + 1) : argv[++i])
    if (name === "-h" || name === "--help") {
      process.stdout.write(REPORT_HELP)
      return 0
    } else if (name === "--artifacts-dir" || name === "--out") {
      const given = value()
      if (given === undefined || given === "") {
        fail(`${name} needs a value\n${REPORT_HELP}`)
        return 2
      }
      if (name === "--out") out = given
      else artifactsDir = given
    } else if (!name.startsWith("-") && sessionId === undefined) sessionId = name
    else {
      fail(`unexpected ${arg.slice(0, 100)}\n${REPORT_HELP}`)
      return 2
    }
  }
  if (sessionId === undefined) {
    fail(`give a session id (see mm_knowledge {sessions: true})\n${REPORT_HELP}`)
    return 2
  }
  const id = sessionId
  const program = Effect.gen(function* () {
    const built = yield* buildReport(id)
    if (out === undefined) {
      const store = yield* KnowledgeStore
      return yield* store.writeReport!(id, built.html)
    }
    const file = path.resolve(out)
    yield* Effect.tryPromise({
      // A report holds what the session typed and saw: owner-only, as the server writes it.
      try: () => writeFileAtomic(file, built.html, { mode: OWNER_ONLY_FILE }),
      catch: (error) => new KnowledgeError({ detail: `cannot write ${file}: ${String(error)}` })
    })
    return file
  })
  const exit = await Effect.runPromiseExit(
    program.pipe(
      Effect.provide(
        Layer.mergeAll(
          BuiltinTools.layer(defaultSettings),
          Layer.provideMerge(KnowledgeFiles.layerFileSystem(path.resolve(artifactsDir)), StderrLogger.layer("warning"))
        )
      )
    )
  )
  if (Exit.isSuccess(exit)) {
    process.stdout.write(`${exit.value}\n`)
    return 0
  }
  const failure = Cause.failureOption(exit.cause)
  fail(Option.isSome(failure) ? failure.value.message : Cause.pretty(exit.cause))
  return 1
}
