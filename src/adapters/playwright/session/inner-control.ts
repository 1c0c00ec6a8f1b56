// A click on a header, a cell or a list item whose own element shows no sign of taking clicks goes through the
// one control inside it that names it (page/inner-control.ts: a grid's sorter, a cell's one link), as a
// person clicks it, and succeeds only when the page answered it: a state of either changed, the page's
// content changed, a navigation, a download or a new tab began. Playwright's click judges the control.
import type { ElementHandle, JSHandle, Locator, Page } from "playwright"
import { PAGE } from "../page-bundle.js"
import { elementFunction } from "../page-script.js"
import { requestsInFlight } from "../lifecycle/live-session.js"
import { downloadsStartedOn } from "./downloads.js"
import { EFFECT_WAIT_MS, pollFor } from "./readiness.js"

const innerControlOf = elementFunction<undefined, { readonly element?: Element; readonly via?: string }>(PAGE.innerControl)
const watchInnerEffect = elementFunction<Node, void>(PAGE.watchInnerEffect)
const innerEffectSeen = elementFunction<undefined, boolean>(PAGE.innerEffectSeen)
const stopInnerEffect = elementFunction<undefined, void>(PAGE.stopInnerEffect)

/** The control inside the target a click goes through, and its description; none when the target is clicked itself. */
const controlInside = async (locator: Locator, timeout: number): Promise<{ readonly element: ElementHandle; readonly via: string } | undefined> => {
  let handle: JSHandle | undefined
  try {
    handle = await locator.evaluateHandle(innerControlOf, undefined, { timeout })
    const element = (await handle.getProperty("element")).asElement()
    if (element === null) return undefined
    const via = (await (await handle.getProperty("via")).jsonValue()) as string
    return { element, via }
  } finally {
    void handle?.dispose().catch(() => undefined)
  }
}

/**
 * Clicks the target through the one control inside it that names it (see the module comment) and answers
 * true; false, having done nothing, when it has none (the caller clicks the target). Throws when the
 * click through it had no effect on the page within EFFECT_WAIT_MS, or, while requests it started are in
 * flight, within the call's time.
 */
export const clickInside = async (page: Page, locator: Locator, options: { timeout: number; signal: AbortSignal }): Promise<boolean> => {
  const control = await controlInside(locator, options.timeout)
  if (control === undefined) return false
  try {
    await locator.evaluate(watchInnerEffect, control.element, { timeout: options.timeout })
    const before = { url: page.url(), downloads: downloadsStartedOn(page), pages: page.context().pages().length }
    const clicked = Date.now()
    await control.element.click(options)
    // The page went elsewhere, downloads, or opened a tab: the click's answer is not in this document.
    const away = () => page.url() !== before.url || downloadsStartedOn(page) > before.downloads || page.context().pages().length > before.pages
    const look = async () => away() || (await locator.evaluate(innerEffectSeen, undefined, { timeout: 1_000 }).catch(() => away()))
    let seen = await pollFor(look, EFFECT_WAIT_MS)
    // A request the click started is the answer on its way (a sort the server does): waited for within the call's time.
    const until = clicked + options.timeout
    while (!seen && requestsInFlight(page, Date.now() - clicked) > 0 && Date.now() < until) {
      seen = await pollFor(look, Math.min(EFFECT_WAIT_MS, Math.max(0, until - Date.now())))
    }
    if (!seen) {
      throw new Error(
        `it shows no sign of taking clicks itself, so the click went through ${control.via} inside it, which names it, and that had no effect (no state of either changed, nothing on the page changed); to click that control anyway, target it by its own ref`
      )
    }
    return true
  } finally {
    void locator.evaluate(stopInnerEffect, undefined, { timeout: 1_000 }).catch(() => undefined)
    void control.element.dispose().catch(() => undefined)
  }
}

/** Playwright's click on the target, or through the one control inside it that names it (clickInside). */
export const clickWherePersonWould =
  (page: Page) =>
  async (locator: Locator, options: { timeout: number; signal: AbortSignal }): Promise<void> => {
    if (!(await clickInside(page, locator, options))) await locator.click(options)
  }
