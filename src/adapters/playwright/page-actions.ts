// The Node side of direct actions: the expressions that run page/actions.ts and page/guard.ts in the
// page (check and prepare a target in one trip, then finish the action's guard), installed once per
// document. After the input, the guard tells whether the first trusted event reached the target:
// success is reported only then (see "Acting on an element" in docs/architecture.md).
import type { MainWorldCode } from "./main-world.js"
import { PAGE } from "./page-bundle.js"
import { pageFunction } from "./page-script.js"
import type { LookArgs } from "./page/look.js"
import type { DirectArgs, ObserveArgs } from "./page/types.js"

export type { DirectArgs, DirectLocator, DirectResult, GuardReport, GuardVerdict, Viewport } from "./page/types.js"

/** Runs in the page (our world): the element a "measure" answer left under `token`, or null (page/actions.ts). */
export const measuredElement = pageFunction(PAGE.measuredElement, "token") as (token: string) => Element | null

/** Runs in the page: whether every document the action with `token` started in is still the one shown (page/guard.ts). */
export const sameDocuments = pageFunction(PAGE.sameDocuments, "token") as (token: string) => boolean

/** The key the action functions are installed under in a document (see page-eval.ts hasInstalled). */
export const actionsInstallKey = (): string => `browser-workflow-mcp/actions:${PAGE.actions.length}`

/**
 * An expression over the installed action functions (`actions` in `body`): with `install`, it installs
 * them first (some 11 KB of source, sent once per document); without, a document that lacks them
 * answers `missing`.
 */
const withActions = (install: boolean, body: string, missing: string): string =>
  `(() => {
    const key = Symbol.for(${JSON.stringify(actionsInstallKey())})
    ${install ? `Object.defineProperty(window, key, { value: ${PAGE.actions}, enumerable: false, configurable: true })` : ""}
    const actions = window[key]
    if (actions === undefined) return ${missing}
    ${body}
  })()`

/** What an action's script answers on a document without the action functions: send it again with `install`. */
export interface ActionsMissing {
  readonly missing: true
}

/**
 * The expression that runs `prepareAction` in the page with the checks beside it; once the target is
 * ready, it describes the target (`describe`, an expression of page-durable.ts) and, when `stateArgs`
 * is given, reads the page's state, all in the same trip and before any input.
 */
export const prepareActionScript = (
  args: DirectArgs,
  options: { readonly stateArgs: ObserveArgs | null; readonly describe: string | null; readonly install: boolean }
): string =>
  withActions(
    options.install,
    `return actions.prepare(${JSON.stringify(args)}).then((result) => {
      if (result.ready === false) return result
      ${
        options.describe === null
          ? ""
          : `let described = null
      try { described = ${options.describe} } catch { described = null }
      if (described !== null) result = { ...result, described }`
      }
      ${options.stateArgs === null ? "" : `if (result.ready === true) result = { ...result, page: actions.read(${JSON.stringify(options.stateArgs)}) }`}
      return result
    })`,
    "{ missing: true }"
  )

/**
 * The expression of one look of the readiness watch at a target (page/look.ts): over the installed action
 * functions, installing them first with `install`; a document that lacks them answers `missing`.
 */
export const lookScript = (args: LookArgs, install: boolean): string => withActions(install, `return actions.look(${JSON.stringify(args)})`, "{ missing: true }")

/** The function declaration that runs `verifyMeasured` on the measured element (Runtime.callFunctionOn). */
export const verifyMeasuredDeclaration = (): string =>
  `function (hit, args) { return (${PAGE.verifyMeasured}).call(this, hit, args) }`

/**
 * The expression that finishes a guarded action and reads the page's state in the same trip; for a type,
 * with `typed` (its text), also our world's read-back of its field (page/typing.ts peekTypedState). A
 * document without the action functions is not the one the guard was armed in: nothing seen there.
 */
export const finishGuardScript = (token: string, stateArgs: ObserveArgs, typed?: string): string =>
  withActions(
    false,
    `const verdict = actions.finish(${JSON.stringify(token)})
    // The document is on its way out when the action navigates: its state is not the state after it.
    if (verdict.navigating) return verdict
    try {
      return { ...verdict, page: actions.read(${JSON.stringify(stateArgs)})${
        typed === undefined ? "" : `, typed: actions.peekTyped(${JSON.stringify(token)}, ${JSON.stringify(typed)})`
      } }
    } catch {
      return verdict
    }`,
    "{ seen: false, hit: false, navigating: false }"
  )

/**
 * The expression that answers, for the field the direct path typed into under `token`, how many times
 * the page changed since the last key (page/typing.ts); -1 when the document no longer keeps it.
 */
export const typingChangesScript = (token: string): string =>
  withActions(false, `return actions.typingChanges(${JSON.stringify(token)})`, "-1")

/**
 * The expression that answers whether the text typed under `token` arrived in its field (page/typing.ts),
 * and stops the watch; null when the document no longer keeps the field or it left the page.
 */
export const typedStateScript = (token: string, text: string): string =>
  withActions(false, `return actions.typedState(${JSON.stringify(token)}, ${JSON.stringify(text)})`, "null")

/**
 * The direct type's watch of the page's reaction, run in the page's main world (page/typing.ts): start it on
 * the focused field, look at it (the first look with the field's read-back when the page did nothing), read
 * it, read the field back (stopping it). Installed once per document (main-world.ts).
 */
export const fieldReactionCode: MainWorldCode = { key: `browser-workflow-mcp/field-reaction:${PAGE.fieldReaction.length}`, source: PAGE.fieldReaction }
