// Roles as html-aam and Chromium (and so Playwright's getByRole) see them: the explicit role when valid,
// else the element's implicit one, with presentation inherited from table and list parents.
import { idRefs, parentOf } from "./dom.js"

export const VALID_ROLES = new Set(
  ("alert alertdialog application article banner blockquote button caption cell checkbox code columnheader combobox " +
    "complementary contentinfo definition deletion dialog directory document emphasis feed figure form generic grid " +
    "gridcell group heading img insertion link list listbox listitem log main mark marquee math meter menu menubar " +
    "menuitem menuitemcheckbox menuitemradio navigation none note option paragraph presentation progressbar radio " +
    "radiogroup region row rowgroup rowheader scrollbar search searchbox separator slider spinbutton status strong " +
    "subscript superscript switch tab table tablist tabpanel term textbox time timer toolbar tooltip tree treegrid treeitem").split(" ")
)
export const GLOBAL_ARIA = [
  "aria-atomic", "aria-busy", "aria-controls", "aria-current", "aria-describedby", "aria-details", "aria-dropeffect",
  "aria-flowto", "aria-grabbed", "aria-hidden", "aria-keyshortcuts", "aria-label", "aria-labelledby", "aria-live",
  "aria-owns", "aria-relevant", "aria-roledescription"
]
export const NAMING_PROHIBITED = new Set([
  "caption", "code", "definition", "deletion", "emphasis", "generic", "insertion", "mark", "paragraph", "presentation",
  "none", "strong", "subscript", "suggestion", "superscript", "term", "time"
])
export const NAME_FROM_CONTENT = new Set([
  "button", "cell", "checkbox", "columnheader", "gridcell", "heading", "link", "menuitem", "menuitemcheckbox",
  "menuitemradio", "option", "radio", "row", "rowheader", "switch", "tab", "tooltip", "treeitem"
])
export const NAME_FROM_CONTENT_DESCENDANT = new Set([
  "", "caption", "code", "contentinfo", "definition", "deletion", "emphasis", "insertion", "list", "listitem", "mark",
  "none", "paragraph", "presentation", "region", "row", "rowgroup", "section", "strong", "subscript", "superscript",
  "table", "term", "time"
])
export const INPUT_ROLES: Record<string, string> = {
  button: "button", checkbox: "checkbox", image: "button", number: "spinbutton", radio: "radio", range: "slider",
  reset: "button", submit: "button", file: "button"
}
export const LANDMARK_BLOCKERS =
  "article:not([role]), aside:not([role]), main:not([role]), nav:not([role]), section:not([role]), [role=article], [role=complementary], [role=main], [role=navigation], [role=region]"

export const explicitRole = (element: Element): string | null => {
  const attribute = element.getAttribute("role")
  if (!attribute) return null
  for (const token of attribute.split(" ")) {
    const role = token.trim()
    if (VALID_ROLES.has(role)) return role
  }
  return null
}
export const hasTabIndex = (element: Element) => !Number.isNaN(Number(String(element.getAttribute("tabindex"))))
export const hasGlobalAria = (element: Element, role: string | null) =>
  GLOBAL_ARIA.some(
    (attribute) =>
      element.hasAttribute(attribute) &&
      !((attribute === "aria-label" || attribute === "aria-labelledby") && role !== null && NAMING_PROHIBITED.has(role)) &&
      !(attribute === "aria-roledescription" && role === "generic")
  )
