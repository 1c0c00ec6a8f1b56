// The URL policy applied to a session's context: a route that aborts requests to refused origins and
// files (every tab, popup and frame, documents and subresources alike), and a guard in every document
// that stops links, forms and window.open from loading refused schemes (javascript:, data:, file:,
// internal pages), which no request route sees. Each refusal leaves a notice for the next response.
import { Effect } from "effect"
import type { Browser, BrowserContext, Page, Route } from "playwright"
import { fromPage, LaunchFailed } from "../../../domain/errors.js"
import type { Settings } from "../../../domain/config.js"
import { checkNavigation, checkRequest, routesRequests, type UrlPolicy, type Verdict } from "../../../domain/url-policy.js"
import { firstLine } from "../calls.js"
import type { ExtensionInfo } from "./launch.js"
import { addNotice, type LiveSession, type RunSync } from "./live-session.js"

/** The policy of a session: the server's settings plus the loaded extension's own origin. */
export const policyOf = (settings: Settings, extension: ExtensionInfo | undefined): UrlPolicy => ({
  allowedOrigins: settings.allowedOrigins,
  blockedOrigins: settings.blockedOrigins,
  allowedRoots: settings.allowedRoots,
  allowDataUrls: settings.allowDataUrls,
  extensionOrigin: extension === undefined ? undefined : `chrome-extension://${extension.id}`
})

/** The page-side guard's binding: it reports a refused link or window.open so the server can say so. */
const GUARD_BINDING = "__bwmNavigationBlocked"

interface GuardConfig {
  readonly binding: string
  readonly data: boolean
  readonly file: boolean
  readonly extensionOrigin: string | null
}

/**
 * Runs in every document before its scripts. Self-contained (it is serialized). It stops the default
 * action of a click or submit that would load a refused scheme and makes window.open refuse one;
 * network URLs are left to the route, which knows the origin rules.
 */
const navigationGuard = (config: GuardConfig) => {
  const refused = (raw: string): boolean => {
    let url: URL
    try {
      url = new URL(raw, document.baseURI)
    } catch {
      return false
    }
    switch (url.protocol) {
      case "http:":
      case "https:":
      case "blob:":
        return false
      case "about:":
        return url.pathname !== "blank" && url.pathname !== "srcdoc"
      case "data:":
        return !config.data
      case "file:":
        return !config.file
      case "chrome-extension:":
        return `${url.protocol}//${url.host}` !== config.extensionOrigin
      default:
        return true
    }
  }
  const report = (url: string) => {
    const binding = (window as unknown as Record<string, unknown>)[config.binding]
    if (typeof binding === "function") void Promise.resolve(binding(url.slice(0, 2_000))).catch(() => undefined)
  }
  const linkOf = (event: Event): string | undefined => {
    for (const node of event.composedPath()) {
      if (node instanceof HTMLAnchorElement || node instanceof HTMLAreaElement) {
        const href = node.getAttribute("href")
        // A data: link with `download` saves a file and loads no document: it is a download, not a refused navigation.
        return href === null || (node.hasAttribute("download") && /^\s*data:/i.test(href)) ? undefined : href
      }
    }
    return undefined
  }
  const onActivate = (event: Event) => {
    const href = linkOf(event)
    if (href !== undefined && refused(href)) {
      event.preventDefault()
      report(href)
    }
  }
  window.addEventListener("click", onActivate, true)
  window.addEventListener("auxclick", onActivate, true)
  window.addEventListener(
    "submit",
    (event) => {
      const form = event.target
      const action = form instanceof HTMLFormElement ? form.getAttribute("action") : null
      if (action !== null && refused(action)) {
        event.preventDefault()
        report(action)
      }
    },
    true
  )
  const open = window.open
  window.open = function (this: Window, url?: string | URL, ...rest: Array<string | undefined>) {
    if (url !== undefined && String(url) !== "" && refused(String(url))) {
      report(String(url))
      return null
    }
    return open.call(this, url, ...rest)
  } as typeof window.open
}

