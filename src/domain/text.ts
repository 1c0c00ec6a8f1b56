// Text as a reader compares it.

/** Whitespace runs as one space, trimmed: how Playwright's text matching and our checks compare texts. */
export const collapseWhitespace = (text: string): string => text.replace(/\s+/g, " ").trim()

/** The first `limit` characters of a text, cut back to its last space when that keeps more than half. */
export const cutAtWord = (text: string, limit: number): string => {
  const head = text.slice(0, limit)
  const space = head.lastIndexOf(" ")
  return space > limit / 2 ? head.slice(0, space) : head
}

/** A text as a regex source that matches it literally (slashes stay: a RegExp's toString escapes them for a literal). */
export const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
