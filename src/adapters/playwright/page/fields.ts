// Form fields as the tools see them: whether typed text is a secret, and the text get_text reads.

/** Whether text typed into this element must be treated as a secret. */
export const isSensitiveField = (element: Element): boolean => {
  const pattern = /pass(word|phrase)?|pwd|seed|phrase|mnemonic|private.?key|secret|api.?key|token|otp|one-time-code|srp/i
  const type = (element.getAttribute("type") ?? "").toLowerCase()
  if (type === "password") return true
  const autocomplete = (element.getAttribute("autocomplete") ?? "").toLowerCase()
  if (/current-password|new-password|one-time-code/.test(autocomplete)) return true
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
  if (tag === "input" || tag === "textarea" || tag === "select") {
    if ((element.getAttribute("type") ?? "").toLowerCase() === "password") return null
    return (element as HTMLInputElement).value
  }
  return (element as HTMLElement).innerText ?? element.textContent ?? ""
}
