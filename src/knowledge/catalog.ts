// The in-memory inverted index over step memory, and the queries that use it (their scoring is in
// scoring.ts, with `scanSearch`, the full scan the index must answer exactly as).
// `toParts` / `fromParts` give it as JSON plus typed arrays, the form the saved index file keeps.
import { isMemoryStep, type KnowledgeFilters, type SessionMetadata, type SessionSummary, type StepRecord, type StepSummary, type StepTarget } from "../domain/knowledge.js"
import {
  COVERAGE_BONUS,
  factsOf,
  FIELDS,
  SESSION_WEIGHT,
  sessionWords,
  stepLabels
} from "./entry.js"
import { locate, type Located, PageTracker, type PageTrackerState } from "./page.js"
import { growInt32, IdList, packLists, pushTo, topK, unpackLists, Vocabulary } from "./postings.js"
import { StepTable } from "./steps-table.js"
import { clipText, SHOWN_CHARS, tokenizeIdentifier } from "./text.js"
import {
  Accumulator,
  BITS,
  compareStrings,
  FIELD_NAMES,
  HOUR_MS,
  inSessions,
  RANK_TIER,
  SESSION_FIELD,
  sessionPasses,
  summaryOf,
  WEIGHTS,
  type Scored,
  type SearchInput,
  type SessionSet
} from "./scoring.js"

export { passesFilters, scanSearch, summarize, type SearchInput, type SessionSet } from "./scoring.js"


export interface SessionSlot {
  readonly index: number
  readonly sessionId: string
  metadata: SessionMetadata | undefined
  /** Vocabulary ids of the words of the goal, flow tags and tags. */
  words: ReadonlyArray<number>
  /** Ids of the session's live steps, in the order they were added. */
  ids: IdList
}

/** Which sessions a query covers: all of them, or a set. */
/** Column names of a saved index, with their array types. */
const INT_COLUMNS = ["session", "tool", "target", "screen", "url", "errorCode", "labels"] as const
const MAP_NAMES = ["screen", "place", "testId", "a11yName"] as const

/** The parts of a catalog that are not typed arrays: what a saved index keeps as JSON. */
export interface CatalogJson {
  readonly size: number
  readonly strings: ReadonlyArray<string>
  readonly tools: ReadonlyArray<string>
  readonly labelSets: ReadonlyArray<ReadonlyArray<string>>
  readonly targets: ReadonlyArray<StepTarget>
  readonly timestamps: ReadonlyArray<readonly [number, string]>
  readonly sessions: ReadonlyArray<{ readonly sessionId: string; readonly metadata?: SessionMetadata }>
  readonly words: ReadonlyArray<string>
  readonly mapKeys: Readonly<Record<(typeof MAP_NAMES)[number], ReadonlyArray<string>>>
  readonly pages: PageTrackerState
}

export type CatalogArray = Int32Array<ArrayBuffer> | Float64Array<ArrayBuffer> | Uint8Array<ArrayBuffer>

/** A catalog as plain data: JSON and named typed arrays (see `Catalog.toParts` / `Catalog.fromParts`). */
export interface CatalogParts {
  readonly json: CatalogJson
  readonly arrays: Readonly<Record<string, CatalogArray>>
}

export class Catalog {
  readonly steps: StepTable
  private readonly slots: Array<SessionSlot> = []
  private readonly slotIds = new Map<string, SessionSlot>()
  private readonly vocabulary: Vocabulary
  /** Per scored field: word id → ids of steps having the word in that field. */
  private readonly postings: Array<Array<IdList | undefined>>
  /** Word id → indexes of sessions whose goal or tags have it. */
  private sessionPostings: Array<Array<number> | undefined> = []
  /**
   * Exact values → step ids, for prior knowledge. Keyed by the page the agent saw before the step (see
   * page.ts), or the step's own observation when nothing was seen before it.
   */
  readonly byScreen: Map<string, IdList>
  readonly byPlace: Map<string, IdList>
  readonly byTestId: Map<string, IdList>
  readonly byA11yName: Map<string, IdList>
  private pages: PageTracker
  /** Identifier value → vocabulary ids of its words: test ids and names repeat, their words are split once. */
  private readonly wordsOfValue = new Map<string, Int32Array>()
  private readonly places = new Map<string, Located | undefined>()
  private readonly locateUrl = (url: string | undefined): Located | undefined => {
    if (url === undefined) return undefined
    if (this.places.has(url)) return this.places.get(url)
    const located = locate(url)
    if (this.places.size > 10_000) this.places.clear()
    this.places.set(url, located)
    return located
  }
  private readonly placeOfUrl = (url: string | undefined): string | undefined => this.locateUrl(url)?.place
  private readonly pathOfUrl = (url: string | undefined): string | undefined => this.locateUrl(url)?.path
  private wordStamp = new Int32Array(0)
  private wordClock = 0
  private readonly accumulator = new Accumulator()
  /** Counts changes (steps added or replaced, sessions added): a saved index is current while this is unchanged. */
  version = 0

