// Vitest global setup: bundles the in-page code (src/adapters/playwright/page/) before any test imports
// it from source, so that tests always run the page code as it is in the working tree.
// @ts-expect-error: a plain ES module script without types
import { generatePageBundle } from "../../scripts/bundle-page.mjs"

export default async function setup(): Promise<void> {
  await generatePageBundle()
}
