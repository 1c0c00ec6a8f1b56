// Decoding a tool's arguments: its input schema, every issue named by field, and what an agent can send
// instead; arguments too costly to take (input-limits.ts) refused first.
import { Effect, Option, ParseResult, Schema } from "effect"
import type { ParseError } from "effect/ParseResult"
import { InvalidInput } from "../domain/errors.js"
import { inputTooCostly } from "./input-limits.js"

/** A decode failure as MM_INVALID_INPUT naming the field(s). */
export const invalidInputFrom = (error: ParseError): InvalidInput => {
  const issues = mergeAlternatives(
    ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) => ({
      field: issue.path.map(String).join("."),
      problem: issue.message
    }))
  )
  const first = issues[0] ?? { field: "", problem: "invalid input" }
  return new InvalidInput({ field: first.field, problem: first.problem, issues })
}

const EXPECTED = /^Expected (.*), actual (.*)$/s

/**
 * A union's members each fail on their own ("Expected \"slow-3g\", actual …", "Expected \"fast-3g\", …",
 * and "Expected undefined" for an optional field): one issue per field and value, naming every member an
 * agent can send ("Expected \"slow-3g\" | \"fast-3g\", actual \"bad\""). Other issues stay as they are.
 */
const mergeAlternatives = (issues: ReadonlyArray<{ readonly field: string; readonly problem: string }>) => {
  const merged: Array<{ field: string; problem: string; expected?: Array<string>; actual?: string }> = []
  for (const issue of issues) {
    const parts = EXPECTED.exec(issue.problem)
    const same = parts === null ? undefined : merged.find((known) => known.field === issue.field && known.actual === parts[2])
    if (parts === null) merged.push({ ...issue })
    else if (same === undefined) merged.push({ field: issue.field, problem: issue.problem, expected: [parts[1]!], actual: parts[2]! })
    else same.expected!.push(parts[1]!)
  }
  // An optional field's "Expected undefined" beside its own complaint (a pattern's message) says nothing more.
  const said = merged.filter((issue) => !(issue.expected?.length === 1 && issue.expected[0] === "undefined" && merged.some((other) => other !== issue && other.field === issue.field)))
  return said.map(({ field, problem, expected, actual }) => {
    if (expected === undefined) return { field, problem }
    // Leaving an optional field out is never what an error has to suggest.
    const offered = expected.length > 1 ? expected.filter((member) => member !== "undefined") : expected
    return { field, problem: expected.length === 1 ? problem : `Expected ${offered.join(" | ")}, actual ${actual}` }
  })
}

const decodeOptions = { errors: "all", onExcessProperty: "error" } as const

/** Decodes raw arguments with a tool's input schema; errors name the field. Arguments too costly to take (input-limits.ts) are refused first. */
export const decodeInput = <I, IE>(schema: Schema.Schema<I, IE>, raw: unknown): Effect.Effect<I, InvalidInput> =>
  Option.match(inputTooCostly(raw), {
    onSome: (refused) => Effect.fail(refused),
    onNone: () => Schema.decodeUnknown(schema, decodeOptions)(raw ?? {}).pipe(Effect.mapError(invalidInputFrom))
  })
