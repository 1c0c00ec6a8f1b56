// Code that runs inside the page (serialized by Playwright): one walk of the DOM gives state, visible
// test ids and the page's tree (roles and accessible names as Chromium and Playwright compute them,
// the text a reader sees attached to the nodes around it, runs of like siblings collapsed), and binds
// each node's ref to its element in a page-side registry.
// Everything here must be self-contained: no imports, no helpers from outside the function bodies.

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
  readonly nextRef: number
  readonly testIdAttribute: string
  readonly testIdLimit: number
  readonly a11yLimit: number
  readonly rootSelector: string | null
  readonly screenRules: ReadonlyArray<ScreenRule>
  readonly wantTestIds: boolean
  readonly wantA11y: boolean
  /**
   * Report only nodes and test ids that are new or changed since this page last reported them;
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
  path?: Array<string>
  /** Nesting in the tree (0 when absent). */
  depth?: number
  /** The text a reader sees in the node besides its name, or a field's value. */
  text?: string
  /** A run of like siblings shown as one node: how many, their refs as ranges, a few of their texts. */
  collapsed?: { count: number; refs: Array<string>; examples: Array<string> }
  /** Changes-only: the ref of the nearest enclosing node that the same answer shows (none: no enclosing node is shown). */
  under?: string
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
  a11y: { nodes: Array<RawNode>; truncated: boolean; unchanged: number; removed: Array<string> } | null
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

export interface RefCheck {
  exists: boolean
  current: Array<{ ref: string; role: string; name: string }>
  /** Refs of the same-origin iframes around the element, outermost first. */
  frames: Array<string>
}

/** Arguments of `observePage` that read only the page's state: no test ids, no accessibility nodes, no refs. */
export const stateReadArgs = (
  nextRef: number,
  settings: { readonly testIdAttribute: string; readonly screenRules: ReadonlyArray<ScreenRule> }
): ObserveArgs => ({
  nextRef,
  testIdAttribute: settings.testIdAttribute,
  testIdLimit: 0,
  a11yLimit: 0,
  rootSelector: null,
  screenRules: settings.screenRules,
  wantTestIds: false,
  wantA11y: false,
  changesOnly: false
})
/** Name of the custom selector engine that resolves a ref to exactly its element. */
export const REF_ENGINE = "bwmref"

/**
 * How the ref engine is registered: as a content script, so that Playwright runs it in its utility
 * world, the isolated world where our page scripts keep the registry (see page-eval.ts). The page's
 * own scripts see neither.
 */
export const REF_ENGINE_OPTIONS = { contentScript: true } as const

/** Selector engine registered with Playwright; runs in Playwright's utility world next to the registry. */
export const refSelectorEngine = () => {
  const find = (root: Node, body: string): Element | null => {
    const KEY = Symbol.for("browser-workflow-mcp")
    // Inside a same-origin iframe the registry is the top page's (the utility world spans the page's frames).
    let registry = (window as any)[KEY]
    if (registry === undefined) {
      try {
        registry = (window.top as any)?.[KEY]
      } catch {
        registry = undefined
      }
    }
    const element: Element | undefined = registry?.byRef.get(body)
    if (!element || !element.isConnected || element.ownerDocument.defaultView === null) return null
    // Accept the element only when it lies inside root, crossing shadow boundaries upwards.
    let node: Node | null = element
    while (node) {
      if (node === root) return element
      node = node.parentNode ?? ((node as ShadowRoot).host as Node | undefined) ?? null
    }
    return null
  }
  return {
    query: (root: Node, body: string) => find(root, body),
    queryAll: (root: Node, body: string) => {
      const element = find(root, body)
      return element ? [element] : []
    }
  }
}

/**
 * Runs in the page: the one visibility rule of observations and actions, Playwright's for actions.
 * An element is visible when it has a box of non-zero width and height, is not hidden by its style
 * (`checkVisibility()`: not in a `display: none` or `content-visibility: hidden` subtree) and its
 * `visibility` is `visible`. `opacity: 0` and clipping by an `overflow: hidden` ancestor leave it
 * visible (an action then finds it covered or out of reach and waits). A `display: contents` element
 * has no box of its own: it is visible when one of its children is. `style` may pass the element's
 * computed style when the caller has it.
 */
export const isVisibleElement = (element: Element, style?: CSSStyleDeclaration | null): boolean => {
  const visible = (target: Element, known?: CSSStyleDeclaration | null): boolean => {
    const computed = known ?? target.ownerDocument.defaultView?.getComputedStyle(target) ?? null
    // An element of a document without a window (a template's, say) is not rendered anywhere Playwright looks.
    if (computed === null) return true
    if (computed.display === "contents") {
      for (let child = target.firstChild; child; child = child.nextSibling) {
        if (child.nodeType === 1 && visible(child as Element)) return true
        if (child.nodeType === 3) {
          const range = target.ownerDocument.createRange()
          range.selectNode(child)
          const box = range.getBoundingClientRect()
          if (box.width > 0 && box.height > 0) return true
        }
      }
      return false
    }
    if (typeof (target as any).checkVisibility === "function" && !(target as any).checkVisibility()) return false
    if (computed.visibility !== "visible") return false
    const rect = target.getBoundingClientRect()
    return rect.width > 0 && rect.height > 0
  }
  return visible(element, style)
}

/**
 * Runs in the page: the element is connected and in a frame that is still in the page (a removed
 * iframe's elements stay connected to its old document). Passed to the page scripts that need it.
 */
export const isLiveElement = (element: Element): boolean => {
  let doc: Document | null = element.isConnected ? element.ownerDocument : null
  while (doc !== null && doc !== document) {
    const frame: Element | null | undefined = doc.defaultView?.frameElement
    doc = frame && frame.isConnected ? frame.ownerDocument : null
  }
  return doc === document
}

/** How the page is given time to settle before it is read: DOM quiet for `quietMs`, at most `capMs`. */
export interface SettleArgs {
  readonly quietMs: number
  readonly capMs: number
}

/** The expression that runs `observePage` in the page. */
export const observeExpression = (args: ObserveArgs): string =>
  args.wantA11y || args.wantTestIds || args.find !== undefined
    ? `(${observePage.toString()})(${JSON.stringify(args)}, ${isLiveElement.toString()}, ${isSensitiveField.toString()}, ${readPageState.toString()}, ${isVisibleElement.toString()})`
    : `(${readPageState.toString()})(${JSON.stringify(args)}, ${isVisibleElement.toString()})`

/** The same after the page settled (a promise: the caller awaits it). */
export const settledObserveExpression = (args: ObserveArgs, settle: SettleArgs): string =>
  `(${settlePage.toString()})(${JSON.stringify(settle)}).then(() => ${observeExpression(args)})`

/**
 * The walk is some 70 KB of source: it is installed once per document under a key that names this
 * version of it, and later observations send only their arguments. A call on a document without it
 * answers `{ missing: true }`; `installedObserveExpression` installs it and observes in one trip.
 */
const installKey = () =>
  `browser-workflow-mcp/observe:${observePage.toString().length}:${settlePage.toString().length}:${isVisibleElement.toString().length}`

/** The key the walk is installed under in a document, for page code that calls it (`describeTarget`). */
export const walkInstallKey = (): string => installKey()

const callInstalled = (args: ObserveArgs, settle: SettleArgs | null): string =>
  `(() => {
    const walk = window[Symbol.for(${JSON.stringify(installKey())})]
    if (walk === undefined) return { missing: true }
    const run = () => walk.observe(${JSON.stringify(args)}, walk.isLive, walk.isSensitive, walk.readState, walk.isVisible)
    return ${settle === null ? "run()" : `walk.settle(${JSON.stringify(settle)}).then(run)`}
  })()`

/** An observation through the installed walk; `{ missing: true }` when this document has none yet. */
export const installedCallExpression = (args: ObserveArgs, settle: SettleArgs | null): string => callInstalled(args, settle)

/** Installs the walk in this document and observes. */
export const installedObserveExpression = (args: ObserveArgs, settle: SettleArgs | null): string =>
  `(() => {
    Object.defineProperty(window, Symbol.for(${JSON.stringify(installKey())}), {
      value: { observe: ${observePage.toString()}, settle: ${settlePage.toString()}, isLive: ${isLiveElement.toString()}, isSensitive: ${isSensitiveField.toString()}, readState: ${readPageState.toString()}, isVisible: ${isVisibleElement.toString()} },
      enumerable: false,
      configurable: true
    })
    return ${callInstalled(args, settle)}
  })()`

/** The expression that runs `checkRef` in the page. */
export const checkRefExpression = (ref: string): string =>
  `(${checkRef.toString()})(${JSON.stringify(ref)}, ${isLiveElement.toString()})`

/**
 * Runs in the page before an observation: waits while the page is visibly busy, so that an
 * observation taken right after an action does not miss a re-render. The wait is entered only on a
 * sign of activity: the DOM changed during one task turn (a render scheduled by the action), changed
 * within the last `quietMs` (a render in progress), the URL differs from the last observation of this
 * document (a single-page app changing route), or the document is still loading. Then it waits until
 * the DOM has been quiet for `quietMs`, at most `capMs`. A page where nothing happens pays one task turn.
 * Changes of `style` attributes alone (JavaScript animations) do not count as activity.
 */
