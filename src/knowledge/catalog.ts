// The in-memory inverted index over step memory, and the queries that use it. The same scoring runs in
// `scanSearch`, the full scan, so the index is only ever a way to look at fewer steps.
import type { KnowledgeFilters, SessionMetadata, SessionSummary, StepRecord, StepSummary } from "../domain/knowledge.js"
import {
  describeStepTarget,
  entryOf,
  FIELDS,
  makeIntern,
  scoreEntry,
  sessionWords,
  type StepEntry
} from "./entry.js"
import { wordMatches } from "./text.js"

const HOUR_MS = 3_600_000

interface SessionSlot {
  metadata: SessionMetadata | undefined
  words: ReadonlyArray<string>
  /** Ids of the session's steps, in the order they were added. */
  readonly ids: Array<number>
}

/** Which sessions a query covers: all of them, or a set. */
export type SessionSet = "all" | ReadonlySet<string>

export interface SearchInput {
  readonly groups: ReadonlyArray<ReadonlyArray<string>>
  readonly limit: number
  readonly sessions: SessionSet
  readonly filters: KnowledgeFilters | undefined
  readonly now: number
}

const push = <K>(map: Map<K, Array<number>>, key: K, id: number) => {
  const list = map.get(key)
  if (list === undefined) map.set(key, [id])
  else if (list[list.length - 1] !== id) list.push(id)
}

/** True when a step passes the filters: they mean the same in every scope, and time is the step's own. */
export const passesFilters = (
  entry: StepEntry,
  metadata: SessionMetadata | undefined,
  filters: KnowledgeFilters | undefined,
  now: number
): boolean => {
  if (filters === undefined) return true
  if (filters.flowTag !== undefined && !(metadata?.flowTags.includes(filters.flowTag) ?? false)) return false
  if (filters.tag !== undefined && !(metadata?.tags.includes(filters.tag) ?? false)) return false
  if (filters.screen !== undefined && entry.screen !== filters.screen) return false
  if (filters.sinceHours !== undefined && !(entry.time >= now - filters.sinceHours * HOUR_MS)) return false
  return true
}

export const summarize = (entry: StepEntry, scored?: { readonly score: number; readonly matchedFields: ReadonlyArray<string> }): StepSummary => {
  const target = describeStepTarget(entry.target)
  return {
    sessionId: entry.sessionId,
    timestamp: entry.timestamp,
    tool: entry.tool,
    ...(entry.screen !== undefined ? { screen: entry.screen } : {}),
    ...(entry.url !== undefined ? { url: entry.url } : {}),
    ...(target !== undefined ? { target } : {}),
    ok: entry.ok,
    ...(entry.errorCode !== undefined ? { errorCode: entry.errorCode } : {}),
    labels: entry.labels,
    ...(scored ? { score: scored.score, matchedFields: scored.matchedFields } : {})
  }
}

interface Ranked {
  readonly entry: StepEntry
  readonly score: number
  readonly matchedFields: ReadonlyArray<string>
}

/** Relevance first; among equals the newer step; then a fixed order so index and scan agree exactly. */
const byRank = (a: Ranked, b: Ranked) =>
  b.score - a.score ||
  b.entry.time - a.entry.time ||
  (a.entry.sessionId < b.entry.sessionId ? -1 : a.entry.sessionId > b.entry.sessionId ? 1 : 0) ||
  (a.entry.tool < b.entry.tool ? -1 : a.entry.tool > b.entry.tool ? 1 : 0) ||
  (describeStepTarget(a.entry.target) ?? "").localeCompare(describeStepTarget(b.entry.target) ?? "")

const inSessions = (sessions: SessionSet, sessionId: string) => sessions === "all" || sessions.has(sessionId)

