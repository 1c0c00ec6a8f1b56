// The first implementation of prior knowledge (a Map per call over plain entry lists), kept as the reference
// the typed-array version in src/knowledge/prior.ts must equal on every store.
import type { PriorKnowledge, SessionMetadata, StepRecord } from "../../src/domain/knowledge.js"
import { describeStepTarget, entryOf, type StepEntry } from "../../src/knowledge/entry.js"
import { confidenceOf, PRIOR_LIMITS, similarityScore, type PriorInput } from "../../src/knowledge/prior.js"
import { durableTarget } from "../../src/knowledge/targets.js"

const ACTIONABLE = new Set(["click", "type", "navigate", "wait_for", "switch_to_tab", "close_tab", "wait_for_notification"])

const round = (value: number) => Math.round(value * 1000) / 1000

interface Counts {
  screen: boolean
  place: boolean
  testIds: number
  a11y: number
}

const placeOf = (url: string) => {
  if (!URL.canParse(url)) return undefined
  const parsed = new URL(url)
  return `${parsed.pathname}${parsed.hash}`
}

/** Entries and exact-value maps built the way the first index built them. */
export class ReferenceCatalog {
  private readonly entries: Array<StepEntry> = []
  private readonly sessions = new Map<string, SessionMetadata>()
  readonly byScreen = new Map<string, Array<number>>()
  readonly byPlace = new Map<string, Array<number>>()
  readonly byTestId = new Map<string, Array<number>>()
  readonly byA11yName = new Map<string, Array<number>>()

  constructor(sessions: ReadonlyArray<SessionMetadata>, steps: ReadonlyArray<StepRecord>) {
    for (const session of sessions) this.sessions.set(session.sessionId, session)
    const push = (map: Map<string, Array<number>>, key: string, id: number) => {
      const list = map.get(key)
      if (list === undefined) map.set(key, [id])
      else if (list[list.length - 1] !== id) list.push(id)
    }
    for (const step of steps) {
      if (step.tool.name.startsWith("knowledge_")) continue
      const entry = entryOf(step)
      const id = this.entries.length
      this.entries.push(entry)
      if (entry.screen !== undefined) push(this.byScreen, entry.screen, id)
      if (entry.place !== undefined) push(this.byPlace, entry.place, id)
      for (const testId of entry.testIds) push(this.byTestId, testId, id)
      for (const name of entry.a11yNames) push(this.byA11yName, name, id)
    }
  }

  entry(id: number): StepEntry {
    return this.entries[id]!
  }

  metadata(sessionId: string): SessionMetadata | undefined {
    return this.sessions.get(sessionId)
  }
}

