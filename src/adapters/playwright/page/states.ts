// A node's states as the tree shows them: disabled, checked, expanded, level, selected, pressed, and
// a field's value (never one that may be a secret).
import { parentOf } from "./dom.js"
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
const valueIsSecret = (field: Element, testIdAttribute: string): boolean => {
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
/** The node of an element, without its ref yet (the ref follows from its identity; see `finish`). */
export const describeNode = (walk: Walk, element: Element, role: string, path: Array<string>): RawNode => {
  const name = role === "generic" ? "" : role === "iframe" ? frameName(element) : walk.aria.nameOf(element, role)
  const node: RawNode = { ref: "", role, name }
  if (isNativelyDisabled(element) || (DISABLED_ROLES.has(role) && walk.inAriaDisabled(element))) node.disabled = true
  const tag = element.localName
  if (tag === "input" && ((element as HTMLInputElement).type === "checkbox" || (element as HTMLInputElement).type === "radio")) {
    node.checked = (element as HTMLInputElement).indeterminate ? "mixed" : (element as HTMLInputElement).checked
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
  if (VALUE_ROLES.has(role)) {
    let value = ""
    if (tag === "select") value = Array.from((element as HTMLSelectElement).selectedOptions, (option) => option.label).join(", ")
    else if (tag === "input" || tag === "textarea") value = valueIsSecret(element, walk.args.testIdAttribute) ? "" : (element as HTMLInputElement).value
    else if (role === "slider" || role === "spinbutton") value = element.getAttribute("aria-valuetext") ?? element.getAttribute("aria-valuenow") ?? ""
    value = normalize(value, walk.textCap)
    if (value !== "" && value !== name) node.text = value
  }
  if (path.length > 0) node.path = path.slice()
  return node
}
