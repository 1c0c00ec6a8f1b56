// Our own page scripts run through one DevTools session per page with Runtime.evaluate, in the main
// world of the top frame. Playwright's page.evaluate would first install its utility script in each
// new document (a noticeable cost on every navigation) to serialize values we never need: ours are
// plain JSON both ways. Scripts that a library user passes in still go through Playwright.
import type { CDPSession, Page } from "playwright"

const sessions = new WeakMap<Page, Promise<CDPSession>>()

const sessionOf = (page: Page): Promise<CDPSession> => {
  const known = sessions.get(page)
  if (known !== undefined) return known
  const opened = page.context().newCDPSession(page)
  sessions.set(page, opened)
  const forget = () => {
    if (sessions.get(page) === opened) sessions.delete(page)
  }
  // A session that could not open, or closed (the renderer crashed, say), is not kept: the next call opens a fresh one.
  opened.then((session) => session.once("close", forget), forget)
  return opened
}

/** The JSON value of `expression` in the page (a promise is awaited); a thrown exception rejects. */
export const evaluateInPage = async <A>(page: Page, expression: string): Promise<A> => {
  const session = await sessionOf(page)
  const reply = await session.send("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true })
  if (reply.exceptionDetails !== undefined) {
    throw new Error(`page script failed: ${reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text}`)
  }
  return reply.result.value as A
}

/**
 * The same, once more after the next document is in when the first try failed on a live page: a
 * navigation can destroy the execution context mid-call.
 */
export const evaluateAcrossNavigation = async <A>(page: Page, expression: string): Promise<A> => {
  try {
    return await evaluateInPage<A>(page, expression)
  } catch (error) {
    if (page.isClosed()) throw error
    await page.waitForLoadState("domcontentloaded", { timeout: 5_000 }).catch(() => undefined)
    return evaluateInPage<A>(page, expression)
  }
}

/** The expression that calls a self-contained page function with a JSON argument. */
export const callExpression = <Arg>(fn: (arg: Arg) => unknown, arg: Arg): string => `(${fn.toString()})(${JSON.stringify(arg)})`
