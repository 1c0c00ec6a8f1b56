// The build tool: runs the Build capability (the config file's build command in the CLI) with progress.
import { Effect, Ref, Schema } from "effect"
import { Build } from "../capabilities/Build.js"
import { defineTool } from "../runtime/tool.js"
import { reportProgress } from "../services/Progress.js"

/** The tool's own cap; the capability enforces its configured timeout well before this. */
export const BUILD_DEADLINE_MS = 30 * 60_000

export const build = defineTool({
  name: "build",
  title: "Build",
  description:
    "Build the extension or app under test before mm_launch, using the build the server was given (the config file's build command, or a library-provided Build capability). Sends progress notifications with the build's output lines. Returns {built, durationMs, outputTail}; MM_BUILD_FAILED carries the tail of the output, MM_CAPABILITY_NOT_AVAILABLE when no build is configured.",
  input: Schema.Struct({
    buildType: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))).annotations({
      description: 'Which build, e.g. "build:test"; the command build receives it as BWM_BUILD_TYPE.'
    }),
    force: Schema.optionalWith(Schema.Boolean, { default: () => false }).annotations({
      description: "Build even if the output looks fresh (the command build receives BWM_BUILD_FORCE=1)."
    })
  }),
  output: Schema.Struct({
    built: Schema.Boolean.annotations({ description: "Always true on success." }),
    durationMs: Schema.Number.annotations({ description: "How long the build took." }),
    outputTail: Schema.String.annotations({ description: "The last lines of the build's output." })
  }),
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
  requiresSession: false,
  observation: "none",
  deadlineMs: () => BUILD_DEADLINE_MS,
  run: Effect.fn("tool.build")(function* (input) {
    const builder = yield* Build.required
    const lines = yield* Ref.make(0)
    // Each output line is a step forward; the total is unknown until the build ends.
    const progress = (message: string) =>
      Effect.flatMap(Ref.updateAndGet(lines, (count) => count + 1), (count) => reportProgress(count, undefined, message))
    const result = yield* builder.run({ buildType: input.buildType, force: input.force }, progress)
    return { built: true, durationMs: result.durationMs, outputTail: result.outputTail }
  })
})
