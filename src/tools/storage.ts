// Saving the session's cookies and localStorage to a file, for a later session to start from; reading the
// cookies and clearing cookies and storage (mm_storage).
import { Effect, Schema } from "effect"
import { InvalidInput } from "../domain/errors.js"
import { isSecretCookie, REDACTED } from "../domain/redaction.js"
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

const Cookie = Schema.Struct({
  name: Schema.String,
  value: Schema.String.annotations({ description: `${REDACTED} for a secret-looking name (session, token, auth, csrf...).` }),
  domain: Schema.String,
  path: Schema.String,
  expires: Schema.optional(Schema.Number).annotations({ description: "Seconds since the epoch; absent for a session cookie." }),
  httpOnly: Schema.optional(Schema.Literal(true)),
  secure: Schema.optional(Schema.Literal(true)),
  sameSite: Schema.optional(Schema.Literal("Strict", "Lax", "None")).annotations({ description: "Absent: Lax." })
})

const Origin = Schema.String.pipe(
  Schema.filter((text) => URL.canParse(text) && /^https?:$/.test(new URL(text).protocol), { message: () => "an http(s) origin such as http://127.0.0.1:8080" }),
  Schema.transform(Schema.String, { strict: true, decode: (text) => new URL(text).origin, encode: (origin) => origin })
)

export const storage = defineTool({
  name: "storage",
  title: "Cookies and storage",
  description:
    "Read cookies (secret-looking values redacted), or clear cookies and storage (local, session, IndexedDB, caches) of an origin or the whole session. Returns {count, cookies?} or {cleared}.",
  input: Schema.Struct({
    action: Schema.Literal("cookies", "clear").annotations({ description: "cookies: list them; clear: remove cookies and storage." }),
    origin: Schema.optional(Origin).annotations({ description: "Only this origin's (cookies: its host's, any port); the whole session without it." }),
    cookies: Schema.optionalWith(Schema.Boolean, { default: () => true }).annotations({ description: "clear: the cookies (default true)." }),
    storage: Schema.optionalWith(Schema.Boolean, { default: () => true }).annotations({ description: "clear: the storage (default true)." })
  }),
  output: Schema.Struct({
    cookies: Schema.optional(Schema.Array(Cookie)).annotations({ description: "cookies: the cookies (absent when none)." }),
    count: Schema.optional(Schema.Number).annotations({ description: "cookies: how many." }),
    cleared: Schema.optional(
      Schema.Struct({
        cookies: Schema.Number.annotations({ description: "Cookies removed." }),
        origins: Schema.optional(Schema.Array(Schema.String)).annotations({ description: "Origins whose storage was cleared." })
      })
    )
  }),
  annotations: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
  group: "storage",
  optIn: true,
  requiresSession: true,
  // Clearing sessionStorage goes through each tab's DevTools session, which a paused tab does not answer.
  whilePaused: "blocked",
  stepKinds: ["navigation"],
  observation: "none",
  replay: {
    args: (args) => (args.action === "cookies" ? { skip: "reads the cookies only" } : { args }),
    note: (args) => (args.action === "cookies" ? "Read the cookies" : `Clear ${[args.cookies !== false ? "cookies" : "", args.storage !== false ? "storage" : ""].filter(Boolean).join(" and ")} of ${typeof args.origin === "string" ? args.origin : "the session"}`),
    playwright: (args) => {
      if (args.action !== "clear") return undefined
      const origin = typeof args.origin === "string" ? args.origin : undefined
      return [
        ...(args.cookies !== false
          ? [origin === undefined ? "await page.context().clearCookies()" : `await page.context().clearCookies({ domain: ${JSON.stringify(new URL(origin).hostname)} })`]
          : []),
        ...(args.storage !== false
          ? [
              origin === undefined
                ? "// mm_storage cleared every origin's storage: Playwright has no call for it (a new context starts empty)"
                : `await (await page.context().newCDPSession(page)).send("Storage.clearDataForOrigin", { origin: ${JSON.stringify(origin)}, storageTypes: "all" })`
            ]
          : [])
      ]
    }
  },
  run: Effect.fn("tool.storage")(function* (input) {
    const session = yield* Session
    if (input.action === "cookies") {
      const cookies = yield* session.cookies(input.origin)
      return {
        count: cookies.length,
        ...(cookies.length > 0 ? { cookies: cookies.map((cookie) => (isSecretCookie(cookie.name) ? { ...cookie, value: REDACTED } : cookie)) } : {})
      }
    }
    if (!input.cookies && !input.storage) {
      return yield* new InvalidInput({ field: "storage", problem: "cookies and storage are both false: there is nothing to clear; leave one out (both default to true)" })
    }
    const cleared = yield* session.clearStorage({ origin: input.origin, cookies: input.cookies, storage: input.storage })
    return { cleared: { cookies: cleared.cookies, ...(cleared.origins.length > 0 ? { origins: cleared.origins } : {}) } }
  })
})