export const isNativelyDisabled = (element: Element): boolean => {
  const tag = element.localName
  if (tag !== "button" && tag !== "input" && tag !== "select" && tag !== "textarea" && tag !== "option" && tag !== "optgroup") return false
  try {
    return element.matches(":disabled")
  } catch {
    return element.hasAttribute("disabled")
  }
}
export const isFocusable = (element: Element): boolean => {
  if (isNativelyDisabled(element)) return false
  const tag = element.localName
  if (tag === "button" || tag === "details" || tag === "select" || tag === "textarea") return true
  if (tag === "a" || tag === "area") return element.hasAttribute("href")
  if (tag === "input") return !(element as HTMLInputElement).hidden
  return hasTabIndex(element)
}
export const thRole = (element: Element): string | null => {
  const scope = element.getAttribute("scope")
  if (scope === "col" || scope === "colgroup") return "columnheader"
  if (scope === "row" || scope === "rowgroup") return "rowheader"
  const next = element.nextElementSibling
  const previous = element.previousElementSibling
  const row = element.parentElement?.localName === "tr" ? element.parentElement : null
  if (!next && !previous) {
    const table = row?.closest("table") as HTMLTableElement | null | undefined
    if (table && table.rows.length <= 1) return null
    return "columnheader"
  }
  const isHeader = (cell: Element | null) => cell !== null && cell.localName === "th"
  const isFilledData = (cell: Element | null) =>
    cell !== null && cell.localName === "td" && ((cell.textContent ?? "").trim() !== "" || cell.children.length > 0)
  if (isHeader(next) && isHeader(previous)) return "columnheader"
  if (isFilledData(next) || isFilledData(previous)) return "rowheader"
  return "columnheader"
}
export const implicitRole = (element: Element): string | null => {
  switch (element.localName) {
    case "a": case "area": return element.hasAttribute("href") ? "link" : null
    case "article": return "article"
    case "aside": return "complementary"
    case "blockquote": return "blockquote"
    case "button": return "button"
    case "caption": return "caption"
    case "code": return "code"
    case "datalist": return "listbox"
    case "dd": return "definition"
    case "del": return "deletion"
    case "details": return "group"
    case "dfn": case "dt": return "term"
    case "dialog": return "dialog"
    case "em": return "emphasis"
    case "fieldset": return "group"
    case "figure": return "figure"
    case "footer": return element.closest(LANDMARK_BLOCKERS) ? null : "contentinfo"
    case "header": return element.closest(LANDMARK_BLOCKERS) ? null : "banner"
    case "form": return element.hasAttribute("aria-label") || element.hasAttribute("aria-labelledby") ? "form" : null
    case "h1": case "h2": case "h3": case "h4": case "h5": case "h6": return "heading"
    case "hr": return "separator"
    case "html": return "document"
    case "img":
      return element.getAttribute("alt") === "" && !element.getAttribute("title") && !hasGlobalAria(element, null) && !hasTabIndex(element)
        ? "presentation"
        : "img"
    case "input": {
      const type = (element as HTMLInputElement).type.toLowerCase()
      if (type === "email" || type === "search" || type === "tel" || type === "text" || type === "url" || type === "") {
        const list = idRefs(element, element.getAttribute("list"))[0]
        if (list && list.localName === "datalist") return "combobox"
        return type === "search" ? "searchbox" : "textbox"
      }
      if (type === "hidden") return null
      return INPUT_ROLES[type] ?? "textbox"
    }
    case "ins": return "insertion"
    case "li": return "listitem"
    case "main": return "main"
    case "mark": return "mark"
    case "math": return "math"
    case "menu": case "ol": case "ul": return "list"
    case "meter": return "meter"
    case "nav": return "navigation"
    case "optgroup": return "group"
    case "option": return "option"
    case "output": return "status"
    case "p": return "paragraph"
    case "progress": return "progressbar"
    case "search": return "search"
    case "section": return element.hasAttribute("aria-label") || element.hasAttribute("aria-labelledby") ? "region" : null
    case "select": return element.hasAttribute("multiple") || (element as HTMLSelectElement).size > 1 ? "listbox" : "combobox"
    case "strong": return "strong"
    case "sub": return "subscript"
    case "sup": return "superscript"
    case "svg": return "img"
    case "table": return "table"
    case "tbody": case "thead": case "tfoot": return "rowgroup"
    case "td": {
      const table = element.closest("table")
      const role = table ? explicitRole(table) : null
      return role === "grid" || role === "treegrid" ? "gridcell" : "cell"
    }
    case "textarea": return "textbox"
    case "th": return thRole(element)
    case "time": return "time"
    case "tr": return "row"
    default: return null
  }
}
export const PRESENTATION_PARENTS: Record<string, Array<string>> = {
  dd: ["dl", "div"], div: ["dl"], dt: ["dl", "div"], li: ["ol", "ul"], tbody: ["table"], td: ["tr"], tfoot: ["table"],
  th: ["tr"], thead: ["table"], tr: ["thead", "tbody", "tfoot", "table"]
}
export const inheritedPresentation = (element: Element): string | null => {
  let ancestor: Element | null = element
  while (ancestor) {
    const parent = parentOf(ancestor)
    const parents = PRESENTATION_PARENTS[ancestor.localName]
    if (!parents || !parent || !parents.includes(parent.localName)) return null
    const role = explicitRole(parent)
    if ((role === "none" || role === "presentation") && !(hasGlobalAria(parent, role) || isFocusable(parent))) return role
    ancestor = parent
  }
  return null
}

export type RoleOf = (element: Element) => string | null

/**
 * An editing host (a contenteditable element whose parent is not editable): a rich-text editor's input.
 * Chromium exposes it as an editable generic; it is a textbox to anyone who types into it.
 */
export const isEditingHost = (element: Element): boolean =>
  element.hasAttribute("contenteditable") &&
  (element as HTMLElement).isContentEditable === true &&
  (element.parentElement as HTMLElement | null)?.isContentEditable !== true

/** The role of each element, computed once per walk. */
export const makeRoleOf = (): RoleOf => {
  const roles = new Map<Element, string | null>()
  return (element) => {
    const cached = roles.get(element)
    if (cached !== undefined) return cached
    let role: string | null
    const explicit = explicitRole(element)
    const implicit = (): string | null => {
      const value = implicitRole(element)
      return value === null ? null : inheritedPresentation(element) ?? value
    }
    if (explicit === null) role = implicit() ?? (isEditingHost(element) ? "textbox" : null)
    else if (explicit === "none" || explicit === "presentation") {
      const fallback = implicit()
      role = hasGlobalAria(element, fallback) || isFocusable(element) ? fallback : explicit
    } else role = explicit
    roles.set(element, role)
    return role
  }
}
