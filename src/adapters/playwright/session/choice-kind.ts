// What kind of choice a select_option target is: a native <select> (Playwright's selectOption), an
// <option> of one (retargeted to its select), or an ARIA widget Playwright cannot select in (a
// role=listbox, one of its options, a custom combobox or a button that pops up a listbox or an unnamed
// kind of popup, aria-haspopup="true"; choose.ts).
import type { Target } from "../../../domain/target.js"

/** How the choice is made: "native" for a <select> or anything else Playwright's selectOption takes (a label of one). */
export type ChoiceKind = "native" | "native-option" | "listbox" | "option" | "combobox"

/** Runs in the page on the target: its kind. Self-contained: sent by its source. */
export const choiceKindOf = (element: Element): ChoiceKind => {
  const tag = element.localName
  if (tag === "select") return "native"
  if ((tag === "option" || tag === "optgroup") && element.closest("select") !== null) return "native-option"
  const role = (element.getAttribute("role") ?? "").trim().split(/\s+/)[0]
  if (role === "listbox") return "listbox"
  if (role === "option" && element.closest("[role~=listbox]") !== null) return "option"
  if (role === "combobox" && !(tag === "input" && element.hasAttribute("list"))) return "combobox"
  // A button that pops up a listbox says so, or says only that it pops something up ("true": a picker's button).
  const popup = element.getAttribute("aria-haspopup")
  if (popup === "listbox" || popup === "true") return "combobox"
  // A field inside a combobox: its search input, the box that shows its value.
  if (element.parentElement?.closest("[role~=combobox]") != null) return "combobox"
  // A component's host or wrapper that holds one (a web component's shadow root, a library's box).
  if ((element.shadowRoot ?? element).querySelector("[role~=combobox], [aria-haspopup=listbox], [aria-haspopup=true]") !== null) return "combobox"
  return "native"
}

/** An option's own <select>, as a target: the nearest select around the target (null when the target has a scope of its own that cannot chain). */
export const selectOfOption = (target: Target): Target | undefined =>
  target.within === undefined || target.locator.kind === "a11yRef"
    ? { within: target.locator, locator: { kind: "selector", value: "xpath=ancestor::select[1]" } }
    : undefined