  constructor(
    steps: StepTable = new StepTable(),
    vocabulary: Vocabulary = new Vocabulary(),
    postings: Array<Array<IdList | undefined>> = FIELDS.map(() => []),
    maps: ReadonlyArray<Map<string, IdList>> = MAP_NAMES.map(() => new Map()),
    pages: PageTracker = new PageTracker()
  ) {
    this.steps = steps
    this.vocabulary = vocabulary
    this.postings = postings
    ;[this.byScreen, this.byPlace, this.byTestId, this.byA11yName] = maps as [
      Map<string, IdList>,
      Map<string, IdList>,
      Map<string, IdList>,
      Map<string, IdList>
    ]
    this.pages = pages
  }

  get size(): number {
    return this.steps.size - this.steps.deadCount
  }

  metadata(sessionId: string): SessionMetadata | undefined {
    return this.slotIds.get(sessionId)?.metadata
  }

  sessionIds(): ReadonlyArray<string> {
    return this.slots.map((slot) => slot.sessionId)
  }

  hasMetadata(sessionId: string): boolean {
    return this.slotIds.get(sessionId)?.metadata !== undefined
  }

  /** The index of a known session (the value of `steps.session` for its steps). */
  sessionIndex(sessionId: string): number | undefined {
    return this.slotIds.get(sessionId)?.index
  }

  /** The session a step belongs to. */
  sessionOf(id: number): SessionSlot {
    return this.slots[this.steps.session[id]!]!
  }

  /** How many steps of a session are indexed. */
  sessionSize(sessionId: string): number {
    return this.slotIds.get(sessionId)?.ids.length ?? 0
  }

  private slot(sessionId: string): SessionSlot {
    let slot = this.slotIds.get(sessionId)
    if (slot === undefined) {
      slot = { index: this.slots.length, sessionId, metadata: undefined, words: [], ids: new IdList() }
      this.slots.push(slot)
      this.slotIds.set(sessionId, slot)
    }
    return slot
  }

  /** Sets a session's metadata and the words it is found by (`words`: restored from a saved index, else derived). */
  private setMetadata(slot: SessionSlot, metadata: SessionMetadata | undefined, words?: ReadonlyArray<number>): void {
    for (const word of slot.words) {
      const sessions = this.sessionPostings[word]
      if (sessions !== undefined) this.sessionPostings[word] = sessions.filter((index) => index !== slot.index)
    }
    slot.metadata = metadata
    slot.words = words ?? sessionWords(metadata).map((word) => this.vocabulary.id(word))
    for (const word of slot.words) (this.sessionPostings[word] ??= []).push(slot.index)
  }

  addSession(metadata: SessionMetadata): void {
    const slot = this.slot(metadata.sessionId)
    // Read again unchanged (a restart, a store copied with new file times): nothing to redo, nothing to save.
    if (slot.metadata !== undefined && JSON.stringify(slot.metadata) === JSON.stringify(metadata)) return
    this.setMetadata(slot, metadata)
    this.version++
  }

  /**
   * Forgets a session's steps (they stay in the lists, marked dead, until the index is saved); with
   * `metadata: "forget"` its goal and tags too. Used when a session's files changed under the index.
   */
  dropSession(sessionId: string, metadata: "keep" | "forget" = "keep"): void {
    const slot = this.slotIds.get(sessionId)
    if (slot === undefined) return
    const dead = this.steps.dead
    for (let i = 0; i < slot.ids.length; i++) {
      const id = slot.ids.ids[i]!
      if (dead[id] === 0) {
        dead[id] = 1
        this.steps.deadCount++
      }
    }
    slot.ids = new IdList()
    if (metadata === "forget") this.setMetadata(slot, undefined)
    this.pages.forget(sessionId)
    this.version++
  }

