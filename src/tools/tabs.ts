// Tabs across a flow: wait for the extension's notification, switch, close and list tabs by role or URL.
import { Effect, Order, Schema } from "effect"
import { NotificationTimeout } from "../domain/errors.js"
import { TabId, TabInfo, TabRole, TabRoleInput, type TabInfo as TabInfoType } from "../domain/observation.js"
import { defineTool } from "../runtime/tool.js"
import { Session, type TabSelector } from "../services/Session.js"
import { DEADLINE_SLACK_MS, timeoutField } from "./shared.js"

/** Tab id, role or URL prefix; at least one, and all given must match. */
const SelectorFields = {
  tabId: Schema.optional(TabId).annotations({
    description: 'Id of the tab from mm_list_tabs or mm_get_state, e.g. "t3": exactly that tab.'
  }),
  role: Schema.optional(TabRoleInput).annotations({
    description: 'Tab role: extension, notification, app (alias "dapp") or other. With url, both must match.'
  }),
  url: Schema.optional(Schema.String.pipe(Schema.minLength(1))).annotations({
    description: "URL prefix of the tab, e.g. http://127.0.0.1:3000/checkout."
  })
}

const needsSelector = <A extends TabSelector>(input: A) =>
  input.tabId !== undefined || input.role !== undefined || input.url !== undefined
    ? true
    : { path: ["tabId"], message: "give tabId, role or url (all that are given must match)" }

const selectorOf = (input: TabSelector): TabSelector => ({
  ...(input.tabId !== undefined ? { tabId: input.tabId } : {}),
  ...(input.role !== undefined ? { role: input.role } : {}),
  ...(input.url !== undefined ? { url: input.url } : {})
})

const ActiveTab = Schema.NullOr(Schema.Struct({ tabId: TabId, role: TabRole, url: Schema.String })).annotations({
  description: "The tab tools act on now, or null when none is open."
})

export const waitForNotification = defineTool({
  name: "wait_for_notification",
  title: "Wait for a notification",
  description:
    "Wait until the extension's notification page is open (e.g. after the web app asked the extension to confirm something) and make it the active tab, so the next click acts in it. Returns {found, pageUrl, title}. Fails with MM_NOTIFICATION_TIMEOUT listing the open tabs when none appears.",
  input: Schema.Struct({ timeoutMs: timeoutField(1_000, 60_000, 15_000) }),
  output: Schema.Struct({
    found: Schema.Boolean.annotations({ description: "Always true on success." }),
    pageUrl: Schema.String.annotations({ description: "URL of the notification tab, now active." }),
    title: Schema.String.annotations({ description: "Title of the notification tab." })
  }),
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
  requiresSession: true,
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
  title: "Switch tab",
  description:
    "Make another open tab the active one (the tab every other tool acts on), chosen by tabId (from mm_list_tabs), role and/or URL prefix; the newest match wins, the extension home for role extension. Returns {switched, tab}; the observation shows the tab switched to. MM_TAB_NOT_FOUND lists the open tabs.",
  input: Schema.Struct(SelectorFields).pipe(Schema.filter(needsSelector)),
  output: Schema.Struct({
    switched: Schema.Boolean.annotations({ description: "Always true on success." }),
    tab: TabInfo
  }),
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
  requiresSession: true,
  observation: "default",
  run: Effect.fn("tool.switch_to_tab")(function* (input) {
    const session = yield* Session
    return { switched: true, tab: yield* session.switchTab(selectorOf(input)) }
  })
})

export const closeTab = defineTool({
  name: "close_tab",
  title: "Close tab",
  description:
    "Close an open tab chosen by tabId (from mm_list_tabs), role and/or URL prefix (the newest match). The extension home is never closed. When the active tab closes, tools fall back to the extension home, else an app tab, else any tab. Returns {closed, tab, active}.",
  input: Schema.Struct(SelectorFields).pipe(Schema.filter(needsSelector)),
  output: Schema.Struct({
    closed: Schema.Boolean.annotations({ description: "Always true on success." }),
    tab: TabInfo,
    active: ActiveTab
  }),
  annotations: { readOnly: false, destructive: true, idempotent: false, openWorld: true },
  requiresSession: true,
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
  description:
    "List the open tabs with their id (e.g. t3, stable while the tab is open, for switch_to_tab and close_tab), role (extension, notification, app, other), URL, title and host; '*' marks the active tab in the text. Filter with a case-insensitive regular expression on URL or title, group by role or host, order by title, url, host or role within groups. Returns {total, groups: [{key, tabs}], text}.",
  input: Schema.Struct({
    filter: Schema.optional(RegexSource).annotations({
      description: "Case-insensitive regular expression matched against each tab's URL and title; an invalid expression is MM_INVALID_INPUT."
    }),
    groupBy: Schema.optionalWith(TabGroupBy, { default: () => "none" as const }).annotations({
      description: 'none (one group "all"), role or host (default none).'
    }),
    orderBy: Schema.optional(TabOrderBy).annotations({
      description: "Order within each group: title, url, host or role; the order tabs were opened in when absent."
    })
  }),
  output: Schema.Struct({
    total: Schema.Number.annotations({ description: "Number of tabs listed (after the filter)." }),
    groups: Schema.Array(TabGroup).annotations({ description: "Groups in role order or by host name; one group when not grouped." }),
    text: Schema.String.annotations({ description: "The same listing as short text." })
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
  concurrencySafe: true,
  requiresSession: true,
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
