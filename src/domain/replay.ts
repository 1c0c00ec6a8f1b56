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
  /** `recordedAs`: what a param's recorded text went in as (a date input's 2025-04-20), the test's default when its variable is unset. */
  readonly text: (value: string, recordedAs?: string) => string
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
  /**
   * The tool loads a URL: its arguments that load `url`. A recipe starts with it when the flow began on a
   * page its first replayed step did not load itself (see `loadsUrl`).
   */
  readonly loadUrl?: (url: string) => ReplayArgs
  /** Whether a recorded call loaded a URL of its own choosing (a recipe that starts with it needs no first load). */
  readonly loadsUrl?: (args: ReplayArgs) => boolean
  /** The tool waits for the page's URL: its arguments that wait until the URL matches `pattern` (a regex literal), the check that ends a recipe. */
  readonly awaitUrl?: (pattern: string, timeoutMs: number) => ReplayArgs
}

/**
 * A part a tool plays that other code names it by, so that no list elsewhere names the tool: `launch`
 * starts a session (what hints tell to call first; a replay's first step), `batch` runs many calls in
 * one (where an export sends what has no Playwright equivalent), `hide-tools` and `show-tools` keep a
 * client's list rules (what the hint for a hidden tool names). At most one tool of a registry plays each.
 */
export type ToolRole = "launch" | "batch" | "hide-tools" | "show-tools"

/** What the step memory reads of a tool's definition (a ToolDefinition is one). */
export interface ReplayableTool {
  readonly name: string
  readonly annotations: { readonly readOnly: boolean }
  readonly replay?: Replay
  readonly role?: ToolRole
}

/** The served tools as the step memory reads them (a ToolRegistryService is one). */
export interface ReplayTools {
  /** The served prefix ("mm" serves click as mm_click; "" as click). */
  readonly prefix: string
  readonly tools: ReadonlyArray<ReplayableTool>
  /** A tool by its served or bare name; undefined for a tool the server does not have. */
  readonly lookup: (name: string) => ReplayableTool | undefined
}

/** The served name of a bare tool name. */
export const servedAs = (prefix: string, name: string): string => (prefix === "" ? name : `${prefix}_${name}`)

/** The tool that plays a role, if the tools have one. */
export const toolWithRole = <T extends ReplayableTool>(tools: ReadonlyArray<T>, role: ToolRole): T | undefined =>
  tools.find((tool) => tool.role === role)

/** How a recorded call of the tool replays. */
export const replayModeOf = (tool: ReplayableTool): "step" | "read-only" | "never" =>
  tool.replay?.mode ?? (tool.annotations.readOnly ? "read-only" : "step")
