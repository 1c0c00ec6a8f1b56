// Progress of a long call, reported to the client when it asked for it (MCP progress notifications).
import { Context, Effect, Option } from "effect"

export interface ProgressService {
  readonly report: (progress: number, total: number | undefined, message: string) => Effect.Effect<void>
}

export class Progress extends Context.Tag("browser-workflow-mcp/Progress")<Progress, ProgressService>() {}

/** Reports progress when a reporter is present; a no-op otherwise, so tools need not require it. */
export const reportProgress = (progress: number, total: number | undefined, message: string) =>
  Effect.flatMap(Effect.serviceOption(Progress), (reporter) =>
    Option.isSome(reporter) ? reporter.value.report(progress, total, message) : Effect.void
  )
