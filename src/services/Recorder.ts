// The session's recordings as tool calls see them (--save-trace, --save-har): runTool marks each call as
// a named group of the session's trace and hands over text the call typed that must stay out of them, and
// out of its answers and step records (a password the page echoes in its text, a request body, a URL).
// Optional: without it (tests, a library without the live browser) calls are not marked.
import { Context, type Effect, FiberRef, Option, type Ref } from "effect"

export interface RecorderService {
  /** Opens a group named `label` in the trace of the running session; the effect it returns closes it. */
  readonly callStarted: (label: string) => Effect.Effect<Effect.Effect<void>>
  /** Values a call typed that the server kept out of its step records: kept out of the recordings too. */
  readonly sensitive: (values: ReadonlyArray<string>) => Effect.Effect<void>
  /** Replaces those values of the running session wherever a text shows them, in any form (makeTypedRedactor); none before one was typed. */
  readonly typedScrub: Effect.Effect<Option.Option<(text: string) => string>>
}

export class Recorder extends Context.Tag("browser-workflow-mcp/Recorder")<Recorder, RecorderService>() {}

/**
 * The trace group of the call running in this fiber, for a recording that starts during the call (the
 * session mm_launch starts has no trace before its context exists): the recording opens the group once it
 * has started and leaves what closes it in `close`, which the call runs when it ends, however it ends.
 */
export interface GroupToOpen {
  readonly label: string
  readonly close: Ref.Ref<Effect.Effect<void>>
}

export const groupToOpen = FiberRef.unsafeMake<Option.Option<GroupToOpen>>(Option.none())
