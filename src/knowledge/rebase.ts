// A recipe moved to where its app is served now: a flow recorded against http://127.0.0.1:PORT replays
// against the same app on another port or host (mm_replay / `replay --base-url`). The recorded origin is
// the origin of the first URL the recipe loads; every argument that is a URL of that origin (and the
// end-of-flow check's regex, which spells the origin escaped) is rewritten to the new one. URLs of other
// origins (a sign-in server, a CDN) stay as recorded.
import type { Recipe } from "../domain/knowledge.js"
import { escapeRegex } from "../domain/text.js"

/** The origin of an absolute http(s) URL; undefined for anything else. */
const originOf = (value: string): string | undefined => {
  if (!/^https?:\/\//i.test(value)) return undefined
  try {
    return new URL(value).origin
  } catch {
    return undefined
  }
}

/** The first http(s) URL among a value's strings, depth first. */
const firstUrl = (value: unknown): string | undefined => {
  if (typeof value === "string") return originOf(value) === undefined ? undefined : value
  if (Array.isArray(value)) return value.map(firstUrl).find((url) => url !== undefined)
  if (typeof value === "object" && value !== null) return Object.values(value).map(firstUrl).find((url) => url !== undefined)
  return undefined
}

/** The origin the recipe's pages were recorded at: that of the first URL its steps load (the start page, a navigation). */
export const recordedOrigin = (recipe: Recipe): string | undefined => {
  for (const step of recipe.steps) {
    const url = firstUrl(step.args)
    if (url !== undefined) return originOf(url)
  }
  return undefined
}

/**
 * A base URL as the origin to replay at: an absolute http(s) URL with no path beyond "/", no query, no
 * fragment and no credentials. A string saying what is wrong otherwise.
 */
export const baseOrigin = (baseUrl: string): { readonly origin: string } | { readonly problem: string } => {
  const origin = originOf(baseUrl)
  if (origin === undefined) return { problem: "must be an absolute http(s) URL, e.g. http://127.0.0.1:4173" }
  const parsed = new URL(baseUrl)
  if (parsed.pathname !== "/" || parsed.search !== "" || parsed.hash !== "" || parsed.username !== "" || parsed.password !== "") {
    return { problem: `must be an origin only (scheme://host:port), e.g. ${origin}: the recorded paths are kept` }
  }
  return { origin }
}

/** The recipe with its recorded origin's URLs at `to` (an origin); the same recipe when it has none or is there already. */
export const rebase = (recipe: Recipe, to: string): { readonly recipe: Recipe; readonly from: string | undefined } => {
  const from = recordedOrigin(recipe)
  if (from === undefined || from === to) return { recipe, from }
  const plain = new RegExp(`^${escapeRegex(from)}(?=[/?#]|$)`, "i")
  // The end check is a regex literal whose source starts with the origin, escaped: /^http://127\.0\.0\.1:4173/done$/.
  const inRegex = new RegExp(`^(/?\\^)${escapeRegex(escapeRegex(from))}(?=[/?#\\\\$]|$)`, "i")
  const escapedTo = escapeRegex(to)
  const move = (value: unknown): unknown => {
    if (typeof value === "string") {
      if (plain.test(value)) return value.replace(plain, to)
      return value.replace(inRegex, (_match, head: string) => `${head}${escapedTo}`)
    }
    if (Array.isArray(value)) return value.map(move)
    if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, move(inner)]))
    return value
  }
  return { recipe: { ...recipe, steps: recipe.steps.map((step) => ({ ...step, args: move(step.args) as Record<string, unknown> })) }, from }
}
