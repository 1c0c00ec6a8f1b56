// What a page looks like to an agent: state, visible test ids, accessibility nodes with refs, tabs.
import { Option, Schema } from "effect"

/** A string the tools work with as "" when empty, sent without the field (responses carry no empty fields). */
const omittedWhenEmpty = (description: string) =>
  Schema.optionalToRequired(Schema.String, Schema.String, {
    decode: Option.getOrElse(() => ""),
    encode: (value) => (value === "" ? Option.none() : Option.some(value))
  }).annotations({ description })

export const TabRole = Schema.Literal("extension", "notification", "app", "other").annotations({
  description: "extension: the loaded extension's pages; notification: its notification or popup page; app: http(s) pages; other: anything else."
})
export type TabRole = typeof TabRole.Type

/** A role as tools accept it: "dapp" (upstream's name for the web app) is read as "app". */
export const TabRoleInput = Schema.transform(
  Schema.Literal("extension", "notification", "app", "dapp", "other").annotations({
    description: 'extension, notification, app (or its alias "dapp": http(s) pages) or other.'
  }),
  TabRole,
  { strict: true, decode: (role) => (role === "dapp" ? "app" : role), encode: (role) => role }
)

/** Any JSON value (app fields, stored extension values). */
export const JsonValue = Schema.Unknown.annotations({ description: "Any JSON value." })

/** The extension loaded in the session, as read from its manifest. */
export const ExtensionSummary = Schema.Struct({
  id: Schema.String.annotations({ description: "Extension id (derived from its real path or key, confirmed by its service worker)." }),
  name: Schema.String.annotations({ description: "Manifest name." }),
  version: Schema.String.annotations({ description: "Manifest version string." }),
  manifestVersion: Schema.Number.annotations({ description: "Manifest format version (always 3)." })
})
export type ExtensionSummary = typeof ExtensionSummary.Type

/** A tab's id for the session: given when the tab is first seen, never reused. */
export const TabId = Schema.String.pipe(
  Schema.pattern(/^t[0-9]+$/, { message: () => 'tabId must look like "t3" (from mm_tabs or mm_get_state)' })
).annotations({ description: 'Id of the tab for this session, e.g. "t3"; it stays the same while the tab is open.' })

export const TabInfo = Schema.Struct({
  tabId: TabId,
  role: TabRole,
  url: Schema.String.annotations({ description: "Current URL of the tab." }),
  title: omittedWhenEmpty("Document title, when it has one."),
  active: Schema.Boolean.annotations({ description: "True for the tab that tools act on." })
})
export type TabInfo = typeof TabInfo.Type

export const Tabs = Schema.Struct({
  active: Schema.optionalToRequired(
    Schema.Struct({ tabId: TabId, role: TabRole, url: Schema.String }),
    Schema.NullOr(Schema.typeSchema(Schema.Struct({ tabId: TabId, role: TabRole, url: Schema.String }))),
    {
      decode: Option.getOrNull,
      encode: Option.fromNullable
    }
  ).annotations({ description: "The tab tools act on; absent when none is open." }),
  tracked: Schema.Array(TabInfo).annotations({ description: "Every open tab of the session." })
})
export type Tabs = typeof Tabs.Type

export const ScreenState = Schema.Struct({
  isLoaded: Schema.Boolean.annotations({ description: "True when the active page finished loading." }),
  currentUrl: Schema.String.annotations({ description: "URL of the active page." }),
  title: Schema.String.annotations({ description: "Title of the active page." }),
  currentScreen: Schema.String.annotations({
    description: 'Screen name from the configured detection rules, or "unknown".'
  }),
  tabId: Schema.optional(TabId).annotations({ description: "Id of the active tab." }),
  extensionId: Schema.optional(Schema.String).annotations({ description: "Id of the loaded extension, if any." }),
  app: Schema.optional(Schema.Record({ key: Schema.String, value: JsonValue })).annotations({
    description: "App-specific fields from the StateSnapshot capability (e.g. isUnlocked, networkName), when one is provided."
  })
})
export type ScreenState = typeof ScreenState.Type

export const TestIdItem = Schema.Struct({
  testId: Schema.String.annotations({ description: "The data-testid value." }),
  tag: Schema.String.annotations({ description: "Lower-case tag name of the element." }),
  text: Schema.optional(Schema.String).annotations({ description: "Visible text, at most 100 characters." }),
  visible: Schema.Boolean.annotations({ description: "Always true: only visible elements are listed." }),
  frame: Schema.optional(Schema.String).annotations({ description: "The cross-origin iframe that holds it (its title); a testId target reaches it there." })
})
export type TestIdItem = typeof TestIdItem.Type

