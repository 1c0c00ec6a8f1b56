// `browser-workflow-mcp replay --flow-tag NAME --runs runs.jsonl`: a recorded flow run once per line of
// params, in this process, each run in a new session (the server's options say where: a local browser, or
// remote browser servers), for CI: the exit code says whether every run passed, --junit writes the report.
import * as fs from "node:fs"
import * as path from "node:path"
import type { Envelope } from "../domain/envelope.js"
import type { ReplayRun } from "../domain/errors.js"
import { OWNER_ONLY_FILE, writeFileAtomic } from "../adapters/files.js"
import { junitXml } from "./junit.js"
import { splitOwnFlags } from "./args.js"
import { CliError, parseOptions, toSettings } from "./options.js"

export const REPLAY_USAGE = "replay (--flow-tag NAME | --session-id ID) --runs FILE [--concurrency N] [--timeout SECONDS] [--base-url URL] [--junit FILE] [server options]"

export const REPLAY_HELP = `Usage: browser-workflow-mcp ${REPLAY_USAGE}

Runs a recorded flow once per line of FILE (JSON Lines: one object of params per line, {} for the
recorded text; - reads stdin), each run in a new browser session of its own, N at a time (default 1;
a run that finds all --max-sessions places held waits for one), as mm_replay {runs, concurrency} does. --flow-tag takes the newest session
with that flow tag whose flow succeeded (never a replay's own session); --session-id names one.
--base-url URL replays against the app at that origin (e.g. http://127.0.0.1:4173) when it is no longer
where the flow was recorded (another port, another host): the recorded origin's URLs go there.
--timeout SECONDS bounds each run's steps (1 to 300; the launch of its session does not count); by
default a run gets the recorded steps' own timeouts (5 s for one that names none) plus 2 s each, at
least the batch default (45 s), at most 300 s.
The server options (--artifacts-dir for the step memory, the browser's, --ws-endpoint / --cdp-endpoint,
--secrets, --config ...) mean what they mean for the server; see --help.

Prints the mm_replay answer (JSON) to stdout and one line per finished run to stderr. --junit FILE
writes a JUnit XML report: one test case per run (named by its line), a failed run's step as its
<failure> with the code and message. Each run's session closes after it; its steps stay in the step
memory (the report names the session; \`browser-workflow-mcp report <sessionId>\` shows where it
stopped).

Exit code: 0 when every run passed, 1 when a run failed, 2 when nothing ran (a usage error, a bad line
in FILE, no such flow, params the flow does not take).
`

/** The subcommand's own flags; every other argument is a server option. */
const OWN = ["flow-tag", "session-id", "runs", "concurrency", "timeout", "base-url", "junit"] as const

/** Splits our flags (--name VALUE or --name=VALUE) from the server options. */
const splitArgs = (argv: ReadonlyArray<string>) => splitOwnFlags(argv, OWN)

/** The runs file: one JSON object of string params per line; blank lines are skipped. Throws CliError naming the line. */
export const parseRuns = (text: string, file: string): ReadonlyArray<{ readonly line: number; readonly params: Record<string, string> }> => {
  const runs: Array<{ line: number; params: Record<string, string> }> = []
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1
    if (raw.trim() === "") return
    let value: unknown
    try {
      value = JSON.parse(raw)
    } catch (error) {
      throw new CliError(`${file} line ${line}: not JSON (${error instanceof Error ? error.message : String(error)})`)
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new CliError(`${file} line ${line}: must be a JSON object of params, e.g. {"item": "milk"}`)
    }
    for (const [key, param] of Object.entries(value)) {
      if (typeof param !== "string") throw new CliError(`${file} line ${line}: param ${JSON.stringify(key)} must be a string`)
    }
    runs.push({ line, params: value as Record<string, string> })
  })
  if (runs.length === 0) throw new CliError(`${file} holds no runs (one JSON object of params per line)`)
  return runs
}

const fail = (message: string) => process.stderr.write(`browser-workflow-mcp replay: ${message}\n`)

