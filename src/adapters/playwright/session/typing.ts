// mm_type over Playwright: the direct path first (direct.ts), else Playwright's fill; then the checks
// after it. A field that drives a popup gives its app the moment it takes to answer (the filtered
// options belong in the answer), the page's reaction settles (page/reaction.ts: a validation that
// empties the field 300 ms after the last key, a reset after a fetch), and the field is read back: the
// call fails unless it still holds the text (or a formatting of it, or an autocomplete's choice).
import { Effect } from "effect"
import type { Locator, Page } from "playwright"
import { ActionFailed, InvalidInput } from "../../../domain/errors.js"
import type { TargetElement } from "../../../domain/knowledge.js"
import { describeTarget, type Target } from "../../../domain/target.js"
import type { ActionOptions } from "../../../services/Session.js"
import { within } from "../calls.js"
import type { BrowserStateService } from "../lifecycle/browser.js"
import { PAGE } from "../page-bundle.js"
import { callInMainWorld } from "../main-world.js"
import { fieldReactionCode, typedStateScript, typingChangesScript } from "../page-actions.js"
import { evaluateInPage } from "../page-eval.js"
import { elementFunction, isSensitiveField } from "../page-script.js"
import type { Reaction } from "../page/reaction.js"
import type { FirstLook, Typed, TypingKind } from "../page/typing.js"
import { splitLastKey, type DirectActions } from "./direct.js"
import { awaitSettled, pageSaid } from "./reaction.js"
import { failIfStuck } from "./responsive.js"
import { Refused, type Targets } from "./targets.js"

/**
 * Whether the focused element (down through shadow roots and frames) looks secret; null when the focus is
 * in a frame of another origin, which the top document cannot read. A page that cannot answer counts as secret.
 */
export const focusIsSecret = (page: Page) =>
  Effect.promise(() =>
    page.isClosed()
      ? Promise.resolve(true)
      : evaluateInPage<boolean | null>(
          page,
          `(() => {
            const isSensitive = ${isSensitiveField.toString()}
            let element = document.activeElement
            for (;;) {
              if (element && element.shadowRoot && element.shadowRoot.activeElement) { element = element.shadowRoot.activeElement; continue }
              if (element && (element.localName === "iframe" || element.localName === "frame")) {
                let inner = null
                try { inner = element.contentDocument } catch { inner = null }
                if (inner === null) return null
                if (inner.activeElement && inner.activeElement !== inner.body) { element = inner.activeElement; continue }
              }
              break
            }
            return element ? isSensitive(element) : false
          })()`,
          { timeoutMs: 2_000 }
        ).catch(() => true)
  )

/** After typing into a field that drives a popup: its app's first change within the field's window (watchTyping), then quiet for quietMs, at most capMs. */
const POPUP = { quietMs: 100, capMs: 1_500, pollMs: 25 } as const
/** How long the field may take to start its watch before typing (a field not there yet is typed into without it; a busy page may take a while). */
const WATCH_TIMEOUT_MS = 1_000
/** What the checks after typing leave of the action's time for its answer. */
const ANSWER_MS = 300

const typingKind = elementFunction<string, TypingKind>(PAGE.typingKind)
const watchTyping = elementFunction<undefined, number>(PAGE.watchTyping)
const watchReaction = elementFunction<boolean, void>(PAGE.watchReaction)

/**
 * Waits for the app's answer to typing into a field that drives a popup (see POPUP): a change of the
 * page after the last key (page/typing.ts), timed here, so that a page's frozen timers do not hold it.
 */
const awaitPopup = async (look: () => Promise<number>, firstMs: number) => {
  const started = Date.now()
  let seen = await look()
  let changedAt = seen > 0 ? started : undefined
  for (;;) {
    const now = Date.now()
    if (seen < 0 || now - started >= POPUP.capMs) return
    if (changedAt === undefined ? now - started >= firstMs : now - changedAt >= POPUP.quietMs) return
    await new Promise((resolve) => setTimeout(resolve, POPUP.pollMs))
    const changes = await look()
    if (changes !== seen) changedAt = Date.now()
    seen = changes
  }
}

