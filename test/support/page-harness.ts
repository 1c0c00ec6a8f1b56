// One harness for tool tests over a test's own pages in real Chromium: the pages served on 127.0.0.1 as
// a service, a call that answers the readable envelope, and open(path) that launches once and navigates.
import { expect } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { runTool } from "../../src/runtime/runTool.js"
import type { AnyToolDefinition } from "../../src/runtime/tool.js"
import { Session } from "../../src/services/Session.js"
import { navigate } from "../../src/tools/navigation.js"
import { launch } from "../../src/tools/session.js"
import { pageServer, readable } from "./browser.js"

/** Where the test's pages are served. */
export interface PageUrls {
  readonly url: (path: string) => string
}

export const pageHarness = (key: string, pages: Readonly<Record<string, string>>) => {
  const Pages = Context.GenericTag<PageUrls>(key)
  const PagesLive = Layer.scoped(
    Pages,
    Effect.map(pageServer(pages), (server): PageUrls => ({ url: (p: string) => `${server.url}${p}` }))
  )
  const call = (tool: AnyToolDefinition, args: Record<string, unknown> = {}) =>
    Effect.map(runTool(tool)(args), (response) => readable(response))
  const open = (p: string) =>
    Effect.gen(function* () {
      const { url } = yield* Pages
      const session = yield* Session
      if ((yield* session.current)._tag === "None") expect((yield* call(launch, {})).ok).toBe(true)
      const envelope = yield* call(navigate, { screen: "url", url: url(p) })
      expect(envelope.ok).toBe(true)
      return envelope
    })
  return { Pages, PagesLive, call, open }
}
