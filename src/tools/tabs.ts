// Tabs across a flow: wait for the extension's notification; list, switch to and close tabs by id, role
// or URL with one tool (mm_tabs {action}), as Playwright MCP's browser_tabs does; the three tools it
// replaced stay callable under their old names (unlisted) for clients and recordings that use them.
import { Effect, Order, Schema } from "effect"
import { NotificationTimeout } from "../domain/errors.js"
import { TabId, TabInfo, TabRole, TabRoleInput, Tabs, type TabInfo as TabInfoType } from "../domain/observation.js"
import { defineTool, Evident, ListedAs, Unlisted, type ListingState, type Replay } from "../runtime/tool.js"
import { Session, type TabSelector } from "../services/Session.js"
import { DEADLINE_SLACK_MS, timeoutField } from "./shared.js"

/** Tab id, role or URL prefix; at least one, and all given must match. */
const SelectorFields = {
  tabId: Schema.optional(TabId).annotations({ description: 'Tab id, e.g. "t3".' }),
  role: Schema.optional(TabRoleInput).annotations({ description: "Tab role." }),
  url: Schema.optional(Schema.String.pipe(Schema.minLength(1))).annotations({ description: "URL prefix." })
}

/** A tab id means something only in the session that gave it: a replay chooses by role or URL. */
const tabReplay: Replay = {
  args: (args) => {
    if (args.tabId === undefined) return { args }
    const { tabId: _tabId, ...rest } = args
    return rest.role === undefined && rest.url === undefined
      ? { skip: "chose its tab by id only, which names nothing in another session" }
      : { args: rest }
  }
}

/** Tab tools matter once a second tab is open (a popup, a notification, a new tab). */
const tabTool = { group: "tabs", requiresSession: true, listedWhen: (state: ListingState) => state.tabs > 1 } as const

const needsSelector = <A extends TabSelector>(input: A) =>
  input.tabId !== undefined || input.role !== undefined || input.url !== undefined
    ? true
    : { path: ["tabId"], message: "give tabId, role or url (all that are given must match)" }

const selectorOf = (input: TabSelector): TabSelector => ({
  ...(input.tabId !== undefined ? { tabId: input.tabId } : {}),
  ...(input.role !== undefined ? { role: input.role } : {}),
  ...(input.url !== undefined ? { url: input.url } : {})
})

/** The tab tools act on now; absent when none is open. */
const ActiveTab = Tabs.fields.active

export const waitForNotification = defineTool({
  name: "wait_for_notification",
  prior: {},
  title: "Wait for a notification",
  description: "Wait for the extension's notification tab and make it active.",
  input: Schema.Struct({ timeoutMs: timeoutField(1_000, 60_000, 15_000) }),
  output: Schema.Struct({
    found: Schema.Boolean.annotations({ description: "Always true on success." }),
    pageUrl: Schema.String.annotations({ description: "URL of the notification tab, now active." }),
    title: Schema.String.annotations({ description: "Title of the notification tab." })
  }),
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
  group: "extension",
  requiresSession: true,
  requiresExtension: true,
  whilePaused: "blocked",
  stepKinds: ["navigation"],
  observation: "default",
  deadlineMs: (input) => input.timeoutMs + DEADLINE_SLACK_MS,
  onDeadline: (_input, timeoutMs) => new NotificationTimeout({ timeoutMs, openTabs: [] }),
  run: Effect.fn("tool.wait_for_notification")(function* (input) {
    const session = yield* Session
    const tab = yield* session.waitForNotification({ timeoutMs: input.timeoutMs })
    return { found: true, pageUrl: tab.url, title: tab.title }
  })
})

export const switchToTab = defineTool({
  name: "switch_to_tab",
  prior: {},
  title: "Switch tab",
  description: "Make a tab the one tools act on (the newest match). Returns {switched, tab}.",
  // mm_tabs {action: "switch"} does this.
  unlisted: true,
  input: Schema.Struct(SelectorFields).pipe(Schema.filter(needsSelector)),
  output: Schema.Struct({
    switched: Schema.Boolean.annotations({ description: "Always true on success." }),
    tab: TabInfo
  }),
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
  ...tabTool,
  whilePaused: "blocked",
  stepKinds: ["navigation"],
  replay: tabReplay,
  observation: "default",
  run: Effect.fn("tool.switch_to_tab")(function* (input) {
    const session = yield* Session
    return { switched: true, tab: yield* session.switchTab(selectorOf(input)) }
  })
})

