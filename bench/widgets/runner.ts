// One contender's attempt at one widget task on a fresh server (main.ts runs them all). It never rejects: a
// server that fails to start or to answer the handshake, a task past its deadline or any other failure is that
// task's failure for that contender, recorded in its outcome, and the run goes on with the next one. Whatever
// it started is gone when it resolves: the server is closed (killed if it does not go), then every browser
// carrying the run's marker switch.
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { stdioClient } from "../support.js"
import { SingleCallAgent, type Adapter, type Attempt } from "./agent.js"
import type { WidgetCorpus } from "./corpus.js"
import type { Task } from "./tasks.js"

export const withDeadline = <A>(promise: Promise<A>, ms: number, what: string): Promise<A> => {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no result within ${ms} ms`)), ms)
  })
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer))
}

/** Kills the browser processes still alive that carry `marker` among their switches, by pid. */
export const sweepBrowsers = (marker: string) => {
  let listing = ""
  try {
    listing = execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" })
  } catch {
    return
  }
  for (const line of listing.split("\n")) {
    if (!line.includes(marker) || line.includes("ps -eo")) continue
    const pid = Number(line.trim().split(/\s+/)[0])
    if (pid > 0 && pid !== process.pid) {
      try {
        process.kill(pid, "SIGKILL")
      } catch {
        // Gone already.
      }
    }
  }
}

export interface Contender {
  readonly adapter: Adapter
  /** The server's command line after `node`, given the task's url and the attempt's scratch folder. */
  readonly spawn: (url: string, dir: string) => ReadonlyArray<string>
}

export interface Outcome {
  /** From spawning the server until it answered the handshake. */
  readonly startMs: number
  /** From spawning the server until the attempt's last answer: a server that defers work to its first call and one that does it at start compare alike. */
  readonly wallMs: number
  readonly right: boolean
  readonly attempt: Attempt
  readonly falseOk: boolean
  readonly state: string
  /** Why the attempt could not be made or judged ("connect failed", "task failed"); its error is in `attempt.stopped`. */
  readonly failure?: string
}

export interface RunSettings {
  /** The switch every browser of this run carries (swept after each attempt). */
  readonly marker: string
  /** For the handshake and for each call. */
  readonly callDeadlineMs: number
  readonly taskDeadlineMs: number
  /** How long the page has after the attempt to settle (debounces, frames) before its reported state is judged. */
  readonly settleMs: number
  readonly log: (line: string) => void
}

/** One contender's attempt at one task on a fresh server; resolves (never rejects) once the server and its browser are gone. */
export const runOne = async (
  corpus: Pick<WidgetCorpus, "url" | "otherUrl" | "reportOf">,
  task: Pick<Task, "id" | "path" | "steps" | "done">,
  contender: Contender,
  scratch: string,
  index: number,
  settings: RunSettings
): Promise<Outcome> => {
  const run = `${task.id}-${contender.adapter.label}-${index}`
  const url = `${corpus.url}${task.path}${task.path.includes("?") ? "&" : "?"}run=${run}&other=${encodeURIComponent(corpus.otherUrl)}`
  const spawned = Date.now()
  const failed = (failure: string, error: unknown): Outcome => {
    const ms = Date.now() - spawned
    const stopped = `${failure}: ${error instanceof Error ? error.message : String(error)}`
    return { startMs: ms, wallMs: ms, right: false, attempt: { calls: 0, bytes: 0, errors: 1, allOk: false, stopped, ms, answers: [] }, falseOk: false, state: "-", failure }
  }
  let opened: ReturnType<typeof stdioClient> | undefined
  // Taken as the server spawns: a failed handshake closes the transport, which forgets it.
  let pid: number | undefined
  try {
    try {
      const dir = path.join(scratch, run)
      fs.mkdirSync(dir)
      opened = stdioClient(contender.spawn(url, dir), { name: "bench-widgets", cwd: dir })
      const connecting = opened.client.connect(opened.transport)
      pid = opened.transport.pid ?? undefined
      await withDeadline(connecting, settings.callDeadlineMs, "connect")
    } catch (error) {
      return failed("connect failed", error)
    }
    const startMs = Date.now() - spawned
    const agent = new SingleCallAgent(opened.client, contender.adapter, settings.callDeadlineMs, settings.log)
    const attempt = await withDeadline(agent.attempt(url, task.steps), settings.taskDeadlineMs, `${task.id} (${contender.adapter.label})`).catch(
      (error: unknown): Attempt => ({ calls: 0, bytes: 0, errors: 1, allOk: false, stopped: String(error), ms: settings.taskDeadlineMs, answers: [] })
    )
    await new Promise((resolve) => setTimeout(resolve, settings.settleMs))
    const [main, frame] = await Promise.all([corpus.reportOf(run, "main"), corpus.reportOf(run, "frame")])
    const reported = { main: main?.state, frame: frame?.state }
    const right = task.done(reported)
    return { startMs, wallMs: startMs + attempt.ms, right, attempt, falseOk: attempt.allOk && !right, state: JSON.stringify(reported).slice(0, 160) }
  } catch (error) {
    return failed("task failed", error)
  } finally {
    // Closing ends the server's stdin, then signals it; a server that still does not go is killed.
    await withDeadline(opened?.client.close() ?? Promise.resolve(), 10_000, "close").catch(() => undefined)
    if (pid !== undefined) {
      try {
        process.kill(pid, "SIGKILL")
      } catch {
        // Exited already.
      }
    }
    sweepBrowsers(settings.marker)
  }
}
