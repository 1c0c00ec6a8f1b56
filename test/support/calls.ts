// Calls by tool name through runTool, as the server makes them, for tests that drive a whole session:
// `call` answers the envelope, `ok` also expects no error (naming the call when there is one).
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import type { Envelope } from "../../src/domain/envelope.js"
import { runTool } from "../../src/runtime/runTool.js"
import type { AnyToolDefinition } from "../../src/runtime/tool.js"
import { defaultSettings } from "../../src/domain/config.js"
import { servedRegistry } from "../../src/tools/registry.js"

/** Every built-in tool and mm_run_steps, by name (the registry test/support/browser.ts's liveLayer provides). */
export const registry = servedRegistry(defaultSettings)

export const call = (name: string, args: Record<string, unknown> = {}) => {
  const tool: AnyToolDefinition | undefined = registry.lookup(name)
  if (tool === undefined) throw new Error(`no tool ${name}`)
  return Effect.map(runTool(tool)(args), (response) => response.envelope as Envelope<any>)
}

export const ok = (name: string, args: Record<string, unknown> = {}) =>
  Effect.tap(call(name, args), (envelope) => Effect.sync(() => expect(envelope.error, `${name} ${JSON.stringify(args)}`).toBeUndefined()))
