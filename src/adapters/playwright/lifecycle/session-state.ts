// The values a live session keeps in its Refs, and their transitions as pure functions: the tabs
// (open pages, the active one, ids, roles), the notices for the agent (bounded, coalesced), the
// console of every tab (a ring per tab with a count of what it let go) and the dialog-loop guard.
import type { Page } from "playwright"
import type { TabRole } from "../../../domain/observation.js"
import { appendNewest, withinRingLimit } from "../rings.js"

// ---- tabs -------------------------------------------------------------------------------------

export interface TabState {
  /** Open pages, in the order they were first seen. */
  readonly pages: ReadonlyArray<Page>
  /** The page tools act on. */
  readonly active: Page | undefined
  /** The extension page opened as home at launch, while it is open. */
  readonly homePage: Page | undefined
  readonly notificationPages: ReadonlySet<Page>
  /** Each tab's id for this session ("t1", "t2"...), given when the tab is first seen and never reused. */
  readonly tabIds: ReadonlyMap<Page, string>
  readonly nextTabId: number
}

export const emptyTabs: TabState = {
  pages: [],
  active: undefined,
  homePage: undefined,
  notificationPages: new Set(),
  tabIds: new Map(),
  nextTabId: 1
}

/** What a role depends on besides the tabs: the loaded extension and the notification page's URL. */
export interface RoleFacts {
  readonly extensionId: string | undefined
  readonly notificationUrl: string | undefined
}

export const roleIn = (tabs: TabState, facts: RoleFacts, page: Page): TabRole => {
  const url = page.url()
  if (tabs.notificationPages.has(page)) return "notification"
  if (facts.extensionId !== undefined && url.startsWith(`chrome-extension://${facts.extensionId}/`)) {
    if (facts.notificationUrl !== undefined && url.startsWith(facts.notificationUrl) && page !== tabs.homePage) return "notification"
    return "extension"
  }
  if (url.startsWith("http://") || url.startsWith("https://")) return "app"
  return "other"
}

/** A page seen for the first time gets the next tab id; a known page stays as it is. */
export const tabOpened = (tabs: TabState, page: Page): TabState =>
  tabs.pages.includes(page)
    ? tabs
    : {
        ...tabs,
        pages: [...tabs.pages, page],
        tabIds: tabs.tabIds.has(page) ? tabs.tabIds : new Map(tabs.tabIds).set(page, `t${tabs.nextTabId}`),
        nextTabId: tabs.tabIds.has(page) ? tabs.nextTabId : tabs.nextTabId + 1
      }

export const tabIdIn = (tabs: TabState, page: Page): string => tabs.tabIds.get(page) ?? "t?"

export const withNotification = (tabs: TabState, page: Page, notification: boolean): TabState => {
  if (tabs.notificationPages.has(page) === notification) return tabs
  const next = new Set(tabs.notificationPages)
  if (notification) next.add(page)
  else next.delete(page)
  return { ...tabs, notificationPages: next }
}

/**
 * A page closed: it leaves the tabs, and when it was the active one, tools fall back to the extension
 * home, else an app page, else anything still open. Gives the page that became active, if that changed.
 */
export const tabClosed = (
  tabs: TabState,
  facts: RoleFacts,
  page: Page
): { readonly tabs: TabState; readonly fallback: { readonly to: Page | undefined } | undefined } => {
  const notificationPages = withNotification(tabs, page, false).notificationPages
  const homePage = tabs.homePage === page ? undefined : tabs.homePage
  const pages = tabs.pages.filter((candidate) => candidate !== page)
  const rest: TabState = { ...tabs, pages, notificationPages, homePage }
  if (tabs.active !== page) return { tabs: rest, fallback: undefined }
  const to = homePage ?? pages.find((candidate) => roleIn(rest, facts, candidate) === "app") ?? pages[0]
  return { tabs: { ...rest, active: to }, fallback: { to } }
}

// ---- notices ----------------------------------------------------------------------------------

/** How many different notices wait for the next call; older ones are counted, not kept. */
export const MAX_NOTICES = 20

export interface Notices {
  /** Distinct notices in order of first appearance, each with how often it came. */
  readonly entries: ReadonlyArray<{ readonly text: string; readonly count: number }>
  readonly dropped: number
}

export const noNotices: Notices = { entries: [], dropped: 0 }