/**
 * Playwright's path of mm_type. A text field gets the text as fill puts it, but its last character as
 * a real keystroke (keydown, input, keyup), so that a filter listening to keys hears it as it hears a
 * person; a date or number input is filled whole; an editor that reads keystrokes (role textbox, not
 * an editing host) gets its text selected and replaced key by key, a segment of a date or time field its
 * keys (the field moves the focus on); a date, time, month, week or range
 * input gets the text as it takes it ("2025-04-20" for "04/20/2025"), and text it cannot take touches
 * nothing. The watch of the page's reaction starts right before the input. Answers when, and the value
 * put in when it is not the text; or what the input expects.
 */
const typeInto = async (field: Locator, text: string, options: { timeout: number; signal: AbortSignal }): Promise<Typing> => {
  const kind = await field.evaluate(typingKind, text, { timeout: options.timeout })
  if (typeof kind === "object" && "notEditable" in kind) throw new Refused("not-editable", kind.notEditable, kind.instead)
  if (typeof kind === "object" && "expected" in kind) return { expected: kind.expected }
  await field.evaluate(watchReaction, true, { timeout: options.timeout })
  const started = Date.now()
  if (kind === "segments") {
    // Keys as a person types them: each goes where the focus is, as the field moves it segment by segment.
    await field.focus({ timeout: options.timeout })
    await field.pressSequentially(text, options)
    return { started }
  }
  if (kind === "keys") {
    await field.focus({ timeout: options.timeout })
    await field.press("ControlOrMeta+a", options)
    if (text === "") await field.press("Delete", options)
    else await field.pressSequentially(text, options)
    return { started }
  }
  if (typeof kind === "object") {
    await field.fill(kind.fill, options)
    return { started, ...(kind.fill !== text ? { filled: kind.fill } : {}) }
  }
  const { head, last } = kind === "text" ? splitLastKey(text) : { head: text, last: "" }
  await field.fill(head, options)
  if (last !== "") await field.pressSequentially(last, options)
  return { started }
}

/** What typeInto did: typed from `started` (epoch ms), `filled` with the input's form of the text; or nothing, as the input `expected` another text. */
type Typing = { readonly started: number; readonly filled?: string } | { readonly expected: string }

/** The element field of an action's answer: only when the page could describe the target. */
const described = (element: TargetElement | undefined): { readonly element?: TargetElement } => (element !== undefined ? { element } : {})

/**
 * Our world's verdict on a field, with what the main world's watch saw when the text did not arrive: whether
 * the field held it at its last input (the page changed it afterwards), and, for a field that is not secret
 * (it shows what it holds), the page's message.
 */
const withSaid = (ours: Typed, main: Typed | null): Typed =>
  ours.arrived || main === null
    ? ours
    : {
        ...ours,
        ...(main.held === true ? { held: true } : {}),
        ...(ours.holds !== undefined && main.said !== undefined && main.said.length > 0 ? { said: main.said } : {})
      }

/** What typing needs of the session's actions: its browser state, the target helpers, and the direct path. */
export interface TypingContext {
  readonly browser: BrowserStateService
  readonly targeting: Targets
  readonly direct: DirectActions
}

/** What mm_type answers: whether the field looks secret, the target as the page showed it, and what the field shows when it differs from the text. */
export interface TypeOutcome {
  readonly sensitive: boolean
  readonly element?: TargetElement
  readonly value?: string
}

