// Session interactions over Playwright: drag and drop, scrolling, checkboxes and PDF printing here; file
// uploads (uploads.ts), waits on the page and web-first assertions (assertions.ts) in files of their own.
import * as path from "node:path"
import { Effect, Option, Ref } from "effect"
import type { Locator, Page } from "playwright"
import { ActionFailed, PageClosed, PdfFailed, TargetAmbiguous, TargetNotFound } from "../../../domain/errors.js"
import { describeTarget, type Target } from "../../../domain/target.js"
import { noteSighting, sightingOf } from "../../../services/Deadline.js"
import type { PageAffordances, ScrollRequest, ScrollResult, SessionInteractions } from "../../../services/Session.js"
import { uploadRootsOf } from "../../upload-roots.js"
import { BrowserState, type BrowserStateService } from "../lifecycle/browser.js"
import { isRemote } from "../lifecycle/endpoints.js"
import { firstLine } from "../calls.js"
import { evaluateInPage } from "../page-eval.js"
import { expectNow, waitForPage } from "./assertions.js"
import { checkedOf, checkedSettles } from "./readiness.js"
import { DROP_EFFECT, dropChanged, nextPaint, watchDrop } from "./drop-effect.js"
import { pageSaid, settleReaction, startReaction, type Settled } from "./reaction.js"
import { targets, type Committed, type Targets } from "./targets.js"
import { uploadFiles } from "./uploads.js"
import { writeNamedFile } from "./named-files.js"

/** Runs in the page (or on a scroll container): moves it and tells where it is. */
const scrollBox = (
  element: Element | null,
  request: { readonly to: "top" | "bottom" | null; readonly dx: number; readonly dy: number }
): { before: number; beforeX: number; top: number; left: number; height: number; client: number } => {
  const box = element ?? document.scrollingElement ?? document.documentElement
  const before = box.scrollTop
  const beforeX = box.scrollLeft
  if (request.to === "top") box.scrollTo({ top: 0, behavior: "instant" as ScrollBehavior })
  else if (request.to === "bottom") box.scrollTo({ top: box.scrollHeight, behavior: "instant" as ScrollBehavior })
  if (request.dx !== 0 || request.dy !== 0) box.scrollBy({ left: request.dx, top: request.dy, behavior: "instant" as ScrollBehavior })
  return { before, beforeX, top: box.scrollTop, left: box.scrollLeft, height: box.scrollHeight, client: box.clientHeight }
}

/** Runs in the page: whether the element's box now meets the viewport. */
const inViewport = (element: Element) => {
  const rect = element.getBoundingClientRect()
  const scroller = document.scrollingElement ?? document.documentElement
  return {
    inView: rect.bottom > 0 && rect.right > 0 && rect.top < innerHeight && rect.left < innerWidth,
    top: scroller.scrollTop,
    height: scroller.scrollHeight,
    client: scroller.clientHeight
  }
}

const pdfName = (name: string) => {
  const cleaned = name
    .replace(/\.pdf$/i, "")
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^[.-]+/, "")
    .slice(0, 100)
  return cleaned === "" ? "page" : cleaned
}
type Box = NonNullable<Awaited<ReturnType<Locator["boundingBox"]>>>

/**
 * Where a drag lets go, in page coordinates: past the drop target's middle in the direction the drag travels (a
 * quarter of the way on to its far edge), as a person puts an item before or after another in a sortable list;
 * its middle along an axis the drag does not travel.
 */
const dropPoint = (from: Box, to: Box) => {
  const along = (a: number, b: number) => (Math.abs(b - a) < 1 ? 0 : Math.sign(b - a))
  const sx = along(from.x + from.width / 2, to.x + to.width / 2)
  const sy = along(from.y + from.height / 2, to.y + to.height / 2)
  return { x: to.x + to.width / 2 + (sx * to.width) / 4, y: to.y + to.height / 2 + (sy * to.height) / 4 }
}

/**
 * A drag as a hand makes it: press on the source (ready as for a click), a short move (sensors that start a drag
 * past a few pixels; from then on the source's readiness is no longer asked), onto the drop target (shown and
 * scrolled into view, not asked to take the pointer: the dragged thing covers it; one move there, so a list that swaps
 * items as the pointer passes them swaps only with the target), then on past its middle (a move that starts inside
 * the target, for libraries that hit-test on the pointer's previous position: dnd-kit), release; each move once
 * the page painted the last. HTML5 drag and drop runs on the same moves. Answers whether the page changed
 * (drop-effect.ts; undefined when that cannot be judged).
 */