export const A11yNode = Schema.Struct({
  ref: Schema.String.annotations({ description: 'Ref to pass as a11yRef, e.g. "e3". Stable while the element stays in the page.' }),
  role: Schema.String.annotations({ description: "ARIA role." }),
  name: Schema.String.annotations({ description: "Accessible name (may be empty)." }),
  disabled: Schema.optional(Schema.Boolean),
  checked: Schema.optional(Schema.Union(Schema.Boolean, Schema.Literal("mixed"))),
  expanded: Schema.optional(Schema.Boolean),
  level: Schema.optional(Schema.Finite).annotations({ description: "Heading level." }),
  selected: Schema.optional(Schema.Boolean).annotations({ description: "Selected option, tab or row." }),
  pressed: Schema.optional(Schema.Union(Schema.Boolean, Schema.Literal("mixed"))).annotations({ description: "Pressed toggle button." }),
  sort: Schema.optional(Schema.Literal("ascending", "descending", "other")).annotations({ description: "Sort order of a column or row header." }),
  current: Schema.optional(Schema.String).annotations({
    description: 'The current item of a set (aria-current): "true", or its kind ("page", "step", "date", ...).'
  }),
  invalid: Schema.optional(Schema.Boolean).annotations({ description: "The field is marked invalid." }),
  required: Schema.optional(Schema.Boolean).annotations({ description: "The field is required." }),
  readonly: Schema.optional(Schema.Boolean).annotations({ description: "The field cannot be edited." }),
  marked: Schema.optional(Schema.Literal("selected", "active")).annotations({
    description: "Selected or active as a class says (is-selected, -selected-, active), where no ARIA state does."
  }),
  path: Schema.optional(Schema.Array(Schema.String)).annotations({
    description: 'Enclosing containers, outermost first, e.g. ["dialog: Confirm"].'
  }),
  depth: Schema.optional(Schema.Finite).annotations({ description: "Nesting in the page's tree (0 when absent)." }),
  text: Schema.optional(Schema.String).annotations({
    description: "The text a reader sees in the node besides its name (a list item's text, a code block), or a field's value."
  }),
  collapsed: Schema.optional(
    Schema.Struct({
      count: Schema.Finite.annotations({ description: "How many like siblings this node stands for." }),
      refs: Schema.Array(Schema.String).annotations({ description: 'Their refs and their descendants\' refs, as ranges ("e12..e40").' }),
      examples: Schema.Array(Schema.String).annotations({ description: "The texts of a few of them." })
    })
  ).annotations({ description: "A run of siblings like the one before it, shown as one node; every ref in it can be acted on." }),
  under: Schema.optional(Schema.String).annotations({
    description: "Changes-only: the ref of the nearest enclosing node the same observation shows; absent when it shows none."
  }),
  whole: Schema.optional(Schema.Boolean).annotations({ description: "Changes-only: a row whose children are all shown below it." }),
  apart: Schema.optional(Schema.Boolean).annotations({
    description: "Its ref had another name when the client was last told of it, or its name was told for another ref (the page reused elements): shown on a line of its own."
  })
})
export type A11yNode = typeof A11yNode.Type

export const Observation = Schema.Struct({
  state: ScreenState,
  testIds: Schema.optional(Schema.Array(TestIdItem)).annotations({ description: "Visible test ids (capped)." }),
  testIdsUnchanged: Schema.optional(Schema.Finite).annotations({
    description: "Changes-only observation: how many visible test ids were already reported and did not change."
  }),
  a11y: Schema.optional(
    Schema.Struct({
      nodes: Schema.Array(A11yNode),
      truncated: Schema.optional(Schema.Boolean),
      changesOnly: Schema.optional(Schema.Boolean).annotations({
        description:
          "True when nodes holds only what is new or changed since the last observation of this page; the refs of the others stay valid."
      }),
      unchanged: Schema.optional(Schema.Finite).annotations({
        description: "Changes-only: nodes unchanged since an earlier observation reported them or left them out as truncated."
      }),
      removed: Schema.optional(Schema.Array(Schema.String)).annotations({
        description: "Changes-only: refs reported before that are no longer on the page."
      }),
      behindModal: Schema.optional(Schema.Finite).annotations({
        description: "Nodes left out because a modal dialog is open in front of them (their refs stay valid)."
      })
    })
  ).annotations({ description: "Accessibility nodes with refs (capped)." })
})
export type Observation = typeof Observation.Type

/** One line of a search answer: a node (a match, or structure around one) or a count of elided siblings. */
export interface FindLine {
  readonly depth: number
  readonly node?: A11yNode | undefined
  readonly match?: boolean | undefined
  readonly elided?: number | undefined
}

/** What a search of the page found: the lines to show and how many nodes matched in all. */
export interface FindResult {
  readonly lines: ReadonlyArray<FindLine>
  readonly total: number
}

/** How much of a page to observe after a tool ran. */
export const ObservationPolicy = Schema.Literal("default", "none", "failures", "custom")
export type ObservationPolicy = typeof ObservationPolicy.Type
