// The tool registry: the served tools by name (accepted with or without the prefix), a service every
// consumer reads (the MCP server, batches, replays, exports, the CLI), provided by one layer.
import { Context, Effect, Layer } from "effect"
import { groupOf, type AnyToolDefinition } from "./tool.js"

export interface ToolRegistryService {
  readonly prefix: string
  readonly tools: ReadonlyArray<AnyToolDefinition>
  /** The served name of a tool, e.g. "mm_click". */
  readonly servedName: (tool: AnyToolDefinition) => string
  /** The tool for a served or bare name. */
  readonly lookup: (name: string) => AnyToolDefinition | undefined
}

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

/** The served tools. The MCP server provides the registry it serves to every call it runs. */
export class ToolRegistry extends Context.Tag("browser-workflow-mcp/ToolRegistry")<ToolRegistry, ToolRegistryService>() {
  static readonly make = makeRegistry
  static readonly layer = (registry: ToolRegistryService): Layer.Layer<ToolRegistry> => Layer.succeed(ToolRegistry, registry)
}

/** The definition of a served tool by name, for recipes and exports. */
export const toolLookup: Effect.Effect<ToolRegistryService["lookup"], never, ToolRegistry> = Effect.map(ToolRegistry, (registry) => registry.lookup)

/** The opt-in groups of a tool set, in order of first appearance. */
export const optInGroups = (tools: ReadonlyArray<AnyToolDefinition>): ReadonlyArray<string> => [
  ...new Set(tools.filter((tool) => tool.optIn === true).map(groupOf))
]