export const settlePage = async (settle: SettleArgs): Promise<number> => {
  const start = performance.now()
  const watch: { last: number; href: string } | undefined = (window as any)[Symbol.for("browser-workflow-mcp")]?.watch
  let last = -Infinity
  const relevant = (records: Array<MutationRecord>) =>
    records.some((record) => record.type !== "attributes" || record.attributeName !== "style")
  const observer = new MutationObserver((records) => {
    if (relevant(records)) last = performance.now()
  })
  observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true })
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
  // One task turn (a message, which fake clocks leave alone and which does not wait for a timer's minimum).
  const turn = () =>
    new Promise<void>((resolve) => {
      const channel = new MessageChannel()
      channel.port1.onmessage = () => {
        channel.port1.close()
        resolve()
      }
      channel.port2.postMessage(null)
    })
  try {
    await turn()
    if (relevant(observer.takeRecords())) last = performance.now()
    const lastBefore = watch !== undefined ? watch.last : -Infinity
    const busy =
      last > -Infinity ||
      start - lastBefore < settle.quietMs ||
      (watch !== undefined && watch.href !== location.href) ||
      document.readyState !== "complete"
    if (!busy) return performance.now() - start
    for (;;) {
      if (relevant(observer.takeRecords())) last = performance.now()
      const now = performance.now()
      const quietSince = Math.max(last, lastBefore, start)
      if (now - quietSince >= settle.quietMs || now - start >= settle.capMs) return now - start
      await sleep(Math.max(5, Math.min(settle.quietMs - (now - quietSince), settle.capMs - (now - start))))
    }
  } finally {
    observer.disconnect()
  }
}

/**
 * The page's state only (url, title, load state, screen by rules): what an action reads on its last
 * trip to the page. Small on purpose, since it travels with every action's page script.
 */
export const readPageState = (args: ObserveArgs, isVisible: (element: Element) => boolean): ObserveResult => {
  const cssAttr = (name: string, value: string) => `[${name}="${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"]`

  const detectScreen = (): string => {
    for (const rule of args.screenRules) {
      try {
        if (rule.urlPattern !== undefined && !new RegExp(rule.urlPattern).test(location.href)) continue
        if (rule.testId !== undefined) {
          const match = document.querySelector(cssAttr(args.testIdAttribute, rule.testId))
          if (!match || !isVisible(match)) continue
        }
        if (rule.selector !== undefined) {
          const match = document.querySelector(rule.selector)
          if (!match || !isVisible(match)) continue
        }
        return rule.screen
      } catch {
        continue
      }
    }
    return "unknown"
  }

  /** Cheap checks (a few selector queries, one layout read) of what the page offers; see PageAffordances. */
  const affordances = (): PageAffordances | undefined => {
    const found: PageAffordances = {}
    if (document.querySelector('input[type="file" i]') !== null) found.file = true
    if (
      document.querySelector(
        '[draggable="true"], [aria-roledescription*="draggable" i], [aria-roledescription*="sortable" i], [data-rbd-drag-handle-draggable-id]'
      ) !== null
    ) {
      found.drag = true
    }
    const checkables = document.querySelectorAll('input[type="checkbox" i], input[type="radio" i], [role="checkbox"], [role="radio"], [role="switch"], [role="menuitemcheckbox"]')
    for (let index = 0; index < checkables.length && index < 30; index++) {
      const element = checkables[index]!
      // A hidden native box with a visible label (custom-styled checkboxes) counts through its label.
      const label = element instanceof HTMLInputElement ? element.labels?.[0] : undefined
      if (isVisible(element) || (label !== undefined && label !== null && isVisible(label))) {
        found.check = true
        break
      }
    }
    const scroller = document.scrollingElement
    if (scroller !== null && scroller.scrollHeight > scroller.clientHeight + 1) found.scroll = true
    return Object.keys(found).length === 0 ? undefined : found
  }
  const affords = affordances()

  return {
    ...(affords !== undefined ? { affords } : {}),
    url: location.href,
    title: document.title,
    readyState: document.readyState,
    screen: detectScreen(),
    rootFound: true,
    testIds: null,
    testIdsUnchanged: 0,
    a11y: null,
    nextRef: args.nextRef
  }
}

