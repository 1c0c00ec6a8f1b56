// The Playwright export's drag: the moves mm_drag makes (session/interactions.ts dragAsAHand), written once as a
// function at the top of a test that drags, since Playwright's `dragTo` jumps to the drop point in one move and
// drag libraries that hit-test on the pointer's previous position (dnd-kit, hello-pangea/dnd) drop the item on
// itself then.

import type { TestHelper } from "./export-helpers.js"

/** The function's name in the exported test. */
export const DRAG_HELPER = "dragAsAHand"

/** The step's line: drag `source` onto `target` (both Playwright locator expressions). */
export const dragLine = (source: string, target: string): string => `await ${DRAG_HELPER}(page, ${source}, ${target})`

/** The function, as lines of the exported test. */
const dragLines: ReadonlyArray<string> = [
  `/** Drags as browser-workflow-mcp's mm_drag does: press on the source, a small move, onto the drop target, on past its middle, release. */`,
  `const ${DRAG_HELPER} = async (page: Page, source: Locator, target: Locator) => {`,
  `  await source.hover()`,
  `  const from = (await source.boundingBox())!`,
  `  await page.mouse.down()`,
  `  await page.mouse.move(from.x + from.width / 2 + 6, from.y + from.height / 2 + 6)`,
  `  // What the library drags covers the drop target: moved onto, not asked to take the pointer.`,
  `  await target.hover({ force: true })`,
  `  const to = (await target.boundingBox())!`,
  `  const past = (a: number, b: number, size: number) => (Math.abs(b - a) < 1 ? 0 : (Math.sign(b - a) * size) / 4)`,
  `  await page.mouse.move(`,
  `    to.x + to.width / 2 + past(from.x + from.width / 2, to.x + to.width / 2, to.width),`,
  `    to.y + to.height / 2 + past(from.y + from.height / 2, to.y + to.height / 2, to.height)`,
  `  )`,
  `  await page.mouse.up()`,
  `}`
]

/** The function a test that drags declares. */
export const dragHelper: TestHelper = { name: DRAG_HELPER, lines: dragLines, types: ["Locator", "Page"] }
