// Sessions as values for library users (issue 20): `runTool(def)(input).pipe(withSession(handle))` needs no
// service, checked by the type checker (this file is in tsconfig), and two tools composed on two sessions of
// real Chromium each act on their own page, as docs/library.md shows.
import { expect, expectTypeOf, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option } from "effect"
import {
  Config,
  KnowledgeStore,
  PlaywrightLayer,
  runTool,
  Session,
  Tools,
  withSession,
  type SessionHandle,
  type ToolResponse
} from "../../src/index.js"
import { html, pageServer, testSettings } from "../support/browser.js"

const settings = testSettings()
const world = Layer.merge(Config.layer(settings), KnowledgeStore.layerMemory)

const pages = {
  "/a": html("A", `<p data-testid="who">page A</p><input data-testid="name">`),
  "/b": html("B", `<p data-testid="who">page B</p><input data-testid="name">`)
}

layer(world, { timeout: 120_000, excludeTestServices: true })("withSession", (it) => {
  it("a tool call on a session handle has no service requirement left", () => {
    const handle = {} as SessionHandle
    const call = runTool(Tools.getText)({ testId: "who" }).pipe(withSession(handle))
    expectTypeOf<Effect.Effect.Context<typeof call>>().toEqualTypeOf<never>()
    expectTypeOf<Effect.Effect.Error<typeof call>>().toEqualTypeOf<never>()
    expectTypeOf<Effect.Effect.Success<typeof call>>().toMatchTypeOf<ToolResponse<unknown>>()
    // describe_screen reads the served tools' rules when a registry is there; a library call needs none.
    const described = runTool(Tools.describeScreen)({}).pipe(withSession(handle))
    expectTypeOf<Effect.Effect.Context<typeof described>>().toEqualTypeOf<never>()
    // The tool program itself still requires the session's services: runTool supplies them.
    expectTypeOf<Effect.Effect.Context<ReturnType<typeof Tools.getText.run>>>().not.toEqualTypeOf<never>()
  })

  it.scoped("two tools composed on two sessions act each on its own page, in parallel", () =>
    Effect.gen(function* () {
      const server = yield* pageServer(pages)
      const [a, b] = yield* Effect.all([PlaywrightLayer.openSession, PlaywrightLayer.openSession])
      const visit = (handle: SessionHandle, path: string, name: string) =>
        Effect.gen(function* () {
          yield* runTool(Tools.launch)({})
          yield* runTool(Tools.navigate)({ screen: "url", url: server.url + path })
          yield* runTool(Tools.type)({ testId: "name", text: name })
          return (yield* runTool(Tools.getText)({ testId: "who" })).envelope
        }).pipe(withSession(handle))
      const [onA, onB] = yield* Effect.all([visit(a, "/a", "Ada"), visit(b, "/b", "Bob")], { concurrency: 2 })
      expect(onA.result).toEqual({ text: "page A" })
      expect(onB.result).toEqual({ text: "page B" })
      // Their refs come from one space: none of a's names anything in b.
      const refsOf = (handle: SessionHandle) =>
        Effect.map(runTool(Tools.describeScreen)({}).pipe(withSession(handle)), (response) =>
          [...JSON.stringify(response).matchAll(/\b(e\d+)\b/g)].map((match) => match[1]!)
        )
      const [refsA, refsB] = yield* Effect.all([refsOf(a), refsOf(b)], { concurrency: 2 })
      expect(refsA.length).toBeGreaterThan(0)
      expect(refsA.filter((ref) => refsB.includes(ref))).toEqual([])
      // Each session is its own browser context, with its own id.
      const ids = yield* Effect.all([a, b].map((handle) => Effect.map(Context.get(handle.context, Session).current, Option.map((info) => info.sessionId))))
      expect(Option.isSome(ids[0]!) && Option.isSome(ids[1]!) && ids[0].value !== ids[1].value).toBe(true)
    })
  )
})
