// `browser-workflow-mcp export <sessionId>`: a recorded session printed as an mm_run_steps batch or a Playwright test.
import * as path from "node:path"
import { Cause, Effect, Exit, Layer, Option } from "effect"
import * as KnowledgeFiles from "../adapters/knowledge-files.js"
import * as StderrLogger from "../adapters/logger.js"
import { defaultSettings } from "../domain/config.js"
import { placeholderEnvName } from "../knowledge/recipe.js"
import { exportSession } from "../tools/knowledge.js"
import { parseSubcommandArgs } from "./args.js"
import { CliError } from "./options.js"
import * as BuiltinTools from "../tools/registry.js"

export const EXPORT_USAGE = "export <sessionId> [--format batch|playwright] [--artifacts-dir DIR]"

export const EXPORT_HELP = `Usage: browser-workflow-mcp ${EXPORT_USAGE}

Prints a recorded session as an mm_run_steps batch (JSON, the default) or a @playwright/test file.
The steps it leaves out (read-only, failed, or without a durable target), each with why, and the
placeholders to fill go to stderr.
--artifacts-dir defaults to BWM_ARTIFACTS_DIR, else ${defaultSettings.artifactsDir}.
`

/** Runs the subcommand; resolves to the exit code. */
export const runExport = async (argv: ReadonlyArray<string>, env: Readonly<Record<string, string | undefined>>): Promise<number> => {
  let args: ReturnType<typeof parse>
  try {
    args = parse(argv)
  } catch (error) {
    if (!(error instanceof CliError)) throw error
    process.stderr.write(`browser-workflow-mcp export: ${error.message}\n${EXPORT_HELP}`)
    return 2
  }
  if (args.values.help === true) {
    process.stdout.write(EXPORT_HELP)
    return 0
  }
  const sessionId = args.positionals[0]
  const format = args.values.format ?? "batch"
  if (sessionId === undefined || (format !== "batch" && format !== "playwright")) {
    process.stderr.write(`browser-workflow-mcp export: give a session id and --format batch or playwright\n${EXPORT_HELP}`)
    return 2
  }
  const artifactsDir = path.resolve(args.values["artifacts-dir"] ?? env.BWM_ARTIFACTS_DIR ?? defaultSettings.artifactsDir)
  const exit = await Effect.runPromiseExit(
    exportSession(sessionId, format).pipe(
      Effect.provide(
        Layer.mergeAll(BuiltinTools.layer(defaultSettings), Layer.provideMerge(KnowledgeFiles.layerFileSystem(artifactsDir), StderrLogger.layer("warning")))
      )
    )
  )
  if (Exit.isSuccess(exit)) {
    process.stdout.write(exit.value.content)
    // What the file leaves out goes to stderr, so that stdout stays the file.
    // The same reason once, with how many steps it left out (every look at the page says "read-only").
    const counts = new Map<string, number>()
    for (const skipped of exit.value.skipped) counts.set(skipped, (counts.get(skipped) ?? 0) + 1)
    for (const [skipped, count] of counts) process.stderr.write(`browser-workflow-mcp export: left out ${skipped}${count > 1 ? ` (${count} steps)` : ""}\n`)
    if (exit.value.placeholders.length > 0) {
      const names = exit.value.placeholders.map((placeholder) => `${placeholder.name}${placeholder.default !== undefined ? " (a param: its recorded text unless set)" : ""}`)
      process.stderr.write(
        `browser-workflow-mcp export: placeholders to fill: ${names.join(", ")}${format === "playwright" ? ` (environment ${exit.value.placeholders.map(placeholderEnvName).join(", ")})` : ""}\n`
      )
    }
    return 0
  }
  const failure = Cause.failureOption(exit.cause)
  process.stderr.write(
    `browser-workflow-mcp export: ${Option.isSome(failure) ? failure.value.message : Cause.pretty(exit.cause)} (looked in ${artifactsDir}; --artifacts-dir or BWM_ARTIFACTS_DIR name another)\n`
  )
  return 1
}

const parse = (argv: ReadonlyArray<string>) =>
  parseSubcommandArgs(
    argv,
    { format: { type: "string" }, "artifacts-dir": { type: "string" }, help: { type: "boolean", short: "h" } },
    1
  )
