// mm_knowledge (one tool for every question to the step memory) and mm_replay's choices before anything
// runs, with mock layers: which fields answer what, conflicts named by field, the flow a tag picks.
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import type { Envelope } from "../../src/domain/envelope.js"
import { runTool } from "../../src/runtime/runTool.js"
import type { AnyToolDefinition } from "../../src/runtime/tool.js"
import { KnowledgeStore } from "../../src/services/KnowledgeStore.js"
import { Observer } from "../../src/services/Observer.js"
import { Session } from "../../src/services/Session.js"
import { knowledge } from "../../src/tools/knowledge.js"
import { replay } from "../../src/tools/replay.js"
import { session, step } from "./fixtures.js"
import { defaultSettings } from "../../src/domain/config.js"
import * as BuiltinTools from "../../src/tools/registry.js"

const running = { sessionId: "now", startedAt: "2026-11-22T11:00:00.000Z", flowTags: [], tags: [] }

const seeded = Effect.gen(function* () {
  const store = yield* KnowledgeStore
  yield* store.startSession(session("login-ok", { goal: "sign in", flowTags: ["login"] }))
  yield* store.recordStep(step({ sessionId: "login-ok", tool: "navigate", input: { screen: "url", url: "http://127.0.0.1:5000/login" } }))
  yield* store.recordStep(
    step({ sessionId: "login-ok", tool: "type", target: { testId: "password" }, input: { text: "[REDACTED]" }, textRedacted: true, textLength: 13 })
  )
  yield* store.recordStep(step({ sessionId: "login-ok", tool: "click", target: { testId: "login-submit" }, input: { timeoutMs: 15000 } }))
  // Newer sessions with the tag: one whose flow failed, one that acted on a bare ref.
  yield* store.startSession(session("login-failed", { flowTags: ["login"], createdAt: "2026-11-22T11:30:00.000Z" }))
  yield* store.recordStep(step({ sessionId: "login-failed", tool: "click", target: { testId: "login-submit" }, ok: false, at: "2026-11-22T11:31:00.000Z" }))
  yield* store.startSession(session("login-ref", { flowTags: ["login"], createdAt: "2026-11-22T11:40:00.000Z" }))
  yield* store.recordStep(step({ sessionId: "login-ref", tool: "click", target: { a11yRef: "e4" }, at: "2026-11-22T11:41:00.000Z" }))
  yield* store.startSession(session("now"))
  yield* store.recordStep(step({ sessionId: "now", tool: "click", target: { testId: "menu" }, at: "2026-11-22T11:50:00.000Z" }))
})

const world = (withSession: boolean) =>
  Layer.mergeAll(
    Session.layerTest({ current: Effect.succeed(withSession ? Option.some(running) : Option.none()) }),
    Observer.layerTest({ state: Effect.succeed({ isLoaded: true, currentUrl: "http://127.0.0.1:5000/", title: "t", currentScreen: "unknown" }) }),
    KnowledgeStore.layerMemory,
    BuiltinTools.layer(defaultSettings)
  )

const call = (tool: AnyToolDefinition, args: Record<string, unknown>) =>
  Effect.zipRight(seeded, Effect.map(runTool(tool)(args), (response) => response.envelope as Envelope<any>))

