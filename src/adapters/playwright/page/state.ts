// The page's state only (url, title, load state, screen by rules, what the page affords): what every
// action reads on its last trip to the page, so it stays small.
import type { ObserveArgs, ObserveResult, PageAffordances } from "./types.js"
import { isVisibleElement as isVisible } from "./visibility.js"

/**
 * The page's state only (url, title, load state, screen by rules): what an action reads on its last
 * trip to the page. Small on purpose, since it travels with every action's page script.
 */
export const readPageState = (args: ObserveArgs): ObserveResult => {
  const cssAttr = (name: string, value: string) => `[${name}="${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"]`

  const detectScreen = (): string => {
    for (const rule of args.screenRules) {
      try {
        if (rule.urlPattern !== undefined && !new RegExp(rule.urlPattern).test(location.href)) continue
        if (rule.testId !== undefined) {
          const match = document.querySelector(cssAttr(args.testIdAttribute, rule.testId))
          if (!match || !isVisible(match)) continue
        }
        if (rule.selector !== undefined) {
          const match = document.querySelector(rule.selector)
          if (!match || !isVisible(match)) continue
        }
        return rule.screen
      } catch {
        continue
      }
    }
    return "unknown"
  }

  /** Cheap checks (a few selector queries, one layout read) of what the page offers; see PageAffordances. */
  const affordances = (): PageAffordances | undefined => {
    const found: PageAffordances = {}
    if (document.querySelector('input[type="file" i]') !== null) found.file = true
    if (
      document.querySelector(
        '[draggable="true"], [aria-roledescription*="draggable" i], [aria-roledescription*="sortable" i], [data-rbd-drag-handle-draggable-id]'
      ) !== null
    ) {
      found.drag = true
    }
    const checkables = document.querySelectorAll('input[type="checkbox" i], input[type="radio" i], [role="checkbox"], [role="radio"], [role="switch"], [role="menuitemcheckbox"]')
    for (let index = 0; index < checkables.length && index < 30; index++) {
      const element = checkables[index]!
      // A hidden native box with a visible label (custom-styled checkboxes) counts through its label.
      const label = element instanceof HTMLInputElement ? element.labels?.[0] : undefined
      if (isVisible(element) || (label !== undefined && label !== null && isVisible(label))) {
        found.check = true
        break
      }
    }
    const scroller = document.scrollingElement
    if (scroller !== null && scroller.scrollHeight > scroller.clientHeight + 1) found.scroll = true
    return Object.keys(found).length === 0 ? undefined : found
  }
  const affords = affordances()

  return {
    ...(affords !== undefined ? { affords } : {}),
    url: location.href,
    title: document.title,
    readyState: document.readyState,
    screen: detectScreen(),
    rootFound: true,
    testIds: null,
    testIdsUnchanged: 0,
    a11y: null,
    nextRef: args.nextRef
  }
}