const dragAsAHand = async (page: Page, source: Locator, destination: Locator, opts: { readonly timeout: number; readonly signal?: AbortSignal }, pressed: Committed) => {
  const started = Date.now()
  await source.hover({ timeout: opts.timeout })
  const watch = await watchDrop(source, destination, opts.timeout)
  const from = await source.boundingBox({ timeout: opts.timeout })
  if (from === null) throw new Error("the element to drag is no longer shown")
  // A call that was given up (its deadline passed while the page was looked at) presses nothing afterwards.
  if (opts.signal?.aborted === true) throw new Error("the drag was given up before it pressed")
  await page.mouse.down()
  pressed()
  const pressedAt = Date.now()
  try {
    await nextPaint(watch?.frame)
    await page.mouse.move(from.x + from.width / 2 + DRAG_NUDGE_PX, from.y + from.height / 2 + DRAG_NUDGE_PX)
    await nextPaint(watch?.frame)
    // Mid-drag the drop target is moved onto without asking it to take the pointer: what the library drags
    // (the source itself, a mirror or ghost under the pointer) covers it, and items may take no pointer
    // while a drag is on (hello-pangea/dnd, interact.js). Scrolled into view and shown, as ever.
    await destination.hover({ timeout: opts.timeout, force: true })
    await nextPaint(watch?.frame)
    const to = await destination.boundingBox({ timeout: opts.timeout })
    if (to === null) throw new Error("the drop target is no longer shown")
    const drop = dropPoint(from, to)
    await page.mouse.move(drop.x, drop.y)
    await nextPaint(watch?.frame)
  } finally {
    await page.mouse.up()
  }
  return watch === undefined ? undefined : dropChanged(page, watch, pressedAt, opts.timeout - (Date.now() - started))
}

/** How far the pointer moves on the source before it heads for the drop target (past a drag sensor's threshold). */
const DRAG_NUDGE_PX = 6

const drag = (browser: BrowserStateService, targeting: Targets, source: Target, target: Target, options: { readonly timeoutMs: number }) =>
  Effect.gen(function* () {
    const { page } = yield* browser.activePage
    const frames = yield* targeting.ensureRefs(page, target, true)
    const destination = targeting.locate(page, target, frames)
    const dragged = targeting.act(
      "drag",
      source,
      options.timeoutMs,
      (locator, opts, pressed) => dragAsAHand(page, locator, destination, opts, pressed),
      page
    )
    // A drop target the page can no longer bring fails the drag as a missing source would. Its looks are
    // noted as the drop target's, the first at once: a deadline that comes first still answers from them.
    const dropMissing = Effect.zipRight(
      Effect.flatMap(targeting.countSafely(destination), noteSighting),
      targeting.untilMissing(page, destination, target, "drag", options.timeoutMs)
    ).pipe(Effect.locally(sightingOf, "to"))
    const done = yield* Effect.raceFirst(dragged, dropMissing).pipe(
      // The source was there; a drop target that never showed is what went wrong.
      Effect.catchTag("ActionTimeout", (timeout) =>
        Effect.flatMap(targeting.countSafely(destination), (count): Effect.Effect<never, TargetNotFound | TargetAmbiguous | typeof timeout> =>
          count === 0
            ? Effect.fail(new TargetNotFound({ target: describeTarget(target), detail: `No element matches the drop target ${describeTarget(target)} (waited ${options.timeoutMs} ms).` }))
            : count > 1
              ? Effect.fail(new TargetAmbiguous({ target: describeTarget(target), count }))
              : Effect.fail(timeout)
        )
      ),
      // A drop target's selector that Playwright cannot parse fails the drag at once: name its field. So
      // does one that names several (Playwright's strict mode refuses it).
      Effect.catchTag("ActionFailed", (failed) =>
        Effect.gen(function* () {
          const invalid = yield* targeting.selectorProblem(page, target, "to.")
          if (invalid !== undefined) return yield* invalid
          const count = yield* targeting.countSafely(destination)
          return yield* count > 1 ? new TargetAmbiguous({ target: describeTarget(target), count }) : failed
        })
      ),
      // A drop target that names several: its matches listed (the source's were, by its action).
      Effect.catchTag("TargetAmbiguous", (ambiguous) =>
        ambiguous.candidates === undefined && ambiguous.target === describeTarget(target) ? Effect.flip(targeting.listAmbiguous(page, target, frames)(ambiguous)) : Effect.fail(ambiguous)
      )
    )
    if (done.value === false) {
      return yield* new ActionFailed({
        action: "drag",
        target: describeTarget(source),
        detail: `the drop onto ${describeTarget(target)} changed nothing in the page (${DROP_EFFECT.capMs} ms after the release, with no request of the page in flight, it showed what it showed before the press): the app did not take this drag; it may drag by a handle, or drop on another element`
      })
    }
  })