/** Adds a notice; one that is already waiting only counts up, so a loop cannot flood the answer. */
export const noticeAdded = (notices: Notices, text: string): Notices => {
  const index = notices.entries.findIndex((entry) => entry.text === text)
  if (index >= 0) {
    const entries = notices.entries.slice()
    entries[index] = { text, count: entries[index]!.count + 1 }
    return { ...notices, entries }
  }
  const entries = [...notices.entries, { text, count: 1 }]
  if (entries.length <= MAX_NOTICES) return { ...notices, entries }
  const [oldest, ...kept] = entries
  return { entries: kept, dropped: notices.dropped + oldest!.count }
}

export const noticesWithout = (notices: Notices, drop: (text: string) => boolean): Notices => ({
  ...notices,
  entries: notices.entries.filter((entry) => !drop(entry.text))
})

export const renderNotices = (notices: Notices): ReadonlyArray<string> => [
  ...(notices.dropped > 0 ? [`${notices.dropped} earlier notice${notices.dropped === 1 ? " was" : "s were"} dropped.`] : []),
  ...notices.entries.map((entry) => (entry.count === 1 ? entry.text : `${entry.text} (x${entry.count})`))
]

// ---- console ----------------------------------------------------------------------------------

/** How many console messages each tab keeps (the newest). */
export const CONSOLE_PER_TAB = 200

/** How many tabs' rings are kept; past it, the ring that was quiet longest goes (closed tabs, usually). */
export const CONSOLE_RINGS = 32

/** How much of one message is kept. */
export const CONSOLE_TEXT_LIMIT = 1_000

/** How much of an uncaught error's stack is kept: its first frames, within a length. */
export const STACK_FRAMES = 10
export const STACK_TEXT_LIMIT = 1_500

export interface ConsoleEntry {
  readonly seq: number
  readonly type: string
  readonly text: string
  readonly url: string
  /** When the session heard it (ms since the epoch). */
  readonly time?: number | undefined
  /** The frames of an uncaught error ("at f (http://…/app.js:12:9)" lines), bounded. */
  readonly stack?: string | undefined
}

/** Where a tab's current document starts in its ring: messages after `seq` are its own. */
export interface NavigationMark {
  /** The session's console sequence number when the tab last navigated. */
  readonly seq: number
  /** Messages of the current document that the ring let go. */
  readonly dropped: number
}

/** One tab's ring: its newest messages, oldest first, and how many it let go. */
export interface ConsoleRing {
  readonly messages: ReadonlyArray<ConsoleEntry>
  readonly dropped: number
  /** The tab's last navigation, once it navigated while the session watched. */
  readonly navigation?: NavigationMark | undefined
}

export interface ConsoleLog {
  /** Sequence number of the newest message of the session. */
  readonly seq: number
  readonly rings: ReadonlyMap<string, ConsoleRing>
}

export const emptyConsole: ConsoleLog = { seq: 0, rings: new Map() }

/** Adds a message to its tab's ring (a copy of at most CONSOLE_PER_TAB entries: well under a microsecond). */
export const consoleLogged = (log: ConsoleLog, tabId: string, message: Omit<ConsoleEntry, "seq">): ConsoleLog => {
  const seq = log.seq + 1
  const entry: ConsoleEntry = {
    seq,
    ...message,
    // A cut ends in "…": the redaction knows where a secret's beginning may have been left.
    text: message.text.length > CONSOLE_TEXT_LIMIT ? `${message.text.slice(0, CONSOLE_TEXT_LIMIT - 1)}…` : message.text,
    ...(message.stack !== undefined ? { stack: boundedStack(message.stack) } : {})
  }
  const ring: ConsoleRing = log.rings.get(tabId) ?? { messages: [], dropped: 0 }
  const { entries: messages, cut } = appendNewest(ring.messages, entry, CONSOLE_PER_TAB)
  const mark = ring.navigation
  const next: ConsoleRing = {
    messages,
    dropped: ring.dropped + cut,
    ...(mark === undefined
      ? {}
      : { navigation: cut === 0 ? mark : { seq: mark.seq, dropped: mark.dropped + countAfter(ring.messages, cut, mark.seq) } })
  }
  return { seq, rings: withinConsoleRings(new Map(log.rings).set(tabId, next)) }
}

