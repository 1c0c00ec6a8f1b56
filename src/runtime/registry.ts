// The tool registry: the served tools by name (accepted with or without the prefix), the ToolRegistry
// service (its tag is in tool.ts, beside the services tools may use) that every consumer reads: the MCP
// server, batches, replays, exports, the CLI. tools/registry.ts makes the served one.
import { Effect } from "effect"
import { servedAs } from "../domain/replay.js"
import { groupOf, ToolRegistry, type AnyToolDefinition, type ToolRegistryService } from "./tool.js"

export { ToolRegistry, type ToolRegistryService }

/** The prefix tools are served under unless the settings say otherwise ("mm": mm_click). */
export const DEFAULT_PREFIX = "mm"

/**
 * A registry over the tools; throws on two tools of one name, two tools of one role, or a group that is
 * opt-in for some tools only.
 */
export const makeRegistry = (tools: ReadonlyArray<AnyToolDefinition>, prefix: string): ToolRegistryService => {
  const servedName = (tool: AnyToolDefinition) => servedAs(prefix, tool.name)
  const byName = new Map<string, AnyToolDefinition>()
  const optInByGroup = new Map<string, boolean>()
  const roles = new Set<string>()
  for (const tool of tools) {
    if (byName.has(tool.name)) throw new Error(`two tools are named ${tool.name}`)
    byName.set(tool.name, tool)
    if (tool.role !== undefined) {
      if (roles.has(tool.role)) throw new Error(`two tools play the role ${tool.role} (${tool.name})`)
      roles.add(tool.role)
    }
    const group = groupOf(tool)
    const optIn = tool.optIn === true
    if (optInByGroup.has(group) && optInByGroup.get(group) !== optIn) {
      throw new Error(`group ${group} is opt-in for some of its tools only (${tool.name})`)
    }
    optInByGroup.set(group, optIn)
  }
  const lookup = (name: string) => {
    const bare = prefix !== "" && name.startsWith(`${prefix}_`) ? name.slice(prefix.length + 1) : name
    return byName.get(bare) ?? byName.get(name)
  }
  return { prefix, tools, servedName, lookup }
}

/** The definition of a served tool by name, for recipes and exports. */
export const toolLookup: Effect.Effect<ToolRegistryService["lookup"], never, ToolRegistry> = Effect.map(ToolRegistry, (registry) => registry.lookup)

/** The opt-in groups of a tool set, in order of first appearance. */
export const optInGroups = (tools: ReadonlyArray<AnyToolDefinition>): ReadonlyArray<string> => [
  ...new Set(tools.filter((tool) => tool.optIn === true).map(groupOf))
]

/**
 * Server-authored text (error hints, notices, tool and field descriptions) names tools as they are
 * served under the default prefix ("Call mm_launch first."). This renders those names as this registry
 * serves them ("Call launch first." with no prefix); names of tools it does not have stay as written.
 */
export const servedText = (registry: ToolRegistryService): ((text: string) => string) => {
  if (registry.prefix === DEFAULT_PREFIX) return (text) => text
  const named = new RegExp(`\\b${DEFAULT_PREFIX}_([a-z][a-z0-9_]*)`, "g")
  return (text) =>
    text.includes(`${DEFAULT_PREFIX}_`)
      ? text.replace(named, (whole, name: string) => {
          const tool = registry.tools.find((candidate) => candidate.name === name)
          return tool === undefined ? whole : registry.servedName(tool)
        })
      : text
}
