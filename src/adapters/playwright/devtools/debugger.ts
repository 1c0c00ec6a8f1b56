// The debugger port over our DevTools sessions: attach and detach, breakpoints, pause, resume, step and
// evaluate on a paused frame. Every command that lets the page run answers the pause that follows.
import { Effect, Option, Ref } from "effect"
import type { CDPSession } from "playwright"
import { EVALUATE_CHARS, type BreakpointInfo, type BreakpointSpec, type EvaluatedValue, type PauseContext, type PauseOnExceptions } from "../../../domain/debugger.js"
import { type BrowserClosed, DebuggerNotPaused, InvalidInput, type NoActiveSession } from "../../../domain/errors.js"
import type { DebuggerCommand, DebuggerStatus, PauseSummary, RunOutcome, SessionDebugger } from "../../../services/Session.js"
import { BrowserState, type BrowserStateService } from "../lifecycle/browser.js"
import {
  attachAll,
  attachTab,
  bindBreakpoint,
  contextOf,
  currentPause,
  Debuggers,
  type DebuggersService,
  detachAll,
  failed,
  pauseAfter,
  reported,
  unreported,
  type DebuggerHandle
} from "./debugger-session.js"
import { atText, cut, newestPause, previewOf, type BreakpointEntry, type Pause, type RemoteValue } from "./debugger-state.js"

/** How long a command waits for the page to pause again before answering that it runs. */
const WAIT_AFTER = {
  /** A step lands on the next statement at once, unless that statement takes long (a loop, a sync request). */
  step: "2 seconds",
  /** Resumed code often hits the next breakpoint of the same handler right away. */
  resume: "300 millis",
  /** An idle page pauses at its next statement: a timer soon, or the next click. */
  pause: "500 millis"
} as const

/** The object group of evaluation results, released when the page runs again. */
const OBJECT_GROUP = "bwm-debugger"

/** Serializes `this` as JSON in the page, cycles marked and stopping once past the size an answer keeps. */
const SERIALIZE = `function () {
  const limit = ${EVALUATE_CHARS + 1}
  const seen = new WeakSet()
  let size = 0
  try {
    const text = JSON.stringify(this, function (key, value) {
      if (size > limit) return undefined
      if (typeof value === "bigint") return value.toString() + "n"
      if (typeof value === "object" && value !== null) {
        if (seen.has(value)) return "[Circular]"
        seen.add(value)
      }
      size += typeof value === "string" ? value.length + key.length + 4 : key.length + 8
      return value
    })
    return { text: text === undefined ? null : text, cut: size > limit }
  } catch (error) {
    return { text: null, cut: false }
  }
}`

export const summaryOf = (pause: Pause): PauseSummary => ({
  tabId: pause.tabId,
  at: pause.frames[0] === undefined ? "an unknown location" : atText(pause.frames[0])
})

