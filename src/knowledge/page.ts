// The page as the agent saw it before each step: per session, the last observation of each page, with
// changes-only observations merged into what earlier ones reported. Prior knowledge compares a screen with
// the page a past step started from, not only with the (often partial) observation recorded after it.
import type { Observation } from "../domain/observation.js"
import { indexedText } from "./text.js"

/** What similarity compares: screen, place (origin + path + hash), test ids and accessible names, all normalized. */
export interface PageFacts {
  readonly screen: string | undefined
  readonly place: string | undefined
  /** Lower-case, each once. */
  readonly testIds: ReadonlyArray<string>
  /** Trimmed, lower-case, non-empty, each once. */
  readonly names: ReadonlyArray<string>
}

/** "unknown" or empty is no screen at all. */
export const knownScreen = (screen: string | undefined) => (screen === undefined || screen === "" || screen === "unknown" ? undefined : screen)

/** Where a URL is, as the index keeps it: its place (what similarity compares) and its path (what search reads). */
export interface Located {
  /** Origin (scheme, host, port), path and hash: the same path on another port or host is another app's page. */
  readonly place: string
  /** Path and hash: the words a search finds the page by (the origin's host and port would match every page of it). */
  readonly path: string
}

export const locate = (url: string | undefined): Located | undefined => {
  if (url === undefined || !URL.canParse(url)) return undefined
  const parsed = new URL(url)
  const path = `${parsed.pathname}${parsed.hash}`
  return { place: indexedText(`${parsed.protocol}//${parsed.host}${path}`), path: indexedText(path) }
}

/** The place of a URL (see Located): what "the same place" means for prior knowledge. */
export const placeOf = (url: string | undefined): string | undefined => locate(url)?.place

/** The path and hash of a URL (see Located), as the url field of a search reads it. */
export const pathOf = (url: string | undefined): string | undefined => locate(url)?.path

/** A test id as similarity compares it. */
export const testIdKey = (testId: string): string => indexedText(testId.toLowerCase())
/** An accessible name as similarity compares it; empty names say nothing and give "". */
export const nameKey = (name: string): string => indexedText(name.trim().toLowerCase())

export type PlaceOf = (url: string | undefined) => string | undefined

/** The facts of one observation on its own. */
export const factsOfObservation = (observation: Observation | undefined, place: PlaceOf = placeOf): PageFacts => {
  const screen = knownScreen(observation?.state.currentScreen)
  return {
    screen: screen === undefined ? undefined : indexedText(screen),
    place: place(observation?.state.currentUrl),
    testIds: [...new Set((observation?.testIds ?? []).map((item) => testIdKey(item.testId)))],
    names: [...new Set((observation?.a11y?.nodes ?? []).map((node) => nameKey(node.name)).filter((name) => name !== ""))]
  }
}

/** A document, as far as observations tell: the URL without its hash (refs and changes-only are per document). */
const documentOf = (url: string) => {
  const hash = url.indexOf("#")
  return indexedText(hash < 0 ? url : url.slice(0, hash))
}

/** Caps of what is kept per page (the newest are kept): as much as one observation reports, bounded against endless lists. */
const PAGE_LIMITS = { testIds: 50, nodes: 150, pagesPerSession: 4 } as const

/** What is known of one page: its last state and what observations reported on it, changes merged in. */
export interface PageState {
  document: string
  screen: string | undefined
  place: string | undefined
  /** Lower-case test ids, oldest first. */
  testIds: Map<string, true>
  /** Ref to normalized name. */
  nodes: Map<string, string>
}

/** Per session: its pages, the current one last. */
export interface SessionPages {
  pages: Array<PageState>
}

const trim = <K, V>(map: Map<K, V>, limit: number) => {
  for (const key of map.keys()) {
    if (map.size <= limit) return
    map.delete(key)
  }
}

