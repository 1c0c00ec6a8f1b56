// Session interactions over Playwright: drag and drop, scrolling, checkboxes, file uploads (inputs and
// file choosers), waits on the page's URL and load state, web-first assertions, PDF printing.
import * as path from "node:path"
import { Duration, Effect, Option, Ref } from "effect"
import type { ElementHandle, FileChooser, Locator, Page } from "playwright"
import {
  ActionFailed,
  AssertionFailed,
  InvalidInput,
  PageClosed,
  PdfFailed,
  TargetAmbiguous,
  TargetNotFound,
  WaitTimeout
} from "../../../domain/errors.js"
import { describeTarget, type Target } from "../../../domain/target.js"
import { collapseWhitespace } from "../../../domain/text.js"
import { regexOf } from "../../../domain/url-pattern.js"
import type { Assertion, PageAffordances, PageWait, ScrollRequest, ScrollResult, SessionInteractions } from "../../../services/Session.js"
import { writeFileAtomic } from "../../files.js"
import { checkUploadPaths, uploadRootsOf } from "../../upload-roots.js"
import { BrowserState } from "../lifecycle/browser.js"
import { isRemote } from "../lifecycle/endpoints.js"
import { BrowserCallFailed, firstLine, isPlaywrightTimeout } from "../calls.js"
import type { LiveSession } from "../lifecycle/live-session.js"
import { evaluateInPage } from "../page-eval.js"
import { isSensitiveField } from "../page-script.js"
import { noticesWithout } from "../lifecycle/session-state.js"
import { checkedOf, checkedSettles } from "./readiness.js"
import { targets } from "./targets.js"

/** Text, value, URL and title matching: a regex tests, a string matches whole after whitespace is collapsed. */
const textMatches = (expected: string, actual: string) => {
  const regex = regexOf(expected)
  return regex !== undefined ? regex.test(actual) : collapseWhitespace(actual) === collapseWhitespace(expected)
}

/** A value as an assertion failure shows it: quoted, at most 200 characters. */
const quoted = (value: string) => JSON.stringify(value.length > 200 ? `${value.slice(0, 197)}...` : value)

/** The retry schedule of Playwright's web-first assertions: 100, 250, 500 ms, then every second. */
const POLL_MS = [100, 250, 500, 1_000] as const

/** What one look at the element gives, in one trip to the page. */
interface ElementFacts {
  readonly visible: boolean
  readonly text: string
  readonly value: string | null
  readonly checked: boolean | null
  readonly enabled: boolean
  readonly sensitive: boolean
}

/** Runs in the page on the target element: everything an assertion may compare (a field's value only when not secret). */
const readFacts = (element: Element, sensitive: boolean): ElementFacts => {
  const anyElement = element as any
  const rect = element.getBoundingClientRect()
  const visible =
    (typeof anyElement.checkVisibility !== "function" || anyElement.checkVisibility({ visibilityProperty: true, checkVisibilityCSS: true })) &&
    (rect.width > 0 || rect.height > 0)
  const value =
    element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement ? element.value : null
  const aria = element.getAttribute("aria-checked")
  const checked =
    element instanceof HTMLInputElement && (element.type === "checkbox" || element.type === "radio")
      ? element.checked
      : aria === "true" ? true : aria === "false" ? false : null
  let disabled = element.matches(":disabled")
  for (let node: Element | null = element; node !== null && !disabled; node = node.parentElement) {
    if (node.getAttribute("aria-disabled") === "true") disabled = true
  }
  return { visible, text: element.textContent ?? "", value: sensitive ? null : value, checked, enabled: !disabled, sensitive }
}

/** Runs in the page on a file input: remembers the files of the next change event, so a page that clears the input at once still shows what it received. */
const watchFiles = (element: Element) => {
  const key = Symbol.for("browser-workflow-mcp/uploaded")
  const holder = element as any
  holder[key] = undefined
  element.addEventListener(
    "change",
    () => {
      holder[key] = Array.from((element as HTMLInputElement).files ?? [], (file) => file.name)
    },
    { capture: true, once: true }
  )
}

