// One measurement of the parallel bench: N agents through one contender, from a fresh server process
// once it finished starting (warm), timed from their first call to the last agent's read-back (launching the browser included, closing
// it not), with the server's and its browsers' resident memory taken while every session is still open.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { Agent, type App, CallFailed, ours, theirs, type Urls } from "./flows.js"
import { plain } from "./plain.js"
import { PRELOAD_DELAY_MS } from "../../src/adapters/playwright/calls.js"
import { type Cpu, cpuOf, cpuTreeOf, type HttpServer, type Memory, memoryOf, type Running, startOursHttp, startOursStdio, startPlaywrightHttp } from "./servers.js"

/**
 * The contenders: ours with one HTTP client per agent, ours with one stdio client driving a session per
 * agent, ours running the agents back to back (one HTTP client at a time, a fresh session each), ours
 * with a browser per session (when the server has --browser-per-session), ours with --shared-browser (one
 * session every client shares: the control, where interference is expected and must be seen), and
 * @playwright/mcp --isolated with one HTTP client per agent; and the floor, the same flows as a plain
 * Playwright script (plain.ts).
 */
export type Kind = "ours-http" | "ours-stdio" | "ours-serial" | "ours-browser-per-session" | "ours-shared" | "playwright" | "plain"

export interface Outcome {
  /** Why the agent stopped before its read-back (an MM_* code, or the first line of the error). */
  readonly failure?: string
  readonly violations: number
  readonly calls: number
  readonly bytes: number
}

export interface Measurement {
  readonly kind: Kind
  readonly n: number
  readonly run: number
  readonly wallMs: number
  readonly agents: ReadonlyArray<Outcome>
  /** Resident bytes of the server process and of every process below it; absent for back to back. */
  readonly memory?: Memory
  /** CPU seconds the server process and the processes below it used during the wall time. */
  readonly cpu?: Cpu
}

export interface Plan {
  readonly apps: ReadonlyArray<App>
  readonly urls: Urls
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1)

const failureOf = (error: unknown): string =>
  error instanceof CallFailed ? `${error.code} (${error.tool})` : (error instanceof Error ? error.message : String(error)).split("\n")[0]!.slice(0, 120)

/** Runs `start` (the agent's own launch) then its flow on each app; a failure ends it, counted as such. */
const runAgent = async (
  agent: Agent,
  plan: Plan,
  flow: typeof ours,
  start: (agent: Agent) => Promise<void>
): Promise<Outcome> => {
  let violations = 0
  try {
    await start(agent)
    for (const app of plan.apps) violations += await flow(agent, app, plan.urls)
    return { violations, calls: agent.calls, bytes: agent.bytes }
  } catch (error) {
    // The whole story on stderr (the table keeps its first line).
    process.stderr.write(`bench:parallel: agent ${agent.index} failed: ${(error instanceof Error ? error.message : String(error)).slice(0, 800)}\n`)
    return { failure: failureOf(error), violations, calls: agent.calls, bytes: agent.bytes }
  }
}

/** The session id in mm_launch's answer (result.sessionId). */
const sessionIdIn = (text: string): string => {
  const id = (JSON.parse(text.split("\n")[0]!) as { result?: { sessionId?: string } }).result?.sessionId
  if (id === undefined) throw new Error(`mm_launch answered no result.sessionId: ${text.slice(0, 200)}`)
  return id
}

const launch = async (agent: Agent): Promise<void> => void (await agent.call("mm_launch"))

