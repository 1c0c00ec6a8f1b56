// A recipe moved to where its app is served now (mm_replay baseUrl): the recorded origin's URLs and the
// end check's regex move to the new origin; other origins, and origins that only share a prefix, stay.
import { describe, expect, it } from "@effect/vitest"
import type { Recipe } from "../../src/domain/knowledge.js"
import { baseOrigin, rebase, recordedOrigin } from "../../src/knowledge/rebase.js"

const recipe = (args: ReadonlyArray<Record<string, unknown>>): Recipe => ({
  placeholders: [],
  skipped: [],
  steps: args.map((step) => ({ tool: "mm_step", args: step, notes: "" }))
})

describe("rebase", () => {
  it("moves the first loaded URL's origin, in plain URLs and in the end check's regex, and nothing else", () => {
    const recorded = recipe([
      { testId: "skip-me" },
      { screen: "url", url: "http://127.0.0.1:3000/start?x=1" },
      { screen: "url", url: "http://127.0.0.1:30001/other-port-prefix" },
      { screen: "url", url: "http://auth.example.test/login" },
      { url: "/^http://127\\.0\\.0\\.1:3000/done$/" },
      { url: "/^http://127\\.0\\.0\\.1:3000/item/[^/?#]*$/" },
      { url: "/^http://127\\.0\\.0\\.1:30001/x$/" },
      { text: "see http://127.0.0.1:3000/ in the text" }
    ])
    expect(recordedOrigin(recorded)).toBe("http://127.0.0.1:3000")
    const { recipe: moved, from } = rebase(recorded, "http://localhost:4000")
    expect(from).toBe("http://127.0.0.1:3000")
    expect(moved.steps.map((step) => step.args)).toEqual([
      { testId: "skip-me" },
      { screen: "url", url: "http://localhost:4000/start?x=1" },
      { screen: "url", url: "http://127.0.0.1:30001/other-port-prefix" },
      { screen: "url", url: "http://auth.example.test/login" },
      { url: "/^http://localhost:4000/done$/" },
      { url: "/^http://localhost:4000/item/[^/?#]*$/" },
      { url: "/^http://127\\.0\\.0\\.1:30001/x$/" },
      { text: "see http://127.0.0.1:3000/ in the text" }
    ])
  })

  it("a recipe that loads no URL has no recorded origin and stays as it is", () => {
    const recorded = recipe([{ testId: "go" }])
    expect(rebase(recorded, "http://127.0.0.1:4000")).toEqual({ recipe: recorded, from: undefined })
  })

  it("a base URL is an http(s) origin: a path, a query or another scheme is refused saying the form", () => {
    expect(baseOrigin("http://127.0.0.1:4000/")).toEqual({ origin: "http://127.0.0.1:4000" })
    expect(baseOrigin("https://app.test")).toEqual({ origin: "https://app.test" })
    expect(baseOrigin("http://127.0.0.1:4000/app")).toEqual({ problem: expect.stringContaining("origin only") })
    expect(baseOrigin("127.0.0.1:4000")).toEqual({ problem: expect.stringContaining("absolute http(s) URL") })
    expect(baseOrigin("file:///tmp/x")).toEqual({ problem: expect.stringContaining("absolute http(s) URL") })
  })
})
