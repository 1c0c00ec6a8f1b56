// URL, text and title patterns given as strings: "/source/flags" is a regular expression, anything else is literal (or a glob where the tool says so).

/** "/source/flags" as a RegExp; undefined for anything else, or a regex that does not compile. */
export const regexOf = (text: string): RegExp | undefined => {
  const match = /^\/(.+)\/([dgimsuvy]*)$/s.exec(text)
  if (match === null) return undefined
  try {
    return new RegExp(match[1]!, match[2]!)
  } catch {
    return undefined
  }
}

/** True when the text is written as a regex ("/.../flags"), whether or not it compiles. */
export const looksLikeRegex = (text: string): boolean => /^\/.+\/[dgimsuvy]*$/s.test(text)
