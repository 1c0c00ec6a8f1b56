// How a recorded call replays and exports, as a tool's definition says it: what the step memory (recipes,
// replays, Playwright exports) reads of a tool, without the runtime that runs tools.
import type { StepRecord } from "./knowledge.js"

/** Recorded arguments of a step, as a recipe carries them. */
export type ReplayArgs = Readonly<Record<string, unknown>>

/** What a Playwright export knows about the step it writes. */
export interface PlaywrightContext {
  /** The step's durable target as a locator expression (`page.getByTestId("x")`), when it has one. */
  readonly locator: string | undefined
  /** A JS expression for a text argument: a string literal, or the environment variable of a `{{placeholder}}`. */
  readonly text: (value: string) => string
  /** A locator expression for other durable target arguments ({testId} or {selector}), e.g. a drop target. */
  readonly locatorOf: (args: ReplayArgs) => string | undefined
  /** A JS expression for an environment variable the test needs: it fails, naming the variable, when it is not set. */
  readonly env: (name: string) => string
  /** The recorded call, e.g. for the URL a navigation ended on (its observation). */
  readonly record: StepRecord
  /** The recipe's note for the step. */
  readonly notes: string
}

/**
 * How a recorded call replays. `step` replays it; `read-only` leaves it out of a replay because it
 * changes nothing (the default for read-only tools); `never` leaves it out silently: it is not part
 * of a flow (the session itself, the step memory, batches, the tool list).
 */
export interface Replay {
  readonly mode?: "step" | "read-only" | "never"
  /** The recipe's note for the step, e.g. "Click testId:save"; `target` describes the recorded target. */
  readonly note?: (args: ReplayArgs, target: string | undefined, step: StepRecord) => string
  /** Adapts recorded arguments to another session, or says why the step cannot replay. */
  readonly args?: (args: ReplayArgs) => { readonly args: ReplayArgs } | { readonly skip: string }
  /** The step as lines of a @playwright/test body; undefined when it has no equivalent there. */
  readonly playwright?: (args: ReplayArgs, context: PlaywrightContext) => ReadonlyArray<string> | undefined
}

/** What the step memory reads of a tool's definition (a ToolDefinition is one). */
export interface ReplayableTool {
  readonly name: string
  readonly annotations: { readonly readOnly: boolean }
  readonly replay?: Replay
}

/** How a recorded call of the tool replays. */
export const replayModeOf = (tool: ReplayableTool): "step" | "read-only" | "never" =>
  tool.replay?.mode ?? (tool.annotations.readOnly ? "read-only" : "step")
