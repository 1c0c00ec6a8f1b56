// Page code that runs in the page's main world (where its own timers, fetch and XMLHttpRequest are: the
// direct type's watch of the page's reaction, page/typing.ts), installed once per document and held by our
// DevTools session only: the installing script answers the installed functions as a remote object, and
// later calls are Runtime.callFunctionOn on it, a few dozen bytes instead of the whole bundle each time.
// No global of the page names it: page scripts can neither see nor replace it. A document that lost it
// (a navigation, Runtime turned off and on after a console flood) gets it again on the next start; a
// read finds nothing there, as the watch it reads was in the document that went away.
import type { CDPSession, Page } from "playwright"
import { devtoolsOf, hasInstalled, inTime, noteInstalled, type EvaluateOptions } from "./page-eval.js"

/** The page's remote objects we hold for installed main-world code (not let go with an action's objects). */
export const MAIN_WORLD_OBJECTS = "bwm-main-world"

/** A bundle of page functions (an expression answering an object of them) under a key naming its version. */
export interface MainWorldCode {
  readonly key: string
  readonly source: string
}

/** The installed code of each page, by key: its remote object in the document it was installed in. */
const held = new WeakMap<Page, Map<string, string>>()

const heldOf = (page: Page): Map<string, string> => {
  let known = held.get(page)
  if (known === undefined) held.set(page, (known = new Map()))
  return known
}

interface Reply {
  readonly result: { readonly value?: unknown; readonly objectId?: string; readonly deepSerializedValue?: { readonly value?: unknown } }
  readonly exceptionDetails?: { readonly text: string; readonly exception?: { readonly description?: string } }
}

const failed = (reply: Reply) =>
  new Error(`page script failed: ${reply.exceptionDetails?.exception?.description ?? reply.exceptionDetails?.text ?? ""}`)

/** `code`'s function `name` on its installed object with JSON arguments; undefined when the object is gone. Sent at once (no wait before the message goes out). */
const callHeld = async <A>(session: CDPSession, objectId: string, name: string, args: ReadonlyArray<unknown>): Promise<{ readonly value: A } | undefined> => {
  let reply: Reply
  try {
    reply = await session.send("Runtime.callFunctionOn", {
      objectId,
      functionDeclaration: `function (...args) { return this[${JSON.stringify(name)}](...args) }`,
      arguments: args.map((value) => ({ value })),
      returnByValue: true,
      awaitPromise: true
    })
  } catch (error) {
    // The object's document (its execution context) went away, or our session let go of its objects.
    if (error instanceof Error && /Could not find object|Cannot find context|Execution context was destroyed|Inspected target navigated/.test(error.message)) {
      return undefined
    }
    throw error
  }
  if (reply.exceptionDetails !== undefined) throw failed(reply)
  return { value: reply.result.value as A }
}

/** A primitive of a deep-serialized object's own property `key` (the install's answer, below). */
const deepProperty = (reply: Reply, key: string): unknown => {
  const entries = reply.result.deepSerializedValue?.value
  const entry = Array.isArray(entries) ? (entries as Array<[unknown, { readonly value?: unknown }]>).find(([name]) => name === key) : undefined
  return entry?.[1].value
}

/**
 * Installs `code` in the page's current document and calls `name` there, in one message sent at once:
 * the installed object is kept (and its answer taken from it) unless the call answered `false`.
 */
const installAndCall = async <A>(page: Page, session: CDPSession, code: MainWorldCode, name: string, timeout: number): Promise<A | false> => {
  const objects = heldOf(page)
  objects.delete(code.key)
  // The object held is one whose prototype is the code (calls reach its functions), with the call's answer as its own property.
  const reply: Reply = await session.send("Runtime.evaluate", {
    expression: `(() => { const code = ${code.source}; const answer = code[${JSON.stringify(name)}](); return answer === false ? false : Object.assign(Object.create(code), { answer }) })()`,
    returnByValue: false,
    awaitPromise: true,
    objectGroup: MAIN_WORLD_OBJECTS,
    serializationOptions: { serialization: "deep", maxDepth: 1 },
    timeout
  })
  if (reply.exceptionDetails !== undefined) throw failed(reply)
  if (reply.result.objectId === undefined) return false
  objects.set(code.key, reply.result.objectId)
  noteInstalled(page, code.key)
  return deepProperty(reply, "answer") as A
}

/**
 * Calls `name` of `code` in the page's main world, installing `code` first in a document that does not
 * have it: then one trip installs and calls, and the call must answer `false` for "no" (nothing is kept
 * then) or anything else for "yes" (the installed object is kept). For a function that starts something
 * later calls read, such as a watch. Answers what the call answered (a primitive; an object's answer is
 * undefined when it came with the install).
 */
export const startInMainWorld = <A = boolean>(page: Page, code: MainWorldCode, name: string, options: EvaluateOptions = {}): Promise<A | false> =>
  inTime(options, async (timeout) => {
    const session = await devtoolsOf(page)
    const known = heldOf(page).get(code.key)
    if (known !== undefined && hasInstalled(page, code.key)) {
      const answer = await callHeld<A>(session, known, name, [])
      if (answer !== undefined) return answer.value
    }
    return installAndCall<A>(page, session, code, name, timeout)
  })

/**
 * startInMainWorld made ready ahead (the page's session known), for a call that must reach the page right
 * behind another message of ours (the direct type's watch, behind the trip that focuses its field: one
 * session's messages run in the page in the order they were sent). `send` puts its message on the wire at
 * once; it answers `false` where startInMainWorld would go on to install the code a second time (the
 * object went away meanwhile): the caller then starts it again, in a trip of its own.
 */
export const readyToStart = async <A>(page: Page, code: MainWorldCode, name: string, options: EvaluateOptions = {}) => {
  const session = await devtoolsOf(page)
  const known = heldOf(page).get(code.key)
  const held = known !== undefined && hasInstalled(page, code.key) ? known : undefined
  return (): Promise<A | false> =>
    inTime(options, (timeout) =>
      held === undefined ? installAndCall<A>(page, session, code, name, timeout) : callHeld<A>(session, held, name, []).then((answer) => (answer === undefined ? false : answer.value))
    )
}

/** Calls `name` of `code`, installed in the page's main world by startInMainWorld, with JSON arguments; `none` when this document has it not. */
export const callInMainWorld = <A>(
  page: Page,
  code: MainWorldCode,
  name: string,
  args: ReadonlyArray<unknown>,
  none: A,
  options: EvaluateOptions = {}
): Promise<A> =>
  inTime(options, async () => {
    const known = heldOf(page).get(code.key)
    if (known === undefined || !hasInstalled(page, code.key)) return none
    const answer = await callHeld<A>(await devtoolsOf(page), known, name, args)
    return answer === undefined ? none : answer.value
  })
