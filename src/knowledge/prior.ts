// Prior knowledge for describe_screen: what other recent sessions did on a screen like this one, scored
// with the SPEC-07 similarity weights against the page each past step started from (the index's exact-value
// maps, no file reads), with per-step counters in typed arrays and top-k selection instead of full sorts.
import type { PriorAction, PriorKnowledge, SessionMetadata, StepTarget, SuggestedAction } from "../domain/knowledge.js"
import type { Observation } from "../domain/observation.js"
import type { Catalog } from "./catalog.js"
import { clickCountOf } from "./entry.js"
import { factsOfObservation, testIdKey } from "./page.js"
import { growInt32, type IdList, topK } from "./postings.js"
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

export const PRIOR_LIMITS = { windowHours: 48, sessions: 3, similarSteps: 5, suggestions: 5, avoid: 3, minFailures: 2 } as const

/** What prior knowledge makes of a recorded tool, by its definition's `prior`: undefined for a tool that is no action to suggest. */
export type PriorActions = (tool: string) => PriorAction | undefined

/** Roles that take typed text. */
const EDITABLE_ROLES: ReadonlySet<string> = new Set(["textbox", "searchbox", "combobox", "spinbutton"])

/** Roles a key press operates: the editable ones, widgets that handle keys, and the page itself. */
const KEY_ROLES: ReadonlySet<string> = new Set([
  ...EDITABLE_ROLES,
  ...["button", "link", "checkbox", "radio", "switch", "tab", "menuitem", "menuitemcheckbox", "menuitemradio", "option", "slider"],
  ...["treeitem", "gridcell", "listbox", "tree", "treegrid", "grid", "menu", "menubar", "tablist", "radiogroup", "toolbar"],
  ...["scrollbar", "dialog", "alertdialog", "application", "document", "webarea", "rootwebarea"]
])

/**
 * Whether a recorded action fits its target, by the role the record gives it (the element as described
 * when it ran, else the role the agent saw): text is typed into editable fields only, and keys are pressed
 * on fields, widgets or the page, never on a heading, a paragraph or a list item. A target without a
 * recorded role fits (the record says nothing against it); other actions fit any target.
 */