/** The files the input received (at its change event, else now). */
const filesOf = (element: Element): Array<string> => {
  const received = (element as any)[Symbol.for("browser-workflow-mcp/uploaded")] as Array<string> | undefined
  return received ?? Array.from((element as HTMLInputElement).files ?? [], (file) => file.name)
}

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

export const make = Effect.gen(function* () {
  const browser = yield* BrowserState
  const settings = browser.settings
  const targeting = targets(browser)
  const uploadPolicy = uploadRootsOf(settings)

  const drag = (source: Target, target: Target, options: { readonly timeoutMs: number }) =>
    Effect.gen(function* () {
      const { page } = yield* browser.activePage
      const frames = yield* targeting.ensureRefs(page, target)
      const destination = targeting.locate(page, target, frames)
      yield* targeting.act("drag", source, options.timeoutMs, (locator, opts) => locator.dragTo(destination, opts), page).pipe(
        // The source was there; a drop target that never showed is what went wrong.
        Effect.catchTag("ActionTimeout", (timeout) =>
          Effect.flatMap(targeting.countSafely(destination), (count): Effect.Effect<never, TargetNotFound | TargetAmbiguous | typeof timeout> =>
            count === 0
              ? Effect.fail(new TargetNotFound({ target: describeTarget(target), detail: `No element matches the drop target ${describeTarget(target)} (waited ${options.timeoutMs} ms).` }))
              : count > 1
                ? Effect.fail(new TargetAmbiguous({ target: describeTarget(target), count }))
                : Effect.fail(timeout)
          )
        )
      )
    })

  const scroll = (request: ScrollRequest, options: { readonly timeoutMs: number }) =>
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
  const setChecked = (target: Target, checked: boolean, options: { readonly timeoutMs: number }) =>
    Effect.gen(function* () {
      const { page } = yield* browser.activePage
      const described = describeTarget(target)
      // Already as wanted: nothing to click (not even a disabled control).
      const frames = yield* targeting.ensureRefs(page, target)
      if ((yield* Effect.promise(() => checkedOf(targeting.locate(page, target, frames), 500))) === checked) return
      const toggle = async (locator: Locator, timeoutMs: number, click: () => Promise<void>) => {
        // The late state is waited for within what the action has left (a little kept for the answer).
        const until = Date.now() + timeoutMs - 100
        const now = await checkedOf(locator, 2_000)
        if (now === checked) return now
        if (now === false || now === true) {
          if (!checked && (await locator.evaluate((element: Element) => element instanceof HTMLInputElement && element.type === "radio").catch(() => false))) {
            throw new Error("a radio button cannot be unchecked: check another radio button of its group instead")
          }
        }
        await click()
        return checkedSettles(locator, checked, until - Date.now())
      }
      const { value: now } = yield* targeting.act(
        "set_checked",
        target,
        options.timeoutMs,
        (locator, opts) => toggle(locator, opts.timeout, () => locator.click(opts)),
        page,
        (via, locator, opts) => toggle(locator, opts.timeout, () => via.element.click(opts))
      )
      // Read back: a page that undoes the change (or a control whose state cannot be read) fails the call.
      if (now !== checked) {
        return yield* new ActionFailed({
          action: "set_checked",
          target: described,
          detail:
            now === null
              ? "its checked state cannot be read back (not a checkbox, radio, switch or aria-checked control)"
              : `it is still ${now ? "checked" : "unchecked"} after the click (the page did not take the change)`
        })
      }
    })

  /** Sets the files on an input and reads back what its change event carried. */
  const setOnInput = async (element: Locator | ElementHandle, files: ReadonlyArray<string>, opts: { timeout: number }) => {
    const input = element as Locator
    await input.evaluate(watchFiles)
    await input.setInputFiles([...files], opts)
    return input.evaluate(filesOf)
  }

  const uploadFailed = (target: string, files: ReadonlyArray<string>, received: ReadonlyArray<string>) =>
    new ActionFailed({
      action: "upload_file",
      target,
      detail: `the input holds ${received.length} file(s) afterwards (${received.slice(0, 5).join(", ") || "none"}), not the ${files.length} given`
    })

  const verified = (target: string, files: ReadonlyArray<string>, received: ReadonlyArray<string>) => {
    const names = files.map((file) => path.basename(file))
    return received.length === names.length && names.every((name) => received.includes(name))
      ? Effect.succeed(received)
      : Effect.fail(uploadFailed(target, files, received))
  }

  const takeChooser = (live: LiveSession) =>
    Effect.zipLeft(
      Ref.getAndSet(live.fileChooser, undefined),
      Ref.update(live.notices, (notices) => noticesWithout(notices, (text) => text.startsWith("A file chooser opened")))
    )

  const toChooser = (chooser: FileChooser, files: ReadonlyArray<string>, timeoutMs: number) =>
    Effect.tryPromise({
      try: () => setOnInput(chooser.element(), files, { timeout: timeoutMs }),
      catch: (cause) => new ActionFailed({ action: "upload_file", target: "the open file chooser", detail: firstLine(cause) })
    }).pipe(Effect.flatMap((received) => verified("the open file chooser", files, received)))

  const uploadFiles: SessionInteractions["uploadFiles"] = (target, paths, options) =>
    Effect.gen(function* () {
      const checked = yield* Effect.promise(() => checkUploadPaths(paths, uploadPolicy))
      if ("problem" in checked) return yield* new InvalidInput({ field: "paths", problem: checked.problem })
      const files = checked.files
      const { live, page } = yield* browser.activePage
      if (target === undefined) {
        const waiting = yield* Ref.get(live.fileChooser)
        if (waiting !== undefined && waiting.page() === page) {
          yield* takeChooser(live)
          if (files.length > 1 && !waiting.isMultiple()) {
            return yield* new InvalidInput({ field: "paths", problem: "the open file chooser takes one file" })
          }
          return { via: "chooser" as const, files: yield* toChooser(waiting, files, options.timeoutMs) }
        }
        const inputs = page.locator('input[type="file" i]')
        const count = yield* targeting.countSafely(inputs)
        if (count !== 1) {
          return yield* new InvalidInput({
            field: "a11yRef",
            problem:
              count <= 0
                ? "no file chooser is open and the page has no file input: give the input or the button that opens the chooser (a11yRef, testId or selector)"
                : `no file chooser is open and the page has ${count} file inputs: say which one (a11yRef, testId or selector)`
          })
        }
        const received = yield* Effect.tryPromise({
          try: () => setOnInput(inputs, files, { timeout: options.timeoutMs }),
          catch: (cause) => new ActionFailed({ action: "upload_file", target: "the file input", detail: firstLine(cause) })
        })
        return { via: "input" as const, files: yield* verified("the file input", files, received) }
      }
      const described = describeTarget(target)
      const { value } = yield* targeting.act(
        "upload_file",
        target,
        options.timeoutMs,
        async (locator, opts) => {
          const isInput = await locator.evaluate(
            (element: Element) => element instanceof HTMLInputElement && element.type.toLowerCase() === "file",
            undefined,
            opts
          )
          if (isInput) return { via: "input" as const, received: await setOnInput(locator, files, opts) }
          // Anything else opens a file chooser when clicked (a button, a label, a drop zone).
          const [chooser] = await Promise.all([page.waitForEvent("filechooser", { timeout: opts.timeout }), locator.click(opts)])
          if (files.length > 1 && !chooser.isMultiple()) throw new Error("the file chooser it opened takes one file")
          return { via: "chooser" as const, received: await setOnInput(chooser.element(), files, opts) }
        },
        page
      )
      if (value.via === "chooser") yield* takeChooser(live)
      return { via: value.via, files: yield* verified(described, files, value.received) }
    })

  const waitForPage = (wait: PageWait, options: { readonly timeoutMs: number }) =>
    Effect.gen(function* () {
      const { page } = yield* browser.activePage
      const url = wait.url
      const state = wait.loadState
      yield* Effect.tryPromise({
        try: async (signal) => {
          if (url !== undefined) {
            await page.waitForURL(regexOf(url) ?? url, { timeout: options.timeoutMs, waitUntil: state ?? "load", signal })
          } else {
            await page.waitForLoadState(state ?? "load", { timeout: options.timeoutMs, signal })
          }
        },
        catch: (cause) => new BrowserCallFailed({ cause })
      }).pipe(
        Effect.catchTag("BrowserCallFailed", (error): Effect.Effect<never, PageClosed | WaitTimeout> => {
          if (page.isClosed()) return Effect.fail(new PageClosed({ detail: "the page closed during the wait" }))
          if (!isPlaywrightTimeout(error.cause)) {
            return Effect.fail(new WaitTimeout({ target: "the page", state: `${url ?? state}: ${firstLine(error.cause)}`, timeoutMs: options.timeoutMs }))
          }
          return Effect.fail(
            url !== undefined
              ? new WaitTimeout({ target: "the URL", state: `a match for ${quoted(url)}${state !== undefined ? ` (${state})` : ""}; it is ${quoted(page.url())}`, timeoutMs: options.timeoutMs })
              : new WaitTimeout({ target: "the page", state: state ?? "load", timeoutMs: options.timeoutMs })
          )
        })
      )
      return { url: page.url() }
    })

  /** One look: whether the assertion holds now, and what was there. */
  const probe = (page: Page, assertion: Assertion) =>
    Effect.gen(function* () {
      const expected = assertion.expected
      if (assertion.condition === "url") {
        const actual = page.url()
        return { pass: textMatches(String(expected ?? ""), actual), actual: quoted(actual), sensitive: false }
      }
      if (assertion.condition === "title") {
        const actual = yield* Effect.promise(() => page.title().catch(() => ""))
        return { pass: textMatches(String(expected ?? ""), actual), actual: quoted(actual), sensitive: false }
      }
      const target = assertion.target!
      const frames = yield* targeting.ensureRefs(page, target).pipe(
        Effect.map(Option.some),
        // A ref whose element left the page: gone counts as hidden, and as a count of 0.
        Effect.catchTag("TargetNotFound", (error) =>
          assertion.condition === "hidden" || assertion.condition === "count" ? Effect.succeed(Option.none<ReadonlyArray<string>>()) : Effect.fail(error)
        )
      )
      if (Option.isNone(frames)) {
        return { pass: assertion.condition === "hidden" || expected === 0, actual: assertion.condition === "count" ? "0" : "not in the page", sensitive: false }
      }
      const locator = targeting.locate(page, target, frames.value)
      const count = yield* targeting.countSafely(locator)
      if (assertion.condition === "count") return { pass: count === expected, actual: String(Math.max(count, 0)), sensitive: false }
      if (count > 1) return yield* new TargetAmbiguous({ target: describeTarget(target), count })
      if (count <= 0) return { pass: assertion.condition === "hidden", actual: "no matching element", sensitive: false }
      // Whether the field is secret is asked first, so that a secret value never leaves the page.
      const sensitive =
        assertion.condition === "value"
          ? yield* Effect.promise(() => locator.evaluate(isSensitiveField, undefined, { timeout: 1_000 }).catch(() => true))
          : false
      const facts = yield* Effect.promise(() => locator.evaluate(readFacts, sensitive, { timeout: 1_000 }).catch(() => undefined))
      if (facts === undefined) return { pass: assertion.condition === "hidden", actual: "no matching element", sensitive: false }
      switch (assertion.condition) {
        case "visible":
          return { pass: facts.visible, actual: facts.visible ? "visible" : "hidden", sensitive: false }
        case "hidden":
          return { pass: !facts.visible, actual: facts.visible ? "visible" : "hidden", sensitive: false }
        case "text":
          return { pass: textMatches(String(expected ?? ""), facts.text), actual: quoted(collapseWhitespace(facts.text)), sensitive: false }
        case "value": {
          if (facts.sensitive) {
            // A secret field: compared in the page, never brought back.
            const same = yield* Effect.promise(() =>
              locator
                .evaluate((element: Element, wanted: string) => (element as HTMLInputElement).value === wanted, String(expected ?? ""), { timeout: 1_000 })
                .catch(() => false)
            )
            return { pass: same, actual: "(a secret field's value, not shown)", sensitive: true }
          }
          if (facts.value === null) return { pass: false, actual: "no value (not an input, text area or select)", sensitive: false }
          return { pass: textMatches(String(expected ?? ""), facts.value), actual: quoted(facts.value), sensitive: false }
        }
        case "checked":
          return {
            pass: facts.checked === (expected ?? true),
            actual: facts.checked === null ? "not checkable" : facts.checked ? "checked" : "unchecked",
            sensitive: false
          }
        case "enabled":
          return { pass: facts.enabled === (expected ?? true), actual: facts.enabled ? "enabled" : "disabled", sensitive: false }
      }
    })

  const expectNow: SessionInteractions["expect"] = (assertion, options) =>
    Effect.gen(function* () {
      const { page } = yield* browser.activePage
      const started = Date.now()
      for (let attempt = 0; ; attempt++) {
        if (page.isClosed()) return yield* new PageClosed({ detail: "the page closed during the assertion" })
        const seen = yield* probe(page, assertion)
        if (seen.pass) return { actual: seen.actual, sensitive: seen.sensitive }
        const left = options.timeoutMs - (Date.now() - started)
        if (left <= 0) {
          return yield* new AssertionFailed({
            condition: assertion.condition,
            ...(assertion.target !== undefined ? { target: describeTarget(assertion.target) } : {}),
            expected: seen.sensitive ? "(the value given, not shown)" : typeof assertion.expected === "string" ? quoted(assertion.expected) : String(assertion.expected ?? true),
            actual: seen.actual,
            timeoutMs: options.timeoutMs
          })
        }
        yield* Effect.sleep(Duration.millis(Math.min(left, POLL_MS[Math.min(attempt, POLL_MS.length - 1)]!)))
      }
    })

  const savePdf = (name: string) =>
    Effect.gen(function* () {
      const { page } = yield* browser.activePage
      if (!settings.headless && !isRemote(settings)) {
        return yield* new PdfFailed({ detail: "the browser is headed, and Chromium prints to PDF only headless; start the server with --headless." })
      }
      const file = path.resolve(settings.artifactsDir, "pdf", `${pdfName(name)}.pdf`)
      const data = yield* Effect.tryPromise({
        try: () => page.pdf({ printBackground: true }),
        catch: (error) => (page.isClosed() ? new PageClosed({ detail: "the page closed before it was printed" }) : new PdfFailed({ detail: firstLine(error) }))
      })
      yield* Effect.tryPromise({
        try: () => writeFileAtomic(file, data, { within: settings.artifactsDir }),
        catch: (error) => new PdfFailed({ detail: `cannot write ${file}: ${firstLine(error)}` })
      })
      return { path: file, bytes: data.length }
    })

  const none: PageAffordances = { upload: false, drag: false, check: false, scroll: false }
  const affordances = Effect.gen(function* () {
    const current = yield* browser.current
    if (Option.isNone(current)) return none
    const live = current.value
    const active = live.active
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
  const alone = <A, E>(action: Effect.Effect<A, E>) =>
    Effect.flatMap(browser.activePage, ({ live }) => live.inputLock.withPermits(1)(action))

  const interactions: SessionInteractions = {
    drag: (source, target, options) => browser.refineClosed(alone(drag(source, target, options))),
    scroll: (request, options) => browser.refineClosed(alone(scroll(request, options))),
    setChecked: (target, checked, options) => browser.refineClosed(alone(setChecked(target, checked, options))),
    uploadFiles: (target, files, options) => browser.refineClosed(alone(uploadFiles(target, files, options))),
    waitForPage: (wait, options) => browser.refineClosed(waitForPage(wait, options)),
    expect: (assertion, options) => browser.refineClosed(expectNow(assertion, options)),
    savePdf: (name) => browser.refineClosed(savePdf(name)),
    affordances
  }
  return interactions
})

