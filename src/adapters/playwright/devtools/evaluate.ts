// mm_evaluate over our own DevTools session: the expression runs in the page's main world as the
// DevTools console runs it (statements, top-level await; a function is called), and the result is
// turned into JSON inside the page within caps of depth, items, string length and total size, so that
// a huge or cyclic value never crosses the wire whole. A thrown exception is an EvaluateFailed.
import type { CDPSession, Page } from "playwright"
import { DeadlineExceeded, EvaluateFailed } from "../../../domain/errors.js"
import type { EvaluateOptions, EvaluateResult } from "../../../services/session/devtools.js"

/** Caps of the JSON result. `maxChars` comes from the call. */
export const EVALUATE_LIMITS = { maxDepth: 6, maxItems: 100, maxString: 2_000 } as const

/** How much of an exception comes back: its message and first frames. */
const EXCEPTION_LIMIT = 1_000
const EXCEPTION_FRAMES = 5

const OBJECT_GROUP = "bwm-evaluate"

interface Limits {
  readonly maxChars: number
  readonly maxDepth: number
  readonly maxItems: number
  readonly maxString: number
}

/**
 * Runs in the page with `this` bound to the value: JSON within the limits, each cut place marked
 * ("…[cut: 12 more items]"). Self-contained: it is sent as source.
 */
function toCappedJson(this: unknown, limits: Limits): { type: string; value: unknown; cut: boolean } {
  let budget = limits.maxChars
  let cut = false
  const ancestors = new Set<unknown>()
  const nameOf = (value: object): string => {
    const constructor = (value as { constructor?: { name?: unknown } }).constructor
    return typeof constructor?.name === "string" && constructor.name !== "" ? constructor.name : "Object"
  }
  const typeOf = (value: unknown): string =>
    value === null ? "null" : Array.isArray(value) ? "array" : typeof value === "object" ? nameOf(value as object) : typeof value
  const text = (value: string): string => {
    const room = Math.max(20, Math.min(limits.maxString, budget))
    budget -= Math.min(value.length, room) + 2
    if (value.length <= room) return value
    cut = true
    return `${value.slice(0, room)}…[cut: ${value.length - room} more characters]`
  }
  const describeNode = (node: Node): string => {
    if (node instanceof Element) {
      const id = node.id === "" ? "" : `#${node.id}`
      const classes = typeof node.className === "string" && node.className.trim() !== "" ? `.${node.className.trim().split(/\s+/).join(".")}` : ""
      return text(`<${node.tagName.toLowerCase()}${id}${classes}>`)
    }
    return text(`[${node.nodeName}]`)
  }
  const walk = (value: unknown, depth: number): unknown => {
    switch (typeof value) {
      case "string":
        return text(value)
      case "number":
        budget -= 8
        return Number.isFinite(value) ? value : String(value)
      case "boolean":
        budget -= 5
        return value
      case "undefined":
        return text("[undefined]")
      case "bigint":
        return text(`${value}n`)
      case "symbol":
        return text(value.toString())
      case "function":
        return text(`[Function ${(value as { name?: string }).name || "anonymous"}]`)
    }
    if (value === null) {
      budget -= 4
      return null
    }
    const object = value as object
    if (typeof Node !== "undefined" && object instanceof Node) return describeNode(object)
    if (object instanceof Date) return text(Number.isNaN(object.getTime()) ? "Invalid Date" : object.toISOString())
    if (object instanceof RegExp) return text(String(object))
    if (object instanceof Error) return text(`${object.name}: ${object.message}`)
    if (ancestors.has(object)) return text("[Circular]")
    const list = Array.isArray(object) || (ArrayBuffer.isView(object) && !(object instanceof DataView))
    if (depth >= limits.maxDepth) {
      cut = true
      return text(list ? `[Array(${(object as ArrayLike<unknown>).length})]` : `[${nameOf(object)}]`)
    }
    ancestors.add(object)
    try {
      if (list || object instanceof Set || object instanceof Map) {
        const items: Array<unknown> =
          object instanceof Map ? [...object.entries()] : object instanceof Set ? [...object] : Array.from(object as ArrayLike<unknown>)
        const out: Array<unknown> = []
        for (const item of items) {
          if (out.length >= limits.maxItems || budget <= 0) {
            cut = true
            out.push(`…[cut: ${items.length - out.length} more items]`)
            break
          }
          out.push(walk(item, depth + 1))
        }
        return out
      }
      const toJSON = (object as { toJSON?: unknown }).toJSON
      if (typeof toJSON === "function") return walk(toJSON.call(object), depth)
      const keys = Object.keys(object)
      const out: Record<string, unknown> = {}
      let shown = 0
      for (const key of keys) {
        if (shown >= limits.maxItems || budget <= 0) {
          cut = true
          out["…"] = `[cut: ${keys.length - shown} more keys]`
          break
        }
        budget -= key.length + 4
        let inner: unknown
        try {
          inner = (object as Record<string, unknown>)[key]
        } catch (error) {
          inner = `[Exception: ${error instanceof Error ? error.message : String(error)}]`
        }
        out[key] = walk(inner, depth + 1)
        shown++
      }
      return out
    } finally {
      ancestors.delete(object)
    }
  }
  const value = walk(this, 0)
  return { type: typeOf(this), value, cut }
}