/** The original per-call implementation of prior knowledge, kept verbatim as the reference the index must equal. */
export const referencePriorKnowledge = (catalog: ReferenceCatalog, input: PriorInput): PriorKnowledge => {
  const since = input.now - PRIOR_LIMITS.windowHours * 3_600_000
  const counts = new Map<number, Counts>()
  const visit = (ids: ReadonlyArray<number> | undefined, apply: (counts: Counts) => void) => {
    if (ids === undefined) return
    for (const id of ids) {
      const entry = catalog.entry(id)
      if (entry.sessionId === input.currentSessionId || !(entry.time >= since)) continue
      let row = counts.get(id)
      if (row === undefined) counts.set(id, (row = { screen: false, place: false, testIds: 0, a11y: 0 }))
      apply(row)
    }
  }
  const screen = input.observation.state.currentScreen
  // "unknown" is no screen at all, and an empty name says nothing: neither may make two steps similar.
  if (screen !== "" && screen !== "unknown") visit(catalog.byScreen.get(screen), (row) => (row.screen = true))
  const place = placeOf(input.observation.state.currentUrl)
  if (place !== undefined) visit(catalog.byPlace.get(place), (row) => (row.place = true))
  for (const testId of new Set((input.observation.testIds ?? []).map((item) => item.testId.toLowerCase()))) {
    visit(catalog.byTestId.get(testId), (row) => row.testIds++)
  }
  const names = new Set((input.observation.a11y?.nodes ?? []).map((node) => node.name.trim().toLowerCase()).filter((name) => name !== ""))
  for (const name of names) visit(catalog.byA11yName.get(name), (row) => row.a11y++)

  const scored: Array<{ readonly entry: StepEntry; readonly score: number; readonly screenMatch: boolean }> = []
  for (const [id, row] of counts) {
    const entry = catalog.entry(id)
    const score = similarityScore({
      sameScreen: row.screen,
      samePlace: row.place,
      testIdOverlap: row.testIds,
      a11yOverlap: row.a11y,
      actionable: ACTIONABLE.has(entry.tool)
    })
    scored.push({ entry, score, screenMatch: row.screen || row.place })
  }
  scored.sort((a, b) => b.score - a.score || b.entry.time - a.entry.time || a.entry.sessionId.localeCompare(b.entry.sessionId))

  // Avoid: targets that failed at least twice on this very screen.
  const failures = new Map<string, { count: number; lastError: string | undefined; time: number }>()
  for (const { entry, screenMatch } of scored) {
    const key = describeStepTarget(entry.target)
    if (entry.ok || !screenMatch || key === undefined) continue
    const row = failures.get(key) ?? { count: 0, lastError: undefined, time: -Infinity }
    row.count++
    if (entry.time > row.time) {
      row.time = entry.time
      row.lastError = entry.errorCode
    }
    failures.set(key, row)
  }
  const avoid = [...failures]
    .filter(([, row]) => row.count >= PRIOR_LIMITS.minFailures)
    .sort((a, b) => b[1].count - a[1].count || b[1].time - a[1].time)
    .slice(0, PRIOR_LIMITS.avoid)
    .map(([target, row]) => ({ target, failures: row.count, ...(row.lastError !== undefined ? { lastError: row.lastError } : {}) }))
  const avoided = new Set(failures.keys())
  for (const [key, row] of failures) if (row.count < PRIOR_LIMITS.minFailures) avoided.delete(key)

  // Suggestions: only what worked, only with a target that can be replayed, never something to avoid.
  const suggestions = new Map<string, { tool: string; durable: NonNullable<ReturnType<typeof durableTarget>>; score: number; succeeded: number }>()
  for (const { entry, score } of scored) {
    if (!entry.ok || !ACTIONABLE.has(entry.tool)) continue
    const key = describeStepTarget(entry.target)
    const durable = durableTarget(entry.target)
    if (key === undefined || durable === undefined || avoided.has(key)) continue
    const id = `${entry.tool} ${key}`
    const known = suggestions.get(id)
    if (known === undefined) suggestions.set(id, { tool: entry.tool, durable, score, succeeded: 1 })
    else known.succeeded++
  }

  const sessions = new Map<string, { best: number; last: StepEntry }>()
  for (const { entry, score } of scored) {
    const row = sessions.get(entry.sessionId)
    if (row === undefined) sessions.set(entry.sessionId, { best: score, last: entry })
    else if (entry.time > row.last.time) row.last = entry
  }

  return {
    windowHours: PRIOR_LIMITS.windowHours,
    relatedSessions: [...sessions]
      .sort((a, b) => b[1].best - a[1].best || b[1].last.time - a[1].last.time || a[0].localeCompare(b[0]))
      .slice(0, PRIOR_LIMITS.sessions)
      .map(([sessionId, row]) => {
        const metadata = catalog.metadata(sessionId)
        return {
          sessionId,
          ...(metadata?.goal !== undefined ? { goal: metadata.goal } : {}),
          flowTags: metadata?.flowTags ?? [],
          confidence: round(confidenceOf(row.best)),
          lastStepAt: row.last.timestamp
        }
      }),
    similarSteps: scored.slice(0, PRIOR_LIMITS.similarSteps).map(({ entry, score }) => {
      const target = describeStepTarget(entry.target)
      return {
        sessionId: entry.sessionId,
        timestamp: entry.timestamp,
        tool: entry.tool,
        ...(target !== undefined ? { target } : {}),
        ok: entry.ok,
        confidence: round(confidenceOf(score))
      }
    }),
    suggestedNextActions: [...suggestions.values()]
      .sort((a, b) => b.score - a.score || b.succeeded - a.succeeded)
      .slice(0, PRIOR_LIMITS.suggestions)
      .map((row) => ({
        tool: row.tool,
        preferredTarget: row.durable.args,
        fallbackTargets: row.durable.fallbacks,
        confidence: round(confidenceOf(row.score)),
        succeeded: row.succeeded
      })),
    avoid
  }
}