  private wordsOf(value: string): Int32Array {
    let words = this.wordsOfValue.get(value)
    if (words === undefined) {
      words = Int32Array.from(tokenizeIdentifier(value), (word) => this.vocabulary.id(word))
      if (this.wordsOfValue.size > 100_000) this.wordsOfValue.clear()
      this.wordsOfValue.set(value, words)
    }
    return words
  }

  /** Indexes a step; the memory's own calls (labelled `memory` by their definitions) are not steps of a flow and are left out. A replay's own steps are recorded one by one. */
  addStep(step: StepRecord): boolean {
    if (isMemoryStep(step)) return false
    const before = this.pages.before(step.sessionId)
    const facts = factsOf(step, this.placeOfUrl, this.pathOfUrl, before)
    this.pages.apply(step.sessionId, step.observation, this.placeOfUrl)
    const similar = before ?? facts.page
    const steps = this.steps
    const id = steps.size
    steps.reserve(id + 1)
    const slot = this.slot(step.sessionId)
    const time = Date.parse(step.timestamp)
    steps.session[id] = slot.index
    steps.time[id] = time
    if (Number.isNaN(time) || new Date(time).toISOString() !== step.timestamp) steps.timestamps.set(id, step.timestamp)
    steps.ok[id] = step.outcome.ok ? 1 : 0
    steps.dead[id] = 0
    steps.tool[id] = steps.toolId(step.tool.name)
    steps.target[id] = steps.targetId(step.tool.target)
    steps.screen[id] = steps.strings.id(facts.screen)
    steps.url[id] = steps.strings.id(facts.url)
    steps.errorCode[id] = steps.strings.id(step.outcome.error?.code)
    steps.labels[id] = steps.labelSet(stepLabels(step))
    steps.size = id + 1
    slot.ids.push(id)

    for (let field = 0; field < FIELDS.length; field++) {
      // A fresh stamp per field: each word is posted once per step and field.
      const stamp = ++this.wordClock
      const postings = this.postings[field]!
      for (const value of facts.values[FIELDS[field]!]) {
        if (value === undefined) continue
        for (const word of this.wordsOf(value)) {
          this.wordStamp = growInt32(this.wordStamp, word + 1)
          if (this.wordStamp[word] === stamp) continue
          this.wordStamp[word] = stamp
          ;(postings[word] ??= new IdList()).push(id)
        }
      }
    }
    if (similar.screen !== undefined) pushTo(this.byScreen, similar.screen, id)
    if (similar.place !== undefined) pushTo(this.byPlace, similar.place, id)
    for (const testId of similar.testIds) pushTo(this.byTestId, testId, id)
    for (const name of similar.names) pushTo(this.byA11yName, name, id)
    this.version++
    return true
  }

  /** Steps that worked first, then relevance; among equals the newer step; then the same fixed order as `byRank`, then insertion order. */
  private ranksBefore(score: Int32Array, a: number, b: number): boolean {
    const steps = this.steps
    const order =
      steps.ok[b]! - steps.ok[a]! ||
      score[b]! - score[a]! ||
      steps.time[b]! - steps.time[a]! ||
      compareStrings(this.sessionOf(a).sessionId, this.sessionOf(b).sessionId) ||
      compareStrings(steps.tools[steps.tool[a]!]!, steps.tools[steps.tool[b]!]!) ||
      (steps.description(a) ?? "").localeCompare(steps.description(b) ?? "") ||
      a - b
    return order < 0
  }

