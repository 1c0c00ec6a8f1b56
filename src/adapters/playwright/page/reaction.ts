// In the page, around an action whose effect is judged by reading the target back (set_checked,
// select_option, type): a watch of the page's reaction to the action, so that the verdict comes after
// the app had its say. It counts the short timers the page schedules from now on (a revert 300 ms
// later, a debounced save), notes when the DOM last changed, and keeps the text the page added (a
// message such as "Gift wrap is not available"). The requests the action starts are counted on the
// Node side (session/reaction.ts), which decides when the reaction settled, and here too (fetch and
// XMLHttpRequest), since the browser's word of a request can reach the Node side after the page's
// answer. A chain of timers that only re-schedules itself (a poll) stops counting after its first runs
// (idle-chains.ts), so a page that polls is not waited for up to the cap. Watching typing, the field's
// own changes (its text, its attributes) are not the page's reaction, and the field's value at its last input event is kept: what it held before the page had
// its say. Synchronous: a page with frozen timers answers too.

import { DROPPED, idleChains, type IdleChains } from "./idle-chains.js"

/** Timers longer than this are not waited for (a poll, a session timeout): only a reaction's short ones. */
const SHORT_TIMER_MS = 1_500
/** How much of the page's new text is kept, and how long each piece may be. */
const KEPT_TEXTS = 6
const TEXT_CHARS = 160

/** A watch left running (its caller gave up) ends by itself after this long. */
const WATCH_LIFE_MS = 15_000

const KEY = Symbol.for("browser-workflow-mcp/reaction")

/**
 * The watches by window, for code installed once per document (the main world's, main-world.ts), which a
 * page that deletes its window's properties cannot take away; code sent with each call finds its watch
 * under KEY (in our isolated world, out of the page's reach).
 */
const watches = new WeakMap<Window, ReactionWatch>()

const watchOf = (view: Window | null | undefined): ReactionWatch | undefined =>
  view === null || view === undefined ? undefined : (watches.get(view) ?? ((view as any)[KEY] as ReactionWatch | undefined))

interface ReactionWatch {
  pending: Set<number>
  requests: number
  lastChange: number
  changed: boolean
  texts: Array<string>
  /** Typing: the field's value (its text for an editing host) at its last input event. */
  inputValue?: string
  readonly observer: MutationObserver
  readonly setTimeout: typeof setTimeout
  readonly clearTimeout: typeof clearTimeout
  readonly wrappedSet: unknown
  readonly wrappedClear: unknown
  readonly fetch: typeof fetch
  readonly wrappedFetch: unknown
  readonly send: XMLHttpRequest["send"]
  readonly wrappedSend: unknown
  readonly chains: IdleChains
  readonly onInput: (event: Event) => void
}

/** Runs in the page: the text a field holds (an input's value, an editing host's text). */
export const fieldText = (element: Element): string =>
  element.localName === "input" || element.localName === "textarea"
    ? (element as HTMLInputElement).value
    : ((element as HTMLElement).innerText ?? element.textContent ?? "")

/**
 * Runs in the page on the target: ends any earlier watch and starts a new one in the target's window.
 * `typing`: the target is a field being typed into (see the module's comment).
 */
