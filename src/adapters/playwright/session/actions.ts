// Session actions over Playwright: click, type, keys, select, hover, text and waits on the active
// page, each with its dialog choice in force. A direct path first (direct.ts), else Playwright's own.
import { Effect, Option, Ref } from "effect"
import type { Locator, Page } from "playwright"
import { ActionFailed, PageClosed, TargetNotFound, WaitTimeout, type ActionTimeout, type InvalidInput } from "../../../domain/errors.js"
import type { TargetElement } from "../../../domain/knowledge.js"
import { describeTarget, type Target } from "../../../domain/target.js"
import { pageSaid, settleReaction, startReaction } from "./reaction.js"
import type { ActionOptions, ClickOptions, DialogChoice, SessionActions } from "../../../services/Session.js"
import { BrowserState, type BrowserStateService } from "../lifecycle/browser.js"
import { BrowserCallFailed, firstLine, isPlaywrightTimeout } from "../calls.js"
import { directActions, type DirectActions } from "./direct.js"
import { readTextDirect, waitDirect } from "./direct-reads.js"
import { requestsInFlight, type LiveSession } from "../lifecycle/live-session.js"
import { isSensitiveField, readShownText, readText } from "../page-script.js"
import { targets, type Targets } from "./targets.js"
import { choiceKindOf, selectOfOption, type ChoiceKind } from "./choice-kind.js"
import { chooseInWidget } from "./choose.js"
import { focusIsSecret, typeNow } from "./typing.js"

/**
 * In the page: the text of each of the elements (as get_text reads one), at most `limit`, and how many
 * there are. Built from readText's source, since a page function cannot call functions of this module.
 */
const readEach = new Function(
  "elements",
  "limit",
  `const read = ${readText.toString()}; return { texts: elements.slice(0, limit).map(read), total: elements.length }`
) as (elements: Array<Element>, limit: number) => { texts: Array<string | null>; total: number }

interface SelectOptions {
  readonly options: ReadonlyArray<{ readonly value: string; readonly label: string; readonly disabled: boolean }> | null
}

/** Runs in the page on the target: its options when it is a <select> (null otherwise). */
const optionsOf = (element: Element): SelectOptions => ({
  options:
    element instanceof HTMLSelectElement
      ? Array.from(element.options, (option) => ({ value: option.value, label: option.label, disabled: option.disabled }))
      : null
})

/** How many options a failure lists, and how long each label may be. */
const LISTED_OPTIONS = 30
const OPTION_CHARS = 40

/** The values no enabled option has (by value or label), and the options as a failure lists them (clipped). */
const missingIn = (options: NonNullable<SelectOptions["options"]>, values: ReadonlyArray<string>) => {
  const missing = values.filter((value) => !options.some((option) => !option.disabled && (option.value === value || option.label === value)))
  const cut = (text: string) => JSON.stringify(text.length > OPTION_CHARS ? `${text.slice(0, OPTION_CHARS - 1)}…` : text)
  const listed = options
    .slice(0, LISTED_OPTIONS)
    .map((option) => `${cut(option.label)}${option.value !== option.label ? ` (value ${cut(option.value)})` : ""}${option.disabled ? " disabled" : ""}`)
  return {
    missing,
    detail: `no enabled option has the value or label ${missing.map((value) => JSON.stringify(value)).join(", ")}; the options are ${listed.join(", ") || "none"}${options.length > LISTED_OPTIONS ? `, ... (${options.length} in all)` : ""}`
  }
}

/** How long a select must lack an option (or the page the select), with no request on its way, before select_option fails. */
const SELECT_QUIET_MS = 1_000
const SELECT_POLL_MS = 100

/**
 * Beside Playwright's selectOption, which waits to its deadline for an option that is not there: fails
 * at once (after SELECT_QUIET_MS with nothing fetched that could bring it) when the <select> lacks an
 * enabled option for a value, listing the options, or when nothing matches the target. Never succeeds.
 */