const infoOf = (entry: BreakpointEntry): BreakpointInfo => {
  const seen = new Set<string>()
  const resolved = [...entry.bound.values()]
    .flatMap((bound) => bound.locations)
    .filter((location) => {
      const key = `${location.url}:${location.line}:${location.column}`
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
  return {
    id: entry.id,
    ...(entry.spec.url !== undefined ? { url: entry.spec.url } : {}),
    ...(entry.spec.urlRegex !== undefined ? { urlRegex: entry.spec.urlRegex } : {}),
    line: entry.spec.line,
    ...(entry.spec.column !== undefined ? { column: entry.spec.column } : {}),
    ...(entry.spec.condition !== undefined ? { condition: entry.spec.condition } : {}),
    resolved
  }
}

const sameSpec = (a: BreakpointSpec, b: BreakpointSpec) =>
  a.url === b.url && a.urlRegex === b.urlRegex && a.line === b.line && a.column === b.column && a.condition === b.condition

/** What the debugger's calls share: the browser, our DevTools sessions and the running session's debugger. */
interface Port {
  readonly browser: BrowserStateService
  readonly debuggers: DebuggersService
  /** The running session's debugger (made on first use). */
  readonly handle: Effect.Effect<DebuggerHandle, NoActiveSession | BrowserClosed>
}

const statusOf = (debug: DebuggerHandle) =>
  Effect.gen(function* () {
    const state = yield* Ref.get(debug.state)
    const tabs = yield* Ref.get(debug.tabs)
    const newest = newestPause(state)
    const status: DebuggerStatus = {
      enabled: state.enabled,
      tabs: tabs.size,
      pauseOnExceptions: state.pauseOnExceptions,
      breakpoints: state.breakpoints.map(infoOf),
      ...(newest !== undefined ? { paused: summaryOf(newest) } : {})
    }
    return status
  })

/** Turns the debugger on for every tab, if it is not yet (under the lock). */
const enableNow = (debuggers: DebuggersService, debug: DebuggerHandle) =>
  Effect.gen(function* () {
    yield* Ref.update(debug.state, (state) => (state.enabled ? state : { ...state, enabled: true }))
    yield* attachAll(debuggers, debug)
  })

const debuggerPaused = ({ browser, debuggers }: Port) => Effect.gen(function* () {
  const current = yield* browser.current
  if (Option.isNone(current) || Option.isSome(yield* Ref.get(current.value.ended))) return Option.none<PauseSummary>()
  const debug = yield* debuggers.find(current.value)
  if (Option.isNone(debug)) return Option.none<PauseSummary>()
  return Option.map(Option.fromNullable(yield* currentPause(debug.value)), summaryOf)
})

const debuggerUnreportedPause = ({ browser, debuggers }: Port) => Effect.gen(function* () {
  const current = yield* browser.current
  if (Option.isNone(current) || Option.isSome(yield* Ref.get(current.value.ended))) return Option.none<PauseContext>()
  const debug = yield* debuggers.find(current.value)
  if (Option.isNone(debug)) return Option.none<PauseContext>()
  const pause = yield* currentPause(debug.value)
  if (pause === undefined || !(yield* unreported(debug.value, pause))) return Option.none<PauseContext>()
  return Option.some(yield* Effect.zipLeft(contextOf(debug.value, pause), reported(debug.value, pause)))
})

const debuggerConfigure = ({ debuggers, handle }: Port, change: { readonly enabled?: boolean | undefined; readonly pauseOnExceptions?: PauseOnExceptions | undefined }) =>
  Effect.gen(function* () {
    const debug = yield* handle
    return yield* debug.lock.withPermits(1)(
      Effect.gen(function* () {
        if (change.enabled === false) {
          yield* detachAll(debug)
          return yield* statusOf(debug)
        }
        yield* enableNow(debuggers, debug)
        if (change.pauseOnExceptions !== undefined) {
          const state = change.pauseOnExceptions
          yield* Ref.update(debug.state, (current) => ({ ...current, pauseOnExceptions: state }))
          for (const tab of (yield* Ref.get(debug.tabs)).values()) {
            yield* Effect.tryPromise({
              try: () => tab.cdp.send("Debugger.setPauseOnExceptions", { state }),
              catch: failed("set what exceptions pause")
            })
          }
        }
        return yield* statusOf(debug)
      })
    )
  })

/** The context of a pause the call answers with; its notice is taken back. */
const answer = (debug: DebuggerHandle, pause: Pause) =>
  Effect.map(Effect.zipLeft(contextOf(debug, pause), reported(debug, pause)), (context): RunOutcome => ({ paused: context }))

/** Sends a command to the paused tab and answers the pause that follows within `wait`, or that the page runs. */
const letRun = (debug: DebuggerHandle, command: Exclude<DebuggerCommand, "pause">, tool: string) =>
  Effect.gen(function* () {
    const pause = yield* currentPause(debug)
    if (pause === undefined) return yield* new DebuggerNotPaused({ tool })
    const tab = (yield* Ref.get(debug.tabs)).get(pause.page)
    if (tab === undefined) return yield* new DebuggerNotPaused({ tool })
    const state = yield* Ref.get(debug.state)
    const method = (
      { resume: "Debugger.resume", stepOver: "Debugger.stepOver", stepInto: "Debugger.stepInto", stepOut: "Debugger.stepOut" } as const
    )[command]
    yield* Effect.tryPromise({
      try: async () => {
        await tab.cdp.send("Runtime.releaseObjectGroup", { objectGroup: OBJECT_GROUP }).catch(() => undefined)
        await tab.cdp.send(method)
      },
      catch: failed(command === "resume" ? "resume" : "step")
    })
    const next = yield* pauseAfter(debug, state.seq).pipe(Effect.timeoutOption(command === "resume" ? WAIT_AFTER.resume : WAIT_AFTER.step))
    if (Option.isSome(next)) return yield* answer(debug, next.value)
    const outcome: RunOutcome = { running: true }
    return outcome
  })

/** Asks the active tab to pause at its next statement; answers the pause if it comes soon. */
const pauseNow = ({ browser, debuggers }: Port, debug: DebuggerHandle) =>
  Effect.gen(function* () {
    const already = yield* currentPause(debug)
    if (already !== undefined) return yield* answer(debug, already)
    const { page } = yield* browser.activePage
    const tab = yield* debug.lock.withPermits(1)(Effect.zipRight(enableNow(debuggers, debug), attachTab(debuggers, debug, page)))
    const before = yield* Ref.modify(debug.state, (state) => [state.seq, { ...state, pauseRequested: new Set(state.pauseRequested).add(page) }])
    yield* Effect.tryPromise({ try: () => tab.cdp.send("Debugger.pause"), catch: failed("pause") })
    const next = yield* pauseAfter(debug, before).pipe(Effect.timeoutOption(WAIT_AFTER.pause))
    if (Option.isSome(next)) return yield* answer(debug, next.value)
    const outcome: RunOutcome = { running: true, pausePending: true }
    return outcome
  })

const debuggerRun = (port: Port, command: DebuggerCommand) =>
  Effect.gen(function* () {
    const debug = yield* port.handle
    if (command === "pause") return yield* pauseNow(port, debug)
    return yield* letRun(debug, command, command === "resume" ? "mm_debugger resume" : "mm_step")
  })

const debuggerEvaluate = ({ handle }: Port, expression: string, frameIndex: number) =>
  Effect.gen(function* () {
    const debug = yield* handle
    const pause = yield* currentPause(debug)
    if (pause === undefined) return yield* new DebuggerNotPaused({ tool: "mm_evaluate_frame" })
    const frame = pause.event.callFrames[frameIndex]
    if (frame === undefined) {
      return yield* new InvalidInput({
        field: "frameIndex",
        problem: `the pause has ${pause.event.callFrames.length} frame${pause.event.callFrames.length === 1 ? "" : "s"} (0 is the innermost)`
      })
    }
    const tab = (yield* Ref.get(debug.tabs)).get(pause.page)
    if (tab === undefined) return yield* new DebuggerNotPaused({ tool: "mm_evaluate_frame" })
    const reply = yield* Effect.tryPromise({
      try: () =>
        tab.cdp.send("Debugger.evaluateOnCallFrame", {
          callFrameId: frame.callFrameId,
          expression,
          objectGroup: OBJECT_GROUP,
          generatePreview: true,
          silent: true,
          // An endless loop in the expression would keep the page (and this call) waiting for ever.
          timeout: 5_000
        }),
      catch: failed("evaluate on the frame")
    })
    const result = reply.result as RemoteValue
    if (reply.exceptionDetails !== undefined) {
      const thrown = reply.exceptionDetails.exception as RemoteValue | undefined
      const value: EvaluatedValue = {
        type: thrown?.type ?? "exception",
        exception: cut(thrown?.description ?? reply.exceptionDetails.text, EVALUATE_CHARS)
      }
      return value
    }
    return yield* valueOf(tab.cdp, result)
  })

const valueOf = (cdp: CDPSession, result: RemoteValue) =>
  Effect.gen(function* () {
    if (result.type === "undefined") return { type: "undefined" } satisfies EvaluatedValue
    if (result.unserializableValue !== undefined) return { type: result.type, text: result.unserializableValue } satisfies EvaluatedValue
    if (result.type === "string") {
      const text = String(result.value)
      return text.length > EVALUATE_CHARS
        ? ({ type: "string", text: cut(text, EVALUATE_CHARS), truncated: true } satisfies EvaluatedValue)
        : ({ type: "string", value: text } satisfies EvaluatedValue)
    }
    if (result.objectId === undefined) return { type: result.type, value: result.value ?? null } satisfies EvaluatedValue
    // Functions, DOM nodes and errors are shown as the console shows them; JSON would say {} for them.
    if (result.type === "function" || result.subtype === "node" || result.subtype === "error" || result.subtype === "symbol") {
      return { type: result.subtype ?? result.type, text: cut(previewOf(result), EVALUATE_CHARS) } satisfies EvaluatedValue
    }
    const serialized = yield* Effect.tryPromise({
      try: () =>
        cdp.send("Runtime.callFunctionOn", { objectId: result.objectId!, functionDeclaration: SERIALIZE, returnByValue: true, silent: true }),
      catch: failed("read the value")
    }).pipe(Effect.map((reply) => reply.result.value as { text: string | null; cut: boolean } | undefined))
    const type = result.subtype === "array" ? "array" : result.type
    if (serialized === undefined || serialized.text === null) return { type, text: cut(previewOf(result), EVALUATE_CHARS) } satisfies EvaluatedValue
    if (serialized.cut || serialized.text.length > EVALUATE_CHARS) {
      return { type, text: cut(serialized.text, EVALUATE_CHARS), truncated: true } satisfies EvaluatedValue
    }
    return { type, value: JSON.parse(serialized.text) as unknown } satisfies EvaluatedValue
  })

const setBreakpoint = ({ debuggers, handle }: Port, spec: BreakpointSpec) =>
  Effect.gen(function* () {
    const debug = yield* handle
    return yield* debug.lock.withPermits(1)(
      Effect.gen(function* () {
        yield* enableNow(debuggers, debug)
        const existing = (yield* Ref.get(debug.state)).breakpoints.find((entry) => sameSpec(entry.spec, spec))
        if (existing !== undefined) return infoOf(existing)
        const id = yield* Ref.modify(debug.state, (state) => [`bp${state.nextBreakpoint}`, { ...state, nextBreakpoint: state.nextBreakpoint + 1 }])
        let entry: BreakpointEntry = { id, spec, bound: new Map() }
        for (const tab of (yield* Ref.get(debug.tabs)).values()) {
          const bound = yield* bindBreakpoint(tab, entry)
          entry = { ...entry, bound: new Map(entry.bound).set(tab.page, bound) }
        }
        const added = entry
        yield* Ref.update(debug.state, (state) => ({ ...state, breakpoints: [...state.breakpoints, added] }))
        return infoOf(added)
      })
    )
  })

const removeBreakpoint = ({ handle }: Port, id: string) =>
  Effect.gen(function* () {
    const debug = yield* handle
    return yield* debug.lock.withPermits(1)(
      Effect.gen(function* () {
        const state = yield* Ref.get(debug.state)
        const entry = state.breakpoints.find((candidate) => candidate.id === id)
        if (entry === undefined) {
          const known = state.breakpoints.map((candidate) => candidate.id)
          return yield* new InvalidInput({ field: "id", problem: `no breakpoint ${id.slice(0, 20)}; set: ${known.length === 0 ? "none" : known.join(", ")}` })
        }
        const tabs = yield* Ref.get(debug.tabs)
        for (const [page, bound] of entry.bound) {
          const tab = tabs.get(page)
          if (tab === undefined) continue
          // A tab that closed meanwhile took its binding with it.
          yield* Effect.promise(() => tab.cdp.send("Debugger.removeBreakpoint", { breakpointId: bound.protocolId }).catch(() => undefined))
        }
        yield* Ref.update(debug.state, (current) => ({ ...current, breakpoints: current.breakpoints.filter((candidate) => candidate.id !== id) }))
        return infoOf(entry)
      })
    )
  })

export const make = Effect.gen(function* () {
  const browser = yield* BrowserState
  const debuggers = yield* Debuggers
  const port: Port = { browser, debuggers, handle: Effect.flatMap(browser.live, debuggers.of) }
  const service: SessionDebugger = {
    debuggerPaused: debuggerPaused(port),
    debuggerUnreportedPause: debuggerUnreportedPause(port),
    onPauseChange: (listener) => debuggers.onPauseChange(listener),
    debuggerStatus: Effect.flatMap(port.handle, statusOf),
    debuggerConfigure: (change) => browser.refineClosed(debuggerConfigure(port, change)),
    debuggerRun: (command) => browser.refineClosed(debuggerRun(port, command)),
    debuggerEvaluate: (expression, frameIndex) => browser.refineClosed(debuggerEvaluate(port, expression, frameIndex)),
    setBreakpoint: (spec) => browser.refineClosed(setBreakpoint(port, spec)),
    removeBreakpoint: (id) => browser.refineClosed(removeBreakpoint(port, id))
  }
  return service
})
