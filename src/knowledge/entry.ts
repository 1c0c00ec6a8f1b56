// A step as the full scan sees it: the fields queries show plus its words per scored field, and the
// reference scoring the index (catalog.ts) must reproduce. `factsOf` is shared so both read steps alike.
import type { SessionMetadata, StepRecord, StepTarget } from "../domain/knowledge.js"
import { factsOfObservation, type PageFacts, pathOf, type PlaceOf } from "./page.js"
import { clipText, identifierWords, indexedText, tokenize, wordMatches } from "./text.js"

/** Fields a query word can match, with their weights (upstream's, plus a small one for the session's own words). */
/**
 * Per field, what a query word found there adds. The URL path (the page the step ended on) adds nothing of
 * its own, only coverage: an app whose path holds a word (`/todomvc`) would else make every step of it match
 * that word above the steps that act on it.
 */
export const FIELD_WEIGHTS = { tool: 10, screen: 8, target: 6, label: 5, testId: 3, a11y: 2, url: 0 } as const
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
  /** The screen the step ended on. */
  readonly screen: string | undefined
  /** The URL the step ended on, clipped for display. */
  readonly url: string | undefined
  readonly target: StepTarget | undefined
  readonly ok: boolean
  readonly errorCode: string | undefined
  readonly labels: ReadonlyArray<string>
  /** The page prior knowledge compares with: as the agent saw it before the step, else the step's own observation. */
  readonly similar: PageFacts
  readonly words: Readonly<Record<Field, ReadonlyArray<string>>>
}

/** The most characters of a URL that summaries show. */
export const SHOWN_URL_CHARS = 300

/** The values a step's scored fields are made of, before splitting into words: the scan and the index share this. */
export interface StepFacts {
  /** The screen the step ended on (for an interaction that ended on none known, the one it acted on), as the index keeps it. */
  readonly screen: string | undefined
  /** The URL the step ended on, clipped for display. */
  readonly url: string | undefined
  /** Its own observation's page facts. */
  readonly page: PageFacts
  /** Per field, the values whose words are indexed (each at most INDEXED_CHARS long). */
  readonly values: Readonly<Record<Field, ReadonlyArray<string | undefined>>>
}

const indexed = (value: string | undefined) => (value === undefined ? undefined : indexedText(value))

/** The label of a click that clicked more than once (its `count`): a double click is not a plain click. */
const MULTI_CLICK: Readonly<Record<number, string>> = { 2: "double-click", 3: "triple-click" }

/**
 * A step's labels as the index keeps them: the recorded ones, and `double-click` / `triple-click` for an
 * interaction recorded with a `count` (the click tool's input: how many times it clicked), derived here
 * rather than recorded so that records written before these labels existed are found by them too.
 */
export const stepLabels = (step: StepRecord): ReadonlyArray<string> => {
  const count = step.labels.includes("interaction") ? step.tool.input.count : undefined
  const label = typeof count === "number" ? MULTI_CLICK[count] : undefined
  return label === undefined || step.labels.includes(label) ? step.labels : [...step.labels, label]
}

/** How many times a step's click clicked, from its labels (undefined for one). */
export const clickCountOf = (labels: ReadonlyArray<string>): number | undefined =>
  labels.includes("double-click") ? 2 : labels.includes("triple-click") ? 3 : undefined

/**
 * A step's facts. Its screen is the one its observation shows; an interaction whose observation shows no
 * known screen is known by the screen it acted on (`before`, the page the agent saw before it): a sign-in
 * click whose answer already shows the page it led to still belongs to the login screen.
 */
export const factsOf = (step: StepRecord, place?: PlaceOf, path: PlaceOf = pathOf, before?: PageFacts): StepFacts => {
  const state = step.observation?.state
  const page = factsOfObservation(step.observation, place)
  const target = step.tool.target
  const nodes = step.observation?.a11y?.nodes ?? []
  const screen = page.screen ?? (step.labels.includes("interaction") ? before?.screen : undefined)
  return {
    screen,
    url: state?.currentUrl === undefined ? undefined : clipText(state.currentUrl, SHOWN_URL_CHARS),
    page,
    values: {
      tool: [indexed(step.tool.name)],
      screen: [screen],
      url: [path(state?.currentUrl)],
      target: [target?.testId, target?.selector, target?.within, target?.a11yHint?.role, target?.a11yHint?.name].map(indexed),
      label: stepLabels(step).map(indexedText),
      testId: page.testIds,
      a11y: [...page.names, ...new Set(nodes.map((node) => indexedText(node.role)))]
    }
  }
}

/** A step as the full scan sees it; `before` is the page the agent saw before it, when known. */
export const entryOf = (step: StepRecord, before?: PageFacts): StepEntry => {
  const facts = factsOf(step, undefined, pathOf, before)
  const words = (field: Field) => identifierWords(facts.values[field])
  return {
    sessionId: step.sessionId,
    time: Date.parse(step.timestamp),
    timestamp: step.timestamp,
    tool: step.tool.name,
    screen: facts.screen,
    url: facts.url,
    target: step.tool.target,
    ok: step.outcome.ok,
    errorCode: step.outcome.error?.code,
    labels: stepLabels(step),
    similar: before ?? facts.page,
    words: {
      tool: words("tool"),
      screen: words("screen"),
      target: words("target"),
      label: words("label"),
      testId: words("testId"),
      a11y: words("a11y"),
      url: words("url")
    }
  }
}

/** Words of a session's goal, flow tags and tags. */
export const sessionWords = (metadata: SessionMetadata | undefined): ReadonlyArray<string> =>
  metadata === undefined
    ? []
    : [...new Set([...tokenize(indexedText(metadata.goal ?? "")), ...identifierWords([...metadata.flowTags, ...metadata.tags].map(indexedText))])]

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
  if (matchedGroups === 0) return { score: 0, matchedFields: [] }
  return { score: score + Math.floor((matchedGroups / groups.length) * COVERAGE_BONUS), matchedFields: [...matched] }
}

/** The most characters of one target value that a description shows. */
const SHOWN_TARGET_CHARS = 300

/** "testId:x", "role:button \"Sign in\"" (for a ref with a hint), "selector:#a within testId:form"; long values clipped. */
export const describeStepTarget = (target: StepTarget | undefined): string | undefined => {
  if (target === undefined) return undefined
  const shown = (value: string) => clipText(value, SHOWN_TARGET_CHARS)
  const main =
    target.testId !== undefined
      ? `testId:${shown(target.testId)}`
      : target.a11yHint !== undefined
        ? `role:${shown(target.a11yHint.role)} ${JSON.stringify(shown(target.a11yHint.name))}`
        : target.selector !== undefined
          ? `selector:${shown(target.selector)}`
          : target.a11yRef !== undefined
            ? `a11yRef:${shown(target.a11yRef)}`
            : undefined
  if (main === undefined) return undefined
  return target.within === undefined ? main : `${main} within ${shown(target.within)}`
}
