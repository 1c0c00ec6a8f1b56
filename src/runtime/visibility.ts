// Which tools a client sees and may call now: the session (running, with an extension, paused in the
// debugger), the capabilities the server was given, opt-in groups (--caps) and the client's hide/show rules.
// runTool gates every call (batch steps too) with the same rules the MCP server lists with.
import { Context, Effect, Option, Ref } from "effect"
import { DebuggerPaused, NoActiveSession, ToolUnavailable, type ToolError } from "../domain/errors.js"
import { Session, type PauseSummary, type SessionInfo } from "../services/Session.js"
import { EndedSession, OthersRunning, Sessions } from "../services/Sessions.js"
import type { ToolRegistryService } from "./registry.js"
import { servedAs, toolWithRole } from "../domain/replay.js"
import { DEFAULT_PREFIX } from "./registry.js"
import { groupOf, reachesOtherSessions, type AnyToolDefinition, type ListingState, type ToolRole } from "./tool.js"

/** The group of hide_tools and show_tools: never hidden, and not served with a fixed list. */
export const META_GROUP = "meta"

/** Enables every opt-in group in `--caps`. */
export const ALL_CAPS = "all"

/** Most hide/show rules one client may hold. */
export const MAX_RULES = 200

/** One hide_tools / show_tools rule; the last rule that matches a tool decides. */
export interface VisibilityRule {
  readonly pattern: string
  readonly hide: boolean
}

/** The served tools as one client sees them. */
export interface ToolViewService {
  readonly registry: ToolRegistryService
  /** Opt-in groups enabled for this server (`all` enables every one). */
  readonly caps: ReadonlySet<string>
  /** One fixed list: every group on, every tool listed whatever the session (--static-tools). */
  readonly staticTools: boolean
  /** This client's hide/show rules, oldest first. */
  readonly rules: Ref.Ref<ReadonlyArray<VisibilityRule>>
}

export class ToolView extends Context.Tag("browser-workflow-mcp/ToolView")<ToolView, ToolViewService>() {
  static readonly make = (
    registry: ToolRegistryService,
    options: { readonly caps?: ReadonlyArray<string> | undefined; readonly staticTools?: boolean | undefined } = {}
  ): ToolViewService => ({
    registry,
    caps: new Set(options.caps ?? []),
    staticTools: options.staticTools ?? false,
    rules: Ref.unsafeMake<ReadonlyArray<VisibilityRule>>([])
  })
}

/** A glob (`*` any run of characters, `?` one) as a case-insensitive whole-name matcher. */
export const globMatcher = (pattern: string): RegExp => {
  const escape = (text: string) => text.replace(/[.+^${}()|[\]\\]/g, "\\$&")
  const source = pattern.split("*").map((part) => part.split("?").map(escape).join(".")).join(".*")
  return new RegExp(`^${source}$`, "i")
}

/** True when the pattern names the tool, bare ("click") or served ("mm_click"). */
export const patternMatches = (pattern: string, tool: AnyToolDefinition, registry: ToolRegistryService): boolean => {
  const matcher = globMatcher(pattern)
  return matcher.test(tool.name) || matcher.test(registry.servedName(tool))
}

/** True when the client's rules hide the tool; meta tools are never hidden, so show_tools stays reachable. */
export const hiddenByRules = (rules: ReadonlyArray<VisibilityRule>, tool: AnyToolDefinition, registry: ToolRegistryService): boolean => {
  if (rules.length === 0 || groupOf(tool) === META_GROUP) return false
  for (let index = rules.length - 1; index >= 0; index--) {
    const rule = rules[index]!
    if (patternMatches(rule.pattern, tool, registry)) return rule.hide
  }
  return false
}

/**
 * Why a tool is not available now. `capability` and `unlisted` tools still run when called: they
 * answer their own error saying what is missing. `paused`: the page's JavaScript is paused in the
 * debugger and the tool needs it running.
 */
export type Blocked = "group" | "hidden" | "static" | "capability" | "session" | "extension" | "paused" | "unlisted" | "alias"

interface Situation {
  readonly session: Option.Option<SessionInfo>
  readonly view: Option.Option<ToolViewService>
  readonly rules: ReadonlyArray<VisibilityRule>
  readonly context: Context.Context<never>
  readonly listing: ListingState
  /** Where a tab is paused in the debugger, if one is. */
  readonly paused: Option.Option<PauseSummary>
}

const NO_RULES: ReadonlyArray<VisibilityRule> = []

const situation = Effect.gen(function* () {
  const service = yield* Session
  const session = yield* service.current
  const tabs = yield* service.tabCount
  const paused = Option.isSome(session) ? yield* service.debuggerPaused : Option.none<PauseSummary>()
  const view = yield* Effect.serviceOption(ToolView)
  const rules = Option.isSome(view) ? yield* Ref.get(view.value.rules) : NO_RULES
  const context = yield* Effect.context<never>()
  // Without rules nothing is hidden: no pass over the tools on every call and every listing.
  const hiddenByClient = Option.isSome(view) && rules.length > 0
    ? view.value.registry.tools.filter((tool) => tool.unlisted !== true && hiddenByRules(rules, tool, view.value.registry)).length
    : 0
  const listing: ListingState = {
    session: Option.isSome(session),
    extension: Option.isSome(session) && session.value.extensionId !== undefined,
    tabs,
    hiddenByClient,
    paused: Option.isSome(paused),
    page: yield* service.affordances,
    downloads: Option.isSome(session) ? yield* service.downloadCursor : 0,
    sessions: yield* (yield* Sessions).count
  }
  return { session, view, rules, context, listing, paused } satisfies Situation
})

