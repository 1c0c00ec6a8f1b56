// A step as the full scan sees it: the fields queries show plus its words per scored field, and the
// reference scoring the index (catalog.ts) must reproduce. `factsOf` is shared so both read steps alike.
import type { SessionMetadata, StepRecord, StepTarget } from "../domain/knowledge.js"
import { identifierWords, tokenize, wordMatches } from "./text.js"

/** Fields a query word can match, with their weights (upstream's, plus a small one for the session's own words). */
export const FIELD_WEIGHTS = { tool: 10, screen: 8, target: 6, label: 5, testId: 3, a11y: 2 } as const
export type Field = keyof typeof FIELD_WEIGHTS
export const FIELDS = Object.keys(FIELD_WEIGHTS) as ReadonlyArray<Field>
/** Goal, flow tags and tags of the step's session: enough to find a flow's steps, never more than a content match. */
export const SESSION_WEIGHT = 1
/** The coverage bonus: floor(matched query words / all query words × 5). */
export const COVERAGE_BONUS = 5

export interface StepEntry {
  readonly sessionId: string
  readonly time: number
  readonly timestamp: string
  readonly tool: string
  readonly screen: string | undefined
  readonly url: string | undefined
  /** Path plus hash of the URL: what "the same place" means across hosts and ports. */
  readonly place: string | undefined
  readonly target: StepTarget | undefined
  readonly ok: boolean
  readonly errorCode: string | undefined
  readonly labels: ReadonlyArray<string>
  /** Observed test ids and non-empty accessibility names, lower-case, for prior knowledge. */
  readonly testIds: ReadonlyArray<string>
  readonly a11yNames: ReadonlyArray<string>
  readonly words: Readonly<Record<Field, ReadonlyArray<string>>>
}

/** Identical strings read from many files share one copy: the index holds a few distinct values many times. */
export type Intern = (value: string) => string
export const makeIntern = (): Intern => {
  const pool = new Map<string, string>()
  return (value) => {
    const known = pool.get(value)
    if (known !== undefined) return known
    pool.set(value, value)
    return value
  }
}
const noIntern: Intern = (value) => value

/** Path plus hash of a URL: what "the same place" means across hosts and ports. */
export const placeOf = (url: string | undefined): string | undefined => {
  if (url === undefined || !URL.canParse(url)) return undefined
  const parsed = new URL(url)
  return `${parsed.pathname}${parsed.hash}`
}

/** "unknown" or empty is no screen at all. */
export const knownScreen = (screen: string | undefined) => (screen === undefined || screen === "" || screen === "unknown" ? undefined : screen)

/** The values a step's scored fields are made of, before splitting into words: the scan and the index share this. */
export interface StepFacts {
  readonly screen: string | undefined
  readonly url: string | undefined
  readonly place: string | undefined
  /** Observed test ids, lower-case, each once. */
  readonly testIds: ReadonlyArray<string>
  /** Non-empty accessibility names, trimmed and lower-case, each once. */
  readonly a11yNames: ReadonlyArray<string>
  readonly values: Readonly<Record<Field, ReadonlyArray<string | undefined>>>
}

export const factsOf = (
  step: StepRecord,
  intern: Intern = noIntern,
  place: (url: string | undefined) => string | undefined = placeOf
): StepFacts => {
  const state = step.observation?.state
  const rawScreen = knownScreen(state?.currentScreen)
  const screen = rawScreen === undefined ? undefined : intern(rawScreen)
  const url = state?.currentUrl === undefined ? undefined : intern(state.currentUrl)
  const stepPlace = place(url)
  const target = step.tool.target
  const testIds = [...new Set((step.observation?.testIds ?? []).map((item) => intern(item.testId.toLowerCase())))]
  const nodes = step.observation?.a11y?.nodes ?? []
  const a11yNames = [...new Set(nodes.map((node) => node.name.trim().toLowerCase()).filter((name) => name !== ""))].map(intern)
  return {
    screen,
    url,
    place: stepPlace === undefined ? undefined : intern(stepPlace),
    testIds,
    a11yNames,
    values: {
      tool: [step.tool.name],
      screen: [screen, stepPlace],
      target: [target?.testId, target?.selector, target?.within, target?.a11yHint?.role, target?.a11yHint?.name],
      label: step.labels,
      testId: testIds,
      a11y: [...a11yNames, ...nodes.map((node) => node.role)]
    }
  }
}

export const entryOf = (step: StepRecord, intern: Intern = noIntern): StepEntry => {
  const facts = factsOf(step, intern)
  const words = (field: Field) => identifierWords(facts.values[field]).map(intern)
  return {
    sessionId: intern(step.sessionId),
    time: Date.parse(step.timestamp),
    timestamp: step.timestamp,
    tool: intern(step.tool.name),
    screen: facts.screen,
    url: facts.url,
    place: facts.place,
    target: step.tool.target,
    ok: step.outcome.ok,
    errorCode: step.outcome.error === undefined ? undefined : intern(step.outcome.error.code),
    labels: step.labels.map(intern),
    testIds: facts.testIds,
    a11yNames: facts.a11yNames,
    words: {
      tool: words("tool"),
      screen: words("screen"),
      target: words("target"),
      label: words("label"),
      testId: words("testId"),
      a11y: words("a11y")
    }
  }
}

/** Words of a session's goal, flow tags and tags. */
export const sessionWords = (metadata: SessionMetadata | undefined): ReadonlyArray<string> =>
  metadata === undefined ? [] : [...new Set([...tokenize(metadata.goal ?? ""), ...identifierWords([...metadata.flowTags, ...metadata.tags])])]

const anyMatch = (fieldWords: ReadonlyArray<string>, group: ReadonlyArray<string>) =>
  fieldWords.some((word) => group.some((queryWord) => wordMatches(word, queryWord)))

export interface Scored {
  readonly score: number
  readonly matchedFields: ReadonlyArray<string>
}

/**
 * Relevance of a step to a query: each query word (with its synonyms) adds the weight of every field it
 * matches, then the coverage bonus. Zero means "not relevant"; recency is never part of the score.
 */
export const scoreEntry = (
  entry: StepEntry,
  context: ReadonlyArray<string>,
  groups: ReadonlyArray<ReadonlyArray<string>>
): Scored => {
  let score = 0
  let matchedGroups = 0
  const matched = new Set<string>()
  for (const group of groups) {
    let hit = false
    for (const field of FIELDS) {
      if (anyMatch(entry.words[field], group)) {
        score += FIELD_WEIGHTS[field]
        matched.add(field)
        hit = true
      }
    }
    if (anyMatch(context, group)) {
      score += SESSION_WEIGHT
      matched.add("session")
      hit = true
    }
    if (hit) matchedGroups++
  }
  if (score === 0) return { score: 0, matchedFields: [] }
  return { score: score + Math.floor((matchedGroups / groups.length) * COVERAGE_BONUS), matchedFields: [...matched] }
}

/** "testId:x", "role:button \"Sign in\"" (for a ref with a hint), "selector:#a within testId:form". */
export const describeStepTarget = (target: StepTarget | undefined): string | undefined => {
  if (target === undefined) return undefined
  const main =
    target.testId !== undefined
      ? `testId:${target.testId}`
      : target.a11yHint !== undefined
        ? `role:${target.a11yHint.role} ${JSON.stringify(target.a11yHint.name)}`
        : target.selector !== undefined
          ? `selector:${target.selector}`
          : target.a11yRef !== undefined
            ? `a11yRef:${target.a11yRef}`
            : undefined
  if (main === undefined) return undefined
  return target.within === undefined ? main : `${main} within ${target.within}`
}
