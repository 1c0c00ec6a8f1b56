// The Node side of the page script: the expressions that run the code of page/ (bundled at build time
// into page-bundle.js by scripts/bundle-page.mjs) in a page, and how it is installed once per document.
// The page code itself lives in page/, one module per concern; only its types cross (page/types.ts).
import { PAGE } from "./page-bundle.js"
import type { ObserveArgs, ScreenRule, SettleArgs } from "./page/types.js"

export type {
  AriaTests,
  Candidate,
  Candidates,
  CandidatesArgs,
  Carry,
  FindLine,
  FindQuery,
  Ledger,
  ObserveArgs,
  ObserveResult,
  PageAffordances,
  RawNode,
  RawTestId,
  RefCheck,
  ScreenRule,
  SettleArgs
} from "./page/types.js"

/**
 * The most refs one walk with these arguments can hand out: a node takes at most one new ref, and the walk
 * builds at most 2,000 nodes, 10,000 for a search (treeCap in page/observe.ts, which also stops at the block's
 * end); a read of the state alone hands out none.
 */
export const refsOfWalk = (args: Pick<ObserveArgs, "wantA11y" | "find">): number => (args.find !== undefined ? 10_000 : args.wantA11y ? 2_000 : 0)

/** Arguments of `observePage` that read only the page's state: no test ids, no accessibility nodes, no refs (an empty block). */
export const stateReadArgs = (settings: { readonly testIdAttribute: string; readonly screenRules: ReadonlyArray<ScreenRule> }): ObserveArgs => ({
  nextRef: 0,
  refEnd: 0,
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

/** The selector engine registered with Playwright (page/ref-engine.ts): an expression that answers the engine. */
export const refSelectorEngine = { content: `(${PAGE.refEngine})()` } as const

/**
 * A page function made from bundled source, for code that sends a function's text into the page
 * (Playwright's `locator.evaluate`, callExpression): its text calls the bundled one. Never called in Node.
 */
export const pageFunction = (source: string, parameter: string): Function =>
  new Function(parameter, `return (${source})(${parameter})`)

/** The same for a function Playwright runs on an element with an argument (`locator.evaluate(fn, arg)`). */
export const elementFunction = <Arg, R>(source: string) =>
  new Function("element", "arg", `return (${source})(element, arg)`) as (element: Element, arg: Arg) => R | Promise<R>

/** Whether text typed into this element must be treated as a secret (page/fields.ts). */
export const isSensitiveField = pageFunction(PAGE.isSensitiveField, "element") as (element: Element) => boolean

/** Text of an element for get_text: the value of a form field (never a password), else rendered text (page/fields.ts). */
export const readText = pageFunction(PAGE.readText, "element") as (element: Element) => string | null

/** Runs in the page: get_text's read of one element, empty with how it is hidden when nobody sees it (page/fields.ts). */
export const readShownText = pageFunction(PAGE.readShownText, "element") as (element: Element) => { readonly text: string | null; readonly hidden?: string }

/** The expression that runs `observePage` in the page. */
export const observeExpression = (args: ObserveArgs): string =>
  args.wantA11y || args.wantTestIds || args.find !== undefined
    ? `(${PAGE.observe})(${JSON.stringify(args)})`
    : `(${PAGE.readState})(${JSON.stringify(args)})`

/** The same after the page settled (a promise: the caller awaits it). */
export const settledObserveExpression = (args: ObserveArgs, settle: SettleArgs): string =>
  `(${PAGE.settle})(${JSON.stringify(settle)}).then(() => ${observeExpression(args)})`

/**
 * The walk is some 30 KB of source: it is installed once per document under a key that names this
 * version of it, and later observations send only their arguments. A call on a document without it
 * answers `{ missing: true }`; `installedObserveExpression` installs it and observes in one trip.
 */
const installKey = () => `browser-workflow-mcp/observe:${PAGE.walk.length}`

/** The key the walk is installed under in a document, for page code that calls it (`describeTarget`). */
export const walkInstallKey = (): string => installKey()

const callInstalled = (args: ObserveArgs, settle: SettleArgs | null): string =>
  `(() => {
    const walk = window[Symbol.for(${JSON.stringify(installKey())})]
    if (walk === undefined) return { missing: true }
    const run = () => walk.observe(${JSON.stringify(args)})
    return ${settle === null ? "run()" : `walk.settle(${JSON.stringify(settle)}).then(run)`}
  })()`

/** An observation through the installed walk; `{ missing: true }` when this document has none yet. */
export const installedCallExpression = (args: ObserveArgs, settle: SettleArgs | null): string => callInstalled(args, settle)

/** A statement that installs the walk in this document (over the one there, if any). */
export const installWalkStatement = (): string =>
  `Object.defineProperty(window, Symbol.for(${JSON.stringify(installKey())}), {
      value: ${PAGE.walk},
      enumerable: false,
      configurable: true
    })`

/** Installs the walk in this document and observes. */
export const installedObserveExpression = (args: ObserveArgs, settle: SettleArgs | null): string =>
  `(() => {
    ${installWalkStatement()}
    return ${callInstalled(args, settle)}
  })()`

/** The expression that runs `checkRef` in the page; with the acting client (`viewer`), also whether the ref's element was renamed for it. */
export const checkRefExpression = (ref: string, viewer?: string): string =>
  `(${PAGE.checkRef})(${JSON.stringify(ref)}${viewer === undefined ? "" : `, ${JSON.stringify(viewer)}`})`