const failFastSelect = (page: Page, found: Effect.Effect<Locator, unknown>, target: Target, values: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    // Nothing can settle before SELECT_QUIET_MS: the first look waits a little, leaving the page to Playwright's own.
    yield* Effect.sleep(SELECT_POLL_MS * 3)
    const locator = yield* Effect.orElse(found, () => Effect.never)
    let since: { readonly key: string; readonly at: number } | undefined
    for (;;) {
      const count = yield* Effect.promise(() => locator.count().catch(() => -1))
      const read = count === 1 ? yield* Effect.promise(() => locator.evaluate(optionsOf, undefined, { timeout: 1_000 }).catch(() => null)) : null
      const missing = read?.options != null ? missingIn(read.options, values) : undefined
      const key = count === 0 ? "none" : missing !== undefined && missing.missing.length > 0 ? `missing ${missing.detail}` : undefined
      const now = Date.now()
      if (key === undefined) since = undefined
      else if (since?.key !== key) since = { key, at: now }
      if (since !== undefined && now - since.at >= SELECT_QUIET_MS && requestsInFlight(page, SELECT_QUIET_MS * 2) === 0) {
        if (count === 0) {
          return yield* new TargetNotFound({ target: describeTarget(target), detail: `No element matches ${describeTarget(target)} (the page showed none for ${SELECT_QUIET_MS} ms, with nothing loading).` })
        }
        return yield* new ActionFailed({ action: "select_option", target: describeTarget(target), detail: missing!.detail })
      }
      yield* Effect.sleep(SELECT_POLL_MS)
    }
  })

/** After a select timed out: MM_SELECT_FAILED naming the values no enabled option has, with the options there are. */
const missingOptions = (locator: Locator, target: Target, values: ReadonlyArray<string>, timeout: ActionTimeout) =>
  Effect.gen(function* () {
    const read = yield* Effect.promise(() => locator.evaluate(optionsOf, undefined, { timeout: 2_000 }).catch(() => null))
    if (read?.options == null) return yield* timeout
    const { missing, detail } = missingIn(read.options, values)
    if (missing.length === 0) return yield* timeout
    return yield* new ActionFailed({ action: "select_option", target: describeTarget(target), detail })
  })

/** Whether the focus is on the element or inside it (down through shadow roots). Runs in the page. */
const holdsFocus = (element: Element): boolean => {
  let active: Element | null = element.ownerDocument.activeElement
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement
  for (let node: Node | null = active; node !== null; node = node.parentNode ?? (node as ShadowRoot).host ?? null) {
    if (node === element) return true
  }
  return false
}

/**
 * A key pressed on a target, as Playwright's press (focus, then the key), but only once the target holds
 * the focus: an element that cannot take it would send the key to whatever has it.
 */
const pressOn = async (field: Locator, key: string, options: { timeout: number; signal: AbortSignal }): Promise<boolean> => {
  await field.focus({ timeout: options.timeout })
  if (!(await field.evaluate(holdsFocus, undefined, { timeout: options.timeout }))) {
    throw new Error(
      "the target cannot take the keyboard focus, so the key would go to the element that has it; press the key on a field or control, or with no target to send it to the focused element"
    )
  }
  const sensitive = await field.evaluate(isSensitiveField, undefined, { timeout: options.timeout })
  await field.press(key, options)
  return sensitive
}

/** The element field of an action's answer: only when the page could describe the target. */
const described = (element: TargetElement | undefined): { readonly element?: TargetElement } => (element !== undefined ? { element } : {})

/** What the actions share: the session's browser state, the target helpers, and the direct path over them. */
interface ActionContext {
  readonly browser: BrowserStateService
  readonly targeting: Targets
  readonly direct: DirectActions
}

/**
 * Runs an action alone on the session's input (see `inputLock`), with its choice for the dialogs its
 * page opens in force (until the next action's).
 */
const withDialogs = <A, E>(live: LiveSession, page: Page, choice: DialogChoice | undefined, action: Effect.Effect<A, E>) =>
  live.inputLock.withPermits(1)(Effect.zipRight(Ref.set(live.dialogChoice, choice === undefined ? undefined : { page, ...choice }), action))

/** The same for an action that starts from the active page. */
const onActivePage = <A, E>(context: ActionContext, choice: DialogChoice | undefined, action: Effect.Effect<A, E>) =>
  Effect.flatMap(context.browser.activePage, ({ live, page }) => withDialogs(live, page, choice, action))

