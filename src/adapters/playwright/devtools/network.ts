// The requests of every tab, captured from Playwright's context events into a bounded ring per tab
// (with the count each let go), and one request's details read on demand: headers with secrets
// redacted, bodies of text types cut to a size, timing, the failure. Nothing but a summary and the
// Playwright request object is kept per request: bodies stay in the browser until asked for.
import { Effect, Ref } from "effect"
import type { BrowserContext, Page, Request, Response } from "playwright"
import type { Settings } from "../../../domain/config.js"
import { isSensitiveKey, REDACTED, redactDeep } from "../../../domain/redaction.js"
import { redactThenCut } from "../../../domain/secrets.js"
import { within } from "../calls.js"
import { appendNewest, withinRingLimit } from "../rings.js"
import { devtoolsEnabled, type RequestDetails, type RequestSummary, type RequestTiming } from "../../../services/session/devtools.js"

/** What a cut needs of the secrets: their redaction and how far past the cut a form reaches. */
export interface SecretsRedaction {
  readonly redactText: (text: string) => string
  readonly reach: number
}

const NO_SECRETS: SecretsRedaction = { redactText: (text) => text, reach: 0 }

// ---- the capture's state: pure transitions --------------------------------------------------------

/** How many requests each tab keeps (the newest). */
export const NETWORK_PER_TAB = 300

/** How many tabs' rings are kept; past it, the ring that was quiet longest goes. */
export const NETWORK_RINGS = 16

/** How much of a URL a summary keeps. */
export const URL_LIMIT = 500

/**
 * A URL as a summary keeps it: whole up to URL_LIMIT characters, else cut with "…", the mark by which the
 * redaction of the answer knows a secret's beginning left before it (the secrets are not known here yet).
 */
export const summaryUrl = (url: string): string => (url.length <= URL_LIMIT ? url : `${url.slice(0, URL_LIMIT - 1)}…`)

export interface RequestEntry {
  readonly id: number
  /** The tab's page (its id is looked up when asked: a new tab's first request may come before its id). */
  readonly page: Page
  readonly method: string
  readonly url: string
  readonly type: string
  /** When the request started (ms since the epoch). */
  readonly start: number
  readonly status?: number | undefined
  /** When it finished or failed; until then, when its response came (a body the page never reads never finishes). */
  readonly end?: number | undefined
  readonly finished?: boolean | undefined
  readonly failure?: string | undefined
  readonly mocked?: boolean | undefined
  /** Playwright's request, for the details asked for later. */
  readonly request: Request
}

export interface NetworkRing {
  readonly entries: ReadonlyArray<RequestEntry>
  readonly dropped: number
}

export interface NetworkLog {
  /** When the capture started (ms since the epoch); undefined while it is off. */
  readonly since: number | undefined
  readonly nextId: number
  readonly rings: ReadonlyMap<Page, NetworkRing>
}

export const emptyNetwork: NetworkLog = { since: undefined, nextId: 1, rings: new Map() }

/** Adds a request to its tab's ring; the ring keeps its newest NETWORK_PER_TAB. */
export const requestStarted = (log: NetworkLog, entry: Omit<RequestEntry, "id">): { readonly log: NetworkLog; readonly id: number } => {
  const id = log.nextId
  const ring = log.rings.get(entry.page) ?? { entries: [], dropped: 0 }
  const { entries, cut } = appendNewest(ring.entries, { ...entry, id }, NETWORK_PER_TAB)
  const next: NetworkRing = { entries, dropped: ring.dropped + cut }
  const rings = withinRingLimit(new Map(log.rings).set(entry.page, next), NETWORK_RINGS, (kept) => kept.entries.at(-1)?.id ?? 0)
  return { log: { ...log, nextId: id + 1, rings }, id }
}