/** The notice a refusal leaves; the URL is the page's words, quoted and labelled as such. */
export const blockedNotice = (what: string, label: string, url: string, verdict: Extract<Verdict, { allowed: false }>) =>
  `MM_NAVIGATION_BLOCKED: ${what} was refused (${fromPage(label, url)}): ${verdict.reason} ${verdict.hint}`

/** "An image request to", "A fetch or XHR request to": Playwright's resource type as a reader says it. */
const requestKind = (type: string) => {
  const kind = type === "xhr" || type === "fetch" ? "fetch or XHR" : type
  return `${/^[aeiou]/i.test(kind) ? "An" : "A"} ${kind} request`
}

/** A refused request's notice: a navigation by its URL, a subresource by its origin (a page's many refused requests count up as one notice). */
const requestNotice = (url: string, type: string, navigation: boolean, redirect: boolean, verdict: Extract<Verdict, { allowed: false }>) => {
  const origin = URL.canParse(url) ? new URL(url).origin : "null"
  const target = navigation || origin === "null" ? url : origin
  return blockedNotice(redirect ? "A redirect" : navigation ? "A navigation" : requestKind(type), target === url ? "URL" : "origin", target, verdict)
}

/** How the policy reaches the session's requests. */
export interface PolicyReach {
  /**
   * The browser is this server's own (launched, not attached): its every request, of any context, tab,
   * worker or service worker and every redirect hop, is the session's, and is paused at the browser.
   */
  readonly ownsBrowser: boolean
}

/**
 * Installs the page guard, and when a rule can refuse a request (only then: routing costs requests a round
 * trip), what refuses them before they leave the browser: WebSockets opened by pages (Playwright's
 * WebSocket route), and every other request at the browser (CDP Fetch, which pauses each redirect hop and
 * service worker and worker requests too) on a browser this server launched, or at the context (Playwright's
 * route) on one it attached to, whose other contexts are not the session's.
 */
export const installPolicy = (runSync: RunSync, live: LiveSession, policy: UrlPolicy, reach: PolicyReach) =>
  Effect.gen(function* () {
    const context: BrowserContext = live.context
    const failed = (error: unknown) => new LaunchFailed({ reason: "BrowserStartFailed", detail: `the URL policy could not be installed: ${firstLine(error)}` })
    yield* Effect.tryPromise({
      try: () =>
        context.exposeBinding(GUARD_BINDING, (_source, url: unknown) => {
          if (typeof url !== "string") return
          const verdict = checkNavigation(policy, url)
          if (!verdict.allowed) runSync(addNotice(live, blockedNotice("A link or window.open", "link", url, verdict)))
        }),
      catch: failed
    })
    const config: GuardConfig = {
      binding: GUARD_BINDING,
      data: policy.allowDataUrls,
      file: policy.allowedRoots.length > 0,
      extensionOrigin: policy.extensionOrigin ?? null
    }
    yield* Effect.tryPromise({ try: () => context.addInitScript(navigationGuard, config), catch: failed })
    if (!routesRequests(policy)) return
    // Only refused sockets are routed (and closed); the others connect as they would.
    yield* Effect.tryPromise({
      try: () =>
        context.routeWebSocket(
          (url) => !checkRequest(policy, url.href).allowed,
          (socket) => {
            const verdict = checkRequest(policy, socket.url())
            if (!verdict.allowed) runSync(addNotice(live, requestNotice(socket.url(), "websocket", false, false, verdict)))
            return socket.close({ code: 1008, reason: "refused by the server's URL policy" }).catch(() => undefined)
          }
        ),
      catch: failed
    })
    const browser = reach.ownsBrowser ? context.browser() : null
    if (browser !== null) return yield* pauseAtBrowser(runSync, live, policy, browser, failed)
    yield* routeContext(runSync, live, policy, failed)
  })

