// Moving the active tab: to a configured screen or to a URL.
import { Effect, Schema } from "effect"
import { NavigationFailed } from "../domain/errors.js"
import { defineTool } from "../runtime/tool.js"
import { Session, type Destination } from "../services/Session.js"
import { DEADLINE_SLACK_MS, timeoutField } from "./shared.js"

const NavigateInput = Schema.Struct({
  screen: Schema.Literal("home", "settings", "notification", "popup", "url", "back", "forward", "reload").annotations({
    description:
      "home: the session's home page; settings / notification: the pages configured under screens (notification opens in a new tab); popup: the extension's action popup page, opened as a new tab; url: the url field; back / forward: through the active tab's history (MM_NAVIGATION_FAILED at either end); reload: the same page again."
  }),
  url: Schema.optional(Schema.String.pipe(Schema.minLength(1))).annotations({
    description: 'Absolute URL; required when screen is "url".'
  }),
  newTab: Schema.optional(Schema.Boolean).annotations({
    description: 'With screen "url": open the URL in a new tab and make it active instead of loading it in the active tab.'
  }),
  timeoutMs: timeoutField(1_000, 120_000, 30_000)
}).pipe(
  Schema.filter((input) =>
    input.screen !== "url" || input.url !== undefined ? true : { path: ["url"], message: 'url is required when screen is "url"' }
  )
)

export const navigate = defineTool({
  name: "navigate",
  title: "Navigate",
  description:
    'Load a page in the active tab and wait for it to finish loading: screen "home", "settings", "notification" or "popup" (these two open a new tab and make it active), "url" with url (newTab: true opens it in a new tab), or "back", "forward" or "reload" in the active tab. Returns {navigated, currentUrl}; the observation shows the new page with fresh refs.',
  input: NavigateInput,
  output: Schema.Struct({ navigated: Schema.Boolean, currentUrl: Schema.String }),
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
  requiresSession: true,
  observation: "default",
  deadlineMs: (input) => input.timeoutMs + DEADLINE_SLACK_MS,
  onDeadline: (input, timeoutMs) =>
    new NavigationFailed({ url: input.url ?? input.screen, detail: `did not finish within ${timeoutMs} ms` }),
  run: Effect.fn("tool.navigate")(function* (input) {
    const session = yield* Session
    const destination: Destination =
      input.screen === "url" ? { screen: "url", url: input.url ?? "", newTab: input.newTab } : { screen: input.screen }
    const { currentUrl } = yield* session.navigate(destination, { timeoutMs: input.timeoutMs })
    return { navigated: true, currentUrl }
  })
})
