// Functions an exported Playwright test declares once at its top, when one of its steps calls them: the moves
// mm_drag makes (export-drag.ts), and where a person clicks a checkbox, radio or switch (export-checked.ts).
// A step's line calls one when it starts with `await <name>(`.

/** One function of an exported test: its name, its lines, the Playwright types they name, the functions it calls. */
export interface TestHelper {
  readonly name: string
  readonly lines: ReadonlyArray<string>
  readonly types: ReadonlyArray<string>
  readonly uses?: ReadonlyArray<TestHelper>
}

/** The helpers among `helpers` that a step's lines call. */
export const calledBy = (helpers: ReadonlyArray<TestHelper>, lines: ReadonlyArray<string>): ReadonlyArray<TestHelper> =>
  helpers.filter((helper) => lines.some((line) => line.startsWith(`await ${helper.name}(`)))

/**
 * What the test declares for the helpers its steps called: each in `order` that is called or that a called one
 * uses, followed by a blank line; and the types their lines name, for the import of @playwright/test.
 */
export const declared = (order: ReadonlyArray<TestHelper>, called: ReadonlySet<TestHelper>) => {
  const needed = new Set<TestHelper>()
  const need = (helper: TestHelper): void => {
    needed.add(helper)
    for (const used of helper.uses ?? []) need(used)
  }
  for (const helper of called) need(helper)
  const kept = order.filter((helper) => needed.has(helper))
  return { lines: kept.flatMap((helper) => [...helper.lines, ``]), types: [...new Set(kept.flatMap((helper) => helper.types))] }
}
