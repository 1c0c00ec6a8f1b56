// What one client was last told: the page it last heard about and how far into the session's console
// it has read. runTool reads it to report only what changed, and updates it with every response.
import { Context, Effect, Option, Ref } from "effect"
import type { PageState } from "../domain/envelope.js"

export interface Told {
  /** The session the rest is about; another session starts over. */
  readonly sessionId: string
  /** The page as the client last heard it (what was reported, or what it already knew). */
  readonly page?: PageState | undefined
  /** Position in the session's console up to which errors were reported. */
  readonly consoleCursor: number
}

export interface ClientMemoryService {
  /** Per session (a client may drive several), at most MAX_TOLD of them, the least recent going first. */
  readonly told: Ref.Ref<ReadonlyMap<string, Told>>
  /** This client's id in the pages it observes (see `ObservingClient`): changes-only answers are per client. */
  readonly viewer: string
}

let clients = 0

/**
 * Provided per client by the MCP server (each client reads its own responses). Without it, as for a
 * library call of runTool, every response is self-contained: the page is always reported, and the
 * console errors are those raised during the call.
 */
export class ClientMemory extends Context.Tag("browser-workflow-mcp/ClientMemory")<ClientMemory, ClientMemoryService>() {
  static readonly make = (): ClientMemoryService => ({ told: Ref.unsafeMake<ReadonlyMap<string, Told>>(new Map()), viewer: `c${++clients}` })
}

/** The sessions a client's memory keeps. */
const MAX_TOLD = 32

/** What the client was told of a session now, as the most recent. */
export const rememberTold = (all: ReadonlyMap<string, Told>, told: Told): ReadonlyMap<string, Told> => {
  const next = new Map(all)
  next.delete(told.sessionId)
  next.set(told.sessionId, told)
  if (next.size > MAX_TOLD) next.delete(next.keys().next().value!)
  return next
}

/** The memory of the client this call answers, if it has one. */
export const clientMemory: Effect.Effect<Option.Option<ClientMemoryService>> = Effect.serviceOption(ClientMemory)
