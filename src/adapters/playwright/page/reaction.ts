// In the page, around an action whose effect is judged by reading the target back (set_checked,
// select_option, type): a watch of the page's reaction to the action, so that the verdict comes after
// the app had its say. It counts the short timers the page schedules from now on (a revert 300 ms
// later, a debounced save), notes when the DOM last changed, and keeps the text the page added (a
// message such as "Gift wrap is not available"). The requests the action starts are counted on the
// Node side (session/reaction.ts), which decides when the reaction settled. Synchronous: a page with
// frozen timers answers too.

/** Timers longer than this are not waited for (a poll, a session timeout): only a reaction's short ones. */
const SHORT_TIMER_MS = 1_500
/** How much of the page's new text is kept, and how long each piece may be. */
const KEPT_TEXTS = 6
const TEXT_CHARS = 160

const KEY = Symbol.for("browser-workflow-mcp/reaction")

interface ReactionWatch {
  pending: Set<number>
  lastChange: number
  texts: Array<string>
  readonly observer: MutationObserver
  readonly setTimeout: typeof setTimeout
  readonly clearTimeout: typeof clearTimeout
  readonly wrappedSet: unknown
  readonly wrappedClear: unknown
}

/** Runs in the page on the target: ends any earlier watch and starts a new one in the target's window. */
export const watchReaction = (element: Element): void => {
  stopReaction(element)
  const view = element.ownerDocument.defaultView as (Window & typeof globalThis) | null
  if (view === null) return
  const original = { set: view.setTimeout, clear: view.clearTimeout }
  const schedule = original.set as unknown as (...args: Array<unknown>) => number
  const watch: ReactionWatch = {
    pending: new Set(),
    lastChange: performance.now(),
    texts: [],
    observer: new MutationObserver((records) => {
      for (const record of records) {
        if (record.type === "attributes" && record.attributeName === "style") continue
        watch.lastChange = performance.now()
        const added =
          record.type === "characterData" ? [record.target] : record.type === "childList" ? Array.from(record.addedNodes) : []
        for (const node of added) {
          const text = (node.textContent ?? "").replace(/\s+/g, " ").trim()
          if (text === "" || node === element || element.contains(node)) continue
          const kept = text.length > TEXT_CHARS ? `${text.slice(0, TEXT_CHARS - 1)}…` : text
          if (!watch.texts.includes(kept)) watch.texts.push(kept)
          if (watch.texts.length > KEPT_TEXTS) watch.texts.shift()
        }
      }
    }),
    setTimeout: original.set,
    clearTimeout: original.clear,
    wrappedSet: undefined,
    wrappedClear: undefined
  }
  const wrappedSet = function (this: unknown, handler: TimerHandler, delay?: number, ...args: Array<unknown>): number {
    const ms = Number(delay ?? 0)
    if (typeof handler !== "function" || !(ms <= SHORT_TIMER_MS)) return schedule.call(view, handler, delay, ...args)
    let id = 0
    const run = (...callArgs: Array<unknown>) => {
      watch.pending.delete(id)
      return (handler as (...a: Array<unknown>) => unknown).apply(this, callArgs)
    }
    id = schedule.call(view, run, delay, ...args)
    watch.pending.add(id)
    return id
  }
  const wrappedClear = function (id?: number): void {
    if (id !== undefined) watch.pending.delete(id)
    return original.clear.call(view, id)
  }
  Object.assign(watch, { wrappedSet, wrappedClear })
  view.setTimeout = wrappedSet as unknown as typeof setTimeout
  view.clearTimeout = wrappedClear as typeof clearTimeout
  watch.observer.observe(element.ownerDocument, { subtree: true, childList: true, characterData: true, attributes: true })
  Object.defineProperty(view, KEY, { value: watch, configurable: true, enumerable: false, writable: true })
}

/** What the page is still doing after the action: short timers pending, and how long its DOM has been quiet. */
export interface Reaction {
  readonly timers: number
  readonly quietMs: number
}

/** Runs in the page on the target: the reaction so far; null when no watch runs. */
export const reactionNow = (element: Element): Reaction | null => {
  const watch = (element.ownerDocument.defaultView as any)?.[KEY] as ReactionWatch | undefined
  if (watch === undefined) return null
  return { timers: watch.pending.size, quietMs: performance.now() - watch.lastChange }
}

/** Runs in the page on the target: ends the watch (the page's own timer functions back); the text the page added meanwhile. */
export const stopReaction = (element: Element): ReadonlyArray<string> => {
  const view = element.ownerDocument.defaultView as (Window & typeof globalThis) | null
  const watch = (view as any)?.[KEY] as ReactionWatch | undefined
  if (view === null || watch === undefined) return []
  watch.observer.disconnect()
  // Only our own wrappers are put back: a page that replaced them meanwhile (a fake clock) keeps its own.
  if (view.setTimeout === watch.wrappedSet) view.setTimeout = watch.setTimeout
  if (view.clearTimeout === watch.wrappedClear) view.clearTimeout = watch.clearTimeout
  delete (view as any)[KEY]
  return watch.texts
}
