// What tools/list publishes about each tool is what the server does: MCP hints true to the definition
// (only those that differ from the spec's defaults), and input schemas that state the constraints decoding
// enforces: for every listed bound, length, pattern, enum and item count, a value just outside it is refused
// naming the field, and a value at its edge is not refused for that field.
import { Effect, Either } from "effect"
import { describe, expect, it } from "vitest"
import { describeTool, hintsOf } from "../../src/mcp/server.js"
import { decodeInput } from "../../src/runtime/runTool.js"
import type { AnyToolDefinition } from "../../src/runtime/tool.js"
import { servedRegistry } from "../../src/tools/registry.js"
import { defaultSettings } from "../../src/domain/config.js"

const registry = servedRegistry(defaultSettings)
const tools: ReadonlyArray<AnyToolDefinition> = registry.tools

type Property = { readonly [key: string]: unknown }

/** The fields decoding names for an input (empty when it decodes). */
const refusedFields = (tool: AnyToolDefinition, input: Record<string, unknown>): ReadonlyArray<string> => {
  const decoded = Effect.runSync(Effect.either(decodeInput(tool.input, input)))
  if (Either.isRight(decoded)) return []
  const error = decoded.left
  return [error.field, ...(error.issues ?? []).map((issue) => issue.field)]
}

const names = (fields: ReadonlyArray<string>, field: string) => fields.some((name) => name === field || name.startsWith(`${field}.`))

/** Values just outside each listed constraint of a property, and values on its edge. */
const probes = (property: Property): { readonly outside: ReadonlyArray<unknown>; readonly edge: ReadonlyArray<unknown> } => {
  const outside: Array<unknown> = []
  const edge: Array<unknown> = []
  const { type, minimum, maximum, minLength, maxLength, pattern, minItems, maxItems } = property as Record<string, any>
  if (type === "integer" || type === "number") {
    if (typeof minimum === "number") outside.push(minimum - 1), edge.push(minimum)
    if (typeof maximum === "number") outside.push(maximum + 1), edge.push(maximum)
    if (type === "integer" && typeof minimum === "number") outside.push(minimum + 0.5)
  }
  if (type === "string") {
    if (typeof minLength === "number" && minLength > 0) outside.push("x".repeat(minLength - 1))
    if (typeof maxLength === "number") outside.push("x".repeat(maxLength + 1))
    if (typeof pattern === "string" && !new RegExp(pattern).test("\u0000 !")) outside.push("\u0000 !")
    if (pattern === undefined && typeof minLength === "number") edge.push("x".repeat(minLength))
    if (pattern === undefined && typeof maxLength === "number") edge.push("x".repeat(maxLength))
  }
  if (Array.isArray(property.enum)) {
    outside.push("not-one-of-them")
    edge.push(...property.enum)
  }
  if (type === "array") {
    if (typeof minItems === "number" && minItems > 0) outside.push([])
    if (typeof maxItems === "number") outside.push(Array.from({ length: maxItems + 1 }, () => "x"))
  }
  return { outside, edge }
}

describe("published tool annotations", () => {
  for (const tool of tools) {
    it(`${tool.name} lists the hints of its definition that differ from MCP's defaults, and no other`, () => {
      const listed = describeTool(registry, tool).annotations ?? {}
      const { readOnly, destructive, idempotent, openWorld } = tool.annotations
      expect(listed.readOnlyHint).toBe(readOnly ? true : undefined)
      // destructive and idempotent mean something only for a tool that changes things.
      expect(listed.destructiveHint).toBe(!readOnly && !destructive ? false : undefined)
      expect(listed.idempotentHint).toBe(!readOnly && idempotent ? true : undefined)
      expect(listed.openWorldHint).toBe(openWorld ? undefined : false)
      expect(listed).toEqual(hintsOf(tool.annotations) ?? {})
      // A read-only tool is not destructive: the definition cannot say both.
      if (readOnly) expect(destructive).toBe(false)
    })
  }

  it("a page action a page may act on irreversibly is destructive; looking, scrolling and the step memory are not", () => {
    const hints = (name: string) => describeTool(registry, registry.lookup(name)!).annotations ?? {}
    for (const name of ["click", "type", "press_key", "select_option", "drag", "upload_file", "set_checked", "run_steps", "replay"]) {
      expect(hints(name).destructiveHint, name).toBeUndefined()
      expect(hints(name).readOnlyHint, name).toBeUndefined()
    }
    expect(hints("scroll")).toEqual({ destructiveHint: false })
    expect(hints("get_state")).toEqual({ readOnlyHint: true })
    expect(hints("knowledge")).toEqual({ destructiveHint: false, idempotentHint: true, openWorldHint: false })
    expect(hints("cleanup")).toEqual({ idempotentHint: true, openWorldHint: false })
  })
})

describe("published input schemas state what decoding enforces", () => {
  for (const tool of tools) {
    const properties = (describeTool(registry, tool).inputSchema.properties ?? {}) as Record<string, Property>
    const constrained = Object.entries(properties).filter(([, property]) => probes(property).outside.length > 0)
    if (constrained.length === 0) continue
    it(`${tool.name}: a value outside a listed constraint is refused naming its field; one on the edge is not refused for it`, () => {
      for (const [field, property] of constrained) {
        const { outside, edge } = probes(property)
        for (const value of outside) expect(names(refusedFields(tool, { [field]: value }), field), `${field}: ${JSON.stringify(value).slice(0, 40)}`).toBe(true)
        for (const value of edge) expect(names(refusedFields(tool, { [field]: value }), field), `${field}: ${JSON.stringify(value).slice(0, 40)}`).toBe(false)
      }
    })
  }

  it("lists the constraints of the element target and of bounded numbers and texts", () => {
    const schema = (name: string) => JSON.stringify(describeTool(registry, registry.lookup(name)!).inputSchema)
    expect(schema("click")).toContain('"a11yRef":{"type":"string","pattern":"^e[0-9]+$"}')
    expect(schema("click")).toContain('"count":{"type":"integer","minimum":1,"maximum":3')
    expect(schema("find")).toContain('"maxLength":200')
    expect(schema("run_steps")).toContain('"maxItems":50')
  })
})