/** How many of the first `count` messages came after `seq`. */
const countAfter = (messages: ReadonlyArray<ConsoleEntry>, count: number, seq: number) => {
  let after = 0
  for (let index = 0; index < count; index++) if (messages[index]!.seq > seq) after++
  return after
}

/** Past CONSOLE_RINGS rings, the one that was quiet longest goes (closed tabs, usually). */
const withinConsoleRings = (rings: Map<string, ConsoleRing>): Map<string, ConsoleRing> =>
  withinRingLimit(rings, CONSOLE_RINGS, (ring) => Math.max(ring.messages.at(-1)?.seq ?? 0, ring.navigation?.seq ?? 0))

/** The first STACK_FRAMES frames of a stack, within STACK_TEXT_LIMIT characters; a message line before them is left out. */
export const boundedStack = (stack: string): string => {
  const lines = stack.split("\n")
  const firstFrame = lines.findIndex((line) => /^\s+at /.test(line))
  const frames = (firstFrame < 0 ? lines : lines.slice(firstFrame)).map((line) => line.trim()).filter((line) => line !== "")
  const kept = frames.slice(0, STACK_FRAMES)
  const more = frames.length - kept.length
  const joined = kept.join("\n")
  const text = joined.length > STACK_TEXT_LIMIT ? `${joined.slice(0, STACK_TEXT_LIMIT - 1)}…` : joined
  return more > 0 ? `${text}\n… ${more} more frame${more === 1 ? "" : "s"}` : text
}

/** The tab navigated: its messages from now on belong to the new page. */
export const consoleNavigated = (log: ConsoleLog, tabId: string): ConsoleLog => {
  const ring: ConsoleRing = log.rings.get(tabId) ?? { messages: [], dropped: 0 }
  const next: ConsoleRing = { ...ring, navigation: { seq: log.seq, dropped: 0 } }
  return { seq: log.seq, rings: withinConsoleRings(new Map(log.rings).set(tabId, next)) }
}

/**
 * One tab's kept messages, oldest first: all of them, or those since its last navigation; with how
 * many of those the ring let go. A tab the session never heard from has none.
 */
export const consoleOfTab = (
  log: ConsoleLog,
  tabId: string,
  since: "navigation" | "all"
): { readonly messages: ReadonlyArray<ConsoleEntry>; readonly dropped: number } => {
  const ring = log.rings.get(tabId)
  if (ring === undefined) return { messages: [], dropped: 0 }
  if (since === "all" || ring.navigation === undefined) return { messages: ring.messages, dropped: ring.dropped }
  const mark = ring.navigation
  return { messages: ring.messages.filter((entry) => entry.seq > mark.seq), dropped: mark.dropped }
}

/** The messages of every tab after `cursor`, oldest first, with how many of those the rings let go. */
export const consoleAfter = (log: ConsoleLog, cursor: number): { readonly messages: ReadonlyArray<ConsoleEntry>; readonly dropped: number } => {
  const messages: Array<ConsoleEntry> = []
  for (const ring of log.rings.values()) for (const entry of ring.messages) if (entry.seq > cursor) messages.push(entry)
  messages.sort((a, b) => a.seq - b.seq)
  return { messages, dropped: Math.max(0, log.seq - cursor) - messages.length }
}

// ---- dialogs ----------------------------------------------------------------------------------

/** A page that opens this many dialogs within DIALOG_LOOP_WINDOW_MS runs a dialog loop. */
export const DIALOG_LOOP_COUNT = 20
export const DIALOG_LOOP_WINDOW_MS = 2_000

export interface DialogRate {
  readonly windowStart: number
  readonly count: number
  /** When the page's latest dialog opened. */
  readonly last: number
}

/** A page that opened a dialog this recently may open another while it is being left. */
export const DIALOG_RECENT_MS = 2_000

/** Counts a dialog of a page; `loop` when it is the one that reaches the loop threshold in its window. */
export const dialogCounted = (
  rate: DialogRate | undefined,
  now: number
): { readonly rate: DialogRate; readonly loop: boolean } => {
  const current = rate === undefined || now - rate.windowStart > DIALOG_LOOP_WINDOW_MS ? { windowStart: now, count: 0 } : rate
  const next = { windowStart: current.windowStart, count: current.count + 1, last: now }
  return { rate: next, loop: next.count === DIALOG_LOOP_COUNT }
}
