// Interactions listed while the page offers them (seed 004): drag and drop, scrolling, checkboxes and
// file uploads. Each is listed only while the active page shows what it needs (drag sources, room to
// scroll, a visible checkbox, a file input or an open file chooser) and stays callable otherwise.
import { Effect, Option, Schema } from "effect"
import type { StepTarget } from "../domain/knowledge.js"
import { TargetNotFound } from "../domain/errors.js"
import { describeLocator, describeTarget, Scope, targetOf, validateTarget } from "../domain/target.js"
import { checkLine } from "../knowledge/export-checked.js"
import { dragLine } from "../knowledge/export-drag.js"
import { durableTarget, whyNotDurable } from "../knowledge/targets.js"
import { Evident, ListedAs, defineTool, type ReplayArgs } from "../runtime/tool.js"
import { Session } from "../services/Session.js"
import {
  actionDeadline,
  actionTimeoutField,
  at,
  described,
  ElementField,
  elementTool,
  recordAction,
  recordTarget,
  targetFields,
  targetInput,
  pageActionAnnotations,
  withElement
} from "./shared.js"

/** Scrolling only moves the view (a page may load more as it does: additive). */
const scrollAnnotations = { readOnly: false, destructive: false, idempotent: false, openWorld: true } as const

/**
 * The other element of a drag, as recorded and replayed: its durable form (the element as described
 * when the drag ran, else the test id or selector given); a ref alone is page-local and does not replay.
 */
const locatorArgs = (value: unknown): ReplayArgs | undefined => {
  if (typeof value !== "object" || value === null) return undefined
  const durable = durableTarget(value as StepTarget)
  if (durable === undefined || durable.args.within !== undefined) return undefined
  return durable.args
}


const hasTarget = (input: { readonly a11yRef?: string | undefined; readonly testId?: string | undefined; readonly selector?: string | undefined }) =>
  input.a11yRef !== undefined || input.testId !== undefined || input.selector !== undefined

export const drag = defineTool({
  name: "drag",
  title: "Drag and drop",
  description: "Drag an element onto another (HTML5 or mouse-driven).",
  input: targetInput({
    to: Scope.annotations({ [ListedAs]: { type: "object" }, description: "Drop target: {a11yRef|testId|selector}." })
  }),
  output: Schema.Struct({ dragged: Schema.Boolean, element: ElementField, toElement: ElementField }),
  annotations: pageActionAnnotations,
  ...elementTool,
  listedWhen: (state) => state.page.drag,
  // Decided from what was seen before the deadline: a drop target looked for and never matched is not found.
  onDeadline: (input, timeoutMs, seen) =>
    seen.to?.looked === true && !seen.to.matched && !(seen.looked && !seen.matched)
      ? new TargetNotFound({
          target: describeTarget(targetOf(input.to)),
          detail: `No element matches the drop target ${describeTarget(targetOf(input.to))} (waited ${input.timeoutMs ?? timeoutMs} ms).`
        })
      : actionDeadline("drag")(input, timeoutMs, seen),
  record: (input, result) =>
    recordAction(input, result, {
      to: withElement(
        recordTarget(targetOf(input.to)),
        Option.map(result, (value) => ({ element: value.toElement }))
      )
    }),
  replay: {
    note: (args, target) => `Drag${at(target)} onto ${describeStepLocator(args.to)}`,
    args: (args) =>
      locatorArgs(args.to) === undefined
        ? { skip: `the drop target has no durable form: ${typeof args.to === "object" && args.to !== null ? whyNotDurable(args.to as StepTarget) : "none was recorded"}` }
        : { args: { ...args, to: locatorArgs(args.to) } },
    playwright: (args, context) => {
      const toArgs = locatorArgs(args.to)
      const to = toArgs === undefined ? undefined : context.locatorOf(toArgs)
      return context.locator === undefined || to === undefined ? undefined : [dragLine(context.locator, to)]
    }
  },
  run: Effect.fn("tool.drag")(function* (input) {
    const session = yield* Session
    const source = targetOf(input)
    const to = targetOf(input.to)
    const element = yield* session.describe(source)
    const toElement = yield* session.describe(to)
    yield* session.drag(source, to, { timeoutMs: input.timeoutMs })
    return { dragged: true, ...described(element), ...(toElement === undefined ? {} : { toElement }) }
  })
})

