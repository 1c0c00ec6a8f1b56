// A node's states as the tree shows them: disabled, checked, expanded, level, selected, pressed, and
// a field's value (never one that may be a secret).
import { inputChecked, parentOf } from "./dom.js"
import { isSensitiveField as isSensitive } from "./fields.js"
import { isNativelyDisabled } from "./roles.js"
import { normalize } from "./text.js"
import type { Walk } from "./tree.js"
import type { RawNode } from "./types.js"

const DISABLED_ROLES = new Set([
  "application", "button", "composite", "gridcell", "group", "input", "link", "menuitem", "scrollbar", "separator", "tab",
  "checkbox", "columnheader", "combobox", "grid", "listbox", "menu", "menubar", "menuitemcheckbox", "menuitemradio",
  "option", "radio", "radiogroup", "row", "rowheader", "searchbox", "select", "slider", "spinbutton", "switch", "tablist",
  "textbox", "toolbar", "tree", "treegrid", "treeitem"
])
const EXPANDED_ROLES = new Set([
  "application", "button", "checkbox", "combobox", "gridcell", "link", "listbox", "menuitem", "row", "rowheader", "tab",
  "treeitem", "columnheader", "menuitemcheckbox", "menuitemradio", "switch"
])

/** Whether aria-disabled="true" applies to an element (itself or the nearest ancestor that says), cached for one walk. */
export const makeInAriaDisabled = (): ((element: Element) => boolean) => {
  const ariaDisabledChain = new Map<Element, boolean>()
  const inAriaDisabled = (element: Element): boolean => {
    let result = ariaDisabledChain.get(element)
    if (result === undefined) {
      const value = (element.getAttribute("aria-disabled") ?? "").toLowerCase()
      if (value === "true") result = true
      else if (value === "false") result = false
      else {
        const parent = parentOf(element)
        result = parent !== null && inAriaDisabled(parent)
      }
      ariaDisabledChain.set(element, result)
    }
    return result
  }
  return inAriaDisabled
}

// A field's value is shown unless it may be a secret: the field looks secret, or its class, or any
// element around it (a form "secret-form", a section "wallet-key") does, as the tools' own hints do.
const SECRET_HINT = /pass(word|phrase)?|pwd|seed|phrase|mnemonic|private.?key|secret|api.?key|token|otp|one-time-code|srp/i
export const valueIsSecret = (field: Element, testIdAttribute: string): boolean => {
  if (isSensitive(field)) return true
  for (let element: Element | null = field; element !== null; element = parentOf(element)) {
    const hints = [element.id, element.getAttribute("class"), element.getAttribute("name"), element.getAttribute(testIdAttribute), element.getAttribute("aria-label")]
    if (hints.some((hint) => hint && SECRET_HINT.test(hint))) return true
  }
  return false
}
export const VALUE_ROLES = new Set(["textbox", "searchbox", "combobox", "spinbutton", "slider"])


const frameName = (frame: Element): string => {
  let title = ""
  try {
    title = (frame as HTMLIFrameElement).contentDocument?.title ?? ""
  } catch {
    title = ""
  }
  return normalize(frame.getAttribute("title") || frame.getAttribute("name") || title)
}
const SORTS = new Set(["ascending", "descending", "other"])
const REQUIRED_ROLES = new Set(["checkbox", "combobox", "gridcell", "listbox", "radiogroup", "searchbox", "spinbutton", "textbox", "tree", "columnheader", "rowheader", "switch"])
const READONLY_ROLES = new Set(["checkbox", "combobox", "grid", "gridcell", "listbox", "radiogroup", "searchbox", "slider", "spinbutton", "textbox", "treegrid", "columnheader", "rowheader", "switch"])

/** Sort, current, invalid, required and read-only, set only where they apply and are on. */
const fieldStates = (element: Element, role: string, node: RawNode) => {
  if (role === "columnheader" || role === "rowheader") {
    const sort = element.getAttribute("aria-sort")
    if (sort !== null && SORTS.has(sort)) node.sort = sort as "ascending" | "descending" | "other"
  }
  const current = element.getAttribute("aria-current")
  if (current !== null && current !== "" && current !== "false") node.current = normalize(current, 20)
  const invalid = element.getAttribute("aria-invalid")
  if (invalid !== null && invalid !== "" && invalid !== "false") node.invalid = true
  const tag = element.localName
  const field = tag === "input" || tag === "textarea" || tag === "select"
  if (REQUIRED_ROLES.has(role) && ((field && (element as HTMLInputElement).required) || element.getAttribute("aria-required") === "true")) node.required = true
  if (
    READONLY_ROLES.has(role) &&
    (((tag === "input" || tag === "textarea") && VALUE_ROLES.has(role) && (element as HTMLInputElement).readOnly) || element.getAttribute("aria-readonly") === "true")
  ) {
    node.readonly = true
  }
}

