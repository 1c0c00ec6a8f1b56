// The Build capability as a shell command (what the CLI offers from the config file's build section):
// output lines become progress, a deadline kills the whole process group, failures carry the output's tail.
import { spawn } from "node:child_process"
import * as path from "node:path"
import { Clock, Effect, Layer, Queue } from "effect"
import { BuildFailed } from "../domain/errors.js"
import { Build, type BuildService } from "./Build.js"

export interface BuildCommand {
  readonly command: string
  readonly cwd?: string | undefined
  readonly timeoutMs?: number | undefined
}

export const DEFAULT_BUILD_TIMEOUT_MS = 600_000
const TAIL_LINES = 30
const TAIL_CHARS = 4_000

type Event =
  | { readonly _tag: "Line"; readonly line: string }
  | { readonly _tag: "Exit"; readonly code: number | null; readonly signal: string | null }
  | { readonly _tag: "Error"; readonly error: Error }

/** Keeps the last lines of output, bounded in lines and characters. */
const tailOf = (lines: ReadonlyArray<string>) => {
  const text = lines.slice(-TAIL_LINES).join("\n")
  return text.length > TAIL_CHARS ? text.slice(-TAIL_CHARS) : text
}

export const makeCommand = (config: BuildCommand, baseDir = "."): BuildService => {
  const cwd = path.resolve(baseDir, config.cwd ?? ".")
  const timeoutMs = config.timeoutMs ?? DEFAULT_BUILD_TIMEOUT_MS
  return {
    description: `${config.command} (in ${cwd})`,
    run: (request, progress) =>
      Effect.gen(function* () {
        const startedAt = yield* Clock.currentTimeMillis
        const events = yield* Queue.unbounded<Event>()
        const lines: Array<string> = []
        const child = yield* Effect.try({
          try: () =>
            spawn("sh", ["-c", config.command], {
              cwd,
              // Its own process group, so a timeout or a cancelled call stops the whole build.
              detached: true,
              stdio: ["ignore", "pipe", "pipe"],
              env: {
                ...process.env,
                ...(request.buildType !== undefined ? { BWM_BUILD_TYPE: request.buildType } : {}),
                BWM_BUILD_FORCE: request.force ? "1" : "0"
              }
            }),
          catch: (error) => new BuildFailed({ reason: "StartFailed", detail: `${config.command} did not start: ${String(error)}` })
        })
        const onData = () => {
          let pending = ""
          return (chunk: Buffer) => {
            pending += chunk.toString("utf8")
            const parts = pending.split(/\r?\n/)
            pending = parts.pop() ?? ""
            for (const line of parts) Queue.unsafeOffer(events, { _tag: "Line", line })
          }
        }
        child.stdout?.on("data", onData())
        child.stderr?.on("data", onData())
        child.on("error", (error) => Queue.unsafeOffer(events, { _tag: "Error", error }))
        child.on("close", (code, signal) => Queue.unsafeOffer(events, { _tag: "Exit", code, signal }))

        const kill = Effect.sync(() => {
          if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return
          try {
            process.kill(-child.pid, "SIGKILL")
          } catch {
            // Already gone.
          }
        })

        const waitForExit: Effect.Effect<number | null, BuildFailed> = Effect.gen(function* () {
          while (true) {
            const event = yield* Queue.take(events)
            if (event._tag === "Line") {
              lines.push(event.line)
              if (lines.length > TAIL_LINES * 4) lines.splice(0, lines.length - TAIL_LINES)
              if (event.line.trim() !== "") yield* progress(event.line.trim().slice(0, 200))
            } else if (event._tag === "Error") {
              return yield* new BuildFailed({ reason: "StartFailed", detail: `${config.command}: ${event.error.message}` })
            } else {
              return event.code
            }
          }
        })

        const code = yield* waitForExit.pipe(
          Effect.timeoutFail({
            duration: timeoutMs,
            onTimeout: () =>
              new BuildFailed({ reason: "Timeout", detail: `${config.command} did not finish within ${timeoutMs} ms`, outputTail: tailOf(lines) })
          }),
          Effect.ensuring(kill)
        )
        if (code !== 0) {
          return yield* new BuildFailed({
            reason: "ExitCode",
            detail: `${config.command} exited with ${code === null ? "a signal" : `code ${code}`}`,
            outputTail: tailOf(lines)
          })
        }
        const finishedAt = yield* Clock.currentTimeMillis
        return { durationMs: finishedAt - startedAt, outputTail: tailOf(lines.slice(-5)) }
      })
  }
}

/** The Build capability running a shell command; cwd is relative to baseDir (the config file's directory). */
export const layerCommand = (config: BuildCommand, baseDir = ".") => Layer.succeed(Build, makeCommand(config, baseDir))
