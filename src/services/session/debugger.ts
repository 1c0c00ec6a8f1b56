// The JavaScript debugger of the session's tabs: attach it, set breakpoints, pause, step, and read a
// paused frame. Every pause answers with its context (location, frames, locals, console).
import type { Effect, Option } from "effect"
import type { BreakpointInfo, BreakpointSpec, EvaluatedValue, PauseContext, PauseOnExceptions } from "../../domain/debugger.js"
import type { DebuggerFailed, DebuggerNotPaused, InvalidInput, PageClosed } from "../../domain/errors.js"
import type { SessionGone } from "./actions.js"

/** Where a tab is paused, in one line: for the tool list and the errors of calls refused meanwhile. */
export interface PauseSummary {
  readonly tabId: string
  /** e.g. "app.js:4:3 in handler". */
  readonly at: string
}

export interface DebuggerStatus {
  readonly enabled: boolean
  /** Tabs the debugger is attached to. */
  readonly tabs: number
  readonly pauseOnExceptions: PauseOnExceptions
  readonly breakpoints: ReadonlyArray<BreakpointInfo>
  readonly paused?: PauseSummary | undefined
}

/**
 * After a command that lets the page run: paused again (with the context), or running; a pause asked
 * of an idle page is pending until its next statement runs.
 */
export type RunOutcome = { readonly paused: PauseContext } | { readonly running: true; readonly pausePending?: true | undefined }

export type DebuggerCommand = "pause" | "resume" | "stepOver" | "stepInto" | "stepOut"

export type DebuggerError = SessionGone | PageClosed | DebuggerFailed

export interface SessionDebugger {
  /** Where the session's JavaScript is paused, if it is (the newest pause when several tabs are); cheap, never fails. */
  readonly debuggerPaused: Effect.Effect<Option.Option<PauseSummary>>
  /**
   * The context of the newest pause when no call has answered with it yet (it came between calls), taken
   * as reported; none otherwise. Never fails.
   */
  readonly debuggerUnreportedPause: Effect.Effect<Option.Option<PauseContext>>
  /**
   * Calls `listener` whenever a tab pauses or runs again (a breakpoint or `debugger;` hit by a timer or
   * an event between calls, a resume, a step, a navigation away, a detach): the tool list may have
   * changed. Several calls may come for one change (a step resumes, then pauses); readers compare the
   * list. Answers the function that stops the calls. (A plain listener, not a Stream: Effect's streams
   * would add some 120 KB to what every spawn of the server compiles.)
   */
  readonly onPauseChange: (listener: () => void) => Effect.Effect<() => void>
  readonly debuggerStatus: Effect.Effect<DebuggerStatus, SessionGone>
  /**
   * Attaches the debugger to every tab (and the tabs that open later) or detaches it (which resumes a
   * pause and removes the breakpoints); sets what exceptions pause (attaching when needed).
   */
  readonly debuggerConfigure: (change: {
    readonly enabled?: boolean | undefined
    readonly pauseOnExceptions?: PauseOnExceptions | undefined
  }) => Effect.Effect<DebuggerStatus, DebuggerError>
  /**
   * Pause (the active tab, at its next JavaScript statement), resume or step the paused tab; answers the
   * pause that follows, or that the page runs. Resume and step need a pause (MM_DEBUGGER_NOT_PAUSED).
   */
  readonly debuggerRun: (command: DebuggerCommand) => Effect.Effect<RunOutcome, DebuggerError | DebuggerNotPaused>
  /** Evaluates on a frame of the paused tab (0 is the innermost); the value is cut to a size. */
  readonly debuggerEvaluate: (
    expression: string,
    frameIndex: number
  ) => Effect.Effect<EvaluatedValue, DebuggerError | DebuggerNotPaused | InvalidInput>
  /** Sets a breakpoint on every attached tab (attaching when needed); it binds in scripts that load later too. */
  readonly setBreakpoint: (spec: BreakpointSpec) => Effect.Effect<BreakpointInfo, DebuggerError>
  /** Removes a breakpoint by our id; MM_INVALID_INPUT naming the ids there are when it is unknown. */
  readonly removeBreakpoint: (id: string) => Effect.Effect<BreakpointInfo, DebuggerError | InvalidInput>
}
