// Acting on an element of the active page: click, type, keys, select, hover, read text, wait.
import type { Effect } from "effect"
import type {
  ActionFailed,
  ActionTimeout,
  ActionUnconfirmed,
  BrowserClosed,
  DebuggerPaused,
  InvalidInput,
  NoActiveSession,
  PageClosed,
  PageUnresponsive,
  TargetAmbiguous,
  TargetNotFound,
  TargetUnusable,
  WaitTimeout
} from "../../domain/errors.js"
import type { TargetElement } from "../../domain/knowledge.js"
import type { Target } from "../../domain/target.js"

/** The session is gone: none was launched, or its browser died. */
export type SessionGone = NoActiveSession | BrowserClosed

export type ActionError =
  | SessionGone
  | PageClosed
  | PageUnresponsive
  | TargetNotFound
  | TargetAmbiguous
  | ActionTimeout
  | TargetUnusable
  | ActionFailed
  | ActionUnconfirmed
  | DebuggerPaused
  /** A selector Playwright cannot parse. */
  | InvalidInput

export interface Timeout {
  readonly timeoutMs: number
}

/** What to do with a JavaScript dialog (alert, confirm, prompt) that an action opens. */
export interface DialogChoice {
  readonly accept: boolean
  /** The answer to a prompt() when accepting. */
  readonly promptText?: string | undefined
}

export interface ActionOptions extends Timeout {
  /** Dialogs the action opens; without it they are dismissed, and a notice says so. */
  readonly dialog?: DialogChoice | undefined
}

export interface ClickOptions extends ActionOptions {
  /** 2 for a double click (dblclick), 3 for a triple click; 1 by default. */
  readonly count?: number | undefined
}

/** What select_option chose: the values now selected, and how when the target was not a <select> itself. */
export interface SelectResult {
  /** The selected options' values (a <select>), or the chosen options' names (a listbox). */
  readonly selected: ReadonlyArray<string>
  /** "select": the target was an option of a <select>, selected in its select; "listbox": an ARIA listbox or combobox, its options clicked. */
  readonly via?: "select" | "listbox"
  /** A combobox's own text was typed into to open or filter its popup (an autocomplete): a replay types as well. */
  readonly typed?: true
}

export interface SessionActions {
  /**
   * The target element's durable forms as the page shows them now (test id, role and exact name, a
   * generated selector, which of them are unique); undefined when the page cannot say (no such element
   * yet, several, inside a frame, a page that does not answer). Never fails: an action describes its
   * target first, and the action itself reports what is wrong with it.
   */
  readonly describe: (target: Target) => Effect.Effect<TargetElement | undefined>
  /** Clicks the target; `element` is the target as the page showed it right before the click (see describe). */
  readonly click: (
    target: Target,
    options: ClickOptions
  ) => Effect.Effect<{ readonly pageClosedAfterClick: boolean; readonly element?: TargetElement | undefined }, ActionError>
  /**
   * Fills the field; `sensitive` tells whether the element looks like a secret field; `element` as for
   * click; `value` is what a field that is not secret shows when it differs from the text (a mask's format,
   * an autocomplete's choice, a date as the input writes it). Text a date, time, month, week or range
   * input cannot take is InvalidInput naming the form it takes, the field untouched.
   */
  readonly type: (
    target: Target,
    text: string,
    options: ActionOptions
  ) => Effect.Effect<
    { readonly sensitive: boolean; readonly element?: TargetElement | undefined; readonly value?: string | undefined },
    ActionError | InvalidInput
  >
  /**
   * Waits until any element the target matches is visible, or until none is ("hidden"); a target that
   * matches several elements is no error here. `element` is the target as the page showed it once it
   * was visible, or before it went.
   */
  readonly waitForAny: (
    target: Target,
    state: "visible" | "hidden",
    options: Timeout
  ) => Effect.Effect<
    { readonly element?: TargetElement | undefined },
    SessionGone | PageClosed | PageUnresponsive | TargetNotFound | WaitTimeout | DebuggerPaused | InvalidInput
  >
  /**
   * Rendered text, or a field's value; null for a password field. An element nobody sees reads empty,
   * with `hidden` saying how it is hidden (display:none on it or around it, visibility, no size).
   */
  readonly getText: (target: Target, options: Timeout) => Effect.Effect<{ readonly text: string | null; readonly hidden?: string }, ActionError>
  /**
   * The text of every element the target matches (at most `limit`, in document order, null for a
   * password field) and how many match in all, once at least one is in the page.
   */
  readonly getTexts: (
    target: Target,
    options: Timeout & { readonly limit: number }
  ) => Effect.Effect<{ readonly texts: ReadonlyArray<string | null>; readonly total: number }, ActionError>
  /**
   * Presses a key or chord (Playwright names: "Enter", "Control+A") on the target, or on whatever has
   * the focus without one; `sensitive` tells whether the focused element then looks like a secret field.
   */
  readonly pressKey: (
    target: Target | undefined,
    key: string,
    options: ActionOptions
  ) => Effect.Effect<{ readonly sensitive: boolean }, ActionError>
  /**
   * Selects the options of a <select> whose value or label is one of `values`, or chooses them in an
   * ARIA listbox or combobox (opened first; by accessible name, InvalidInput when a value names several);
   * gives what is selected, and `via` when the target was not the select itself.
   */
  readonly selectOption: (
    target: Target,
    values: ReadonlyArray<string>,
    options: ActionOptions
  ) => Effect.Effect<SelectResult, ActionError | InvalidInput>
  /** Moves the mouse over the target (menus and tooltips that open on hover). */
  readonly hover: (target: Target, options: ActionOptions) => Effect.Effect<void, ActionError>
}
