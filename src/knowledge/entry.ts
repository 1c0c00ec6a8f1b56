// A step as the index keeps it: the few fields queries show plus its words per scored field. The full
// record (observation, input) stays on disk, so 100k steps fit in memory.
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

const placeOf = (url: string | undefined): string | undefined => {
  if (url === undefined || !URL.canParse(url)) return undefined
  const parsed = new URL(url)
  return `${parsed.pathname}${parsed.hash}`
}

const unknownScreen = (screen: string | undefined) => (screen === undefined || screen === "" || screen === "unknown" ? undefined : screen)

export const entryOf = (step: StepRecord, intern: Intern = noIntern): StepEntry => {
  const state = step.observation?.state
  const screen = unknownScreen(state?.currentScreen)
  const url = state?.currentUrl
  const place = placeOf(url)
  const target = step.tool.target
  const testIds = [...new Set((step.observation?.testIds ?? []).map((item) => intern(item.testId.toLowerCase())))]
  const nodes = step.observation?.a11y?.nodes ?? []
  const a11yNames = [...new Set(nodes.map((node) => node.name.trim().toLowerCase()).filter((name) => name !== ""))].map(intern)
  const words = (values: ReadonlyArray<string>) => values.map(intern)
  return {
    sessionId: intern(step.sessionId),
    time: Date.parse(step.timestamp),
    timestamp: step.timestamp,
    tool: intern(step.tool.name),
    screen: screen === undefined ? undefined : intern(screen),
    url: url === undefined ? undefined : intern(url),
    place: place === undefined ? undefined : intern(place),
    target,
    ok: step.outcome.ok,
    errorCode: step.outcome.error === undefined ? undefined : intern(step.outcome.error.code),
    labels: step.labels.map(intern),
    testIds,
    a11yNames,
    words: {
      tool: words(identifierWords([step.tool.name])),
      screen: words(identifierWords([screen, place])),
      target: words(
        identifierWords([target?.testId, target?.selector, target?.within, target?.a11yHint?.role, target?.a11yHint?.name])
      ),
      label: words(identifierWords(step.labels)),
      testId: words(identifierWords(testIds)),
      a11y: words(identifierWords([...a11yNames, ...nodes.map((node) => node.role)]))
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
