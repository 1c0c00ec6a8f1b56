// Input schemas as the compact JSON Schema a model reads in tools/list: types, enums, required
// fields, the constraints decoding enforces (bounds, lengths, patterns, item counts) and one
// description per field; Effect's generated titles and descriptions never reach the list.
import { Option, SchemaAST as AST, type Schema } from "effect"
import { DEFAULT_STRING_LIMIT } from "../runtime/input-limits.js"
import { Evident, ListedAs, Unlisted } from "../runtime/tool.js"

export type JsonSchema = { readonly [key: string]: unknown }

/** Effect's built-in filters describe themselves in lower case ("an integer", "a string at least 1..."); ours are sentences. */
const GENERATED = /^an? [a-z]/

const ownDescription = (annotations: AST.Annotations): string | undefined => {
  const text = annotations[AST.DescriptionAnnotationId]
  return typeof text === "string" && !GENERATED.test(text) ? text : undefined
}

/** The description of a node, looking through refinements and transformations to the one written for it. */
const describe = (ast: AST.AST): string | undefined => {
  const own = ownDescription(ast.annotations)
  if (own !== undefined) return own
  switch (ast._tag) {
    case "Refinement":
      return describe(ast.from)
    case "Transformation":
      return describe(ast.to) ?? describe(ast.from)
    case "Union": {
      const members = ast.types.filter((member) => member._tag !== "UndefinedKeyword")
      return members.length === 1 ? describe(members[0]!) : undefined
    }
    default:
      return undefined
  }
}

/** An empty description (a field the server's instructions describe once for every tool) lists none. */
const withDescription = (schema: JsonSchema, description: string | undefined): JsonSchema =>
  description === undefined || description === "" ? schema : { ...schema, description }

const literalSchema = (values: ReadonlyArray<AST.LiteralValue>): JsonSchema => {
  const types = new Set(values.map((value) => (value === null ? "null" : typeof value)))
  const [only] = types
  return types.size === 1 && only !== undefined ? { type: only, enum: values } : { enum: values }
}

/** How far a walk went (recursive schemas are listed one level deep) and whether evident descriptions are listed too. */
interface Walk {
  readonly seen: ReadonlySet<AST.AST>
  readonly full: boolean
}

/** The JSON Schema of a node's encoded side (what a client sends), without its description. */
const structure = (ast: AST.AST, seen: Walk): JsonSchema => {
  const listed = ast.annotations[ListedAs]
  if (typeof listed === "object" && listed !== null) return listed as JsonSchema
  switch (ast._tag) {
    case "StringKeyword":
    case "TemplateLiteral":
      return { type: "string" }
    case "NumberKeyword":
      return { type: "number" }
    case "BooleanKeyword":
      return { type: "boolean" }
    case "Literal":
      return literalSchema([ast.literal])
    case "Enums":
      return literalSchema(ast.enums.map(([, value]) => value))
    case "Refinement": {
      // A built-in refinement states its constraint as JSON Schema (Schema.int() an "integer", between() a
      // minimum and maximum, maxLength, pattern, minItems...): listed, so that what a client validates against
      // is what decoding enforces. A filter of ours without one (exactly one target) says it in a description.
      const base = structure(ast.from, seen)
      const refined = Option.getOrUndefined(AST.getJSONSchemaAnnotation(ast)) as JsonSchema | undefined
      if (refined === undefined) return base
      const { type, description: _description, title: _title, maxLength, ...constraints } = refined
      // The instructions say once that a string takes at most DEFAULT_STRING_LIMIT characters.
      return {
        ...base,
        ...(typeof type === "string" && base.type === "number" ? { type } : {}),
        ...constraints,
        ...(maxLength === undefined || maxLength === DEFAULT_STRING_LIMIT ? {} : { maxLength })
      }
    }
    case "Transformation":
      return ast.from._tag === "TypeLiteral" && ast.to._tag === "TypeLiteral"
        ? objectSchema(ast.from, ast.to, seen)
        : structure(ast.from, seen)
    case "TypeLiteral":
      return objectSchema(ast, undefined, seen)
    case "TupleType": {
      const items = [...ast.elements.map((element) => element.type), ...ast.rest.map((rest) => rest.type)]
      if (items.length === 0) return { type: "array" }
      const [first] = items
      return { type: "array", items: items.length === 1 && first !== undefined ? node(first, seen) : { anyOf: items.map((item) => node(item, seen)) } }
    }
    case "Union": {
      const members = ast.types.filter((member) => member._tag !== "UndefinedKeyword" && member._tag !== "VoidKeyword")
      const literals = members.flatMap((member) => (member._tag === "Literal" ? [member.literal] : []))
      const others = members.filter((member) => member._tag !== "Literal")
      if (others.length === 0) return literalSchema(literals)
      if (literals.length === 0 && others.length === 1) return structure(others[0]!, seen)
      return { anyOf: [...(literals.length > 0 ? [literalSchema(literals)] : []), ...others.map((member) => node(member, seen))] }
    }
    case "Suspend":
      // Recursive schemas are listed one level deep.
      return seen.seen.has(ast) ? {} : structure(ast.f(), { ...seen, seen: new Set([...seen.seen, ast]) })
    default:
      return {}
  }
}

