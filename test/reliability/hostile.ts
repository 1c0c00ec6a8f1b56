// Hostile input (issue 10), shared by inputs.test.ts and inputs-fuzz.test.ts (two files so the isolated
// group runs them on its two workers at once): every tool fuzzed from its own schema, and a megabyte in
// every string field. The fuzzing uses fast-check through effect's own `Arbitrary` (inputs derived from
// each tool's Schema) and `FastCheck` re-export: no dependency beyond effect.
import { expect } from "@effect/vitest"
import { Context, Effect, FastCheck as fc, Layer } from "effect"
import type { Envelope } from "../../src/domain/envelope.js"
import { inputJsonSchema } from "../../src/mcp/json-schema.js"
import { makeRegistry } from "../../src/runtime/registry.js"
import type { AnyToolDefinition } from "../../src/runtime/tool.js"
import { makeRunSteps } from "../../src/tools/batch.js"
import { getState } from "../../src/tools/discovery.js"
import { builtinTools } from "../../src/tools/registry.js"
import { html, pageServer } from "../support/browser.js"
import { argumentsFor, call, codeOf, figure, timed } from "./support.js"

const registry = makeRegistry([...builtinTools, makeRunSteps()], "mm")
const tools = registry.tools

export const MEGABYTE = "A".repeat(1_048_576)

/** Paths of the string fields of a tool's input, from the JSON Schema clients see (objects and arrays entered). */
const stringPaths = (tool: AnyToolDefinition): ReadonlyArray<ReadonlyArray<string | number>> => {
  const found: Array<ReadonlyArray<string | number>> = []
  const walk = (schema: any, path: ReadonlyArray<string | number>, depth: number) => {
    if (schema === null || typeof schema !== "object" || depth > 4) return
    const types = Array.isArray(schema.type) ? schema.type : [schema.type]
    if (types.includes("string") && path.length > 0) found.push(path)
    for (const [key, value] of Object.entries(schema.properties ?? {})) walk(value, [...path, key], depth + 1)
    if (schema.items !== undefined) walk(schema.items, [...path, 0], depth + 1)
    for (const member of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) walk(member, path, depth + 1)
  }
  walk(inputJsonSchema(tool.input), [], 0)
  // Fields the list leaves out, as a model could still send them.
  if (found.some((path) => path[0] === "testId") && !found.some((path) => path[0] === "within")) {
    found.push(["within", "selector"], ["within", "testId"])
  }
  return found
}

/** Arguments with the megabyte at `path` (the rest of the path built as objects and arrays). */
const withValueAt = (path: ReadonlyArray<string | number>, value: unknown): Record<string, unknown> => {
  const root: Record<string, unknown> = {}
  let node: any = root
  path.forEach((part, index) => {
    if (index === path.length - 1) node[part] = value
    else node = node[part] = typeof path[index + 1] === "number" ? [] : {}
  })
  return root
}

export const size = (envelope: Envelope<any>) => JSON.stringify(envelope).length

/** The envelope's shape: ok with a result, or an MM_* code and a message. */
export const wellFormed = (envelope: Envelope<any>) =>
  typeof envelope.ok === "boolean" &&
  (envelope.ok || (/^MM_[A-Z_]+$/.test(envelope.error?.code ?? "") && typeof envelope.error?.message === "string"))

export class Pages extends Context.Tag("test/Pages")<Pages, { readonly url: (path: string) => string }>() {}

export const PagesLive = Layer.scoped(
  Pages,
  Effect.map(
    pageServer({
      "/form": html(
        "Form",
        `<button data-testid="go" onclick="this.textContent = 'Went'">Go</button><input data-testid="field" aria-label="Field">
         <button data-testid="long" onclick="history.replaceState(null, '', '#' + 'A'.repeat(1e6))">Long hash</button>`
      )
    }),
    (server) => ({ url: (p: string) => `${server.url}${p}` })
  )
)

/** A megabyte in each string field of each tool: MM_INVALID_INPUT (or the tool's gate) quickly, short, while get_state keeps answering. */
export const megabyteEverywhere = (label: string) =>
  Effect.gen(function* () {
    let slowest = 0
    let largest = 0
    let slowestOther = 0
    let fields = 0
    for (const tool of tools) {
      for (const path of stringPaths(tool)) {
        fields++
        const [answered, other] = yield* Effect.all(
          [timed(tool, withValueAt(path, MEGABYTE), { deadlineMs: 5_000 }), timed(getState)],
          { concurrency: "unbounded" }
        )
        const where = `${tool.name} ${path.join(".")}`
        expect(wellFormed(answered.envelope), where).toBe(true)
        expect(answered.envelope.ok, where).toBe(false)
        if (answered.envelope.error?.code === "MM_INVALID_INPUT") {
          expect(String(answered.envelope.error.details?.field), where).toContain(String(path[0]))
        }
        expect(size(answered.envelope), where).toBeLessThan(4_000)
        slowest = Math.max(slowest, answered.ms)
        largest = Math.max(largest, size(answered.envelope))
        slowestOther = Math.max(slowestOther, other.ms)
      }
    }
    figure(`1 MB in each of ${fields} string fields (${label}): slowest answer`, `${slowest} ms`)
    figure(`1 MB in each string field (${label}): largest answer`, `${largest} bytes`)
    figure(`1 MB in each string field (${label}): slowest concurrent get_state`, `${slowestOther} ms`)
    expect(slowest).toBeLessThan(1_000)
    expect(slowestOther).toBeLessThan(3_000)
  })

/** Every tool fuzzed: each answer is a well-formed envelope within the deadline and of bounded size. */
export const fuzzEveryTool = (label: string, skip: ReadonlySet<string>, perToolMs: number) =>
  Effect.gen(function* () {
    let runs = 0
    let slowest = 0
    let largest = 0
    const codes = new Set<string>()
    for (const tool of tools) {
      if (skip.has(tool.name)) continue
      yield* Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(argumentsFor(tool), async (args) => {
            const started = Date.now()
            const envelope = await Effect.runPromise(call(tool, args as Record<string, unknown>, { deadlineMs: 2_000 }).pipe(Effect.provide(services)))
            const ms = Date.now() - started
            runs++
            slowest = Math.max(slowest, ms)
            largest = Math.max(largest, size(envelope))
            codes.add(codeOf(envelope) ?? "?")
            // The deadline is 2 s; the margin is for a machine under load (the figure is printed).
            return wellFormed(envelope) && ms < 2_000 + 3_000
          }),
          { numRuns: 40, interruptAfterTimeLimit: perToolMs, seed: 10 }
        )
      )
    }
    figure(`fuzz (${label}): runs`, runs)
    figure(`fuzz (${label}): slowest answer`, `${slowest} ms`)
    figure(`fuzz (${label}): largest answer`, `${largest} bytes`)
    figure(`fuzz (${label}): codes seen`, [...codes].sort().join(" "))
    expect(runs).toBeGreaterThan(tools.length - skip.size)
  })

// The fuzzed calls run on the layer's services, captured by each test as it starts (none depends on another running first).
let services = Context.empty() as unknown as Context.Context<any>
export const captureServices = Effect.map(Effect.context<never>(), (context) => {
  services = context as unknown as Context.Context<any>
})

