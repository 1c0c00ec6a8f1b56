// The tool registry: the served tools by name (accepted with or without the prefix), the ToolRegistry
// service (its tag is in tool.ts, beside the services tools may use) that every consumer reads: the MCP
// server, batches, replays, exports, the CLI. tools/registry.ts makes the served one.
import { Effect } from "effect"
import { groupOf, ToolRegistry, type AnyToolDefinition, type ToolRegistryService } from "./tool.js"

export { ToolRegistry, type ToolRegistryService }

/** A registry over the tools; throws on two tools of one name, or a group that is opt-in for some tools only. */
export const makeRegistry = (tools: ReadonlyArray<AnyToolDefinition>, prefix: string): ToolRegistryService => {
  const servedName = (tool: AnyToolDefinition) => (prefix === "" ? tool.name : `${prefix}_${tool.name}`)
  const byName = new Map<string, AnyToolDefinition>()
  const optInByGroup = new Map<string, boolean>()
  for (const tool of tools) {
    if (byName.has(tool.name)) throw new Error(`two tools are named ${tool.name}`)
    byName.set(tool.name, tool)
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
