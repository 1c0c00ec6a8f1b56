// `browser-workflow-mcp call <tool> '<json>' --server URL`: one tool call against a running HTTP server,
// its envelope printed to stdout, for scripts and agents that do not speak MCP.
import * as fs from "node:fs"
import { parseSubcommandArgs } from "./args.js"
import { CliError } from "./cli-error.js"

export const CALL_USAGE = "call <tool> ['<json arguments>' | -] --server URL [--auth-token TOKEN] [--observation POLICY]"

export const CALL_HELP = `Usage: browser-workflow-mcp ${CALL_USAGE}

Calls one tool on a server started with --port and prints its response to stdout: the envelope as
JSON on the first line, then the page as text when the response carries it.
The arguments are a JSON object (default {}), or - to read it from stdin. --server defaults to
BWM_SERVER, --auth-token to BWM_AUTH_TOKEN. --observation default|failures|none sets the call's
observation policy.

Each call is its own MCP client. To drive a flow from a script, launch in one call, then name the
session in the next ones: call mm_launch '{}' answers result.sessionId; call mm_click
'{"session": "<that id>", ...}' acts on it (the id is the capability: keep it private). The session
closes with mm_cleanup '{"session": ...}' or when its idle lease runs out (--session-idle-timeout).

Exit code: 0 when the envelope is ok, 1 when it is an error (or an mm_run_steps batch with a failed
step), 2 for a usage error, 3 when the server cannot be reached or is full (HTTP 503, --max-clients),
4 when it refuses the auth token (missing or wrong: HTTP 401 or 403).
`

const fail = (message: string) => {
  process.stderr.write(`browser-workflow-mcp call: ${message}\n`)
}

/** Runs the subcommand; resolves to the exit code. */
export const runCall = async (argv: ReadonlyArray<string>, env: Readonly<Record<string, string | undefined>>): Promise<number> => {
  let args: ReturnType<typeof parse>
  try {
    args = parse(argv)
  } catch (error) {
    if (!(error instanceof CliError)) throw error
    fail(`${error.message}; see call --help`)
    return 2
  }
  if (args.values.help === true) {
    process.stdout.write(CALL_HELP)
    return 0
  }
  const [tool, json = "{}"] = args.positionals
  const server = args.values.server ?? env.BWM_SERVER
  if (tool === undefined || server === undefined) {
    fail("give a tool name and --server URL (e.g. http://127.0.0.1:8931/mcp); see call --help")
    return 2
  }
  if (!URL.canParse(server)) {
    fail(`--server must be a URL; got ${JSON.stringify(server)}`)
    return 2
  }
  const observation = args.values.observation
  if (observation !== undefined && !["default", "failures", "none"].includes(observation)) {
    fail(`--observation must be one of default, failures, none; got ${JSON.stringify(observation)}`)
    return 2
  }
  let input: unknown
  try {
    input = JSON.parse(json === "-" ? fs.readFileSync(0, "utf8") : json)
  } catch {
    fail("the arguments must be a JSON object, e.g. '{\"testId\":\"save\"}'")
    return 2
  }
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    fail("the arguments must be a JSON object, e.g. '{\"testId\":\"save\"}'")
    return 2
  }
  const { callRemoteTool, RemoteAuthRefused } = await import("../mcp/client.js")
  const { OBSERVATION_META_KEY } = await import("../mcp/names.js")
  const authToken = args.values["auth-token"] ?? env.BWM_AUTH_TOKEN
  let result: Awaited<ReturnType<typeof callRemoteTool>>
  try {
    result = await callRemoteTool({
      url: server,
      tool,
      arguments: input as Record<string, unknown>,
      authToken: authToken === "" ? undefined : authToken,
      meta: observation === undefined ? undefined : { [OBSERVATION_META_KEY]: observation }
    })
  } catch (error) {
    fail(`cannot call ${tool} on ${server}: ${error instanceof Error ? error.message : String(error)}`)
    return error instanceof RemoteAuthRefused ? 4 : 3
  }
  process.stdout.write(result.text + "\n")
  if (result.attachments > 0) process.stderr.write(`browser-workflow-mcp call: ${result.attachments} image block(s) not printed\n`)
  // A batch with a failed step answers ok: false (MM_BATCH_FAILED) beside its steps' results.
  return result.ok ? 0 : 1
}

const parse = (argv: ReadonlyArray<string>) =>
  parseSubcommandArgs(
    argv,
    {
      server: { type: "string" },
      "auth-token": { type: "string" },
      observation: { type: "string" },
      help: { type: "boolean", short: "h" }
    },
    2
  )
