// In the page's main world, installed once per document (main-world.ts): counts the short timers that a
// person's input scheduled, so that the observation after an action waits for them (observer/quiet.ts).
// A click whose effect is `setTimeout(show, 150)` changes nothing on the page until then: no request, no
// animation, no DOM change for the settling to see; a key whose handler logs an error 50 ms later logs
// it after the answer. A timer counts when it is scheduled while a trusted click, key or input event is
// dispatched (the task that dispatches it, microtasks included), or by a counted timer's callback (a
// chain), with a delay of at most SHORT_MS and due within HORIZON_MS of the input that began its chain,
// at most MAX_CHAIN generations deep: a timer that reschedules itself forever, an interval, a poll is
// never waited for past that, and the observation has its own cap besides. Only the page's own
// `window.setTimeout` is wrapped (and requestAnimationFrame, which counts nothing but carries a chain
// through a frame); the originals are captured at install and always called, so a page that replaces
// them later (a fake clock) keeps its own, and one that captured them earlier is simply not counted.
// A chain that only re-schedules itself (a poll that changes nothing) stops counting after its first runs
// (idle-chains.ts): its runs are judged by what they changed.
// The counter lives in this closure, which no global of the page names: the page can make it count more
// (its own timers inside its own click handlers), which only makes an answer slower, within the cap; it
// cannot read it, nor make an action report success, which the action's own guard decides.

import { DROPPED, idleChains } from "./idle-chains.js"

/** Timers longer than this are a poll or a timeout, not the reaction to an input. */
const SHORT_MS = 1_000
/** A counted timer is due at most this long after the input that began its chain. */
const HORIZON_MS = 1_500
/** A timer scheduled by a counted timer counts up to this many generations (a loop stops counting). */
const MAX_CHAIN = 4
/** A counted timer this late was cleared behind our back (through a clearTimeout the page captured) or is frozen. */
const LATE_MS = 250

/** The trusted events that are a person's input (a click, a key, text, a choice). */
const INPUTS = [
  "pointerdown",
  "pointerup",
  "mousedown",
  "mouseup",
  "click",
  "dblclick",
  "auxclick",
  "contextmenu",
  "keydown",
  "keypress",
  "keyup",
  "beforeinput",
  "input",
  "change",
  "submit",
  "paste",
  "drop"
]
const INPUT_SET = new Set(INPUTS)

/** What a counted timer or frame descends from: when its input came, and how many timers deep it is. */
interface Origin {
  readonly at: number
  readonly generation: number
}

interface Timers {
  /** Counted timers not yet run: id to when they are due (performance.now). */
  readonly pending: Map<number, number>
  readonly now: () => number
  /** Judges the runs of counted timers whose task is over (idle-chains.ts). */
  readonly judge: () => void
}

let timers: Timers | undefined

/** Runs in the page's main world: wraps the page's timers once per document (a later call does nothing). */
export const installTimers = (): boolean => {
  if (timers !== undefined) return true
  const view = window
  const set = view.setTimeout as unknown as (handler: unknown, delay?: unknown, ...args: Array<unknown>) => number
  const clear = view.clearTimeout
  const frame = typeof view.requestAnimationFrame === "function" ? view.requestAnimationFrame : undefined
  const clock = performance
  const now = clock.now.bind(clock)
  const eventOf = Object.getOwnPropertyDescriptor(view, "event")?.get ?? Object.getOwnPropertyDescriptor(Window.prototype, "event")?.get
  const pending = new Map<number, number>()
  const chains = idleChains(view)
  timers = { pending, now, judge: chains.judge }
  // The input whose task runs now: set by our listener, cleared by a message, the next task after it.
  let inputTask: Origin | undefined
  // The counted timer (or frame) whose callback runs now.
  let running: Origin | undefined
  const channel = new MessageChannel()
  let posted = false
  channel.port1.onmessage = () => {
    posted = false
    inputTask = undefined
  }
  const onInput = (event: Event) => {
    if (!event.isTrusted) return
    inputTask = { at: now(), generation: 0 }
    if (!posted) {
      posted = true
      channel.port2.postMessage(null)
    }
  }
  for (const type of INPUTS) view.addEventListener(type, onInput, { capture: true, passive: true })
  const originNow = (): Origin | undefined => {
    if (running !== undefined) return running
    if (inputTask !== undefined) return inputTask
    // A listener of the page that ran before ours (registered on the window earlier, in the capture phase).
    let current: unknown
    try {
      current = eventOf?.call(view)
    } catch {
      current = undefined
    }
    return current instanceof Event && current.isTrusted && INPUT_SET.has(current.type) ? { at: now(), generation: 0 } : undefined
  }
  const counted = (origin: Origin | undefined, due: number): origin is Origin =>
    origin !== undefined && origin.generation < MAX_CHAIN && due <= origin.at + HORIZON_MS
  const inOrigin = <A>(origin: Origin, call: () => A): A => {
    const outer = running
    running = origin
    try {
      return call()
    } finally {
      running = outer
    }
  }
  const wrappedSet = function (this: unknown, handler: unknown, delay?: unknown, ...args: Array<unknown>): number {
    const ms = Math.max(0, Number(delay) || 0)
    const origin = typeof handler === "function" && ms <= SHORT_MS ? originNow() : undefined
    const due = now() + ms
    if (!counted(origin, due)) {
      chains.scheduled(handler)
      return set.call(view, handler, delay, ...args)
    }
    const next: Origin = { at: origin.at, generation: origin.generation + 1 }
    const parent = chains.current()
    let id = 0
    let dropped = false
    const run = function (this: unknown, ...callArgs: Array<unknown>) {
      pending.delete(id)
      const call = () => (handler as (...a: Array<unknown>) => unknown).apply(this, callArgs)
      if (dropped) return chains.untracked(call)
      return inOrigin(next, () => chains.track(handler, parent === DROPPED ? undefined : parent, call))
    }
    id = set.call(view, run, delay, ...args)
    pending.set(id, due)
    chains.scheduled(handler, () => {
      dropped = true
      pending.delete(id)
    })
    return id
  }
  const wrappedClear = function (id?: number): void {
    if (typeof id === "number") pending.delete(id)
    return clear.call(view, id)
  }
  // A frame carries the chain (a click that shows its result a frame later, through a timer); it counts nothing itself.
  const wrappedFrame = function (callback: FrameRequestCallback): number {
    const origin = typeof callback === "function" ? originNow() : undefined
    if (frame === undefined) return 0
    if (!counted(origin, now())) return frame.call(view, callback)
    return frame.call(view, (time) => inOrigin(origin, () => callback(time)))
  }
  for (const [name, value] of [
    ["setTimeout", wrappedSet],
    ["clearTimeout", wrappedClear],
    ...(frame === undefined ? [] : [["requestAnimationFrame", wrappedFrame] as const])
  ] as const) {
    Object.defineProperty(value, "name", { value: name, configurable: true })
    ;(view as any)[name] = value
  }
  return true
}

/** Runs in the page's main world: how many counted timers are still to run (-1: not installed here). */
export const pendingTimers = (): number => {
  if (timers === undefined) return -1
  timers.judge()
  const late = timers.now() - LATE_MS
  for (const [id, due] of timers.pending) if (due < late) timers.pending.delete(id)
  return timers.pending.size
}
