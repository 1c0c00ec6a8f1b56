// The pure transitions behind the session's Refs: notices are bounded and coalesced, each tab's
// console ring keeps its newest messages and counts the rest, tabs fall back when the active one
// closes, and a dialog loop is recognised.
import { describe, expect, it } from "@effect/vitest"
import type { Page } from "playwright"
import {
  CONSOLE_PER_TAB,
  CONSOLE_RINGS,
  consoleAfter,
  consoleLogged,
  DIALOG_LOOP_COUNT,
  DIALOG_LOOP_WINDOW_MS,
  dialogCounted,
  emptyConsole,
  emptyTabs,
  MAX_NOTICES,
  noNotices,
  noticeAdded,
  noticesWithout,
  renderNotices,
  roleIn,
  tabClosed,
  tabIdIn,
  tabOpened,
  withNotification,
  type ConsoleLog,
  type DialogRate,
  type Notices,
  type TabState
} from "../../src/adapters/playwright/lifecycle/session-state.js"

/** A stand-in page: only its URL matters to these functions. */
const fakePage = (url: string) => ({ url: () => url }) as unknown as Page

const facts = { extensionId: "abcdefghijklmnopabcdefghijklmnop", notificationUrl: "chrome-extension://abcdefghijklmnopabcdefghijklmnop/notification.html" }

describe("notices", () => {
  it("the same notice a thousand times is one line with its count", () => {
    let notices: Notices = noNotices
    for (let i = 0; i < 1534; i++) notices = noticeAdded(notices, `An alert dialog said "1"; it was dismissed.`)
    notices = noticeAdded(notices, "A new tab opened: about:blank.")
    expect(renderNotices(notices)).toEqual([`An alert dialog said "1"; it was dismissed. (x1534)`, "A new tab opened: about:blank."])
  })

  it("at most MAX_NOTICES different notices wait; the oldest go and are counted", () => {
    let notices: Notices = noNotices
    for (let i = 0; i < MAX_NOTICES + 5; i++) notices = noticeAdded(notices, `notice ${i}`)
    const rendered = renderNotices(notices)
    expect(rendered).toHaveLength(MAX_NOTICES + 1)
    expect(rendered[0]).toBe("5 earlier notices were dropped.")
    expect(rendered[1]).toBe("notice 5")
    expect(rendered.at(-1)).toBe(`notice ${MAX_NOTICES + 4}`)
  })

  it("notices can be dropped by their text", () => {
    const notices = noticeAdded(noticeAdded(noNotices, "A new tab opened: x."), "The active tab closed.")
    expect(renderNotices(noticesWithout(notices, (text) => text.startsWith("A new tab")))).toEqual(["The active tab closed."])
  })
})

describe("console rings", () => {
  const log = (count: number, tabId: string, from: ConsoleLog = emptyConsole) => {
    let next = from
    for (let i = 0; i < count; i++) next = consoleLogged(next, tabId, { type: "log", text: `${tabId} ${i}`, url: "http://127.0.0.1/" })
    return next
  }

  it("a tab keeps its newest CONSOLE_PER_TAB messages and counts what it let go", () => {
    const flooded = log(CONSOLE_PER_TAB + 300, "t1")
    const ring = flooded.rings.get("t1")!
    expect(ring.messages).toHaveLength(CONSOLE_PER_TAB)
    expect(ring.dropped).toBe(300)
    expect(ring.messages.at(-1)?.text).toBe(`t1 ${CONSOLE_PER_TAB + 299}`)
    const after = consoleAfter(flooded, 0)
    expect(after.dropped).toBe(300)
    expect(after.messages[0]?.text).toBe("t1 300")
  })

  it("each tab has its own ring: a flooding tab does not push out a quiet one's messages", () => {
    const quiet = log(3, "t2")
    const both = log(5 * CONSOLE_PER_TAB, "t1", quiet)
    const after = consoleAfter(both, 0)
    expect(after.messages.filter((entry) => entry.text.startsWith("t2"))).toHaveLength(3)
    expect(after.messages).toHaveLength(CONSOLE_PER_TAB + 3)
    expect(after.messages.map((entry) => entry.seq)).toEqual([...after.messages.map((entry) => entry.seq)].sort((a, b) => a - b))
  })

  it("reading after a cursor gives only newer messages, and the count of the newer ones that are gone", () => {
    const first = log(10, "t1")
    const cursor = first.seq
    const later = log(CONSOLE_PER_TAB + 50, "t1", first)
    const after = consoleAfter(later, cursor)
    expect(after.messages).toHaveLength(CONSOLE_PER_TAB)
    expect(after.dropped).toBe(50)
    expect(consoleAfter(later, later.seq)).toEqual({ messages: [], dropped: 0 })
  })

  it("messages are cut to a bounded length, and the number of rings is bounded", () => {
    const long = consoleLogged(emptyConsole, "t1", { type: "log", text: "x".repeat(100_000), url: "" })
    expect(long.rings.get("t1")!.messages[0]!.text.length).toBeLessThanOrEqual(1_000)
    let many = emptyConsole
    for (let tab = 0; tab < CONSOLE_RINGS + 10; tab++) many = log(1, `t${tab}`, many)
    expect(many.rings.size).toBe(CONSOLE_RINGS)
    // The quietest rings went first: the newest tabs are still there.
    expect(many.rings.has(`t${CONSOLE_RINGS + 9}`)).toBe(true)
    expect(many.rings.has("t0")).toBe(false)
  })
})

