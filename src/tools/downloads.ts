// mm_downloads: the files this session's pages downloaded. Each call's answer already lists the ones it
// started; this is the whole list, also of those that finished in the background.
import { Effect, Schema } from "effect"
import { Download } from "../domain/download.js"
import { defineTool } from "../runtime/tool.js"
import { NoInput } from "./shared.js"
import { Session } from "../services/Session.js"

export const downloads = defineTool({
  name: "downloads",
  title: "List downloads",
  description: "This session's downloaded files, oldest first.",
  input: NoInput,
  output: Schema.Struct({ downloads: Schema.Array(Download) }),
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  group: "page",
  requiresSession: true,
  // Listed once the session has downloaded something (each call's answer names its own downloads).
  listedWhen: (state) => state.downloads > 0,
  whilePaused: "listed",
  concurrencySafe: true,
  observation: "none",
  run: Effect.fn("tool.downloads")(function* () {
    const session = yield* Session
    return { downloads: yield* session.downloads }
  })
})
