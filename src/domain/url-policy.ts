// The URL policy: which URLs a navigation may load and which origins a request may reach. Pure: the
// adapter applies it to mm_navigate, to links and window.open (a guard in each page) and to every
// request of every page of the context (a route).
import * as path from "node:path"
import { fileURLToPath } from "node:url"

export interface UrlPolicy {
  /** Origin globs (`https://*.example.com`, `http://127.0.0.1:*`); when any is given, only matching origins load. */
  readonly allowedOrigins: ReadonlyArray<string>
  /** Origin globs that never load; they win over allowedOrigins. */
  readonly blockedOrigins: ReadonlyArray<string>
  /** Absolute directories under which `file:` URLs may load; none: `file:` is refused. */
  readonly allowedRoots: ReadonlyArray<string>
  /** `data:` URLs may be navigated to. */
  readonly allowDataUrls: boolean
  /** The loaded extension's origin (`chrome-extension://<id>`), always allowed. */
  readonly extensionOrigin?: string | undefined
}

export const openPolicy: UrlPolicy = { allowedOrigins: [], blockedOrigins: [], allowedRoots: [], allowDataUrls: false }

export type Verdict = { readonly allowed: true } | { readonly allowed: false; readonly reason: string; readonly hint: string }

const ALLOWED: Verdict = { allowed: true }

/** Schemes of the browser's own pages: never opened by the agent or by a page. */
const INTERNAL = new Set(["chrome:", "chrome-untrusted:", "devtools:", "chrome-search:", "chrome-native:", "edge:", "brave:"])

/** URLs shown in errors and notices: short, one line. */
export const shortUrl = (url: string): string => {
  const line = url.replace(/\s+/g, " ")
  return line.length > 120 ? `${line.slice(0, 119)}…` : line
}

/** A glob over origins as a regular expression: `*` is any run of characters except "/". */
const globRegex = (glob: string): RegExp => {
  const body = glob
    .trim()
    .replace(/\/+$/, "")
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join("[^/]*")
  return new RegExp(`^${body}$`, "i")
}

/**
 * Whether an origin matches a glob. A glob with a scheme (`https://*.example.com`) is matched against
 * the origin (`https://app.example.com`, with its port when not the default); one without
 * (`*.example.com`, `127.0.0.1:8080`) against the host with and without its port, on any scheme.
 */
export const originMatches = (glob: string, url: URL): boolean => {
  if (glob.includes("://")) return globRegex(glob).test(url.origin)
  const regex = globRegex(glob)
  return regex.test(url.host) || regex.test(url.hostname)
}

/** A WebSocket's URL as the web origin it belongs to (ws: is http:'s socket, wss: https:'s): globs of either name it. */
const webOrigin = (url: URL): URL | undefined =>
  url.protocol === "ws:" || url.protocol === "wss:" ? new URL(`${url.protocol === "ws:" ? "http:" : "https:"}//${url.host}/`) : undefined

/** Whether a glob names the URL's origin, or for a WebSocket the web origin it belongs to. */
const globNames = (glob: string, url: URL): boolean => {
  if (originMatches(glob, url)) return true
  const web = webOrigin(url)
  return web !== undefined && originMatches(glob, web)
}

/** The origin rules for a URL whose origin is a network one (http, https, ws, wss). */
const checkOrigin = (policy: UrlPolicy, url: URL): Verdict => {
  const blocked = policy.blockedOrigins.find((glob) => globNames(glob, url))
  if (blocked !== undefined) {
    return { allowed: false, reason: `its origin ${url.origin} matches the blocked origin ${blocked}.`, hint: "The server's --blocked-origins refuses it." }
  }
  if (policy.allowedOrigins.length > 0 && !policy.allowedOrigins.some((glob) => globNames(glob, url))) {
    return {
      allowed: false,
      reason: `its origin ${url.origin} is not one of the allowed origins.`,
      hint: "Add it to the server's --allowed-origins to allow it."
    }
  }
  return ALLOWED
}

/** True when `file` is `root` or inside it (no "..", no sibling with the same prefix). */
export const isUnder = (root: string, file: string): boolean => {
  const relative = path.relative(path.resolve(root), path.resolve(file))
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative))
}