export const fitsTarget = (action: PriorAction | undefined, target: StepTarget | undefined): boolean => {
  if (action?.fits === undefined) return true
  const role = target?.element?.role ?? target?.a11yHint?.role
  if (role === undefined || role === "") return true
  return (action.fits === "text" ? EDITABLE_ROLES : KEY_ROLES).has(role.toLowerCase())
}

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
  /** Sessions never named as related (other clients' live sessions: their id is a capability); their steps still teach. */
  readonly hidden?: ReadonlySet<string> | undefined
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
  [`worked ${row.here ? "here" : "on a similar screen"}${row.sessions > 1 ? ` in ${row.sessions} sessions` : ""}`, ...(row.visible ? ["target on screen"] : [])].join("; ")

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
  /** Steps met by the current call, in the order first met. */
  touched = new Int32Array(0)
  private clock = 0

  begin(steps: number, sessions: number): number {
    this.stamp = growInt32(this.stamp, steps)
    this.flags = growInt32(this.flags, steps)
    this.testIds = growInt32(this.testIds, steps)
    this.a11y = growInt32(this.a11y, steps)
    this.score = growInt32(this.score, steps)
    this.sessionStamp = growInt32(this.sessionStamp, sessions)
    this.sessionBest = growInt32(this.sessionBest, sessions)
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

/** How a target fared on similar screens: per session, and its failures on this very screen. */
interface TargetRow {
  /** Sessions where a fitting action on it worked at least once. */
  readonly worked: Set<number>
  /** Sessions where every action on it failed (known once all are seen: `failedIn` less `worked`). */
  readonly failedIn: Set<number>
  failuresHere: number
  /** The failure here listed first (best by `before`) and the latest one (for its error code). */
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

/** True when more sessions saw every action on the target fail than saw one work: it is not suggested. */
export const mostlyFailed = (worked: number, failed: number): boolean => failed > worked

/** One call's view of the catalog: its steps, this call's counters and the steps it met, and how steps compare. */
interface Pass {
  readonly steps: Catalog["steps"]
  readonly counters: Counters
  readonly call: number
  /** How many steps of `counters.touched` this call met. */
  readonly count: number
  /** Per tool of the steps table: whether it is an action. */
  readonly actionable: ReadonlyArray<boolean>
  /** The order of similar steps: more similar, then newer, then session id, then the order they were recorded in. */
  readonly before: (a: number, b: number) => boolean
  /** Of two steps, the newer; among equal times the one listed first. */
  readonly later: (a: number, b: number) => boolean
  /** Whether a step's action fits its target (no keys pressed on a heading), by the target's recorded role. */
  readonly fits: (id: number) => boolean
}

/**
 * Marks every step of another session in the window that shares something with this screen (its screen,
 * place, test ids, accessible names) and counts the overlaps; answers how many steps it met.
 */
const touchSimilar = (catalog: Catalog, input: PriorInput, counters: Counters, call: number): number => {
  const steps = catalog.steps
  const since = input.now - PRIOR_LIMITS.windowHours * 3_600_000
  const { stamp, flags, testIds, a11y, touched } = counters
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
  return count
}

// Each loop is its own function: V8 optimizes them one by one instead of deoptimizing one large function.

/** The similarity score of every step met. */
const scoreSteps = (pass: Pass) => {
  const { steps, count, actionable } = pass
  const { flags, testIds, a11y, score, touched } = pass.counters
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

/**
 * Only actions are flows an agent can redo: sessions are related by them (each session's best action that
 * worked, in the counters), targets judged by them (a row per target shown).
 */
const rankSteps = (pass: Pass): Map<number, TargetRow> => {
  const { steps, count, actionable, call, before, later, fits } = pass
  const { flags, sessionStamp, sessionBest, touched } = pass.counters
  const targetRows = new Map<number, TargetRow>()
  for (let i = 0; i < count; i++) {
    const id = touched[i]!
    if (!actionable[steps.tool[id]!]) continue
    const session = steps.session[id]!
    // A session is related by an action that worked and fit its target: one that only erred teaches nothing.
    if (steps.ok[id] === 1 && fits(id)) {
      if (sessionStamp[session] !== call) {
        sessionStamp[session] = call
        sessionBest[session] = id
      } else if (before(id, sessionBest[session]!)) sessionBest[session] = id
    }
    const target = steps.target[id]!
    if (target < 0) continue
    const key = steps.info(target).shownId
    if (key < 0) continue
    let row = targetRows.get(key)
    if (row === undefined) targetRows.set(key, (row = { worked: new Set(), failedIn: new Set(), failuresHere: 0, first: -1, latest: -1 }))
    // A call that worked on a target it does not fit (a key pressed on a heading) is no evidence either way.
    if (steps.ok[id] === 1) {
      if (fits(id)) row.worked.add(session)
      continue
    }
    row.failedIn.add(session)
    // Avoid: targets that failed on this very screen (same screen or same URL path).
    if (flags[id] === 0) continue
    row.failuresHere++
    if (row.first < 0 || before(id, row.first)) row.first = id
    if (row.latest < 0 || later(id, row.latest)) row.latest = id
  }
  return targetRows
}

/** Sessions where the target only failed, against sessions where it worked. */
const failing = (row: TargetRow) => {
  let only = 0
  for (const session of row.failedIn) if (!row.worked.has(session)) only++
  return only
}

/** The targets to avoid (failed here at least twice, mostly failed), and every target never suggested (mostly failed). */
const avoidOf = (pass: Pass, targetRows: ReadonlyMap<number, TargetRow>) => {
  const { steps, before } = pass
  const time = steps.time
  const judged = [...targetRows.entries()].map(([key, row]) => ({ key, row, mostlyFailed: mostlyFailed(row.worked.size, failing(row)) }))
  const failureRows = judged.filter((item) => item.mostlyFailed && item.row.failuresHere >= PRIOR_LIMITS.minFailures)
  const worstFailures = topK(PRIOR_LIMITS.avoid, (a, b) => {
    const x = failureRows[a]!.row
    const y = failureRows[b]!.row
    return (y.failuresHere - x.failuresHere || time[y.latest]! - time[x.latest]! || (before(x.first, y.first) ? -1 : 1)) < 0
  })
  failureRows.forEach((_, index) => worstFailures.offer(index))
  const avoid = worstFailures.result().map((index) => {
    const row = failureRows[index]!.row
    const lastError = steps.strings.at(steps.errorCode[row.latest]!)
    return { target: steps.info(steps.target[row.first]!).shown!, failures: row.failuresHere, ...(lastError !== undefined ? { lastError } : {}) }
  })
  /** Targets never suggested: those that mostly failed (the ones that failed here twice are listed in avoid). */
  const distrusted = new Set(judged.filter((item) => item.mostlyFailed).map((item) => item.key))
  return { avoid, distrusted }
}

/**
 * Suggestions: actions that worked and fit their target, with a target that can be replayed and mostly worked
 * (a row per target, tool and click count); and the other actions that worked, best step per row.
 */
const collectSuggestions = (pass: Pass, distrusted: ReadonlySet<number>, clicksOf: (id: number) => number | undefined) => {
  const { steps, count, actionable, before, fits } = pass
  const touched = pass.counters.touched
  // A step without a target, or with a ref alone and no durable form, tells an agent of another session nothing.
  const toolCount = steps.tools.length
  const suggestions = new Map<number, SuggestionRow>()
  /** Other actions that worked, best step per tool and target. */
  const others = new Map<number, number>()
  for (let i = 0; i < count; i++) {
    const id = touched[i]!
    if (!actionable[steps.tool[id]!]) continue
    const target = steps.target[id]!
    if (target < 0) continue
    const info = steps.info(target)
    if (info.shownId < 0 || info.durable === undefined || distrusted.has(info.shownId)) continue
    const key = (info.shownId * toolCount + steps.tool[id]!) * 4 + (clicksOf(id) ?? 1)
    if (steps.ok[id] === 1 && fits(id)) {
      const known = others.get(key)
      if (known === undefined || before(id, known)) others.set(key, id)
    }
    let row = suggestions.get(key)
    if (row === undefined) suggestions.set(key, (row = { key, best: -1, succeeded: 0, failed: 0, sessions: new Set() }))
    if (steps.ok[id] !== 1) {
      row.failed++
      continue
    }
    if (!fits(id)) continue
    row.succeeded++
    row.sessions.add(steps.session[id]!)
    if (row.best < 0 || before(id, row.best)) row.best = id
  }
  return { suggestions, others }
}

/** The best suggestions, and the best other actions that worked (similar steps), each at most its limit. */
const chooseSuggestions = (pass: Pass, distrusted: ReadonlySet<number>, clicksOf: (id: number) => number | undefined) => {
  const { before } = pass
  const score = pass.counters.score
  const { suggestions, others } = collectSuggestions(pass, distrusted, clicksOf)
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
  const chosen = bestSuggestions.result().map((index) => suggestionRows[index]!)
  for (const row of chosen) others.delete(row.key)
  const similar = topK(PRIOR_LIMITS.similarSteps, before)
  for (const id of others.values()) similar.offer(id)
  return { chosen, similar: similar.result() }
}

/** Prior knowledge for the screen in `observation`, from other sessions of the last 48 hours. */
export const priorKnowledge = (catalog: Catalog, input: PriorInput, actions: PriorActions): PriorKnowledge => {
  const steps = catalog.steps
  const sessionCount = catalog.sessionIds().length
  let counters = countersOf.get(catalog)
  if (counters === undefined) countersOf.set(catalog, (counters = new Counters()))
  const call = counters.begin(steps.size, sessionCount)
  const { flags, score, sessionStamp, sessionBest } = counters
  const time = steps.time
  const count = touchSimilar(catalog, input, counters, call)
  const sessionIdOf = (id: number) => catalog.sessionOf(id).sessionId
  const before = (a: number, b: number) =>
    (score[b]! - score[a]! || time[b]! - time[a]! || compare(sessionIdOf(a), sessionIdOf(b)) || a - b) < 0
  const pass: Pass = {
    steps,
    counters,
    call,
    count,
    actionable: steps.tools.map((tool) => actions(tool) !== undefined),
    before,
    later: (a, b) => time[a]! > time[b]! || (time[a] === time[b] && before(a, b)),
    fits: (id) => {
      const target = steps.target[id]!
      return target < 0 || fitsTarget(actions(steps.tools[steps.tool[id]!]!), steps.targets[target]!)
    }
  }
  scoreSteps(pass)
  const { avoid, distrusted } = avoidOf(pass, rankSteps(pass))
  /** Clicks per click of each label set (a double click is its own action). */
  const clicks = steps.labelSets.map(clickCountOf)
  const clicksOf = (id: number) => clicks[steps.labels[id]!]
  const { chosen, similar } = chooseSuggestions(pass, distrusted, clicksOf)
  const screen = screenTargets(input.observation)

  // Related sessions: by their most similar action that worked, then by its time.
  const related = topK(PRIOR_LIMITS.sessions, (a, b) => before(sessionBest[a]!, sessionBest[b]!))
  for (let session = 0; session < sessionCount; session++) {
    if (sessionStamp[session] === call && input.hidden?.has(sessionIdOf(sessionBest[session]!)) !== true) related.offer(session)
  }

  return leanPrior({
    suggestedNextActions: chosen.map((row, position) => {
      const { visible, ...targets } = suggestionTargets(steps.info(steps.target[row.best]!), screen)
      const count = clicksOf(row.best)
      return {
        rank: position + 1,
        tool: steps.tools[steps.tool[row.best]!]!,
        ...(count !== undefined ? { count } : {}),
        rationale: rationaleOf({ here: flags[row.best] !== 0, sessions: row.sessions.size, visible }),
        ...targets,
        confidence: round(confidenceOf(score[row.best]!)),
        succeeded: row.succeeded,
        ...(row.failed > 0 ? { failed: row.failed } : {})
      }
    }),
    similarSteps: similar.map((id) => {
      const count = clicksOf(id)
      return {
        tool: steps.tools[steps.tool[id]!]!,
        ...(count !== undefined ? { count } : {}),
        target: steps.info(steps.target[id]!).shown!,
        confidence: round(confidenceOf(score[id]!))
      }
    }),
    avoid,
    relatedSessions: related.result().map((session) => {
      const best = sessionBest[session]!
      return relatedSession(sessionIdOf(best), catalog.metadata(sessionIdOf(best)), score[best]!)
    })
  })
}

/** A related session as listed: its goal and flow tags when it has them. */
export const relatedSession = (sessionId: string, metadata: SessionMetadata | undefined, score: number) => {
  const flowTags = (metadata?.flowTags ?? []).map((tag) => clipText(tag, SHOWN_CHARS.tag))
  return {
    sessionId,
    ...(metadata?.goal !== undefined ? { goal: clipText(metadata.goal, SHOWN_CHARS.goal) } : {}),
    ...(flowTags.length > 0 ? { flowTags } : {}),
    confidence: round(confidenceOf(score))
  }
}

/** Prior knowledge without its empty lists: an agent reads only what there is. */
export const leanPrior = (prior: {
  readonly [K in keyof PriorKnowledge]-?: NonNullable<PriorKnowledge[K]>
}): PriorKnowledge => {
  const out: Record<string, unknown> = {}
  for (const [key, list] of Object.entries(prior)) if (list.length > 0) out[key] = list
  return out as PriorKnowledge
}

/** True when prior knowledge has anything to say. */
export const hasPriorKnowledge = (prior: PriorKnowledge): boolean => Object.keys(prior).length > 0

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