/** One walk: page state, screen by rules, test ids and the page's tree with refs (or the matches of a search). */
export const observePage = (
  args: ObserveArgs,
  isLive: (element: Element) => boolean,
  isSensitive: (element: Element) => boolean,
  readState: (args: ObserveArgs, isVisible: (element: Element) => boolean) => ObserveResult,
  isVisible: (element: Element, style?: CSSStyleDeclaration | null) => boolean
): ObserveResult => {
  const KEY = Symbol.for("browser-workflow-mcp")
  const w = window as any
  const registry: {
    byRef: Map<string, Element>
    byEl: WeakMap<Element, string>
    info: Map<string, { role: string; name: string }>
    /** What the agent was last told about each ref (a signature of the node), for changes-only observations. */
    reported: Map<string, string>
    /**
     * Nodes a changes-only walk saw past its output limit: left out of that observation (it said
     * truncated), so they are not news in the next one unless they change.
     */
    passed: Map<string, string>
    reportedTestIds: WeakMap<Element, string>
    /** When the DOM last changed and the URL at the last full observation, for settling (see settlePage). */
    watch?: { last: number; href: string }
    /** This document's id and its ledger: each bound ref's durable identity (see `Ledger`). */
    doc: string
    seq: number
    durable: Map<string, string>
    /** Whether a walk of the tree ran in this document (the first one may take a carry). */
    opened: boolean
    /** Refs carried over from an earlier document, by durable identity, until the first whole walk ends. */
    carry?: Map<string, string> | undefined
  } =
    w[KEY] ??
    (w[KEY] = {
      byRef: new Map(),
      byEl: new WeakMap(),
      info: new Map(),
      reported: new Map(),
      passed: new Map(),
      reportedTestIds: new WeakMap(),
      doc: `${Date.now().toString(36)}.${Math.random().toString(36).slice(2)}`,
      seq: 0,
      durable: new Map(),
      opened: false
    })
  Object.defineProperty(w, KEY, { enumerable: false })
  const wantTree = args.wantA11y || args.find !== undefined

  // What changed in the ledger during this walk (keys of `reported`, refs of `durable`).
  const toldChanged = new Set<string>()
  const refsChanged = new Set<string>()
  const tell = (key: string, signature: string) => {
    if (registry.reported.get(key) === signature) return
    registry.reported.set(key, signature)
    toldChanged.add(key)
  }
  const untell = (key: string) => {
    if (registry.reported.delete(key)) toldChanged.add(key)
  }
  const here = location.href.split("#")[0]!

  if (wantTree && !registry.opened) {
    // The first walk of the tree in this document: an earlier document at this URL may hand its refs over.
    const carry = args.carry
    if (carry !== undefined && carry.url === here) {
      const byDurable = new Map<string, string>()
      const ambiguous = new Set<string>()
      for (const [ref, durable] of carry.refs) {
        if (byDurable.has(durable)) ambiguous.add(durable)
        byDurable.set(durable, ref)
      }
      // Two refs with one identity: neither is carried (fail closed).
      for (const durable of ambiguous) byDurable.delete(durable)
      registry.carry = byDurable
      for (const [key, signature] of carry.told) registry.reported.set(key, signature)
    } else if (carry === undefined && args.carryFrom !== undefined && args.carryFrom.includes(here)) {
      return { ...readState(args, isVisible), rootFound: true, testIds: null, testIdsUnchanged: 0, a11y: null, nextRef: args.nextRef, carryWanted: here }
    }
    registry.opened = true
  }

  if (wantTree) {
    if (registry.watch === undefined) {
      const watch = { last: -Infinity, href: location.href }
      registry.watch = watch
      new MutationObserver((records) => {
        for (const record of records) {
          if (record.type !== "attributes" || record.attributeName !== "style") {
            watch.last = performance.now()
            return
          }
        }
      }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true })
    }
    registry.watch.href = location.href
    // Drop refs whose elements left the page, so stale refs are recognised and memory stays bounded.
    for (const [ref, element] of registry.byRef) {
      if (!isLive(element)) {
        registry.byRef.delete(ref)
        registry.info.delete(ref)
        registry.passed.delete(ref)
        if (registry.durable.delete(ref)) refsChanged.add(ref)
      }
    }
  }

  /** Whitespace runs as one space, trimmed; at most `max` characters (then "…"). Linear in `max`, not in the input. */
  const normalize = (text: string | null | undefined, max = 150): string => {
    let raw = text ?? ""
    const cut = raw.length > max * 4 + 64
    if (cut) raw = raw.slice(0, max * 4 + 64)
    const collapsed = raw.replace(/[\u200b\u00ad]/g, "").replace(/\s+/g, " ").trim()
    if (collapsed.length > max) return collapsed.slice(0, max - 1) + "…"
    return cut ? collapsed + "…" : collapsed
  }

  let root: Element | null = document.documentElement
  let rootFound = true
  if (args.rootSelector !== null) {
    try {
      root = document.querySelector(args.rootSelector)
    } catch {
      root = null
    }
    rootFound = root !== null
  }

  let testIds: Array<RawTestId> | null = null
  let testIdsUnchanged = 0
  if (args.wantTestIds) {
    testIds = []
    if (root) {
      const all = root.querySelectorAll(`[${args.testIdAttribute}]`)
      for (let i = 0; i < all.length && testIds.length < args.testIdLimit; i++) {
        const element = all[i]!
        if (!isVisible(element)) continue
        const tag = element.localName
        const isField = tag === "input" || tag === "textarea" || tag === "select"
        const text = isField ? "" : normalize(element.textContent, 100)
        const item: RawTestId = { testId: element.getAttribute(args.testIdAttribute) ?? "", tag, visible: true }
        if (text !== "") item.text = text
        const signature = `${item.testId}|${tag}|${text}`
        if (args.changesOnly && registry.reportedTestIds.get(element) === signature) {
          testIdsUnchanged++
          continue
        }
        registry.reportedTestIds.set(element, signature)
        testIds.push(item)
      }
    }
  }

  let nextRef = args.nextRef
  let a11y: ObserveResult["a11y"] = null
  let found: ObserveResult["found"]

  if (wantTree || args.aria === true) {
    // ---- Roles, as html-aam and Chromium (and so Playwright's getByRole) see them ----
    const NAME_CAP = 150
    const TEXT_CAP = Math.max(20, args.textLimit ?? 300)
    // Nodes the walk builds before it stops (and says truncated): the snapshot shows far fewer once runs
    // collapse; a search looks further.
    const TREE_CAP = args.find !== undefined ? 10_000 : 2_000
    /** Runs of like siblings at least this long collapse: items with children, and single nodes (buttons, options). */
    const COLLAPSE_MIN = 5
    const COLLAPSE_MIN_LEAF = 10
    const VALID_ROLES = new Set(
      ("alert alertdialog application article banner blockquote button caption cell checkbox code columnheader combobox " +
        "complementary contentinfo definition deletion dialog directory document emphasis feed figure form generic grid " +
        "gridcell group heading img insertion link list listbox listitem log main mark marquee math meter menu menubar " +
        "menuitem menuitemcheckbox menuitemradio navigation none note option paragraph presentation progressbar radio " +
        "radiogroup region row rowgroup rowheader scrollbar search searchbox separator slider spinbutton status strong " +
        "subscript superscript switch tab table tablist tabpanel term textbox time timer toolbar tooltip tree treegrid treeitem").split(" ")
    )
    const GLOBAL_ARIA = [
      "aria-atomic", "aria-busy", "aria-controls", "aria-current", "aria-describedby", "aria-details", "aria-dropeffect",
      "aria-flowto", "aria-grabbed", "aria-hidden", "aria-keyshortcuts", "aria-label", "aria-labelledby", "aria-live",
      "aria-owns", "aria-relevant", "aria-roledescription"
    ]
    const NAMING_PROHIBITED = new Set([
      "caption", "code", "definition", "deletion", "emphasis", "generic", "insertion", "mark", "paragraph", "presentation",
      "none", "strong", "subscript", "suggestion", "superscript", "term", "time"
    ])
    const NAME_FROM_CONTENT = new Set([
      "button", "cell", "checkbox", "columnheader", "gridcell", "heading", "link", "menuitem", "menuitemcheckbox",
      "menuitemradio", "option", "radio", "row", "rowheader", "switch", "tab", "tooltip", "treeitem"
    ])
    const NAME_FROM_CONTENT_DESCENDANT = new Set([
      "", "caption", "code", "contentinfo", "definition", "deletion", "emphasis", "insertion", "list", "listitem", "mark",
      "none", "paragraph", "presentation", "region", "row", "rowgroup", "section", "strong", "subscript", "superscript",
      "table", "term", "time"
    ])
    const DISABLED_ROLES = new Set([
      "application", "button", "composite", "gridcell", "group", "input", "link", "menuitem", "scrollbar", "separator", "tab",
      "checkbox", "columnheader", "combobox", "grid", "listbox", "menu", "menubar", "menuitemcheckbox", "menuitemradio",
      "option", "radio", "radiogroup", "row", "rowheader", "searchbox", "select", "slider", "spinbutton", "switch", "tablist",
      "textbox", "toolbar", "tree", "treegrid", "treeitem"
    ])
    const EXPANDED_ROLES = new Set([
      "application", "button", "checkbox", "combobox", "gridcell", "link", "listbox", "menuitem", "row", "rowheader", "tab",
      "treeitem", "columnheader", "menuitemcheckbox", "menuitemradio", "switch"
    ])
    const INPUT_ROLES: Record<string, string> = {
      button: "button", checkbox: "checkbox", image: "button", number: "spinbutton", radio: "radio", range: "slider",
      reset: "button", submit: "button", file: "button"
    }
    const LANDMARK_BLOCKERS =
      "article:not([role]), aside:not([role]), main:not([role]), nav:not([role]), section:not([role]), [role=article], [role=complementary], [role=main], [role=navigation], [role=region]"
    /** Roles that are nodes of the tree; other roles (text-level ones) let their text flow into the node around them. */
    const EMITTED = new Set([
      "alert", "alertdialog", "article", "banner", "blockquote", "button", "cell", "checkbox", "columnheader", "combobox",
      "complementary", "contentinfo", "definition", "dialog", "feed", "figure", "form", "grid", "gridcell", "group", "heading",
      "img", "link", "list", "listbox", "listitem", "log", "main", "marquee", "math", "menu", "menubar", "menuitem",
      "menuitemcheckbox", "menuitemradio", "meter", "navigation", "note", "option", "paragraph", "progressbar", "radio",
      "radiogroup", "region", "row", "rowheader", "scrollbar", "search", "searchbox", "slider", "spinbutton", "status",
      "switch", "tab", "table", "tablist", "tabpanel", "term", "textbox", "timer", "toolbar", "tooltip", "tree", "treegrid",
      "treeitem", "code"
    ])
    /** Nodes whose blocks of text are nodes of their own (a dialog's paragraphs) rather than the node's text. */
    const CONTAINER_ROLES = new Set([
      "", "alertdialog", "article", "banner", "blockquote", "complementary", "contentinfo", "dialog", "feed", "figure", "form",
      "grid", "group", "list", "listbox", "log", "main", "menu", "menubar", "navigation", "radiogroup", "region", "row",
      "search", "table", "tablist", "tabpanel", "toolbar", "tree", "treegrid"
    ])
    /** Nodes whose content is their name: a code block inside them stays part of it. */
    const INLINE_OWNERS = new Set([...NAME_FROM_CONTENT].filter((role) => !["cell", "gridcell", "columnheader", "rowheader", "row"].includes(role)))
    const PATH_ROLES = new Set(["dialog", "alertdialog", "menu", "listbox", "tabpanel", "form", "navigation", "region", "iframe"])
    const SKIP_TAGS = new Set(["script", "style", "template", "noscript", "head", "meta", "link", "title", "base"])

    const styles = new Map<Element, CSSStyleDeclaration | null>()
    const styleOf = (element: Element): CSSStyleDeclaration | null => {
      let style = styles.get(element)
      if (style === undefined) {
        style = element.ownerDocument.defaultView?.getComputedStyle(element) ?? null
        styles.set(element, style)
      }
      return style
    }
    const parentOf = (element: Element): Element | null =>
      element.parentElement ?? ((element.parentNode as ShadowRoot | null)?.host as Element | undefined) ?? null

    const explicitRole = (element: Element): string | null => {
      const attribute = element.getAttribute("role")
      if (!attribute) return null
      for (const token of attribute.split(" ")) {
        const role = token.trim()
        if (VALID_ROLES.has(role)) return role
      }
      return null
    }
    const hasTabIndex = (element: Element) => !Number.isNaN(Number(String(element.getAttribute("tabindex"))))
    const hasGlobalAria = (element: Element, role: string | null) =>
      GLOBAL_ARIA.some(
        (attribute) =>
          element.hasAttribute(attribute) &&
          !((attribute === "aria-label" || attribute === "aria-labelledby") && role !== null && NAMING_PROHIBITED.has(role)) &&
          !(attribute === "aria-roledescription" && role === "generic")
      )
    const isNativelyDisabled = (element: Element): boolean => {
      const tag = element.localName
      if (tag !== "button" && tag !== "input" && tag !== "select" && tag !== "textarea" && tag !== "option" && tag !== "optgroup") return false
      try {
        return element.matches(":disabled")
      } catch {
        return element.hasAttribute("disabled")
      }
    }
    const isFocusable = (element: Element): boolean => {
      if (isNativelyDisabled(element)) return false
      const tag = element.localName
      if (tag === "button" || tag === "details" || tag === "select" || tag === "textarea") return true
      if (tag === "a" || tag === "area") return element.hasAttribute("href")
      if (tag === "input") return !(element as HTMLInputElement).hidden
      return hasTabIndex(element)
    }
    const idRefs = (element: Element, value: string | null): Array<Element> => {
      if (!value) return []
      const scope = element.getRootNode() as Document | ShadowRoot
      const result: Array<Element> = []
      for (const id of value.split(" ")) {
        if (!id) continue
        const found = scope.getElementById?.(id) ?? null
        if (found !== null && !result.includes(found)) result.push(found)
      }
      return result
    }
    const thRole = (element: Element): string | null => {
      const scope = element.getAttribute("scope")
      if (scope === "col" || scope === "colgroup") return "columnheader"
      if (scope === "row" || scope === "rowgroup") return "rowheader"
      const next = element.nextElementSibling
      const previous = element.previousElementSibling
      const row = element.parentElement?.localName === "tr" ? element.parentElement : null
      if (!next && !previous) {
        const table = row?.closest("table") as HTMLTableElement | null | undefined
        if (table && table.rows.length <= 1) return null
        return "columnheader"
      }
      const isHeader = (cell: Element | null) => cell !== null && cell.localName === "th"
      const isFilledData = (cell: Element | null) =>
        cell !== null && cell.localName === "td" && ((cell.textContent ?? "").trim() !== "" || cell.children.length > 0)
      if (isHeader(next) && isHeader(previous)) return "columnheader"
      if (isFilledData(next) || isFilledData(previous)) return "rowheader"
      return "columnheader"
    }
    const implicitRole = (element: Element): string | null => {
      switch (element.localName) {
        case "a": case "area": return element.hasAttribute("href") ? "link" : null
        case "article": return "article"
        case "aside": return "complementary"
        case "blockquote": return "blockquote"
        case "button": return "button"
        case "caption": return "caption"
        case "code": return "code"
        case "datalist": return "listbox"
        case "dd": return "definition"
        case "del": return "deletion"
        case "details": return "group"
        case "dfn": case "dt": return "term"
        case "dialog": return "dialog"
        case "em": return "emphasis"
        case "fieldset": return "group"
        case "figure": return "figure"
        case "footer": return element.closest(LANDMARK_BLOCKERS) ? null : "contentinfo"
        case "header": return element.closest(LANDMARK_BLOCKERS) ? null : "banner"
        case "form": return element.hasAttribute("aria-label") || element.hasAttribute("aria-labelledby") ? "form" : null
        case "h1": case "h2": case "h3": case "h4": case "h5": case "h6": return "heading"
        case "hr": return "separator"
        case "html": return "document"
        case "img":
          return element.getAttribute("alt") === "" && !element.getAttribute("title") && !hasGlobalAria(element, null) && !hasTabIndex(element)
            ? "presentation"
            : "img"
        case "input": {
          const type = (element as HTMLInputElement).type.toLowerCase()
          if (type === "email" || type === "search" || type === "tel" || type === "text" || type === "url" || type === "") {
            const list = idRefs(element, element.getAttribute("list"))[0]
            if (list && list.localName === "datalist") return "combobox"
            return type === "search" ? "searchbox" : "textbox"
          }
          if (type === "hidden") return null
          return INPUT_ROLES[type] ?? "textbox"
        }
        case "ins": return "insertion"
        case "li": return "listitem"
        case "main": return "main"
        case "mark": return "mark"
        case "math": return "math"
        case "menu": case "ol": case "ul": return "list"
        case "meter": return "meter"
        case "nav": return "navigation"
        case "optgroup": return "group"
        case "option": return "option"
        case "output": return "status"
        case "p": return "paragraph"
        case "progress": return "progressbar"
        case "search": return "search"
        case "section": return element.hasAttribute("aria-label") || element.hasAttribute("aria-labelledby") ? "region" : null
        case "select": return element.hasAttribute("multiple") || (element as HTMLSelectElement).size > 1 ? "listbox" : "combobox"
        case "strong": return "strong"
        case "sub": return "subscript"
        case "sup": return "superscript"
        case "svg": return "img"
        case "table": return "table"
        case "tbody": case "thead": case "tfoot": return "rowgroup"
        case "td": {
          const table = element.closest("table")
          const role = table ? explicitRole(table) : null
          return role === "grid" || role === "treegrid" ? "gridcell" : "cell"
        }
        case "textarea": return "textbox"
        case "th": return thRole(element)
        case "time": return "time"
        case "tr": return "row"
        default: return null
      }
    }
    const PRESENTATION_PARENTS: Record<string, Array<string>> = {
      dd: ["dl", "div"], div: ["dl"], dt: ["dl", "div"], li: ["ol", "ul"], tbody: ["table"], td: ["tr"], tfoot: ["table"],
      th: ["tr"], thead: ["table"], tr: ["thead", "tbody", "tfoot", "table"]
    }
    const inheritedPresentation = (element: Element): string | null => {
      let ancestor: Element | null = element
      while (ancestor) {
        const parent = parentOf(ancestor)
        const parents = PRESENTATION_PARENTS[ancestor.localName]
        if (!parents || !parent || !parents.includes(parent.localName)) return null
        const role = explicitRole(parent)
        if ((role === "none" || role === "presentation") && !(hasGlobalAria(parent, role) || isFocusable(parent))) return role
        ancestor = parent
      }
      return null
    }
    const roles = new Map<Element, string | null>()
    const roleOf = (element: Element): string | null => {
      const cached = roles.get(element)
      if (cached !== undefined) return cached
      let role: string | null
      const explicit = explicitRole(element)
      const implicit = (): string | null => {
        const value = implicitRole(element)
        return value === null ? null : inheritedPresentation(element) ?? value
      }
      if (explicit === null) role = implicit()
      else if (explicit === "none" || explicit === "presentation") {
        const fallback = implicit()
        role = hasGlobalAria(element, fallback) || isFocusable(element) ? fallback : explicit
      } else role = explicit
      roles.set(element, role)
      return role
    }

    // ---- Hidden for assistive technology (display:none, visibility, aria-hidden, unslotted) ----
    const hiddenChain = new Map<Element, boolean>()
    const inHiddenChain = (element: Element): boolean => {
      let hidden = hiddenChain.get(element)
      if (hidden === undefined) {
        const parent = element.parentElement
        hidden = parent !== null && parent.shadowRoot !== null && (element as any).assignedSlot === null
        if (!hidden) {
          const style = styleOf(element)
          hidden = style === null || style.display === "none" || element.getAttribute("aria-hidden")?.toLowerCase() === "true"
        }
        if (!hidden) {
          const parent = parentOf(element)
          if (parent !== null) hidden = inHiddenChain(parent)
        }
        hiddenChain.set(element, hidden)
      }
      return hidden
    }
    const isIgnoredTag = (element: Element) => {
      const tag = element.localName
      return tag === "style" || tag === "script" || tag === "noscript" || tag === "template"
    }
    const hiddenForAria = (element: Element): boolean => {
      if (isIgnoredTag(element)) return true
      const style = styleOf(element)
      if (style?.display === "contents" && element.localName !== "slot") {
        for (let child = element.firstChild; child; child = child.nextSibling) {
          if (child.nodeType === 1 && !hiddenForAria(child as Element)) return false
          if (child.nodeType === 3 && (child.nodeValue ?? "").trim() !== "") return false
        }
        return true
      }
      const optionInSelect = element.localName === "option" && element.closest("select") !== null
      if (!optionInSelect && element.localName !== "slot" && style !== null && style.visibility !== "visible") return true
      return inHiddenChain(element)
    }

    // ---- Accessible names: the W3C accname computation as Chromium does it ----
    const labelsByRoot = new Map<Node, Map<Element, Array<HTMLLabelElement>>>()
    // Chromium drops its cached `labels` lists whenever the DOM changes, and rebuilding one walks the
    // whole document: after an action that is a document walk per field. One pass over the labels of
    // each root (document or shadow root) per observation gives the same lists, in the same order.
    const labelsOf = (field: Element): Array<HTMLLabelElement> => {
      const rootNode = field.getRootNode()
      let byControl = labelsByRoot.get(rootNode)
      if (byControl === undefined) {
        byControl = new Map()
        for (const label of (rootNode as Document | ShadowRoot).querySelectorAll("label")) {
          const control = (label as HTMLLabelElement).control
          if (control === null) continue
          const list = byControl.get(control) ?? []
          list.push(label as HTMLLabelElement)
          byControl.set(control, list)
        }
        labelsByRoot.set(rootNode, byControl)
      }
      return byControl.get(field) ?? []
    }

    /** A CSS `content` value as text: strings and attr(), or the alternative after "/"; undefined when it is not text. */
    const cssContentText = (element: Element, value: string, pseudo: boolean): string | undefined => {
      if (!value || value === "none" || value === "normal") return undefined
      const tokens: Array<{ kind: "string" | "attr" | "slash" | "other"; value: string }> = []
      let i = 0
      while (i < value.length) {
        const c = value[i]!
        if (c === " " || c === "\t" || c === "\n") {
          i++
        } else if (c === '"' || c === "'") {
          let text = ""
          i++
          while (i < value.length && value[i] !== c) {
            if (value[i] === "\\" && i + 1 < value.length) {
              const hex = /^[0-9a-fA-F]{1,6}/.exec(value.slice(i + 1, i + 7))
              if (hex) {
                text += String.fromCodePoint(parseInt(hex[0], 16))
                i += 1 + hex[0].length
                if (value[i] === " ") i++
                continue
              }
              text += value[i + 1]
              i += 2
              continue
            }
            text += value[i]
            i++
          }
          i++
          tokens.push({ kind: "string", value: text })
        } else if (c === "/") {
          tokens.push({ kind: "slash", value: "/" })
          i++
        } else {
          const match = /^attr\(\s*([-\w]+)\s*\)/.exec(value.slice(i))
          if (match) {
            tokens.push({ kind: "attr", value: match[1]! })
            i += match[0].length
          } else {
            const other = /^[^\s"'/]+(\([^)]*\))?/.exec(value.slice(i))
            tokens.push({ kind: "other", value: other ? other[0] : c })
            i += other ? other[0].length : 1
          }
        }
      }
      let parts = tokens
      const slash = tokens.findIndex((token) => token.kind === "slash")
      if (slash !== -1) parts = tokens.slice(slash + 1)
      else if (!pseudo) return undefined
      let text = ""
      for (const token of parts) {
        if (token.kind === "string") text += token.value
        else if (token.kind === "attr") text += element.getAttribute(token.value) ?? ""
        else return undefined
      }
      return text
    }
    const pseudoText = (element: Element, pseudo: "::before" | "::after" | null): string => {
      const style = pseudo === null ? styleOf(element) : element.ownerDocument.defaultView?.getComputedStyle(element, pseudo)
      if (!style) return ""
      const content = style.content
      if (!content || content === "none" || content === "normal") return ""
      if (style.display === "none" || style.visibility === "hidden") return ""
      const text = cssContentText(element, content, pseudo !== null)
      if (text === undefined) return pseudo === null ? "\u0000" : ""
      return pseudo !== null && (style.display || "inline") !== "inline" ? ` ${text} ` : text
    }

    interface NameOptions {
      visited: Set<Element>
      /** The element whose name is computed ("self"), or one of its descendants ("descendant"). */
      target?: "self" | "descendant" | undefined
      labelledBy?: { hidden: boolean } | undefined
      label?: { hidden: boolean } | undefined
      native?: { hidden: boolean } | undefined
      budget: { chars: number; nodes: number }
    }
    const trimmed = (text: string | null) => (text ?? "").trim()

    const textAlternative = (element: Element, options: NameOptions): string => {
      if (options.visited.has(element)) return ""
      if (--options.budget.nodes < 0 || options.budget.chars < 0) return ""
      const child: NameOptions = { ...options, target: options.target === "self" ? "descendant" : options.target }
      const hiddenTraversal = !!options.labelledBy?.hidden || !!options.label?.hidden || !!options.native?.hidden
      if (isIgnoredTag(element) || (!hiddenTraversal && hiddenForAria(element))) {
        options.visited.add(element)
        return ""
      }
      const labelledBy = element.hasAttribute("aria-labelledby") ? idRefs(element, element.getAttribute("aria-labelledby")) : []
      if (!options.labelledBy && labelledBy.length > 0) {
        const text = labelledBy
          .map((ref) =>
            textAlternative(ref, {
              visited: options.visited,
              budget: options.budget,
              labelledBy: { hidden: hiddenForAria(ref) }
            })
          )
          .join(" ")
        if (text) return text
      }
      const role = roleOf(element) ?? ""
      const tag = element.localName
      const isField = tag === "input" || tag === "textarea" || tag === "select"

      if (options.label || options.labelledBy || options.target === "descendant") {
        const ownLabel = isField && labelsOf(element).some((label) => options.visited.has(label))
        const ownLabelledBy = labelledBy.includes(element)
        if (!ownLabel && !ownLabelledBy) {
          if (role === "textbox") {
            options.visited.add(element)
            return tag === "input" || tag === "textarea" ? (element as HTMLInputElement).value : element.textContent ?? ""
          }
          if (role === "combobox" || role === "listbox") {
            options.visited.add(element)
            let selected: Array<Element>
            if (tag === "select") {
              selected = Array.from((element as HTMLSelectElement).selectedOptions)
              if (selected.length === 0 && (element as HTMLSelectElement).options.length > 0) selected.push((element as HTMLSelectElement).options[0]!)
            } else {
              const listbox = role === "combobox" ? Array.from(element.querySelectorAll("*")).find((e) => roleOf(e) === "listbox") : element
              selected = listbox ? Array.from(listbox.querySelectorAll('[aria-selected="true"]')).filter((e) => roleOf(e) === "option") : []
            }
            if (selected.length === 0 && tag === "input") return (element as HTMLInputElement).value
            return selected.map((option) => textAlternative(option, child)).join(" ")
          }
          if (role === "progressbar" || role === "scrollbar" || role === "slider" || role === "spinbutton" || role === "meter") {
            options.visited.add(element)
            return element.getAttribute("aria-valuetext") ?? element.getAttribute("aria-valuenow") ?? element.getAttribute("value") ?? ""
          }
          if (role === "menu") {
            options.visited.add(element)
            return ""
          }
        }
      }

      const ariaLabel = element.getAttribute("aria-label") ?? ""
      if (trimmed(ariaLabel)) {
        options.visited.add(element)
        return ariaLabel
      }

      const fromLabels = (labels: Array<HTMLLabelElement>) =>
        labels
          .map((label) => textAlternative(label, { visited: options.visited, budget: options.budget, label: { hidden: hiddenForAria(label) } }))
          .filter((text) => !!text)
          .join(" ")
      const firstChild = (name: string) => {
        for (let item = element.firstElementChild; item; item = item.nextElementSibling) if (item.localName === name) return item
        return null
      }
      if (role !== "presentation" && role !== "none") {
        const type = tag === "input" ? (element as HTMLInputElement).type : ""
        if (tag === "input" && (type === "button" || type === "submit" || type === "reset")) {
          options.visited.add(element)
          const value = (element as HTMLInputElement).value
          if (trimmed(value)) return value
          if (type === "submit") return "Submit"
          if (type === "reset") return "Reset"
          return element.getAttribute("title") ?? ""
        }
        if (tag === "input" && type === "file") {
          options.visited.add(element)
          const labels = labelsOf(element)
          if (labels.length > 0 && !options.labelledBy) return fromLabels(labels)
          return "Choose File"
        }
        if (tag === "input" && type === "image") {
          options.visited.add(element)
          const labels = labelsOf(element)
          if (labels.length > 0 && !options.labelledBy) return fromLabels(labels)
          const alt = element.getAttribute("alt") ?? ""
          if (trimmed(alt)) return alt
          const title = element.getAttribute("title") ?? ""
          if (trimmed(title)) return title
          return "Submit"
        }
        if (labelledBy.length === 0 && tag === "button") {
          options.visited.add(element)
          const labels = labelsOf(element)
          if (labels.length > 0) return fromLabels(labels)
        }
        if (labelledBy.length === 0 && tag === "output") {
          options.visited.add(element)
          const labels = labelsOf(element)
          if (labels.length > 0) return fromLabels(labels)
          return element.getAttribute("title") ?? ""
        }
        if (labelledBy.length === 0 && isField) {
          options.visited.add(element)
          const labels = labelsOf(element)
          if (labels.length > 0) return fromLabels(labels)
          const usesPlaceholder =
            (tag === "input" && ["text", "password", "number", "search", "tel", "email", "url"].includes(type)) || tag === "textarea"
          const title = element.getAttribute("title") ?? ""
          if (!usesPlaceholder || title) return title
          return element.getAttribute("placeholder") ?? ""
        }
        if (labelledBy.length === 0 && (tag === "fieldset" || tag === "figure")) {
          options.visited.add(element)
          const caption = firstChild(tag === "fieldset" ? "legend" : "figcaption")
          if (caption) return textAlternative(caption, { ...child, native: { hidden: hiddenForAria(caption) } })
          return element.getAttribute("title") ?? ""
        }
        if (tag === "img" || tag === "area") {
          options.visited.add(element)
          const alt = element.getAttribute("alt") ?? ""
          if (trimmed(alt)) return alt
          return element.getAttribute("title") ?? ""
        }
        if (tag === "table") {
          options.visited.add(element)
          const caption = firstChild("caption")
          if (caption) return textAlternative(caption, { ...child, native: { hidden: hiddenForAria(caption) } })
          const summary = element.getAttribute("summary") ?? ""
          if (summary) return summary
        }
        if (tag === "svg" || (element as SVGElement).ownerSVGElement) {
          options.visited.add(element)
          for (let item = element.firstElementChild; item; item = item.nextElementSibling) {
            if (item.localName === "title" && (item as SVGElement).ownerSVGElement) {
              return textAlternative(item, { ...child, labelledBy: { hidden: hiddenForAria(item) } })
            }
          }
        }
        if ((element as SVGElement).ownerSVGElement && tag === "a") {
          const title = element.getAttribute("xlink:title") ?? ""
          if (trimmed(title)) {
            options.visited.add(element)
            return title
          }
        }
      }

      const summary = tag === "summary" && role !== "presentation" && role !== "none"
      if (
        NAME_FROM_CONTENT.has(role) ||
        (options.target === "descendant" && NAME_FROM_CONTENT_DESCENDANT.has(role)) ||
        summary ||
        options.labelledBy ||
        options.label ||
        options.native
      ) {
        options.visited.add(element)
        const text = contentText(element, child)
        if (options.target === "self" ? text.trim() : text) return text
      }
      if (role !== "presentation" && role !== "none" || tag === "iframe" || tag === "frame") {
        options.visited.add(element)
        const title = element.getAttribute("title") ?? ""
        if (trimmed(title)) return title
      }
      options.visited.add(element)
      return ""
    }

    /** The text of an element's content for a name: children's text alternatives, blocks set apart by spaces. */
    const contentText = (element: Element, options: NameOptions): string => {
      const tokens: Array<string> = []
      const take = (text: string) => {
        const room = Math.max(0, options.budget.chars)
        const piece = text.length > room ? text.slice(0, room) : text
        options.budget.chars -= Math.max(1, text.length)
        tokens.push(piece)
      }
      const visit = (node: Node, skipSlotted: boolean) => {
        if (options.budget.chars < 0) return
        if (skipSlotted && (node as Element | Text).assignedSlot) return
        if (node.nodeType === 1) {
          const display = styleOf(node as Element)?.display || "inline"
          let token = textAlternative(node as Element, options)
          if (display !== "inline" || node.nodeName === "BR") token = ` ${token} `
          // Counted against the budget where its text nodes were taken.
          tokens.push(token)
        } else if (node.nodeType === 3) {
          take(node.nodeValue ?? "")
        }
      }
      take(pseudoText(element, "::before"))
      const own = pseudoText(element, null)
      if (own !== "" && own !== "\u0000") take(own)
      else {
        const assigned = element.localName === "slot" ? (element as HTMLSlotElement).assignedNodes() : []
        if (assigned.length > 0) for (const node of assigned) visit(node, false)
        else {
          for (let node = element.firstChild; node; node = node.nextSibling) visit(node, true)
          if ((element as HTMLElement).shadowRoot) {
            for (let node = (element as HTMLElement).shadowRoot!.firstChild; node; node = node.nextSibling) visit(node, true)
          }
          for (const owned of idRefs(element, element.getAttribute("aria-owns"))) visit(owned, true)
        }
      }
      take(pseudoText(element, "::after"))
      return tokens.join("")
    }

    const names = new Map<Element, string>()
    const nameOf = (element: Element, role: string): string => {
      if (NAMING_PROHIBITED.has(role)) return ""
      let name = names.get(element)
      if (name === undefined) {
        const raw = textAlternative(element, { visited: new Set(), target: "self", budget: { chars: NAME_CAP * 4, nodes: 2_000 } })
        name = normalize(raw, NAME_CAP)
        names.set(element, name)
      }
      return name
    }

    if (args.aria === true) {
      const tests: AriaTests = { roleOf, nameOf, hidden: hiddenForAria }
      return tests as unknown as ObserveResult
    }

    // ---- States ----
    const ariaDisabledChain = new Map<Element, boolean>()
    const inAriaDisabled = (element: Element): boolean => {
      let result = ariaDisabledChain.get(element)
      if (result === undefined) {
        const value = (element.getAttribute("aria-disabled") ?? "").toLowerCase()
        if (value === "true") result = true
        else if (value === "false") result = false
        else {
          const parent = parentOf(element)
          result = parent !== null && inAriaDisabled(parent)
        }
        ariaDisabledChain.set(element, result)
      }
      return result
    }

    // ---- The tree ----
    interface TreeNode {
      readonly element: Element | null
      readonly role: string
      children: Array<TreeNode>
      /** Text runs a reader sees in this node (not in its child nodes). */
      readonly parts: Array<string>
      taken: number
      total: number
      readonly cap: number
      /** Its blocks of text become nodes of their own instead of its text. */
      readonly container: boolean
      raw: RawNode | null
      depth: number
    }

    /**
     * The element's ref: the one it has; else, in a whole walk, the ref an earlier document at this URL
     * gave the element with the same durable identity (when no element here holds it yet); else a new one.
     */
    const whole = args.rootSelector === null
    const refFor = (element: Element, durable: string): string => {
      let ref = registry.byEl.get(element)
      if (ref === undefined || registry.byRef.get(ref) !== element) {
        const carried = whole ? registry.carry?.get(durable) : undefined
        if (carried !== undefined) registry.carry!.delete(durable)
        ref = carried !== undefined && !registry.byRef.has(carried) ? carried : `e${nextRef++}`
        registry.byEl.set(element, ref)
        registry.byRef.set(ref, element)
      }
      if (whole && registry.durable.get(ref) !== durable) {
        registry.durable.set(ref, durable)
        refsChanged.add(ref)
      }
      return ref
    }
    /** A 64-bit hash as text: durable identities and signatures are kept and compared as hashes. */
    const hash = (text: string): string => {
      let a = 0x811c9dc5 ^ text.length
      let b = 0x2545f491
      for (let i = 0; i < text.length; i++) {
        const code = text.charCodeAt(i)
        a = Math.imul(a ^ code, 0x01000193)
        b = Math.imul(b ^ code, 0x5bd1e995)
        b ^= b >>> 15
      }
      a ^= a >>> 16
      a = Math.imul(a, 0x85ebca6b)
      a ^= a >>> 13
      b ^= b >>> 16
      b = Math.imul(b, 0xc2b2ae35)
      b ^= b >>> 13
      return `${(a >>> 0).toString(36)}.${(b >>> 0).toString(36)}`
    }

    const isBlockStyle = (style: CSSStyleDeclaration) => style.display !== "inline" && style.display !== "contents"
    // A field's value is shown unless it may be a secret: the field looks secret, or its class, or any
    // element around it (a form "secret-form", a section "wallet-key") does, as the tools' own hints do.
    const SECRET_HINT = /pass(word|phrase)?|pwd|seed|phrase|mnemonic|private.?key|secret|api.?key|token|otp|one-time-code|srp/i
    const valueIsSecret = (field: Element): boolean => {
      if (isSensitive(field)) return true
      for (let element: Element | null = field; element !== null; element = parentOf(element)) {
        const hints = [element.id, element.getAttribute("class"), element.getAttribute("name"), element.getAttribute(args.testIdAttribute), element.getAttribute("aria-label")]
        if (hints.some((hint) => hint && SECRET_HINT.test(hint))) return true
      }
      return false
    }
    const VALUE_ROLES = new Set(["textbox", "searchbox", "combobox", "spinbutton", "slider"])

    const frameName = (frame: Element): string => {
      let title = ""
      try {
        title = (frame as HTMLIFrameElement).contentDocument?.title ?? ""
      } catch {
        title = ""
      }
      return normalize(frame.getAttribute("title") || frame.getAttribute("name") || title)
    }
    /** The node of an element, without its ref yet (the ref follows from its identity; see `finish`). */
    const describe = (element: Element, role: string, path: Array<string>): RawNode => {
      const name = role === "generic" ? "" : role === "iframe" ? frameName(element) : nameOf(element, role)
      const node: RawNode = { ref: "", role, name }
      if (isNativelyDisabled(element) || (DISABLED_ROLES.has(role) && inAriaDisabled(element))) node.disabled = true
      const tag = element.localName
      if (tag === "input" && ((element as HTMLInputElement).type === "checkbox" || (element as HTMLInputElement).type === "radio")) {
        node.checked = (element as HTMLInputElement).indeterminate ? "mixed" : (element as HTMLInputElement).checked
      } else if (role === "checkbox" || role === "radio" || role === "switch" || role === "menuitemcheckbox" || role === "menuitemradio") {
        const value = element.getAttribute("aria-checked")
        node.checked = value === "mixed" ? "mixed" : value === "true"
      } else if ((role === "option" || role === "treeitem") && element.hasAttribute("aria-checked")) {
        const value = element.getAttribute("aria-checked")
        node.checked = value === "mixed" ? "mixed" : value === "true"
      }
      if (tag === "details") node.expanded = (element as HTMLDetailsElement).open
      else if (EXPANDED_ROLES.has(role) && element.hasAttribute("aria-expanded")) node.expanded = element.getAttribute("aria-expanded") === "true"
      if (role === "heading") {
        const native = /^h[1-6]$/.test(tag) ? Number(tag.slice(1)) : NaN
        const level = Number.isNaN(native) ? Number(element.getAttribute("aria-level") ?? 2) : native
        if (Number.isInteger(level) && level > 0) node.level = level
      }
      if (tag === "option" ? (element as HTMLOptionElement).selected : element.getAttribute("aria-selected") === "true") {
        if (["option", "tab", "row", "gridcell", "treeitem", "columnheader", "rowheader"].includes(role)) node.selected = true
      }
      if (role === "button") {
        const pressed = element.getAttribute("aria-pressed")
        if (pressed === "true") node.pressed = true
        else if (pressed === "mixed") node.pressed = "mixed"
      }
      if (VALUE_ROLES.has(role)) {
        let value = ""
        if (tag === "select") value = Array.from((element as HTMLSelectElement).selectedOptions, (option) => option.label).join(", ")
        else if (tag === "input" || tag === "textarea") value = valueIsSecret(element) ? "" : (element as HTMLInputElement).value
        else if (role === "slider" || role === "spinbutton") value = element.getAttribute("aria-valuetext") ?? element.getAttribute("aria-valuenow") ?? ""
        value = normalize(value, TEXT_CAP)
        if (value !== "" && value !== name) node.text = value
      }
      if (path.length > 0) node.path = path.slice()
      return node
    }

    const newNode = (element: Element | null, role: string): TreeNode => ({
      element,
      role,
      children: [],
      parts: [],
      taken: 0,
      total: 0,
      cap: element !== null && (role === "code" || element.localName === "pre") ? TEXT_CAP * 4 : TEXT_CAP,
      container: element === null || role === "generic" || CONTAINER_ROLES.has(role),
      raw: null,
      depth: 0
    })
    const top = newNode(null, "")
    let emittedCount = 0
    let walkCut = false

    const addText = (targets: Array<TreeNode>, text: string) => {
      for (const target of targets) {
        target.total += text.length
        const room = (target.cap - target.taken) * 2 + 16
        if (room <= 0) continue
        const piece = text.length > room ? text.slice(0, room) : text
        target.parts.push(piece)
        target.taken += piece.length
      }
    }
    const addBreak = (targets: Array<TreeNode>) => {
      for (const target of targets) {
        const last = target.parts[target.parts.length - 1]
        if (last !== undefined && last !== " ") target.parts.push(" ")
      }
    }

    /** Texts that name something else (a label, a caption, a legend) are not repeated as text of the node around them. */
    const namesSomethingElse = (element: Element): boolean => {
      const tag = element.localName
      if (tag === "label") return (element as HTMLLabelElement).control !== null
      if (tag === "caption" || tag === "figcaption") return true
      if (tag === "legend") return element.parentElement?.localName === "fieldset"
      return false
    }

    const visitChildren = (parent: Element, owner: TreeNode, targets: Array<TreeNode>, visibleText: boolean) => {
      if (parent.localName === "slot") {
        const assigned = (parent as HTMLSlotElement).assignedNodes()
        if (assigned.length > 0) {
          for (const node of assigned) visitNode(node, owner, targets, visibleText)
          return
        }
      }
      const container: Node = (parent as HTMLElement).shadowRoot ?? parent
      for (let node = container.firstChild; node; node = node.nextSibling) {
        if (walkCut) return
        visitNode(node, owner, targets, visibleText)
      }
    }

    const visitNode = (node: Node, owner: TreeNode, targets: Array<TreeNode>, visibleText: boolean) => {
      if (node.nodeType === 3) {
        if (visibleText && targets.length > 0) addText(targets, node.nodeValue ?? "")
        return
      }
      if (node.nodeType === 1) visitElement(node as Element, owner, targets)
    }

    const visitElement = (element: Element, owner: TreeNode, targets: Array<TreeNode>) => {
      const tag = element.localName
      if (SKIP_TAGS.has(tag)) return
      if (element.getAttribute("aria-hidden")?.toLowerCase() === "true" || element.hasAttribute("inert")) return
      const style = styleOf(element)
      if (style === null || style.display === "none") return
      const visibleText = style.visibility === "visible"
      const block = isBlockStyle(style) || tag === "br"
      const role = roleOf(element)
      let emitRole: string | null = null
      if (visibleText) {
        if (role !== null && EMITTED.has(role)) {
          if (role === "code" && !block) emitRole = null
          else if (role === "img") emitRole = nameOf(element, role) !== "" ? role : null
          else if (role === "group" && tag !== "details") emitRole = nameOf(element, role) !== "" ? role : null
          else emitRole = role
        } else if ((role === null || role === "generic") && !namesSomethingElse(element)) {
          // A block of text inside a container is a node of its own; one without text dissolves later.
          // A code block is a node of its own unless it is part of a control's or heading's name.
          if (tag === "summary" || (tag === "pre" && !INLINE_OWNERS.has(owner.role)) || (owner.container && block && tag !== "br")) emitRole = "generic"
        }
        // One rule for refs and actions: a node an action would not accept as visible gets no ref.
        if (emitRole !== null && !isVisible(element, style)) emitRole = null
      }
      if (block) addBreak(targets)
      let nextOwner = owner
      let nextTargets = targets
      if (emitRole !== null) {
        if (emittedCount >= TREE_CAP) {
          walkCut = true
          return
        }
        emittedCount++
        const treeNode = newNode(element, emitRole)
        owner.children.push(treeNode)
        nextOwner = treeNode
        // A link inside running text is also part of that text.
        nextTargets = emitRole === "link" && !block && !owner.container ? [treeNode, ...targets] : [treeNode]
      } else if (namesSomethingElse(element)) {
        nextTargets = []
      }
      if (tag === "iframe" || tag === "frame") visitFrame(element as HTMLIFrameElement, owner)
      else if (tag === "details" && !(element as HTMLDetailsElement).open) {
        // A closed details element shows its summary only.
        const summary = Array.from(element.children).find((child) => child.localName === "summary")
        if (summary !== undefined) visitElement(summary, nextOwner, nextTargets)
      } else if (tag !== "textarea" && tag !== "select" && tag !== "input") visitChildren(element, nextOwner, nextTargets, visibleText)
      if (block) addBreak(targets)
    }

    /**
     * A same-origin frame is a node whose children are its document's; their paths carry "iframe: name".
     * A cross-origin frame is a node without children here: the server walks its document in its own
     * process and puts its nodes under this one.
     */
    const visitFrame = (frame: HTMLIFrameElement, owner: TreeNode) => {
      let inner: Document | null = null
      try {
        inner = frame.contentDocument
      } catch {
        inner = null
      }
      if ((inner !== null && inner.documentElement === null) || !isVisible(frame)) return
      if (emittedCount >= TREE_CAP) {
        walkCut = true
        return
      }
      emittedCount++
      // The frame element has a ref too, so that the server can enter the frame by ref.
      const framed = newNode(frame, "iframe")
      owner.children.push(framed)
      if (inner !== null && inner.documentElement !== null) visitChildren(inner.documentElement, framed, [], true)
    }

    if (root) {
      if (args.rootSelector !== null) visitElement(root, top, [])
      else {
        // The body is no node: its children are the top of the tree, and text directly in it gets a node of its own.
        const body = document.body
        const bodyStyle = body === null ? null : styleOf(body)
        if (body !== null && bodyStyle !== null && bodyStyle.display !== "none" && body.getAttribute("aria-hidden") !== "true") {
          const holder = newNode(body, "generic")
          top.children.push(holder)
          visitChildren(body, top, [holder], bodyStyle.visibility === "visible")
        }
      }
    }

    // ---- Finishing the tree (pre-order): dissolve textless generic blocks, refs and names, text ----
    const textOf = (node: TreeNode, name: string): string | undefined => {
      if (node.parts.length === 0) return undefined
      let text = normalize(node.parts.join(""), node.cap + 1)
      if (text === "") return undefined
      const cut = text.endsWith("…") || node.total > node.taken
      if (cut) {
        const body = text.endsWith("…") ? text.slice(0, -1) : text.slice(0, node.cap)
        text = `${body}…[${Math.max(1, node.total - body.length)} more chars]`
      }
      return text === name ? undefined : text
    }
    const hasText = (node: TreeNode) => node.parts.some((part) => /\S/.test(part))
    /**
     * What a node is, apart from where it is: role, name, test id, and for a node without a name its text
     * (a list item's words; not a field's value, which a reload may reset).
     */
    const identityOf = (element: Element, raw: RawNode): string =>
      `${raw.role}\u0001${raw.name}\u0001${raw.name === "" && !VALUE_ROLES.has(raw.role) ? normalize(raw.text, 80) : ""}\u0001${element.getAttribute(args.testIdAttribute) ?? ""}`
    /**
     * Finishes the children of a node, in pre-order (refs are numbered in document order, which collapsed
     * runs rely on). A child's durable identity is its parent's with its own identity and its place among
     * the siblings that share that identity (the 2nd of 3), so that a ref carried to a new document lands
     * only on the element in the same place: when like siblings were added or removed, none of them match.
     */
    const finish = (node: TreeNode, depth: number, path: Array<string>, parentDurable: string) => {
      const kids: Array<TreeNode> = []
      const pathOf = new Map<TreeNode, Array<string>>()
      const gather = (children: Array<TreeNode>, innerPath: Array<string>) => {
        for (const child of children) {
          if (child.element === null) gather(child.children, innerPath)
          else if (child.role === "generic" && child.element.localName !== "summary" && !hasText(child)) gather(child.children, innerPath)
          else {
            kids.push(child)
            pathOf.set(child, innerPath)
          }
        }
      }
      gather(node.children, path)
      node.children = kids
      const identities: Array<string> = []
      const shared = new Map<string, number>()
      for (const child of kids) {
        const raw = describe(child.element!, child.role, pathOf.get(child)!)
        // The name of a node named by its content already says what its text would (unless the name was cut).
        const text = NAME_FROM_CONTENT.has(child.role) && raw.name !== "" && !raw.name.endsWith("…") ? undefined : textOf(child, raw.name)
        if (text !== undefined && raw.text === undefined) raw.text = text
        child.raw = raw
        const identity = identityOf(child.element!, raw)
        identities.push(identity)
        shared.set(identity, (shared.get(identity) ?? 0) + 1)
      }
      const places = new Map<string, number>()
      for (const [i, child] of kids.entries()) {
        const raw = child.raw!
        const identity = identities[i]!
        const place = places.get(identity) ?? 0
        places.set(identity, place + 1)
        const durable = hash(`${parentDurable}\u0002${identity}\u0002${place}/${shared.get(identity)}`)
        raw.ref = refFor(child.element!, durable)
        registry.info.set(raw.ref, { role: raw.role, name: raw.name })
        child.depth = depth
        const childPath = pathOf.get(child)!
        const inner = PATH_ROLES.has(child.role) ? [...childPath, raw.name ? `${child.role}: ${raw.name}` : child.role] : childPath
        finish(child, depth + 1, inner, durable)
        // Text that only repeats the links inside it (a list item holding just a link) says nothing new.
        if (raw.text !== undefined && child.children.length > 0 && raw.text === child.children.map((kid) => kid.raw!.name).join(" ")) delete raw.text
      }
    }
    finish(top, 0, [], "")
    // Refs carried over and not taken by this whole walk are not carried any further (they are stale).
    if (whole) registry.carry = undefined

    const shapes = new Map<TreeNode, string>()
    const shapeOf = (node: TreeNode): string => {
      let shape = shapes.get(node)
      if (shape === undefined) {
        shape = node.role
        if (node.children.length > 0) {
          shape += "("
          for (const child of node.children) {
            shape += shapeOf(child) + ","
            if (shape.length > 300) break
          }
          shape += ")"
        }
        shapes.set(node, shape)
      }
      return shape
    }
    const labelOf = (node: TreeNode): string => {
      const raw = node.raw!
      if (raw.name !== "") return raw.name
      if (raw.text !== undefined) return raw.text
      for (const child of node.children) {
        const label = labelOf(child)
        if (label !== "") return label
      }
      return ""
    }
    const refRanges = (nodes: Array<TreeNode>): Array<string> => {
      const numbers: Array<number> = []
      const collect = (node: TreeNode) => {
        numbers.push(Number(node.raw!.ref.slice(1)))
        for (const child of node.children) collect(child)
      }
      for (const node of nodes) collect(node)
      const ranges: Array<string> = []
      let start = numbers[0]!
      let previous = start
      for (let i = 1; i <= numbers.length; i++) {
        const current = numbers[i]
        if (current === previous + 1) {
          previous = current
          continue
        }
        ranges.push(start === previous ? `e${start}` : `e${start}..e${previous}`)
        if (current === undefined) break
        start = previous = current
      }
      return ranges
    }

    interface OutputItem {
      readonly node: TreeNode
      readonly raw: RawNode
      /** The refs a collapsed run covers (to mark them seen). */
      readonly covered?: Array<TreeNode>
    }
    const output: Array<OutputItem> = []
    const flatten = (node: TreeNode) => {
      const children = node.children
      let i = 0
      while (i < children.length) {
        const child = children[i]!
        let end = i + 1
        const shape = shapeOf(child)
        while (end < children.length && shapeOf(children[end]!) === shape) end++
        emit(child)
        if (end - i >= (child.children.length > 0 ? COLLAPSE_MIN : COLLAPSE_MIN_LEAF)) {
          const rest = children.slice(i + 1, end)
          const first = rest[0]!.raw!
          const picks = rest.length <= 4 ? rest : [rest[0]!, rest[1]!, rest[2]!, rest[rest.length - 1]!]
          const raw: RawNode = {
            ref: first.ref,
            role: first.role,
            name: first.name,
            collapsed: {
              count: rest.length,
              refs: refRanges(rest).slice(0, 20),
              examples: picks.map((pick) => normalize(labelOf(pick), 40))
            }
          }
          if (rest[0]!.depth > 0) raw.depth = rest[0]!.depth
          if (first.path !== undefined) raw.path = first.path
          output.push({ node: rest[0]!, raw, covered: rest })
        } else {
          for (let j = i + 1; j < end; j++) emit(children[j]!)
        }
        i = end
      }
    }
    const emit = (node: TreeNode) => {
      const raw = node.raw!
      if (node.depth > 0) raw.depth = node.depth
      output.push({ node, raw })
      flatten(node)
    }

    if (args.find !== undefined) {
      found = findIn(args.find)
    } else {
      flatten(top)
      const nodes: Array<RawNode> = []
      let truncated = walkCut
      let unchanged = 0
      const seen = new Set<string>()
      const signatureOf = (node: RawNode) =>
        hash(`${node.role}|${node.name}|${node.disabled ?? ""}|${node.checked ?? ""}|${node.expanded ?? ""}|${node.level ?? ""}|${node.selected ?? ""}|${node.pressed ?? ""}|${node.depth ?? 0}|${node.text ?? ""}|${node.collapsed === undefined ? "" : `${node.collapsed.count}:${node.collapsed.refs.join(",")}:${node.collapsed.examples.join("|")}`}|${(node.path ?? []).join("/")}`)
      const markCovered = (items: Array<TreeNode>) => {
        const mark = (node: TreeNode) => {
          seen.add(node.raw!.ref)
          tell(node.raw!.ref, signatureOf(node.raw!))
          for (const child of node.children) mark(child)
        }
        for (const item of items) mark(item)
      }
      // Changes-only: the enclosing nodes of the current one (by depth, document order), and which of them
      // this answer shows, so that each node shown names its nearest shown ancestor (`under`).
      const enclosing: Array<{ readonly depth: number; readonly ref: string; shown: boolean }> = []
      for (const item of output) {
        const key = item.covered !== undefined ? `${item.raw.ref}*` : item.raw.ref
        const depth = item.raw.depth ?? 0
        while (enclosing.length > 0 && enclosing[enclosing.length - 1]!.depth >= depth) enclosing.pop()
        const place = { depth, ref: item.raw.ref, shown: false }
        enclosing.push(place)
        if (!args.changesOnly) {
          if (nodes.length >= args.a11yLimit) {
            truncated = true
            break
          }
          nodes.push(item.raw)
          tell(key, signatureOf(item.raw))
          if (item.covered !== undefined) markCovered(item.covered)
          continue
        }
        const signature = signatureOf(item.raw)
        seen.add(key)
        if (item.covered !== undefined) markCovered(item.covered)
        if (registry.reported.get(key) === signature || registry.passed.get(key) === signature) unchanged++
        else if (nodes.length < args.a11yLimit) {
          tell(key, signature)
          registry.passed.delete(key)
          place.shown = true
          let under: string | undefined
          for (let k = enclosing.length - 2; k >= 0 && under === undefined; k--) if (enclosing[k]!.shown) under = enclosing[k]!.ref
          nodes.push(under === undefined ? item.raw : { ...item.raw, under })
        } else {
          registry.passed.set(key, signature)
          truncated = true
        }
      }
      const removed: Array<string> = []
      if (args.changesOnly) {
        // A ref the agent was told about and that is gone (or, after a full walk, no longer shown).
        for (const key of registry.reported.keys()) {
          const summary = key.endsWith("*")
          const element = registry.byRef.get(summary ? key.slice(0, -1) : key)
          const gone = element === undefined || !isLive(element) || (!walkCut && !seen.has(key))
          if (gone) {
            if (!summary && !seen.has(key)) removed.push(key)
            untell(key)
          }
        }
      }
      a11y = { nodes, truncated, unchanged, removed }
    }

    /** The matches of a search with the structure around them: ancestors, the match and its children, elided siblings. */
    function findIn(query: FindQuery): { lines: Array<FindLine>; total: number } {
      const text = query.text?.toLowerCase()
      const name = query.name?.toLowerCase()
      const parents = new Map<TreeNode, TreeNode>()
      const matches: Array<TreeNode> = []
      const matchesQuery = (node: TreeNode) => {
        const raw = node.raw!
        if (query.role !== undefined && raw.role !== query.role) return false
        if (name !== undefined && !raw.name.toLowerCase().includes(name)) return false
        if (text !== undefined && !`${raw.name}\n${raw.text ?? ""}`.toLowerCase().includes(text)) return false
        return true
      }
      // Post-order: a node whose descendant matches the text is not itself a match (the descendant says more).
      const search = (node: TreeNode): boolean => {
        let below = false
        for (const child of node.children) {
          parents.set(child, node)
          if (search(child)) below = true
        }
        if (node.raw === null) return below
        if (matchesQuery(node) && !(below && text !== undefined)) {
          matches.push(node)
          return true
        }
        return below
      }
      search(top)
      // search() pushed in post-order; present them in document order.
      const order = new Map<TreeNode, number>()
      let index = 0
      const number = (node: TreeNode) => {
        order.set(node, index++)
        for (const child of node.children) number(child)
      }
      number(top)
      matches.sort((a, b) => order.get(a)! - order.get(b)!)
      const shown = matches.slice(0, query.limit)
      const included = new Set<TreeNode>()
      const matched = new Set<TreeNode>(shown)
      for (const match of shown) {
        for (let node: TreeNode | undefined = match; node !== undefined && !included.has(node); node = parents.get(node)) included.add(node)
        for (const child of match.children.slice(0, 8)) included.add(child)
      }
      const lines: Array<FindLine> = []
      if (shown.length === 0) return { lines, total: 0 }
      const walk = (node: TreeNode) => {
        let elided = 0
        for (const child of node.children) {
          if (!included.has(child)) {
            elided++
            continue
          }
          if (elided > 0) lines.push({ depth: child.depth, elided })
          elided = 0
          const raw: RawNode = { ...child.raw! }
          delete raw.path
          if (child.depth > 0) raw.depth = child.depth
          else delete raw.depth
          if (!matched.has(child) && raw.text !== undefined && raw.text.length > 80) raw.text = normalize(raw.text, 80)
          lines.push(matched.has(child) ? { depth: child.depth, node: raw, match: true } : { depth: child.depth, node: raw })
          walk(child)
        }
        if (elided > 0 && node.children.length > 0 && (node === top || included.has(node))) {
          lines.push({ depth: node.children[0]!.depth, elided })
        }
      }
      walk(top)
      return { lines, total: matches.length }
    }
  }

  const result: ObserveResult = {
    ...readState(args, isVisible),
    rootFound,
    testIds,
    testIdsUnchanged,
    a11y,
    nextRef
  }
  if (found !== undefined) result.found = found
  if (wantTree) {
    // The ledger's changes since the server's copy, or all of it when the server's copy is not this one's.
    const full = args.ledgerOf === undefined || args.ledgerOf.doc !== registry.doc || args.ledgerOf.seq !== registry.seq
    if (full || toldChanged.size > 0 || refsChanged.size > 0) {
      registry.seq++
      const ledger: Ledger = full
        ? { doc: registry.doc, url: here, seq: registry.seq, full: true, refs: [...registry.durable], told: [...registry.reported] }
        : {
            doc: registry.doc,
            url: here,
            seq: registry.seq,
            refs: Array.from(refsChanged, (ref) => [ref, registry.durable.get(ref) ?? null]),
            told: Array.from(toldChanged, (key) => [key, registry.reported.get(key) ?? null])
          }
      result.ledger = ledger
    }
  }
  return result
}