export const typeNow = (context: TypingContext, target: Target, text: string, options: ActionOptions) =>
  Effect.gen(function* () {
    const deadline = Date.now() + options.timeoutMs
    const { live, page } = yield* context.browser.activePage
    // A page known to be stuck answers MM_PAGE_UNRESPONSIVE before the watch below waits on it.
    yield* failIfStuck(page, `type on ${describeTarget(target)} could not start`)
    // The direct path starts the watches of the field itself, in the trip that prepares it.
    const direct_ = yield* context.direct.directType(live, page, target, text, options.timeoutMs)
    if (direct_._tag === "Done") {
      const token = direct_.token ?? ""
      const read =
        <A>(expression: string, none: A, world = evaluateInPage) =>
        () =>
          world<A>(page, expression, { timeoutMs: 1_000 }).catch(() => none)
      // Our world keeps the field and its popup watch; the page's main world the watch of its reaction, when it started.
      const inOurWorld = read<Typed | null>(typedStateScript(token, text), null)
      const inMainWorld =
        <A>(name: string, args: ReadonlyArray<unknown>, none: A) =>
        () =>
          callInMainWorld<A>(page, fieldReactionCode, name, args, none, { timeoutMs: 1_000 }).catch(() => none)
      // The first look brings the main world's read-back along when the page did nothing (page/typing.ts firstFieldLook);
      // the direct path took it, with our world's read-back, in the trip after the input when the field drives no popup.
      let looked = false
      let mainTyped: Typed | null | undefined
      const look = async (): Promise<Reaction | null> => {
        if (looked) return inMainWorld<Reaction | null>("now", [], null)()
        looked = true
        const first = direct_.first !== undefined ? direct_.first.look : await inMainWorld<FirstLook | null>("look", [text], null)()
        if (first === null || first.typed === undefined) return first
        mainTyped = first.typed
        const { typed: _, ...reaction } = first
        return reaction
      }
      // Our world's read-back taken with that first look stands when the look found the reaction over.
      const ours = () => (mainTyped !== undefined && direct_.first?.typed != null ? Promise.resolve(direct_.first.typed) : inOurWorld())
      const typed = yield* checkTyped(page, target, {
        firstMs: direct_.firstMs ?? 0,
        started: direct_.inputAt ?? Date.now(),
        deadline,
        changes: read(typingChangesScript(token), -1),
        reaction: direct_.watched === true ? look : async () => null,
        // The verdict is our world's, on the field the direct path prepared, read after the main world saw the page
        // settled: the main world found its field by the page's own document.activeElement, which a page can answer
        // falsely. The main world adds what the page said.
        typed:
          direct_.watched === true
            ? () =>
                Promise.all([mainTyped !== undefined ? mainTyped : inMainWorld<Typed | null>("typed", [text], null)(), ours()]).then(
                  ([main, ours]) => (ours === null ? main : withSaid(ours, main))
                )
            : inOurWorld
      })
      return outcome(direct_.sensitive ?? true, direct_.element, typed)
    }
    live.lastRead = undefined
    yield* Effect.logDebug(`type: ${direct_.why}; Playwright's fill takes over`)
    // A field that drives a popup has its page's changes counted from now on, for the app's answer to the typing.
    const frames = yield* context.targeting.ensureRefs(page, target, true)
    const field = context.targeting.locate(page, target, frames)
    const firstMs = yield* Effect.promise(() => field.evaluate(watchTyping, undefined, { timeout: WATCH_TIMEOUT_MS }).catch(() => 0))
    const element = yield* context.targeting.describe(page, target, direct_.described)
    const { locator, value: typing } = yield* context.targeting.act("type", target, options.timeoutMs, (typed, opts) => typeInto(typed, text, opts), page)
    if ("expected" in typing) return yield* new InvalidInput({ field: "text", problem: `${typing.expected}; the field was left as it was` })
    const filled = typing.filled
    const checked = yield* checkTyped(page, target, {
      firstMs,
      started: typing.started,
      deadline,
      changes: () => onElementNow(locator, PAGE.typingChanges, undefined, -1),
      reaction: () => onElementNow<Reaction | null>(locator, PAGE.reactionNow, undefined, null),
      typed: () => onElementNow<Typed | null>(locator, PAGE.typedState, filled ?? text, null)
    })
    // A value put in another form than the text ("2025-04-20" for "04/20/2025") is answered.
    const typed = filled === undefined || checked === null ? checked : { ...checked, value: checked.value ?? filled }
    // Read in our isolated world (the field keeps the focus after fill) and, for a field that lost it, on the element.
    // Focus in a cross-origin frame: the field itself says, when it is in a frame (it has the focus there).
    const focused = yield* focusIsSecret(page)
    if (focused === true || (focused === null && frames.length === 0)) return outcome(true, element, typed)
    const sensitive = yield* Effect.promise(() => locator.evaluate(isSensitiveField, undefined, { timeout: 2_000 }).catch(() => true))
    return outcome(sensitive, element, typed)
  })