interface RemoteObject {
  readonly type: string
  readonly subtype?: string | undefined
  readonly value?: unknown
  readonly unserializableValue?: string | undefined
  readonly objectId?: string | undefined
  readonly description?: string | undefined
}

interface ExceptionDetails {
  readonly text: string
  readonly exception?: RemoteObject | undefined
}

/** The exception's message and first frames, bounded. */
export const exceptionText = (details: ExceptionDetails): string => {
  const exception = details.exception
  const raw =
    exception?.description ??
    (exception?.value !== undefined ? `${details.text} ${JSON.stringify(exception.value)}` : undefined) ??
    exception?.unserializableValue ??
    details.text
  const lines = raw.split("\n")
  const frames = lines.filter((line) => /^\s+at /.test(line))
  const message = lines.filter((line) => !/^\s+at /.test(line)).join("\n")
  const kept = [message, ...frames.slice(0, EXCEPTION_FRAMES).map((line) => `    ${line.trim()}`)]
  if (frames.length > EXCEPTION_FRAMES) kept.push(`    … ${frames.length - EXCEPTION_FRAMES} more frames`)
  const joined = kept.join("\n")
  return joined.length <= EXCEPTION_LIMIT ? joined : `${joined.slice(0, EXCEPTION_LIMIT)}…`
}

/** A primitive that came back by value, under the same caps. */
const primitiveResult = (remote: RemoteObject, maxChars: number): EvaluateResult => {
  if (remote.type === "undefined") return { type: "undefined" }
  if (remote.unserializableValue !== undefined) return { type: remote.type, value: remote.unserializableValue }
  if (remote.subtype === "null") return { type: "null", value: null }
  if (typeof remote.value === "string") {
    const room = Math.min(maxChars, EVALUATE_LIMITS.maxString * 10)
    return remote.value.length <= room
      ? { type: "string", value: remote.value }
      : { type: "string", value: `${remote.value.slice(0, room)}…[cut: ${remote.value.length - room} more characters]`, cut: true }
  }
  return { type: remote.type, value: remote.value }
}

const failed = (details: ExceptionDetails) => new EvaluateFailed({ exception: exceptionText(details) })

