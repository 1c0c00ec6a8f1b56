// Before an observation is settled in the page (page/settle.ts): what the page is still doing that its
// DOM does not show yet is waited for first, on the Node side, within the settling's cap: requests that
// feed a render, and the short timers a person's input scheduled (page/timers.ts, installed once per
// document in the page's main world). A page with neither costs one look at each, no wait.
import { Effect } from "effect"
import type { Page } from "playwright"
import { requestsInFlight } from "../lifecycle/live-session.js"
import { callInMainWorld, startInMainWorld, type MainWorldCode } from "../main-world.js"
import { PAGE } from "../page-bundle.js"

/** How often the page's requests and timers are looked at again while it is busy. */
const POLL_MS = 20
/** A look at the page's timers that takes longer than this is no look (a page busy with itself). */
const LOOK_TIMEOUT_MS = 1_000

/** The count of short timers a person's input scheduled (page/timers.ts). */
export const timersCode: MainWorldCode = { key: `browser-workflow-mcp/timers:${PAGE.timers.length}`, source: PAGE.timers }

/** The pages whose current document is getting its count, until it has it (one install at a time). */
const installing = new WeakSet<Page>()

/**
 * The counted timers still to run in the page's current document; 0 when it has none or cannot say. A
 * document that has no count yet gets one, not waited for: nothing it scheduled before could be counted,
 * and the install reaches the page before any input of a later call.
 */
export const pendingTimers = async (page: Page): Promise<number> => {
  const pending = await callInMainWorld(page, timersCode, "pending", [], -1, { timeoutMs: LOOK_TIMEOUT_MS }).catch(() => 0)
  if (pending >= 0 || installing.has(page)) return Math.max(0, pending)
  installing.add(page)
  void startInMainWorld(page, timersCode, "install", { timeoutMs: LOOK_TIMEOUT_MS })
    .catch(() => false)
    .finally(() => installing.delete(page))
  return 0
}

/**
 * Waits while the page has render-feeding requests in flight that started within `capMs` (an older one
 * is a long poll, not a render on its way), or short timers its last input scheduled, at most `capMs`;
 * answers how long it waited. A timer that starts a request, or a request whose answer schedules a
 * timer, is waited for in turn.
 */
export const pageQuiet = (page: Page, capMs: number) =>
  Effect.gen(function* () {
    const start = Date.now()
    for (;;) {
      if (page.isClosed() || Date.now() - start >= capMs) break
      if (requestsInFlight(page, capMs) === 0 && (yield* Effect.promise(() => pendingTimers(page))) === 0) break
      yield* Effect.sleep(POLL_MS)
    }
    return Date.now() - start
  })
