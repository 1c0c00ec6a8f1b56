// From a recorded target to arguments that still work in another session: refs are page-local
// numbers, so a ref is replayed through the role and name it pointed at.
import type { StepTarget } from "../domain/knowledge.js"

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

/** The replayable form of a target, or undefined when only a bare ref was recorded. */
export const durableTarget = (target: StepTarget | undefined): Durable | undefined => {
  if (target === undefined) return undefined
  const forms: Array<DurableArgs> = []
  if (target.testId !== undefined) forms.push({ testId: target.testId })
  if (target.a11yHint !== undefined && target.a11yHint.name !== "") {
    forms.push({ selector: roleSelector(target.a11yHint.role, target.a11yHint.name) })
  }
  if (target.selector !== undefined) forms.push({ selector: target.selector })
  const [first, ...rest] = forms
  if (first === undefined) return undefined
  const scope = scopeArgs(target.within)
  const scoped = (args: DurableArgs) => (scope === undefined || scope === "lost" ? args : { ...args, within: scope })
  return { args: scoped(first), fallbacks: rest.map(scoped), scopeDropped: scope === "lost" }
}
