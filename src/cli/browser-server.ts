// `browser-workflow-mcp browser-server`: a Playwright browser server (the protocol of `playwright
// run-server`) on the Chromium this command finds, launched with the switches the MCP server gives its
// own browsers. For a machine without Playwright's downloaded Chromium, or a pool whose browsers must keep
// to loopback (--loopback-only) or an origin policy. Prints its endpoint on stdout; runs until SIGINT or
// SIGTERM, or until its browser goes away (then exits 1, for a supervisor to restart it).
import { splitOwnFlags } from "./args.js"
import { CliError, parseOptions, toSettings } from "./options.js"

export const BROWSER_SERVER_USAGE = "browser-server [--port N] [--host ADDRESS] [--path /PATH] [server options]"

export const BROWSER_SERVER_HELP = `Usage: browser-workflow-mcp ${BROWSER_SERVER_USAGE}

Runs a Playwright browser server on this machine's Chromium, for --ws-endpoint (docs/scale.md): the
protocol \`npx playwright run-server\` speaks, without Playwright's own browser download. It launches one
Chromium; each client connection (each MCP server using it) opens its sessions as contexts in it, and a
client that disconnects loses only its own contexts.

  --port N          port to listen on (default 3000; 0 picks a free one)
  --host ADDRESS    address to listen on (default 127.0.0.1; 0.0.0.0 for other machines: the server
                    has no authentication of its own, the random path below is its only key)
  --path /PATH      the endpoint's path (default: a random one, printed)

Server options that shape the browser mean what they mean for the MCP server (see --help):
--executable-path, --headless, --browser-arg, --loopback-only, --allowed-origins, --blocked-origins.

Prints the endpoint (ws://HOST:PORT/PATH) as its only line on stdout. Exit code: 0 after SIGINT or
SIGTERM (the browser closed), 1 when the browser went away on its own, 2 on a usage error or when
Chromium did not start.
`

/** The subcommand's own flags; every other argument is a server option. */
const OWN = ["port", "host", "path"] as const

const splitArgs = (argv: ReadonlyArray<string>) => splitOwnFlags(argv, OWN)

/** The listening options and the server's settings; throws CliError. */
export const browserServerOptions = (argv: ReadonlyArray<string>, env: Readonly<Record<string, string | undefined>>) => {
  const { own, rest } = splitArgs(argv)
  const port = own.port === undefined ? 3000 : Number(own.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port must be a whole number from 0 to 65535; got ${JSON.stringify(own.port)}`)
  const host = own.host ?? "127.0.0.1"
  if (host === "") throw new CliError("--host needs an address")
  if (own.path !== undefined && !/^\/[A-Za-z0-9._~\-/]*$/.test(own.path)) throw new CliError("--path must start with / and hold only letters, digits and . _ ~ - /")
  const parsed = parseOptions(rest, env)
  const settings = toSettings(parsed.values, parsed.configDir, parsed.configFile)
  if (settings.extension !== undefined || settings.userDataDir !== undefined) {
    throw new CliError("--extension and --user-data-dir need a browser of the MCP server's own; a browser server cannot host them")
  }
  return { port, host, path: own.path, settings }
}

const say = (message: string) => process.stderr.write(`browser-workflow-mcp browser-server: ${message}\n`)

/** Runs the subcommand; resolves to the exit code when the server stopped. */
export const runBrowserServer = async (argv: ReadonlyArray<string>, env: Readonly<Record<string, string | undefined>>): Promise<number> => {
  let options: ReturnType<typeof browserServerOptions>
  try {
    if (splitArgs(argv).help) {
      process.stdout.write(BROWSER_SERVER_HELP)
      return 0
    }
    options = browserServerOptions(argv, env)
  } catch (error) {
    if (!(error instanceof CliError)) throw error
    say(`${error.message}; see browser-server --help`)
    return 2
  }
  const { settings } = options
  // Loaded only here: Playwright and the launch switches (the command's other subcommands never need them).
  const [{ Effect, Either }, { loadPlaywright }, launch, { policyOf, withResolverRules }] = await Promise.all([
    import("effect"),
    import("../adapters/playwright/calls.js"),
    import("../adapters/playwright/lifecycle/launch.js"),
    import("../adapters/playwright/lifecycle/policy.js")
  ])
  const { chromium } = Effect.runSync(loadPlaywright())
  const found = await Effect.runPromise(Effect.either(launch.resolveExecutable(settings.executablePath, () => chromium.executablePath())))
  if (Either.isLeft(found)) {
    say(found.left.message)
    return 2
  }
  const args = [...launch.baseBrowserArgs(), ...withResolverRules(policyOf(settings, undefined), settings.browserArgs)]
  let server: Awaited<ReturnType<typeof chromium.launchServer>>
  try {
    server = await chromium.launchServer({
      executablePath: found.right,
      headless: settings.headless,
      args: launch.withDisabledFeatures([...new Set(args)]),
      host: options.host,
      port: options.port,
      ...(options.path !== undefined ? { wsPath: options.path } : {}),
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false
    })
  } catch (error) {
    say(`${found.right} did not start: ${launch.launchFailureDetail(error, { headless: settings.headless })}`)
    return 2
  }
  process.stdout.write(`${server.wsEndpoint()}\n`)
  say(`serving ${found.right} at ${server.wsEndpoint()}; stop it with Ctrl-C`)
  return new Promise<number>((resolve) => {
    let stopping = false
    const stop = () => {
      if (stopping) return
      stopping = true
      void server.close().finally(() => resolve(0))
    }
    process.once("SIGINT", stop)
    process.once("SIGTERM", stop)
    server.process().once("exit", () => {
      process.off("SIGINT", stop)
      process.off("SIGTERM", stop)
      if (stopping) return
      say("the browser went away")
      resolve(1)
    })
  })
}