/** Updates one request of a tab's ring (its response, its end, its failure); a request the ring let go is left alone. */
export const requestUpdated = (log: NetworkLog, page: Page, id: number, patch: Partial<RequestEntry>): NetworkLog => {
  const ring = log.rings.get(page)
  if (ring === undefined) return log
  // The request is nearly always one of the newest.
  let index = ring.entries.length - 1
  while (index >= 0 && ring.entries[index]!.id !== id) index--
  if (index < 0) return log
  const entries = ring.entries.slice()
  entries[index] = { ...entries[index]!, ...patch }
  return { ...log, rings: new Map(log.rings).set(page, { ...ring, entries }) }
}

export interface RequestFilter {
  readonly urlPattern?: string | undefined
  readonly method?: string | undefined
  readonly status?: number | undefined
  readonly failedOnly?: boolean | undefined
}

/** A URL pattern: a glob when it has `*` (`*` stops at `/`, `**` does not), else a case-insensitive substring. */
export const urlPatternMatcher = (pattern: string): ((url: string) => boolean) => {
  if (!pattern.includes("*")) {
    const needle = pattern.toLowerCase()
    return (url) => url.toLowerCase().includes(needle)
  }
  const escape = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, "\\$&")
  const source = pattern
    .split("**")
    .map((part) => part.split("*").map(escape).join("[^/]*"))
    .join(".*")
  const regex = new RegExp(`^${source}$`, "i")
  return (url) => regex.test(url)
}

/** Failed: no response (refused, aborted, blocked) or an answer of 400 and above. */
export const requestFailed = (entry: RequestEntry): boolean => entry.failure !== undefined || (entry.status !== undefined && entry.status >= 400)

export const requestMatches = (filter: RequestFilter) => {
  const url = filter.urlPattern === undefined ? undefined : urlPatternMatcher(filter.urlPattern)
  const method = filter.method?.toUpperCase()
  return (entry: RequestEntry) =>
    (url === undefined || url(entry.url)) &&
    (method === undefined || entry.method === method) &&
    (filter.status === undefined || entry.status === filter.status) &&
    (filter.failedOnly !== true || requestFailed(entry))
}

/** A request as network_requests lists it. */
export const summaryOf = (entry: RequestEntry): RequestSummary => ({
  id: `r${entry.id}`,
  method: entry.method,
  url: entry.url,
  type: entry.type,
  ...(entry.status !== undefined ? { status: entry.status } : {}),
  ...(entry.failure !== undefined ? { failure: entry.failure } : {}),
  ...(entry.end !== undefined ? { ms: Math.max(0, Math.round(entry.end - entry.start)) } : {}),
  ...(entry.mocked === true ? { mocked: true } : {})
})

/** The request of that id ("r12"), in whichever tab's ring still holds it. */
export const findRequest = (log: NetworkLog, id: string): RequestEntry | undefined => {
  const number = Number(id.slice(1))
  for (const ring of log.rings.values()) {
    const found = ring.entries.find((entry) => entry.id === number)
    if (found !== undefined) return found
  }
  return undefined
}

// ---- the capture: Playwright's context events ------------------------------------------------------

/** Capture from the session's start when the devtools group is on; otherwise from the first devtools call. */
export const capturesNetwork = (settings: Settings): boolean => devtoolsEnabled(settings)

/** Which tab and ring slot each captured request went to, for the events that follow it. */
const captured = new WeakMap<Request, { readonly page: Page; readonly id: number }>()

/** Requests a mock of this session answered (marked by mocks.ts). */
const mockedRequests = new WeakSet<Request>()

export const markMocked = (request: Request): void => {
  mockedRequests.add(request)
}

/** The id ("r12") a captured request was given, if the capture saw it. */
export const requestIdOf = (request: Request): string | undefined => {
  const known = captured.get(request)
  return known === undefined ? undefined : `r${known.id}`
}

type RunSync = <A>(effect: Effect.Effect<A>) => A

/**
 * The page a request belongs to. A service worker's requests have none, and Playwright cannot name the
 * frame of a popup's first request (issued before its frame exists).
 */
const pageOf = (request: Request): Page | undefined => {
  if (request.serviceWorker() !== null) return undefined
  try {
    return request.frame().page()
  } catch {
    return undefined
  }
}