/** The control's launch: the first agent launches the one session, every agent waits for it and shares it. */
const joinShared = () => {
  let first: Promise<void> | undefined
  return (agent: Agent): Promise<void> => (first ??= launch(agent))
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Lets a server finish what it does when it starts before its timed window opens, so that neither contender's
 * start-up counts in it: @playwright/mcp loads Playwright as its process starts (before it listens), ours a moment
 * after its client's handshake (PRELOAD_DELAY_MS, so that a model's first mm_launch, a turn later, does not wait
 * for it). Timed from the handshake, ours paid its load (some 0.4 s of CPU, while every agent's mm_launch waited)
 * and theirs did not. Waits PRELOAD_DELAY_MS and a margin, then until the server's CPU time stays still for a while.
 */
const warm = async (pid: number): Promise<void> => {
  await sleep(PRELOAD_DELAY_MS + 250)
  const deadline = Date.now() + 15_000
  let before = cpuOf(pid)
  let still = 0
  while (still < 2 && Date.now() < deadline) {
    await sleep(150)
    const now = cpuOf(pid)
    still = now === before ? still + 1 : 0
    before = now
  }
}

/** Times the agents' flows, all at once, then reads the memory of `server` and closes the clients. */
const timeAll = async (
  kind: Kind,
  run: number,
  server: Running,
  agents: ReadonlyArray<Agent>,
  go: (agent: Agent) => Promise<Outcome>
): Promise<Measurement> => {
  await warm(server.pid)
  const cpuBefore = cpuTreeOf(server.pid)
  const started = performance.now()
  const outcomes = await Promise.all(agents.map(go))
  const wallMs = performance.now() - started
  const cpuAfter = cpuTreeOf(server.pid)
  const memory = memoryOf(server.pid)
  const cpu = { server: cpuAfter.server - cpuBefore.server, browser: cpuAfter.browser - cpuBefore.browser }
  return { kind, n: agents.length, run, wallMs, agents: outcomes, memory, cpu }
}

const withServer = async <S extends Running>(start: () => Promise<S>, use: (server: S) => Promise<Measurement>) => {
  const server = await start()
  try {
    return await use(server)
  } finally {
    await server.stop()
  }
}

const connectAll = (server: HttpServer, n: number): Promise<Array<Client>> =>
  Promise.all(range(n).map((k) => server.client(`bench-parallel-agent-${k}`)))

/** Ours, one HTTP client per agent, each launching its own session (its current one: no `session` argument). */
const oursHttp = (plan: Plan, n: number, run: number, extra: ReadonlyArray<string> = [], kind: Kind = "ours-http", start = launch) =>
  withServer(
    () => startOursHttp(extra),
    async (server) => {
      const agents = (await connectAll(server, n)).map((client, i) => new Agent(client, i + 1))
      const measured = await timeAll(kind, run, server, agents, (agent) => runAgent(agent, plan, ours, start))
      await Promise.all(agents.map((agent) => agent.client.close()))
      return measured
    }
  )

/** Ours, one stdio client: a named session per agent, every call naming its session by id. */
const oursStdio = (plan: Plan, n: number, run: number) =>
  withServer(startOursStdio, async (server) => {
    const agents = range(n).map((k) => new Agent(server.client, k))
    const start = async (agent: Agent) => {
      agent.session = sessionIdIn(await agent.call("mm_launch", { name: `agent-${agent.index}` }))
    }
    return timeAll("ours-stdio", run, server, agents, (agent) => runAgent(agent, plan, ours, start))
  })

/**
 * Ours, the same n flows back to back: one HTTP client at a time launches, runs its flow and cleans
 * up; the wall time is the sum of the launches and flows (the cleanups are not counted).
 */
const oursSerial = (plan: Plan, n: number, run: number) =>
  withServer(
    () => startOursHttp(),
    async (server) => {
      await warm(server.pid)
      const outcomes: Array<Outcome> = []
      let wallMs = 0
      const cpu = { server: 0, browser: 0 }
      for (const k of range(n)) {
        const agent = new Agent(await server.client(`bench-parallel-serial-${k}`), k)
        const cpuBefore = cpuTreeOf(server.pid)
        const started = performance.now()
        outcomes.push(await runAgent(agent, plan, ours, launch))
        wallMs += performance.now() - started
        const cpuAfter = cpuTreeOf(server.pid)
        cpu.server += cpuAfter.server - cpuBefore.server
        cpu.browser += cpuAfter.browser - cpuBefore.browser
        await agent.client.callTool({ name: "mm_cleanup", arguments: {} }).catch(() => undefined)
        await agent.client.close()
      }
      return { kind: "ours-serial", n, run, wallMs, agents: outcomes, cpu }
    }
  )

/** @playwright/mcp --isolated: one HTTP client per agent, each its own context in one shared browser. */
const playwright = (plan: Plan, n: number, run: number) =>
  withServer(startPlaywrightHttp, async (server) => {
    const agents = (await connectAll(server, n)).map((client, i) => new Agent(client, i + 1))
    const measured = await timeAll("playwright", run, server, agents, (agent) => runAgent(agent, plan, theirs, async () => undefined))
    await Promise.all(agents.map((agent) => agent.client.close()))
    return measured
  })

export const measure = (kind: Kind, plan: Plan, n: number, run: number): Promise<Measurement> => {
  switch (kind) {
    case "ours-http":
      return oursHttp(plan, n, run)
    case "ours-stdio":
      return oursStdio(plan, n, run)
    case "ours-serial":
      return oursSerial(plan, n, run)
    case "ours-browser-per-session":
      return oursHttp(plan, n, run, ["--browser-per-session"], kind)
    case "ours-shared":
      return oursHttp(plan, n, run, ["--shared-browser"], kind, joinShared())
    case "playwright":
      return playwright(plan, n, run)
    case "plain":
      return plain(plan, n, run)
  }
}
