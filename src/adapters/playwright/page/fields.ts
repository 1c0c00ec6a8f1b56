// Form fields as the tools see them: whether typed text is a secret, and the text get_text reads.
import { hiddenHow } from "./readiness.js"

/** Whether text typed into this element must be treated as a secret. */
export const isSensitiveField = (element: Element): boolean => {
  const pattern = /pass(word|phrase)?|pwd|seed|phrase|mnemonic|private.?key|secret|api.?key|token|otp|one-time-code|srp/i
  const type = (element.getAttribute("type") ?? "").toLowerCase()
  if (type === "password") return true
  const autocomplete = (element.getAttribute("autocomplete") ?? "").toLowerCase()
  // A combobox's search field may say new-password only to keep the browser's autofill away (a select
  // widget's search): what it holds filters options the page shows anyway; no password field pops up a list.
  const combobox = (element.getAttribute("role") ?? "").split(/\s+/).includes("combobox") || /^(list|both)$/.test(element.getAttribute("aria-autocomplete") ?? "")
  if (!combobox && /current-password|new-password|one-time-code/.test(autocomplete)) return true
  const labels = (element as HTMLInputElement).labels
  const labelText = labels ? Array.from(labels, (l) => l.textContent ?? "").join(" ") : ""
  const hints = [
    element.getAttribute("name"),
    element.getAttribute("id"),
    element.getAttribute("aria-label"),
    element.getAttribute("placeholder"),
    element.getAttribute("data-testid"),
    labelText
  ]
  return hints.some((hint) => hint !== null && pattern.test(hint))
}

/** Text of an element for get_text: the value of a form field (never a password), else rendered text. */
export const readText = (element: Element): string | null => {
  const tag = element.localName
  // A select reads as it shows: the labels of its chosen options (all of them for a multiple one).
  if (tag === "select") return Array.from((element as HTMLSelectElement).selectedOptions, (option) => option.label).join(", ")
  if (tag === "input" || tag === "textarea") {
    if ((element.getAttribute("type") ?? "").toLowerCase() === "password") return null
    return (element as HTMLInputElement).value
  }
  const text = (element as HTMLElement).innerText ?? element.textContent ?? ""
  // A drawn slider, spin button or meter holds its value in ARIA, often with no text of its own.
  const role = element.getAttribute("role")
  if (text.trim() === "" && (role === "slider" || role === "spinbutton" || role === "meter" || role === "progressbar" || role === "scrollbar")) {
    return element.getAttribute("aria-valuetext") ?? element.getAttribute("aria-valuenow") ?? ""
  }
  return text
}

/**
 * get_text's read of one element: the text a person sees there. An element nobody sees (display:none
 * on it or around it, visibility, no size: hiddenHow) reads as its innerText would if it were hidden
 * with its children, empty, with how it is hidden; a box of no size whose text overflows in view is not
 * hidden. Its value is never read then, so a hidden field's text never passes for what the page shows.
 */
export const readShownText = (element: Element): { readonly text: string | null; readonly hidden?: string } => {
  const hidden = hiddenHow(element)
  if (hidden === undefined || overflowsInView(element)) return { text: readText(element) }
  return { text: "", hidden }
}

/** Runs in the page: a box of no size whose contents still show around it (overflow left visible). */
const overflowsInView = (element: Element): boolean => {
  const box = element.getBoundingClientRect()
  if (box.width > 0 && box.height > 0) return false
  const style = getComputedStyle(element)
  if (style.display === "none" || style.visibility !== "visible" || style.overflowX !== "visible" || style.overflowY !== "visible") return false
  const range = element.ownerDocument.createRange()
  range.selectNodeContents(element)
  const contents = range.getBoundingClientRect()
  return contents.width > 0 && contents.height > 0
}