/**
 * Starts capturing the context's requests (once per session; later calls do nothing). Requests without
 * a tracked page (a service worker's, a popup's first) are not captured.
 */
/** What the capture needs of a session (a LiveSession has it; named here so this file needs nothing of the lifecycle). */
interface NetworkCapture {
  readonly context: BrowserContext
  readonly network: Ref.Ref<NetworkLog>
}

export const watchNetwork = (runSync: RunSync, live: NetworkCapture): void => {
  const started = runSync(
    Ref.modify(live.network, (log): [boolean, NetworkLog] => (log.since !== undefined ? [false, log] : [true, { ...log, since: Date.now() }]))
  )
  if (!started) return
  const context = live.context
  const update = (request: Request, patch: (entry: Partial<RequestEntry>) => Partial<RequestEntry>) => {
    const known = captured.get(request)
    if (known === undefined) return
    runSync(Ref.update(live.network, (log) => requestUpdated(log, known.page, known.id, patch({}))))
  }
  context.on("request", (request) => {
    const page = pageOf(request)
    if (page === undefined) return
    const entry: Omit<RequestEntry, "id"> = {
      page,
      method: request.method(),
      url: summaryUrl(request.url()),
      type: request.resourceType(),
      start: Date.now(),
      request
    }
    const id = runSync(
      Ref.modify(live.network, (log) => {
        const next = requestStarted(log, entry)
        return [next.id, next.log]
      })
    )
    captured.set(request, { page, id })
  })
  context.on("response", (response) =>
    update(response.request(), () => ({
      status: response.status(),
      end: Date.now(),
      ...(mockedRequests.has(response.request()) ? { mocked: true } : {})
    }))
  )
  context.on("requestfinished", (request) => update(request, () => ({ end: Date.now(), finished: true })))
  context.on("requestfailed", (request) =>
    update(request, () => ({
      end: Date.now(),
      finished: true,
      failure: request.failure()?.errorText ?? "failed",
      ...(mockedRequests.has(request) ? { mocked: true } : {})
    }))
  )
}

// ---- one request's details, read on demand ----------------------------------------------------------

/** Headers whose values are secrets whatever the page: credentials and session cookies. */
const SECRET_HEADERS = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "x-auth-token", "x-csrf-token", "x-xsrf-token"])

export const isSecretHeader = (name: string): boolean => SECRET_HEADERS.has(name.toLowerCase()) || isSensitiveKey(name)

/** Headers with the values of secret ones replaced. */
export const redactHeaders = (headers: Readonly<Record<string, string>>): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) out[name] = isSecretHeader(name) ? REDACTED : value
  return out
}

/** Content types whose bodies are shown as text. */
export const isTextType = (contentType: string | undefined): boolean =>
  contentType !== undefined &&
  /^(text\/|application\/([\w.+-]*\+)?(json|xml|javascript|ecmascript|x-www-form-urlencoded|graphql|x-ndjson)\b|image\/svg\+xml)/i.test(
    contentType.trim()
  )

/**
 * A body as text with the values of sensitive keys redacted (JSON at any depth, form fields) and the
 * secrets' values by `redactSecrets`, then cut to `limit` characters: redacted first, so a cut never
 * shows part of a secret.
 */
export const bodyText = (text: string, contentType: string | undefined, limit: number, secrets: SecretsRedaction = NO_SECRETS): string => {
  let shown = text
  if (contentType !== undefined && /json/i.test(contentType)) {
    try {
      shown = JSON.stringify(redactDeep(JSON.parse(text)))
    } catch {
      // Not JSON after all: shown as it came.
    }
  } else if (contentType !== undefined && /x-www-form-urlencoded/i.test(contentType)) {
    const form = new URLSearchParams(text)
    for (const key of new Set(form.keys())) if (isSensitiveKey(key)) form.set(key, REDACTED)
    shown = form.toString()
  }
  const { kept, more } = redactThenCut(shown, limit, secrets.redactText, secrets.reach)
  return more === 0 ? kept : `${kept}…[cut: ${more} more characters]`
}

