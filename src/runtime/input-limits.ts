// Inputs that cost more than they are worth are refused before the schema sees them: every string
// of a call's arguments has a maximum length (per field name, a default for the rest), and the
// arguments as a whole have a size and depth. The check is one linear walk over the raw value, so a
// megabyte in any field costs microseconds and the answer names the field without echoing it.
import { Option } from "effect"
import { clip, InvalidInput } from "../domain/errors.js"

/** The longest string a field takes unless it is named below: selectors, test ids, keys, names, paths. */
export const DEFAULT_STRING_LIMIT = 2_000

/**
 * Fields that take longer strings, by their own name wherever they appear (also inside a batch
 * step's `args`): the text `mm_type` types, a URL, a prompt's answer. Anything under `fixture` (a
 * launch's initial state) may hold long values too.
 */
export const FIELD_STRING_LIMITS: Readonly<Record<string, number>> = {
  text: 100_000,
  url: 16_384,
  promptText: 10_000,
  // What mm_evaluate and a mock's body take by their schemas (which tools/list publishes).
  expression: 100_000,
  body: 1_000_000
}

/** Fields whose whole subtree takes long strings. */
const SUBTREE_STRING_LIMITS: Readonly<Record<string, number>> = { fixture: 100_000 }

/** The longest property name. */
const KEY_LIMIT = 200
/** All strings of one call together (a batch of typing steps fits). */
const TOTAL_LIMIT = 4_000_000
/** Nesting and the number of values in one call. */
const DEPTH_LIMIT = 32
const NODE_LIMIT = 20_000

const fieldName = (path: ReadonlyArray<string | number>) => path.map((part) => clip(String(part), 60)).join(".")

/** The first reason the raw arguments are too costly to take, as MM_INVALID_INPUT naming the field. */
export const inputTooCostly = (raw: unknown): Option.Option<InvalidInput> => {
  let nodes = 0
  let total = 0
  const refuse = (path: ReadonlyArray<string | number>, problem: string) =>
    Option.some(new InvalidInput({ field: fieldName(path), problem }))
  const walk = (value: unknown, path: Array<string | number>, inherited: number | undefined): Option.Option<InvalidInput> => {
    if (++nodes > NODE_LIMIT) return refuse(path, `the arguments hold more than ${NODE_LIMIT} values`)
    if (path.length > DEPTH_LIMIT) return refuse(path, `the arguments nest deeper than ${DEPTH_LIMIT} levels`)
    if (typeof value === "string") {
      const last = path[path.length - 1]
      const limit = inherited ?? (typeof last === "string" ? FIELD_STRING_LIMITS[last] : undefined) ?? DEFAULT_STRING_LIMIT
      if (value.length > limit) return refuse(path, `must be at most ${limit} characters long (got ${value.length})`)
      total += value.length
      if (total > TOTAL_LIMIT) return refuse(path, `the arguments' strings exceed ${TOTAL_LIMIT} characters together`)
      return Option.none()
    }
    if (typeof value !== "object" || value === null) return Option.none()
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        path.push(index)
        const found = walk(value[index], path, inherited)
        path.pop()
        if (Option.isSome(found)) return found
      }
      return Option.none()
    }
    for (const key of Object.keys(value)) {
      if (key.length > KEY_LIMIT) return refuse([...path, key], `property names must be at most ${KEY_LIMIT} characters long (got ${key.length})`)
      path.push(key)
      const found = walk((value as Record<string, unknown>)[key], path, inherited ?? SUBTREE_STRING_LIMITS[key])
      path.pop()
      if (Option.isSome(found)) return found
    }
    return Option.none()
  }
  return walk(raw, [], undefined)
}
