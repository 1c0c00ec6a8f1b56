// The types the page code and the Node side share: what goes into the page and what comes back.
// The Node side imports these with `import type` only; nothing else crosses into the page bundle.
import type { Typed } from "./typing.js"

export interface ScreenRule {
  readonly screen: string
  readonly testId?: string | undefined
  readonly selector?: string | undefined
  readonly urlPattern?: string | undefined
}

/** What `find` looks for: every given field must match (text and name as case-insensitive substrings). */
export interface FindQuery {
  readonly text?: string | undefined
  readonly role?: string | undefined
  readonly name?: string | undefined
  readonly limit: number
}

export interface ObserveArgs {
  /** The first ref number of the server's block for this evaluation (see lifecycle/ref-space.ts). */
  readonly nextRef: number
  /** The end of that block (exclusive): the walk hands out no ref past it (it stops, as at its node cap). */
  readonly refEnd: number
  readonly testIdAttribute: string
  readonly testIdLimit: number
  readonly a11yLimit: number
  readonly rootSelector: string | null
  readonly screenRules: ReadonlyArray<ScreenRule>
  readonly wantTestIds: boolean
  readonly wantA11y: boolean
  /**
   * Report only nodes and test ids that are new or changed since the client (`viewer`) last looked;
   * the rest are counted (their refs stay valid) and refs that left are listed.
   */
  readonly changesOnly: boolean
  /** Characters of text kept per node (code blocks get four times as many); longer text ends with a marker. */
  readonly textLimit?: number | undefined
  /** Search the tree instead of listing it (see `find`). */
  readonly find?: FindQuery | undefined
  /**
   * Answer the walk's role, name and hidden tests instead of a result, for page code that calls the
   * installed walk directly (`describeTarget`): one name computation, shared.
   */
  readonly aria?: boolean | undefined
  /**
   * The server's copy of this document's ledger (its id and sequence number): the walk answers what
   * changed since then, or the whole ledger when the page's differs (see `Ledger`).
   */
  readonly ledgerOf?: { readonly doc: string; readonly seq: number } | undefined
  /**
   * URLs (without fragment) of earlier documents of this tab whose ledger the server keeps: the first
   * walk of a new document at one of them answers `carryWanted` instead of walking, and gets `carry`.
   */
  readonly carryFrom?: ReadonlyArray<string> | undefined
  /** What the agent knew of the earlier document at this URL: refs to carry over and what it was told. */
  readonly carry?: Carry | undefined
  /**
   * The client the walk observes for (see `ObservingClient`): each client has its own record of what it
   * was told and saw (a search counts), so a changes-only walk answers what changed since it last looked.
   */
  readonly viewer?: string | undefined
}

/**
 * The refs of an earlier document at the same URL (after a reload, a navigation to the same URL, back
 * or forward) with their durable identities, and what the agent was told of each (a hash of the
 * node's signature). In the new document an element with the same identity takes the ref over, and
 * a changes-only walk compares with what the agent was told, so a reload reports only what changed.
 */
export interface Carry {
  readonly url: string
  /** [ref, durable identity] */
  readonly refs: ReadonlyArray<readonly [string, string]>
  /** [key (a ref, or a ref with "*" for a collapsed run), signature hash] */
  readonly told: ReadonlyArray<readonly [string, string]>
}

/**
 * The page's record of a document's refs with their durable identities and of what the agent was told,
 * kept in copy by the server so that the next document at the same URL can carry it over (see `Carry`).
 * Answered by each walk of the tree as changes since the server's copy (`ledgerOf`), or whole (`full`).
 * A null value removes the entry.
 */
export interface Ledger {
  readonly doc: string
  readonly url: string
  readonly seq: number
  readonly full?: true
  readonly refs: Array<[string, string | null]>
  readonly told: Array<[string, string | null]>
}

/** The walk's own role, accessible name and hidden-for-assistive-technology tests (see `ObserveArgs.aria`). */
export interface AriaTests {
  readonly roleOf: (element: Element) => string | null
  readonly nameOf: (element: Element, role: string) => string
  readonly hidden: (element: Element) => boolean
}

