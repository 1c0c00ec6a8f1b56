// Prior knowledge for describe_screen: what other recent sessions did on a screen like this one,
// scored with the SPEC-07 similarity weights from the index's exact-value maps (no file reads), with
// per-step counters in typed arrays and top-k selection instead of sorting every similar step.
import type { PriorKnowledge } from "../domain/knowledge.js"
import type { Observation } from "../domain/observation.js"
import type { Catalog } from "./catalog.js"
import { placeOf } from "./entry.js"
import { growInt32, growUint8, type IdList, topK } from "./postings.js"

export const SIMILARITY_WEIGHTS = { sameScreen: 8, samePlace: 6, testIdOverlap: 3, a11yOverlap: 2, actionableTool: 2 } as const
export const OVERLAP_CAPS = { testIds: 3, a11yNames: 2 } as const
/** 8 + 6 + 3×3 + 2×2 + 2 = 29: confidence = score / 29, so a perfect match is exactly 1. */
export const MAX_SIMILARITY_SCORE =
  SIMILARITY_WEIGHTS.sameScreen +
  SIMILARITY_WEIGHTS.samePlace +
  SIMILARITY_WEIGHTS.testIdOverlap * OVERLAP_CAPS.testIds +
  SIMILARITY_WEIGHTS.a11yOverlap * OVERLAP_CAPS.a11yNames +
  SIMILARITY_WEIGHTS.actionableTool

export const PRIOR_LIMITS = { windowHours: 48, sessions: 5, similarSteps: 10, suggestions: 5, avoid: 5, minFailures: 2 } as const

const ACTIONABLE = new Set([
  "click",
  "type",
  "press_key",
  "select_option",
  "hover",
  "navigate",
  "wait_for",
  "switch_to_tab",
  "close_tab",
  "wait_for_notification"
])

export interface Similarity {
  readonly sameScreen: boolean
  readonly samePlace: boolean
  readonly testIdOverlap: number
  readonly a11yOverlap: number
  readonly actionable: boolean
}

export const similarityScore = (similarity: Similarity): number =>
  (similarity.sameScreen ? SIMILARITY_WEIGHTS.sameScreen : 0) +
  (similarity.samePlace ? SIMILARITY_WEIGHTS.samePlace : 0) +
  SIMILARITY_WEIGHTS.testIdOverlap * Math.min(similarity.testIdOverlap, OVERLAP_CAPS.testIds) +
  SIMILARITY_WEIGHTS.a11yOverlap * Math.min(similarity.a11yOverlap, OVERLAP_CAPS.a11yNames) +
  (similarity.actionable ? SIMILARITY_WEIGHTS.actionableTool : 0)

export const confidenceOf = (score: number): number => Math.min(score / MAX_SIMILARITY_SCORE, 1)

const round = (value: number) => Math.round(value * 1000) / 1000

export interface PriorInput {
  readonly currentSessionId: string | undefined
  readonly observation: Observation
  readonly now: number
}

const SCREEN = 1
const PLACE = 2

/** Per-step counters of one call, reused between calls: a slot is live only when its stamp is the call's. */
class Counters {
  stamp = new Int32Array(0)
  flags = new Int32Array(0)
  testIds = new Int32Array(0)
  a11y = new Int32Array(0)
  score = new Int32Array(0)
  /** Where the step was first met: the tie-break that keeps the order of the first implementation. */
  position = new Int32Array(0)
  sessionStamp = new Int32Array(0)
  sessionFirst = new Int32Array(0)
  sessionLast = new Int32Array(0)
  /** Steps met by the current call, in the order first met. */
  touched = new Int32Array(0)
  avoided = new Uint8Array(0)
  private clock = 0

  begin(steps: number, sessions: number): number {
    this.stamp = growInt32(this.stamp, steps)
    this.flags = growInt32(this.flags, steps)
    this.testIds = growInt32(this.testIds, steps)
    this.a11y = growInt32(this.a11y, steps)
    this.score = growInt32(this.score, steps)
    this.position = growInt32(this.position, steps)
    this.sessionStamp = growInt32(this.sessionStamp, sessions)
    this.sessionFirst = growInt32(this.sessionFirst, sessions)
    this.sessionLast = growInt32(this.sessionLast, sessions)
    this.touched = growInt32(this.touched, steps)
    if (this.clock >= 0x7ffffff0) {
      this.clock = 0
      this.stamp.fill(0)
      this.sessionStamp.fill(0)
    }
    return ++this.clock
  }
}

const countersOf = new WeakMap<Catalog, Counters>()

