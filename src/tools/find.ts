// Searching the active page: the nodes that match a text, a role and/or a name, with just enough
// structure around them to act (their ancestors and children; siblings left out are not written), refs as in snapshots.
import { Effect, Schema } from "effect"
import { renderFind } from "../domain/snapshot-text.js"
import { defineTool, Unlisted } from "../runtime/tool.js"
import { Observer } from "../services/Observer.js"

const Needle = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))

const FindInput = Schema.Struct({
  text: Schema.optional(Needle).annotations({
    description: "Shown text or name, a part, any case."
  }),
  role: Schema.optional(Schema.String.pipe(Schema.pattern(/^[a-z]+$/), Schema.maxLength(40))).annotations({
    description: 'ARIA role, e.g. "button".'
  }),
  name: Schema.optional(Needle).annotations({ description: "Accessible name, a part, any case." }),
  limit: Schema.optionalWith(Schema.Number.pipe(Schema.int(), Schema.between(1, 50)), { default: () => 10 }).annotations({
    description: "Default 10."
  })
}).pipe(
  Schema.filter((input) =>
    input.text !== undefined || input.role !== undefined || input.name !== undefined
      ? true
      : { path: ["text"], message: "give at least one of text, role or name" }
  )
)

export const find = defineTool({
  name: "find",
  title: "Find on the page",
  description:
    "Search the active tab by text, role and/or name: matches (▶) with their ancestors and children, as text.",
  input: FindInput,
  output: Schema.Struct({
    // Sent as the text block after the JSON (pageText), never inside it.
    matches: Schema.optional(Schema.String).annotations({ description: "The matches in their context, one node per line.", [Unlisted]: true }),
    found: Schema.Number.annotations({ description: "How many nodes matched in all (more than shown when over the limit)." })
  }),
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: true },
  concurrencySafe: true,
  group: "page",
  requiresSession: true,
  whilePaused: "blocked",
  stepKinds: ["discovery"],
  observation: "none",
  pageText: ({ matches, ...rest }) => ({ result: rest, text: matches ?? "" }),
  // Every match shown, each marked ▶: the count says nothing more.
  saidByText: (input, result) => result.found > 0 && result.found <= input.limit,
  run: Effect.fn("tool.find")(function* (input) {
    const observer = yield* Observer
    const result = yield* observer.find({ text: input.text, role: input.role, name: input.name, limit: input.limit })
    return { matches: renderFind(result.lines), found: result.total }
  })
})