const run = async (cdp: CDPSession, expression: string, options: EvaluateOptions): Promise<EvaluateResult> => {
  const maxChars = options.maxChars
  const evaluated = await cdp.send("Runtime.evaluate", {
    expression,
    replMode: true,
    awaitPromise: true,
    returnByValue: false,
    objectGroup: OBJECT_GROUP,
    // V8 terminates synchronous code that runs longer (a busy loop would otherwise hold the page).
    ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {})
  })
  if (evaluated.exceptionDetails !== undefined) throw failed(evaluated.exceptionDetails)
  let result: RemoteObject = evaluated.result
  // The console's REPL mode answers a promise it was handed unawaited (`fetch(url)`): its value is what was asked for.
  if (result.subtype === "promise" && result.objectId !== undefined) {
    const settled = await cdp.send("Runtime.awaitPromise", { promiseObjectId: result.objectId, returnByValue: false })
    if (settled.exceptionDetails !== undefined) throw failed(settled.exceptionDetails)
    result = settled.result
  }
  // A function is called, as Playwright's evaluate does with one.
  if (result.type === "function" && result.objectId !== undefined) {
    const called = await cdp.send("Runtime.callFunctionOn", {
      functionDeclaration: "function () { return this() }",
      objectId: result.objectId,
      awaitPromise: true,
      returnByValue: false,
      objectGroup: OBJECT_GROUP
    })
    if (called.exceptionDetails !== undefined) throw failed(called.exceptionDetails)
    result = called.result
  }
  if (result.objectId === undefined) return primitiveResult(result, maxChars)
  const limits: Limits = { maxChars, ...EVALUATE_LIMITS }
  const capped = await cdp.send("Runtime.callFunctionOn", {
    functionDeclaration: toCappedJson.toString(),
    objectId: result.objectId,
    arguments: [{ value: limits }],
    returnByValue: true
  })
  if (capped.exceptionDetails !== undefined) throw failed(capped.exceptionDetails)
  const { type, value, cut } = capped.result.value as { type: string; value: unknown; cut: boolean }
  return cut ? { type, value, cut } : { type, value }
}

/**
 * Evaluates in the page's main world over a DevTools session of its own, detached afterwards. When the
 * call is interrupted (its deadline), code still running is terminated and a promise that never settles
 * is abandoned. A failure of the session itself (the page navigated or closed meanwhile) is reported
 * like a thrown exception.
 */
export const evaluateExpression = async (
  page: Page,
  expression: string,
  options: EvaluateOptions,
  signal: AbortSignal
): Promise<EvaluateResult> => {
  const cdp = await page
    .context()
    .newCDPSession(page)
    .catch((error: unknown) => {
      throw new EvaluateFailed({ exception: `the page cannot be reached (${String(error).split("\n")[0]!.slice(0, 300)})` })
    })
  const detach = () => void cdp.detach().catch(() => undefined)
  // Code still running is terminated before the session goes: a busy loop would otherwise hold the page.
  const stop = () => void cdp.send("Runtime.terminateExecution").then(detach, detach)
  signal.addEventListener("abort", stop, { once: true })
  const started = Date.now()
  const timeoutMs = options.timeoutMs
  const tooLong = () => new DeadlineExceeded({ tool: "evaluate", timeoutMs: timeoutMs ?? 0 })
  let timer: ReturnType<typeof setTimeout> | undefined
  let timedOut = false
  const running = run(cdp, expression, options)
  // A promise that never settles is abandoned at timeoutMs (the call's deadline only backs this up).
  const bounded =
    timeoutMs === undefined
      ? running
      : Promise.race([
          running,
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => {
              timedOut = true
              reject(tooLong())
            }, timeoutMs)
          })
        ])
  running.catch(() => undefined)
  try {
    return await bounded
  } catch (error) {
    if (error instanceof EvaluateFailed || error instanceof DeadlineExceeded) throw error
    // V8 terminated code that ran past the evaluation's timeout: the protocol only says "Internal error".
    if (timeoutMs !== undefined && Date.now() - started >= timeoutMs) throw tooLong()
    throw new EvaluateFailed({ exception: (error instanceof Error ? error.message : String(error)).split("\n")[0]!.slice(0, EXCEPTION_LIMIT) })
  } finally {
    clearTimeout(timer)
    signal.removeEventListener("abort", stop)
    if (timedOut) stop()
    else if (!signal.aborted) detach()
  }
}