/**
 * The Fetch patterns that pause every request a rule may refuse: all of them with an allow list, else the
 * requests whose URL holds a blocked origin's host (a superset: the rules decide), and file: URLs.
 */
export const interceptPatterns = (policy: UrlPolicy): ReadonlyArray<string> => {
  if (policy.allowedOrigins.length > 0) return ["*"]
  const hosts = policy.blockedOrigins.map((glob) =>
    glob
      .trim()
      .replace(/^[a-z][a-z0-9+.-]*:\/\//i, "")
      .replace(/\/+$/, "")
      .toLowerCase()
      .replace(/[\\?]/g, "\\$&")
  )
  return [...new Set([...hosts.map((host) => `*${host}*`), "file:*"])]
}

/** The Chromium switch whose rules the browser's name resolution follows. */
const RESOLVER_SWITCH = "--host-resolver-rules="

/** A glob that is a plain host pattern (no scheme, no port, no path), as name resolution takes it. */
const plainHost = (glob: string): string | undefined => {
  const host = glob.trim().replace(/\/+$/, "").toLowerCase()
  return /^[a-z0-9*._-]+$/.test(host) ? host : undefined
}

/** An origin glob's scheme, host and port (`https://*.example.com`, `127.0.0.1:*`); none for a path or an IPv6 host. */
const originParts = (glob: string) => {
  const parts = /^(?:([a-z][a-z0-9+.-]*):\/\/)?([^:/]+)(?::(\d+|\*))?\/*$/i.exec(glob.trim())
  return parts === null ? undefined : { scheme: parts[1]?.toLowerCase(), host: parts[2]!, port: parts[3] }
}

const DEFAULT_PORTS: Readonly<Record<string, string>> = { http: "80", ws: "80", https: "443", wss: "443" }

/** The host of an origin glob as name resolution takes it, without its scheme and port. */
const hostOf = (glob: string): string | undefined => {
  const parts = originParts(glob)
  return parts === undefined ? undefined : plainHost(parts.host)
}

/**
 * What a blocked origin glob names in name resolution, where a pattern matches the host or `host:port`:
 * a plain host as it is, one with a port or a scheme (its default port) as `host:port`. A scheme is
 * only known by its port there: `https://h` also refuses `http://h:443`, which no one serves.
 */
const blockedPattern = (glob: string): string | undefined => {
  const parts = originParts(glob)
  const named = parts === undefined ? undefined : plainHost(parts.host)
  if (parts === undefined || named === undefined) return undefined
  const port = parts.port ?? (parts.scheme === undefined ? undefined : DEFAULT_PORTS[parts.scheme])
  if (parts.scheme !== undefined && port === undefined) return undefined
  return port === undefined ? named : `${named}:${port}`
}

/**
 * The browser's switches with the policy's host rules in its name resolution, so that nothing reaches a
 * refused host, not even what request interception never sees: a worker's WebSocket, a preconnect, a
 * DNS prefetch. A blocked origin's host (`ads.example.com`, `*.tracker.net`, an IP address; with its
 * port when the glob names a port or a scheme) resolves to nothing, ahead of any rules the switches
 * already had (an EXCLUDE of theirs still wins for its hosts).
 * An allow list makes every host but the allowed ones resolve to nothing, unless the switches bring
 * rules of their own: rules cannot say "these, and only if theirs also allow it", so theirs govern then.
 */
export const withResolverRules = (policy: UrlPolicy, args: ReadonlyArray<string>): ReadonlyArray<string> => {
  const given = args.filter((arg) => arg.startsWith(RESOLVER_SWITCH)).at(-1)?.slice(RESOLVER_SWITCH.length).trim()
  const rules = [...new Set(policy.blockedOrigins.flatMap((glob) => blockedPattern(glob) ?? []))].map((pattern) => `MAP ${pattern} ~NOTFOUND`)
  if (given !== undefined && given !== "") {
    if (rules.length === 0) return args
    rules.push(given)
  } else if (policy.allowedOrigins.length > 0) {
    const allowed = policy.allowedOrigins.map(hostOf)
    // A host no pattern can say, or any host at all: the allow list adds nothing to name resolution.
    if (allowed.every((host): host is string => host !== undefined && host !== "*")) {
      rules.push("MAP * ~NOTFOUND", ...[...new Set(allowed)].map((host) => `EXCLUDE ${host}`))
    }
  }
  if (rules.length === 0) return args
  return [...args.filter((arg) => !arg.startsWith(RESOLVER_SWITCH)), `${RESOLVER_SWITCH}${rules.join(" , ")}`]
}

/** Document requests let through lately, by network id: a refused request with one of these ids is a redirect hop. */
const DOCUMENTS_KEPT = 64

const pauseAtBrowser = (
  runSync: RunSync,
  live: LiveSession,
  policy: UrlPolicy,
  browser: Browser,
  failed: (error: unknown) => LaunchFailed
) =>
  Effect.gen(function* () {
    const cdp = yield* Effect.tryPromise({ try: () => browser.newBrowserCDPSession(), catch: failed })
    const documents = new Set<string>()
    cdp.on("Fetch.requestPaused", (event) => {
      const verdict = checkRequest(policy, event.request.url)
      const navigation = event.resourceType === "Document"
      const networkId = event.networkId
      if (verdict.allowed) {
        if (navigation && networkId !== undefined) {
          documents.add(networkId)
          if (documents.size > DOCUMENTS_KEPT) documents.delete(documents.values().next().value!)
        }
        return void cdp.send("Fetch.continueRequest", { requestId: event.requestId }).catch(() => undefined)
      }
      const redirect = navigation && networkId !== undefined && documents.has(networkId)
      runSync(addNotice(live, requestNotice(event.request.url, event.resourceType.toLowerCase(), navigation, redirect, verdict)))
      void cdp.send("Fetch.failRequest", { requestId: event.requestId, errorReason: "BlockedByClient" }).catch(() => undefined)
    })
    yield* Effect.tryPromise({
      try: () => cdp.send("Fetch.enable", { patterns: interceptPatterns(policy).map((urlPattern) => ({ urlPattern })) }),
      catch: failed
    })
  })

/**
 * On a browser the server attached to: Playwright's context route. It routes the first request of a redirect
 * chain only, so a hop to a refused URL goes out: it is named, and a tab whose document ends up on such a URL
 * is emptied before anything reads it.
 */
const routeContext = (runSync: RunSync, live: LiveSession, policy: UrlPolicy, failed: (error: unknown) => LaunchFailed) =>
  Effect.gen(function* () {
    const context = live.context
    context.on("request", (request) => {
      if (request.redirectedFrom() === null) return
      const verdict = checkRequest(policy, request.url())
      if (!verdict.allowed) runSync(addNotice(live, blockedNotice("A redirect", "URL", request.url(), verdict)))
    })
    const leaveRefused = (page: Page) =>
      page.on("framenavigated", (frame) => {
        if (frame !== page.mainFrame() || checkRequest(policy, frame.url()).allowed) return
        void page.goto("about:blank").catch(() => undefined)
      })
    for (const page of context.pages()) leaveRefused(page)
    context.on("page", leaveRefused)
    const onRequest = (route: Route) => {
      const request = route.request()
      const verdict = checkRequest(policy, request.url())
      if (verdict.allowed) return route.fallback().catch(() => undefined)
      runSync(addNotice(live, requestNotice(request.url(), request.resourceType(), request.isNavigationRequest(), false, verdict)))
      return route.abort("blockedbyclient").catch(() => undefined)
    }
    yield* Effect.tryPromise({ try: () => context.route(() => true, onRequest), catch: failed })
  })