export class Catalog {
  private readonly entries: Array<StepEntry> = []
  private readonly slots = new Map<string, SessionSlot>()
  /** Word → ids of steps having it in any scored field. */
  private readonly postings = new Map<string, Array<number>>()
  /** Word → sessions whose goal or tags have it. */
  private readonly sessionPostings = new Map<string, Set<string>>()
  /** Exact values → step ids, for prior knowledge. */
  readonly byScreen = new Map<string, Array<number>>()
  readonly byPlace = new Map<string, Array<number>>()
  readonly byTestId = new Map<string, Array<number>>()
  readonly byA11yName = new Map<string, Array<number>>()
  private readonly intern = makeIntern()

  get size(): number {
    return this.entries.length
  }

  entry(id: number): StepEntry {
    return this.entries[id]!
  }

  metadata(sessionId: string): SessionMetadata | undefined {
    return this.slots.get(sessionId)?.metadata
  }

  sessionIds(): ReadonlyArray<string> {
    return [...this.slots.keys()]
  }

  hasMetadata(sessionId: string): boolean {
    return this.slots.get(sessionId)?.metadata !== undefined
  }

  private slot(sessionId: string): SessionSlot {
    let slot = this.slots.get(sessionId)
    if (slot === undefined) {
      slot = { metadata: undefined, words: [], ids: [] }
      this.slots.set(this.intern(sessionId), slot)
    }
    return slot
  }

  addSession(metadata: SessionMetadata): void {
    const slot = this.slot(metadata.sessionId)
    for (const word of slot.words) this.sessionPostings.get(word)?.delete(metadata.sessionId)
    slot.metadata = metadata
    slot.words = sessionWords(metadata).map(this.intern)
    for (const word of slot.words) {
      let set = this.sessionPostings.get(word)
      if (set === undefined) this.sessionPostings.set(word, (set = new Set()))
      set.add(metadata.sessionId)
    }
  }

  /** Indexes a step; the memory's own queries (knowledge_* calls) are not steps of a flow and are left out. */
  addStep(step: StepRecord): StepEntry | undefined {
    if (step.tool.name.startsWith("knowledge_")) return undefined
    const entry = entryOf(step, this.intern)
    const id = this.entries.length
    this.entries.push(entry)
    this.slot(entry.sessionId).ids.push(id)
    for (const field of FIELDS) for (const word of entry.words[field]) push(this.postings, word, id)
    if (entry.screen !== undefined) push(this.byScreen, entry.screen, id)
    if (entry.place !== undefined) push(this.byPlace, entry.place, id)
    for (const testId of entry.testIds) push(this.byTestId, testId, id)
    for (const name of entry.a11yNames) push(this.byA11yName, name, id)
    return entry
  }

  /** Steps of the given sessions that pass the filters, in no particular order. */
  private *filtered(sessions: SessionSet, filters: KnowledgeFilters | undefined, now: number): Generator<StepEntry> {
    const ids: Iterable<string> = sessions === "all" ? this.slots.keys() : sessions
    for (const sessionId of ids) {
      const slot = this.slots.get(sessionId)
      if (slot === undefined) continue
      for (const id of slot.ids) {
        const entry = this.entries[id]!
        if (passesFilters(entry, slot.metadata, filters, now)) yield entry
      }
    }
  }

  /** The ids of steps a query word group can match: its words, their longer forms, and steps of sessions whose words match. */
  private candidates(groups: ReadonlyArray<ReadonlyArray<string>>): Set<number> {
    const ids = new Set<number>()
    for (const group of groups) {
      for (const queryWord of group) {
        const exact = this.postings.get(queryWord)
        if (exact) for (const id of exact) ids.add(id)
        if (queryWord.length >= 3) {
          for (const [word, list] of this.postings) {
            if (word !== queryWord && wordMatches(word, queryWord)) for (const id of list) ids.add(id)
          }
        }
        for (const [word, sessions] of this.sessionPostings) {
          if (!wordMatches(word, queryWord)) continue
          for (const sessionId of sessions) for (const id of this.slots.get(sessionId)?.ids ?? []) ids.add(id)
        }
      }
    }
    return ids
  }

