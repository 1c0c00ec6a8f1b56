// A recorded session as something that runs again: a recipe of tool calls, an mm_run_steps batch, or a
// Playwright test. Targets are made durable, redacted text becomes a named placeholder; what each tool
// contributes (replayed or not, its note, its Playwright lines) comes from its definition.
import type { Placeholder, Recipe, RecipeStep, SessionMetadata, StepRecord, StepTarget } from "../domain/knowledge.js"
import { PAUSED_DURING_PREFIX } from "../domain/errors.js"
import { REDACTED } from "../domain/redaction.js"
import { replayModeOf, type AnyToolDefinition } from "../runtime/tool.js"
import { describeStepTarget } from "./entry.js"
import { durableTarget } from "./targets.js"
import { identifierWords } from "./text.js"

/** The definition of a recorded tool, by its bare name; undefined for a tool the server does not have. */
export type ToolLookup = (name: string) => AnyToolDefinition | undefined

const placeholderName = (target: StepTarget | undefined, taken: Set<string>): string => {
  const words = identifierWords([target?.testId ?? target?.a11yHint?.name ?? target?.selector ?? "secret"])
  const base = words.length === 0 ? "secret" : words.join("_")
  let name = base
  for (let n = 2; taken.has(name); n++) name = `${base}_${n}`
  taken.add(name)
  return name
}

/** A recipe step with the record it came from and the tool that made it. */
interface Replayed {
  readonly step: RecipeStep
  readonly record: StepRecord
  readonly tool: AnyToolDefinition | undefined
}

/**
 * An action the page paused in the debugger during (a click whose handler hit a breakpoint): it was
 * delivered and finished once the page ran again, so the flow has it; a replay (without the debugger's
 * steps, which never replay) runs it through.
 */
const deliveredThenPaused = (record: StepRecord) =>
  record.outcome.error?.code === "MM_DEBUGGER_PAUSED" && record.outcome.error.message.startsWith(PAUSED_DURING_PREFIX)

/**
 * Which recorded steps replay and how, as each tool's definition says (replay mode, argument
 * adaptation, note); a tool the lookup does not know replays as a plain step.
 */
const plan = (steps: ReadonlyArray<StepRecord>, lookup: ToolLookup, prefix: string) => {
  const out: Array<Replayed> = []
  const placeholders: Array<Placeholder> = []
  const skipped: Array<string> = []
  const taken = new Set<string>()
  const served = (tool: string) => (prefix === "" ? tool : `${prefix}_${tool}`)
  for (const record of steps) {
    const name = record.tool.name
    const tool = lookup(name)
    const target = describeStepTarget(record.tool.target)
    const label = `${name}${target === undefined ? "" : ` ${target}`}`
    const mode = tool === undefined ? "step" : replayModeOf(tool)
    if (mode === "never") continue
    if (mode === "read-only") {
      skipped.push(`${label}: read-only`)
      continue
    }
    if (!record.outcome.ok && !deliveredThenPaused(record)) {
      skipped.push(`${label}: failed with ${record.outcome.error?.code ?? "an error"}`)
      continue
    }
    let args: Record<string, unknown> = { ...record.tool.input }
    if (record.tool.target !== undefined) {
      const durable = durableTarget(record.tool.target)
      if (durable === undefined) {
        skipped.push(`${label}: only a ref was recorded, no test id, role and name, or selector`)
        continue
      }
      args = { ...args, ...durable.args }
    }
    const adapted = tool?.replay?.args?.(args)
    if (adapted !== undefined && "skip" in adapted) {
      skipped.push(`${label}: ${adapted.skip}`)
      continue
    }
    if (adapted !== undefined) args = { ...adapted.args }
    let notes = tool?.replay?.note?.(record.tool.input, target, record) ?? label
    if (typeof args.text === "string" && (record.tool.textRedacted === true || args.text === REDACTED)) {
      const placeholder = placeholderName(record.tool.target, taken)
      placeholders.push({
        name: placeholder,
        target: target ?? "the field",
        ...(record.tool.textLength !== undefined ? { length: record.tool.textLength } : {})
      })
      args.text = `{{${placeholder}}}`
      notes += ` (fill in {{${placeholder}}})`
    }
    const dialog = args.dialog as { accept?: boolean; promptText?: string } | undefined
    if (dialog?.promptText === REDACTED) {
      // The answer given to a prompt() is not stored: the replay asks for it.
      const placeholder = placeholderName(record.tool.target, taken)
      placeholders.push({ name: placeholder, target: `the prompt opened by ${target ?? name}` })
      args.dialog = { ...dialog, promptText: `{{${placeholder}}}` }
      notes += ` (answer the prompt with {{${placeholder}}})`
    }
    if (record.tool.target !== undefined && durableTarget(record.tool.target)?.scopeDropped) notes += " (its ref scope was dropped)"
    out.push({ step: { tool: served(name), args, notes }, record, tool })
  }
  return { out, placeholders, skipped }
}