/** Bodies larger than this are not fetched from the browser at all. */
const BODY_FETCH_LIMIT = 5_000_000

const round = (value: number) => Math.round(value * 10) / 10

/** Playwright's timing as durations in ms; phases that did not happen (a reused connection) are left out. */
export const timingOf = (timing: ReturnType<Request["timing"]>): RequestTiming | undefined => {
  const span = (from: number, to: number) => (from >= 0 && to >= from ? round(to - from) : undefined)
  const parts = {
    dnsMs: span(timing.domainLookupStart, timing.domainLookupEnd),
    connectMs: span(timing.connectStart, timing.connectEnd),
    waitMs: span(timing.requestStart, timing.responseStart),
    downloadMs: span(timing.responseStart, timing.responseEnd),
    totalMs: timing.responseEnd >= 0 ? round(timing.responseEnd) : undefined
  }
  const present = Object.fromEntries(Object.entries(parts).filter(([, value]) => value !== undefined)) as RequestTiming
  return Object.keys(present).length === 0 ? undefined : present
}

const settle = <A>(promise: Promise<A>, ms: number): Promise<A | undefined> => within(promise.catch(() => undefined), ms, undefined)

/** The request's details: what the browser still has of it. Never fails; what it could not read is said in `notes`. */
export const requestDetails = async (
  entry: RequestEntry,
  tabId: string,
  bodyChars: number,
  secrets: SecretsRedaction = NO_SECRETS
): Promise<RequestDetails> => {
  const request = entry.request
  const notes: Array<string> = []
  const requestHeaders = (await settle(request.allHeaders(), 2_000)) ?? request.headers()
  const response: Response | null | undefined = entry.failure === undefined ? await settle(request.response(), 2_000) : null
  const responseHeaders = response ? await settle(response.allHeaders(), 2_000) : undefined

  let requestBody: string | undefined
  const postData = request.postDataBuffer()
  if (postData !== null && postData.length > 0) {
    const type = requestHeaders["content-type"]
    if (isTextType(type)) requestBody = bodyText(postData.toString("utf8"), type, bodyChars, secrets)
    else notes.push(`request body: ${postData.length} bytes of ${type ?? "an unknown type"}, not shown (not text)`)
  }

  let responseBody: string | undefined
  if (response) {
    const type = responseHeaders?.["content-type"] ?? response.headers()["content-type"]
    const declared = Number(responseHeaders?.["content-length"] ?? Number.NaN)
    if (!isTextType(type)) {
      if (type !== undefined || (Number.isFinite(declared) && declared > 0)) {
        notes.push(`response body: ${Number.isFinite(declared) ? `${declared} bytes of ` : ""}${type ?? "an unknown type"}, not shown (not text)`)
      }
    } else if (Number.isFinite(declared) && declared > BODY_FETCH_LIMIT) {
      notes.push(`response body: ${declared} bytes, too large to fetch`)
    } else {
      // A body the page has not read yet never arrives: wait a little, then say so.
      const body = await settle(response.body(), entry.finished === true ? 5_000 : 1_000)
      if (body === undefined) {
        notes.push(
          entry.finished === true
            ? "response body: no longer available (the browser let it go)"
            : "response body: not complete yet (the page has not read all of it)"
        )
      } else if (body.length > 0) {
        responseBody = bodyText(body.toString("utf8"), type, bodyChars, secrets)
      }
    }
  }

  const timing = entry.end === undefined ? undefined : timingOf(request.timing())
  return {
    ...summaryOf(entry),
    tabId,
    ...(response && response.statusText() !== "" ? { statusText: response.statusText() } : {}),
    requestHeaders: redactHeaders(requestHeaders),
    ...(responseHeaders !== undefined ? { responseHeaders: redactHeaders(responseHeaders) } : {}),
    ...(requestBody !== undefined ? { requestBody } : {}),
    ...(responseBody !== undefined ? { responseBody } : {}),
    ...(timing !== undefined ? { timing } : {}),
    ...(entry.finished === true ? {} : { pending: true }),
    ...(notes.length > 0 ? { notes } : {})
  }
}