const describeStepLocator = (value: unknown): string => {
  if (typeof value !== "object" || value === null) return "the drop target"
  const locator = value as Record<string, unknown>
  for (const kind of ["testId", "selector", "a11yRef"] as const) {
    if (typeof locator[kind] === "string") return describeLocator({ kind, value: locator[kind] })
  }
  return "the drop target"
}

const ScrollInput = Schema.Struct({
  ...targetFields,
  to: Schema.optional(Schema.Literal("top", "bottom")).annotations({ description: "Scroll to an end.", [Evident]: true }),
  deltaY: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(-100_000, 100_000))).annotations({ description: "Pixels; negative: up (deltaX: left)." }),
  deltaX: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(-100_000, 100_000))).annotations({ description: "Pixels right.", [Evident]: true }),
  timeoutMs: actionTimeoutField
}).pipe(
  Schema.filter((input) => {
    if (hasTarget(input)) return validateTarget(input)
    if (input.within !== undefined) return { path: ["within"], message: "within needs a11yRef, testId or selector" }
    return input.to !== undefined || input.deltaX !== undefined || input.deltaY !== undefined
      ? true
      : { path: ["to"], message: "give an element to scroll into view, to (top or bottom), or deltaY / deltaX" }
  })
)

export const scroll = defineTool({
  name: "scroll",
  title: "Scroll",
  description:
    "Scroll an element into view, or the page or a container to an end or by pixels.",
  input: ScrollInput,
  output: Schema.Struct({
    moved: Schema.Boolean.annotations({ description: "The position changed, or the element came into view." }),
    top: Schema.Number,
    height: Schema.Number,
    atBottom: Schema.Boolean,
    element: ElementField
  }),
  annotations: scrollAnnotations,
  ...elementTool,
  listedWhen: (state) => state.page.scroll,
  record: (input, result) => {
    const fields = {
      ...(input.to !== undefined ? { to: input.to } : {}),
      ...(input.deltaX !== undefined ? { deltaX: input.deltaX } : {}),
      ...(input.deltaY !== undefined ? { deltaY: input.deltaY } : {})
    }
    return hasTarget(input) ? recordAction(input, result, fields) : { input: { ...fields, timeoutMs: input.timeoutMs } }
  },
  replay: {
    note: (args, target) =>
      `Scroll${target === undefined ? " the page" : at(target)}${args.to !== undefined ? ` to the ${String(args.to)}` : ""}${
        args.deltaY !== undefined ? ` by ${String(args.deltaY)} px` : ""
      }${target !== undefined && args.to === undefined && args.deltaY === undefined && args.deltaX === undefined ? " into view" : ""}`,
    playwright: (args, context) => {
      const dx = typeof args.deltaX === "number" ? args.deltaX : 0
      const dy = typeof args.deltaY === "number" ? args.deltaY : 0
      const move =
        args.to === "top"
          ? "(box) => box.scrollTo({ top: 0 })"
          : args.to === "bottom"
            ? "(box) => box.scrollTo({ top: box.scrollHeight })"
            : undefined
      if (context.locator === undefined) {
        if (move !== undefined) return [`await page.evaluate(() => (${move})(document.scrollingElement))`]
        return [`await page.evaluate(() => window.scrollBy(${dx}, ${dy}))`]
      }
      if (move !== undefined) return [`await ${context.locator}.evaluate(${move})`]
      if (dx !== 0 || dy !== 0) return [`await ${context.locator}.evaluate((box) => box.scrollBy(${dx}, ${dy}))`]
      return [`await ${context.locator}.scrollIntoViewIfNeeded()`]
    }
  },
  run: Effect.fn("tool.scroll")(function* (input) {
    const session = yield* Session
    const target = hasTarget(input) ? targetOf(input) : undefined
    const element = target === undefined ? undefined : yield* session.describe(target)
    const scrolled = yield* session.scroll({ target, to: input.to, deltaX: input.deltaX, deltaY: input.deltaY }, { timeoutMs: input.timeoutMs })
    return { ...scrolled, ...described(element) }
  })
})