export interface RawNode {
  ref: string
  role: string
  name: string
  disabled?: boolean
  checked?: boolean | "mixed"
  expanded?: boolean
  level?: number
  selected?: boolean
  pressed?: boolean | "mixed"
  sort?: "ascending" | "descending" | "other"
  /** aria-current: "true" or its kind ("page", "date"...). */
  current?: string
  invalid?: boolean
  required?: boolean
  readonly?: boolean
  /** Selected or active by a class only (`is-selected`, `-selected-`, `active`), where no ARIA state says. */
  marked?: "selected" | "active"
  path?: Array<string>
  /** Nesting in the tree (0 when absent). */
  depth?: number
  /** The text a reader sees in the node besides its name, or a field's value. */
  text?: string
  /** A run of like siblings shown as one node: how many, their refs as ranges, a few of their texts. */
  collapsed?: { count: number; refs: Array<string>; examples: Array<string> }
  /** Changes-only: the ref of the nearest enclosing node that the same answer shows (none: no enclosing node is shown). */
  under?: string
  /** Changes-only: a row whose children are all shown below it. */
  whole?: boolean
  /** What the client was told of its ref or its name is no longer so (told-names.ts `markRetold`): a line of its own. */
  apart?: boolean
}

export interface RawTestId {
  testId: string
  tag: string
  text?: string
  visible: boolean
  /** The name of the cross-origin iframe that holds it (set outside the page, see frames.ts). */
  frame?: string
}

/** One line of a `find` answer: a node (a match or the structure around it) or elided siblings. */
export interface FindLine {
  depth: number
  node?: RawNode
  match?: boolean
  /** How many siblings were left out here. */
  elided?: number
}

export interface ObserveResult {
  url: string
  title: string
  readyState: string
  screen: string
  rootFound: boolean
  testIds: Array<RawTestId> | null
  testIdsUnchanged: number
  a11y: { nodes: Array<RawNode>; truncated: boolean; unchanged: number; removed: Array<string>; behindModal?: number } | null
  found?: { lines: Array<FindLine>; total: number }
  nextRef: number
  /** What the page offers that some tools need (listed only while it applies); absent when nothing. */
  affords?: PageAffordances
  /** Changes to this document's ledger (see `Ledger`); walks of the tree only. */
  ledger?: Ledger
  /** The first walk of a new document at this URL, which `carryFrom` named: the walk waits for its `carry`. */
  carryWanted?: string
}

/** Page features that make a tool apply: a file input, drag sources, a visible checkable, room to scroll. */
export interface PageAffordances {
  file?: true
  drag?: true
  check?: true
  scroll?: true
}

/** A ref whose element now has another role or name than the client was last told (see told-names.ts). */
export interface RefRenamed {
  readonly was: { readonly role: string; readonly name: string }
  readonly now: { readonly role: string; readonly name: string }
  /** The one element that now has the role and name the client was told, if exactly one has. */
  readonly instead?: string
}

export interface RefCheck {
  exists: boolean
  /** Asked with a client: the ref's element now has another role or name than that client was told. */
  renamed?: RefRenamed
  current: Array<{ ref: string; role: string; name: string }>
  /** Refs of the same-origin iframes around the element, outermost first. */
  frames: Array<string>
}

/** How the page is given time to settle before it is read: DOM quiet for `quietMs`, at most `capMs`. */
export interface SettleArgs {
  readonly quietMs: number
  readonly capMs: number
}

export interface DirectLocator {
  readonly kind: "a11yRef" | "testId" | "selector"
  readonly value: string
}

export interface DirectArgs {
  /** "text": get_text's read of the one element the target names (readShownText), no visibility needed. */
  readonly action: "click" | "type" | "press" | "visible" | "hidden" | "text"
  readonly locator: DirectLocator
  readonly within: DirectLocator | null
  readonly testIdAttribute: string
  /** Names the guard, so that finishing an action never touches another action's guard. */
  readonly token: string
  /** Date.now() after which the caller no longer waits: the page must not focus or arm anything then. */
  readonly notAfter: number
  /** The binding through which the guard reports its verdict at once, or "" when it does not reach this document. */
  readonly report: string
  /** For an action (click, type, press): the acting client, whose ref must still name what it was told (see told-names.ts). */
  readonly viewer?: string
}

