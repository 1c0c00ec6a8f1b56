// The client's own say over its tool list: hide tools it does not need, show them again. Rules are
// names or globs, kept per client; the MCP server sends tools/list_changed after a change.
import { Effect, Ref, Schema } from "effect"
import { requireCapability } from "../capabilities/require.js"
import { InvalidInput } from "../domain/errors.js"
import { defineTool } from "../runtime/tool.js"
import {
  hiddenByRules,
  MAX_RULES,
  META_GROUP,
  patternMatches,
  ToolView,
  type ToolViewService,
  type VisibilityRule
} from "../runtime/visibility.js"

// One pattern states the length too: fewer bytes in tools/list than minLength, maxLength and pattern.
const Patterns = Schema.Array(
  Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9_.*?-]{1,100}$/, { message: () => "a tool name or glob: letters, digits, _ . - * ?, 1 to 100 characters" }))
)
  .pipe(Schema.minItems(1), Schema.maxItems(50))
  .annotations({ description: 'Names or globs, e.g. ["get_*"].' })

const view = requireCapability(ToolView, "tool list", "hide_tools and show_tools work on a served tool list (makeMcpServer).")

/** Every pattern must name at least one tool of the server: a typo would otherwise hide nothing, silently. */
const checkPatterns = (served: ToolViewService, patterns: ReadonlyArray<string>) =>
  Effect.forEach(patterns, (pattern, index) =>
    served.registry.tools.some((tool) => patternMatches(pattern, tool, served.registry))
      ? Effect.void
      : Effect.fail(new InvalidInput({ field: `tools.${index}`, problem: `${pattern} matches no tool` }))
  )

/** Adds rules; a rule for the same pattern replaces the earlier one. */
const addRules = (served: ToolViewService, patterns: ReadonlyArray<string>, hide: boolean) =>
  Effect.gen(function* () {
    yield* checkPatterns(served, patterns)
    const rules = yield* Ref.get(served.rules)
    const replaced = new Set(patterns.map((pattern) => pattern.toLowerCase()))
    const next: ReadonlyArray<VisibilityRule> = [
      ...rules.filter((rule) => !replaced.has(rule.pattern.toLowerCase())),
      ...patterns.map((pattern) => ({ pattern, hide }))
    ]
    if (next.length > MAX_RULES) {
      return yield* new InvalidInput({ field: "tools", problem: `more than ${MAX_RULES} hide/show rules; call show_tools {"all": true} to start over` })
    }
    yield* Ref.set(served.rules, next)
  })

/** The served names of the listable tools this client's rules hide now (old names, never listed, are left out). */
const hiddenNow = (served: ToolViewService) =>
  Effect.map(Ref.get(served.rules), (rules) =>
    served.registry.tools
      .filter((tool) => tool.unlisted !== true && hiddenByRules(rules, tool, served.registry))
      .map(served.registry.servedName)
  )

const Output = Schema.Struct({
  hidden: Schema.Array(Schema.String).annotations({ description: "Tools your rules hide now." })
})

const metaTool = {
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  group: META_GROUP,
  requiresSession: false,
  replay: { mode: "never" },
  observation: "none"
} as const

export const hideTools = defineTool({
  name: "hide_tools",
  role: "hide-tools",
  title: "Hide tools",
  description: "Hide tools you will not need; mm_show_tools undoes it.",
  input: Schema.Struct({ tools: Patterns }),
  output: Output,
  ...metaTool,
  run: Effect.fn("tool.hide_tools")(function* (input) {
    const served = yield* view
    yield* addRules(served, input.tools, true)
    return { hidden: yield* hiddenNow(served) }
  })
})

export const showTools = defineTool({
  name: "show_tools",
  role: "show-tools",
  title: "Show tools",
  description: "Show hidden tools again. Returns {hidden}.",
  input: Schema.Struct({
    tools: Schema.optional(Patterns),
    all: Schema.optional(Schema.Literal(true)).annotations({ description: "All of them." })
  }).pipe(
    Schema.filter((input) =>
      (input.tools === undefined) !== (input.all === undefined) ? true : { path: ["tools"], message: "give tools or all: true" }
    )
  ),
  output: Output,
  ...metaTool,
  listedWhen: (state) => state.hiddenByClient > 0,
  run: Effect.fn("tool.show_tools")(function* (input) {
    const served = yield* view
    if (input.tools === undefined) yield* Ref.set(served.rules, [])
    else yield* addRules(served, input.tools, false)
    return { hidden: yield* hiddenNow(served) }
  })
})
