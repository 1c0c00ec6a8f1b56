// Looking at the page: test ids, accessibility nodes with refs, the whole screen, the session state.
import { Effect, Option, Schema } from "effect"
import { StateView } from "../domain/envelope.js"
import { ExtensionSummary, Tabs, TestIdItem } from "../domain/observation.js"
import { modalNote, renderNodes } from "../domain/snapshot-text.js"
import { PriorKnowledge } from "../domain/knowledge.js"
import { hasPriorKnowledge, priorKnowledge } from "../knowledge/prior.js"
import { defineTool, Evident, Unlisted } from "../runtime/tool.js"
import { catalogOf, hiddenSessions, KnowledgeStore } from "../services/KnowledgeStore.js"
import { Observer, type ObserverService } from "../services/Observer.js"
import { Session } from "../services/Session.js"
import { imageAttachment, ScreenshotResult } from "./screenshot.js"
import { NoInput } from "./shared.js"
import { ToolRegistry } from "../runtime/registry.js"

const readOnly = { readOnly: true, destructive: false, idempotent: true, openWorld: true } as const

/** Definition fields of the tools that look at the active tab. */
const looking = {
  annotations: readOnly,
  concurrencySafe: true,
  group: "page",
  requiresSession: true,
  whilePaused: "blocked",
  stepKinds: ["discovery"]
} as const

export const listTestIds = defineTool({
  name: "list_testids",
  title: "List test ids",
  description: "Visible elements with a test id, with tag and text. Returns {items} (none on a page without test ids).",
  // describe_screen answers the test ids with the page: an old name, callable, not listed.
  unlisted: true,
  input: Schema.Struct({
    limit: Schema.optionalWith(Schema.Number.pipe(Schema.int(), Schema.between(1, 500)), { default: () => 150 }).annotations({
      description: "Max items (default 150)."
    })
  }),
  output: Schema.Struct({ items: Schema.optional(Schema.Array(TestIdItem)) }),
  ...looking,
  observation: "none",
  run: Effect.fn("tool.list_testids")(function* (input) {
    const observer = yield* Observer
    const items = yield* observer.testIds(input.limit)
    // No empty fields in an answer: a page without test ids answers nothing.
    return items.length === 0 ? {} : { items }
  })
})

/**
 * The snapshot's text, as every discovery tool answers it; the format is explained once, here. It leaves
 * the result for the text block after the JSON (`pageText` below), so the field is not listed.
 */
export const SnapshotText = Schema.String.annotations({
  description:
    'The page as indented lines, one per node: role "name" [states] [ref]: text. Pass a ref (e.g. e12) as a11yRef to act on that element; refs stay the same while the element stays in the page. "role ×N [e12..e40]: a | b | … | z" stands for N siblings like the line before it, every ref in the range usable. Rows of plain cells read "row [e5]: a | b | c". A line starting with "…" says what a limit left out.'
})

/** The result's field for that text: filled by the tool, emptied by `snapshotAsPageText`, so not listed. */
const SnapshotField = Schema.optional(SnapshotText).annotations({ [Unlisted]: true })

/** What a page with no node at all reads as (an empty text block would say nothing). */
export const EMPTY_PAGE = "(nothing on the page)"

/**
 * Moves a result's page text out of the JSON: it goes as the envelope's snapshot, the text block after
 * the JSON, as an action's page text does.
 */
export const snapshotAsPageText = <O extends { readonly snapshot?: string | undefined }>(result: O): { readonly result: O; readonly text: string } => {
  const { snapshot, ...rest } = result
  return { result: rest as unknown as O, text: snapshot === undefined || snapshot === "" ? EMPTY_PAGE : snapshot }
}

/** A CSS selector naming the part of the page to answer. */
const RootSelector = Schema.optional(Schema.String.pipe(Schema.minLength(1))).annotations({ description: "CSS selector of a part.", [Evident]: true })

/** The page under a selector (or all of it) as text with refs, cut at `limit` nodes and the text budget. */
const pageTextOf = (observer: ObserverService, rootSelector: string | undefined, limit: number) =>
  Effect.map(observer.accessibility({ rootSelector, limit }), ({ nodes, truncated }) => {
    const rendered = renderNodes(nodes)
    return truncated || rendered.cut ? { snapshot: rendered.text, truncated: true } : { snapshot: rendered.text }
  })

export const accessibilitySnapshot = defineTool({
  name: "accessibility_snapshot",
  title: "Accessibility snapshot",
  description:
    "The active tab (or the part under rootSelector) as text with refs; mm_find is cheaper for one thing.",
  // describe_screen {rootSelector} does its work: an old name, callable, not listed.
  unlisted: true,
  input: Schema.Struct({
    rootSelector: RootSelector,
    // The text budget cuts a long page with a marker anyway: accepted, not listed.
    limit: Schema.optionalWith(Schema.Number.pipe(Schema.int(), Schema.between(1, 2_000)), { default: () => 400 }).annotations({
      description: "Max nodes (default 400).",
      [Unlisted]: true
    })
  }),
  output: Schema.Struct({
    snapshot: SnapshotField,
    truncated: Schema.optional(Schema.Boolean).annotations({ description: "True when the page had more than the limit or the text budget allowed." })
  }),
  ...looking,
  observation: "none",
  pageText: snapshotAsPageText,
  run: Effect.fn("tool.accessibility_snapshot")(function* (input) {
    return yield* pageTextOf(yield* Observer, input.rootSelector, input.limit)
  })
})

/** Nodes of a part of the page at most (accessibility_snapshot's default). */
const PART_LIMIT = 400