/** ARIA states a class-only mark would repeat or contradict: where one is set, the class says nothing more. */
const ARIA_MARKS = ["aria-selected", "aria-current", "aria-pressed", "aria-checked"]
const MARK_WORDS = /selected|checked|active/i

/**
 * Selected or active as a class says it, for widgets that show a choice by a class alone (a date
 * picker's `-selected-` day, a nav link's `active`): a class token whose last word (split at
 * non-letters and camelCase) is selected, checked or active. Never where an ARIA state is set or the
 * element has its own (a checkbox, an option).
 */
const classMark = (element: Element): "selected" | "active" | undefined => {
  const className = element.getAttribute("class")
  if (className === null || !MARK_WORDS.test(className)) return undefined
  if (ARIA_MARKS.some((name) => element.hasAttribute(name)) || element.localName === "input" || element.localName === "option") return undefined
  let mark: "selected" | "active" | undefined
  for (const token of className.split(/\s+/)) {
    const words = token.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z]+/).filter((word) => word !== "")
    const last = words[words.length - 1]
    if (last === "selected" || last === "checked") return "selected"
    if (last === "active") mark = "active"
  }
  return mark
}

/** The node of an element, without its ref yet (the ref follows from its identity; see `finish`). */
export const describeNode = (walk: Walk, shown: Element, role: string, path: Array<string>): RawNode => {
  const name = role === "iframe" ? frameName(shown) : walk.aria.nameOf(shown, role)
  const node: RawNode = { ref: "", role, name }
  // A label standing for the checkbox it hides (see walk.ts) has that checkbox's states.
  const element = shown.localName === "label" && role !== "generic" ? (shown as HTMLLabelElement).control ?? shown : shown
  if (isNativelyDisabled(element) || (DISABLED_ROLES.has(role) && walk.inAriaDisabled(element))) node.disabled = true
  const tag = element.localName
  if (tag === "input" && ((element as HTMLInputElement).type === "checkbox" || (element as HTMLInputElement).type === "radio")) {
    node.checked = inputChecked(element as HTMLInputElement)
  } else if (role === "checkbox" || role === "radio" || role === "switch" || role === "menuitemcheckbox" || role === "menuitemradio") {
    const value = element.getAttribute("aria-checked")
    node.checked = value === "mixed" ? "mixed" : value === "true"
  } else if ((role === "option" || role === "treeitem") && element.hasAttribute("aria-checked")) {
    const value = element.getAttribute("aria-checked")
    node.checked = value === "mixed" ? "mixed" : value === "true"
  }
  if (tag === "details") node.expanded = (element as HTMLDetailsElement).open
  else if (EXPANDED_ROLES.has(role) && element.hasAttribute("aria-expanded")) node.expanded = element.getAttribute("aria-expanded") === "true"
  if (role === "heading") {
    const native = /^h[1-6]$/.test(tag) ? Number(tag.slice(1)) : NaN
    const level = Number.isNaN(native) ? Number(element.getAttribute("aria-level") ?? 2) : native
    if (Number.isInteger(level) && level > 0) node.level = level
  }
  if (tag === "option" ? (element as HTMLOptionElement).selected : element.getAttribute("aria-selected") === "true") {
    if (["option", "tab", "row", "gridcell", "treeitem", "columnheader", "rowheader"].includes(role)) node.selected = true
  }
  if (role === "button") {
    const pressed = element.getAttribute("aria-pressed")
    if (pressed === "true") node.pressed = true
    else if (pressed === "mixed") node.pressed = "mixed"
  }
  fieldStates(element, role, node)
  if (node.selected === undefined && node.current === undefined && node.pressed === undefined && node.checked === undefined) {
    const mark = classMark(element)
    if (mark !== undefined) node.marked = mark
  }
  if (VALUE_ROLES.has(role)) {
    let value = ""
    if (tag === "select") value = Array.from((element as HTMLSelectElement).selectedOptions, (option) => option.label).join(", ")
    else if (tag === "input" || tag === "textarea") value = valueIsSecret(element, walk.args.testIdAttribute) ? "" : (element as HTMLInputElement).value
    else if (role === "slider" || role === "spinbutton") value = element.getAttribute("aria-valuetext") ?? element.getAttribute("aria-valuenow") ?? ""
    value = normalize(value, walk.textCap)
    if (value !== "" && value !== name) node.text = value
    else if (value === "" && name.trim() === "" && (tag === "input" || tag === "textarea")) {
      // A field that nothing names (its aria-labelledby or label is empty: cmdk's search field) reads as it
      // shows while empty, its placeholder, as an empty editor does (walk.ts showPlaceholder).
      const placeholder = normalize(element.getAttribute("placeholder") ?? "", walk.textCap)
      if (placeholder !== "") node.text = placeholder
    }
  }
  if (path.length > 0) node.path = path.slice()
  return node
}
