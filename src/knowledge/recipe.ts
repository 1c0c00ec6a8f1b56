// A recorded session as something that runs again: a recipe of tool calls, an mm_run_steps batch, or a
// Playwright test. Targets are made durable, redacted text becomes a named placeholder.
import type { Placeholder, Recipe, RecipeStep, SessionMetadata, StepRecord, StepTarget } from "../domain/knowledge.js"
import { REDACTED } from "../domain/redaction.js"
import { describeStepTarget } from "./entry.js"
import { durableTarget } from "./targets.js"
import { identifierWords } from "./text.js"

/** Tools that only look: replaying them changes nothing. */
const READ_ONLY = new Set(["describe_screen", "list_testids", "accessibility_snapshot", "get_state", "screenshot", "get_text"])
/** Tools a replay cannot contain: the session around it, the batch runner, the memory itself and its reports. */
const NOT_REPLAYED = new Set(["launch", "cleanup", "run_steps", "report"])

const placeholderName = (target: StepTarget | undefined, taken: Set<string>): string => {
  const words = identifierWords([target?.testId ?? target?.a11yHint?.name ?? target?.selector ?? "secret"])
  const base = words.length === 0 ? "secret" : words.join("_")
  let name = base
  for (let n = 2; taken.has(name); n++) name = `${base}_${n}`
  taken.add(name)
  return name
}

const noteFor = (step: StepRecord, target: string | undefined): string => {
  const where = target === undefined ? "" : ` ${target}`
  switch (step.tool.name) {
    case "navigate":
      return `Go to ${step.observation?.state.currentUrl ?? String(step.tool.input.url ?? step.tool.input.screen ?? "the page")}`
    case "click":
      return `Click${where}`
    case "type":
      return step.tool.textRedacted ? `Type a secret (${step.tool.textLength ?? "?"} characters) into${where}` : `Type into${where}`
    case "wait_for":
      return `Wait until${where} is ${String(step.tool.input.state ?? "visible")}`
    case "press_key":
      return `Press ${String(step.tool.input.key)}${target === undefined ? "" : ` on${where}`}`
    case "select_option":
      return `Select ${JSON.stringify(step.tool.input.values ?? [])} in${where}`
    case "hover":
      return `Hover over${where}`
    default:
      return `${step.tool.name}${where}`
  }
}