const scroll = (browser: BrowserStateService, targeting: Targets, request: ScrollRequest, options: { readonly timeoutMs: number }) =>
  Effect.gen(function* () {
    const { page } = yield* browser.activePage
    const moves = request.to !== undefined || (request.deltaX ?? 0) !== 0 || (request.deltaY ?? 0) !== 0
    const args = { to: request.to ?? null, dx: request.deltaX ?? 0, dy: request.deltaY ?? 0 }
    const done = (box: { before: number; beforeX: number; top: number; left: number; height: number; client: number }): ScrollResult => ({
      moved: box.top !== box.before || box.left !== box.beforeX,
      top: Math.round(box.top),
      height: Math.round(box.height),
      atBottom: box.top + box.client >= box.height - 1
    })
    if (request.target === undefined) {
      const box = yield* Effect.tryPromise({
        try: () => evaluateInPage<ReturnType<typeof scrollBox>>(page, `(${scrollBox.toString()})(null, ${JSON.stringify(args)})`),
        catch: (cause) =>
          page.isClosed()
            ? new PageClosed({ detail: "the page closed while scrolling", during: "scroll" })
            : new ActionFailed({ action: "scroll", target: "the page", detail: firstLine(cause) })
      })
      return done(box)
    }
    const target = request.target
    if (moves) {
      const { value } = yield* targeting.act("scroll", target, options.timeoutMs, (locator, opts) =>
        locator.evaluate(scrollBox, args, opts)
      , page)
      return done(value)
    }
    const { value } = yield* targeting.act("scroll", target, options.timeoutMs, async (locator, opts) => {
      await locator.scrollIntoViewIfNeeded(opts)
      return locator.evaluate(inViewport, undefined, opts)
    }, page)
    // Fail closed: into view means the element's box meets the viewport now.
    if (!value.inView) {
      return yield* new ActionFailed({ action: "scroll", target: describeTarget(target), detail: "the element is still outside the viewport after scrolling (it may be inside a clipped container)" })
    }
    return { moved: true, top: Math.round(value.top), height: Math.round(value.height), atBottom: value.top + value.client >= value.height - 1 }
  })

/**
 * set_checked: clicks the control (where a person would: see readiness.ts) only when its state is not
 * the one wanted, then gives a component that updates late two frames and a short while to show it.
 * Fails unless the state read back is the one wanted.
 */
const setChecked = (browser: BrowserStateService, targeting: Targets, target: Target, checked: boolean, options: { readonly timeoutMs: number }) =>
  Effect.gen(function* () {
    const { page } = yield* browser.activePage
    const described = describeTarget(target)
    // Already as wanted: nothing to click (not even a disabled control).
    const frames = yield* targeting.ensureRefs(page, target, true)
    if ((yield* Effect.promise(() => checkedOf(targeting.locate(page, target, frames), 500))) === checked) return
    const toggle = async (locator: Locator, timeoutMs: number, click: () => Promise<void>): Promise<Toggled> => {
      // The late state is waited for within what the action has left (a little kept for the answer).
      const until = Date.now() + timeoutMs - 100
      const now = await checkedOf(locator, 2_000)
      if (now === checked) return { now }
      if (now === false || now === true) {
        if (!checked && (await locator.evaluate((element: Element) => element instanceof HTMLInputElement && element.type === "radio").catch(() => false))) {
          throw new Error("a radio button cannot be unchecked: check another radio button of its group instead")
        }
      }
      const started = await startReaction(locator)
      await click()
      const seen = await checkedSettles(locator, checked, until - Date.now())
      // Judged once the page's reaction settled: a page that unchecks it again after a request or a timer did not take the change.
      const settled = await settleReaction(page, locator, started, until - Date.now())
      if (seen !== checked) return { now: seen, settled }
      return { now: await checkedOf(locator, 2_000), settled, held: true }
    }
    const { value } = yield* targeting.act(
      "set_checked",
      target,
      options.timeoutMs,
      (locator, opts) => toggle(locator, opts.timeout, () => locator.click(opts)),
      page,
      (via, locator, opts) => toggle(locator, opts.timeout, () => via.element.click(opts))
    )
    // Read back: a page that undoes the change (or a control whose state cannot be read) fails the call.
    const { now, settled, held } = value
    if (now !== checked) {
      const state = (on: boolean) => (on ? "checked" : "unchecked")
      return yield* new ActionFailed({
        action: "set_checked",
        target: described,
        detail:
          now === null
            ? "its checked state cannot be read back (not a checkbox, radio, switch or aria-checked control)"
            : held === true
              ? `it was ${state(checked)} by the click, but the page set it back to ${state(now)} afterwards (it did not accept the change)${settled === undefined ? "" : pageSaid(settled)}`
              : `it is still ${state(now)} after the click (the page did not take the change)${settled === undefined ? "" : pageSaid(settled)}`
      })
    }
  })

