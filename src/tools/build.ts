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
  description: "Build the app or extension under test, with progress. Returns {built, durationMs, outputTail}.",
  input: Schema.Struct({
    buildType: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))).annotations({
      description: 'e.g. "build:test".'
    }),
    force: Schema.optionalWith(Schema.Boolean, { default: () => false }).annotations({
      description: "Even if fresh."
    })
  }),
  output: Schema.Struct({
    built: Schema.Boolean.annotations({ description: "Always true on success." }),
    durationMs: Schema.Number.annotations({ description: "How long the build took." }),
    outputTail: Schema.String.annotations({ description: "The last lines of the build's output." })
  }),
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
  group: "build",
  capability: Build,
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