/** The serializable form of a tracker: sessions in least-recently-used order. */
export type PageTrackerState = ReadonlyArray<{
  readonly sessionId: string
  readonly pages: ReadonlyArray<{
    readonly document: string
    readonly screen?: string
    readonly place?: string
    readonly testIds: ReadonlyArray<string>
    readonly nodes: ReadonlyArray<readonly [string, string]>
  }>
}>

/**
 * Pages per session for the most recently active sessions: a store loads session after session and a
 * server writes one session at a time, so a small number covers every session that is still being recorded.
 */
export class PageTracker {
  private readonly sessions = new Map<string, SessionPages>()

  constructor(private readonly maxSessions = 64) {}

  /** The page the session's agent saw last, or undefined when nothing was observed yet. */
  before(sessionId: string): PageFacts | undefined {
    const pages = this.sessions.get(sessionId)?.pages
    const page = pages?.[pages.length - 1]
    if (page === undefined) return undefined
    const names = new Set<string>()
    for (const name of page.nodes.values()) if (name !== "") names.add(name)
    return { screen: page.screen, place: page.place, testIds: [...page.testIds.keys()], names: [...names] }
  }

  /** Takes a step's observation into account: a full one replaces what was known of its page, changes are merged. */
  apply(sessionId: string, observation: Observation | undefined, place: PlaceOf = placeOf): void {
    if (observation === undefined) return
    let session = this.sessions.get(sessionId)
    if (session === undefined) session = { pages: [] }
    this.sessions.delete(sessionId)
    this.sessions.set(sessionId, session)
    if (this.sessions.size > this.maxSessions) this.sessions.delete(this.sessions.keys().next().value!)

    const document = documentOf(observation.state.currentUrl)
    const index = session.pages.findIndex((page) => page.document === document)
    const page: PageState =
      index >= 0 ? session.pages.splice(index, 1)[0]! : { document, screen: undefined, place: undefined, testIds: new Map(), nodes: new Map() }
    session.pages.push(page)
    if (session.pages.length > PAGE_LIMITS.pagesPerSession) session.pages.shift()

    const screen = knownScreen(observation.state.currentScreen)
    page.screen = screen === undefined ? undefined : indexedText(screen)
    page.place = place(observation.state.currentUrl)
    if (observation.testIds !== undefined) {
      // Without a count of unchanged ones (a full list) or with none unchanged, the list is everything visible.
      if ((observation.testIdsUnchanged ?? 0) === 0) page.testIds.clear()
      for (const item of observation.testIds) {
        const key = testIdKey(item.testId)
        page.testIds.delete(key)
        page.testIds.set(key, true)
      }
      trim(page.testIds, PAGE_LIMITS.testIds)
    }
    const a11y = observation.a11y
    if (a11y !== undefined) {
      if (a11y.changesOnly !== true || (a11y.unchanged ?? 0) === 0) page.nodes.clear()
      for (const ref of a11y.removed ?? []) page.nodes.delete(ref)
      for (const node of a11y.nodes) {
        page.nodes.delete(node.ref)
        page.nodes.set(node.ref, nameKey(node.name))
      }
      trim(page.nodes, PAGE_LIMITS.nodes)
    }
  }

  forget(sessionId: string): void {
    this.sessions.delete(sessionId)
  }

  toState(): PageTrackerState {
    return [...this.sessions].map(([sessionId, session]) => ({
      sessionId,
      pages: session.pages.map((page) => ({
        document: page.document,
        ...(page.screen !== undefined ? { screen: page.screen } : {}),
        ...(page.place !== undefined ? { place: page.place } : {}),
        testIds: [...page.testIds.keys()],
        nodes: [...page.nodes]
      }))
    }))
  }

  static fromState(state: PageTrackerState, maxSessions?: number): PageTracker {
    const tracker = new PageTracker(maxSessions)
    for (const session of state) {
      tracker.sessions.set(session.sessionId, {
        pages: session.pages.map((page) => ({
          document: page.document,
          screen: page.screen,
          place: page.place,
          testIds: new Map(page.testIds.map((testId) => [testId, true] as const)),
          nodes: new Map(page.nodes)
        }))
      })
    }
    return tracker
  }
}