/** The options of a run: our flags checked, the runs read, the server's settings. Throws CliError. */
const prepare = (argv: ReadonlyArray<string>, env: Readonly<Record<string, string | undefined>>) => {
  const { own, rest } = splitArgs(argv)
  if ((own["flow-tag"] === undefined) === (own["session-id"] === undefined)) throw new CliError("give exactly one of --flow-tag NAME or --session-id ID")
  if (own.runs === undefined) throw new CliError("give --runs FILE (JSON Lines: one object of params per line)")
  const concurrency = own.concurrency === undefined ? 1 : Number(own.concurrency)
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new CliError(`--concurrency must be a whole number from 1; got ${JSON.stringify(own.concurrency)}`)
  const timeout = own.timeout === undefined ? undefined : Number(own.timeout)
  if (timeout !== undefined && !(Number.isInteger(timeout) && timeout >= 1 && timeout <= 300)) {
    throw new CliError(`--timeout must be a whole number of seconds from 1 to 300; got ${JSON.stringify(own.timeout)}`)
  }
  let text: string
  try {
    text = fs.readFileSync(own.runs === "-" ? 0 : own.runs, "utf8")
  } catch (error) {
    throw new CliError(`cannot read --runs ${own.runs} (${(error as NodeJS.ErrnoException).code ?? String(error)})`)
  }
  const runs = parseRuns(text, own.runs === "-" ? "stdin" : own.runs)
  const parsed = parseOptions(rest, env)
  const settings = toSettings(parsed.values, parsed.configDir, parsed.configFile)
  return { own, runs, concurrency, timeout, settings, logLevel: parsed.values.logLevel }
}

/** Runs the subcommand; resolves to the exit code. */
export const runReplay = async (argv: ReadonlyArray<string>, env: Readonly<Record<string, string | undefined>>): Promise<number> => {
  let prepared: ReturnType<typeof prepare>
  try {
    if (splitArgs(argv).help) {
      process.stdout.write(REPLAY_HELP)
      return 0
    }
    prepared = prepare(argv, env)
  } catch (error) {
    if (!(error instanceof CliError)) throw error
    fail(`${error.message}; see replay --help`)
    return 2
  }
  const { own, runs, concurrency, timeout, settings, logLevel } = prepared
  // Loaded only here: the browser and the tools (the command's other subcommands never need them).
  const [{ Effect, ManagedRuntime }, { appLayer }, { servedRegistry }, { replay }, { runTool }, { Progress }] = await Promise.all([
    import("effect"),
    import("./serve.js"),
    import("../tools/registry.js"),
    import("../tools/replay.js"),
    import("../runtime/runTool.js"),
    import("../services/Progress.js")
  ])
  const registry = servedRegistry(settings)
  const runtime = ManagedRuntime.make(appLayer(settings, logLevel, [], registry))
  const stop = () => void runtime.dispose().finally(() => process.exit(130))
  process.once("SIGINT", stop)
  process.once("SIGTERM", stop)
  const startedAt = new Date()
  const input = {
    ...(own["flow-tag"] !== undefined ? { flowTag: own["flow-tag"] } : { sessionId: own["session-id"] }),
    runs: runs.map((run) => ({ params: run.params })),
    concurrency,
    ...(timeout !== undefined ? { timeoutMs: timeout * 1_000 } : {}),
    ...(own["base-url"] !== undefined ? { baseUrl: own["base-url"] } : {})
  }
  const progress = {
    report: (done: number, total: number | undefined, message: string) => Effect.sync(() => void fail(`${done}/${total ?? "?"} ${message}`))
  }
  const served = registry.lookup(replay.name) ?? replay
  let envelope: Envelope<any>
  try {
    envelope = (await runtime.runPromise(runTool(served)(input).pipe(Effect.provideService(Progress, progress)))).envelope as Envelope<any>
  } finally {
    process.off("SIGINT", stop)
    process.off("SIGTERM", stop)
    await runtime.dispose().catch(() => undefined)
  }
  process.stdout.write(`${JSON.stringify(envelope)}\n`)
  const outcome = envelope.ok ? envelope.result : envelope.error?.code === "MM_REPLAY_FAILED" ? envelope.error.details : undefined
  const results = outcome?.runs as ReadonlyArray<ReplayRun> | undefined
  if (results === undefined) {
    fail(`nothing ran: ${envelope.error?.code ?? "?"}: ${envelope.error?.message ?? ""}`)
    return 2
  }
  const junit = own.junit
  if (junit !== undefined) {
    const flow = own["flow-tag"] ?? own["session-id"]!
    const file = own.runs === undefined || own.runs === "-" ? "stdin" : path.basename(own.runs)
    const xml = junitXml({
      suite: `replay ${flow}`,
      classname: `replay.${flow}`,
      caseName: (index) => `run ${index} (${file} line ${runs[index]?.line ?? "?"})`,
      runs: results,
      ms: Number(outcome.ms ?? 0),
      timestamp: startedAt.toISOString().replace(/\.\d+Z$/, "")
    })
    // A report of the runs (their failures quote the pages): owner-only, as the server's own reports.
    await writeFileAtomic(path.resolve(junit), xml, { mode: OWNER_ONLY_FILE })
  }
  const failed = results.filter((run) => run.failed !== undefined).length
  fail(`${results.length - failed} of ${results.length} runs passed`)
  return failed === 0 ? 0 : 1
}
