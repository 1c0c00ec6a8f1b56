// Calls by tool name through runTool, as the server makes them, for tests that drive a whole session:
// `call` answers the envelope, `ok` also expects no error (naming the call when there is one).
import { expect } from "@effect/vitest"
import { Effect, Layer } from "effect"
import type { Envelope } from "../../src/domain/envelope.js"
import { runTool } from "../../src/runtime/runTool.js"
import type { AnyToolDefinition } from "../../src/runtime/tool.js"
import { ToolView } from "../../src/runtime/visibility.js"
import { defaultSettings, type Settings } from "../../src/domain/config.js"
import { accessibilitySnapshot } from "../../src/tools/discovery.js"
import { servedRegistry } from "../../src/tools/registry.js"

/** `call` and `ok` over the registry `settings` serve (opt-in groups included when their caps are on). */
export const callsWith = (settings: Settings) => {
  const registry = servedRegistry(settings)
  const call = (name: string, args: Record<string, unknown> = {}) => {
    const tool: AnyToolDefinition | undefined = registry.lookup(name)
    if (tool === undefined) throw new Error(`no tool ${name}`)
    return Effect.map(runTool(tool)(args), (response) => response.envelope as Envelope<any>)
  }
  const ok = (name: string, args: Record<string, unknown> = {}) =>
    Effect.tap(call(name, args), (envelope) =>
      Effect.sync(() => expect(envelope.error, `${name} ${JSON.stringify(args)}: ${JSON.stringify(envelope.error)}`).toBeUndefined())
    )
  return { registry, call, ok }
}

/** The tools `settings` serve as this client's view, as a layer: runTool gates each call by it, as the server does. */
export const toolViewLayer = (settings: Settings) => Layer.succeed(ToolView, ToolView.make(servedRegistry(settings), { caps: settings.caps }))

/** A call by name through the ToolView the test provides (toolViewLayer): its envelope. */
export const viewCall = (name: string, args: Record<string, unknown> = {}) =>
  Effect.gen(function* () {
    const view = yield* ToolView
    const tool = view.registry.lookup(name)
    if (tool === undefined) throw new Error(`no tool ${name}`)
    return (yield* runTool(tool)(args)).envelope as Envelope<any>
  })

/** Every built-in tool and mm_run_steps, by name (the registry test/support/browser.ts's liveLayer provides). */
export const { registry, call, ok } = callsWith(defaultSettings)

/** The ref of the first accessibility-snapshot line with this role and name (expected there). */
export const refOf = (role: string, name: string) =>
  Effect.gen(function* () {
    const answer = (yield* runTool(accessibilitySnapshot)({}, { policy: "none" })).envelope as Envelope<any>
    const snapshot = ((answer as any).snapshot ?? JSON.stringify(answer)) as string
    const line = snapshot.split("\n").find((candidate) => candidate.includes(`${role} "${name}"`))
    expect(line, `${role} "${name}" in\n${snapshot}`).toBeDefined()
    return line!.match(/\[(e\d+)\]/)![1]!
  })