const DescribeScreenOutput = Schema.Struct({
  state: StateView,
  testIds: Schema.optional(Schema.Struct({ items: Schema.Array(TestIdItem) })).annotations({ description: "Visible test ids; absent when none." }),
  snapshot: SnapshotField,
  truncated: Schema.optional(Schema.Boolean).annotations({ description: "True when the page had more nodes than the snapshot shows." }),
  screenshot: Schema.optional(ScreenshotResult).annotations({ description: "The screenshot, when one was asked for." }),
  priorKnowledge: Schema.optional(PriorKnowledge).annotations({
    description: "What other sessions of the last 48 h did on a similar screen: actions that worked, targets to avoid, related sessions."
  })
})

export const describeScreen = defineTool({
  name: "describe_screen",
  title: "Describe the screen",
  description:
    "The active tab's state, test ids and hints from earlier sessions, then the page as text with refs (rootSelector: state and that part).",
  input: Schema.Struct({
    rootSelector: RootSelector,
    // The screenshot options are upstream's; mm_screenshot is the listed way to take one.
    includeScreenshot: Schema.optionalWith(Schema.Boolean, { default: () => false }).annotations({
      description: "Save a screenshot too.",
      [Unlisted]: true
    }),
    screenshotName: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))).annotations({
      description: "Its file name.",
      [Unlisted]: true
    }),
    // Base64 text costs the model far more than an image block: accepted for compatibility, not listed.
    includeScreenshotBase64: Schema.optionalWith(Schema.Boolean, { default: () => false }).annotations({
      description: "Add it as base64 text.",
      [Unlisted]: true
    }),
    includeImage: Schema.optionalWith(Schema.Boolean, { default: () => false }).annotations({
      description: "Attach it as an image.",
      [Unlisted]: true
    })
  }),
  output: DescribeScreenOutput,
  ...looking,
  observation: "custom",
  observe: (result) => ({ state: result.state }),
  pageText: snapshotAsPageText,
  attachments: (input, result) => {
    if (result.screenshot === undefined) return { result, attachments: [] }
    const { keepBase64, attachments } = imageAttachment(input.includeImage, input.includeScreenshotBase64, result.screenshot)
    const { base64, ...shot } = result.screenshot
    return { result: { ...result, screenshot: keepBase64 && base64 !== undefined ? { ...shot, base64 } : shot }, attachments }
  },
  run: Effect.fn("tool.describe_screen")(function* (input) {
    const observer = yield* Observer
    const session = yield* Session
    // A part of the page: its text and where the tab is, no test ids or hints about the whole screen.
    if (input.rootSelector !== undefined) {
      const [state, part] = yield* Effect.all([observer.state, pageTextOf(observer, input.rootSelector, PART_LIMIT)])
      return { state, ...part }
    }
    const observation = yield* observer.observe({ testIds: true, a11y: true })
    const wantsShot = input.includeScreenshot || input.includeImage || input.includeScreenshotBase64
    const screenshot = wantsShot
      ? yield* session.screenshot({
          name: input.screenshotName ?? `describe-screen-${Date.now()}`,
          fullPage: false
        })
      : undefined
    const current = yield* session.current
    // Step memory is advice: a store that cannot be read leaves it out, never fails the description.
    // The served tools' own rules for prior knowledge; a library caller that serves none gets the defaults.
    const registry = yield* Effect.serviceOption(ToolRegistry)
    const store = yield* KnowledgeStore
    const hidden = yield* hiddenSessions(store)
    const prior = yield* catalogOf(store).pipe(
      Effect.map((catalog) =>
        priorKnowledge(
          catalog,
          { currentSessionId: current._tag === "Some" ? current.value.sessionId : undefined, observation, now: Date.now(), hidden },
          (tool) => (Option.isSome(registry) ? registry.value.lookup(tool)?.prior : undefined)
        )
      ),
      Effect.catchTag("KnowledgeError", (error) => Effect.logWarning("prior knowledge skipped", error.message).pipe(Effect.as(undefined)))
    )
    const hasPrior = prior !== undefined && hasPriorKnowledge(prior)
    const rendered = renderNodes(observation.a11y?.nodes ?? [])
    return {
      ...(hasPrior ? { priorKnowledge: prior } : {}),
      state: observation.state,
      ...(observation.testIds !== undefined && observation.testIds.length > 0 ? { testIds: { items: observation.testIds } } : {}),
      snapshot: observation.a11y?.behindModal === undefined ? rendered.text : `${rendered.text}\n${modalNote(observation.a11y.behindModal)}`,
      ...(observation.a11y?.truncated || rendered.cut ? { truncated: true } : {}),
      ...(screenshot !== undefined ? { screenshot } : {})
    }
  })
})

export const getState = defineTool({
  name: "get_state",
  title: "Get the session state",
  description: "Cheap: url, title, screen, tabs, extension.",
  input: NoInput,
  output: Schema.Struct({
    state: StateView,
    tabs: Tabs,
    extension: Schema.optional(ExtensionSummary).annotations({ description: "The loaded extension; absent when none is loaded." })
  }),
  ...looking,
  // Answered from what a paused page can still tell.
  whilePaused: "listed",
  observation: "custom",
  observe: (result) => ({ state: result.state }),
  run: Effect.fn("tool.get_state")(function* () {
    const observer = yield* Observer
    const session = yield* Session
    const [state, tabs, extension] = yield* Effect.all([observer.state, session.tabs, session.extension])
    return Option.match(extension, { onNone: () => ({ state, tabs }), onSome: (info) => ({ state, tabs, extension: info }) })
  })
})
