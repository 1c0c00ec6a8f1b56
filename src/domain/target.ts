// How a tool names the element it acts on: exactly one of a ref, a test id or a CSS selector,
// optionally scoped inside a parent named the same way.
import { Schema } from "effect"
import { clip } from "./errors.js"

/** What an a11yRef looks like, said to whoever sent something else: a bare number is its ref written without the "e". */
const refForm = (actual: unknown): string => {
  const bare = typeof actual === "number" ? String(actual) : typeof actual === "string" ? actual.trim() : ""
  return /^[0-9]{1,9}$/.test(bare)
    ? `a11yRef is written "e${bare}" (a string with its "e"), as the page text shows it`
    : 'a11yRef must look like "e12" (a ref from the page text: mm_describe_screen, mm_find or an action\'s answer)'
}

export const A11yRef = Schema.String.annotations({ message: (issue) => refForm(issue.actual) }).pipe(
  Schema.pattern(/^e[0-9]+$/, { message: (issue) => refForm(issue.actual) })
).annotations({ description: 'Ref of an accessibility node, e.g. "e12", from the page text (mm_describe_screen, mm_find or an action\'s answer).' })

const NonEmpty = Schema.String.pipe(Schema.minLength(1, { message: () => "must not be empty" }))

const locatorFields = {
  a11yRef: Schema.optional(A11yRef),
  testId: Schema.optional(NonEmpty.annotations({ description: "Value of the element's data-testid attribute (exact match)." })),
  selector: Schema.optional(NonEmpty.annotations({ description: "CSS selector (Playwright syntax also accepted)." }))
}

type LocatorFields = {
  readonly a11yRef?: string | undefined
  readonly testId?: string | undefined
  readonly selector?: string | undefined
}

const exactlyOne = (value: LocatorFields) => {
  const given = (["a11yRef", "testId", "selector"] as const).filter((key) => value[key] !== undefined)
  if (given.length === 1) return true
  return {
    path: ["a11yRef"],
    message:
      given.length === 0
        ? "give exactly one of a11yRef, testId or selector (none was given)"
        : `give exactly one of a11yRef, testId or selector (got ${given.join(" and ")})`
  }
}

/** A parent that scopes the target: same three ways to name it. */
export const Scope = Schema.Struct(locatorFields)
  // Said for a value that is no object at all ("e5" for {a11yRef: "e5"}), instead of the struct's type.
  .annotations({ message: () => 'an object naming one element: {"a11yRef": "e5"}, {"testId": "…"} or {"selector": "…"}' })
  .pipe(Schema.filter(exactlyOne))
  .annotations({ description: "Optional parent element to search inside: exactly one of a11yRef, testId or selector." })

/** Fields every targeting tool accepts; combine with `validateTarget` on the tool's struct. */
export const targetFields = {
  ...locatorFields,
  within: Schema.optional(Scope)
}

/** The filter to pipe onto a targeting tool's input struct. */
export const validateTarget = <A extends LocatorFields>(value: A) => exactlyOne(value)

export type Locator =
  | { readonly kind: "a11yRef"; readonly value: string }
  | { readonly kind: "testId"; readonly value: string }
  | { readonly kind: "selector"; readonly value: string }

export interface Target {
  readonly locator: Locator
  readonly within?: Locator | undefined
}

const toLocator = (value: LocatorFields): Locator =>
  value.a11yRef !== undefined
    ? { kind: "a11yRef", value: value.a11yRef }
    : value.testId !== undefined
      ? { kind: "testId", value: value.testId }
      : { kind: "selector", value: value.selector ?? "" }

/** The target of a decoded input (the schema already guaranteed exactly one locator). */
export const targetOf = (input: LocatorFields & { readonly within?: LocatorFields | undefined }): Target => ({
  locator: toLocator(input),
  within: input.within === undefined ? undefined : toLocator(input.within)
})

/** "testId:confirm": the whole locator as text, for step records that replay it. */
export const locatorText = (locator: Locator): string => `${locator.kind}:${locator.value}`

/** "testId:confirm" style label used in results and errors (a long value clipped to its start). */
export const describeLocator = (locator: Locator): string => `${locator.kind}:${clip(locator.value)}`

export const describeTarget = (target: Target): string =>
  target.within === undefined
    ? describeLocator(target.locator)
    : `${describeLocator(target.locator)} within ${describeLocator(target.within)}`
