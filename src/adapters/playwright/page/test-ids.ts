// The visible elements with a test id (the configured attribute), in document order; changes-only
// leaves out those the client was already told of unchanged.
import type { View } from "./registry.js"
import { normalize } from "./text.js"
import type { ObserveArgs, RawTestId } from "./types.js"
import { isVisibleElement as isVisible } from "./visibility.js"

/** `limit` test ids at most (new or changed ones, changes-only); every one listed goes into the client's record. */
export const collectTestIds = (
  args: ObserveArgs,
  view: View,
  root: Element | null,
  limit: number
): { readonly testIds: Array<RawTestId>; readonly unchanged: number } => {
  const testIds: Array<RawTestId> = []
  let unchanged = 0
  if (root) {
    const all = root.querySelectorAll(`[${args.testIdAttribute}]`)
    for (let i = 0; i < all.length && testIds.length < limit; i++) {
      const element = all[i]!
      if (!isVisible(element)) continue
      const tag = element.localName
      const isField = tag === "input" || tag === "textarea" || tag === "select"
      const text = isField ? "" : normalize(element.textContent, 100)
      const item: RawTestId = { testId: element.getAttribute(args.testIdAttribute) ?? "", tag, visible: true }
      if (text !== "") item.text = text
      const signature = `${item.testId}|${tag}|${text}`
      if (args.changesOnly && view.reportedTestIds.get(element) === signature) {
        unchanged++
        continue
      }
      view.reportedTestIds.set(element, signature)
      testIds.push(item)
    }
  }
  return { testIds, unchanged }
}