/** The top window's viewport and scroll, for turning content quads into a point and a hit test. */
export interface Viewport {
  readonly width: number
  readonly height: number
  readonly scrollX: number
  readonly scrollY: number
}

export type DirectResult =
  | {
      readonly ready: true
      readonly x?: number
      readonly y?: number
      readonly sensitive?: boolean
      /** A type target that drives a popup or shows suggestions: how long to wait for its app's first answer to the typing (page/typing.ts). */
      readonly firstMs?: number
      /** A type target: when it was focused and its text selected (performance.now() of the top document), for the main world's watch sent behind (session/direct.ts). */
      readonly at?: number
      /** The page's state read in the same trip, when asked for. */
      readonly page?: ObserveResult
      /** The target's durable forms read in the same trip, when asked for (see page-durable.ts). */
      readonly described?: DescribeAnswer
      /** For "text": what get_text reads of the element (page/fields.ts readShownText). */
      readonly read?: { readonly text: string | null; readonly hidden?: string }
    }
  /**
   * A click target whose point the page cannot tell by itself (inside frames, or an inline element of several pieces):
   * the element waits under the token for the browser's own geometry and hit test (see direct.ts).
   */
  | { readonly ready: "measure"; readonly viewport: Viewport; readonly described?: DescribeAnswer }
  | { readonly ready: false; readonly why: string; readonly staleRef?: boolean; readonly count?: number }

/**
 * What a guard saw: `seen` when a trusted event of the action arrived, `hit` when the first one
 * reached the target (else it and the rest of the action were stopped before the page saw them).
 */
export interface GuardVerdict {
  readonly seen: boolean
  readonly hit: boolean
  /** A mouse event of the click started loading another document (in the page or one of its frames). */
  readonly navigating: boolean
  /** A mouse event of the click asked for a download (a link with `download`, also one the page's own handler clicked). */
  readonly downloading?: boolean
  /** The click reached a file input (itself, through a label, or by the page's own input.click()) that opens a chooser. */
  readonly choosing?: boolean
  /** The page's state read in the same trip, right after the action. */
  readonly page?: ObserveResult
  /** A type's field read back in the same trip (page/typing.ts peekTypedState). */
  readonly typed?: Typed | null
}

/** What a guard reports through the binding: `${token} target` or `${token} other`. */
export type GuardReport = "target" | "other"

/** A form of a durable target: the test id, the role and exact name, or the generated selector. */
export type DurableForm = "testId" | "role" | "selector"

export interface DescribeLocator {
  readonly kind: "a11yRef" | "testId" | "selector"
  readonly value: string
}

export interface DescribeArgs {
  readonly locator: DescribeLocator
  readonly within: DescribeLocator | null
  readonly testIdAttribute: string
  /** How long the selector search may take before it settles for the best selector found so far. */
  readonly budgetMs: number
}

/** The element's durable forms, as the page saw them right before the action. */
export interface ElementFacts {
  testId?: string
  role?: string
  name?: string
  selector?: string
  /**
   * A selector of the iframe the element is in, from this document (through the frames between, joined by
   * ENTER_FRAME); its other forms name it inside that frame's document.
   */
  frame?: string
  /** The forms that matched exactly this element. */
  unique: Array<DurableForm>
}

export type Described = { readonly found: true; readonly element: ElementFacts } | { readonly found: false; readonly why: string }

/** What describeExpression answers: the description, or that the document has not installed the describe function yet. */
export type DescribeAnswer = Described | { readonly missing: true }

/** What page/candidates.ts listCandidates takes: the marking step's token, and how many matches to list, named how long. */
export interface CandidatesArgs {
  readonly token: string
  /** The server's next ref number: a ref bound here is past it and past every ref this document handed out. */
  readonly nextRef: number
  /** The end of the server's block for this listing (exclusive): no ref is bound past it. */
  readonly refEnd: number
  readonly limit: number
  readonly nameChars: number
}

export interface Candidate {
  readonly ref: string
  readonly role: string
  readonly name: string
  readonly hidden?: true
}

export interface Candidates {
  readonly candidates: Array<Candidate>
  readonly count: number
  readonly nextRef: number
}

