// Prior knowledge keys a place by its origin as well as its path: two apps on two ports of 127.0.0.1 serve
// the same path (/login) with nothing else in common, and a session on one of them is told what worked on
// that app only. Before, the place was the path alone, and the other app's steps came as similar ones.
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { PriorKnowledge } from "../../src/domain/knowledge.js"
import { liveLayer, pageServer, testSettings } from "../support/browser.js"
import { ok } from "../support/calls.js"

/** An app's sign-in page: its own test ids, labels and button, so that only the place could make the two alike. */
const appPage = (app: "alpha" | "beta") => {
  const [field, button, label, heading] = app === "alpha" ? ["alpha-user", "alpha-go", "Member number", "Alpha portal"] : ["beta-mail", "beta-send", "Email address", "Beta shop"]
  return `<!doctype html><html lang="en"><head><title>${heading}</title></head><body>
<h1>${heading}</h1>
<label for="f">${label}</label><input id="f" data-testid="${field}">
<button data-testid="${button}" onclick="document.querySelector('h1').textContent = 'Done'">${button === "alpha-go" ? "Continue" : "Send link"}</button>
</body></html>`
}

/** Everything priorKnowledge offers to redo, as text. */
const offered = (prior: PriorKnowledge | undefined) => JSON.stringify([prior?.suggestedNextActions ?? [], prior?.similarSteps ?? [], prior?.relatedSessions ?? []])

layer(liveLayer(testSettings()), { timeout: 120_000, excludeTestServices: true })("prior knowledge by origin", (it) => {
  describe("two apps with the same path on two ports", () => {
    it.scoped("each is told what worked on itself, never on the other", () =>
      Effect.gen(function* () {
        const alpha = yield* pageServer({ "/login": appPage("alpha") })
        const beta = yield* pageServer({ "/login": appPage("beta") })
        expect(new URL(alpha.url).port).not.toBe(new URL(beta.url).port)

        const session = (url: string, field: string, button: string, goal: string) =>
          Effect.gen(function* () {
            yield* ok("mm_launch", { goal, force: true })
            yield* ok("mm_navigate", { screen: "url", url })
            yield* ok("mm_type", { testId: field, text: "someone" })
            yield* ok("mm_click", { testId: button })
            yield* ok("mm_cleanup")
          })
        yield* session(`${alpha.url}/login`, "alpha-user", "alpha-go", "sign in to alpha")
        yield* session(`${beta.url}/login`, "beta-mail", "beta-send", "sign in to beta")

        const priorOn = (url: string) =>
          Effect.gen(function* () {
            yield* ok("mm_launch", { goal: "sign in again", force: true })
            yield* ok("mm_navigate", { screen: "url", url })
            const described = yield* ok("mm_describe_screen")
            yield* ok("mm_cleanup")
            return described.result.priorKnowledge as PriorKnowledge | undefined
          })
        const onAlpha = offered(yield* priorOn(`${alpha.url}/login`))
        expect(onAlpha).toContain("alpha-user")
        expect(onAlpha).not.toContain("beta-")
        const onBeta = offered(yield* priorOn(`${beta.url}/login`))
        expect(onBeta).toContain("beta-mail")
        expect(onBeta).not.toContain("alpha-")
      })
    )
  })
})
