// Saving the session's cookies and localStorage to a file, for a later session to start from.
import { Effect, Schema } from "effect"
import { defineTool } from "../runtime/tool.js"
import { Session } from "../services/Session.js"

export const saveStorageState = defineTool({
  name: "save_storage_state",
  title: "Save cookies and storage",
  description:
    "Save the session's cookies and localStorage (Playwright's storageState format) to <artifacts>/storage-state/<name>.json, e.g. right after signing in: a server started with --storage-state <that file> begins signed in. The file holds session secrets: it is readable by its owner only, and its content is never returned or recorded. Fails with MM_INVALID_INPUT when the name is taken, unless overwrite. Returns {path, cookies, origins} (counts).",
  input: Schema.Struct({
    name: Schema.String.pipe(
      Schema.pattern(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, {
        message: () => "a plain file name: letters, digits, '.', '_' and '-', starting with a letter or digit (at most 100)"
      })
    ).annotations({ description: 'File name without ".json", e.g. "signed-in"; never a path.' }),
    overwrite: Schema.optionalWith(Schema.Boolean, { default: () => false }).annotations({
      description: "Replace the file of that name if there is one (default: fail instead)."
    })
  }),
  output: Schema.Struct({
    path: Schema.String.annotations({ description: "Absolute path of the file written." }),
    cookies: Schema.Number.annotations({ description: "How many cookies it holds." }),
    origins: Schema.Number.annotations({ description: "How many origins have localStorage entries in it." })
  }),
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: false },
  requiresSession: true,
  observation: "none",
  deadlineMs: () => 30_000,
  // The name only: the state itself is a secret.
  record: (input) => ({ input: { name: input.name, ...(input.overwrite ? { overwrite: true } : {}) } }),
  run: Effect.fn("tool.save_storage_state")(function* (input) {
    const session = yield* Session
    return yield* session.saveStorageState({ name: input.name, overwrite: input.overwrite })
  })
})
