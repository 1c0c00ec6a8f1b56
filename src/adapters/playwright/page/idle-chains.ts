// In the page: tells a chain of timers that only re-schedules itself (a poll that finds nothing to do,
// a loop waiting for a condition) from one that leads somewhere, for the two counts of short timers that
// an answer waits for (timers.ts after an input, reaction.ts after an action read back). A page with a
// 100 ms poll held every answer to the settling's cap, since each tick scheduled the next one.
// A run of a counted timer's callback changed nothing when, from its start to the end of its task (its
// microtasks included), no node, attribute or text of the document changed (style too), and the callback
// itself started no request, asked for no animation frame and scheduled at most one timer (the page's
// fetch, XMLHttpRequest's send and requestAnimationFrame note it while the callback runs, and are the
// page's own again right after: a request is waited for on its own anyway, observer/quiet.ts). The timer such a run scheduled
// stops counting when it is the same callback again (a loop) or when the run was already the second in
// a row of its chain to change nothing; it still runs, and whatever it schedules in turn is not counted
// either. A chain whose runs change the DOM (a debounced filter, a ticker) is followed as before: only
// less waiting comes of this, never an action's verdict, which the action's own guard decides.

/** Runs in a row that changed nothing, after which the chain's next timer is no longer waited for. */
const IDLE_RUNS = 2

/** One run of a counted timer's callback. */
export interface ChainRun {
  readonly handler: unknown
  /** How many runs right before it in its chain changed nothing. */
  readonly idleBefore: number
  readonly mutationsAt: number
  /** Timers it scheduled (counted or not). */
  timers: number
  /** It started a request or asked for an animation frame. */
  busy: boolean
  /** Its task is over (set when its callback returned; judged in a later task, when its microtasks ran too). */
  ended: boolean
  /** The document's changes counted when the next task we see began (its own microtasks ran by then). */
  mutationsEnd?: number
  /** Whether it changed nothing, once judged. */
  idle?: boolean
  /** The counted timers it scheduled: whether each is its own callback again, and how to stop counting it. */
  readonly children: Array<{ readonly self: boolean; readonly drop: () => void }>
}

/** A timer that stopped counting: its run schedules nothing counted either. */
export const DROPPED = Symbol("dropped chain")

export interface IdleChains {
  /** Runs `call` as a run of a counted timer's `handler` that `parent`'s run scheduled (undefined: an input did, or a run the caller does not follow). */
  readonly track: <A>(handler: unknown, parent: ChainRun | undefined, call: () => A) => A
  /** Runs `call` as the run of a timer that stopped counting (see DROPPED). */
  readonly untracked: <A>(call: () => A) => A
  /** The run in progress now: a tracked one, DROPPED, or undefined outside any. */
  readonly current: () => ChainRun | typeof DROPPED | undefined
  /** The run in progress scheduled a timer; `drop` (for a counted one) stops counting it. */
  readonly scheduled: (handler: unknown, drop?: () => void) => void
  /** Judges the runs whose task is over, dropping the timers of chains that changed nothing. */
  readonly judge: () => void
  /** Stops watching the document (a watch that ended). */
  readonly close: () => void
}

/** The judge of the chains of `view`'s counted timers (made at install: the page's MessageChannel as it was then). */
export const idleChains = (view: Window): IdleChains => {
  // A run is judged in a task after its own, by a message (which fake clocks leave alone).
  const channel = new MessageChannel()
  let queued = false
  channel.port1.onmessage = () => {
    queued = false
    judge()
  }
  let mutations = 0
  const observer = new MutationObserver(() => {
    mutations++
  })
  const flush = () => {
    if (observer.takeRecords().length > 0) mutations++
  }
  let running: ChainRun | typeof DROPPED | undefined
  const unjudged: Array<ChainRun> = []
  // At the start of a task of ours (a run, a judge): the runs that ended before it get their count of
  // changes, so that another chain's change in a later task is not laid at their door.
  const taskBegins = () => {
    flush()
    for (const run of unjudged) if (run.ended && run.mutationsEnd === undefined) run.mutationsEnd = mutations
  }
  const judgeRun = (run: ChainRun) => {
    if (run.idle !== undefined || !run.ended) return
    run.idle = (run.mutationsEnd ?? mutations) === run.mutationsAt && !run.busy && run.timers <= 1
    if (!run.idle) return
    for (const child of run.children) if (child.self || run.idleBefore + 1 >= IDLE_RUNS) child.drop()
  }
  const judge = () => {
    taskBegins()
    for (const run of unjudged) judgeRun(run)
    for (let index = unjudged.length - 1; index >= 0; index--) if (unjudged[index]!.idle !== undefined) unjudged.splice(index, 1)
    if (unjudged.length === 0) observer.disconnect()
  }
  // While a run's callback runs (not its microtasks), the page's fetch, XMLHttpRequest's send and
  // requestAnimationFrame note that it called them; the page's own are back right after.
  const XHR = (view as any).XMLHttpRequest as typeof XMLHttpRequest | undefined
  const noting = <F extends (...args: Array<any>) => any>(original: F): F =>
    function (this: unknown, ...args: Array<unknown>) {
      if (running !== undefined && running !== DROPPED) running.busy = true
      return original.apply(this, args)
    } as F
  const noted = <A>(call: () => A): A => {
    const own = { fetch: view.fetch, send: XHR?.prototype.send, frame: view.requestAnimationFrame }
    const ours = {
      fetch: typeof own.fetch === "function" ? noting(own.fetch) : undefined,
      send: typeof own.send === "function" ? noting(own.send) : undefined,
      frame: typeof own.frame === "function" ? noting(own.frame) : undefined
    }
    if (ours.fetch !== undefined) view.fetch = ours.fetch
    if (ours.send !== undefined) XHR!.prototype.send = ours.send
    if (ours.frame !== undefined) view.requestAnimationFrame = ours.frame
    try {
      return call()
    } finally {
      // Only ours are put back: a page that replaced one meanwhile keeps its own.
      if (ours.fetch !== undefined && view.fetch === ours.fetch) view.fetch = own.fetch
      if (ours.send !== undefined && XHR!.prototype.send === ours.send) XHR!.prototype.send = own.send!
      if (ours.frame !== undefined && view.requestAnimationFrame === ours.frame) view.requestAnimationFrame = own.frame
    }
  }
  const within = <A>(run: ChainRun | typeof DROPPED | undefined, call: () => A): A => {
    const outer = running
    running = run
    try {
      return call()
    } finally {
      running = outer
    }
  }
  return {
    track: (handler, parent, call) => {
      taskBegins()
      if (parent !== undefined) judgeRun(parent)
      const run: ChainRun = {
        handler,
        idleBefore: parent?.idle === true ? parent.idleBefore + 1 : 0,
        mutationsAt: mutations,
        timers: 0,
        busy: false,
        ended: false,
        children: []
      }
      unjudged.push(run)
      observer.observe(view.document, { subtree: true, childList: true, characterData: true, attributes: true })
      try {
        return within(run, () => noted(call))
      } finally {
        run.ended = true
        if (!queued) {
          queued = true
          channel.port2.postMessage(null)
        }
      }
    },
    untracked: (call) => {
      taskBegins()
      return within(DROPPED, call)
    },
    current: () => running,
    scheduled: (handler, drop) => {
      if (running === undefined || running === DROPPED) return
      running.timers++
      if (drop !== undefined) running.children.push({ self: handler === running.handler, drop })
    },
    judge,
    close: () => {
      observer.disconnect()
      channel.port1.close()
    }
  }
}
