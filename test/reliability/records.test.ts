// Every call that runs is recorded (issue 10): the fuzzed inputs of every tool, with observations that
// hold whatever a page or a producer can put there (odd unicode, lone surrogates, huge and non-finite
// numbers, __proto__ keys, and fields the schema refuses, such as a tab id the observer could not name),
// go through runTool's recording into the file store; each call that passed its input check and its gate
// leaves a step file that parses back, and a refused field is named on stderr by its path, never its value.
// Calls refused before they run (invalid input, a tool not available now) are not recorded, by design
// (docs/knowledge.md).
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Arbitrary, Effect, Either, FastCheck as fc, Layer, Logger, Option, Schema } from "effect"
import { makeFileStore } from "../../src/adapters/knowledge-files.js"
import { StepRecord } from "../../src/domain/knowledge.js"
import { Observation } from "../../src/domain/observation.js"
import { encodeStep } from "../../src/knowledge/record.js"
import { makeRegistry } from "../../src/runtime/registry.js"
import { decodeInput, runTool } from "../../src/runtime/runTool.js"
import { KnowledgeStore } from "../../src/services/KnowledgeStore.js"
import { Observer } from "../../src/services/Observer.js"
import { Session } from "../../src/services/Session.js"
import { makeRunSteps } from "../../src/tools/batch.js"
import { builtinTools } from "../../src/tools/registry.js"
import { tempDir } from "../support/browser.js"
import { argumentsFor, figure } from "./support.js"

const registry = makeRegistry([...builtinTools, makeRunSteps()], "mm")

/** Codes of the refusals that come before a call runs (its gate); such calls are not recorded. */
const GATE_CODES = new Set(["MM_TOOL_UNAVAILABLE", "MM_CAPABILITY_NOT_AVAILABLE", "MM_NO_ACTIVE_SESSION"])

const MARK = "VALUE-MUST-NOT-BE-LOGGED"

/** Observations as a page or a faulty producer could leave them: valid ones, and ones with a field the schema refuses. */
const observations: fc.Arbitrary<Observation> = fc
  .tuple(
    Arbitrary.make(Observation),
    fc.constantFrom("valid", "tabId", "nodeName", "number", "proto"),
    fc.oneof(fc.string({ unit: "binary" }), fc.constantFrom("\ud800", "\udfff\ud800", "\u0000", "\u202e", "a".repeat(100_000)))
  )
  .map(([observation, fault, text]) => {
    const nodes = observation.a11y?.nodes ?? []
    switch (fault) {
      case "tabId":
        return { ...observation, state: { ...observation.state, tabId: `t?${MARK}` } }
      case "nodeName":
        return { ...observation, a11y: { nodes: [...nodes, { ref: "e1", role: "button", name: { secret: MARK } as unknown as string }] } }
      case "number":
        return { ...observation, testIdsUnchanged: Number.NaN, a11y: { nodes: [...nodes, { ref: "e2", role: "heading", name: text, level: -0, depth: 1e308 * 10 }] } }
      case "proto":
        return { ...observation, state: { ...observation.state, title: text, app: JSON.parse(`{"__proto__": {"x": ${JSON.stringify(text)}}, "n": 1e400}`) } }
      default:
        return { ...observation, state: { ...observation.state, title: text } }
    }
  })