describe("mm_knowledge", () => {
  it.effect("no fields: the running session's latest steps; without a session, every session's", () =>
    Effect.gen(function* () {
      const withSession = yield* Effect.provide(call(knowledge, {}), world(true))
      expect(withSession.result.steps.map((s: any) => s.sessionId)).toEqual(["now"])
      const without = yield* Effect.provide(call(knowledge, { limit: 2 }), world(false))
      expect(without.result.steps).toHaveLength(2)
    }))

  it.effect("query searches every session by default; session narrows it", () =>
    Effect.gen(function* () {
      const all = yield* Effect.provide(call(knowledge, { query: "click" }), world(true))
      expect(all.result.words).toContain("click")
      expect(new Set(all.result.matches.map((s: any) => s.sessionId))).toEqual(new Set(["login-ok", "login-failed", "login-ref", "now"]))
      const one = yield* Effect.provide(call(knowledge, { query: "click", session: "login-ok" }), world(true))
      expect(one.result.matches.map((s: any) => s.sessionId)).toEqual(["login-ok"])
    }))

  it.effect("sessions: true lists sessions, filtered; export answers each format", () =>
    Effect.gen(function* () {
      const sessions = yield* Effect.provide(call(knowledge, { sessions: true, filters: { flowTag: "login" } }), world(false))
      expect(sessions.result.sessions.map((s: any) => s.sessionId).sort()).toEqual(["login-failed", "login-ok", "login-ref"])
      // No empty fields: a session without tags has no "tags": [].
      const untagged = yield* Effect.provide(call(knowledge, { sessions: true }), world(false))
      const now = untagged.result.sessions.find((s: any) => s.sessionId === "now")
      expect(now).toBeDefined()
      expect("tags" in now || "flowTags" in now).toBe(false)
      expect(sessions.result.sessions.find((s: any) => s.sessionId === "login-ok").flowTags).toEqual(["login"])
      const batch = yield* Effect.provide(call(knowledge, { export: "batch", session: "login-ok" }), world(false))
      expect(JSON.parse(batch.result.content)).toMatchObject({ stopOnError: true, includeObservations: "failures" })
      expect(batch.result.placeholders).toEqual([{ name: "password", target: "testId:password" }])
      const recipe = yield* Effect.provide(call(knowledge, { export: "recipe", session: "login-ok" }), world(false))
      expect(recipe.result).toMatchObject({ format: "recipe", sessionId: "login-ok", goal: "sign in", stepCount: 3, failed: 0 })
      const current = yield* Effect.provide(call(knowledge, { export: "playwright" }), world(true))
      expect(current.result.content).toContain('await page.getByTestId("menu").click()')
      // A param types its recorded text when run as it is (mm_run_steps would type "{{item}}"); a redacted one stays to fill.
      const withParam = Effect.gen(function* () {
        yield* seeded
        const store = yield* KnowledgeStore
        yield* store.startSession(session("todo", { goal: "add a todo" }))
        yield* store.recordStep(step({ sessionId: "todo", tool: "type", target: { testId: "new-todo" }, input: { text: "Buy milk", param: "item", submit: true } }))
        yield* store.recordStep(step({ sessionId: "todo", tool: "type", target: { testId: "password" }, input: { text: "[REDACTED]" }, textRedacted: true, textLength: 13 }))
        return (yield* runTool(knowledge)({ export: "batch", session: "todo" })).envelope
      })
      const todo = (yield* Effect.provide(withParam, world(false))) as any
      const typed = JSON.parse(todo.result.content).steps.filter((s: any) => s.tool === "mm_type").map((s: any) => s.args)
      expect(typed[0]).toMatchObject({ text: "Buy milk", param: "item", testId: "new-todo" })
      expect(typed[1]).toMatchObject({ text: "{{password}}", testId: "password" })
      expect(todo.result.placeholders).toEqual([{ name: "item", target: "testId:new-todo", default: "Buy milk" }, { name: "password", target: "testId:password" }])
      const none = yield* Effect.provide(call(knowledge, { export: "batch" }), world(false))
      expect(none.error?.code).toBe("MM_NO_ACTIVE_SESSION")
    }))

  it.effect("fields that do not go together are MM_INVALID_INPUT naming one of them", () =>
    Effect.gen(function* () {
      const cases: ReadonlyArray<[Record<string, unknown>, string]> = [
        [{ export: "batch", query: "x" }, "query"],
        [{ export: "batch", sessions: true }, "sessions"],
        [{ export: "recipe", session: "all" }, "session"],
        [{ export: "report", filters: { tag: "x" } }, "filters"],
        [{ sessions: true, query: "x" }, "query"],
        [{ sessions: true, session: "now" }, "session"],
        [{ export: "csv" }, "export"]
      ]
      for (const [args, field] of cases) {
        const answer = yield* Effect.provide(call(knowledge, args), world(true))
        expect(answer.error, JSON.stringify(args)).toMatchObject({ code: "MM_INVALID_INPUT", details: { field } })
      }
    }))
})

describe("mm_replay before it runs anything", () => {
  it.effect("a flow tag passes over sessions whose flow failed or has a step without a durable target", () =>
    Effect.gen(function* () {
      // login-ok is the only candidate; it needs its password, which says it was chosen.
      const answer = yield* Effect.provide(call(replay, { flowTag: "login" }), world(false))
      expect(answer.error).toMatchObject({ code: "MM_INVALID_INPUT", details: { field: "params.password" } })
      // It names the field, and tells nothing about the secret (the record below kept its length: an older one).
      expect(answer.error?.message).toContain("the recipe needs it (testId:password)")
      expect(answer.error?.message).not.toMatch(/13|characters/)
    }))

  it.effect("no usable session, a param the recipe lacks, or both ids: errors that say so", () =>
    Effect.gen(function* () {
      const unknown = yield* Effect.provide(call(replay, { flowTag: "checkout" }), world(false))
      expect(unknown.error?.code).toBe("MM_KNOWLEDGE_ERROR")
      expect(unknown.error?.message).toContain('no recorded session has the flow tag "checkout"')
      const refOnly = yield* Effect.provide(call(replay, { sessionId: "login-ref" }), world(false))
      expect(refOnly.error?.message).toContain("session login-ref has no step to replay; left out: click a11yRef:e4: only a ref was recorded")
      const extra = yield* Effect.provide(call(replay, { sessionId: "login-ok", params: { password: "p", pin: "1" } }), world(false))
      expect(extra.error).toMatchObject({ code: "MM_INVALID_INPUT", details: { field: "params.pin" } })
      const both = yield* Effect.provide(call(replay, { sessionId: "login-ok", flowTag: "login" }), world(false))
      expect(both.error).toMatchObject({ code: "MM_INVALID_INPUT", details: { field: "sessionId" } })
    }))
})
