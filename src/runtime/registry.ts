// Tool lookup by served name: names are accepted with or without the prefix.
import { groupOf, type AnyToolDefinition } from "./tool.js"

export interface ToolRegistry {
  readonly prefix: string
  readonly tools: ReadonlyArray<AnyToolDefinition>
  /** The served name of a tool, e.g. "mm_click". */
  readonly servedName: (tool: AnyToolDefinition) => string
  /** The tool for a served or bare name. */
  readonly lookup: (name: string) => AnyToolDefinition | undefined
}

/** A registry over the tools; throws on two tools of one name, or a group that is opt-in for some tools only. */
export const makeRegistry = (tools: ReadonlyArray<AnyToolDefinition>, prefix: string): ToolRegistry => {
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

/** The opt-in groups of a tool set, in order of first appearance. */
export const optInGroups = (tools: ReadonlyArray<AnyToolDefinition>): ReadonlyArray<string> => [
  ...new Set(tools.filter((tool) => tool.optIn === true).map(groupOf))
]
