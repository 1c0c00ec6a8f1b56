// The one response shape every tool answers with, success or failure.
import { Schema } from "effect"
import { Observation } from "./observation.js"

export const ErrorObject = Schema.Struct({
  code: Schema.String.annotations({ description: "MM_* error code." }),
  message: Schema.String.annotations({ description: "What went wrong and how to recover." }),
  details: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
})

export const Meta = Schema.Struct({
  timestamp: Schema.String.annotations({ description: "ISO time the call finished." }),
  sessionId: Schema.optional(Schema.String),
  durationMs: Schema.Number,
  notices: Schema.optional(Schema.Array(Schema.String)).annotations({
    description: "Things that changed outside this call, e.g. the active tab closed and another became active."
  })
})
export type Meta = typeof Meta.Type

export interface Envelope<A = unknown> {
  readonly ok: boolean
  readonly result?: A
  readonly error?: typeof ErrorObject.Type
  readonly meta: Meta
  readonly observation?: Observation
}

/** The envelope schema with `result` typed by a tool's output schema (object root for MCP outputSchema). */
export const envelopeSchema = <A, I>(result: Schema.Schema<A, I>) =>
  Schema.Struct({
    ok: Schema.Boolean.annotations({ description: "True when the tool succeeded." }),
    result: Schema.optional(result),
    error: Schema.optional(ErrorObject),
    meta: Meta,
    observation: Schema.optional(Observation).annotations({
      description: "The page after the call (active tab), when the observation policy collected one."
    })
  })