const checkFile = (policy: UrlPolicy, url: URL): Verdict => {
  if (policy.allowedRoots.length === 0) {
    return {
      allowed: false,
      reason: "file: URLs are refused by default.",
      hint: "Start the server with --allowed-roots DIR to allow file: URLs under DIR."
    }
  }
  let file: string
  try {
    file = fileURLToPath(url)
  } catch {
    return { allowed: false, reason: "the file: URL names no local file.", hint: "Use file:///absolute/path under an allowed root." }
  }
  if (url.host !== "" || !policy.allowedRoots.some((root) => isUnder(root, file))) {
    return {
      allowed: false,
      reason: "the file is outside the allowed roots.",
      hint: `Allowed roots (--allowed-roots): ${policy.allowedRoots.join(", ")}.`
    }
  }
  return ALLOWED
}

/**
 * Whether a URL may be loaded in a tab: by mm_navigate, a link or window.open. `javascript:`,
 * `view-source:` and the browser's internal pages never; `data:` and `file:` only when configured;
 * network URLs by the origin rules; the loaded extension's pages always.
 */
export const checkNavigation = (policy: UrlPolicy, text: string): Verdict => {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return { allowed: false, reason: "it is not an absolute URL, and no web page is open to resolve it against.", hint: "Give an absolute URL such as http://127.0.0.1:3000/, or open a page first." }
  }
  switch (url.protocol) {
    case "http:":
    case "https:":
      return checkOrigin(policy, url)
    case "about:":
      return url.pathname === "blank" || url.pathname === "srcdoc"
        ? ALLOWED
        : { allowed: false, reason: "only about:blank may be opened among about: pages.", hint: "No option allows other about: pages." }
    case "file:":
      return checkFile(policy, url)
    case "data:":
      return policy.allowDataUrls
        ? ALLOWED
        : { allowed: false, reason: "data: URLs are refused by default.", hint: "Start the server with --allow-data-urls to allow them." }
    case "javascript:":
      return {
        allowed: false,
        reason: "javascript: URLs run script in the page and are never loaded.",
        hint: "No option allows them; act on the page's elements instead."
      }
    case "view-source:":
      return { allowed: false, reason: "view-source: pages are never opened.", hint: "No option allows them; load the page itself." }
    case "blob:": {
      // A blob URL belongs to the origin that made it.
      const inner = URL.canParse(url.pathname) ? new URL(url.pathname) : undefined
      return inner !== undefined && (inner.protocol === "http:" || inner.protocol === "https:") ? checkOrigin(policy, inner) : ALLOWED
    }
    case "chrome-extension:":
      // Node gives "null" as the origin of a non-special scheme: compare scheme and host.
      return policy.extensionOrigin !== undefined && `${url.protocol}//${url.host}` === policy.extensionOrigin
        ? ALLOWED
        : {
            allowed: false,
            reason: "it belongs to an extension other than the one the session loaded.",
            hint: "Only the loaded extension's pages (chrome-extension://<its id>/) may be opened."
          }
    default:
      return INTERNAL.has(url.protocol)
        ? { allowed: false, reason: "the browser's internal pages are never opened.", hint: "No option allows them." }
        : { allowed: false, reason: `${url.protocol} URLs are not loaded.`, hint: "Only http(s) URLs load by default." }
  }
}

/**
 * Whether a request of a page (a document, a script, an image, a fetch...) may go out: network
 * URLs by the origin rules, `file:` under the allowed roots; anything else the browser loads itself.
 */
export const checkRequest = (policy: UrlPolicy, text: string): Verdict => {
  if (!URL.canParse(text)) return ALLOWED
  const url = new URL(text)
  switch (url.protocol) {
    case "http:":
    case "https:":
    case "ws:":
    case "wss:":
      return checkOrigin(policy, url)
    case "file:":
      return checkFile(policy, url)
    default:
      return ALLOWED
  }
}

/** Whether requests must be routed at all: only when some rule can refuse one (routing costs every request a round trip). */
export const routesRequests = (policy: UrlPolicy): boolean =>
  policy.allowedOrigins.length > 0 || policy.blockedOrigins.length > 0 || policy.allowedRoots.length > 0
