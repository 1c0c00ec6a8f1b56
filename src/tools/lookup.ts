// The definitions of recorded tools, for recipes and replays: the served ones, or the built-in ones when
// no server serves this call (imported when needed: the registry lists the tools that use this, so a
// static import would be a cycle).
import { Effect, Option } from "effect"
import type { ToolLookup } from "../knowledge/recipe.js"
import { makeRegistry, type ToolRegistry } from "../runtime/registry.js"
import { ToolView } from "../runtime/visibility.js"

/** The served registry, else one over the built-in tools with the default prefix. */
export const servedRegistry: Effect.Effect<ToolRegistry> = Effect.flatMap(
  Effect.serviceOption(ToolView),
  Option.match({
    onSome: (view) => Effect.succeed(view.registry),
    onNone: () => Effect.map(Effect.promise(() => import("./registry.js")), (module) => makeRegistry(module.builtinTools, "mm"))
  })
)

export const toolLookup: Effect.Effect<ToolLookup> = Effect.map(servedRegistry, (registry) => registry.lookup)