  search(input: SearchInput): ReadonlyArray<StepSummary> {
    const groups = input.groups
    if (groups.length === 0) return []
    const steps = this.steps
    const scores = this.accumulator
    scores.begin(steps.size, this.slots.length)
    for (const group of groups) {
      const words: Array<number> = []
      for (const queryWord of group) this.vocabulary.matches(queryWord, words)
      if (words.length === 0) continue
      scores.groupStart = scores.tick()
      for (let field = 0; field < SESSION_FIELD; field++) {
        // One pass per field: a query word (with its synonyms) counts once per field, however many words match.
        const pass = scores.tick()
        const postings = this.postings[field]!
        for (const word of words) {
          const list = postings[word]
          if (list !== undefined) scores.visit(list.ids, list.length, pass, field, WEIGHTS[field]!)
        }
      }
      const pass = scores.tick()
      const sessionSeen = scores.sessionSeen
      for (const word of words) {
        for (const index of this.sessionPostings[word] ?? []) {
          if (sessionSeen[index] === pass) continue
          sessionSeen[index] = pass
          const ids = this.slots[index]!.ids
          scores.visit(ids.ids, ids.length, pass, SESSION_FIELD, SESSION_WEIGHT)
        }
      }
    }
    if (scores.count === 0) return []

    const { score, mask, order, touched } = scores
    const allowed = this.slots.map((slot) => inSessions(input.sessions, slot.sessionId) && sessionPasses(slot.metadata, input.filters))
    const screen = input.filters?.screen === undefined ? undefined : steps.strings.find(input.filters.screen)
    const dead = steps.dead
    const since = input.filters?.sinceHours === undefined ? undefined : input.now - input.filters.sinceHours * HOUR_MS
    // The coverage bonus takes one of a few values: computed once per number of matched groups.
    const bonus = Array.from({ length: groups.length + 1 }, (_, matched) => Math.floor((matched / groups.length) * COVERAGE_BONUS))
    const best = topK(input.limit, (a, b) => this.ranksBefore(score, a, b))
    const groupCount = scores.groups
    // Once the heap is full, a lower rank than its worst can never get in: most steps stop at one comparison.
    // The rank: whether the step worked, then its score (below RANK_TIER).
    const ok = steps.ok
    let floor = -1
    for (let i = 0; i < scores.count; i++) {
      const id = touched[i]!
      const total = score[id]! + bonus[groupCount[id]!]!
      score[id] = total
      if (ok[id]! * RANK_TIER + total < floor || dead[id] === 1) continue
      if (!allowed[steps.session[id]!]) continue
      if (screen !== undefined && steps.screen[id] !== screen) continue
      if (since !== undefined && !(steps.time[id]! >= since)) continue
      best.offer(id)
      const worst = best.worst()
      if (worst !== undefined) floor = ok[worst]! * RANK_TIER + score[worst]!
    }
    return best.result().map((id) => {
      const matchedFields: Array<string> = []
      for (let k = 0, count = BITS[mask[id]!]!; k < count; k++) matchedFields.push(FIELD_NAMES[(order[id]! >> (3 * k)) & 7]!)
      return this.summary(id, { score: score[id]!, matchedFields })
    })
  }

  private summary(id: number, scored: Scored | undefined): StepSummary {
    const steps = this.steps
    return summaryOf(
      {
        sessionId: this.sessionOf(id).sessionId,
        timestamp: steps.timestamp(id),
        tool: steps.tools[steps.tool[id]!]!,
        screen: steps.screenOf(id),
        url: steps.strings.at(steps.url[id]!),
        target: steps.description(id),
        ok: steps.ok[id] === 1,
        errorCode: steps.strings.at(steps.errorCode[id]!),
        labels: steps.labelSets[steps.labels[id]!]!
      },
      scored
    )
  }

  /** Whether step `id` passes the step filters (screen, time); session filters are checked per session. */
  private passesStepFilters(id: number, filters: KnowledgeFilters | undefined, now: number): boolean {
    if (filters === undefined) return true
    if (filters.screen !== undefined && this.steps.screenOf(id) !== filters.screen) return false
    if (filters.sinceHours !== undefined && !(this.steps.time[id]! >= now - filters.sinceHours * HOUR_MS)) return false
    return true
  }

  /** The latest `n` steps passing the filters, oldest first (ties in time keep session, then insertion, order). */
  last(n: number, sessions: SessionSet, filters: KnowledgeFilters | undefined, now: number): ReadonlyArray<StepSummary> {
    const time = this.steps.time
    this.accumulator.begin(this.steps.size, this.slots.length)
    // Where each step comes in the filtered sequence: the tie-break of a stable sort by time.
    const position = this.accumulator.score
    const later = topK(n, (a, b) => (time[a]! - time[b]! || position[a]! - position[b]!) > 0)
    const slots: Iterable<SessionSlot | undefined> =
      sessions === "all"
        ? this.slots
        : "except" in sessions
          ? this.slots.filter((slot) => !sessions.except.has(slot.sessionId))
          : [...sessions].map((sessionId) => this.slotIds.get(sessionId))
    let seen = 0
    for (const slot of slots) {
      if (slot === undefined || !sessionPasses(slot.metadata, filters)) continue
      const ids = slot.ids.ids
      for (let i = 0; i < slot.ids.length; i++) {
        const id = ids[i]!
        if (!this.passesStepFilters(id, filters, now)) continue
        position[id] = seen++
        later.offer(id)
      }
    }
    return later
      .result()
      .reverse()
      .map((id) => this.summary(id, undefined))
  }

