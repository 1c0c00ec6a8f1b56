// Prior knowledge written the plain way (Maps and sorts over entry lists), as the reference the typed-array
// version in src/knowledge/prior.ts must equal on every store. Both take the page before each step from
// the same PageTracker: what that page is, is defined once in src/knowledge/page.ts.
import type { PriorKnowledge, SessionMetadata, StepRecord } from "../../src/domain/knowledge.js"
import { describeStepTarget, entryOf, type StepEntry } from "../../src/knowledge/entry.js"
import { factsOfObservation, PageTracker } from "../../src/knowledge/page.js"
import {
  ACTIONABLE,
  confidenceOf,
  PRIOR_LIMITS,
  rationaleOf,
  round,
  screenTargets,
  similarityScore,
  suggestionTargets,
  type PriorInput
} from "../../src/knowledge/prior.js"
import { durableTarget } from "../../src/knowledge/targets.js"
import { clipText, SHOWN_CHARS } from "../../src/knowledge/text.js"

/** Entries in the order they were added, each with the page the agent saw before it. */
export class ReferenceCatalog {
  readonly entries: Array<StepEntry> = []
  private readonly sessions = new Map<string, SessionMetadata>()

  constructor(sessions: ReadonlyArray<SessionMetadata>, steps: ReadonlyArray<StepRecord>) {
    for (const session of sessions) this.sessions.set(session.sessionId, session)
    const pages = new PageTracker()
    for (const step of steps) {
      if (step.tool.name.startsWith("knowledge_")) continue
      const before = pages.before(step.sessionId)
      pages.apply(step.sessionId, step.observation)
      this.entries.push(entryOf(step, before))
    }
  }

  metadata(sessionId: string): SessionMetadata | undefined {
    return this.sessions.get(sessionId)
  }
}

interface Scored {
  readonly id: number
  readonly entry: StepEntry
  readonly score: number
  /** Same screen or same URL path and hash. */
  readonly here: boolean
}

const overlap = (values: ReadonlyArray<string>, present: ReadonlySet<string>) => values.filter((value) => present.has(value)).length

