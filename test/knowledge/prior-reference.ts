// Prior knowledge written the plain way (Maps and sorts over entry lists), as the reference the typed-array
// version in src/knowledge/prior.ts must equal on every store. Both take the page before each step from
// the same PageTracker: what that page is, is defined once in src/knowledge/page.ts.
import type { PriorKnowledge, SessionMetadata, StepRecord } from "../../src/domain/knowledge.js"
import type { StepTarget } from "../../src/domain/knowledge.js"
import { clickCountOf, describeStepTarget, entryOf, type StepEntry } from "../../src/knowledge/entry.js"
import { factsOfObservation, PageTracker } from "../../src/knowledge/page.js"
import {
  confidenceOf,
  PRIOR_LIMITS,
  fitsTarget,
  leanPrior,
  mostlyFailed,
  rationaleOf,
  relatedSession,
  round,
  screenTargets,
  similarityScore,
  suggestionTargets,
  type PriorInput
} from "../../src/knowledge/prior.js"
import { durableTarget, shownTargetOf } from "../../src/knowledge/targets.js"
import { priorActions } from "./fixtures.js"

/** How prior knowledge names a target: a ref alone by its element's durable form, or not at all. */
const shown = (target: StepTarget | undefined) => (target === undefined ? undefined : shownTargetOf(target, describeStepTarget(target), durableTarget(target)))

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
    const score = similarityScore({ sameScreen, samePlace, testIdOverlap, a11yOverlap, actionable: priorActions(entry.tool) !== undefined })
    scored.push({ id, entry, score, here: sameScreen || samePlace })
  })
  const byStep = (a: Scored, b: Scored) =>
    b.score - a.score || b.entry.time - a.entry.time || (a.entry.sessionId < b.entry.sessionId ? -1 : a.entry.sessionId > b.entry.sessionId ? 1 : 0) || a.id - b.id
  scored.sort(byStep)
  const latest = (rows: ReadonlyArray<Scored>) => rows.reduce((a, b) => (b.entry.time > a.entry.time ? b : a))

  // Only actions are flows an agent can redo: sessions are related by them, targets judged by them.
  const actions = scored.filter((row) => priorActions(row.entry.tool) !== undefined)
  const fits = (row: Scored) => fitsTarget(priorActions(row.entry.tool), row.entry.target)

  const bySession = new Map<string, Array<Scored>>()
  for (const row of actions) {
    if (row.entry.ok && fits(row)) bySession.set(row.entry.sessionId, [...(bySession.get(row.entry.sessionId) ?? []), row])
  }
  const relatedSessions = [...bySession.values()].map((rows) => rows[0]!).sort(byStep).slice(0, PRIOR_LIMITS.sessions)

  // Per target: sessions where a fitting action on it worked, sessions where every action on it failed.
  const judged = new Map<string, { worked: Set<string>; failedIn: Set<string>; here: Array<Scored> }>()
  for (const row of actions) {
    const key = shown(row.entry.target)
    if (key === undefined) continue
    const item = judged.get(key) ?? { worked: new Set<string>(), failedIn: new Set<string>(), here: [] }
    judged.set(key, item)
    if (row.entry.ok) {
      if (fits(row)) item.worked.add(row.entry.sessionId)
      continue
    }
    item.failedIn.add(row.entry.sessionId)
    if (row.here) item.here.push(row)
  }
  const distrusted = new Set(
    [...judged].filter(([, item]) => mostlyFailed(item.worked.size, [...item.failedIn].filter((session) => !item.worked.has(session)).length)).map(([key]) => key)
  )
  const avoidRows = [...judged]
    .filter(([key, item]) => distrusted.has(key) && item.here.length >= PRIOR_LIMITS.minFailures)
    .map(([key, item]) => ({ key, rows: item.here, last: latest(item.here) }))
    .sort((a, b) => b.rows.length - a.rows.length || b.last.entry.time - a.last.entry.time || byStep(a.rows[0]!, b.rows[0]!))

  // Only a target named durably: a step without one tells an agent of another session nothing.
  const replayable = (row: Scored) => {
    const key = shown(row.entry.target)
    return key !== undefined && !distrusted.has(key) && durableTarget(row.entry.target) !== undefined
  }
  const clicks = (row: Scored) => clickCountOf(row.entry.labels)
  const groups = new Map<string, { ok: Array<Scored>; failed: number }>()
  for (const row of actions) {
    if (!replayable(row)) continue
    const key = `${row.entry.tool} ${clicks(row) ?? 1} ${shown(row.entry.target)}`
    const group = groups.get(key) ?? { ok: [], failed: 0 }
    groups.set(key, group)
    if (!row.entry.ok) group.failed++
    else if (fits(row)) group.ok.push(row)
  }
  const screen = screenTargets(input.observation)
  const suggestions = [...groups]
    .filter(([, group]) => group.ok.length > 0)
    .sort(
      ([, a], [, b]) =>
        b.ok[0]!.score - a.ok[0]!.score || b.ok.length - b.failed - (a.ok.length - a.failed) || b.ok.length - a.ok.length || byStep(a.ok[0]!, b.ok[0]!)
    )
    .slice(0, PRIOR_LIMITS.suggestions)
  const suggested = new Set(suggestions.map(([key]) => key))
  const others = new Map<string, Scored>()
  for (const row of actions) {
    const key = `${row.entry.tool} ${clicks(row) ?? 1} ${shown(row.entry.target)}`
    if (!row.entry.ok || !fits(row) || !replayable(row) || suggested.has(key) || others.has(key)) continue
    others.set(key, row)
  }
  const similarSteps = [...others.values()].sort(byStep).slice(0, PRIOR_LIMITS.similarSteps)

  return leanPrior({
    suggestedNextActions: suggestions.map(([, group], index) => {
      const best = group.ok[0]!
      const target = best.entry.target!
      const { visible, ...targets } = suggestionTargets(
        { target, description: describeStepTarget(target), durable: durableTarget(target), shown: shown(target), shownId: 0 },
        screen
      )
      const count = clicks(best)
      return {
        rank: index + 1,
        tool: best.entry.tool,
        ...(count !== undefined ? { count } : {}),
        rationale: rationaleOf({ here: best.here, sessions: new Set(group.ok.map((row) => row.entry.sessionId)).size, visible }),
        ...targets,
        confidence: round(confidenceOf(best.score)),
        succeeded: group.ok.length,
        ...(group.failed > 0 ? { failed: group.failed } : {})
      }
    }),
    similarSteps: similarSteps.map((row) => {
      const count = clicks(row)
      return { tool: row.entry.tool, ...(count !== undefined ? { count } : {}), target: shown(row.entry.target)!, confidence: round(confidenceOf(row.score)) }
    }),
    avoid: avoidRows.slice(0, PRIOR_LIMITS.avoid).map(({ key, rows, last }) => ({
      target: key,
      failures: rows.length,
      ...(last.entry.errorCode !== undefined ? { lastError: last.entry.errorCode } : {})
    })),
    relatedSessions: relatedSessions.map((best) => relatedSession(best.entry.sessionId, catalog.metadata(best.entry.sessionId), best.score))
  })
}
