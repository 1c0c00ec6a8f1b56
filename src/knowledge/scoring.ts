// Scoring the step memory: the filters, the rank order, the per-query accumulator the index scores with,
// and `scanSearch`, the full scan that runs the reference scoring of entry.ts on every step (the index in
// catalog.ts must answer exactly the same).
import { isMemoryStep, type KnowledgeFilters, type SessionMetadata, type StepRecord, type StepSummary } from "../domain/knowledge.js"
import { describeStepTarget, entryOf, FIELD_WEIGHTS, FIELDS, scoreEntry, SESSION_WEIGHT, sessionWords, type StepEntry } from "./entry.js"
import { PageTracker } from "./page.js"
import { growInt32 } from "./postings.js"

export const HOUR_MS = 3_600_000

/** The sessions a read covers: all, these, or all but these (other clients' live sessions it may not see). */
export type SessionSet = "all" | ReadonlySet<string> | { readonly except: ReadonlySet<string> }

export interface SearchInput {
  readonly groups: ReadonlyArray<ReadonlyArray<string>>
  readonly limit: number
  readonly sessions: SessionSet
  readonly filters: KnowledgeFilters | undefined
  readonly now: number
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

/** Whether a session's own values pass the flow tag and tag filters. */
export const sessionPasses = (metadata: SessionMetadata | undefined, filters: KnowledgeFilters | undefined): boolean =>
  filters === undefined ||
  ((filters.flowTag === undefined || (metadata?.flowTags.includes(filters.flowTag) ?? false)) &&
    (filters.tag === undefined || (metadata?.tags.includes(filters.tag) ?? false)))

export interface Scored {
  readonly score: number
  readonly matchedFields: ReadonlyArray<string>
}

export const summaryOf = (
  step: {
    readonly sessionId: string
    readonly timestamp: string
    readonly tool: string
    readonly screen: string | undefined
    readonly url: string | undefined
    readonly target: string | undefined
    readonly ok: boolean
    readonly errorCode: string | undefined
    readonly labels: ReadonlyArray<string>
  },
  scored: Scored | undefined
): StepSummary => ({
  sessionId: step.sessionId,
  timestamp: step.timestamp,
  tool: step.tool,
  ...(step.screen !== undefined ? { screen: step.screen } : {}),
  ...(step.url !== undefined ? { url: step.url } : {}),
  ...(step.target !== undefined ? { target: step.target } : {}),
  ok: step.ok,
  ...(step.errorCode !== undefined ? { errorCode: step.errorCode } : {}),
  labels: step.labels,
  ...(scored ? { score: scored.score, matchedFields: scored.matchedFields } : {})
})

export const summarize = (entry: StepEntry, scored?: Scored): StepSummary =>
  summaryOf({ ...entry, target: describeStepTarget(entry.target) }, scored)

export interface Ranked {
  readonly entry: StepEntry
  readonly score: number
  readonly matchedFields: ReadonlyArray<string>
}

/** Steps that worked first (they show how to do it), then relevance; among equals the newer step; then a fixed order so index and scan agree exactly. */
export const byRank = (a: Ranked, b: Ranked) =>
  Number(b.entry.ok) - Number(a.entry.ok) ||
  b.score - a.score ||
  b.entry.time - a.entry.time ||
  (a.entry.sessionId < b.entry.sessionId ? -1 : a.entry.sessionId > b.entry.sessionId ? 1 : 0) ||
  (a.entry.tool < b.entry.tool ? -1 : a.entry.tool > b.entry.tool ? 1 : 0) ||
  (describeStepTarget(a.entry.target) ?? "").localeCompare(describeStepTarget(b.entry.target) ?? "")

/** Above any score: a step that worked ranks above every step that failed. */
export const RANK_TIER = 1 << 24

export const inSessions = (sessions: SessionSet, sessionId: string) =>
  sessions === "all" || ("except" in sessions ? !sessions.except.has(sessionId) : sessions.has(sessionId))

/** Field names by bit position in a match mask; the session's own words come last. */
export const FIELD_NAMES: ReadonlyArray<string> = [...FIELDS, "session"]
export const SESSION_FIELD = FIELDS.length
export const WEIGHTS: ReadonlyArray<number> = [...FIELDS.map((field) => FIELD_WEIGHTS[field]), SESSION_WEIGHT]
export const BITS = Array.from({ length: 1 << FIELD_NAMES.length }, (_, mask) => {
  let count = 0
  for (let bit = mask; bit !== 0; bit >>= 1) count += bit & 1
  return count
})

/**
 * Per-step scores of one query, reused between queries. One stamp per step says when it was last visited,
 * from a counter that only grows: a stamp older than the query's start means "not touched yet", older than
 * the group's start "not matched by this query word yet", equal to the pass "already counted in this field".
 */
export class Accumulator {
  score = new Int32Array(0)
  /** Query word groups that matched the step. */
  groups = new Int32Array(0)
  /** Bit per matched field, and the fields in the order they first matched (3 bits each). */
  mask = new Int32Array(0)
  order = new Int32Array(0)
  seen = new Int32Array(0)
  sessionSeen = new Int32Array(0)
  /** Steps touched by the current query, in the order first met. */
  touched = new Int32Array(0)
  count = 0
  private clock = 0
  queryStart = 0
  groupStart = 0

  begin(steps: number, sessions: number): void {
    this.score = growInt32(this.score, steps)
    this.groups = growInt32(this.groups, steps)
    this.mask = growInt32(this.mask, steps)
    this.order = growInt32(this.order, steps)
    this.seen = growInt32(this.seen, steps)
    this.touched = growInt32(this.touched, steps)
    this.sessionSeen = growInt32(this.sessionSeen, sessions)
    if (this.clock >= 0x7ffff000) {
      this.clock = 0
      this.seen.fill(0)
      this.sessionSeen.fill(0)
    }
    this.count = 0
    this.queryStart = this.tick()
  }

  tick(): number {
    return ++this.clock
  }

  /** Adds `weight` for field `field` to every step of `ids` not yet counted in pass `pass`. */
  visit(ids: Int32Array, length: number, pass: number, field: number, weight: number): void {
    const { score, groups, mask, order, seen, touched, queryStart, groupStart } = this
    const bit = 1 << field
    for (let i = 0; i < length; i++) {
      const id = ids[i]!
      const last = seen[id]!
      if (last === pass) continue
      seen[id] = pass
      if (last < queryStart) {
        touched[this.count++] = id
        score[id] = weight
        groups[id] = 1
        mask[id] = bit
        order[id] = field
        continue
      }
      score[id] = score[id]! + weight
      if (last < groupStart) groups[id] = groups[id]! + 1
      const matched = mask[id]!
      if ((matched & bit) === 0) {
        order[id] = order[id]! | (field << (3 * BITS[matched]!))
        mask[id] = matched | bit
      }
    }
  }
}

export const compareStrings = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

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
  // The pages each session saw, as the index tracks them: an interaction belongs to the screen before it.
  const pages = new PageTracker()
  for (const step of steps) {
    if (isMemoryStep(step)) continue
    const before = pages.before(step.sessionId)
    pages.apply(step.sessionId, step.observation)
    if (!inSessions(input.sessions, step.sessionId)) continue
    const entry = entryOf(step, before)
    if (!passesFilters(entry, metadata.get(step.sessionId), input.filters, input.now)) continue
    const scored = scoreEntry(entry, words.get(step.sessionId) ?? [], input.groups)
    if (scored.score > 0) ranked.push({ entry, ...scored })
  }
  return ranked.sort(byRank).slice(0, input.limit).map((item) => summarize(item.entry, item))
}
