// The remote browsers of the settings (--ws-endpoint, --cdp-endpoint, each possibly several): how each
// is reached, the headers it gets (endpointHeaders, never shown), and how it is named to agents and logs.
import type { Settings } from "../../../domain/config.js"

export interface RemoteEndpoint {
  /** A Playwright browser server (chromium.connect) or a Chromium's DevTools endpoint (connectOverCDP). */
  readonly kind: "Ws" | "Cdp"
  /** As configured: may hold a token in its query or path, so it is never shown. */
  readonly url: string
  /** host:port: all an answer, a record or a log line says about it. */
  readonly where: string
  /** Sent with the connection's upgrade request; never shown. */
  readonly headers: Readonly<Record<string, string>>
}

const DEFAULT_PORTS: Readonly<Record<string, string>> = { "ws:": "80", "http:": "80", "wss:": "443", "https:": "443" }

/** An endpoint's host:port (its scheme's default port when it names none). */
export const hostPortOf = (url: string): string => {
  if (!URL.canParse(url)) return "(endpoint)"
  const parsed = new URL(url)
  return `${parsed.hostname}:${parsed.port || DEFAULT_PORTS[parsed.protocol] || "?"}`
}

/** Whether sessions go to remote browsers rather than ones this server launches. */
export const isRemote = (settings: Pick<Settings, "wsEndpoints" | "cdpEndpoints">) => settings.wsEndpoints.length > 0 || settings.cdpEndpoints.length > 0

/** The option a remote setting came from, for messages ("--ws-endpoint"). */
export const remoteOption = (settings: Pick<Settings, "wsEndpoints" | "cdpEndpoints">) =>
  settings.wsEndpoints.length > 0 ? "--ws-endpoint" : settings.cdpEndpoints.length > 0 ? "--cdp-endpoint" : undefined

/** The headers for one endpoint: those for all ("*"), then its host:port's, then its own URL's. */
export const headersFor = (headers: Settings["endpointHeaders"], url: string): Readonly<Record<string, string>> => ({
  ...headers["*"],
  ...headers[hostPortOf(url)],
  ...headers[url]
})

/** The pool's members, Playwright servers first, each with its headers. */
export const remoteEndpoints = (settings: Pick<Settings, "wsEndpoints" | "cdpEndpoints" | "endpointHeaders">): ReadonlyArray<RemoteEndpoint> => [
  ...settings.wsEndpoints.map((url) => ({ kind: "Ws" as const, url, where: hostPortOf(url), headers: headersFor(settings.endpointHeaders, url) })),
  ...settings.cdpEndpoints.map((url) => ({ kind: "Cdp" as const, url, where: hostPortOf(url), headers: headersFor(settings.endpointHeaders, url) }))
]

/** A key of endpointHeaders that names no endpoint (a typo would send no token): the first, or undefined. */
export const unmatchedHeaderKey = (settings: Pick<Settings, "wsEndpoints" | "cdpEndpoints" | "endpointHeaders">): string | undefined => {
  const urls = [...settings.wsEndpoints, ...settings.cdpEndpoints]
  const known = new Set(["*", ...urls, ...urls.map(hostPortOf)])
  return Object.keys(settings.endpointHeaders).find((key) => !known.has(key))
}

/** The endpoints as a message names them: host:port each. */
export const endpointKeysText = (settings: Pick<Settings, "wsEndpoints" | "cdpEndpoints">) => {
  const urls = [...settings.wsEndpoints, ...settings.cdpEndpoints]
  return urls.length === 0 ? "none is configured" : urls.map(hostPortOf).join(", ")
}

/** Shorter header values are left alone: a value such as "1" or "yes" would blank out ordinary text. */
const MIN_REDACTED_HEADER = 6

/**
 * The endpoint header values to keep out of every answer, record and log, by the marker name they are
 * replaced with ("endpoint-header:Authorization"): each value whole, and a credential after its scheme word
 * ("Bearer", "Basic", "Token"...) alone, as a server's error may quote it.
 */
export const endpointHeaderValues = (headers: Settings["endpointHeaders"]): ReadonlyMap<string, string> => {
  const values = new Map<string, string>()
  for (const byName of Object.values(headers)) {
    for (const [name, value] of Object.entries(byName)) {
      const credential = /^[A-Za-z][\w-]*\s+(\S.*)$/.exec(value.trim())?.[1]
      for (const form of [value, credential]) {
        if (form === undefined || form.trim().length < MIN_REDACTED_HEADER || [...values.values()].includes(form)) continue
        let key = `endpoint-header:${name}`
        for (let index = 2; values.has(key); index++) key = `endpoint-header:${name}_${index}`
        values.set(key, form)
      }
    }
  }
  return values
}
