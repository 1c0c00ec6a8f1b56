// Prior knowledge for describe_screen: what other recent sessions did on a screen like this one, scored
// with the SPEC-07 similarity weights against the page each past step started from (the index's exact-value
// maps, no file reads), with per-step counters in typed arrays and top-k selection instead of full sorts.
import type { PriorKnowledge, SuggestedAction } from "../domain/knowledge.js"
import type { Observation } from "../domain/observation.js"
import type { Catalog } from "./catalog.js"
import { factsOfObservation, testIdKey } from "./page.js"
import { growInt32, growUint8, type IdList, topK } from "./postings.js"
import type { TargetInfo } from "./steps-table.js"
import { roleSelector } from "./targets.js"
import { clipText, SHOWN_CHARS } from "./text.js"

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

/** Tools that act on the page: the ones worth suggesting, and a small bonus in similarity. */
export const ACTIONABLE: ReadonlySet<string> = new Set([
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

export const round = (value: number) => Math.round(value * 1000) / 1000

export interface PriorInput {
  readonly currentSessionId: string | undefined
  readonly observation: Observation
  readonly now: number
}

/** What the current screen offers to act on: lower-case test ids, and refs by role and exact name. */
export interface ScreenTargets {
  readonly testIds: ReadonlySet<string>
  readonly refs: ReadonlyMap<string, string>
}

export const screenTargets = (observation: Observation): ScreenTargets => {
  const refs = new Map<string, string>()
  for (const node of observation.a11y?.nodes ?? []) {
    const key = `${node.role}\u0000${node.name}`
    if (node.name !== "" && !refs.has(key)) refs.set(key, node.ref)
  }
  return { testIds: new Set((observation.testIds ?? []).map((item) => testIdKey(item.testId))), refs }
}

/**
 * A suggestion's targets: the durable forms of the recorded target, the first one that is on the screen
 * now preferred (a test id that is visible, a role and name an element has), and the ref of that element
 * when the screen has one with the same role and name.
 */
export const suggestionTargets = (
  info: TargetInfo,
  screen: ScreenTargets
): Pick<SuggestedAction, "preferredTarget" | "fallbackTargets" | "ref"> & { readonly visible: boolean } => {
  const durable = info.durable!
  const forms = [durable.args, ...durable.fallbacks]
  const hint = info.target.a11yHint
  const ref = hint === undefined || hint.name === "" ? undefined : screen.refs.get(`${hint.role}\u0000${hint.name}`)
  const visibleForm = (args: Readonly<Record<string, unknown>>) =>
    (typeof args.testId === "string" && screen.testIds.has(testIdKey(args.testId))) ||
    (ref !== undefined && hint !== undefined && args.selector === roleSelector(hint.role, hint.name))
  const index = forms.findIndex(visibleForm)
  const preferred = forms[Math.max(index, 0)]!
  const fallbacks = forms.filter((form) => form !== preferred)
  return {
    preferredTarget: preferred,
    ...(fallbacks.length > 0 ? { fallbackTargets: fallbacks } : {}),
    ...(ref !== undefined ? { ref } : {}),
    visible: index >= 0
  }
}

/** Why an action is suggested, in a few words. */
export const rationaleOf = (row: { readonly here: boolean; readonly sessions: number; readonly visible: boolean }): string =>
  [
    `worked ${row.here ? "on this screen" : "on a similar screen"}${row.sessions > 1 ? ` in ${row.sessions} sessions` : ""}`,
    ...(row.visible ? ["its target is on the screen now"] : [])
  ].join("; ")

const SCREEN = 1
const PLACE = 2

/** Per-step counters of one call, reused between calls: a slot is live only when its stamp is the call's. */
class Counters {
  stamp = new Int32Array(0)
  flags = new Int32Array(0)
  testIds = new Int32Array(0)
  a11y = new Int32Array(0)
  score = new Int32Array(0)
  sessionStamp = new Int32Array(0)
  sessionBest = new Int32Array(0)
  sessionLast = new Int32Array(0)
  /** Steps met by the current call, in the order first met. */
  touched = new Int32Array(0)
  succeeded = new Uint8Array(0)
  avoided = new Uint8Array(0)
  private clock = 0

  begin(steps: number, sessions: number): number {
    this.stamp = growInt32(this.stamp, steps)
    this.flags = growInt32(this.flags, steps)
    this.testIds = growInt32(this.testIds, steps)
    this.a11y = growInt32(this.a11y, steps)
    this.score = growInt32(this.score, steps)
    this.sessionStamp = growInt32(this.sessionStamp, sessions)
    this.sessionBest = growInt32(this.sessionBest, sessions)
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

interface FailureRow {
  count: number
  /** The failure listed first (best by `before`) and the latest one (for its error code). */
  first: number
  latest: number
}

interface SuggestionRow {
  readonly key: number
  best: number
  succeeded: number
  failed: number
  readonly sessions: Set<number>
}

/** Prior knowledge for the screen in `observation`, from other sessions of the last 48 hours. */
export const priorKnowledge = (catalog: Catalog, input: PriorInput): PriorKnowledge => {
  const steps = catalog.steps
  const since = input.now - PRIOR_LIMITS.windowHours * 3_600_000
  const sessionCount = catalog.sessionIds().length
  let counters = countersOf.get(catalog)
  if (counters === undefined) countersOf.set(catalog, (counters = new Counters()))
  const call = counters.begin(steps.size, sessionCount)
  const { stamp, flags, testIds, a11y, score, sessionStamp, sessionBest, sessionLast, touched } = counters
  const current = input.currentSessionId === undefined ? undefined : catalog.sessionIndex(input.currentSessionId)
  const time = steps.time
  const dead = steps.dead
  let count = 0
  const visit = (list: IdList | undefined, kind: "screen" | "place" | "testId" | "a11y") => {
    if (list === undefined) return
    const ids = list.ids
    for (let i = 0; i < list.length; i++) {
      const id = ids[i]!
      if (steps.session[id] === current || !(time[id]! >= since) || dead[id] === 1) continue
      if (stamp[id] !== call) {
        stamp[id] = call
        flags[id] = 0
        testIds[id] = 0
        a11y[id] = 0
        touched[count++] = id
      }
      if (kind === "screen") flags[id] = flags[id]! | SCREEN
      else if (kind === "place") flags[id] = flags[id]! | PLACE
      else if (kind === "testId") testIds[id] = testIds[id]! + 1
      else a11y[id] = a11y[id]! + 1
    }
  }
  // "unknown" is no screen at all, and an empty name says nothing: neither may make two steps similar.
  const here = factsOfObservation(input.observation)
  if (here.screen !== undefined) visit(catalog.byScreen.get(here.screen), "screen")
  if (here.place !== undefined) visit(catalog.byPlace.get(here.place), "place")
  for (const testId of here.testIds) visit(catalog.byTestId.get(testId), "testId")
  for (const name of here.names) visit(catalog.byA11yName.get(name), "a11y")

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
  /** The order of similar steps: more similar, then newer, then session id, then the order they were recorded in. */
  const before = (a: number, b: number) =>
    (score[b]! - score[a]! || time[b]! - time[a]! || compare(sessionIdOf(a), sessionIdOf(b)) || a - b) < 0
  /** Of two steps, the newer; among equal times the one listed first. */
  const later = (a: number, b: number) => time[a]! > time[b]! || (time[a] === time[b] && before(a, b))

  // What worked leads: successful steps first, each group by similarity.
  const similar = topK(PRIOR_LIMITS.similarSteps, (a, b) => steps.ok[a]! - steps.ok[b]! > 0 || (steps.ok[a] === steps.ok[b] && before(a, b)))
  const failures = new Map<number, FailureRow>()
  const succeeded = (counters.succeeded = growUint8(counters.succeeded, steps.descriptionCount))
  succeeded.fill(0, 0, steps.descriptionCount)
  const rankSteps = () => {
    for (let i = 0; i < count; i++) {
      const id = touched[i]!
      similar.offer(id)
      const session = steps.session[id]!
      if (sessionStamp[session] !== call) {
        sessionStamp[session] = call
        sessionBest[session] = id
        sessionLast[session] = id
      } else {
        if (before(id, sessionBest[session]!)) sessionBest[session] = id
        if (later(id, sessionLast[session]!)) sessionLast[session] = id
      }
      const target = steps.target[id]!
      if (target < 0) continue
      const key = steps.targets[target]!.descriptionId
      if (key < 0) continue
      if (steps.ok[id] === 1) {
        succeeded[key] = 1
        continue
      }
      // Avoid: targets that failed on this very screen (same screen or same URL path).
      if (flags[id] === 0) continue
      const row = failures.get(key)
      if (row === undefined) failures.set(key, { count: 1, first: id, latest: id })
      else {
        row.count++
        if (before(id, row.first)) row.first = id
        if (later(id, row.latest)) row.latest = id
      }
    }
  }
  rankSteps()
  // A target that also worked here is not one to avoid: it is suggested, with its failures counted.
  const failureRows = [...failures.entries()].filter(([key, row]) => row.count >= PRIOR_LIMITS.minFailures && succeeded[key] === 0)
  const worstFailures = topK(PRIOR_LIMITS.avoid, (a, b) => {
    const x = failureRows[a]![1]
    const y = failureRows[b]![1]
    return (y.count - x.count || time[y.latest]! - time[x.latest]! || (before(x.first, y.first) ? -1 : 1)) < 0
  })
  failureRows.forEach((_, index) => worstFailures.offer(index))
  const avoid = worstFailures.result().map((index) => {
    const row = failureRows[index]![1]
    const lastError = steps.strings.at(steps.errorCode[row.latest]!)
    return { target: steps.description(row.first)!, failures: row.count, ...(lastError !== undefined ? { lastError } : {}) }
  })
  const avoided = (counters.avoided = growUint8(counters.avoided, steps.descriptionCount))
  avoided.fill(0, 0, steps.descriptionCount)
  for (const [key] of failureRows) avoided[key] = 1

  // Suggestions: actions that worked, with a target that can be replayed, never one to avoid.
  const toolCount = steps.tools.length
  const suggestions = new Map<number, SuggestionRow>()
  const collectSuggestions = () => {
    for (let i = 0; i < count; i++) {
      const id = touched[i]!
      const target = steps.target[id]!
      if (!actionable[steps.tool[id]!] || target < 0) continue
      const info = steps.targets[target]!
      if (info.descriptionId < 0 || info.durable === undefined || avoided[info.descriptionId] === 1) continue
      const key = info.descriptionId * toolCount + steps.tool[id]!
      let row = suggestions.get(key)
      if (row === undefined) suggestions.set(key, (row = { key, best: -1, succeeded: 0, failed: 0, sessions: new Set() }))
      if (steps.ok[id] !== 1) {
        row.failed++
        continue
      }
      row.succeeded++
      row.sessions.add(steps.session[id]!)
      if (row.best < 0 || before(id, row.best)) row.best = id
    }
  }
  collectSuggestions()
  const suggestionRows = [...suggestions.values()].filter((row) => row.best >= 0)
  const bestSuggestions = topK(PRIOR_LIMITS.suggestions, (a, b) => {
    const x = suggestionRows[a]!
    const y = suggestionRows[b]!
    return (
      (score[y.best]! - score[x.best]! ||
        y.succeeded - y.failed - (x.succeeded - x.failed) ||
        y.succeeded - x.succeeded ||
        (before(x.best, y.best) ? -1 : 1)) < 0
    )
  })
  suggestionRows.forEach((_, index) => bestSuggestions.offer(index))
  const screen = screenTargets(input.observation)

  // Related sessions: by their most similar step, then by their latest one.
  const related = topK(PRIOR_LIMITS.sessions, (a, b) => {
    const x = sessionBest[a]!
    const y = sessionBest[b]!
    return (score[y]! - score[x]! || time[sessionLast[b]!]! - time[sessionLast[a]!]! || compare(sessionIdOf(x), sessionIdOf(y))) < 0
  })
  for (let session = 0; session < sessionCount; session++) if (sessionStamp[session] === call) related.offer(session)

  return {
    windowHours: PRIOR_LIMITS.windowHours,
    relatedSessions: related.result().map((session) => {
      const best = sessionBest[session]!
      const sessionId = sessionIdOf(best)
      const metadata = catalog.metadata(sessionId)
      return {
        sessionId,
        ...(metadata?.goal !== undefined ? { goal: clipText(metadata.goal, SHOWN_CHARS.goal) } : {}),
        flowTags: (metadata?.flowTags ?? []).map((tag) => clipText(tag, SHOWN_CHARS.tag)),
        confidence: round(confidenceOf(score[best]!)),
        lastStepAt: steps.timestamp(sessionLast[session]!)
      }
    }),
    similarSteps: similar.result().map((id) => {
      const target = steps.description(id)
      return {
        sessionId: sessionIdOf(id),
        timestamp: steps.timestamp(id),
        tool: steps.tools[steps.tool[id]!]!,
        ...(target !== undefined ? { target } : {}),
        ok: steps.ok[id] === 1,
        confidence: round(confidenceOf(score[id]!))
      }
    }),
    suggestedNextActions: bestSuggestions.result().map((index, position) => {
      const row = suggestionRows[index]!
      const { visible, ...targets } = suggestionTargets(steps.targets[steps.target[row.best]!]!, screen)
      return {
        rank: position + 1,
        tool: steps.tools[steps.tool[row.best]!]!,
        rationale: rationaleOf({ here: flags[row.best] !== 0, sessions: row.sessions.size, visible }),
        ...targets,
        confidence: round(confidenceOf(score[row.best]!)),
        succeeded: row.succeeded,
        ...(row.failed > 0 ? { failed: row.failed } : {})
      }
    }),
    avoid
  }
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