const click = (context: ActionContext, target: Target, options: ClickOptions) =>
  Effect.flatMap(context.browser.activePage, ({ live, page }) =>
    withDialogs(live, page, options.dialog, context.direct.clickPage(live, page, target, options))
  ).pipe(
    Effect.map(({ page, element }) => ({ closed: page.isClosed(), element })),
    // A confirm button that closes its own popup: the click did its job.
    Effect.catchTag("PageClosed", (error) =>
      error.during === "click" ? Effect.succeed({ closed: true, element: undefined }) : Effect.fail(error)
    ),
    // Unless the page closed because the whole browser went away.
    Effect.flatMap(({ closed, element }) =>
      Effect.as(closed ? context.browser.live : Effect.void, { pageClosedAfterClick: closed, ...(element !== undefined ? { element } : {}) })
    )
  )

const type = (context: ActionContext, target: Target, text: string, options: ActionOptions) => onActivePage(context, options.dialog, typeNow(context, target, text, options))


const pressKey = (context: ActionContext, target: Target | undefined, key: string, options: ActionOptions) =>
  onActivePage(context, options.dialog, pressKeyNow(context, target, key, options))

const pressKeyNow = (context: ActionContext, target: Target | undefined, key: string, options: ActionOptions) =>
  Effect.gen(function* () {
    const { live, page } = yield* context.browser.activePage
    // A key typed into a secret field is part of the secret: where the focus is before and after the key both count.
    // Focus in a cross-origin frame (null) cannot be read from the top document: secret.
    let sensitive = target === undefined ? (yield* focusIsSecret(page)) !== false : false
    if (target !== undefined) {
      // The direct path first (direct.ts); Playwright's press when the page says the target is not ready.
      const direct_ = yield* context.direct.directPress(live, page, target, key, options.timeoutMs)
      if (direct_._tag === "Done") sensitive = direct_.sensitive ?? true
      else {
        live.lastRead = undefined
        yield* Effect.logDebug(`press_key: ${direct_.why}; Playwright's press takes over`)
        sensitive = (yield* context.targeting.act("press_key", target, options.timeoutMs, (field, opts) => pressOn(field, key, opts), page)).value
      }
    } else {
      yield* Effect.tryPromise({
        try: () => page.keyboard.press(key),
        catch: (cause) =>
          page.isClosed()
            ? new PageClosed({ detail: "the page closed while a key was pressed", during: "press_key" })
            : new ActionFailed({ action: "press_key", target: "the focused element", detail: firstLine(cause) })
      })
    }
    if (!sensitive) sensitive = (yield* focusIsSecret(page)) !== false
    return { sensitive }
  })

/** Runs in the page on a <select>: the values of its selected options. */
const selectedValues = (element: Element): Array<string> =>
  element instanceof HTMLSelectElement ? Array.from(element.selectedOptions, (option) => option.value) : []

/** What selectNative did: the values now selected, or the kind of widget the target is instead of a <select>. */
type Selected = { readonly chosen: ReadonlyArray<string> } | { readonly diverted: Exclude<ChoiceKind, "native"> }

/** Playwright's selectOption on a <select> (or what it takes for one, a label), read back once the page's reaction settled. */
const selectNative = (context: ActionContext, page: Page, target: Target, values: ReadonlyArray<string>, options: ActionOptions) =>
  Effect.gen(function* () {
    const select = context.targeting.act("select_option", target, options.timeoutMs, async (found, opts) => {
      const started = await startReaction(found)
      // Each value matches an option by its value or by its label, as Playwright's own string form does.
      // Anything but a <select> (or a label of one) it refuses at once: then the target's kind says where
      // the choice is made instead, so a native select pays nothing for that.
      const chosen = await found.selectOption([...values], opts).catch(async (cause: unknown) => {
        const kind = isPlaywrightTimeout(cause) ? "native" : await found.evaluate(choiceKindOf, undefined, { timeout: 1_000 }).catch((): ChoiceKind => "native")
        if (kind === "native") throw cause
        return kind
      })
      if (!Array.isArray(chosen)) return { diverted: chosen as Exclude<ChoiceKind, "native"> }
      // Read back once the page's reaction settled: a page that sets the select back did not take the choice.
      const settled = await settleReaction(page, found, started, opts.timeout)
      const after = await found.evaluate(selectedValues, undefined, { timeout: 1_000 }).catch(() => undefined)
      return { chosen, after, settled }
    }, page).pipe(
      Effect.flatMap(({ value }) => {
        if ("diverted" in value) return Effect.succeed<Selected>(value)
        const { chosen, after, settled } = value
        return after === undefined || (after.length === chosen.length && chosen.every((choice) => after.includes(choice)))
          ? Effect.succeed<Selected>({ chosen })
          : Effect.fail(
              new ActionFailed({
                action: "select_option",
                target: describeTarget(target),
                detail: `${JSON.stringify(chosen.join(", "))} was selected, but the page set it back to ${JSON.stringify(after.join(", "))} afterwards (it did not accept the choice)${pageSaid(settled)}`
              })
            )
      }),
      // Playwright waits for a missing option until the time runs out: say which options there are.
      Effect.catchTag("ActionTimeout", (timeout) =>
        Effect.flatMap(context.targeting.ensureRefs(page, target), (frames) => missingOptions(context.targeting.locate(page, target, frames), target, values, timeout))
      )
    )
    const found = Effect.map(context.targeting.ensureRefs(page, target), (frames) => context.targeting.locate(page, target, frames))
    return yield* Effect.raceFirst(select, failFastSelect(page, found, target, values))
  })