/** Prior knowledge for the screen in `observation`, from other sessions of the last 48 hours. */
export const priorKnowledge = (catalog: Catalog, input: PriorInput): PriorKnowledge => {
  const steps = catalog.steps
  const since = input.now - PRIOR_LIMITS.windowHours * 3_600_000
  const sessionCount = catalog.sessionIds().length
  let counters = countersOf.get(catalog)
  if (counters === undefined) countersOf.set(catalog, (counters = new Counters()))
  const call = counters.begin(steps.size, sessionCount)
  const { stamp, flags, testIds, a11y, score, position, sessionStamp, sessionFirst, sessionLast, touched } = counters
  const current = input.currentSessionId === undefined ? undefined : catalog.sessionIndex(input.currentSessionId)
  const time = steps.time
  let count = 0
  const visit = (list: IdList | undefined, kind: "screen" | "place" | "testId" | "a11y") => {
    if (list === undefined) return
    const ids = list.ids
    for (let i = 0; i < list.length; i++) {
      const id = ids[i]!
      if (steps.session[id] === current || !(time[id]! >= since)) continue
      if (stamp[id] !== call) {
        stamp[id] = call
        flags[id] = 0
        testIds[id] = 0
        a11y[id] = 0
        position[id] = count
        touched[count++] = id
      }
      if (kind === "screen") flags[id] = flags[id]! | SCREEN
      else if (kind === "place") flags[id] = flags[id]! | PLACE
      else if (kind === "testId") testIds[id] = testIds[id]! + 1
      else a11y[id] = a11y[id]! + 1
    }
  }
  const screen = input.observation.state.currentScreen
  // "unknown" is no screen at all, and an empty name says nothing: neither may make two steps similar.
  if (screen !== "" && screen !== "unknown") visit(catalog.byScreen.get(screen), "screen")
  const place = placeOf(input.observation.state.currentUrl)
  if (place !== undefined) visit(catalog.byPlace.get(place), "place")
  for (const testId of new Set((input.observation.testIds ?? []).map((item) => item.testId.toLowerCase()))) {
    visit(catalog.byTestId.get(testId), "testId")
  }
  const names = new Set((input.observation.a11y?.nodes ?? []).map((node) => node.name.trim().toLowerCase()).filter((name) => name !== ""))
  for (const name of names) visit(catalog.byA11yName.get(name), "a11y")

  const actionable = steps.tools.map((tool) => ACTIONABLE.has(tool))
  // Each loop is its own function: V8 optimizes them one by one instead of deoptimizing one large function.
  const scoreSteps = () => {
    for (let i = 0; i < count; i++) {
      const id = touched[i]!
      score[id] = similarityScore({
        sameScreen: (flags[id]! & SCREEN) !== 0,
        samePlace: (flags[id]! & PLACE) !== 0,
        testIdOverlap: testIds[id]!,
        a11yOverlap: a11y[id]!,
        actionable: actionable[steps.tool[id]!]!
      })
    }
  }
  scoreSteps()
  const sessionIdOf = (id: number) => catalog.sessionOf(id).sessionId
  /** The order similar steps are listed in: score, then newer, then session id, then first met. */
  const before = (a: number, b: number) =>
    (score[b]! - score[a]! || time[b]! - time[a]! || sessionIdOf(a).localeCompare(sessionIdOf(b)) || position[a]! - position[b]!) < 0
  /** Of two steps, the one a walk in listed order keeps as "latest": the newer, or the earlier listed among equal times. */
  const later = (candidate: number, known: number) =>
    time[candidate]! > time[known]! || (time[candidate] === time[known] && before(candidate, known))

  const similar = topK(PRIOR_LIMITS.similarSteps, before)
  // Avoid: targets that failed at least twice on this very screen.
  const failures = new Map<number, { count: number; first: number; latest: number }>()
  // Once the heap is full, a lower score than its worst can never get in.
  let floor = -1
  const rankSteps = () => {
    for (let i = 0; i < count; i++) {
      const id = touched[i]!
      if (score[id]! >= floor) {
        similar.offer(id)
        const worst = similar.worst()
        if (worst !== undefined) floor = score[worst]!
      }
      const session = steps.session[id]!
      if (sessionStamp[session] !== call) {
        sessionStamp[session] = call
        sessionFirst[session] = id
        sessionLast[session] = -1
      } else if (score[id]! >= score[sessionFirst[session]!]! && before(id, sessionFirst[session]!)) sessionFirst[session] = id
      if (!Number.isNaN(time[id]!) && (sessionLast[session] === -1 || later(id, sessionLast[session]!))) sessionLast[session] = id

      const target = steps.target[id]!
      if (steps.ok[id] === 1 || flags[id] === 0 || target < 0) continue
      const key = steps.targets[target]!.descriptionId
      if (key < 0) continue
      const row = failures.get(key)
      const dated = !Number.isNaN(time[id]!)
      if (row === undefined) failures.set(key, { count: 1, first: id, latest: dated ? id : -1 })
      else {
        row.count++
        if (score[id]! >= score[row.first]! && before(id, row.first)) row.first = id
        if (dated && (row.latest === -1 || later(id, row.latest))) row.latest = id
      }
    }
  }
  rankSteps()
  const failureRows = [...failures.values()]
  const failureTime = (row: { latest: number }) => (row.latest === -1 ? -Infinity : time[row.latest]!)
  const worstFailures = topK(PRIOR_LIMITS.avoid, (a, b) => {
    const x = failureRows[a]!
    const y = failureRows[b]!
    return (y.count - x.count || failureTime(y) - failureTime(x) || (before(x.first, y.first) ? -1 : 1)) < 0
  })
  failureRows.forEach((row, index) => {
    if (row.count >= PRIOR_LIMITS.minFailures) worstFailures.offer(index)
  })
  const avoid = worstFailures.result().map((index) => {
    const row = failureRows[index]!
    const lastError = row.latest === -1 ? undefined : steps.errorCode[row.latest]
    return { target: steps.description(row.first)!, failures: row.count, ...(lastError !== undefined ? { lastError } : {}) }
  })
  const avoided = (counters.avoided = growUint8(counters.avoided, steps.descriptionCount))
  avoided.fill(0, 0, steps.descriptionCount)
  for (const [key, row] of failures) if (row.count >= PRIOR_LIMITS.minFailures) avoided[key] = 1

  // Suggestions: only what worked, only with a target that can be replayed, never something to avoid.
  const toolCount = steps.tools.length
  const suggestions = new Map<number, { first: number; succeeded: number }>()
  const collectSuggestions = () => {
    for (let i = 0; i < count; i++) {
      const id = touched[i]!
      const target = steps.target[id]!
      if (steps.ok[id] !== 1 || !actionable[steps.tool[id]!] || target < 0) continue
      const info = steps.targets[target]!
      if (info.descriptionId < 0 || info.durable === undefined || avoided[info.descriptionId] === 1) continue
      const key = info.descriptionId * toolCount + steps.tool[id]!
      const row = suggestions.get(key)
      if (row === undefined) suggestions.set(key, { first: id, succeeded: 1 })
      else {
        row.succeeded++
        if (score[id]! >= score[row.first]! && before(id, row.first)) row.first = id
      }
    }
  }
  collectSuggestions()
  const suggestionRows = [...suggestions.values()]
  const bestSuggestions = topK(PRIOR_LIMITS.suggestions, (a, b) => {
    const x = suggestionRows[a]!
    const y = suggestionRows[b]!
    return (score[y.first]! - score[x.first]! || y.succeeded - x.succeeded || (before(x.first, y.first) ? -1 : 1)) < 0
  })
  suggestionRows.forEach((_, index) => bestSuggestions.offer(index))

  // Related sessions: the best score of each, then its latest step (as a walk in listed order finds it).
  const related = topK(PRIOR_LIMITS.sessions, (a, b) => {
    const x = sessionFirst[a]!
    const y = sessionFirst[b]!
    const lastOf = (session: number, first: number) => (Number.isNaN(time[first]!) ? first : sessionLast[session]!)
    return (
      (score[y]! - score[x]! ||
        time[lastOf(b, y)]! - time[lastOf(a, x)]! ||
        sessionIdOf(x).localeCompare(sessionIdOf(y)) ||
        (before(x, y) ? -1 : 1)) < 0
    )
  })
  for (let session = 0; session < sessionCount; session++) if (sessionStamp[session] === call) related.offer(session)

  return {
    windowHours: PRIOR_LIMITS.windowHours,
    relatedSessions: related.result().map((session) => {
      const first = sessionFirst[session]!
      const last = Number.isNaN(time[first]!) ? first : sessionLast[session]!
      const sessionId = sessionIdOf(first)
      const metadata = catalog.metadata(sessionId)
      return {
        sessionId,
        ...(metadata?.goal !== undefined ? { goal: metadata.goal } : {}),
        flowTags: metadata?.flowTags ?? [],
        confidence: round(confidenceOf(score[first]!)),
        lastStepAt: steps.timestamp[last]!
      }
    }),
    similarSteps: similar.result().map((id) => {
      const target = steps.description(id)
      return {
        sessionId: sessionIdOf(id),
        timestamp: steps.timestamp[id]!,
        tool: steps.tools[steps.tool[id]!]!,
        ...(target !== undefined ? { target } : {}),
        ok: steps.ok[id] === 1,
        confidence: round(confidenceOf(score[id]!))
      }
    }),
    suggestedNextActions: bestSuggestions.result().map((index) => {
      const row = suggestionRows[index]!
      const durable = steps.targets[steps.target[row.first]!]!.durable!
      return {
        tool: steps.tools[steps.tool[row.first]!]!,
        preferredTarget: durable.args,
        fallbackTargets: durable.fallbacks,
        confidence: round(confidenceOf(score[row.first]!)),
        succeeded: row.succeeded
      }
    }),
    avoid
  }
}