export const setChecked = defineTool({
  name: "set_checked",
  title: "Check or uncheck",
  description: "Check or uncheck a checkbox, radio or switch, verified.",
  input: targetInput({
    checked: Schema.optionalWith(Schema.Boolean, { default: () => true }).annotations({ description: "Default true." })
  }),
  output: Schema.Struct({ checked: Schema.Boolean.annotations({ description: "The state the element holds now." }), element: ElementField }),
  // Checking a box is an action the page may act on (see pageActionAnnotations); doing it twice changes nothing more.
  annotations: { ...pageActionAnnotations, idempotent: true },
  ...elementTool,
  listedWhen: (state) => state.page.check,
  record: (input, result) => recordAction(input, result, { checked: input.checked }),
  replay: {
    note: (args, target) => `${args.checked === false ? "Uncheck" : "Check"}${at(target)}`,
    // Where a person clicks when the control itself cannot take the pointer (see knowledge/export-checked.ts).
    playwright: (args, context) => (context.locator === undefined ? undefined : [checkLine(context.locator, args.checked !== false)])
  },
  run: Effect.fn("tool.set_checked")(function* (input) {
    const session = yield* Session
    const target = targetOf(input)
    const element = yield* session.describe(target)
    yield* session.setChecked(target, input.checked, { timeoutMs: input.timeoutMs })
    return { checked: input.checked, ...described(element) }
  })
})

const UploadInput = Schema.Struct({
  ...targetFields,
  paths: Schema.Array(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(4_096)))
    .pipe(Schema.minItems(1), Schema.maxItems(20))
    .annotations({ description: "Files under the artifacts dir or --allowed-roots." }),
  timeoutMs: actionTimeoutField
}).pipe(
  Schema.filter((input) =>
    hasTarget(input) ? validateTarget(input) : input.within === undefined ? true : { path: ["within"], message: "within needs a11yRef, testId or selector" }
  )
)

export const uploadFile = defineTool({
  name: "upload_file",
  title: "Upload files",
  description: "Give files to a file input, the open file chooser, or the one a targeted button opens.",
  input: UploadInput,
  output: Schema.Struct({
    files: Schema.Array(Schema.String).annotations({ description: "File names the input holds now." }),
    via: Schema.Literal("input", "chooser"),
    element: ElementField
  }),
  annotations: pageActionAnnotations,
  ...elementTool,
  listedWhen: (state) => state.page.upload,
  // Paths as given: they name files on this machine, not secrets of the page.
  record: (input, result) => {
    // A target that opened a chooser replays as a click that waits for it.
    const viaChooser = hasTarget(input) && Option.isSome(result) && result.value.via === "chooser" ? { via: "chooser" } : {}
    return hasTarget(input)
      ? recordAction(input, result, { paths: input.paths, ...viaChooser })
      : { input: { paths: input.paths, timeoutMs: input.timeoutMs } }
  },
  replay: {
    note: (args, target) => `Upload ${Array.isArray(args.paths) ? args.paths.length : "?"} file(s)${target === undefined ? "" : ` with${at(target)}`}`,
    playwright: (args, context) => {
      if (!Array.isArray(args.paths)) return undefined
      const files = JSON.stringify(args.paths)
      if (context.locator === undefined) return [`await page.locator('input[type="file"]').setInputFiles(${files})`]
      if (args.via !== "chooser") return [`await ${context.locator}.setInputFiles(${files})`]
      return [
        `{`,
        `  const [chooser] = await Promise.all([page.waitForEvent("filechooser"), ${context.locator}.click()])`,
        `  await chooser.setFiles(${files})`,
        `}`
      ]
    }
  },
  run: Effect.fn("tool.upload_file")(function* (input) {
    const session = yield* Session
    const target = hasTarget(input) ? targetOf(input) : undefined
    const element = target === undefined ? undefined : yield* session.describe(target)
    const result = yield* session.uploadFiles(target, input.paths, { timeoutMs: input.timeoutMs })
    return { files: result.files, via: result.via, ...described(element) }
  })
})
