// Step memory against real Chromium: the redaction matrix (every target kind, within, batch, failures),
// the query tools, prior knowledge in describe_screen, and an exported batch replaying the flow.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { loginPage } from "../../demo/sample-app.js"
import type { Envelope } from "../../src/domain/envelope.js"
import { linesNamed } from "../page/parse.js"
import { html, liveLayer, pageServer, testSettings } from "../support/browser.js"
import { call, ok } from "../support/calls.js"

const pages = {
  "/login": loginPage,
  "/secrets": html(
    "Secrets",
    `<input type="password" data-testid="pw" aria-label="Wallet">
     <label for="seed">Seed phrase</label><input id="seed" data-testid="field-a">
     <input name="api_key" class="key-field" aria-label="Key">
     <input id="private-key" aria-label="Key two">
     <form data-testid="secret-form" aria-label="Form"><input class="plain" aria-label="Plain"></form>
     <input data-testid="harmless" aria-label="Harmless">`
  )
}

class Pages extends Context.Tag("test/KnowledgePages")<Pages, { readonly url: (path: string) => string }>() {}
const PagesLive = Layer.scoped(Pages, Effect.map(pageServer(pages), (server) => ({ url: (p: string) => `${server.url}${p}` })))

const settings = testSettings({ screenRules: [{ screen: "login", testId: "login-form" }] })


const allArtifacts = () =>
  fs
    .readdirSync(settings.artifactsDir, { recursive: true, encoding: "utf8" })
    .map((file) => path.join(settings.artifactsDir, file))
    .filter((file) => fs.statSync(file).isFile())
    .map((file) => fs.readFileSync(file, "utf8"))
    .join("\n")

const refOf = (envelope: Envelope<any>, role: string, name: string): string =>
  linesNamed(envelope.snapshot ?? "", role, name)[0]!.ref!