describe("tabs", () => {
  const app = fakePage("http://127.0.0.1/app")
  const other = fakePage("about:blank")
  const home = fakePage(`chrome-extension://${facts.extensionId}/popup.html`)
  const notification = fakePage(`chrome-extension://${facts.extensionId}/notification.html`)

  const open = (...pages: Array<Page>): TabState => pages.reduce(tabOpened, emptyTabs)

  it("tab ids are given in order of first sight and never change", () => {
    const tabs = tabOpened(open(other, app), other)
    expect(tabs.pages).toHaveLength(2)
    expect([tabIdIn(tabs, other), tabIdIn(tabs, app)]).toEqual(["t1", "t2"])
  })

  it("roles come from the URL, the home page and the notification mark", () => {
    const tabs = { ...open(app, home, notification, other), homePage: home }
    expect([app, home, notification, other].map((page) => roleIn(tabs, facts, page))).toEqual(["app", "extension", "notification", "other"])
    expect(roleIn(withNotification(tabs, app, true), facts, app)).toBe("notification")
  })

  it("when the active tab closes, tools fall back to the extension home, else an app tab, else any", () => {
    const tabs = { ...open(other, app, home), homePage: home, active: app }
    expect(tabClosed(tabs, facts, app).fallback).toEqual({ to: home })
    const noHome = { ...open(other, app, notification), active: notification }
    expect(tabClosed(noHome, facts, notification).fallback).toEqual({ to: app })
    const lastOne = { ...open(app), active: app }
    expect(tabClosed(lastOne, facts, app)).toMatchObject({ fallback: { to: undefined }, tabs: { pages: [] } })
    // Another tab closing changes nothing for the active one.
    expect(tabClosed({ ...open(app, other), active: app }, facts, other).fallback).toBeUndefined()
  })
})

describe("dialog loops", () => {
  it("DIALOG_LOOP_COUNT dialogs within the window make a loop, reported once", () => {
    let rate: DialogRate | undefined
    const loops: Array<number> = []
    for (let i = 0; i < 3 * DIALOG_LOOP_COUNT; i++) {
      const counted = dialogCounted(rate, 1_000 + i)
      rate = counted.rate
      if (counted.loop) loops.push(i)
    }
    expect(loops).toEqual([DIALOG_LOOP_COUNT - 1])
  })

  it("dialogs spread out over time are no loop", () => {
    let rate: DialogRate | undefined
    let loop = false
    for (let i = 0; i < 3 * DIALOG_LOOP_COUNT; i++) {
      const counted = dialogCounted(rate, i * (DIALOG_LOOP_WINDOW_MS / 4))
      rate = counted.rate
      loop ||= counted.loop
    }
    expect(loop).toBe(false)
  })
})
