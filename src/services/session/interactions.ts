// The interactions beyond one click or one field: dragging, scrolling, checkboxes, file uploads, waits on
// the page itself (URL, load state), web-first assertions and printing to PDF.
import type { Effect } from "effect"
import type { AssertionFailed, DebuggerPaused, InvalidInput, PageClosed, PageUnresponsive, PdfFailed, TargetAmbiguous, TargetNotFound, WaitTimeout } from "../../domain/errors.js"
import type { Target } from "../../domain/target.js"
import type { ActionError, ActionOptions, SessionGone, Timeout } from "./actions.js"

/** Where a scroll goes: the target into view, to an end, or by a distance in CSS pixels. */
export interface ScrollRequest {
  /** The element to scroll into view, or the scroll container to move (with `to` or a delta); the page without one. */
  readonly target?: Target | undefined
  readonly to?: "top" | "bottom" | undefined
  readonly deltaX?: number | undefined
  readonly deltaY?: number | undefined
}

export interface ScrollResult {
  /** The scroll position changed, or the target came into view. */
  readonly moved: boolean
  /** Vertical position and scrollable height of what scrolled (the page or the container), in CSS pixels. */
  readonly top: number
  readonly height: number
  /** The viewport (or container) now shows its end. */
  readonly atBottom: boolean
}

/** What the page must reach before a wait_for on the page ends. */
export interface PageWait {
  /** A glob (`**` any characters, `*` any but "/") or a regex given as "/source/flags". */
  readonly url?: string | undefined
  readonly loadState?: "load" | "domcontentloaded" | "networkidle" | undefined
}

export type AssertionCondition = "visible" | "hidden" | "text" | "value" | "checked" | "enabled" | "count" | "url" | "title"

/** A web-first assertion: retried until it holds or the time runs out. */
export interface Assertion {
  readonly condition: AssertionCondition
  readonly target?: Target | undefined
  /** Text and value: exact after whitespace is collapsed, or "/regex/flags"; url and title likewise; checked and enabled: a boolean; count: a number. */
  readonly expected?: string | number | boolean | undefined
}

export interface UploadResult {
  /** How the files reached the page: set on a file input, or given to an open file chooser. */
  readonly via: "input" | "chooser"
  /** Names of the files the input holds afterwards. */
  readonly files: ReadonlyArray<string>
}

/** What the active page offers that some tools need; those tools are listed only while it does. */
export interface PageAffordances {
  readonly upload: boolean
  readonly drag: boolean
  readonly check: boolean
  readonly scroll: boolean
}

export interface SessionInteractions {
  readonly drag: (source: Target, target: Target, options: ActionOptions) => Effect.Effect<void, ActionError>
  readonly scroll: (request: ScrollRequest, options: Timeout) => Effect.Effect<ScrollResult, ActionError>
  /** Checks or unchecks a checkbox, radio or switch, and reads the state back: a state that did not take fails. */
  readonly setChecked: (target: Target, checked: boolean, options: ActionOptions) => Effect.Effect<void, ActionError>
  /**
   * Gives local files to a file input, or to the file chooser a click on the target opens, or to the
   * chooser already open when no target is given. Paths outside the upload roots (the artifacts
   * directory and --allowed-roots) are refused with MM_INVALID_INPUT before the page sees anything.
   */
  readonly uploadFiles: (
    target: Target | undefined,
    files: ReadonlyArray<string>,
    options: Timeout
  ) => Effect.Effect<UploadResult, ActionError | InvalidInput>
  /** Waits until the active page's URL matches and it reached the load state; gives the URL. */
  readonly waitForPage: (wait: PageWait, options: Timeout) => Effect.Effect<{ readonly url: string }, SessionGone | PageClosed | WaitTimeout | DebuggerPaused>
  /** Retries the assertion until it holds; fails with what was there at the end. `sensitive`: a secret field's value was compared. */
  readonly expect: (
    assertion: Assertion,
    options: Timeout
  ) => Effect.Effect<{ readonly actual: string; readonly sensitive: boolean }, SessionGone | PageClosed | AssertionFailed | TargetAmbiguous | TargetNotFound | DebuggerPaused | PageUnresponsive | InvalidInput>
  /** Prints the active page to `<artifacts>/pdf/<name>.pdf` (headless only). */
  readonly savePdf: (name: string) => Effect.Effect<{ readonly path: string; readonly bytes: number }, SessionGone | PageClosed | PdfFailed | DebuggerPaused>
  /** What the active page offered at its last read, and whether a file chooser waits; all false without a session. */
  readonly affordances: Effect.Effect<PageAffordances>
}