const selectOption = (context: ActionContext, target: Target, values: ReadonlyArray<string>, options: ActionOptions) =>
  onActivePage(
    context,
    options.dialog,
    Effect.gen(function* () {
      const { page } = yield* context.browser.activePage
      const native = yield* selectNative(context, page, target, values, options)
      if ("chosen" in native) return { selected: native.chosen }
      // An <option>'s ref stands for its <select>: the choice is made there, and the answer says so.
      const select = native.diverted === "native-option" ? selectOfOption(target) : undefined
      if (select !== undefined) {
        const inSelect = yield* selectNative(context, page, select, values, options)
        if ("chosen" in inSelect) return { selected: inSelect.chosen, via: "select" as const }
      }
      if (native.diverted !== "native-option") {
        // An ARIA listbox, one of its options, or a combobox: its options are clicked as a person does (choose.ts).
        const found = context.targeting.locate(page, target, yield* context.targeting.ensureRefs(page, target, true))
        const { names, typed } = yield* chooseInWidget(page, found, describeTarget(target), values, options.timeoutMs)
        return { selected: names, via: "listbox" as const, ...(typed ? { typed: true as const } : {}) }
      }
      return yield* new ActionFailed({ action: "select_option", target: describeTarget(target), detail: "it is not a <select> (nor an option or label of one)" })
    })
  )

const hover = (context: ActionContext, target: Target, options: ActionOptions) =>
  onActivePage(context, options.dialog, context.targeting.act("hover", target, options.timeoutMs, (locator, opts) => locator.hover(opts)).pipe(Effect.asVoid))

/** get_text: our page script reads it (direct-reads.ts), else Playwright's locator with what is left of the wait. */
const getText = (context: ActionContext, target: Target, options: { readonly timeoutMs: number }) =>
  Effect.gen(function* () {
    const { page } = yield* context.browser.activePage
    const started = Date.now()
    const direct = yield* readTextDirect(context.direct, page, target, options.timeoutMs).pipe(
      // Our script found several and noted them in the page: listed from there, without Playwright's engine.
      Effect.catchTag("TargetAmbiguous", (ambiguous) => Effect.flip(context.targeting.listNoted(page)(ambiguous)))
    )
    if (Option.isSome(direct)) return direct.value
    const left = Math.max(1, options.timeoutMs - (Date.now() - started))
    const { value } = yield* context.targeting.act("get_text", target, left, (locator, opts) => locator.evaluate(readShownText, undefined, opts))
    return value
  })

/**
 * wait_for: waits on any of the target's matches (visible once one is, hidden once none is). Answers
 * the target's durable forms as the page showed them: once it showed, or before it went.
 */