export const closeTab = defineTool({
  name: "close_tab",
  prior: {},
  title: "Close tab",
  description: "Close a tab (the newest match; never the extension home). Returns {closed, active}.",
  // mm_tabs {action: "close"} does this.
  unlisted: true,
  input: Schema.Struct(SelectorFields).pipe(Schema.filter(needsSelector)),
  output: Schema.Struct({
    closed: Schema.Boolean.annotations({ description: "Always true on success." }),
    tab: TabInfo,
    active: ActiveTab
  }),
  annotations: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  ...tabTool,
  whilePaused: "blocked",
  stepKinds: ["navigation"],
  replay: tabReplay,
  observation: "none",
  run: Effect.fn("tool.close_tab")(function* (input) {
    const session = yield* Session
    const { closed, active } = yield* session.closeTab(selectorOf(input))
    return { closed: true, tab: closed, active }
  })
})

// list_tabs: filtering, grouping and ordering are pure functions of the tracked tabs.

export const TabGroupBy = Schema.Literal("none", "role", "host")
export const TabOrderBy = Schema.Literal("title", "url", "host", "role")

const ListedTab = Schema.Struct({
  ...TabInfo.fields,
  host: Schema.String.annotations({ description: 'Host of the URL (the extension id for extension pages), or "(no host)".' })
})
type ListedTab = typeof ListedTab.Type

const TabGroup = Schema.Struct({
  key: Schema.String.annotations({ description: 'The role or host of the group; "all" when not grouped.' }),
  tabs: Schema.Array(ListedTab)
})

export const NO_HOST = "(no host)"

export const hostOf = (url: string): string => {
  try {
    const host = new URL(url).host.toLowerCase()
    return host === "" ? NO_HOST : host
  } catch {
    return NO_HOST
  }
}

const roleRank: Record<TabRole, number> = { extension: 0, notification: 1, app: 2, other: 3 }

const byText = (key: (tab: ListedTab) => string) => Order.mapInput(Order.string, (tab: ListedTab) => key(tab).toLowerCase())
const tabOrders: Record<typeof TabOrderBy.Type, Order.Order<ListedTab>> = {
  title: byText((tab) => tab.title),
  url: byText((tab) => tab.url),
  host: byText((tab) => tab.host),
  role: Order.mapInput(Order.number, (tab: ListedTab) => roleRank[tab.role])
}

export interface ListTabsOptions {
  readonly filter?: string | undefined
  readonly groupBy: typeof TabGroupBy.Type
  readonly orderBy?: typeof TabOrderBy.Type | undefined
}

/** Filters (case-insensitive regex on URL or title), groups and orders tabs; groups sort by role rank or host name. */
export const arrangeTabs = (tabs: ReadonlyArray<TabInfoType>, options: ListTabsOptions) => {
  const pattern = options.filter === undefined ? undefined : new RegExp(options.filter, "i")
  const listed: Array<ListedTab> = tabs
    .filter((tab) => pattern === undefined || pattern.test(tab.url) || pattern.test(tab.title))
    .map((tab) => ({ ...tab, host: hostOf(tab.url) }))
  const keyOf = (tab: ListedTab) => (options.groupBy === "role" ? tab.role : options.groupBy === "host" ? tab.host : "all")
  const groups = new Map<string, Array<ListedTab>>()
  for (const tab of listed) {
    const key = keyOf(tab)
    groups.set(key, [...(groups.get(key) ?? []), tab])
  }
  const keyOrder: Order.Order<string> =
    options.groupBy === "role"
      ? Order.mapInput(Order.number, (key: string) => roleRank[key as TabRole])
      : // "(no host)" last: it is the odd one out, not a host named with a parenthesis.
        Order.combine(
          Order.mapInput(Order.boolean, (key: string) => key === NO_HOST),
          Order.string
        )
  const sortTabs = (group: ReadonlyArray<ListedTab>) =>
    options.orderBy === undefined ? group : [...group].sort(tabOrders[options.orderBy])
  return [...groups.entries()]
    .sort(([a], [b]) => keyOrder(a, b))
    .map(([key, group]) => ({ key, tabs: sortTabs(group) }))
}

/** The short text an agent reads at a glance; the structured groups carry the same data. */
export const renderTabs = (groups: ReadonlyArray<typeof TabGroup.Type>, groupBy: typeof TabGroupBy.Type): string => {
  const total = groups.reduce((sum, group) => sum + group.tabs.length, 0)
  if (total === 0) return "No tabs found matching the criteria."
  const line = (tab: ListedTab) => `${tab.active ? "* " : "- "}${tab.tabId} [${tab.role}] ${tab.title || "(untitled)"} ${tab.url}`
  const header = `Found ${total} tab${total === 1 ? "" : "s"}`
  if (groupBy === "none") return [header, ...groups.flatMap((group) => group.tabs.map(line))].join("\n")
  return [
    `${header} in ${groups.length} group${groups.length === 1 ? "" : "s"} by ${groupBy}`,
    ...groups.flatMap((group) => [`## ${group.key} (${group.tabs.length})`, ...group.tabs.map(line)])
  ].join("\n")
}

