// A tool is a definition value plus an Effect program; this module fixes the definition's shape.
// (How a recorded call replays, `Replay`, is in domain/replay.ts: the step memory reads it without the runtime.)
// Everything the system knows about a tool lives here: group and visibility, step-memory labels,
// how it replays in a batch and exports to a Playwright test, whether it may run concurrently.
import { Context, Layer, type Effect, type Option, type Schema } from "effect"
import type { Settings } from "../domain/config.js"
import type { ToolError } from "../domain/errors.js"
import type { PriorAction, StepKind, StepTarget } from "../domain/knowledge.js"
import type { Replay, ToolRole } from "../domain/replay.js"
import type { Observation, ObservationPolicy } from "../domain/observation.js"
import type { KnowledgeStore } from "../services/KnowledgeStore.js"
import type { Observer } from "../services/Observer.js"
import type { PageAffordances, Session } from "../services/Session.js"
import type { Sighting } from "../services/Deadline.js"

/** The services every tool program may use. */
export type ToolServices = Session | Observer | KnowledgeStore | ToolRegistry

export interface ToolAnnotations {
  /** Reads only: never changes the page or the store. */
  readonly readOnly: boolean
  /**
   * May destroy state that cannot be recovered: the server's (closing the browser) or the app's (a click or a
   * key the page acts on may submit, delete or pay). Only meaningful when not read-only.
   */
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
  readonly screenshot?: string | undefined
  /**
   * Top-level input keys kept as recorded although their name looks sensitive: the tool vouches they hold
   * no secret (mm_type's `secret` is a name in --secrets, which a replay needs).
   */
  readonly verbatim?: ReadonlyArray<string> | undefined
}

/** An image, or text meant to be read as text (not JSON-escaped), handed to the client as its own content block. */
export type Attachment =
  | { readonly type: "image"; readonly data: string; readonly mimeType: string }
  | { readonly type: "text"; readonly text: string }

/** What a tool's `listedWhen` sees. */
export interface ListingState {
  /** A session runs. */
  readonly session: boolean
  /** The session has an extension loaded. */
  readonly extension: boolean
  /** How many tabs are open. */
  readonly tabs: number
  /** How many tools this client's hide_tools rules hide. */
  readonly hiddenByClient: number
  /** What the active page offered at its last read: a file input or open chooser, drag sources, a visible checkbox, room to scroll. */
  readonly page: PageAffordances
  /** A tab's JavaScript is paused in the debugger: only the tools marked `whilePaused: "listed"` are listed. */
  readonly paused: boolean
  /** How many downloads the session has started. */
  readonly downloads: number
  /** How many sessions the client has (its own live ones and those it named by id). */
  readonly sessions: number
}

export interface ToolDefinition<I, IE, O, OE, R> {
  /** Name without the prefix, e.g. "click" (served as "mm_click"). */
  readonly name: string
  /** A short human title, for libraries and UIs (not sent in tools/list). */
  readonly title: string
  /** Written for an LLM: when to use the tool and what it returns, briefly. */
  readonly description: string
  readonly input: Schema.Schema<I, IE>
  readonly output: Schema.Schema<O, OE>
  readonly annotations: ToolAnnotations
  /**
   * The family the tool belongs to ("session", "page", "tabs", "extension", "knowledge", "batch",
   * "meta", "build", "contracts", or your own); "custom" when absent.
   */
  readonly group?: string
  /** The group is off (not listed, not callable) unless enabled with `--caps <group>` or the config key `caps`. */
  readonly optIn?: boolean
  /** Listed and callable only while a session runs; without one runTool answers MM_NO_ACTIVE_SESSION. */
  readonly requiresSession: boolean
  /** Listed and callable only while the session has an extension loaded. */
  readonly requiresExtension?: boolean
  /** Starts a session (launch, replay): called without a `session` argument, it runs in a new session of its own. */
  readonly startsSession?: boolean
  /**
   * A session the call launches is for the call only (true for this input): it never becomes the client's
   * current one and closes once the call has answered (its observation and record taken first).
   */
  readonly endsSession?: (input: I) => boolean
  /**
   * Takes the optional `session` argument (which session it works on) although it needs no running
   * session (cleanup, run_steps, replay); every tool that requires a session takes it.
   */
  readonly sessionArgument?: boolean
  /**
   * The capability service the tool runs on: listed only when the server was given it. Called anyway,
   * the tool answers MM_CAPABILITY_NOT_AVAILABLE saying how to provide it.
   */
  readonly capability?: Context.Tag<any, any>
  /**
   * A further condition for listing the tool, on the state the list follows. The tool stays callable:
   * called anyway, it answers its own error saying what is missing (launch while a session runs
   * answers MM_SESSION_ALREADY_RUNNING unless force).
   */
  readonly listedWhen?: (state: ListingState) => boolean
  /**
   * Callable but never listed, not even in the fixed list (--static-tools): an old name kept for
   * clients that call it (SPEC-07's tool names), whose work a listed tool now does.
   */
  readonly unlisted?: boolean
  /**
   * While a tab's JavaScript is paused in the debugger: `listed` (the stepping set, get_state, screenshot),
   * `blocked` (needs the page's JavaScript running: answers MM_DEBUGGER_PAUSED), or, when absent, not
   * listed but callable (knowledge, cleanup, navigate: leaving the page ends the pause).
   */
  readonly whilePaused?: "listed" | "blocked"
  /**
   * A part the tool plays that other code names it by (launch, batch, hide-tools, show-tools): hints and
   * recipes find the tool by its role, so no list elsewhere names it. Most tools play none.
   */
  readonly role?: ToolRole
  /** What kind of step a call is, as labels in the step memory. */
  readonly stepKinds?: ReadonlyArray<StepKind>
  /** Present when its recorded calls are actions prior knowledge suggests again (see PriorAction). */
  readonly prior?: PriorAction
  /** How a recorded call replays in a batch and exports to a Playwright test. */
  readonly replay?: Replay
  /**
   * Safe to run concurrently with other such calls in a parallel batch: it only reads, and what it
   * reads does not depend on what other steps of the batch do.
   */
  readonly concurrencySafe?: boolean
  readonly observation: ObservationPolicy
  /** The whole call's deadline (from its input and the server's settings); the program is interrupted (and its browser action aborted) past it. */
  readonly deadlineMs?: (input: I, settings: Settings) => number
  /** The error to answer when the deadline passes (`seen`: what the program saw of its target); DeadlineExceeded by default. */
  readonly onDeadline?: (input: I, timeoutMs: number, seen: Sighting) => ToolError
  /**
   * What to record (redacted); by default the input with sensitive keys redacted. `redact` takes the
   * secrets' values out of a text: what the record cuts of a result's text is cut after it, never before.
   */
  readonly record?: (input: I, result: Option.Option<O>, redact: (text: string) => string) => RecordedCall
  /**
   * For a tool whose result lists console messages itself (console_messages): which of the messages
   * logged since the client's previous response the result already shows; the envelope's `console`
   * leaves those out, so nothing is said twice.
   */
  readonly consoleInResult?: (result: OE) => (message: { readonly type: string; readonly text: string; readonly url: string }) => boolean
  /** The observation, for tools whose policy is "custom". */
  readonly observe?: (result: O) => Observation | undefined
  /**
   * The page as text that a result carries (a snapshot, a search's matches): taken out of the result, it
   * goes as the envelope's `snapshot`, the plain text block after the JSON, as an action's page text does
   * (never JSON-escaped, never twice). Its field in the output schema is optional and `Unlisted`.
   */
  readonly pageText?: (result: O) => { readonly result: O; readonly text: string }
  /**
   * Whether a result says nothing its page text does not (a search whose matches are all shown): a
   * success with nothing else to say then answers its page text alone. By default, a result whose one
   * field is true (`{clicked: true}`).
   */
  readonly saidByText?: (input: I, result: O) => boolean
  /**
   * A result that is not a success as a whole (a batch with a failed step): the envelope says `ok: false`
   * with this error beside the result, and the step record keeps it as a failure.
   */
  readonly failedWith?: (input: I, result: O) => ToolError | undefined
  /** Moves bulky data out of the result into content blocks (e.g. an image). */
  readonly attachments?: (input: I, result: O) => { readonly result: O; readonly attachments: ReadonlyArray<Attachment> }
  readonly run: (input: I) => Effect.Effect<O, ToolError, R>
}

