// The page's state only (url, title, load state, screen by rules, what the page affords): what every
// action reads on its last trip to the page, so it stays small.
import type { ObserveArgs, ObserveResult, PageAffordances } from "./types.js"
import { knownShadowRoots } from "./registry.js"
import { isVisibleElement as isVisible } from "./visibility.js"

const DRAG_SOURCES = '[draggable="true"], [aria-roledescription*="draggable" i], [aria-roledescription*="sortable" i], [data-rbd-drag-handle-draggable-id]'
const CHECKABLES = 'input[type="checkbox" i], input[type="radio" i], [role="checkbox"], [role="radio"], [role="switch"], [role="menuitemcheckbox"]'

/**
 * Whether the scope holds a checkable a person can see (of the first 30): itself, a hidden native box
 * through its visible label (custom-styled checkboxes), or in a shadow root through its visible host.
 */
const visibleCheckable = (scope: Document | ShadowRoot): boolean => {
  const checkables = scope.querySelectorAll(CHECKABLES)
  const host = scope instanceof ShadowRoot ? scope.host : undefined
  for (let index = 0; index < checkables.length && index < 30; index++) {
    const element = checkables[index]!
    const label = element instanceof HTMLInputElement ? element.labels?.[0] : undefined
    if (isVisible(element) || (label !== undefined && label !== null && isVisible(label)) || (host !== undefined && isVisible(host))) return true
  }
  return false
}

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

  /**
   * Cheap checks (a few selector queries, one layout read) of what the page offers; see PageAffordances.
   * The light DOM first, then the open shadow roots the last walks went into (at most SHADOW_ROOTS_KEPT):
   * a web component's checkbox or drag handle counts as the page's own.
   */
  const affordances = (): PageAffordances | undefined => {
    const found: PageAffordances = {}
    if (document.querySelector('input[type="file" i]') !== null) found.file = true
    const scopes: Array<Document | ShadowRoot> = [document, ...knownShadowRoots()]
    for (const scope of scopes) {
      if (found.drag === undefined && scope.querySelector(DRAG_SOURCES) !== null) found.drag = true
      if (found.check === undefined && visibleCheckable(scope)) found.check = true
      if (found.drag !== undefined && found.check !== undefined) break
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