const RegexSource = Schema.String.pipe(
  Schema.minLength(1),
  Schema.maxLength(500),
  Schema.filter((source) => {
    try {
      new RegExp(source, "i")
      return true
    } catch (error) {
      return `is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}`
    }
  })
)

export const listTabs = defineTool({
  name: "list_tabs",
  title: "List tabs",
  description: "Open tabs: id, role, url, title. Returns {total, groups, text}.",
  // mm_tabs {action: "list"} does this.
  unlisted: true,
  input: Schema.Struct({
    filter: Schema.optional(RegexSource).annotations({
      description: "Regex on url or title."
    }),
    groupBy: Schema.optionalWith(TabGroupBy, { default: () => "none" as const }).annotations({
      description: "Group by."
    }),
    orderBy: Schema.optional(TabOrderBy).annotations({
      description: "Order by."
    })
  }),
  output: Schema.Struct({
    total: Schema.Number.annotations({ description: "Number of tabs listed (after the filter)." }),
    groups: Schema.Array(TabGroup).annotations({ description: "Groups in role order or by host name; one group when not grouped." }),
    text: Schema.String.annotations({ description: "The same listing as short text." })
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
  concurrencySafe: true,
  ...tabTool,
  observation: "none",
  run: Effect.fn("tool.list_tabs")(function* (input) {
    const session = yield* Session
    const { tracked } = yield* session.tabs
    const groups = arrangeTabs(tracked, input)
    return {
      total: groups.reduce((sum, group) => sum + group.tabs.length, 0),
      groups,
      text: renderTabs(groups, input.groupBy)
    }
  })
})

const TabAction = Schema.Literal("list", "switch", "close")

const TabsInput = Schema.Struct({
  action: TabAction.annotations({ description: "switch: tools then act on it." }),
  // The tab to switch to or close: listed as in the old tools, with shorter words.
  tabId: Schema.optional(TabId).annotations({ description: 'E.g. "t3".', [Evident]: true }),
  // "dapp" (an alias of app) is accepted, not listed.
  role: Schema.optional(TabRoleInput).annotations({
    description: "Tab role.",
    [Evident]: true,
    [ListedAs]: { type: "string", enum: ["extension", "notification", "app", "other"] }
  }),
  url: SelectorFields.url,
  // list_tabs' options, accepted for list; an agent reads the few tabs there are.
  filter: Schema.optional(RegexSource).annotations({ description: "list: regex on url or title.", [Unlisted]: true }),
  groupBy: Schema.optional(TabGroupBy).annotations({ description: "list: group by.", [Unlisted]: true }),
  orderBy: Schema.optional(TabOrderBy).annotations({ description: "list: order by.", [Unlisted]: true })
}).pipe(
  Schema.filter((input) =>
    input.action === "list"
      ? input.tabId === undefined && input.role === undefined && input.url === undefined
        ? true
        : { path: ["action"], message: "list takes no tabId, role or url (use filter to narrow it)" }
      : input.filter !== undefined || input.groupBy !== undefined || input.orderBy !== undefined
        ? { path: ["action"], message: `${input.action} takes tabId, role or url, not filter, groupBy or orderBy` }
        : needsSelector(input)
  )
)

export const tabs = defineTool({
  name: "tabs",
  prior: {},
  title: "Tabs",
  description:
    "List tabs, or switch to or close the newest one matching tabId, role and url.",
  input: TabsInput,
  output: Schema.Struct({
    tabs: Schema.optional(Schema.String).annotations({ description: 'list: one line per tab, "* " for the active one: id [role] title url.' }),
    tab: Schema.optional(TabInfo).annotations({ description: "switch: the tab now active." }),
    closed: Schema.optional(TabInfo).annotations({ description: "close: the tab closed." }),
    active: Schema.optional(Schema.Struct({ tabId: TabId, role: TabRole, url: Schema.String })).annotations({
      description: "close: the tab tools act on now, if any."
    })
  }),
  annotations: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  ...tabTool,
  stepKinds: ["navigation"],
  replay: {
    args: (args) => (args.action === "list" ? { skip: "read-only" } : (tabReplay.args?.(args) ?? { args }))
  },
  // A switch shows the page it made active (what changed since this client last saw it).
  observation: "default",
  run: Effect.fn("tool.tabs")(function* (input) {
    const session = yield* Session
    switch (input.action) {
      case "list": {
        const { tracked } = yield* session.tabs
        const groupBy = input.groupBy ?? "none"
        return { tabs: renderTabs(arrangeTabs(tracked, { filter: input.filter, groupBy, orderBy: input.orderBy }), groupBy) }
      }
      case "switch":
        return { tab: yield* session.switchTab(selectorOf(input)) }
      case "close": {
        const { closed, active } = yield* session.closeTab(selectorOf(input))
        return active === null ? { closed } : { closed, active }
      }
    }
  })
})
