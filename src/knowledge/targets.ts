// From a recorded target to arguments that still work in another session. Refs are page-local numbers;
// what replays is what the element was when the action ran (its test id, its role and exact name, the
// selector generated for it, each recorded with whether it was unique then), else the locator the agent
// gave (a test id or a selector), else, for steps recorded before elements were described, the role and
// name the ref pointed at on the page the agent saw.
import { ENTER_FRAME } from "../domain/frames.js"
import type { StepTarget } from "../domain/knowledge.js"
import { collapseWhitespace } from "../domain/text.js"
import { describeStepTarget } from "./entry.js"

export type DurableArgs = Readonly<Record<string, unknown>>

/** A Playwright role selector matching the exact accessible name (the `s` flag: case-sensitive, whole name). */
export const roleSelector = (role: string, name: string): string => `role=${role}[name=${JSON.stringify(name)}s]`

/** "kind:value" (how a `within` scope is stored) back to a locator, when the kind is durable. */
const scopeArgs = (within: string | undefined): DurableArgs | undefined | "lost" => {
  if (within === undefined) return undefined
  const colon = within.indexOf(":")
  const kind = within.slice(0, colon)
  const value = within.slice(colon + 1)
  if (kind === "testId" || kind === "selector") return { [kind]: value }
  return "lost"
}

export interface Durable {
  readonly args: DurableArgs
  /** Other ways to name the same element, most durable first. */
  readonly fallbacks: ReadonlyArray<DurableArgs>
  /** True when a ref scope had to be dropped: the target may now match more than one element. */
  readonly scopeDropped: boolean
}

/** Lower case, whitespace collapsed: how a read text and a name or selector are compared. */
const folded = (text: string) => collapseWhitespace(text).toLowerCase()

/**
 * True when a form names the element by a text that was read from it: a check located that way is
 * circular (a changed text fails as "no element" instead of showing the text found).
 */
const namedByRead = (value: string, reads: ReadonlyArray<string>): boolean => {
  const name = folded(value)
  return reads.some((read) => {
    const text = folded(read)
    if (text === "") return false
    return name.includes(text) || name.includes(folded(JSON.stringify(read).slice(1, -1))) || (name.length >= 3 && text.includes(name))
  })
}

/**
 * The replayable form of a target, or undefined when no durable form was recorded (see `whyNotDurable`).
 * `reads`: the texts a check of the element compares (a get_text replayed as a check): forms that name the
 * element by those texts come last, and the locator the agent gave comes before a generated selector.
 */
export const durableTarget = (target: StepTarget | undefined, reads: ReadonlyArray<string> = []): Durable | undefined => {
  if (target === undefined) return undefined
  const element = target.element
  const scope = scopeArgs(target.within)
  const scoped = (args: DurableArgs) => (scope === undefined || scope === "lost" ? args : { ...args, within: scope })
  // Forms that were unique in the whole page name the element without any scope.
  const pageWide: Array<DurableArgs> = []
  const own: Array<DurableArgs> = []
  // Forms that name the element by what a check reads of it: only when nothing else names it.
  const circular: Array<DurableArgs> = []
  // An element inside iframes: its forms name it in its frame's document, entered through the frame's selector.
  const framed = (selector: string) => (element?.frame === undefined ? selector : element.frame + ENTER_FRAME + selector)
  if (element !== undefined) {
    // A test id is looked for in the top document (and cross-origin frames): inside a frame, the generated selector names it.
    if (element.testId !== undefined && element.unique.includes("testId") && element.frame === undefined) pageWide.push({ testId: element.testId })
    if (element.role !== undefined && element.name !== undefined && element.unique.includes("role")) {
      const form = { selector: framed(roleSelector(element.role, element.name)) }
      if (namedByRead(element.name, reads)) circular.push(form)
      else pageWide.push(form)
    }
  }
  if (target.testId !== undefined && scope !== "lost") own.push(scoped({ testId: target.testId }))
  const generated = element?.selector !== undefined && element.unique.includes("selector") ? framed(element.selector) : undefined
  const agents = target.selector !== undefined && scope !== "lost" ? scoped({ selector: target.selector }) : undefined
  if (reads.length === 0) {
    if (generated !== undefined) own.push({ selector: generated })
    if (agents !== undefined) own.push(agents)
  } else {
    // A check: the agent's own locator, then a generated one that does not name the element by its text.
    if (agents !== undefined) own.push(agents)
    if (generated !== undefined && namedByRead(generated, reads)) circular.push({ selector: generated })
    else if (generated !== undefined) own.push({ selector: generated })
  }
  // Recorded before elements were described: the role and name a ref pointed at, the locator with its scope dropped.
  if (element === undefined && target.a11yHint !== undefined && target.a11yHint.name !== "") {
    own.push(scoped({ selector: roleSelector(target.a11yHint.role, target.a11yHint.name) }))
  }
  if (element === undefined && scope === "lost") {
    if (target.testId !== undefined) own.push({ testId: target.testId })
    if (target.selector !== undefined) own.push({ selector: target.selector })
  }
  // A generated `internal:role=...` selector and the role selector say the same: one of them is kept.
  const key = (form: DurableArgs) => JSON.stringify(typeof form.selector === "string" ? { ...form, selector: form.selector.replace(/^internal:role=/, "role=") } : form)
  const forms: Array<DurableArgs> = []
  for (const form of [...pageWide, ...own, ...circular]) if (!forms.some((known) => key(known) === key(form))) forms.push(form)
  const [first, ...rest] = forms
  if (first === undefined) return undefined
  const scopeDropped = scope === "lost" && pageWide.length === 0 && !(element?.unique.includes("selector") ?? false)
  return { args: first, fallbacks: rest, scopeDropped }
}

/** Why a recorded target has no durable form, in words (for a recipe's skipped list). */
export const whyNotDurable = (target: StepTarget): string => {
  const element = target.element
  if (element === undefined) {
    return target.a11yRef !== undefined
      ? "only a ref was recorded: the page did not describe the element (no test id, role and name, or selector)"
      : "its locator was scoped inside a ref, which does not survive the page"
  }
  const shared: Array<string> = []
  if (element.testId !== undefined) shared.push(`its test id ${JSON.stringify(element.testId)}`)
  if (element.role !== undefined && element.name !== undefined) shared.push(`its role and name (${element.role} ${JSON.stringify(element.name)})`)
  if (element.selector !== undefined) shared.push(`the selector generated for it (${element.selector})`)
  return shared.length === 0
    ? "the element had no test id, no accessible name and no selector that names it alone"
    : `no durable form named it alone: ${shared.join(", ")} matched other elements too`
}

/**
 * How a target is named to an agent of another session: its description, except for a target given as a
 * ref alone (a page-local number), which is named by the durable form recorded for its element, or not at
 * all when there is none.
 */
export const shownTargetOf = (target: StepTarget, description: string | undefined, durable: Durable | undefined): string | undefined => {
  if (target.testId !== undefined || target.selector !== undefined || target.a11yHint !== undefined) return description
  if (durable === undefined) return undefined
  const { testId, selector, within } = durable.args
  const scope = typeof within === "object" && within !== null ? Object.entries(within)[0] : undefined
  return describeStepTarget({
    ...(typeof testId === "string" ? { testId } : {}),
    ...(typeof selector === "string" ? { selector } : {}),
    ...(scope !== undefined && typeof scope[1] === "string" ? { within: `${scope[0]}:${scope[1]}` } : {})
  })
}