  /**
   * Sessions with at least one step passing the filters (or, without step filters, with no steps yet), newest
   * activity first, among `within` (as `last` and `search` take it: other clients' live sessions left out).
   */
  sessions(limit: number, filters: KnowledgeFilters | undefined, now: number, within: SessionSet = "all"): ReadonlyArray<SessionSummary> {
    const stepFilters = filters?.screen !== undefined || filters?.sinceHours !== undefined
    const time = this.steps.time
    const rows: Array<{ readonly summary: SessionSummary; readonly activity: number }> = []
    for (const slot of this.slots) {
      if (slot.metadata === undefined || !sessionPasses(slot.metadata, filters) || !inSessions(within, slot.sessionId)) continue
      let count = 0
      let last = -Infinity
      let lastStamp: string | undefined
      const ids = slot.ids.ids
      for (let i = 0; i < slot.ids.length; i++) {
        const id = ids[i]!
        if (!this.passesStepFilters(id, filters, now)) continue
        count++
        if (time[id]! > last) {
          last = time[id]!
          lastStamp = this.steps.timestamp(id)
        }
      }
      if (count === 0 && (stepFilters || slot.ids.length > 0)) continue
      const created = Date.parse(slot.metadata.createdAt)
      rows.push({
        summary: {
          sessionId: slot.sessionId,
          createdAt: slot.metadata.createdAt,
          ...(slot.metadata.goal !== undefined ? { goal: clipText(slot.metadata.goal, SHOWN_CHARS.goal) } : {}),
          flowTags: slot.metadata.flowTags.map((tag) => clipText(tag, SHOWN_CHARS.tag)),
          tags: slot.metadata.tags.map((tag) => clipText(tag, SHOWN_CHARS.tag)),
          stepCount: count,
          ...(lastStamp !== undefined ? { lastStepAt: lastStamp } : {})
        },
        activity: Math.max(last, Number.isNaN(created) ? -Infinity : created)
      })
    }
    rows.sort((a, b) => b.activity - a.activity || a.summary.sessionId.localeCompare(b.summary.sessionId))
    return rows.slice(0, limit).map((row) => row.summary)
  }

  /**
   * The catalog as plain data for saving: steps marked dead are left out and the others renumbered in
   * order, so a saved index is always compact.
   */
  toParts(): CatalogParts {
    const steps = this.steps
    const size = steps.size
    let remap: Int32Array | undefined
    let live = size
    if (steps.deadCount > 0) {
      remap = new Int32Array(size)
      live = 0
      for (let id = 0; id < size; id++) remap[id] = steps.dead[id] === 1 ? -1 : live++
    }
    const column = <A extends CatalogArray>(array: A): A => {
      if (remap === undefined) return array.slice(0, size) as A
      const out = new (array.constructor as new (length: number) => A)(live)
      for (let id = 0; id < size; id++) if (remap[id]! >= 0) out[remap[id]!] = array[id]!
      return out
    }
    const arrays: Record<string, CatalogArray> = {
      time: column(steps.time),
      ok: column(steps.ok),
      sortedWords: this.vocabulary.sortedIds()
    }
    for (const name of INT_COLUMNS) arrays[name] = column(steps[name])
    const packed = (name: string, lists: ReadonlyArray<IdList | undefined>, count = lists.length) => {
      const { offsets, ids } = packLists(lists, remap, count)
      arrays[`${name}.offsets`] = offsets
      arrays[`${name}.ids`] = ids
    }
    FIELDS.forEach((field, index) => packed(`postings.${field}`, this.postings[index]!, this.vocabulary.size))
    packed("sessionSteps", this.slots.map((slot) => slot.ids))
    // The words of each session's goal and tags: a restored index does not tokenize 2,000 goals again.
    const sessionWords = packLists(this.slots.map((slot) => IdList.view(Int32Array.from(slot.words))), undefined)
    arrays["sessionWords.offsets"] = sessionWords.offsets
    arrays["sessionWords.ids"] = sessionWords.ids
    const mapKeys = {} as Record<(typeof MAP_NAMES)[number], ReadonlyArray<string>>
    const maps = [this.byScreen, this.byPlace, this.byTestId, this.byA11yName]
    MAP_NAMES.forEach((name, index) => {
      const map = maps[index]!
      mapKeys[name] = [...map.keys()]
      packed(`map.${name}`, [...map.values()])
    })
    const timestamps: Array<readonly [number, string]> = []
    for (const [id, stamp] of steps.timestamps) {
      const at = remap === undefined ? id : remap[id]!
      if (at >= 0) timestamps.push([at, stamp])
    }
    return {
      json: {
        size: live,
        strings: steps.strings.values,
        tools: steps.tools,
        labelSets: steps.labelSets,
        targets: steps.targets,
        timestamps,
        sessions: this.slots.map((slot) => ({ sessionId: slot.sessionId, ...(slot.metadata !== undefined ? { metadata: slot.metadata } : {}) })),
        words: this.vocabulary.words,
        mapKeys,
        pages: this.pages.toState()
      },
      arrays
    }
  }

