// How several MCP servers over one browser hear that the tool list may have changed: each server
// subscribes, and a call that may have changed the shared state (a launch, a cleanup) tells them all;
// a call that only changed one session's state tells the servers whose client's list follows that session.
// Each then compares its client's list with the one it last showed and sends tools/list_changed.

/** The servers of one runtime (one browser), e.g. one per HTTP client. */
export interface ToolListChanges {
  /**
   * Registers a server's refresh, with whether its client's list follows any of some sessions (by id);
   * without `follows` it is refreshed on every change. Returns the function that removes it.
   */
  readonly subscribe: (refresh: () => Promise<void>, follows?: (sessions: ReadonlySet<string>) => boolean) => () => void
  /**
   * Runs the refresh of every server, or, given `sessions` (the ids of the sessions a call changed), of those whose
   * client's list follows one of them; resolves when all are done (a failing one is ignored).
   */
  readonly changed: (sessions?: ReadonlySet<string>) => Promise<void>
}

export const makeToolListChanges = (): ToolListChanges => {
  const refreshes = new Map<() => Promise<void>, ((sessions: ReadonlySet<string>) => boolean) | undefined>()
  return {
    subscribe: (refresh, follows) => {
      refreshes.set(refresh, follows)
      return () => void refreshes.delete(refresh)
    },
    changed: async (sessions) => {
      const due = [...refreshes].filter(([, follows]) => sessions === undefined || follows === undefined || follows(sessions))
      await Promise.all(due.map(([refresh]) => refresh().catch(() => undefined)))
    }
  }
}

const byRuntime = new WeakMap<object, ToolListChanges>()

/** The changes channel shared by every server built on this runtime. */
export const toolListChangesOf = (runtime: object): ToolListChanges => {
  const existing = byRuntime.get(runtime)
  if (existing !== undefined) return existing
  const created = makeToolListChanges()
  byRuntime.set(runtime, created)
  return created
}
