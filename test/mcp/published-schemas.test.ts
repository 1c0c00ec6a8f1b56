// What tools/list publishes about each tool is what the server does: MCP hints true to the definition
// (only those that differ from the spec's defaults), and input schemas that state the constraints decoding
// enforces: for every listed bound, length, pattern, enum and item count, a value just outside it is refused
// naming the field, and a value at its edge is not refused for that field. And a fuzz test from the published
// schemas (fast-check through effect, a JSON Schema validator as the judge): no input that satisfies a tool's
// schema is refused but for a rule its published text states, and none that violates it is accepted.
import { Ajv } from "ajv"
import { Effect, Either, FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import { describeTool, hintsOf, instructions as serverInstructions } from "../../src/mcp/server.js"
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

type JsonSchema = {
  readonly type?: string
  readonly enum?: ReadonlyArray<unknown>
  readonly properties?: Readonly<Record<string, JsonSchema>>
  readonly required?: ReadonlyArray<string>
  readonly items?: JsonSchema
  readonly description?: string
  readonly [key: string]: unknown
}

/** Inputs generated from a published schema: every listed type, bound, length, pattern, enum and item count kept. */
const fromSchema = (schema: JsonSchema): fc.Arbitrary<unknown> => {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum)
  const { minimum, maximum, minLength, maxLength, pattern, minItems, maxItems } = schema as Record<string, any>
  switch (schema.type) {
    case "string": {
      const strings = typeof pattern === "string" ? fc.stringMatching(new RegExp(pattern)) : fc.string({ minLength: minLength ?? 0, maxLength: Math.min(maxLength ?? 24, 40) })
      return strings.filter((text) => text.length >= (minLength ?? 0) && text.length <= (maxLength ?? Infinity))
    }
    case "integer":
      return fc.integer({ min: minimum ?? -1_000_000, max: maximum ?? 1_000_000 })
    case "number":
      return fc.double({ min: minimum ?? -1_000_000, max: maximum ?? 1_000_000, noNaN: true, noDefaultInfinity: true })
    case "boolean":
      return fc.boolean()
    case "array":
      return fc.array(fromSchema(schema.items ?? {}), { minLength: minItems ?? 0, maxLength: Math.min(maxItems ?? 3, 3) })
    case "object":
      return fc.record(Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, inner]) => [key, fromSchema(inner)])), {
        requiredKeys: [...(schema.required ?? [])]
      })
    default:
      return fc.anything()
  }
}

/** Values of every JSON kind: most violate any one property's schema. */
const anyJson = fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 2 }), fc.constant({}))

const ajv = new Ajv({ strict: false })

/** The rule every element tool shares, stated once in the server's instructions. */
const TARGET_FIELDS = new Set(["a11yRef", "testId", "selector"])

describe("a fuzz test from the published input schemas", () => {
  const instructions = serverInstructions(registry)
  /** How many generated inputs each tool accepted. */
  const acceptedBy = new Map<string, number>()
  it("the instructions state the target rule the element tools' schemas leave to them", () => {
    expect(instructions).toContain("exactly one of a11yRef")
  })

  for (const tool of tools) {
    const listed = describeTool(registry, tool)
    const schema = listed.inputSchema as JsonSchema
    const validate = ajv.compile(schema)
    // The session argument is runTool's, taken off before the tool's own input is decoded.
    const decodeRefusal = (input: Record<string, unknown>) => {
      const { session: _session, ...own } = input
      const decoded = Effect.runSync(Effect.either(decodeInput(tool.input, own)))
      return Either.isLeft(decoded) ? decoded.left : undefined
    }

    it(`${tool.name}: an input that satisfies its schema is accepted, or refused for a rule its published text states`, () => {
      let accepted = 0
      for (const input of fc.sample(fromSchema(schema), { numRuns: 150, seed: 22 }) as Array<Record<string, unknown>>) {
        if (!validate(input)) continue
        const refusal = decodeRefusal(input)
        if (refusal === undefined) {
          accepted++
          continue
        }
        // The rule is the field's own description's, the tool's description names the field, or it is the target rule.
        const field = refusal.field.split(".")[0]!
        const stated = TARGET_FIELDS.has(field) || (schema.properties?.[field]?.description ?? "") !== "" || listed.description?.includes(field) === true
        expect(stated, `${JSON.stringify(input).slice(0, 200)}: ${refusal.message}`).toBe(true)
      }
      acceptedBy.set(tool.name, accepted)
    })

    const fields = Object.keys(schema.properties ?? {}).filter((field) => field !== "session")
    if (fields.length === 0) continue
    it(`${tool.name}: an input that violates its schema is refused, naming the field`, () => {
      let violations = 0
      const mutations = fc.record({ base: fromSchema(schema), field: fc.constantFrom(...fields), value: anyJson })
      for (const { base, field, value } of fc.sample(mutations, { numRuns: 200, seed: 22 }) as Array<{ base: Record<string, unknown>; field: string; value: unknown }>) {
        // A valid input with one field made to break its schema.
        const input = { ...base, [field]: value }
        if (!validate(base) || validate(input)) continue
        violations++
        const refusal = decodeRefusal(input)
        expect(refusal, `${JSON.stringify(input).slice(0, 200)} was accepted`).toBeDefined()
        // That field is named, unless the input was refused already without it (a rule between other fields).
        const named = [refusal!.field, ...(refusal!.issues ?? []).map((issue) => issue.field)]
        if (decodeRefusal(base) === undefined) expect(names(named, field), `${JSON.stringify(input).slice(0, 200)}: ${refusal!.message}`).toBe(true)
      }
      expect(violations).toBeGreaterThan(0)
    })
  }

  it("the generated inputs are accepted by nearly every tool (the fuzz test is not refusing everything)", () => {
    const none = tools.filter((tool) => acceptedBy.get(tool.name) === 0).map((tool) => tool.name)
    expect(acceptedBy.size).toBe(tools.length)
    expect(none.length, none.join(", ")).toBeLessThanOrEqual(Math.floor(tools.length / 10))
  })
})