export type AnyToolDefinition = ToolDefinition<any, any, any, any, any>

export interface ToolRegistryService {
  readonly prefix: string
  readonly tools: ReadonlyArray<AnyToolDefinition>
  /** The served name of a tool, e.g. "mm_click". */
  readonly servedName: (tool: AnyToolDefinition) => string
  /** The tool for a served or bare name. */
  readonly lookup: (name: string) => AnyToolDefinition | undefined
}

/** The served tools, as a service (made by runtime/registry.ts's makeRegistry). The MCP server provides the registry it serves to every call. */
export class ToolRegistry extends Context.Tag("browser-workflow-mcp/ToolRegistry")<ToolRegistry, ToolRegistryService>() {
  static readonly layer = (registry: ToolRegistryService): Layer.Layer<ToolRegistry> => Layer.succeed(ToolRegistry, registry)
}

/** Identity helper that keeps every type parameter inferred. */
export const defineTool = <I, IE, O, OE, R extends ToolServices>(
  definition: ToolDefinition<I, IE, O, OE, R>
): ToolDefinition<I, IE, O, OE, R> => definition

/**
 * The client can act on a session that is not a current one: it has two or more, or one while none is current
 * (its current one closed). tools/list then shows mm_sessions, every `session` argument, and the session tools
 * (called without `session`, they say which session closed and how to switch).
 */
export const reachesOtherSessions = (state: Pick<ListingState, "session" | "sessions">): boolean =>
  state.sessions > 1 || (state.sessions > 0 && !state.session)

/** Whether a tool works on a session, so tools/list shows its optional `session` argument. */
export const takesSession = (tool: AnyToolDefinition): boolean => tool.requiresSession || tool.sessionArgument === true

/** The group of a tool ("custom" for tools that name none). */
export const groupOf = (tool: AnyToolDefinition): string => tool.group ?? "custom"


/**
 * Schema annotation: the JSON Schema to list for this schema instead of its structure (the
 * description is added), e.g. `{ type: "object" }` for a nested value its description explains.
 * Decoding still checks the full structure.
 */
export const ListedAs: unique symbol = Symbol.for("browser-workflow-mcp/ListedAs")

/**
 * Schema annotation on a property: its description is not listed, because its name, type and the tool's
 * description say it (newTab, fullPage, a tab's role): every byte of tools/list is read by the model.
 * The description stays on the definition (library users, `inputJsonSchema(schema, { full: true })`).
 */
export const Evident: unique symbol = Symbol.for("browser-workflow-mcp/Evident")

/** Schema annotation on a property: accepted but not listed (compatibility fields a model never needs). */
export const Unlisted: unique symbol = Symbol.for("browser-workflow-mcp/Unlisted")

export { replayModeOf, type PlaywrightContext, type Replay, type ReplayArgs, type ToolRole } from "../domain/replay.js"
