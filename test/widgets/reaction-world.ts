// The world of the tests that judge an action on the page's settled reaction (reactions.test.ts,
// typing.test.ts): real Chromium with the JSON-file knowledge store, the test's pages served on 127.0.0.1
// beside `/slow?ms=N` (a JSON answer after N ms, the request a page's reaction waits on), `open(path)`
// that launches once and navigates, and `inPage` that reads the page through Playwright.
import { Context, Effect, Layer } from "effect"
import * as Browser from "../../src/adapters/playwright/lifecycle/browser.js"
import { Session } from "../../src/services/Session.js"
import { answerPage, listenLoopback, pathOf, send } from "../../demo/serve.js"
import { testSettings } from "../support/browser.js"
import { ok } from "../support/calls.js"
import { liveSessionLayer } from "../support/live-session.js"

/** Where a page says what the app made of an action. */
export const statusMessage = `<p id="msg" role="status"></p>`

/** Reads the page through Playwright (never from our answers). */
export const inPage = <A>(expression: string) =>
  Effect.gen(function* () {
    const { page } = yield* (yield* Browser.BrowserState).activePage
    return (yield* Effect.promise(() => page.evaluate(expression))) as A
  })

export const reactionWorld = (key: string, pages: Readonly<Record<string, string>>) => {
  const Pages = Context.GenericTag<{ readonly url: string }>(key)
  const serve = Effect.acquireRelease(
    Effect.promise(() =>
      listenLoopback((request, response) => {
        if (pathOf(request) === "/slow") {
          const ms = Number(new URL(request.url ?? "/", "http://127.0.0.1").searchParams.get("ms") ?? 0)
          setTimeout(() => send(response, 200, "application/json", '{"ok":false}'), ms)
          return
        }
        if (!answerPage(pages, request, response)) send(response, 404, "text/plain", "not found")
      })
    ),
    (server) => Effect.promise(() => server.close())
  )
  const settings = testSettings()
  const live = liveSessionLayer(settings)
  const open = (path: string) =>
    Effect.gen(function* () {
      const { url } = yield* Pages
      if ((yield* (yield* Session).current)._tag === "None") yield* ok("launch")
      yield* ok("navigate", { screen: "url", url: `${url}${path}` })
    })
  return { layer: Layer.merge(live, Layer.scoped(Pages, Effect.map(serve, (server) => ({ url: server.url })))), open }
}
