// Session waits and web-first assertions over Playwright: the page's URL and load state, and an
// element's visibility, text, value, checked and enabled states, retried until they hold.
import { Duration, Effect, Option } from "effect"
import type { Page } from "playwright"
import { AssertionFailed, PageClosed, TargetAmbiguous, WaitTimeout } from "../../../domain/errors.js"
import { describeTarget } from "../../../domain/target.js"
import { collapseWhitespace } from "../../../domain/text.js"
import { regexOf } from "../../../domain/url-pattern.js"
import type { Assertion, PageWait } from "../../../services/Session.js"
import type { BrowserStateService } from "../lifecycle/browser.js"
import { BrowserCallFailed, firstLine, isPlaywrightTimeout } from "../calls.js"
import { isSensitiveField } from "../page-script.js"
import type { Targets } from "./targets.js"

/** Text, value, URL and title matching: a regex tests, a string matches whole after whitespace is collapsed. */
const textMatches = (expected: string, actual: string) => {
  const regex = regexOf(expected)
  return regex !== undefined ? regex.test(actual) : collapseWhitespace(actual) === collapseWhitespace(expected)
}

/** A value as an assertion failure shows it: quoted, at most 200 characters. */
const quoted = (value: string) => JSON.stringify(value.length > 200 ? `${value.slice(0, 199)}…` : value)

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
/** Waits until the active page's URL matches (and its load state is reached), or its load state alone. */
export const waitForPage = (browser: BrowserStateService, wait: PageWait, options: { readonly timeoutMs: number }) =>
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
const probe = (targeting: Targets, page: Page, assertion: Assertion) =>
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
    // No count at all: a selector Playwright cannot parse is the input's fault, not a state to wait out.
    if (count < 0) {
      const invalid = yield* targeting.selectorProblem(page, target)
      if (invalid !== undefined) return yield* invalid
    }
    if (assertion.condition === "count") return { pass: count === expected, actual: String(Math.max(count, 0)), sensitive: false }
    if (count > 1) return yield* Effect.flip(targeting.listAmbiguous(page, target, frames.value)(new TargetAmbiguous({ target: describeTarget(target), count })))
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

/** Retries the assertion on Playwright's schedule until it holds; fails with what was there at the end. */
export const expectNow = (browser: BrowserStateService, targeting: Targets, assertion: Assertion, options: { readonly timeoutMs: number }) =>
  Effect.gen(function* () {
    const { page } = yield* browser.activePage
    const started = Date.now()
    for (let attempt = 0; ; attempt++) {
      if (page.isClosed()) return yield* new PageClosed({ detail: "the page closed during the assertion" })
      const seen = yield* probe(targeting, page, assertion)
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
