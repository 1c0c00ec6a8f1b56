// Saving the session's cookies and localStorage to a file, for a later session to start from.
import { Effect, Schema } from "effect"
import { defineTool } from "../runtime/tool.js"
import { Session } from "../services/Session.js"

export const saveStorageState = defineTool({
  name: "save_storage_state",
  title: "Save cookies and storage",
  description:
    "Save cookies and localStorage to <artifacts>/storage-state/<name>.json (e.g. after signing in), for a server started with --storage-state. Returns {path, cookies, origins}.",
  input: Schema.Struct({
    name: Schema.String.pipe(
      Schema.pattern(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, {
        message: () => "a plain file name: letters, digits, '.', '_' and '-', starting with a letter or digit (at most 100)"
      })
    ).annotations({ description: 'File name without ".json", e.g. "signed-in".' }),
    overwrite: Schema.optionalWith(Schema.Boolean, { default: () => false }).annotations({
      description: "Replace an existing file (default: fail)."
    })
  }),
  output: Schema.Struct({
    path: Schema.String.annotations({ description: "Absolute path of the file written." }),
    cookies: Schema.Number.annotations({ description: "How many cookies it holds." }),
    origins: Schema.Number.annotations({ description: "How many origins have localStorage entries in it." })
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  // Opt-in, as in Playwright MCP (its "storage" capability): 467 bytes in every session's list otherwise.
  group: "storage",
  optIn: true,
  requiresSession: true,
  // Reading localStorage needs the pages' JavaScript running.
  whilePaused: "blocked",
  // A file written once, not a step of the flow: a replay would find the name taken.
  replay: { mode: "never" },
  observation: "none",
  deadlineMs: () => 30_000,
  // The name only: the state itself is a secret.
  record: (input) => ({ input: { name: input.name, ...(input.overwrite ? { overwrite: true } : {}) } }),
  run: Effect.fn("tool.save_storage_state")(function* (input) {
    const session = yield* Session
    return yield* session.saveStorageState({ name: input.name, overwrite: input.overwrite })
  })
})
