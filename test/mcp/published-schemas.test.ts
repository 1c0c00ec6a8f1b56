// What tools/list publishes about each tool is what the server does: MCP hints true to the definition
// (only those that differ from the spec's defaults), and input schemas that state the constraints decoding
// enforces: for every listed bound, length, pattern, enum and item count, a value just outside it is refused
// naming the field, and a value at its edge is not refused for that field. And a fuzz test from the published
// schemas (fast-check through effect, a JSON Schema validator as the judge, with the instructions' "a field the
// tool does not take is refused"): no input that satisfies a tool's schema is refused but for a rule between
// fields whose error names them or a single-field rule on the short list its field's description states
// (DESCRIBED_RULES), and none that violates it, or adds a field it does not list, is accepted.
import { Ajv } from "ajv"
import { Effect, Either, FastCheck as fc, type SchemaAST } from "effect"
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
    // Tools that run the agent's JavaScript in the page may do anything: an expression, a breakpoint's condition.
    for (const name of ["evaluate", "evaluate_frame", "breakpoint"]) expect(hints(name), name).toEqual({})
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

/**
 * The schema as the published text states it: the instructions say once that a field the tool does not take
 * is refused (additionalProperties: false on every tool would cost about 30 bytes a tool in tools/list). The
 * few fields accepted but not listed (Unlisted: within, timeoutMs, dialog) make the server looser than this, never stricter.
 */
const closed = (schema: JsonSchema): JsonSchema => {
  if (schema.type !== "object") return schema
  return {
    ...schema,
    ...(schema.properties === undefined ? {} : { properties: Object.fromEntries(Object.entries(schema.properties).map(([key, inner]) => [key, closed(inner)])) }),
    ...(schema.additionalProperties === undefined ? { additionalProperties: false } : {})
  }
}

/**
 * Single-field rules the published schema leaves to the field's description, because JSON Schema cannot
 * state them or would take many bytes of a list every model reads. Anything else an input that satisfies
 * the schema is refused for must be a rule between fields whose error names them.
 */
const DESCRIBED_RULES: Readonly<Record<string, string>> = {
  "press_key.key": "a key or chord in Playwright's names (a pattern of every key name)",
  "list_tabs.filter": "a valid regular expression (not expressible)",
  "storage.origin": "an http(s) origin (a URL parse)",
  "emulate.network": "a preset or {latencyMs, downloadKbps, uploadKbps}, listed compact",
  "emulate.geolocation": "{latitude, longitude, accuracy?}, listed compact",
  "emulate.viewport": "{width, height}, listed compact",
  "emulate.timezone": "a time zone the browser knows (not expressible)",
  "emulate.locale": "a locale Intl knows (not expressible)",
  "knowledge_search.scope": "current, all or {sessionId}, listed compact",
  "knowledge_last.scope": "current, all or {sessionId}, listed compact",
  "knowledge_summarize.scope": "current or {sessionId}, listed compact"
}

/** Every field a tool's input takes, listed or not (mm_type's secret is listed only with --secrets). */
const fieldsOf = (ast: SchemaAST.AST): ReadonlyArray<string> => {
  switch (ast._tag) {
    case "TypeLiteral":
      return ast.propertySignatures.flatMap((signature) => (typeof signature.name === "string" ? [signature.name] : []))
    case "Refinement":
      return fieldsOf(ast.from)
    case "Transformation":
      return [...new Set([...fieldsOf(ast.from), ...fieldsOf(ast.to)])]
    default:
      return []
  }
}

/** The fields an error names: its path's and any the message names. */
const fieldsNamed = (refusal: { readonly field: string; readonly message: string }, fields: ReadonlyArray<string>) =>
  new Set([refusal.field.split(".")[0]!, ...fields.filter((field) => new RegExp(`\\b${field}\\b`).test(refusal.message))])

describe("a fuzz test from the published input schemas", () => {
  const instructions = serverInstructions(registry)
  /** How many generated inputs each tool accepted. */
  const acceptedBy = new Map<string, number>()
  it("the instructions state the target rule the element tools' schemas leave to them, and that unlisted fields are refused", () => {
    expect(instructions).toContain("exactly one of a11yRef")
    expect(instructions).toContain("a field the tool does not take is refused")
  })

  for (const tool of tools) {
    const listed = describeTool(registry, tool)
    const schema = listed.inputSchema as JsonSchema
    const validate = ajv.compile(schema)
    const validateStated = ajv.compile(closed(schema))
    // The session argument is runTool's, taken off before the tool's own input is decoded.
    const decodeRefusal = (input: Record<string, unknown>) => {
      const { session: _session, ...own } = input
      const decoded = Effect.runSync(Effect.either(decodeInput(tool.input, own)))
      return Either.isLeft(decoded) ? decoded.left : undefined
    }
    const inputFields = fieldsOf(tool.input.ast)

    it(`${tool.name}: an input that satisfies its schema is accepted, or refused for a rule between fields naming them`, () => {
      let accepted = 0
      for (const input of fc.sample(fromSchema(schema), { numRuns: 150, seed: 22 }) as Array<Record<string, unknown>>) {
        if (!validateStated(input)) continue
        const refusal = decodeRefusal(input)
        if (refusal === undefined) {
          accepted++
          continue
        }
        const field = refusal.field.split(".")[0]!
        const described = DESCRIBED_RULES[`${tool.name}.${field}`]
        if (described !== undefined) {
          // Stated where the model reads it.
          expect(schema.properties?.[field]?.description ?? "", `${tool.name}.${field}: ${described}`).not.toBe("")
          continue
        }
        // A rule between fields: its error names at least two of them (the target rule names all three).
        const named = fieldsNamed(refusal, inputFields)
        expect(named.size, `${JSON.stringify(input).slice(0, 200)}: ${refusal.message} names ${[...named].join(", ")}`).toBeGreaterThanOrEqual(2)
      }
      acceptedBy.set(tool.name, accepted)
    })

    it(`${tool.name}: a field its schema does not list is refused, naming it`, () => {
      const extras = fc.record({ base: fromSchema(schema), key: fc.stringMatching(/^[a-z][A-Za-z]{0,11}$/), value: anyJson })
      let tried = 0
      for (const { base, key, value } of fc.sample(extras, { numRuns: 30, seed: 22 }) as Array<{ base: Record<string, unknown>; key: string; value: unknown }>) {
        if (key in (schema.properties ?? {}) || key === "session" || !validate(base)) continue
        const input = { ...base, [key]: value }
        tried++
        expect(validateStated(input)).toBe(false)
        const refusal = decodeRefusal(input)
        expect(refusal, `${JSON.stringify(input).slice(0, 200)} was accepted`).toBeDefined()
        if (decodeRefusal(base) === undefined) expect(names([refusal!.field, ...(refusal!.issues ?? []).map((issue) => issue.field)], key)).toBe(true)
      }
      expect(tried).toBeGreaterThan(0)
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
