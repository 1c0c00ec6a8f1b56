// mm_performance (group devtools, off unless --caps devtools): how fast the active page loaded, from its
// Performance API: the navigation's first byte, DOMContentLoaded and load, first (contentful) paint, resources.
import { Effect, Schema } from "effect"
import { defineTool } from "../runtime/tool.js"
import { NoInput } from "./shared.js"
import { Session } from "../services/Session.js"
import { DEVTOOLS_GROUP } from "../services/session/devtools.js"

const Ms = Schema.Number

export const performance = defineTool({
  name: "performance",
  title: "Page load timing",
  description:
    "How fast the active page loaded, in ms from its navigation's start: first byte, DOMContentLoaded, load, first (contentful) paint, resources so far. Returns {url, navigation?, firstPaint?, firstContentfulPaint?, resources}.",
  input: NoInput,
  output: Schema.Struct({
    url: Schema.String,
    navigation: Schema.optional(
      Schema.Struct({
        type: Schema.String.annotations({ description: "navigate, reload, back_forward or prerender." }),
        responseStart: Ms.annotations({ description: "First byte of the response." }),
        domContentLoaded: Ms,
        load: Schema.optional(Ms).annotations({ description: "End of the load event; absent while the page still loads." }),
        transferBytes: Schema.Number.annotations({ description: "The document's bytes over the network (0 from the cache)." })
      })
    ).annotations({ description: "Absent for a document no navigation made (about:blank)." }),
    firstPaint: Schema.optional(Ms),
    firstContentfulPaint: Schema.optional(Ms),
    resources: Schema.Struct({ count: Schema.Number, transferBytes: Schema.Number }).annotations({
      description: "What the document loaded so far (scripts, styles, images, fetches)."
    })
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
  group: DEVTOOLS_GROUP,
  optIn: true,
  requiresSession: true,
  // Reads through the page's own script: a paused page answers MM_DEBUGGER_PAUSED.
  whilePaused: "blocked",
  concurrencySafe: true,
  stepKinds: ["discovery"],
  observation: "none",
  run: Effect.fn("tool.performance")(function* () {
    return yield* (yield* Session).pageTiming()
  })
})