/** A node's JSON Schema with its own description. */
const node = (ast: AST.AST, seen: Walk): JsonSchema => withDescription(structure(ast, seen), describe(ast))

const objectSchema = (from: AST.TypeLiteral, to: AST.TypeLiteral | undefined, seen: Walk): JsonSchema => {
  const properties: Record<string, JsonSchema> = {}
  const required: Array<string> = []
  for (const signature of from.propertySignatures) {
    if (typeof signature.name !== "string") continue
    const target = to?.propertySignatures.find((other) => other.name === signature.name)
    if (signature.annotations[Unlisted] === true || target?.annotations[Unlisted] === true) continue
    // On the property (an optional field) or on its type (a required one).
    const evident =
      !seen.full && [signature, signature.type, target, target?.type].some((annotated) => annotated?.annotations[Evident] === true)
    const description = evident
      ? undefined
      : ownDescription(signature.annotations) ??
      (target === undefined ? undefined : ownDescription(target.annotations) ?? describe(target.type)) ??
      describe(signature.type)
    properties[signature.name] = withDescription(structure(signature.type, seen), description)
    if (!signature.isOptional) required.push(signature.name)
  }
  const [index] = from.indexSignatures
  const additional = index === undefined ? undefined : node(index.type, seen)
  return {
    type: "object",
    ...(Object.keys(properties).length > 0 ? { properties } : {}),
    ...(required.length > 0 ? { required } : {}),
    ...(additional !== undefined && Object.keys(additional).length > 0 ? { additionalProperties: additional } : {})
  }
}

/**
 * The listed JSON Schema of a tool's input: an object root, as MCP requires. `full` lists the descriptions
 * of evident fields too (what the definition says of every field).
 */
export const inputJsonSchema = (schema: Schema.Schema.Any, options: { readonly full?: boolean } = {}): JsonSchema & { readonly type: "object" } => {
  const json = structure(schema.ast, { seen: new Set(), full: options.full === true })
  return json.type === "object" ? (json as JsonSchema & { readonly type: "object" }) : { type: "object" }
}

/** The JSON Schema of any schema (e.g. a tool's output), with the root's description. */
export const jsonSchemaOf = (schema: Schema.Schema.Any): JsonSchema => node(schema.ast, { seen: new Set(), full: true })

/**
 * The `session` argument every session tool takes, as one shared fragment without a description (the
 * server's instructions say once what it is): a few bytes per tool in tools/list.
 */
const SESSION_PROPERTY: JsonSchema = { type: "string" }

/** A tool's listed input schema with the optional `session` argument added. */
export const withSessionArgument = (schema: JsonSchema & { readonly type: "object" }): JsonSchema & { readonly type: "object" } => ({
  ...schema,
  properties: { ...((schema as { readonly properties?: Record<string, JsonSchema> }).properties ?? {}), session: SESSION_PROPERTY }
})
