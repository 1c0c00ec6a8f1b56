// The loaded extension's own state: chrome.storage read through its service worker, secrets redacted.
import { Effect, Schema } from "effect"
import { JsonValue } from "../domain/observation.js"
import { redactDeep } from "../domain/redaction.js"
import { defineTool } from "../runtime/tool.js"
import { Session } from "../services/Session.js"

export const extensionStorage = defineTool({
  name: "extension_storage",
  title: "Read extension storage",
  description: "Read the extension's chrome.storage (secrets redacted).",
  input: Schema.Struct({
    area: Schema.optionalWith(Schema.Literal("local", "sync", "session"), { default: () => "local" as const }).annotations({
      description: "Default local."
    }),
    keys: Schema.optional(Schema.Array(Schema.String.pipe(Schema.minLength(1))).pipe(Schema.minItems(1), Schema.maxItems(100))).annotations({
      description: "Only these keys."
    })
  }),
  output: Schema.Struct({
    area: Schema.Literal("local", "sync", "session").annotations({ description: "The area read." }),
    keys: Schema.Array(Schema.String).annotations({ description: "Keys present in values, sorted." }),
    values: Schema.Record({ key: Schema.String, value: JsonValue }).annotations({
      description: "Stored values by key, sensitive ones redacted at any depth."
    })
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
  concurrencySafe: true,
  group: "extension",
  requiresSession: true,
  requiresExtension: true,
  observation: "none",
  run: Effect.fn("tool.extension_storage")(function* (input) {
    const session = yield* Session
    const raw = yield* session.extensionStorage(input.area, input.keys)
    const values = redactDeep(raw) as Record<string, unknown>
    return { area: input.area, keys: Object.keys(values).sort(), values }
  })
})