const blockedBy = (tool: AnyToolDefinition, now: Situation): Blocked | undefined => {
  if (Option.isSome(now.view)) {
    const view = now.view.value
    const group = groupOf(tool)
    if (view.staticTools && group === META_GROUP) return "static"
    if (tool.optIn === true && !view.staticTools && !view.caps.has(ALL_CAPS) && !view.caps.has(group)) return "group"
    if (!view.staticTools && hiddenByRules(now.rules, tool, view.registry)) return "hidden"
  }
  if (tool.capability !== undefined && Option.isNone(Context.getOption(now.context, tool.capability))) return "capability"
  if ((tool.requiresSession || tool.requiresExtension === true) && Option.isNone(now.session)) return "session"
  if (tool.requiresExtension === true && Option.isSome(now.session) && now.session.value.extensionId === undefined) return "extension"
  // While paused, the list is the stepping set (and what still works on a paused page); the rest stays callable.
  if (Option.isSome(now.paused) && tool.whilePaused !== "listed") return tool.whilePaused === "blocked" ? "paused" : "unlisted"
  if (tool.listedWhen !== undefined && !tool.listedWhen(now.listing)) return "unlisted"
  if (tool.unlisted === true) return "alias"
  return undefined
}

/**
 * A session tool without a current session, while the client has sessions it reaches by its `session`
 * argument (its current one closed, another runs): listed with that argument, as it would be on any session
 * (no extension or page it needs is known); called without it, the gate says which session closed and how to switch.
 */
const reachableElsewhere = (tool: AnyToolDefinition, now: Situation) =>
  tool.requiresExtension !== true &&
  reachesOtherSessions(now.listing) &&
  (tool.listedWhen === undefined || tool.listedWhen(now.listing)) &&
  tool.unlisted !== true

/** Listed: available now, or (with a fixed list) only waiting for the state it needs. */
const listed = (blocked: Blocked | undefined, now: Situation, tool: AnyToolDefinition) =>
  blocked === undefined ||
  (blocked === "session" && reachableElsewhere(tool, now)) ||
  (Option.isSome(now.view) &&
    now.view.value.staticTools &&
    (blocked === "session" || blocked === "extension" || blocked === "paused" || blocked === "unlisted"))

const listedIn = (tools: ReadonlyArray<AnyToolDefinition>, now: Situation) =>
  // An old name is never listed, not even in the fixed list while it waits for a session.
  tools.filter((tool) => tool.unlisted !== true && listed(blockedBy(tool, now), now, tool))

/** The tools to list now, in registry order. */
export const visibleTools = (tools: ReadonlyArray<AnyToolDefinition>): Effect.Effect<ReadonlyArray<AnyToolDefinition>, never, Session> =>
  Effect.map(situation, (now) => listedIn(tools, now))

/** What `blockedBy` and the tools' `listedWhen` read, besides the view and its rules (compared by reference: a rule change replaces the array). */
interface Inputs {
  readonly listing: ListingState
  /** For each of the tools' capabilities, whether the context provides it. */
  readonly provided: ReadonlyArray<boolean>
}

// Every field of the listing state and of the page's affordances: a field added to either type and not here does not compile.
const LISTING_FIELDS = Object.keys({
  session: 0, extension: 0, tabs: 0, hiddenByClient: 0, paused: 0, downloads: 0, sessions: 0
} satisfies Record<Exclude<keyof ListingState, "page">, 0>) as ReadonlyArray<Exclude<keyof ListingState, "page">>
const PAGE_FIELDS = Object.keys({ upload: 0, drag: 0, check: 0, scroll: 0 } satisfies Record<keyof ListingState["page"], 0>) as ReadonlyArray<keyof ListingState["page"]>

const sameInputs = (a: Inputs, b: Inputs) =>
  LISTING_FIELDS.every((field) => a.listing[field] === b.listing[field]) &&
  PAGE_FIELDS.every((field) => a.listing.page[field] === b.listing.page[field]) &&
  a.provided.every((present, index) => present === b.provided[index])

/**
 * `visibleTools` memoized on its inputs, for a caller that lists the same tools again and again (a server's
 * list after every call): while nothing that decides visibility changed, it answers the same array (the same
 * reference), without passing over the tools again.
 */