  search(input: SearchInput): ReadonlyArray<StepSummary> {
    if (input.groups.length === 0) return []
    const ranked: Array<Ranked> = []
    for (const id of this.candidates(input.groups)) {
      const entry = this.entries[id]!
      if (!inSessions(input.sessions, entry.sessionId)) continue
      const slot = this.slots.get(entry.sessionId)
      if (!passesFilters(entry, slot?.metadata, input.filters, input.now)) continue
      const scored = scoreEntry(entry, slot?.words ?? [], input.groups)
      if (scored.score > 0) ranked.push({ entry, ...scored })
    }
    return ranked.sort(byRank).slice(0, input.limit).map((item) => summarize(item.entry, item))
  }

  /** The latest `n` steps passing the filters, oldest first. */
  last(n: number, sessions: SessionSet, filters: KnowledgeFilters | undefined, now: number): ReadonlyArray<StepSummary> {
    const all = [...this.filtered(sessions, filters, now)]
    all.sort((a, b) => a.time - b.time)
    return all.slice(Math.max(0, all.length - n)).map((entry) => summarize(entry))
  }

  /** Sessions with at least one step passing the filters (or, without step filters, with no steps yet), newest activity first. */
  sessions(limit: number, filters: KnowledgeFilters | undefined, now: number): ReadonlyArray<SessionSummary> {
    const stepFilters = filters?.screen !== undefined || filters?.sinceHours !== undefined
    const rows: Array<{ readonly summary: SessionSummary; readonly activity: number }> = []
    for (const [sessionId, slot] of this.slots) {
      if (slot.metadata === undefined) continue
      let count = 0
      let last = -Infinity
      let lastStamp: string | undefined
      for (const id of slot.ids) {
        const entry = this.entries[id]!
        if (!passesFilters(entry, slot.metadata, filters, now)) continue
        count++
        if (entry.time > last) {
          last = entry.time
          lastStamp = entry.timestamp
        }
      }
      const sessionPasses =
        (filters?.flowTag === undefined || slot.metadata.flowTags.includes(filters.flowTag)) &&
        (filters?.tag === undefined || slot.metadata.tags.includes(filters.tag))
      if (!sessionPasses || (count === 0 && (stepFilters || slot.ids.length > 0))) continue
      const created = Date.parse(slot.metadata.createdAt)
      rows.push({
        summary: {
          sessionId,
          createdAt: slot.metadata.createdAt,
          ...(slot.metadata.goal !== undefined ? { goal: slot.metadata.goal } : {}),
          flowTags: slot.metadata.flowTags,
          tags: slot.metadata.tags,
          stepCount: count,
          ...(lastStamp !== undefined ? { lastStepAt: lastStamp } : {})
        },
        activity: Math.max(last, Number.isNaN(created) ? -Infinity : created)
      })
    }
    rows.sort((a, b) => b.activity - a.activity || a.summary.sessionId.localeCompare(b.summary.sessionId))
    return rows.slice(0, limit).map((row) => row.summary)
  }
}

/**
 * The full scan: every step of the given records scored one by one, the way upstream does on each
 * query. The benchmark's baseline and the index's reference in tests.
 */
export const scanSearch = (
  sessions: ReadonlyArray<SessionMetadata>,
  steps: Iterable<StepRecord>,
  input: SearchInput
): ReadonlyArray<StepSummary> => {
  if (input.groups.length === 0) return []
  const metadata = new Map(sessions.map((session) => [session.sessionId, session]))
  const words = new Map(sessions.map((session) => [session.sessionId, sessionWords(session)]))
  const ranked: Array<Ranked> = []
  for (const step of steps) {
    if (!inSessions(input.sessions, step.sessionId) || step.tool.name.startsWith("knowledge_")) continue
    const entry = entryOf(step)
    if (!passesFilters(entry, metadata.get(step.sessionId), input.filters, input.now)) continue
    const scored = scoreEntry(entry, words.get(step.sessionId) ?? [], input.groups)
    if (scored.score > 0) ranked.push({ entry, ...scored })
  }
  return ranked.sort(byRank).slice(0, input.limit).map((item) => summarize(item.entry, item))
}