/** The replayable steps of a session, oldest first; `prefix` is the served tool prefix ("mm"). */
export const recipeOf = (steps: ReadonlyArray<StepRecord>, prefix = "mm"): Recipe => {
  const out: Array<RecipeStep> = []
  const placeholders: Array<Placeholder> = []
  const skipped: Array<string> = []
  const taken = new Set<string>()
  const served = (tool: string) => (prefix === "" ? tool : `${prefix}_${tool}`)
  for (const step of steps) {
    const name = step.tool.name
    const target = describeStepTarget(step.tool.target)
    const label = `${name}${target === undefined ? "" : ` ${target}`}`
    if (NOT_REPLAYED.has(name) || name.startsWith("knowledge_")) continue
    if (READ_ONLY.has(name)) {
      skipped.push(`${label}: read-only`)
      continue
    }
    if (!step.outcome.ok) {
      skipped.push(`${label}: failed with ${step.outcome.error?.code ?? "an error"}`)
      continue
    }
    if (name === "press_key" && step.tool.input.key === REDACTED) {
      skipped.push(`${label}: a key pressed in a secret field is not stored`)
      continue
    }
    let args: Record<string, unknown> = { ...step.tool.input }
    if (step.tool.target !== undefined) {
      const durable = durableTarget(step.tool.target)
      if (durable === undefined) {
        skipped.push(`${label}: only a ref was recorded, no test id, role and name, or selector`)
        continue
      }
      args = { ...args, ...durable.args }
    }
    if ((name === "switch_to_tab" || name === "close_tab") && args.tabId !== undefined) {
      // A tab id only means something in the session that gave it.
      delete args.tabId
      if (args.role === undefined && args.url === undefined) {
        skipped.push(`${label}: chose its tab by id only, which names nothing in another session`)
        continue
      }
    }
    let notes = noteFor(step, target)
    if (name === "type" && (step.tool.textRedacted === true || args.text === REDACTED)) {
      const placeholder = placeholderName(step.tool.target, taken)
      placeholders.push({
        name: placeholder,
        target: target ?? "the field",
        ...(step.tool.textLength !== undefined ? { length: step.tool.textLength } : {})
      })
      args.text = `{{${placeholder}}}`
      notes += ` (fill in {{${placeholder}}})`
    }
    const dialog = args.dialog as { accept?: boolean; promptText?: string } | undefined
    if (dialog?.promptText === REDACTED) {
      // The answer given to a prompt() is not stored: the replay asks for it.
      const placeholder = placeholderName(step.tool.target, taken)
      placeholders.push({ name: placeholder, target: `the prompt opened by ${target ?? name}` })
      args.dialog = { ...dialog, promptText: `{{${placeholder}}}` }
      notes += ` (answer the prompt with {{${placeholder}}})`
    }
    if (step.tool.target !== undefined && durableTarget(step.tool.target)?.scopeDropped) notes += " (its ref scope was dropped)"
    out.push({ tool: served(name), args, notes })
  }
  return { steps: out, placeholders, skipped }
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

const PLAYWRIGHT_TOOLS = ["navigate", "click", "type", "wait_for", "press_key", "select_option", "hover"] as const

const envName = (placeholder: string) => `BWM_SECRET_${placeholder.toUpperCase()}`

/**
 * A Playwright test file with one test(): navigations become page.goto, clicks, typing and waits become
 * locator actions; secrets are read from BWM_SECRET_* environment variables.
 */
export const toPlaywright = (
  recipe: Recipe,
  steps: ReadonlyArray<StepRecord>,
  metadata: SessionMetadata | undefined,
  sessionId: string
): string => {
  const lines: Array<string> = []
  const startUrl = steps.find((step) => step.tool.name === "launch" && step.outcome.ok)?.observation?.state.currentUrl
  if (startUrl !== undefined) lines.push(`await page.goto(${js(startUrl)})`)
  const navigations = steps.filter((step) => step.tool.name === "navigate" && step.outcome.ok)
  let navigation = 0
  for (const step of recipe.steps) {
    const tool = PLAYWRIGHT_TOOLS.find((name) => step.tool === name || step.tool.endsWith(`_${name}`)) ?? step.tool
    const locator = locatorOf(step.args)
    const dialog = step.args.dialog as { accept?: boolean; promptText?: string } | undefined
    const answersDialog =
      dialog !== undefined && ["click", "press_key", "type", "select_option", "hover"].includes(tool) && (locator !== undefined || tool === "press_key")
    if (dialog !== undefined && answersDialog) {
      const answer = dialog.promptText === undefined ? undefined : /^\{\{(.+)\}\}$/.exec(dialog.promptText)
      const text =
        dialog.promptText === undefined ? "" : answer ? `process.env.${envName(answer[1]!)} ?? ""` : js(dialog.promptText)
      lines.push(`page.once("dialog", (dialog) => dialog.${dialog.accept === true ? `accept(${text})` : "dismiss()"})`)
    }
    if (tool === "navigate" && (step.args.screen === "back" || step.args.screen === "forward" || step.args.screen === "reload")) {
      navigation++
      lines.push(`await page.${step.args.screen === "back" ? "goBack" : step.args.screen === "forward" ? "goForward" : "reload"}()`)
    } else if (tool === "navigate") {
      const url = navigations[navigation++]?.observation?.state.currentUrl ?? (typeof step.args.url === "string" ? step.args.url : undefined)
      lines.push(url === undefined ? `// ${step.notes}: no URL was recorded` : `await page.goto(${js(url)})`)
    } else if (tool === "click" && locator !== undefined) {
      lines.push(`await ${locator}.click()`)
    } else if (tool === "type" && locator !== undefined) {
      const text = String(step.args.text ?? "")
      const secret = /^\{\{(.+)\}\}$/.exec(text)
      lines.push(`await ${locator}.fill(${secret ? `process.env.${envName(secret[1]!)} ?? ""` : js(text)})`)
    } else if (tool === "press_key" && typeof step.args.key === "string" && step.args.key !== REDACTED) {
      lines.push(locator === undefined ? `await page.keyboard.press(${js(step.args.key)})` : `await ${locator}.press(${js(step.args.key)})`)
    } else if (tool === "select_option" && locator !== undefined && Array.isArray(step.args.values)) {
      lines.push(`await ${locator}.selectOption(${JSON.stringify(step.args.values)})`)
    } else if (tool === "hover" && locator !== undefined) {
      lines.push(`await ${locator}.hover()`)
    } else if (tool === "wait_for" && locator !== undefined) {
      lines.push(step.args.state === "hidden" ? `await expect(${locator}).toBeHidden()` : `await expect(${locator}).toBeVisible()`)
    } else {
      lines.push(`// ${step.tool} ${JSON.stringify(step.args)}: no Playwright equivalent, replay it with mm_run_steps`)
    }
    // The answer was for this step's dialog only: a later dialog must not get it.
    if (answersDialog) lines.push(`page.removeAllListeners("dialog")`)
  }
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