export const visibleToolsMemo = (tools: ReadonlyArray<AnyToolDefinition>): Effect.Effect<ReadonlyArray<AnyToolDefinition>, never, Session> => {
  const capabilities = [...new Set(tools.flatMap((tool) => (tool.capability === undefined ? [] : [tool.capability])))]
  let last:
    | { readonly inputs: Inputs; readonly view: ToolViewService | undefined; readonly rules: ReadonlyArray<VisibilityRule>; readonly listed: ReadonlyArray<AnyToolDefinition> }
    | undefined
  return Effect.map(situation, (now) => {
    const inputs: Inputs = { listing: now.listing, provided: capabilities.map((tag) => Option.isSome(Context.getOption(now.context, tag))) }
    const view = Option.getOrUndefined(now.view)
    if (last !== undefined && last.view === view && last.rules === now.rules && sameInputs(last.inputs, inputs)) return last.listed
    const listed = listedIn(tools, now)
    last = { inputs, view, rules: now.rules, listed }
    return listed
  })
}

const servedIn = (view: Option.Option<ToolViewService>) => (name: string) =>
  Option.isSome(view) ? servedAs(view.value.registry.prefix, name) : servedAs(DEFAULT_PREFIX, name)

/** The name the client calls the tool by (the default prefix when no server serves the call). */
export const servedNameOf = (tool: AnyToolDefinition): Effect.Effect<string> =>
  Effect.map(Effect.serviceOption(ToolView), (view) => servedIn(view)(tool.name))

/** The served name of the tool that plays a role, when this server serves one. */
const servedRole = (view: Option.Option<ToolViewService>, role: ToolRole): string | undefined => {
  if (Option.isNone(view)) return undefined
  const tool = toolWithRole(view.value.registry.tools, role)
  return tool === undefined ? undefined : view.value.registry.servedName(tool)
}

const errorFor = (tool: AnyToolDefinition, blocked: Blocked, now: Situation): ToolError | undefined => {
  const name = servedIn(now.view)(tool.name)
  const launch = servedRole(now.view, "launch")
  switch (blocked) {
    case "session":
      return new NoActiveSession({ tool: name, launch })
    case "extension":
      return new ToolUnavailable({
        tool: name,
        reason: "extension",
        hint: `needs a session with an extension loaded: ${launch === undefined ? "start one" : `call ${launch}`} with extensionPath and force: true, or start the server with --extension.`
      })
    case "group": {
      const group = groupOf(tool)
      return new ToolUnavailable({
        tool: name,
        reason: "group",
        hint: `is in group ${group}, which is off: start the server with --caps ${group} (or "caps": ["${group}"] in the config file).`
      })
    }
    case "hidden": {
      const hide = servedRole(now.view, "hide-tools")
      const show = servedRole(now.view, "show-tools")
      return new ToolUnavailable({
        tool: name,
        reason: "hidden",
        hint: `is hidden by ${hide ?? "this client's rules"}${show === undefined ? "." : `: call ${show} {"tools": ["${name}"]} to list it again.`}`
      })
    }
    case "static":
      return new ToolUnavailable({
        tool: name,
        reason: "static",
        hint: "has nothing to do: the server keeps one fixed tool list (--static-tools)."
      })
    case "paused":
      return Option.isSome(now.paused) ? new DebuggerPaused({ tool: name, ...now.paused.value }) : undefined
    case "capability":
    case "unlisted":
    case "alias":
      // The tool itself answers with what is missing (MM_CAPABILITY_NOT_AVAILABLE, MM_SESSION_ALREADY_RUNNING...).
      return undefined
  }
}

/** The error a call of the tool gets now instead of running, if any. */
export const toolGate = (tool: AnyToolDefinition): Effect.Effect<Option.Option<ToolError>, never, Session> =>
  Effect.gen(function* () {
    const now = yield* situation
    const blocked = blockedBy(tool, now)
    if (blocked === undefined) return Option.none()
    const error = errorFor(tool, blocked, now)
    // A client whose current session closed hears which one and why; one that has none, that other clients' sessions run.
    if (error instanceof NoActiveSession) {
      const ended = yield* Effect.serviceOption(EndedSession)
      const others = yield* Effect.serviceOption(OthersRunning)
      // mm_sessions (to switch) is named only when the client has another session: then it is listed.
      const yoursLeft = Option.isSome(others) && others.value.yours > 0 ? { yours: others.value.yours } : {}
      if (Option.isSome(ended)) return Option.some<ToolError>(new NoActiveSession({ tool: error.tool, launch: error.launch, ended: ended.value, ...yoursLeft }))
      if (Option.isSome(others)) {
        const { count, yours } = others.value
        return Option.some<ToolError>(new NoActiveSession({ tool: error.tool, launch: error.launch, ...(count > 0 ? { others: count } : {}), ...(yours > 0 ? { yours } : {}) }))
      }
    }
    // The first call after a pause that came between calls carries the pause's context, which no answer gave yet.
    if (error instanceof DebuggerPaused && error.pause === undefined) {
      const context = yield* (yield* Session).debuggerUnreportedPause
      if (Option.isSome(context)) return Option.some<ToolError>(new DebuggerPaused({ tool: error.tool, tabId: error.tabId, at: error.at, pause: context.value }))
    }
    return Option.fromNullable(error)
  })
