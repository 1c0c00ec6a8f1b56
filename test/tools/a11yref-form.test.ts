// A ref sent without its "e" (`"12"`, or the number 12) is answered MM_INVALID_INPUT saying how it is written
// ("e12"), with no second, confusing issue beside it; anything else that is no ref gets the general form.
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { toErrorInfo } from "../../src/domain/errors.js"
import { decodeInput } from "../../src/runtime/decode.js"
import { click } from "../../src/tools/interaction.js"

const refusal = (args: Record<string, unknown>) =>
  Effect.map(Effect.flip(decodeInput(click.input, args)), (error) => toErrorInfo(error))

describe("a11yRef's form", () => {
  it.effect('a bare number, as a string or a number, is refused saying its ref is written "e12", and only that', () =>
    Effect.gen(function* () {
      for (const a11yRef of ["12", 12, " 12 "]) {
        const info = yield* refusal({ a11yRef })
        expect(info.code).toBe("MM_INVALID_INPUT")
        expect(info.message).toBe('Invalid input at "a11yRef": a11yRef is written "e12" (a string with its "e"), as the page text shows it')
        expect(info.details).toEqual({ field: "a11yRef" })
      }
      const within = yield* refusal({ testId: "row", within: { a11yRef: 7 } })
      expect(within.message).toContain('"e7"')
    })
  )

  it.effect('anything else that is no ref gets the general form ("e12", from the page text)', () =>
    Effect.gen(function* () {
      for (const a11yRef of ["E12", "ref=e12", "[e12]", "e12x", true]) {
        const info = yield* refusal({ a11yRef })
        expect(info.message, String(a11yRef)).toContain('a11yRef must look like "e12"')
        expect(info.details).toEqual({ field: "a11yRef" })
      }
    })
  )

  it.effect("a ref of the right form decodes", () =>
    Effect.map(decodeInput(click.input, { a11yRef: "e12" }), (input) => expect(input).toMatchObject({ a11yRef: "e12" }))
  )
})
