// A recorded session as something that runs again: a recipe of tool calls, an mm_run_steps batch, or a
// Playwright test. Targets are made durable, redacted text becomes a named placeholder; what each tool
// contributes (replayed or not, its note, its Playwright lines) comes from its definition.
import { downloadNamePattern } from "../domain/download.js"
import { ENTER_FRAME } from "../domain/frames.js"
import type { Placeholder, Recipe, RecipeStep, SessionMetadata, StepRecord, StepTarget } from "../domain/knowledge.js"
import { isSensitiveKey, REDACTED } from "../domain/redaction.js"
import { replayModeOf, servedAs, toolWithRole, type ReplayableTool, type ReplayTools } from "../domain/replay.js"
import { describeStepTarget } from "./entry.js"
import { checkHelpers } from "./export-checked.js"
import { dragHelper } from "./export-drag.js"
import { calledBy, declared, type TestHelper } from "./export-helpers.js"
import { durableTarget, whyNotDurable } from "./targets.js"
import { markedForms, paramFollower, renderParams } from "./params.js"
import { clipText, identifierWords } from "./text.js"
import { escapeRegex } from "../domain/text.js"

export type { ReplayTools }

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
  readonly tool: ReplayableTool | undefined
  /** The flow's last page, for the check that ends it (see endOf). */
  readonly end?: EndPage
}

/**
 * An action the page paused in the debugger during (a click whose handler hit a breakpoint): it was
 * delivered and finished once the page ran again, so the flow has it; a replay (without the debugger's
 * steps, which never replay) runs it through.
 */
const deliveredThenPaused = (record: StepRecord) => record.outcome.error?.delivered === true

/**
 * Which recorded steps replay and how, as each tool's definition says (replay mode, argument
 * adaptation, note); a tool the lookup does not know replays as a plain step.
 */
