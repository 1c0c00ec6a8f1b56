// The Build capability: builds the extension or app under test before a launch (the build tool).
import { Context, Effect, Layer } from "effect"
import type { BuildFailed } from "../domain/errors.js"
import { LIBRARY_HINT, requireCapability } from "./require.js"

export interface BuildRequest {
  /** A name the build understands, e.g. "build:test"; the command build exposes it as BWM_BUILD_TYPE. */
  readonly buildType: string | undefined
  /** Build even when the build thinks its output is fresh. */
  readonly force: boolean
}

export interface BuildResult {
  readonly durationMs: number
  /** The last lines of the build's output, for the agent to glance at. */
  readonly outputTail: string
}

export interface BuildService {
  /** What this build runs, for messages (e.g. the command line). */
  readonly description: string
  /** Runs the build; `progress` is called with each line of output (the build tool forwards it as MCP progress). */
  readonly run: (request: BuildRequest, progress: (message: string) => Effect.Effect<void>) => Effect.Effect<BuildResult, BuildFailed>
}

export class Build extends Context.Tag("browser-workflow-mcp/capabilities/Build")<Build, BuildService>() {
  static readonly layer = (service: BuildService) => Layer.succeed(Build, service)

  /** The Build service, or MM_CAPABILITY_NOT_AVAILABLE. */
  static readonly required = requireCapability(
    Build,
    "Build",
    `CLI users add "build": {"command": "...", "cwd"?: "...", "timeoutMs"?: 600000} to the config file. ${LIBRARY_HINT}`
  )
}
