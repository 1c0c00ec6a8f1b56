// Moving the active tab: to a configured screen or to a URL.
import { Effect, Schema } from "effect"
import { NavigationFailed } from "../domain/errors.js"
import { defineTool, Evident, ListedAs, Unlisted } from "../runtime/tool.js"
import { Session, type Destination } from "../services/Session.js"
import { DEADLINE_SLACK_MS, timeoutField } from "./shared.js"

const Screen = Schema.Literal("home", "settings", "notification", "popup", "url", "back", "forward", "reload")

const NavigateInput = Schema.Struct({
  url: Schema.optional(Schema.String.pipe(Schema.minLength(1))).annotations({
    description: "URL, or a path."
  }),
  screen: Schema.optional(
    // "url" is accepted (upstream's form: screen "url" with url) but not listed: url alone says it.
    Screen.annotations({ [ListedAs]: { type: "string", enum: ["back", "forward", "reload", "home", "settings", "notification", "popup"] } })
  ).annotations({
    description: "Instead of url."
  }),
  newTab: Schema.optional(Schema.Boolean).annotations({
    description: "In a new tab.",
    [Evident]: true
  }),
  // 30 s suits nearly every navigation: accepted and recorded, not listed.
  timeoutMs: timeoutField(1_000, 120_000, 30_000).annotations({ [Unlisted]: true })
}).pipe(
  Schema.filter((input) =>
    input.url !== undefined
      ? input.screen === undefined || input.screen === "url"
        ? true
        : { path: ["screen"], message: `give url or screen, not both (screen "${input.screen}" loads its own page)` }
      : input.screen === undefined
        ? { path: ["url"], message: "give url, or screen (back, forward, reload, home, settings, notification, popup)" }
        : input.screen === "url"
          ? { path: ["url"], message: 'url is required when screen is "url"' }
          : true
  )
)

export const navigate = defineTool({
  name: "navigate",
  prior: {},
  title: "Navigate",
  description: "Load a URL in the active tab, or go back, forward, reload.",
  input: NavigateInput,
  output: Schema.Struct({ navigated: Schema.Boolean }),
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
  group: "page",
  requiresSession: true,
  stepKinds: ["navigation"],
  replay: {
    loadUrl: (url) => ({ screen: "url", url }),
    loadsUrl: (args) => args.screen === "url",
    note: (args, _target, step) =>
      `Go to ${step.observation?.state.currentUrl ?? String(args.url ?? args.screen ?? "the page")}`,
    playwright: (args, context) => {
      if (args.screen === "back") return ["await page.goBack()"]
      if (args.screen === "forward") return ["await page.goForward()"]
      if (args.screen === "reload") return ["await page.reload()"]
      // Where the navigation ended, as recorded, is what the test loads.
      const url = context.record.observation?.state.currentUrl ?? (typeof args.url === "string" ? args.url : undefined)
      return [url === undefined ? `// ${context.notes}: no URL was recorded` : `await page.goto(${JSON.stringify(url)})`]
    }
  },
  observation: "default",
  deadlineMs: (input) => input.timeoutMs + DEADLINE_SLACK_MS,
  onDeadline: (input, timeoutMs) =>
    new NavigationFailed({ url: input.url ?? input.screen ?? "", detail: `did not finish within ${timeoutMs} ms` }),
  run: Effect.fn("tool.navigate")(function* (input) {
    const session = yield* Session
    const destination: Destination =
      input.url !== undefined
        ? { screen: "url", url: input.url, newTab: input.newTab }
        : { screen: input.screen === undefined || input.screen === "url" ? "reload" : input.screen }
    yield* session.navigate(destination, { timeoutMs: input.timeoutMs })
    return { navigated: true }
  })
})
