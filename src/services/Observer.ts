// What the active page looks like now: state, visible test ids, accessibility nodes with refs.
import { Context, Effect, FiberRef, Layer } from "effect"
import type { BrowserClosed, DiscoveryFailed, NoActiveSession, PageClosed, PageUnresponsive, StateFailed } from "../domain/errors.js"
import type { A11yNode, FindResult, Observation, ScreenState, TestIdItem } from "../domain/observation.js"

export interface ObserveOptions {
  readonly testIds: boolean
  readonly a11y: boolean
  readonly testIdLimit?: number | undefined
  readonly a11yLimit?: number | undefined
  readonly rootSelector?: string | undefined
  /**
   * Only what is new or changed since the page last reported it (refs are stable, so the agent's
   * earlier refs stay valid); unchanged nodes are counted and removed refs listed.
   */
  readonly changesOnly?: boolean | undefined
  /**
   * Give the page a moment to settle first (the DOM quiet for a short while, capped), so that an
   * observation right after an action sees the page's re-render. Default true; it costs one task
   * turn of the page when nothing is happening.
   */
  readonly settle?: boolean | undefined
  /** Characters of text per node before it is cut with a marker (code blocks get four times as many). */
  readonly textLimit?: number | undefined
}

/** A search of the active page: any of text, role and name (all that are given must match). */
export interface FindOptions {
  readonly text?: string | undefined
  readonly role?: string | undefined
  readonly name?: string | undefined
  readonly limit: number
}

/**
 * The client the running call observes for (its id; "" for a caller without one, such as a library call
 * of runTool). The page keeps what each client was told and saw (a search counts), so a changes-only
 * observation answers each client what changed since it last looked. Set by the MCP server per call.
 */
export const ObservingClient = FiberRef.unsafeMake<string>("")

export type ObserveError = NoActiveSession | BrowserClosed | PageClosed | PageUnresponsive | DiscoveryFailed | StateFailed

export interface ObserverService {
  /** URL, title, load state and screen of the active page: one round trip. */
  readonly state: Effect.Effect<ScreenState, NoActiveSession | BrowserClosed | PageClosed | PageUnresponsive | StateFailed>
  /** State plus, as asked, test ids and accessibility nodes: one round trip. */
  readonly observe: (options: ObserveOptions) => Effect.Effect<Observation, ObserveError>
  readonly testIds: (limit: number) => Effect.Effect<ReadonlyArray<TestIdItem>, ObserveError>
  readonly accessibility: (options: {
    readonly rootSelector?: string | undefined
    readonly limit?: number | undefined
  }) => Effect.Effect<{ readonly nodes: ReadonlyArray<A11yNode>; readonly truncated: boolean }, ObserveError>
  /** Nodes of the active page matching a search, with the structure around them; refs as in snapshots. */
  readonly find: (options: FindOptions) => Effect.Effect<FindResult, ObserveError>
}

export class Observer extends Context.Tag("browser-workflow-mcp/Observer")<Observer, ObserverService>() {
  /** An observer stub for tests: every method dies loudly unless overridden. */
  static readonly layerTest = (overrides: Partial<ObserverService>) =>
    Layer.succeed(Observer, { ...unimplemented, ...overrides })
}

const notStubbed = (method: string) => Effect.dieMessage(`Observer.${method} is not stubbed in this test`)

const unimplemented: ObserverService = {
  state: notStubbed("state"),
  observe: () => notStubbed("observe"),
  testIds: () => notStubbed("testIds"),
  accessibility: () => notStubbed("accessibility"),
  find: () => notStubbed("find")
}