/** What set_checked's click left: the state read back, the page's reaction, and whether the wanted state showed before the page reacted. */
interface Toggled {
  readonly now: boolean | null
  readonly settled?: Settled
  readonly held?: boolean
}

const savePdf = (browser: BrowserStateService, name: string) =>
  Effect.gen(function* () {
    const settings = browser.settings
    const { live, page } = yield* browser.activePage
    if (!settings.headless && !isRemote(settings)) {
      return yield* new PdfFailed({ detail: "the browser is headed, and Chromium prints to PDF only headless; start the server with --headless." })
    }
    const file = path.resolve(settings.artifactsDir, "pdf", `${pdfName(name)}.pdf`)
    const data = yield* Effect.tryPromise({
      try: () => page.pdf({ printBackground: true }),
      catch: (error) => (page.isClosed() ? new PageClosed({ detail: "the page closed before it was printed" }) : new PdfFailed({ detail: firstLine(error) }))
    })
    // As a screenshot: a name another session (or anyone) wrote keeps its file, this one gets <name>-2.pdf...
    const placed = yield* writeNamedFile(live.namedFiles, live.context, file, data, settings.artifactsDir, (error) => new PdfFailed({ detail: `cannot write ${file}: ${firstLine(error)}` }))
    return { path: placed, bytes: data.length }
  })

const none: PageAffordances = { upload: false, drag: false, check: false, scroll: false }
const affordances = (browser: BrowserStateService) => Effect.gen(function* () {
  const current = yield* browser.current
  if (Option.isNone(current)) return none
  const live = current.value
  // Read in this fiber (the `active` getter runs a fiber of its own): the tool list reads this after every call.
  const active = (yield* Ref.get(live.tabs)).active
  if (active === undefined) return none
  const chooser = yield* Ref.get(live.fileChooser)
  const seen = live.affordances?.page === active ? live.affordances.affords : {}
  return {
    upload: seen.file === true || chooser?.page() === active,
    drag: seen.drag === true,
    check: seen.check === true,
    scroll: seen.scroll === true
  }
})

/** An input action alone on the session's input (see `inputLock`). */
const alone = <A, E>(browser: BrowserStateService, action: Effect.Effect<A, E>) =>
  Effect.flatMap(browser.activePage, ({ live }) => live.inputLock.withPermits(1)(action))

export const make = Effect.gen(function* () {
  const browser = yield* BrowserState
  const targeting = targets(browser)
  const uploadPolicy = uploadRootsOf(browser.settings)
  const interactions: SessionInteractions = {
    drag: (source, target, options) => browser.refineClosed(alone(browser, drag(browser, targeting, source, target, options))),
    scroll: (request, options) => browser.refineClosed(alone(browser, scroll(browser, targeting, request, options))),
    setChecked: (target, checked, options) => browser.refineClosed(alone(browser, setChecked(browser, targeting, target, checked, options))),
    uploadFiles: (target, files, options) =>
      browser.refineClosed(alone(browser, uploadFiles(browser, targeting, uploadPolicy, target, files, options))),
    waitForPage: (wait, options) => browser.refineClosed(waitForPage(browser, wait, options)),
    expect: (assertion, options) => browser.refineClosed(expectNow(browser, targeting, assertion, options)),
    savePdf: (name) => browser.refineClosed(savePdf(browser, name)),
    affordances: affordances(browser)
  }
  return interactions
})