const plan = (steps: ReadonlyArray<StepRecord>, tools: ReplayTools) => {
  const { lookup } = tools
  const out: Array<Replayed> = []
  const placeholders: Array<Placeholder> = []
  const skipped: Array<string> = []
  // Names given with `param` are the caller's: a generated placeholder name never takes one.
  const taken = new Set<string>(steps.flatMap((record) => (typeof record.tool.input.param === "string" ? [record.tool.input.param] : [])))
  const served = (tool: string) => servedAs(tools.prefix, tool)
  /** Fields a secret was typed into (by description and durable form): what is read there is never checked. */
  const secretFields = new Set<string>()
  const fieldKeys = (target: StepTarget | undefined) => {
    const durable = durableTarget(target)
    return [describeStepTarget(target), ...(durable === undefined ? [] : [durable.args, ...durable.fallbacks].map((form) => JSON.stringify(form)))].filter(
      (key): key is string => key !== undefined
    )
  }
  for (const record of steps) {
    const name = record.tool.name
    const tool = lookup(name)
    const target = describeStepTarget(record.tool.target)
    const label = `${name}${target === undefined ? "" : ` ${target}`}`
    const mode = tool === undefined ? "step" : replayModeOf(tool)
    if (record.tool.textRedacted === true) for (const key of fieldKeys(record.tool.target)) secretFields.add(key)
    if (mode === "never") continue
    if (record.tool.input.read !== undefined && fieldKeys(record.tool.target).some((key) => secretFields.has(key))) {
      skipped.push(`${label}: read-only (a secret was typed there: its text is not checked)`)
      continue
    }
    if (mode === "read-only") {
      skipped.push(`${label}: read-only`)
      continue
    }
    if (!record.outcome.ok && !deliveredThenPaused(record)) {
      skipped.push(`${label}: failed with ${record.outcome.error?.code ?? "an error"}`)
      continue
    }
    let args: Record<string, unknown> = { ...record.tool.input }
    // A read replays as a check of its text: it is never located by that text.
    const read = record.tool.input.read
    const reads = typeof read === "string" ? [read] : Array.isArray(read) ? read.filter((text): text is string => typeof text === "string") : []
    if (record.tool.target !== undefined) {
      const durable = durableTarget(record.tool.target, reads)
      if (durable === undefined) {
        skipped.push(`${label}: ${whyNotDurable(record.tool.target)}`)
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
    const param = typeof record.tool.input.param === "string" ? record.tool.input.param : undefined
    const secret = record.tool.textRedacted === true || args.text === REDACTED
    if (typeof args.text === "string" && (secret || param !== undefined)) {
      const placeholder = param ?? placeholderName(record.tool.target, taken)
      // A param typed in several steps is one placeholder: one value fills them all (its first recorded text by default).
      if (!placeholders.some((known) => known.name === placeholder)) {
        placeholders.push({
          name: placeholder,
          target: target ?? "the field",
          ...(secret ? {} : { default: args.text })
        })
      }
      args.text = `{{${placeholder}}}`
      notes += secret ? ` (fill in {{${placeholder}}})` : ` ({{${placeholder}}})`
    }
    const dialog = args.dialog as { accept?: boolean; promptText?: string } | undefined
    if (dialog?.promptText === REDACTED) {
      // The answer given to a prompt() is not stored: the replay asks for it.
      const placeholder = placeholderName(record.tool.target, taken)
      placeholders.push({ name: placeholder, target: `the prompt opened by ${target ?? name}` })
      args.dialog = { ...dialog, promptText: `{{${placeholder}}}` }
      notes += ` (answer the prompt with {{${placeholder}}})`
    }
    if (record.tool.target !== undefined && durableTarget(record.tool.target, reads)?.scopeDropped) notes += " (its ref scope was dropped)"
    const downloads = record.downloads?.map((download) => ({ name: download.name, ...(download.sha256 !== undefined ? { sha256: download.sha256 } : {}) }))
    out.push({ step: { tool: served(name), args, notes, ...(downloads !== undefined && downloads.length > 0 ? { downloads } : {}) }, record, tool })
  }
  const start = startOf(steps, out, tools)
  const end = endOf(steps, out, tools)
  return { out: [...(start === undefined ? [] : [start]), ...out, ...(end === undefined ? [] : [end])], placeholders, skipped }
}

/** How the steps a recipe adds around the recorded ones begin their notes: the start page's load, the end-of-flow check. */
const START_NOTE = "Start at "
const END_NOTE = "End at "

/** Whether a recipe step is one the recipe added around the flow (its start page, its end check) rather than one the flow did. */
export const framesTheFlow = (step: RecipeStep): boolean => step.notes.startsWith(START_NOTE) || step.notes.startsWith(END_NOTE)

/** The page a flow ended on: its URL as a check that survives volatile parts, and its title when stable. */
export interface EndPage {
  readonly url: string
  /** A literal URL, or a regex source when parts of it change from run to run. */
  readonly match: { readonly exact: string } | { readonly regex: string }
  readonly title?: string
}

/** A longer URL is not checked at the end (a page can make its own URL a megabyte long). */
const END_URL_CHARS = 2_048

/** The most time a replay gives the end-of-flow URL check (the page was already there when the flow ended). */
export const END_CHECK_MS = 5_000

/** A value that changes from run to run: a long number (an id, a timestamp), a UUID, a long hex or token. */
const VOLATILE = /\d{5,}|^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$|^[0-9a-f]{16,}$|^(?=.*\d)(?=.*[a-z])[\w-]{24,}$/i
/** Query keys whose values are per-run (cache busters, nonces, sessions) or secret. */
const VOLATILE_KEYS = /^(_|t|ts|time|timestamp|nonce|state|code|sid|session(_?id)?|cb|cachebust(er)?|rand(om)?|v)$/i

/**
 * A URL as an end-of-flow check: the URL itself when nothing in it looks volatile; else a regex in which
 * each volatile path segment or query value (ids, timestamps, tokens, secret-looking keys) matches anything.
 */
export const stableUrl = (url: string): EndPage["match"] => {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return { exact: url }
  }
  let volatile = false
  const segments = parsed.pathname.split("/").map((segment) => {
    if (!VOLATILE.test(decodeURIComponent(segment))) return escapeRegex(segment)
    volatile = true
    return "[^/?#]*"
  })
  const query = parsed.search === "" ? "" : `\\?${parsed.search
    .slice(1)
    .split("&")
    .map((pair) => {
      const equals = pair.indexOf("=")
      const key = equals < 0 ? pair : pair.slice(0, equals)
      const value = equals < 0 ? "" : pair.slice(equals + 1)
      let decoded = value
      try {
        decoded = decodeURIComponent(value.replace(/\+/g, " "))
      } catch {
        // A malformed escape: judged as written.
      }
      if (equals < 0 || !(VOLATILE_KEYS.test(key) || isSensitiveKey(key) || VOLATILE.test(decoded))) return escapeRegex(pair)
      volatile = true
      return `${escapeRegex(key)}=[^&#]*`
    })
    .join("&")}`
  const hash = parsed.hash
    .split(/([/?&=#])/)
    .map((part) => {
      if (!VOLATILE.test(part)) return escapeRegex(part)
      volatile = true
      return "[^/?&=#]*"
    })
    .join("")
  if (!volatile) return { exact: url }
  return { regex: `^${escapeRegex(parsed.origin)}${segments.join("/")}${query}${hash}$` }
}

/**
 * The flow ends where its last recorded page was: the observation of the session's last step that ran
 * (an action, a wait, a look at the page), when it came after the last replayed step. The replay checks the
 * URL (a wait_for that the page already satisfies), the Playwright test its URL and title. None when the
 * page is not known, not loadable, or holds a redacted value.
 */
const endOf = (
  steps: ReadonlyArray<StepRecord>,
  out: ReadonlyArray<Replayed>,
  { lookup, prefix, tools }: ReplayTools
): Replayed | undefined => {
  const last = out.at(-1)
  // The tool that waits for a URL checks the end; without one, the recipe has no end check.
  const waits = tools.find((tool) => tool.replay?.awaitUrl !== undefined)
  if (last === undefined || waits === undefined) return undefined
  const from = steps.indexOf(last.record)
  let seen: StepRecord | undefined
  for (let index = steps.length - 1; index >= from && seen === undefined; index--) {
    const record = steps[index]!
    const tool = lookup(record.tool.name)
    if (record.outcome.ok && record.observation !== undefined && (tool === undefined || replayModeOf(tool) !== "never")) seen = record
  }
  const state = seen?.observation?.state
  if (seen === undefined || state === undefined || state.currentUrl.length > END_URL_CHARS || !LOADABLE.test(state.currentUrl) || /\[REDACTED\]|\[secret:/.test(state.currentUrl)) return undefined
  const match = stableUrl(state.currentUrl)
  const title = state.title
  // A title with a number in it ("(3) Inbox") or a redacted value changes between runs: the URL alone checks the page.
  const end: EndPage = {
    url: state.currentUrl,
    match,
    ...(title !== undefined && title !== "" && !/\d|\[REDACTED\]|\[secret:/.test(title) ? { title } : {})
  }
  const pattern = "exact" in match ? `/^${escapeRegex(match.exact)}$/` : `/${match.regex}/`
  return {
    step: { tool: servedAs(prefix, waits.name), args: waits.replay!.awaitUrl!(pattern, END_CHECK_MS), notes: `${END_NOTE}${clipText(state.currentUrl, 300)}` },
    record: seen,
    tool: waits,
    end
  }
}

/** Pages a replay can load again: not about:blank, chrome:// and the like. */
const LOADABLE = /^(https?|file):/i

/**
 * The flow starts where the agent was before its first replayed step (the page it saw then): unless that
 * step loads a URL itself, the replay first loads that page, as the Playwright test's first page.goto does.
 */
const startOf = (
  steps: ReadonlyArray<StepRecord>,
  out: ReadonlyArray<Replayed>,
  { lookup, prefix, tools }: ReplayTools
): Replayed | undefined => {
  const first = out[0]
  // The tool that loads a URL starts the recipe; without one, the recipe starts with its first step.
  const loads = tools.find((tool) => tool.replay?.loadUrl !== undefined)
  if (first === undefined || loads === undefined) return undefined
  if (lookup(first.record.tool.name)?.replay?.loadsUrl?.(first.record.tool.input) === true) return undefined
  const position = steps.indexOf(first.record)
  let seen: StepRecord | undefined
  for (let index = position - 1; index >= 0 && seen === undefined; index--) {
    if (steps[index]!.observation !== undefined) seen = steps[index]
  }
  const url = seen?.observation?.state.currentUrl
  if (seen === undefined || url === undefined || !LOADABLE.test(url)) return undefined
  return {
    step: { tool: servedAs(prefix, loads.name), args: loads.replay!.loadUrl!(url), notes: `${START_NOTE}${url}` },
    record: seen,
    tool: loads
  }
}

/**
 * The replayable steps of a session, oldest first, as calls of the served tools (each recorded tool's
 * definition says how it replays).
 */
export const recipeOf = (steps: ReadonlyArray<StepRecord>, tools: ReplayTools): Recipe => {
  const { out, placeholders, skipped } = plan(steps, tools)
  return { steps: out.map((replayed) => replayed.step), placeholders, skipped }
}

/** An mm_run_steps input for a recipe. */
export interface RecipeBatch {
  readonly steps: ReadonlyArray<{
    readonly tool: string
    readonly args: Record<string, unknown>
    /** A step that downloaded files lists the ones it downloads again, for the replay's check. */
    readonly expectation?: { readonly includeDownloads: true }
  }>
  readonly stopOnError: true
  readonly includeObservations: "failures"
}

/**
 * An mm_run_steps input: stops at the first failure, since later steps depend on earlier ones, and brings
 * back the page only for a step that failed (the step to look at), not after every step that worked.
 */
export const toBatch = (recipe: Recipe): RecipeBatch => ({
  steps: recipe.steps.map((step) => ({
    tool: step.tool,
    args: { ...step.args },
    ...(step.downloads !== undefined ? { expectation: { includeDownloads: true as const } } : {})
  })),
  stopOnError: true,
  includeObservations: "failures"
})

const js = (value: string) => JSON.stringify(value)

/** Splits a Playwright selector at its top-level ` >> ` (not inside quotes or brackets). */
const selectorParts = (selector: string): Array<string> | undefined => {
  const parts: Array<string> = []
  let start = 0
  let quote: string | undefined
  let depth = 0
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i]!
    if (quote !== undefined) {
      if (c === "\\") i++
      else if (c === quote) quote = undefined
    } else if (c === '"' || c === "'") quote = c
    else if (c === "[") depth++
    else if (c === "]") depth--
    else if (depth === 0 && selector.startsWith(" >> ", i)) {
      parts.push(selector.slice(start, i))
      start = i + 4
      i += 3
    }
  }
  if (quote !== undefined || depth !== 0) return undefined
  parts.push(selector.slice(start))
  return parts
}

/** A quoted text with its flag (`"Sign in"s`): JSON, as Playwright reads the text engines' values. */
const quotedText = (body: string): { readonly text: string; readonly exact: boolean } | undefined => {
  const match = /^("(?:[^"\\]|\\.)*")([si]?)$/.exec(body)
  if (!match) return undefined
  try {
    return { text: JSON.parse(match[1]!) as string, exact: match[2] !== "i" }
  } catch {
    return undefined
  }
}

/** An attribute's quoted value (`"v"s`) as Playwright's attribute parser reads it: backslash escapes one character. */
const attributeValue = (quoted: string): string => quoted.slice(1, -1).replace(/\\(.)/g, "$1")

const ATTRIBUTE = /^\[([a-z-]+)=("(?:[^"\\]|\\.)*")([si]?)\]$/
const ROLE = /^(?:internal:)?role=([a-z]+)(?:\[name=("(?:[^"\\]|\\.)*")([si]?)\])?$/
const ENGINE = /^[a-zA-Z_0-9:+*-]+=/
const ENTER_FRAME_PART = ENTER_FRAME.replace(/^ >> | >> $/g, "")

/** One part of a selector as a locator method call, or undefined for syntax the export does not translate. */
const partLocator = (part: string, first: boolean): string | undefined => {
  const role = ROLE.exec(part)
  if (role) {
    if (role[2] === undefined) return `getByRole(${js(role[1]!)})`
    const name = attributeValue(role[2])
    return `getByRole(${js(role[1]!)}, { name: ${js(name)}${role[3] === "i" ? "" : ", exact: true"} })`
  }
  const exact = (text: { readonly exact: boolean }) => (text.exact ? ", { exact: true }" : "")
  if (part.startsWith("internal:testid=")) {
    const attribute = ATTRIBUTE.exec(part.slice("internal:testid=".length))
    return attribute && attribute[1] === "data-testid" ? `getByTestId(${js(attributeValue(attribute[2]!))})` : undefined
  }
  if (part.startsWith("internal:attr=")) {
    const attribute = ATTRIBUTE.exec(part.slice("internal:attr=".length))
    if (!attribute) return undefined
    const method = { placeholder: "getByPlaceholder", alt: "getByAltText", title: "getByTitle" }[attribute[1]!]
    return method === undefined ? undefined : `${method}(${js(attributeValue(attribute[2]!))}${exact({ exact: attribute[3] !== "i" })})`
  }
  for (const [engine, method] of [["internal:label=", "getByLabel"], ["internal:text=", "getByText"]] as const) {
    if (!part.startsWith(engine)) continue
    const text = quotedText(part.slice(engine.length))
    return text === undefined ? undefined : `${method}(${js(text.text)}${exact(text)})`
  }
  if (part.startsWith("internal:has-text=")) {
    const text = quotedText(part.slice("internal:has-text=".length))
    // Only the lax form has a locator twin (filter({ hasText }) matches a case-insensitive substring).
    return text === undefined || first || text.exact ? undefined : `filter({ hasText: ${js(text.text)} })`
  }
  // Into an iframe (a step inside frames names the frame's element first: see ENTER_FRAME).
  if (part === ENTER_FRAME_PART) return first ? undefined : "contentFrame()"
  const nth = /^nth=(-?\d+)$/.exec(part)
  if (nth) return first ? undefined : `nth(${nth[1]})`
  if (ENGINE.test(part)) return undefined
  return `locator(${js(part)})`
}

/** A selector as locator calls (`getByRole("listitem").filter({ hasText: "a" }).getByRole("checkbox")`), else `locator(selector)`. */
const selectorLocator = (selector: string): string => {
  const parts = selectorParts(selector)
  const calls = parts?.map((part, index) => partLocator(part, index === 0))
  if (calls === undefined || calls.some((call) => call === undefined)) return `locator(${js(selector)})`
  return calls.join(".")
}

const locatorOf = (args: Readonly<Record<string, unknown>>): string | undefined => {
  const one = (value: unknown): string | undefined => {
    if (typeof value !== "object" || value === null) return undefined
    const locator = value as Record<string, unknown>
    if (typeof locator.testId === "string") return `getByTestId(${js(locator.testId)})`
    if (typeof locator.selector === "string") return selectorLocator(locator.selector)
    return undefined
  }
  const main = one(args)
  if (main === undefined) return undefined
  const scope = one(args.within)
  return scope === undefined ? `page.${main}` : `page.${scope}.${main}`
}

/** The environment variable a Playwright export reads a placeholder from. */
export const secretEnvName = (placeholder: string): string => `BWM_SECRET_${placeholder.toUpperCase()}`

/** The environment variable a Playwright export reads a param from (a placeholder with recorded text, typed when it is unset). */
export const paramEnvName = (placeholder: string): string => `BWM_PARAM_${placeholder.toUpperCase()}`

/** A placeholder's variable in a Playwright export: BWM_PARAM_* for a param with recorded text, BWM_SECRET_* for one without. */
export const placeholderEnvName = (placeholder: Placeholder): string =>
  placeholder.default !== undefined ? paramEnvName(placeholder.name) : secretEnvName(placeholder.name)

/** The helper an export calls for the variables it needs: a missing one fails the test at once, by name. */
const ENV_HELPER = "requiredEnv"

const envHelperLines = [
  `/** A variable this test types (a secret, or a placeholder of the recorded session): missing or empty, the test fails here. */`,
  `const ${ENV_HELPER} = (name: string): string => {`,
  `  const value = process.env[name]`,
  `  if (value === undefined || value === "") throw new Error(\`Set the environment variable \${name}: this test types its value (recorded by browser-workflow-mcp as a secret or placeholder).\`)`,
  `  return value`,
  `}`
]

/**
 * The expressions of one export for environment variables (through the helper) and text arguments (a
 * literal, or the variable of its placeholder), with the variables they read, in order.
 */
const expressions = (placeholders: ReadonlyArray<Placeholder>) => {
  const variables = new Set<string>()
  const params = new Set<string>()
  const env = (name: string): string => {
    variables.add(name)
    return `${ENV_HELPER}(${js(name)})`
  }
  const text = (value: string, recordedAs?: string): string => {
    const name = /^\{\{(.+)\}\}$/.exec(value)?.[1]
    if (name === undefined) return js(recordedAs ?? value)
    // A param is a parameter of the test: its variable when set, else the recorded text (as it went in).
    const recorded = placeholders.find((placeholder) => placeholder.name === name)?.default
    if (recorded === undefined) return env(secretEnvName(name))
    params.add(paramEnvName(name))
    return `(process.env[${js(paramEnvName(name))}] ?? ${js(recordedAs ?? recorded)})`
  }
  return { env, text, variables, params }
}

/**
 * A step's lines with the downloads it must start: one is awaited with waitForEvent; several are
 * collected as they come until all have, and checked as a set (names, then name and hash), in any order.
 */
const downloadLines = (
  variable: string,
  downloads: ReadonlyArray<{ readonly name: string; readonly sha256?: string | undefined }>,
  written: ReadonlyArray<string>,
  withHashes: boolean
): ReadonlyArray<string> => {
  // A name with a timestamp or an id in it (Swagger UI's response_1795780842562.json) is matched, not compared.
  const nameCheck = (name: string) => ((pattern) => (pattern === undefined ? `toBe(${js(name)})` : `toMatch(${String(pattern)})`))(downloadNamePattern(name).pattern)
  const hashOf = (download: string) => `createHash("sha256").update(await readFile(await ${download}.path())).digest("hex")`
  if (downloads.length === 0) return written
  if (downloads.length === 1) {
    const download = downloads[0]!
    return [
      `const ${variable}Promise = page.waitForEvent("download")`,
      ...written,
      `const ${variable} = await ${variable}Promise`,
      `expect(${variable}.suggestedFilename()).${nameCheck(download.name)}`,
      ...(withHashes && download.sha256 !== undefined ? [`expect(${hashOf(variable)}).toBe(${js(download.sha256)})`] : [])
    ]
  }
  const sorted = (values: ReadonlyArray<string>) => JSON.stringify([...values].sort())
  return [
    `const ${variable}Promise = new Promise<Array<Download>>((resolve) => {`,
    `  const seen: Array<Download> = []`,
    `  const take = (download: Download) => {`,
    `    seen.push(download)`,
    `    if (seen.length === ${downloads.length}) {`,
    `      page.off("download", take)`,
    `      resolve(seen)`,
    `    }`,
    `  }`,
    `  page.on("download", take)`,
    `})`,
    ...written,
    `const ${variable} = await ${variable}Promise`,
    `expect(${variable}.map((download) => download.suggestedFilename()).sort()).toEqual(${sorted(downloads.map((download) => download.name))})`,
    ...(withHashes
      ? [
          `expect((await Promise.all(${variable}.map(async (download) => \`\${download.suggestedFilename()} \${${hashOf("download")}}\`))).sort()).toEqual(${sorted(
            downloads.map((download) => `${download.name} ${download.sha256}`)
          )})`
        ]
      : [])
  ]
}

/** The functions an exported test may declare, in the order it declares them. */
const TEST_HELPERS: ReadonlyArray<TestHelper> = [dragHelper, ...checkHelpers]

/**
 * A Playwright test file with one test(): each replayed step becomes the lines its tool's definition
 * writes (page.goto, locator actions, expectations); secrets are read from BWM_SECRET_* variables.
 */
export const toPlaywright = (
  recipe: Recipe,
  steps: ReadonlyArray<StepRecord>,
  metadata: SessionMetadata | undefined,
  sessionId: string,
  tools: ReplayTools
): string => {
  const lines: Array<string> = []
  // The recipe's first step loads the page the flow started on (see startOf).
  const { out } = plan(steps, tools)
  const batch = toolWithRole(tools.tools, "batch")
  const elsewhere = batch === undefined ? "replay it as a recipe" : `replay it with ${servedAs(tools.prefix, batch.name)}`
  const { env, text: textExpression, variables, params } = expressions(recipe.placeholders)
  // What the flow read of a param's text follows the test's variable, as a replay with params does.
  const follow = paramFollower(recipe.steps, recipe, markedForms)
  let hashes = false
  let severalDownloads = false
  const called = new Set<TestHelper>()
  recipe.steps.forEach((recorded, index) => {
    const step = { ...recorded, args: follow(index, recorded.args) as RecipeStep["args"] }
    const replayed = out[index]
    if (replayed?.end !== undefined) {
      const { match, title } = replayed.end
      const followed = (text: string) => follow(index, text) as string
      lines.push(`// The page the flow ended on.`)
      lines.push(`await expect(page).toHaveURL(${"exact" in match ? js(followed(match.exact)) : followed(new RegExp(match.regex).toString())})`)
      if (title !== undefined) lines.push(`await expect(page).toHaveTitle(${js(followed(title))})`)
      return
    }
    const locator = locatorOf(step.args)
    const written =
      replayed === undefined
        ? undefined
        : replayed.tool?.replay?.playwright?.(step.args, { locator, locatorOf, text: textExpression, env, record: replayed.record, notes: step.notes })
    if (written === undefined) {
      lines.push(`// ${step.tool} ${JSON.stringify(step.args)}: no Playwright equivalent, ${elsewhere}`)
      return
    }
    const dialog = step.args.dialog as { accept?: boolean; promptText?: string } | undefined
    if (dialog !== undefined) {
      const text = dialog.promptText === undefined ? "" : textExpression(dialog.promptText)
      lines.push(`page.once("dialog", (dialog) => dialog.${dialog.accept === true ? `accept(${text})` : "dismiss()"})`)
    }
    const downloads = step.downloads ?? []
    // The step's files, as recorded: their names, and their content's hashes when the flow takes no params (the same inputs, the same files).
    const withHashes = recipe.placeholders.length === 0 && downloads.every((download) => download.sha256 !== undefined)
    if (downloads.length > 0 && withHashes) hashes = true
    if (downloads.length > 1) severalDownloads = true
    for (const helper of calledBy(TEST_HELPERS, written)) called.add(helper)
    lines.push(...downloadLines(`download${index}`, downloads, written, withHashes))
    // The answer was for this step's dialog only: a later dialog must not get it.
    if (dialog !== undefined) lines.push(`page.removeAllListeners("dialog")`)
  })
  const title = metadata?.goal ?? `session ${sessionId}`
  const helpers = declared(TEST_HELPERS, called)
  return [
    `// Recorded by browser-workflow-mcp from session ${sessionId}.`,
    ...(variables.size > 0 ? [`// Secrets come from the environment (the test fails naming one that is not set or empty): ${[...variables].join(", ")}.`] : []),
    ...(params.size > 0 ? [`// Params: set ${[...params].join(", ")} to type other text than the recorded one.`] : []),
    `// getByTestId uses Playwright's testIdAttribute (data-testid unless configured otherwise).`,
    ...(hashes ? [`import { createHash } from "node:crypto"`, `import { readFile } from "node:fs/promises"`] : []),
    `import { expect, test${[...(severalDownloads ? ["Download"] : []), ...helpers.types].map((type) => `, type ${type}`).join("")} } from "@playwright/test"`,
    ``,
    ...(variables.size > 0 ? [...envHelperLines, ``] : []),
    ...helpers.lines,
    `test(${js(title)}, async ({ page }) => {`,
    ...lines.map((line) => `  ${renderParams(line, (name) => textExpression(`{{${name}}}`))}`),
    `})`,
    ``
  ].join("\n")
}