layer(Layer.merge(liveLayer(settings), PagesLive), { timeout: 120_000, excludeTestServices: true })("step memory in real Chromium", (it) => {
  describe("query tools", () => {
    it.effect("the current session without one answers MM_NO_ACTIVE_SESSION; all sessions work without one", () =>
      Effect.gen(function* () {
        expect((yield* call("mm_knowledge", { session: "current" })).error?.code).toBe("MM_NO_ACTIVE_SESSION")
        expect((yield* call("mm_knowledge", { query: "click", session: "current" })).error?.code).toBe("MM_NO_ACTIVE_SESSION")
        expect((yield* call("mm_knowledge", { export: "recipe" })).error?.code).toBe("MM_NO_ACTIVE_SESSION")
        expect((yield* ok("mm_knowledge")).result.steps).toEqual([])
        expect((yield* ok("mm_knowledge", { query: "click" })).result.matches).toEqual([])
        expect((yield* ok("mm_knowledge", { sessions: true })).result.sessions).toEqual([])
        // The older names still answer.
        expect((yield* call("mm_knowledge_last")).error?.code).toBe("MM_NO_ACTIVE_SESSION")
        expect((yield* ok("mm_knowledge_search", { query: "click" })).result.matches).toEqual([])
        expect((yield* ok("mm_knowledge_sessions")).result.sessions).toEqual([])
      }))
  })

  it.effect("secrets typed through every target kind, within, a batch and a failed call appear nowhere under the artifacts dir", () =>
    Effect.gen(function* () {
      const { url } = yield* Pages
      yield* ok("mm_launch", { goal: "redaction matrix" })
      yield* ok("mm_navigate", { screen: "url", url: url("/secrets") })
      const screen = yield* ok("mm_describe_screen")
      const secrets = {
        testId: "S3cret-testid-1111",
        ref: "S3cret-ref-2222",
        selector: "S3cret-selector-3333",
        selectorHint: "S3cret-selhint-4444",
        within: "S3cret-within-5555",
        batch: "S3cret-batch-6666",
        failed: "S3cret-failed-7777"
      }
      yield* ok("mm_type", { testId: "pw", text: secrets.testId })
      yield* ok("mm_type", { a11yRef: refOf(screen, "textbox", "Seed phrase"), text: secrets.ref })
      yield* ok("mm_type", { selector: "input.key-field", text: secrets.selector })
      yield* ok("mm_type", { selector: "#private-key", text: secrets.selectorHint })
      yield* ok("mm_type", { selector: ".plain", within: { testId: "secret-form" }, text: secrets.within })
      const batch = yield* ok("mm_run_steps", { steps: [{ tool: "mm_type", args: { testId: "pw", text: secrets.batch } }] })
      expect(batch.result.summary.succeeded).toBe(1)
      const failed = yield* call("mm_type", { testId: "missing", text: secrets.failed, timeoutMs: 1500 })
      expect(failed.error?.code).toBe("MM_TARGET_NOT_FOUND")
      expect(JSON.stringify(failed)).not.toContain(secrets.failed)
      yield* ok("mm_type", { testId: "harmless", text: "visible-text-ok" })

      // Steps are written off the call's path; a knowledge query writes what is queued first.
      const last = yield* ok("mm_knowledge", { limit: 50 })
      const everything = allArtifacts()
      for (const [kind, secret] of Object.entries(secrets)) expect(everything.includes(secret), kind).toBe(false)
      expect(everything).toContain("visible-text-ok")
      const types = last.result.steps.filter((step: any) => step.tool === "type")
      expect(types).toHaveLength(8)
      // The ref target was recorded with the role and name it pointed at.
      expect(types[1].target).toBe('role:textbox "Seed phrase"')
      yield* ok("mm_cleanup")
    }))

  it.effect("a recorded login flow is searchable, summarized into a recipe, exported, and the exported batch replays it", () =>
    Effect.gen(function* () {
      const { url } = yield* Pages
      const launched = yield* ok("mm_launch", { goal: "sign in as alice", flowTags: ["login"] })
      const sessionId = launched.result.sessionId as string
      yield* ok("mm_navigate", { screen: "url", url: url("/login") })
      const screen = yield* ok("mm_describe_screen")
      yield* ok("mm_type", { a11yRef: refOf(screen, "textbox", "Username"), text: "alice" })
      yield* ok("mm_type", { testId: "password", text: "correct horse" })
      yield* ok("mm_click", { a11yRef: refOf(screen, "button", "Sign in") })
      yield* ok("mm_wait_for", { testId: "welcome" })

      const found = yield* ok("mm_knowledge", { query: "signin button", session: "current" })
      expect(found.result.matches[0]).toMatchObject({ tool: "click", target: 'role:button "Sign in"', sessionId })
      const sessions = yield* ok("mm_knowledge", { sessions: true, filters: { flowTag: "login" } })
      expect(sessions.result.sessions.map((s: any) => s.sessionId)).toEqual([sessionId])

      const summary = yield* ok("mm_knowledge", { export: "recipe" })
      expect(summary.result).toMatchObject({ format: "recipe", sessionId, flowTags: ["login"] })
      expect(summary.result.recipe.placeholders).toEqual([{ name: "password", target: "testId:password" }])
      expect(JSON.stringify(summary.result.recipe.steps)).not.toContain("a11yRef")
      // The older name answers the same recipe.
      expect((yield* ok("mm_knowledge_summarize")).result.recipe).toEqual(summary.result.recipe)

      const playwright = yield* ok("mm_knowledge", { export: "playwright" })
      // The button read by its ref has a test id: the durable form prefers it.
      expect(playwright.result.content).toContain('page.getByTestId("login-submit").click()')
      const exported = yield* ok("mm_knowledge", { session: sessionId, export: "batch" })
      const batch = JSON.parse(exported.result.content.replace("{{password}}", "correct horse"))
      expect(batch.steps.map((step: any) => step.tool)).toEqual(["mm_navigate", "mm_type", "mm_type", "mm_click", "mm_wait_for", "mm_wait_for"])
      // The last one checks the page the flow ended on (the sign-in shows its welcome in place).
      expect(batch.steps.at(-1).args).toEqual({ url: `/^${url("/login").replace(/\./g, "\\.")}$/`, timeoutMs: 5000 })

      // A fresh session replays the export on the same page.
      yield* ok("mm_launch", { force: true, goal: "replay" })
      const replay = yield* ok("mm_run_steps", batch)
      expect(replay.result.summary).toMatchObject({ ok: true, succeeded: 6 })
      expect((yield* ok("mm_get_text", { testId: "welcome" })).result.text).toBe("Welcome, alice")

      // Back on the login screen, describe_screen brings what the first session learned.
      yield* ok("mm_navigate", { screen: "url", url: url("/login") })
      const again = yield* ok("mm_describe_screen")
      const prior = again.result.priorKnowledge
      expect(prior.relatedSessions.map((s: any) => s.sessionId)).toContain(sessionId)
      expect(prior.suggestedNextActions.map((a: any) => a.preferredTarget)).toContainEqual({ testId: "password" })
      expect(prior.suggestedNextActions.every((a: any) => a.confidence > 0 && a.confidence <= 1)).toBe(true)
      yield* ok("mm_cleanup")
    }))
})