/** Whether a ref is still bound to an element in this page, plus the refs that are. */
export const checkRef = (ref: string, isLive: (element: Element) => boolean): RefCheck => {
  const registry = (window as any)[Symbol.for("browser-workflow-mcp")]
  const current: Array<{ ref: string; role: string; name: string }> = []
  if (!registry) return { exists: false, current, frames: [] }
  let exists = false
  const STRUCTURE = new Set([
    "iframe", "generic", "paragraph", "list", "listitem", "table", "row", "cell", "columnheader", "rowheader", "code",
    "group", "figure", "blockquote", "article", "main", "banner", "contentinfo", "complementary", "navigation", "region",
    "form", "search", "note", "status", "log", "term", "definition", "img"
  ])
  for (const [key, element] of registry.byRef as Map<string, Element>) {
    if (!isLive(element)) continue
    if (key === ref) exists = true
    const info = registry.info.get(key)
    // The refs worth suggesting: elements one acts on, not the structure and text around them.
    if (current.length < 40 && info !== undefined && !STRUCTURE.has(info.role)) current.push({ ref: key, role: info.role, name: info.name })
  }
  // The refs of the iframes around the element, outermost first (empty in the top document).
  const frames: Array<string> = []
  let doc: Document | null = exists ? (registry.byRef.get(ref) as Element).ownerDocument : null
  while (doc !== null && doc !== document) {
    const frame: Element | null | undefined = doc.defaultView?.frameElement
    const frameRef = frame ? registry.byEl.get(frame) : undefined
    if (!frame || frameRef === undefined) return { exists: false, current, frames: [] }
    frames.unshift(frameRef)
    doc = frame.ownerDocument
  }
  return { exists, current, frames }
}

