// A tool is a definition value plus an Effect program; this module fixes the definition's shape.
import type { Effect, Option, Schema } from "effect"
import type { ToolError } from "../domain/errors.js"
import type { StepTarget } from "../domain/knowledge.js"
import type { Observation, ObservationPolicy } from "../domain/observation.js"
import type { KnowledgeStore } from "../services/KnowledgeStore.js"
import type { Observer } from "../services/Observer.js"
import type { Session } from "../services/Session.js"

/** The services every tool program may use. */
export type ToolServices = Session | Observer | KnowledgeStore

export interface ToolAnnotations {
  /** Reads only: never changes the page or the store. */
  readonly readOnly: boolean
  /** May destroy state that cannot be recovered (closing the browser...). */
  readonly destructive: boolean
  /** Calling twice with the same input has the effect of calling once. */
  readonly idempotent: boolean
  /** Talks to the world outside the server (the browser and the pages it loads). */
  readonly openWorld: boolean
}

/** What gets written to the knowledge store for a call, already redacted. */
export interface RecordedCall {
  readonly input: Readonly<Record<string, unknown>>
  readonly target?: StepTarget | undefined
  readonly textRedacted?: boolean | undefined
  readonly textLength?: number | undefined
  readonly screenshot?: string | undefined
}

/** An image to hand to the client as its own content block instead of inside the JSON. */
export interface Attachment {
  readonly type: "image"
  readonly data: string
  readonly mimeType: string
}

export interface ToolDefinition<I, IE, O, OE, R> {
  /** Name without the prefix, e.g. "click" (served as "mm_click"). */
  readonly name: string
  readonly title: string
  /** Written for an LLM: when to use the tool and what it returns. */
  readonly description: string
  readonly input: Schema.Schema<I, IE>
  readonly output: Schema.Schema<O, OE>
  readonly annotations: ToolAnnotations
  /**
   * Safe to run concurrently with other such calls in a parallel batch: it only reads, and what it
   * reads does not depend on what other steps of the batch do.
   */
  readonly concurrencySafe?: boolean
  /** When true, runTool answers MM_NO_ACTIVE_SESSION without running the program if no session runs. */
  readonly requiresSession: boolean
  readonly observation: ObservationPolicy
  /** The whole call's deadline; the program is interrupted (and its browser action aborted) past it. */
  readonly deadlineMs?: (input: I) => number
  /** The error to answer when the deadline passes; DeadlineExceeded by default. */
  readonly onDeadline?: (input: I, timeoutMs: number) => ToolError
  /** What to record (redacted); by default the input with sensitive keys redacted. */
  readonly record?: (input: I, result: Option.Option<O>) => RecordedCall
  /** The observation, for tools whose policy is "custom". */
  readonly observe?: (result: O) => Observation | undefined
  /** Moves bulky data out of the result into content blocks (e.g. an image). */
  readonly attachments?: (input: I, result: O) => { readonly result: O; readonly attachments: ReadonlyArray<Attachment> }
  readonly run: (input: I) => Effect.Effect<O, ToolError, R>
}

export type AnyToolDefinition = ToolDefinition<any, any, any, any, any>

/** Identity helper that keeps every type parameter inferred. */
export const defineTool = <I, IE, O, OE, R extends ToolServices>(
  definition: ToolDefinition<I, IE, O, OE, R>
): ToolDefinition<I, IE, O, OE, R> => definition