  /** A catalog from saved parts; undefined when they do not fit together (a damaged or foreign file). */
  static fromParts(parts: CatalogParts): Catalog | undefined {
    const { json, arrays } = parts
    const size = json.size
    const int32 = (name: string, length?: number): Int32Array<ArrayBuffer> | undefined => {
      const array = arrays[name]
      return array instanceof Int32Array && (length === undefined || array.length === length) ? array : undefined
    }
    const packedOf = (name: string, count: number) => {
      const offsets = int32(`${name}.offsets`, count + 1)
      const ids = int32(`${name}.ids`)
      if (offsets === undefined || ids === undefined || offsets[count] !== ids.length) return undefined
      return unpackLists({ offsets, ids })
    }
    const time = arrays.time
    const ok = arrays.ok
    const sortedWords = int32("sortedWords", json.words.length)
    if (!(time instanceof Float64Array) || time.length !== size || !(ok instanceof Uint8Array) || ok.length !== size) return undefined
    if (sortedWords === undefined) return undefined
    const steps = new StepTable([...json.strings], [...json.tools], json.labelSets.map((labels) => [...labels]), json.targets)
    steps.size = size
    steps.time = time
    steps.ok = ok
    steps.dead = new Uint8Array(size)
    for (const name of INT_COLUMNS) {
      const column = int32(name, size)
      if (column === undefined) return undefined
      steps[name] = column
    }
    for (const [id, stamp] of json.timestamps) steps.timestamps.set(id, stamp)
    const words = json.words.length
    const postings: Array<Array<IdList | undefined>> = []
    for (const field of FIELDS) {
      const lists = packedOf(`postings.${field}`, words)
      if (lists === undefined) return undefined
      postings.push(lists)
    }
    const maps: Array<Map<string, IdList>> = []
    for (const name of MAP_NAMES) {
      const keys = json.mapKeys[name]
      const lists = packedOf(`map.${name}`, keys.length)
      if (lists === undefined) return undefined
      const map = new Map<string, IdList>()
      keys.forEach((key, index) => {
        const list = lists[index]
        if (list !== undefined) map.set(key, list)
      })
      maps.push(map)
    }
    const sessionSteps = packedOf("sessionSteps", json.sessions.length)
    const sessionWords = packedOf("sessionWords", json.sessions.length)
    if (sessionSteps === undefined || sessionWords === undefined) return undefined
    if (sessionWords.some((list) => list !== undefined && list.ids.some((word) => word < 0 || word >= words))) return undefined
    const catalog = new Catalog(steps, new Vocabulary([...json.words], sortedWords), postings, maps, PageTracker.fromState(json.pages))
    json.sessions.forEach((session, index) => {
      const slot = catalog.slot(session.sessionId)
      slot.ids = sessionSteps[index] ?? new IdList()
      if (session.metadata !== undefined) {
        const list = sessionWords[index]
        catalog.setMetadata(slot, session.metadata, list === undefined ? [] : Array.from(list.ids))
      }
    })
    return catalog
  }
}