/** Whether text typed into this element must be treated as a secret. */
export const isSensitiveField = (element: Element): boolean => {
  const pattern = /pass(word|phrase)?|pwd|seed|phrase|mnemonic|private.?key|secret|api.?key|token|otp|one-time-code|srp/i
  const type = (element.getAttribute("type") ?? "").toLowerCase()
  if (type === "password") return true
  const autocomplete = (element.getAttribute("autocomplete") ?? "").toLowerCase()
  if (/current-password|new-password|one-time-code/.test(autocomplete)) return true
  const labels = (element as HTMLInputElement).labels
  const labelText = labels ? Array.from(labels, (l) => l.textContent ?? "").join(" ") : ""
  const hints = [
    element.getAttribute("name"),
    element.getAttribute("id"),
    element.getAttribute("aria-label"),
    element.getAttribute("placeholder"),
    element.getAttribute("data-testid"),
    labelText
  ]
  return hints.some((hint) => hint !== null && pattern.test(hint))
}

/** Text of an element for get_text: the value of a form field (never a password), else rendered text. */
export const readText = (element: Element): string | null => {
  const tag = element.localName
  if (tag === "input" || tag === "textarea" || tag === "select") {
    if ((element.getAttribute("type") ?? "").toLowerCase() === "password") return null
    return (element as HTMLInputElement).value
  }
  return (element as HTMLElement).innerText ?? element.textContent ?? ""
}