describe("step records", () => {
  it("encodeStep names a refused field by its path, keeps the step, and the text parses back", () => {
    const step: StepRecord = {
      schemaVersion: 1,
      timestamp: "2026-01-01T00:00:00.000Z",
      sessionId: "mm-s",
      tool: { name: "click", input: { n: 10n as unknown as number, s: "\ud800" } },
      timing: { durationMs: 3 },
      outcome: { ok: true },
      observation: { state: { isLoaded: true, currentUrl: "u", title: "", currentScreen: "unknown", tabId: `t?${MARK}` } },
      labels: []
    }
    const encoded = encodeStep(step)
    expect(encoded.dropped.map((entry) => entry.path)).toEqual(["observation.state.tabId"])
    expect(JSON.stringify(encoded.dropped)).not.toContain(MARK)
    const back = Schema.decodeUnknownSync(StepRecord)(JSON.parse(encoded.text))
    expect(back.tool.input).toEqual({ n: "10", s: "\ud800" })
    expect(back.observation?.state.tabId).toBeUndefined()
    expect(back.dropped).toEqual(["observation.state.tabId"])
    // An essential field that does not encode leaves the bare step.
    const bare = encodeStep({ ...step, timestamp: 5 as unknown as string })
    expect(Schema.decodeUnknownSync(StepRecord)(JSON.parse(bare.text)).tool.name).toBe("click")
  })

  it.live(
    "every fuzzed call of every tool that runs is recorded, and its file parses back",
    () =>
      Effect.gen(function* () {
        const dir = tempDir("bwm-records-")
        const logs: Array<string> = []
        const logger = Logger.replace(
          Logger.defaultLogger,
          Logger.make(({ message }) => logs.push((Array.isArray(message) ? message : [message]).map(String).join(" ")))
        )
        let observation: Observation | undefined
        let recorded = 0
        let flush: Effect.Effect<void> = Effect.void
        const store = Layer.scoped(
          KnowledgeStore,
          Effect.map(makeFileStore(dir, { persistIndex: false }), (made) => {
            flush = made.flush
            return { ...made.store, recordStep: (step: StepRecord) => Effect.tap(made.store.recordStep(step), () => Effect.sync(() => recorded++)) }
          })
        )
        const layer = Layer.mergeAll(
          Session.layerTest({
            current: Effect.succeed(Option.some({ sessionId: "mm-records-1", startedAt: "2026-01-01T00:00:00.000Z", flowTags: [], tags: [] }))
          }),
          Observer.layerTest({
            observe: () => Effect.sync(() => observation!),
            state: Effect.sync(() => observation!.state)
          }),
          store
        )
        const services = yield* Layer.build(layer)
        let calls = 0
        let expected = 0
        let failed = 0
        for (const tool of registry.tools) {
          yield* Effect.promise(() =>
            fc.assert(
              fc.asyncProperty(argumentsFor(tool), observations, async (args, seen) => {
                observation = seen
                const before = recorded
                const runs = Either.isRight(Effect.runSync(Effect.either(decodeInput(tool.input, args))))
                const response = await Effect.runPromise(
                  runTool(tool)(args, { deadlineMs: 2_000 }).pipe(Effect.provide(services), Effect.provide(logger)) as Effect.Effect<any>
                )
                calls++
                const code: string | undefined = response.envelope.error?.code
                if (!runs || (code !== undefined && GATE_CODES.has(code))) return true
                expected++
                // run_steps records its own steps as well as itself.
                if (recorded <= before) {
                  failed++
                  process.stderr.write(`not recorded: ${tool.name} ${response.envelope.error?.code}\n${logs.slice(-3).join("\n").slice(0, 2_000)}\n`)
                }
                return recorded > before
              }),
              { numRuns: 30, seed: 10 }
            )
          )
        }
        // Steps are written off the call's path: every one recorded is on disk once the queue is flushed.
        yield* flush
        const files = fs.readdirSync(path.join(dir, "llm-knowledge", "mm-records-1", "steps"))
        const unreadable = files.filter((file) => {
          const text = fs.readFileSync(path.join(dir, "llm-knowledge", "mm-records-1", "steps", file), "utf8")
          return Either.isLeft(Schema.decodeUnknownEither(StepRecord)(JSON.parse(text)))
        })
        figure("records: fuzzed calls", calls)
        figure("records: calls that ran (each must be recorded)", expected)
        figure("records: step files", files.length)
        expect(failed).toBe(0)
        expect(files.length).toBe(recorded)
        expect(unreadable).toEqual([])
        expect(expected).toBeGreaterThan(registry.tools.length)
        // Refused fields were named by their path, never by their value.
        const refusals = logs.filter((line) => line.includes("left out"))
        expect(refusals.some((line) => line.includes("observation.state.tabId"))).toBe(true)
        expect(logs.some((line) => line.includes(MARK))).toBe(false)
      }).pipe(Effect.scoped),
    300_000
  )
})