const outcome = (sensitive: boolean, element: TargetElement | undefined, typed: Typed | null): TypeOutcome => ({
  sensitive,
  ...described(element),
  ...(typed?.value !== undefined && !sensitive ? { value: typed.value } : {})
})

/**
 * The page function `source` (as PAGE holds it) on the locator's element as the page is now, or `absent`
 * when it is not there (it left) or the page did not answer within 2 s: a field an action took away is
 * not waited for, as a locator's evaluate would.
 */
const onElementNow = <R>(locator: Locator, source: string, arg: unknown, absent: R): Promise<R> => {
  const run = new Function("elements", "given", `return elements.length === 0 ? given.absent : (${source})(elements[0], given.arg)`) as (
    elements: Array<Element>,
    given: { readonly arg: unknown; readonly absent: unknown }
  ) => R
  return within((locator.evaluateAll(run, { arg, absent }) as Promise<R>).catch(() => absent), 2_000, absent)
}

/**
 * How the checks after typing read the field: how long to wait for its app's first answer (0: the field
 * drives nothing), when the input started and the action's deadline (epoch ms), its page's changes since
 * the last key, the page's reaction so far (null: not watched), and what it holds (null when it cannot be
 * read any more: it went away).
 */
interface TypedReads {
  readonly firstMs: number
  readonly started: number
  readonly deadline: number
  readonly changes: () => Promise<number>
  readonly reaction: () => Promise<Reaction | null>
  readonly typed: () => Promise<Typed | null>
}

/**
 * After typing: a field that drives a popup gives its app the moment it takes to answer (a first change
 * within the field's window (watchTyping), then quiet for POPUP.quietMs, at most POPUP.capMs), so that the
 * observation after it shows the filtered options; a page that reacts (a timer, a request, a change of its
 * DOM) settles (session/reaction.ts); then the call fails unless the field holds the text (or a formatting
 * of it, or an autocomplete's choice). A field that cannot be read any more (it went away) passes.
 */
const checkTyped = (page: Page, target: Target, reads: TypedReads) =>
  Effect.gen(function* () {
    if (reads.firstMs > 0) yield* Effect.promise(() => awaitPopup(reads.changes, reads.firstMs))
    yield* Effect.promise(() => awaitSettled(page, reads.reaction, reads.started, reads.deadline - ANSWER_MS - Date.now(), true))
    const typed = yield* Effect.promise(reads.typed)
    if (typed === null || typed.arrived || page.isClosed()) return typed
    const said = pageSaid({ texts: typed.said ?? [] })
    return yield* new ActionFailed({
      action: "type",
      target: describeTarget(target),
      detail:
        typed.holds === undefined
          ? "the field does not hold the text typed afterwards (the page changed or refused it; a secret field's value is not shown)"
          : typed.held === true
            ? `the field took the text, but the page changed it to ${JSON.stringify(typed.holds)} afterwards (it did not accept it)${said}`
            : `the field holds ${JSON.stringify(typed.holds)} afterwards, not the text typed (the page changed or refused it)${said}`
    })
  })
