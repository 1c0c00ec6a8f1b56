// Tool lookup by served name: names are accepted with or without the prefix.
import type { AnyToolDefinition } from "./tool.js"

export interface ToolRegistry {
  readonly prefix: string
  readonly tools: ReadonlyArray<AnyToolDefinition>
  /** The served name of a tool, e.g. "mm_click". */
  readonly servedName: (tool: AnyToolDefinition) => string
  /** The tool for a served or bare name. */
  readonly lookup: (name: string) => AnyToolDefinition | undefined
}

export const makeRegistry = (tools: ReadonlyArray<AnyToolDefinition>, prefix: string): ToolRegistry => {
  const servedName = (tool: AnyToolDefinition) => (prefix === "" ? tool.name : `${prefix}_${tool.name}`)
  const byName = new Map<string, AnyToolDefinition>()
  for (const tool of tools) {
    if (byName.has(tool.name)) throw new Error(`two tools are named ${tool.name}`)
    byName.set(tool.name, tool)
  }
  const lookup = (name: string) => {
    const bare = prefix !== "" && name.startsWith(`${prefix}_`) ? name.slice(prefix.length + 1) : name
    return byName.get(bare) ?? byName.get(name)
  }
  return { prefix, tools, servedName, lookup }
}
