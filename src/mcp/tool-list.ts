// How several MCP servers over one browser hear that the tool list may have changed: each server
// subscribes, and a call that may have changed the shared state (a launch, a cleanup) tells them all.
// Each then compares its client's list with the one it last showed and sends tools/list_changed.

/** The servers of one runtime (one browser), e.g. one per HTTP client. */
export interface ToolListChanges {
  /** Registers a server's refresh; returns the function that removes it. */
  readonly subscribe: (refresh: () => Promise<void>) => () => void
  /** Runs every server's refresh; resolves when all are done (a failing one is ignored). */
  readonly changed: () => Promise<void>
}

export const makeToolListChanges = (): ToolListChanges => {
  const refreshes = new Set<() => Promise<void>>()
  return {
    subscribe: (refresh) => {
      refreshes.add(refresh)
      return () => void refreshes.delete(refresh)
    },
    changed: async () => {
      await Promise.all([...refreshes].map((refresh) => refresh().catch(() => undefined)))
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