/**
 * The replayable steps of a session, oldest first; `lookup` gives each recorded tool's definition,
 * `prefix` is the served tool prefix of the recipe ("mm").
 */
export const recipeOf = (steps: ReadonlyArray<StepRecord>, lookup: ToolLookup, prefix = "mm"): Recipe => {
  const { out, placeholders, skipped } = plan(steps, lookup, prefix)
  return { steps: out.map((replayed) => replayed.step), placeholders, skipped }
}

/** An mm_run_steps input: stops at the first failure, since later steps depend on earlier ones. */
export const toBatch = (recipe: Recipe): { readonly steps: ReadonlyArray<{ tool: string; args: Record<string, unknown> }>; readonly stopOnError: true } => ({
  steps: recipe.steps.map((step) => ({ tool: step.tool, args: { ...step.args } })),
  stopOnError: true
})

const js = (value: string) => JSON.stringify(value)

const locatorOf = (args: Readonly<Record<string, unknown>>): string | undefined => {
  const one = (value: unknown): string | undefined => {
    if (typeof value !== "object" || value === null) return undefined
    const locator = value as Record<string, unknown>
    if (typeof locator.testId === "string") return `getByTestId(${js(locator.testId)})`
    if (typeof locator.selector === "string") {
      const role = /^role=([a-z]+)\[name=("(?:[^"\\]|\\.)*")s\]$/.exec(locator.selector)
      if (role) return `getByRole(${js(role[1]!)}, { name: ${role[2]}, exact: true })`
      return `locator(${js(locator.selector)})`
    }
    return undefined
  }
  const main = one(args)
  if (main === undefined) return undefined
  const scope = one(args.within)
  return scope === undefined ? `page.${main}` : `page.${scope}.${main}`
}

const envName = (placeholder: string) => `BWM_SECRET_${placeholder.toUpperCase()}`

/** A text argument as a JS expression: a literal, or the environment variable of its placeholder. */
const textExpression = (value: string): string => {
  const secret = /^\{\{(.+)\}\}$/.exec(value)
  return secret ? `process.env.${envName(secret[1]!)} ?? ""` : js(value)
}

/**
 * A Playwright test file with one test(): each replayed step becomes the lines its tool's definition
 * writes (page.goto, locator actions, expectations); secrets are read from BWM_SECRET_* variables.
 */
export const toPlaywright = (
  recipe: Recipe,
  steps: ReadonlyArray<StepRecord>,
  metadata: SessionMetadata | undefined,
  sessionId: string,
  lookup: ToolLookup,
  prefix = "mm"
): string => {
  const lines: Array<string> = []
  // The page the session started on: what the first successful recorded step observed (the launch).
  const startUrl = steps.find((step) => step.outcome.ok && step.observation !== undefined)?.observation?.state.currentUrl
  if (startUrl !== undefined) lines.push(`await page.goto(${js(startUrl)})`)
  const { out } = plan(steps, lookup, prefix)
  recipe.steps.forEach((step, index) => {
    const replayed = out[index]
    const locator = locatorOf(step.args)
    const written =
      replayed === undefined
        ? undefined
        : replayed.tool?.replay?.playwright?.(step.args, { locator, text: textExpression, record: replayed.record, notes: step.notes })
    if (written === undefined) {
      lines.push(`// ${step.tool} ${JSON.stringify(step.args)}: no Playwright equivalent, replay it with mm_run_steps`)
      return
    }
    const dialog = step.args.dialog as { accept?: boolean; promptText?: string } | undefined
    if (dialog !== undefined) {
      const text = dialog.promptText === undefined ? "" : textExpression(dialog.promptText)
      lines.push(`page.once("dialog", (dialog) => dialog.${dialog.accept === true ? `accept(${text})` : "dismiss()"})`)
    }
    lines.push(...written)
    // The answer was for this step's dialog only: a later dialog must not get it.
    if (dialog !== undefined) lines.push(`page.removeAllListeners("dialog")`)
  })
  const title = metadata?.goal ?? `session ${sessionId}`
  const secrets = recipe.placeholders.map((placeholder) => envName(placeholder.name))
  return [
    `// Recorded by browser-workflow-mcp from session ${sessionId}.`,
    ...(secrets.length > 0 ? [`// Secrets come from the environment: ${secrets.join(", ")}.`] : []),
    `// getByTestId uses Playwright's testIdAttribute (data-testid unless configured otherwise).`,
    `import { expect, test } from "@playwright/test"`,
    ``,
    `test(${js(title)}, async ({ page }) => {`,
    ...lines.map((line) => `  ${line}`),
    `})`,
    ``
  ].join("\n")
}