const waitForAny = (context: ActionContext, target: Target, state: "visible" | "hidden", options: { readonly timeoutMs: number }) =>
  Effect.gen(function* () {
    const { live, page } = yield* context.browser.activePage
    const shown = describeTarget(target)
    const before = state === "hidden" ? yield* context.targeting.describe(page, target) : undefined
    const waited = yield* waitDirect(context.direct, page, state, target, options.timeoutMs, state === "visible")
    if ("ready" in waited) {
      const prepared = waited.ready
      const element = state === "visible" ? yield* context.targeting.describe(page, target, prepared.described) : before
      // The state read in the same trip stays the latest: describing only reads.
      if (prepared.page !== undefined) live.lastRead = { page, result: prepared.page }
      return described(element)
    }
    const timeoutMs = waited.leftMs
    const refCheck = yield* Effect.either(context.targeting.ensureRefs(page, target))
    if (refCheck._tag === "Left") {
      // A ref whose element left the page is as hidden as it gets.
      if (state === "hidden" && refCheck.left._tag === "TargetNotFound") return described(before)
      return yield* refCheck.left
    }
    // The first of the matches that are visible, which exists when any is and is gone when none is.
    const awaited = context.targeting.locate(page, target, refCheck.right).filter({ visible: true }).first()
    yield* Effect.tryPromise({
      try: (signal) => awaited.waitFor({ state, timeout: timeoutMs, signal }),
      catch: (cause) => new BrowserCallFailed({ cause })
    }).pipe(
      Effect.catchTag("BrowserCallFailed", (error) =>
        Effect.gen(function* () {
          if (page.isClosed()) return yield* new PageClosed({ detail: `the page closed while waiting for ${shown}` })
          const invalid = isPlaywrightTimeout(error.cause) ? undefined : yield* context.targeting.selectorProblem(page, target)
          if (invalid !== undefined) return yield* invalid
          yield* Effect.logDebug("wait_for failed", firstLine(error.cause))
          return yield* new WaitTimeout({ target: shown, state, timeoutMs: options.timeoutMs })
        })
      )
    )
    return described(state === "visible" ? yield* context.targeting.describe(page, target) : before)
  })

const getTexts = (context: ActionContext, target: Target, options: { readonly timeoutMs: number; readonly limit: number }) =>
  Effect.gen(function* () {
    const { page } = yield* context.browser.activePage
    const described = describeTarget(target)
    const locator = context.targeting.locate(page, target, yield* context.targeting.ensureRefs(page, target))
    const read = Effect.tryPromise({
      try: () => locator.evaluateAll(readEach, options.limit),
      catch: (cause) => new BrowserCallFailed({ cause })
    }).pipe(
      Effect.catchTag("BrowserCallFailed", ({ cause }): Effect.Effect<never, PageClosed | InvalidInput | ActionFailed> =>
        page.isClosed()
          ? Effect.fail(new PageClosed({ detail: `the page closed during get_text on ${described}`, during: "get_text" }))
          : Effect.flatMap(context.targeting.selectorProblem(page, target), (invalid) =>
              Effect.fail(invalid ?? new ActionFailed({ action: "get_text", target: described, detail: firstLine(cause) }))
            )
      )
    )
    const first = yield* read
    if (first.total > 0) return first
    // Nothing yet: wait as a single get_text would for one to be attached (while the page can still bring one), then read them all.
    const attached = Effect.tryPromise({
      try: (signal) => locator.first().waitFor({ state: "attached", timeout: options.timeoutMs, signal }),
      catch: () =>
        page.isClosed()
          ? new PageClosed({ detail: `the page closed during get_text on ${described}`, during: "get_text" })
          : new TargetNotFound({ target: described, detail: `No element matches ${described} (waited ${options.timeoutMs} ms).` })
    })
    yield* Effect.raceFirst(attached, context.targeting.untilMissing(page, locator.first(), target, "get_text", options.timeoutMs))
    return yield* read
  })

export const make = Effect.gen(function* () {
  const browser = yield* BrowserState
  const targeting = targets(browser)
  const context: ActionContext = { browser, targeting, direct: directActions(browser, targeting) }
  const actions: SessionActions = {
    describe: (target) =>
      browser.activePage.pipe(
        Effect.flatMap(({ page }) => context.targeting.describe(page, target)),
        Effect.orElseSucceed(() => undefined)
      ),
    click: (target, options) => browser.refineClosed(click(context, target, options)),
    type: (target, text, options) => browser.refineClosed(type(context, target, text, options)),
    waitForAny: (target, state, options) => browser.refineClosed(waitForAny(context, target, state, options)),
    getText: (target, options) => browser.refineClosed(getText(context, target, options)),
    getTexts: (target, options) => browser.refineClosed(getTexts(context, target, options)),
    pressKey: (target, key, options) => browser.refineClosed(pressKey(context, target, key, options)),
    selectOption: (target, values, options) => browser.refineClosed(selectOption(context, target, values, options)),
    hover: (target, options) => browser.refineClosed(hover(context, target, options))
  }
  return actions
})