export const referencePriorKnowledge = (catalog: ReferenceCatalog, input: PriorInput): PriorKnowledge => {
  const since = input.now - PRIOR_LIMITS.windowHours * 3_600_000
  const here = factsOfObservation(input.observation)
  const testIds = new Set(here.testIds)
  const names = new Set(here.names)
  const scored: Array<Scored> = []
  catalog.entries.forEach((entry, id) => {
    if (entry.sessionId === input.currentSessionId || !(entry.time >= since)) return
    const similar = entry.similar
    const sameScreen = here.screen !== undefined && similar.screen === here.screen
    const samePlace = here.place !== undefined && similar.place === here.place
    const testIdOverlap = overlap(similar.testIds, testIds)
    const a11yOverlap = overlap(similar.names, names)
    if (!sameScreen && !samePlace && testIdOverlap === 0 && a11yOverlap === 0) return
    const score = similarityScore({ sameScreen, samePlace, testIdOverlap, a11yOverlap, actionable: ACTIONABLE.has(entry.tool) })
    scored.push({ id, entry, score, here: sameScreen || samePlace })
  })
  const byStep = (a: Scored, b: Scored) =>
    b.score - a.score || b.entry.time - a.entry.time || (a.entry.sessionId < b.entry.sessionId ? -1 : a.entry.sessionId > b.entry.sessionId ? 1 : 0) || a.id - b.id
  scored.sort(byStep)
  const latest = (rows: ReadonlyArray<Scored>) => rows.reduce((a, b) => (b.entry.time > a.entry.time ? b : a))

  const similarSteps = [...scored.filter((row) => row.entry.ok), ...scored.filter((row) => !row.entry.ok)].slice(0, PRIOR_LIMITS.similarSteps)

  const bySession = new Map<string, Array<Scored>>()
  for (const row of scored) bySession.set(row.entry.sessionId, [...(bySession.get(row.entry.sessionId) ?? []), row])
  const relatedSessions = [...bySession.values()]
    .map((rows) => ({ best: rows[0]!, last: latest(rows) }))
    .sort((a, b) => b.best.score - a.best.score || b.last.entry.time - a.last.entry.time || (a.best.entry.sessionId < b.best.entry.sessionId ? -1 : 1))
    .slice(0, PRIOR_LIMITS.sessions)

  const worked = new Set(scored.filter((row) => row.entry.ok).map((row) => describeStepTarget(row.entry.target)))
  const failures = new Map<string, Array<Scored>>()
  for (const row of scored) {
    const key = describeStepTarget(row.entry.target)
    if (row.entry.ok || !row.here || key === undefined) continue
    failures.set(key, [...(failures.get(key) ?? []), row])
  }
  const avoidRows = [...failures]
    .filter(([key, rows]) => rows.length >= PRIOR_LIMITS.minFailures && !worked.has(key))
    .map(([key, rows]) => ({ key, rows, last: latest(rows) }))
    .sort((a, b) => b.rows.length - a.rows.length || b.last.entry.time - a.last.entry.time || byStep(a.rows[0]!, b.rows[0]!))
  const avoided = new Set(avoidRows.map((row) => row.key))

  const groups = new Map<string, { ok: Array<Scored>; failed: number }>()
  for (const row of scored) {
    const key = describeStepTarget(row.entry.target)
    if (!ACTIONABLE.has(row.entry.tool) || key === undefined || avoided.has(key) || durableTarget(row.entry.target) === undefined) continue
    const group = groups.get(`${row.entry.tool} ${key}`) ?? { ok: [], failed: 0 }
    if (row.entry.ok) group.ok.push(row)
    else group.failed++
    groups.set(`${row.entry.tool} ${key}`, group)
  }
  const screen = screenTargets(input.observation)
  const suggestions = [...groups.values()]
    .filter((group) => group.ok.length > 0)
    .sort(
      (a, b) =>
        b.ok[0]!.score - a.ok[0]!.score || b.ok.length - b.failed - (a.ok.length - a.failed) || b.ok.length - a.ok.length || byStep(a.ok[0]!, b.ok[0]!)
    )
    .slice(0, PRIOR_LIMITS.suggestions)

  return {
    windowHours: PRIOR_LIMITS.windowHours,
    relatedSessions: relatedSessions.map(({ best, last }) => {
      const metadata = catalog.metadata(best.entry.sessionId)
      return {
        sessionId: best.entry.sessionId,
        ...(metadata?.goal !== undefined ? { goal: clipText(metadata.goal, SHOWN_CHARS.goal) } : {}),
        flowTags: (metadata?.flowTags ?? []).map((tag) => clipText(tag, SHOWN_CHARS.tag)),
        confidence: round(confidenceOf(best.score)),
        lastStepAt: last.entry.timestamp
      }
    }),
    similarSteps: similarSteps.map(({ entry, score }) => {
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
    suggestedNextActions: suggestions.map((group, index) => {
      const best = group.ok[0]!
      const target = best.entry.target!
      const { visible, ...targets } = suggestionTargets(
        { target, description: describeStepTarget(target), descriptionId: 0, durable: durableTarget(target) },
        screen
      )
      return {
        rank: index + 1,
        tool: best.entry.tool,
        rationale: rationaleOf({ here: best.here, sessions: new Set(group.ok.map((row) => row.entry.sessionId)).size, visible }),
        ...targets,
        confidence: round(confidenceOf(best.score)),
        succeeded: group.ok.length,
        ...(group.failed > 0 ? { failed: group.failed } : {})
      }
    }),
    avoid: avoidRows.slice(0, PRIOR_LIMITS.avoid).map(({ key, rows, last }) => ({
      target: key,
      failures: rows.length,
      ...(last.entry.errorCode !== undefined ? { lastError: last.entry.errorCode } : {})
    }))
  }
}