export const watchReaction = (element: Element, typing?: boolean): void => {
  stopReaction(element)
  const view = element.ownerDocument.defaultView as (Window & typeof globalThis) | null
  if (view === null) return
  const original = { set: view.setTimeout, clear: view.clearTimeout }
  const schedule = original.set as unknown as (...args: Array<unknown>) => number
  const requestEnded = () => {
    watch.requests = Math.max(0, watch.requests - 1)
    watch.lastChange = performance.now()
  }
  const XHR = (view as any).XMLHttpRequest as typeof XMLHttpRequest | undefined
  const watch: ReactionWatch = {
    pending: new Set(),
    requests: 0,
    lastChange: performance.now(),
    changed: false,
    texts: [],
    observer: new MutationObserver((records) => {
      for (const record of records) {
        if (record.type === "attributes" && record.attributeName === "style") continue
        // An attribute set to the value it had (a toolbar refreshing aria-pressed="false" on every key) changed nothing.
        if (record.type === "attributes" && record.oldValue === (record.target as Element).getAttribute(record.attributeName ?? "")) continue
        // What typing does to the field itself (its text, a value attribute a framework keeps in step) is no reaction.
        if (typing === true && (record.target === element || element.contains(record.target))) continue
        watch.lastChange = performance.now()
        watch.changed = true
        const added =
          record.type === "characterData" ? [record.target] : record.type === "childList" ? Array.from(record.addedNodes) : []
        for (const node of added) {
          // A comment is no words of the page (Vue's "v-if" placeholders).
          if (node.nodeType !== 1 && node.nodeType !== 3) continue
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
    wrappedClear: undefined,
    fetch: view.fetch,
    wrappedFetch: undefined,
    send: XHR?.prototype.send ?? (() => {}),
    wrappedSend: undefined,
    chains: idleChains(view),
    onInput: (event: Event) => {
      if (event.composedPath().includes(element)) watch.inputValue = fieldText(element)
    }
  }
  const wrappedFetch = function (...args: Parameters<typeof fetch>) {
    watch.requests++
    const started = watch.fetch.apply(view, args)
    started.then(requestEnded, requestEnded)
    return started
  }
  const wrappedSend = function (this: XMLHttpRequest, ...args: Parameters<XMLHttpRequest["send"]>) {
    watch.requests++
    this.addEventListener("loadend", requestEnded, { once: true })
    try {
      return watch.send.apply(this, args)
    } catch (error) {
      requestEnded()
      throw error
    }
  }
  const wrappedSet = function (this: unknown, handler: TimerHandler, delay?: number, ...args: Array<unknown>): number {
    const ms = Number(delay ?? 0)
    const { chains } = watch
    const parent = chains.current()
    if (typeof handler !== "function" || !(ms <= SHORT_TIMER_MS)) {
      chains.scheduled(handler)
      return schedule.call(view, handler, delay, ...args)
    }
    const apply = (callArgs: Array<unknown>) => () => (handler as (...a: Array<unknown>) => unknown).apply(this, callArgs)
    // What a chain that stopped counting schedules is not counted either (the poll's next tick).
    if (parent === DROPPED) return schedule.call(view, (...callArgs: Array<unknown>) => chains.untracked(apply(callArgs)), delay, ...args)
    let id = 0
    let dropped = false
    const run = (...callArgs: Array<unknown>) => {
      watch.pending.delete(id)
      return dropped ? chains.untracked(apply(callArgs)) : chains.track(handler, parent, apply(callArgs))
    }
    id = schedule.call(view, run, delay, ...args)
    watch.pending.add(id)
    chains.scheduled(handler, () => {
      dropped = true
      watch.pending.delete(id)
    })
    return id
  }
  const wrappedClear = function (id?: number): void {
    if (id !== undefined) watch.pending.delete(id)
    return original.clear.call(view, id)
  }
  Object.assign(watch, { wrappedSet, wrappedClear, wrappedFetch, wrappedSend })
  view.setTimeout = wrappedSet as unknown as typeof setTimeout
  view.clearTimeout = wrappedClear as typeof clearTimeout
  if (typeof watch.fetch === "function") view.fetch = wrappedFetch as typeof fetch
  if (XHR !== undefined) XHR.prototype.send = wrappedSend as XMLHttpRequest["send"]
  if (typing === true) element.ownerDocument.addEventListener("input", watch.onInput, true)
  watch.observer.observe(element.ownerDocument, { subtree: true, childList: true, characterData: true, attributes: true, attributeOldValue: true })
  Object.defineProperty(view, KEY, { value: watch, configurable: true, enumerable: false, writable: true })
  watches.set(view, watch)
  schedule.call(view, () => watchOf(view) === watch && stopReaction(element), WATCH_LIFE_MS)
}

/** What the page is still doing after the action: short timers pending, and how long its DOM has been quiet. */
export interface Reaction {
  readonly timers: number
  /** Its fetches and XMLHttpRequests still open. */
  readonly requests: number
  readonly quietMs: number
  /** Whether its DOM changed at all since the watch began. */
  readonly changed: boolean
}

/** Runs in the page on the target: the reaction so far; null when no watch runs. */
export const reactionNow = (element: Element): Reaction | null => {
  const watch = watchOf(element.ownerDocument.defaultView)
  if (watch === undefined) return null
  watch.chains.judge()
  return { timers: watch.pending.size, requests: watch.requests, quietMs: performance.now() - watch.lastChange, changed: watch.changed }
}

/** Runs in the page on a field being typed into: its value at its last input event, undefined when none came (or no watch runs). */
export const inputValueOf = (element: Element): string | undefined => watchOf(element.ownerDocument.defaultView)?.inputValue

/** Runs in the page on the target: ends the watch (the page's own timer functions back); the text the page added meanwhile. */
export const stopReaction = (element: Element): ReadonlyArray<string> => {
  const view = element.ownerDocument.defaultView as (Window & typeof globalThis) | null
  const watch = watchOf(view)
  if (view === null || watch === undefined) return []
  watch.observer.disconnect()
  watch.chains.close()
  // Only our own wrappers are put back: a page that replaced them meanwhile (a fake clock) keeps its own.
  if (view.setTimeout === watch.wrappedSet) view.setTimeout = watch.setTimeout
  if (view.clearTimeout === watch.wrappedClear) view.clearTimeout = watch.clearTimeout
  if (view.fetch === watch.wrappedFetch) view.fetch = watch.fetch
  const XHR = (view as any).XMLHttpRequest as typeof XMLHttpRequest | undefined
  if (XHR !== undefined && XHR.prototype.send === watch.wrappedSend) XHR.prototype.send = watch.send
  element.ownerDocument.removeEventListener("input", watch.onInput, true)
  watches.delete(view)
  delete (view as any)[KEY]
  return watch.texts
}
