// Moving the active tab: to a configured screen or to a URL.
import { Effect, Schema } from "effect"
import { NavigationFailed } from "../domain/errors.js"
import { defineTool } from "../runtime/tool.js"
import { Session, type Destination } from "../services/Session.js"
import { DEADLINE_SLACK_MS, timeoutField } from "./shared.js"

const NavigateInput = Schema.Struct({
  screen: Schema.Literal("home", "settings", "notification", "popup", "url", "back", "forward", "reload").annotations({
    description:
      "url, back, forward, reload, or a configured page."
  }),
  url: Schema.optional(Schema.String.pipe(Schema.minLength(1))).annotations({
    description: "Absolute URL."
  }),
  newTab: Schema.optional(Schema.Boolean).annotations({
    description: "In a new tab."
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
  description: "Load a page in the active tab. Returns {navigated, currentUrl}.",
  input: NavigateInput,
  output: Schema.Struct({ navigated: Schema.Boolean, currentUrl: Schema.String }),
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
  group: "page",
  requiresSession: true,
  stepKinds: ["navigation"],
  replay: {
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
    new NavigationFailed({ url: input.url ?? input.screen, detail: `did not finish within ${timeoutMs} ms` }),
  run: Effect.fn("tool.navigate")(function* (input) {
    const session = yield* Session
    const destination: Destination =
      input.screen === "url" ? { screen: "url", url: input.url ?? "", newTab: input.newTab } : { screen: input.screen }
    const { currentUrl } = yield* session.navigate(destination, { timeoutMs: input.timeoutMs })
    return { navigated: true, currentUrl }
  })
})
