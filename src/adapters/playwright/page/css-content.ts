// CSS generated content as text for accessible names: `content` strings and attr(), or the alternative
// text after "/", of an element and its ::before and ::after.
import type { StyleOf } from "./dom.js"

export /** A CSS `content` value as text: strings and attr(), or the alternative after "/"; undefined when it is not text. */
const cssContentText = (element: Element, value: string, pseudo: boolean): string | undefined => {
  if (!value || value === "none" || value === "normal") return undefined
  const tokens: Array<{ kind: "string" | "attr" | "slash" | "other"; value: string }> = []
  let i = 0
  while (i < value.length) {
    const c = value[i]!
    if (c === " " || c === "\t" || c === "\n") {
      i++
    } else if (c === '"' || c === "'") {
      let text = ""
      i++
      while (i < value.length && value[i] !== c) {
        if (value[i] === "\\" && i + 1 < value.length) {
          const hex = /^[0-9a-fA-F]{1,6}/.exec(value.slice(i + 1, i + 7))
          if (hex) {
            text += String.fromCodePoint(parseInt(hex[0], 16))
            i += 1 + hex[0].length
            if (value[i] === " ") i++
            continue
          }
          text += value[i + 1]
          i += 2
          continue
        }
        text += value[i]
        i++
      }
      i++
      tokens.push({ kind: "string", value: text })
    } else if (c === "/") {
      tokens.push({ kind: "slash", value: "/" })
      i++
    } else {
      const match = /^attr\(\s*([-\w]+)\s*\)/.exec(value.slice(i))
      if (match) {
        tokens.push({ kind: "attr", value: match[1]! })
        i += match[0].length
      } else {
        const other = /^[^\s"'/]+(\([^)]*\))?/.exec(value.slice(i))
        tokens.push({ kind: "other", value: other ? other[0] : c })
        i += other ? other[0].length : 1
      }
    }
  }
  let parts = tokens
  const slash = tokens.findIndex((token) => token.kind === "slash")
  if (slash !== -1) parts = tokens.slice(slash + 1)
  else if (!pseudo) return undefined
  let text = ""
  for (const token of parts) {
    if (token.kind === "string") text += token.value
    else if (token.kind === "attr") text += element.getAttribute(token.value) ?? ""
    else return undefined
  }
  return text
}

/** The text an element's own `content` or its ::before / ::after adds to a name ("\u0000" when its own content is not text). */
export const pseudoText = (element: Element, pseudo: "::before" | "::after" | null, styleOf: StyleOf): string => {
  const style = pseudo === null ? styleOf(element) : element.ownerDocument.defaultView?.getComputedStyle(element, pseudo)
  if (!style) return ""
  const content = style.content
  if (!content || content === "none" || content === "normal") return ""
  if (style.display === "none" || style.visibility === "hidden") return ""
  const text = cssContentText(element, content, pseudo !== null)
  if (text === undefined) return pseudo === null ? "\u0000" : ""
  return pseudo !== null && (style.display || "inline") !== "inline" ? ` ${text} ` : text
}

