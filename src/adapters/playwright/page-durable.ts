// The Node side of durable targets: the expressions that describe an action's target in the page (its
// test id, role and exact name, and a generated selector; see page/durable.ts), with the roles and names
// of the walk installed in the document, and the describe function installed once per document.
import { PAGE } from "./page-bundle.js"
import type { DescribeArgs, ObserveArgs } from "./page/types.js"

export type { DescribeAnswer, DescribeArgs, DescribeLocator, Described, DurableForm, ElementFacts } from "./page/types.js"

/** The key the describe function is installed under in a document (its version in it). */
const installKey = () => `browser-workflow-mcp/describe:${PAGE.describe.length}`

/** The same key, for knowing which documents have it (page-eval.ts hasInstalled). */
export const describeInstallKey = (): string => installKey()

const WALK_ARGS = (testIdAttribute: string): ObserveArgs => ({
  nextRef: 0,
  refEnd: 0,
  testIdAttribute,
  testIdLimit: 0,
  a11yLimit: 0,
  rootSelector: null,
  screenRules: [],
  wantTestIds: false,
  wantA11y: false,
  changesOnly: false,
  aria: true
})

/** An expression answering the walk's role and name tests (AriaTests) in this document, or null when it has no walk installed under `walkKey`. */
export const ariaTestsExpression = (walkKey: string, testIdAttribute: string): string =>
  `(() => {
    const walk = window[Symbol.for(${JSON.stringify(walkKey)})]
    return walk === undefined ? null : walk.observe(${JSON.stringify(WALK_ARGS(testIdAttribute))})
  })()`

/**
 * The expression that describes the target, through the walk installed in the document (`walkKey`) for
 * roles and names; without a walk there only the test id and CSS forms are given. The describe function
 * is installed once per document; `{ missing: true }` asks for `describeInstallExpression`.
 */
export const describeExpression = (args: DescribeArgs, walkKey: string): string =>
  `(() => {
    const describe = window[Symbol.for(${JSON.stringify(installKey())})]
    if (describe === undefined) return { missing: true }
    const walk = window[Symbol.for(${JSON.stringify(walkKey)})]
    const aria = walk === undefined ? null : walk.observe(${JSON.stringify(WALK_ARGS(args.testIdAttribute))})
    return describe(${JSON.stringify(args)}, aria)
  })()`

/** Installs the describe function in the document and describes the target. */
export const describeInstallExpression = (args: DescribeArgs, walkKey: string): string =>
  `(() => {
    Object.defineProperty(window, Symbol.for(${JSON.stringify(installKey())}), { value: ${PAGE.describe}, enumerable: false, configurable: true })
    return ${describeExpression(args, walkKey)}
  })()`
