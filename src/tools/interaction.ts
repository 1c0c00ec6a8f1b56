// Acting on one element: click, type, wait_for and get_text, each targeted by ref, test id or selector.
import { Effect, Option, Schema } from "effect"
import { looksSensitive, REDACTED } from "../domain/redaction.js"
import { describeTarget, targetFields, targetOf, validateTarget } from "../domain/target.js"
import { defineTool } from "../runtime/tool.js"
import { Session } from "../services/Session.js"
import { actionDeadline, DEADLINE_SLACK_MS, recordTarget, TargetResult, timeoutField, waitDeadline } from "./shared.js"

const interactionAnnotations = { readOnly: false, destructive: false, idempotent: false, openWorld: true } as const
const readAnnotations = { readOnly: true, destructive: false, idempotent: true, openWorld: true } as const

/** What to do with an alert, confirm or prompt the action opens; without it, it is dismissed and a notice says so. */
const DialogField = Schema.optional(
  Schema.Struct({
    accept: Schema.Boolean.annotations({ description: "true: OK / accept; false: Cancel / dismiss." }),
    promptText: Schema.optional(
      Schema.String.pipe(Schema.maxLength(10_000)).annotations({ description: "The answer to a prompt() when accepting; never stored." })
    )
  })
).annotations({
  description:
    'What to do with a JavaScript dialog (alert, confirm, prompt) this action opens, e.g. {"accept": true} to confirm "Delete this item?". Without it such a dialog is dismissed, and meta.notices says what it asked.'
})

/** The dialog choice as recorded: never the prompt's answer. */
const recordDialog = (dialog: { readonly accept: boolean; readonly promptText?: string | undefined } | undefined) =>
  dialog === undefined ? {} : { dialog: { accept: dialog.accept, ...(dialog.promptText !== undefined ? { promptText: REDACTED } : {}) } }

const ClickInput = Schema.Struct({
  ...targetFields,
  dialog: DialogField,
  timeoutMs: timeoutField(0, 60_000, 15_000)
}).pipe(Schema.filter(validateTarget))

export const click = defineTool({
  name: "click",
  title: "Click an element",
  description:
    "Click one element of the active tab, named by exactly one of a11yRef (from mm_describe_screen or mm_accessibility_snapshot), testId or selector, optionally inside `within`. Waits until it is visible, enabled, stable and not covered by another element. Returns {clicked, target, pageClosedAfterClick?}; the response's observation shows the page afterwards with fresh refs.",
  input: ClickInput,
  output: Schema.Struct({
    clicked: Schema.Boolean,
    target: TargetResult,
    pageClosedAfterClick: Schema.optional(Schema.Boolean).annotations({
      description: "True when the click closed its own page (e.g. a confirm button in a popup)."
    })
  }),
  annotations: interactionAnnotations,
  requiresSession: true,
  observation: "default",
  deadlineMs: (input) => input.timeoutMs + DEADLINE_SLACK_MS,
  onDeadline: actionDeadline("click"),
  record: (input) => ({ input: { timeoutMs: input.timeoutMs, ...recordDialog(input.dialog) }, target: recordTarget(targetOf(input)) }),
  run: Effect.fn("tool.click")(function* (input) {
    const session = yield* Session
    const target = targetOf(input)
    const { pageClosedAfterClick } = yield* session.click(target, { timeoutMs: input.timeoutMs, dialog: input.dialog })
    return { clicked: true, target: describeTarget(target), ...(pageClosedAfterClick ? { pageClosedAfterClick } : {}) }
  })
})

const TypeInput = Schema.Struct({
  ...targetFields,
  // The message never quotes the value: a rejected secret must not come back in the error.
  text: Schema.String.pipe(Schema.maxLength(100_000, { message: () => "must be at most 100000 characters long" })).annotations({
    description: "Text to put in the field; replaces what is there. Secrets are never stored or logged."
  }),
  dialog: DialogField,
  timeoutMs: timeoutField(0, 60_000, 15_000)
}).pipe(Schema.filter(validateTarget))

export const type = defineTool({
  name: "type",
  title: "Type into a field",
  description:
    "Replace the text of an input, textarea or contenteditable element of the active tab (target by a11yRef, testId or selector, optionally `within`). Returns {typed, target, textLength}. Text typed into password or other secret-looking fields is redacted in the step memory.",
  input: TypeInput,
  output: Schema.Struct({
    typed: Schema.Boolean,
    target: TargetResult,
    textLength: Schema.Number,
    sensitive: Schema.Boolean.annotations({
      description: "True when the field looks secret (password, seed phrase, key...): its text is never stored."
    })
  }),
  annotations: interactionAnnotations,
  requiresSession: true,
  observation: "default",
  deadlineMs: (input) => input.timeoutMs + DEADLINE_SLACK_MS,
  onDeadline: actionDeadline("type"),
  record: (input, result) => {
    const target = targetOf(input)
    const hinted = [target.locator, target.within].some(
      (locator) => locator !== undefined && locator.kind !== "a11yRef" && looksSensitive(locator.value)
    )
    // Only text the page itself showed to be harmless is kept; a failed call keeps nothing.
    const keep = Option.match(result, { onNone: () => false, onSome: (value) => !value.sensitive && !hinted })
    return {
      input: { text: keep ? input.text : REDACTED, timeoutMs: input.timeoutMs, ...recordDialog(input.dialog) },
      target: recordTarget(target),
      textRedacted: !keep,
      textLength: input.text.length
    }
  },
  run: Effect.fn("tool.type")(function* (input) {
    const session = yield* Session
    const target = targetOf(input)
    const { sensitive } = yield* session.type(target, input.text, { timeoutMs: input.timeoutMs, dialog: input.dialog })
    return { typed: true, target: describeTarget(target), textLength: input.text.length, sensitive }
  })
})

const WaitForInput = Schema.Struct({
  ...targetFields,
  state: Schema.optionalWith(Schema.Literal("visible", "hidden"), { default: () => "visible" as const }).annotations({
    description: 'Wait until the element is "visible" (default) or "hidden" (gone or not displayed).'
  }),
  timeoutMs: timeoutField(100, 120_000, 15_000)
}).pipe(Schema.filter(validateTarget))

export const waitFor = defineTool({
  name: "wait_for",
  title: "Wait for an element",
  description:
    "Wait until an element of the active tab becomes visible or hidden (target by a11yRef, testId or selector, optionally `within`). Use after an action that loads or closes something. Returns {found, target, state}; fails with MM_WAIT_TIMEOUT when the time runs out.",
  input: WaitForInput,
  output: Schema.Struct({
    found: Schema.Boolean.annotations({ description: "True when the awaited state was reached." }),
    target: TargetResult,
    state: Schema.Literal("visible", "hidden")
  }),
  annotations: readAnnotations,
  requiresSession: true,
  observation: "default",
  deadlineMs: (input) => input.timeoutMs + DEADLINE_SLACK_MS,
  onDeadline: waitDeadline,
  record: (input) => ({ input: { state: input.state, timeoutMs: input.timeoutMs }, target: recordTarget(targetOf(input)) }),
  run: Effect.fn("tool.wait_for")(function* (input) {
    const session = yield* Session
    const target = targetOf(input)
    yield* session.waitFor(target, input.state, { timeoutMs: input.timeoutMs })
    return { found: true, target: describeTarget(target), state: input.state }
  })
})

const GetTextInput = Schema.Struct({
  ...targetFields,
  timeoutMs: timeoutField(0, 60_000, 15_000)
}).pipe(Schema.filter(validateTarget))

export const getText = defineTool({
  name: "get_text",
  title: "Read an element's text",
  description:
    "Read the rendered text of an element of the active tab, or the value of a form field (never of a password field). Target by a11yRef, testId or selector, optionally `within`. Returns {text, target, length}.",
  input: GetTextInput,
  output: Schema.Struct({
    text: Schema.String,
    target: TargetResult,
    length: Schema.Number,
    redacted: Schema.optional(Schema.Boolean).annotations({ description: "True when the field is a password field." })
  }),
  annotations: readAnnotations,
  concurrencySafe: true,
  requiresSession: true,
  observation: "none",
  deadlineMs: (input) => input.timeoutMs + DEADLINE_SLACK_MS,
  onDeadline: actionDeadline("get_text"),
  record: (input) => ({ input: { timeoutMs: input.timeoutMs }, target: recordTarget(targetOf(input)) }),
  run: Effect.fn("tool.get_text")(function* (input) {
    const session = yield* Session
    const target = targetOf(input)
    const text = yield* session.getText(target, { timeoutMs: input.timeoutMs })
    return text === null
      ? { text: REDACTED, target: describeTarget(target), length: 0, redacted: true }
      : { text, target: describeTarget(target), length: text.length }
  })
})

/** Playwright's key names: a character, a named key, F1-F24, KeyA-KeyZ, Digit0-9; modifiers joined with "+". */
const KEY_NAMES =
  "Enter|Tab|Escape|Backspace|Delete|Insert|Home|End|PageUp|PageDown|ArrowUp|ArrowDown|ArrowLeft|ArrowRight|" +
  "Shift|Control|Alt|Meta|ControlOrMeta|CapsLock|ContextMenu|F(?:[1-9]|1[0-9]|2[0-4])|Key[A-Z]|Digit[0-9]|Numpad[0-9]"
const KEY_PATTERN = new RegExp(`^(?:(?:Shift|Control|Alt|Meta|ControlOrMeta)\\+)*(?:${KEY_NAMES}|[^+\\s]|\\+| )$`)

export const Key = Schema.String.pipe(
  Schema.filter((key) =>
    KEY_PATTERN.test(key)
      ? true
      : `must be a key or chord in Playwright's names: a character, " " (space), Enter, Tab, Escape, Backspace, Delete, Arrow{Up,Down,Left,Right}, Home, End, PageUp, PageDown, F1-F24, optionally after Shift+, Control+, Alt+, Meta+ or ControlOrMeta+ (got ${JSON.stringify(key.slice(0, 40))})`
  )
).annotations({ description: 'Key or chord, e.g. "Enter", "Escape", "ArrowDown", "Control+A", "a".' })

/** Zero or one locator: without one the key goes to whatever has the focus. */
const optionalTarget = <A extends { readonly a11yRef?: string | undefined; readonly testId?: string | undefined; readonly selector?: string | undefined; readonly within?: unknown }>(
  input: A
) =>
  input.a11yRef === undefined && input.testId === undefined && input.selector === undefined
    ? input.within === undefined
      ? true
      : { path: ["within"], message: "within needs a11yRef, testId or selector" }
    : validateTarget(input)

const PressKeyInput = Schema.Struct({
  ...targetFields,
  key: Key,
  dialog: DialogField,
  timeoutMs: timeoutField(0, 60_000, 15_000)
}).pipe(Schema.filter(optionalTarget))

/** Keys that type nothing: named keys, and chords with Control, Alt or Meta. Everything else may be part of a secret. */
const SILENT_KEY = new RegExp(
  `^(?:(?:.*\\b(?:Control|Alt|Meta|ControlOrMeta)\\+.+)|(?:(?:Shift\\+)*(?:Enter|Tab|Escape|Backspace|Delete|Insert|Home|End|PageUp|PageDown|ArrowUp|ArrowDown|ArrowLeft|ArrowRight|Shift|Control|Alt|Meta|ControlOrMeta|CapsLock|ContextMenu|F(?:[1-9]|1[0-9]|2[0-4]))))$`
)
const typesACharacter = (key: string) => !SILENT_KEY.test(key)

const hasTarget = (input: typeof PressKeyInput.Type) =>
  input.a11yRef !== undefined || input.testId !== undefined || input.selector !== undefined

export const pressKey = defineTool({
  name: "press_key",
  title: "Press a key",
  description:
    'Press a key or chord (Playwright names: "Enter", "Escape", "Tab", "ArrowDown", "Control+A", a character) on an element of the active tab (a11yRef, testId or selector, optionally within; it gets the focus first) or, without one, on whatever has the focus: submit a form with Enter, close a dialog with Escape. Returns {pressed, key, target?, sensitive}. A character pressed in a secret field is not stored.',
  input: PressKeyInput,
  output: Schema.Struct({
    pressed: Schema.Boolean,
    key: Schema.String,
    target: Schema.optional(TargetResult),
    sensitive: Schema.Boolean.annotations({
      description: "True when the focused element looks secret: a character pressed there is not stored."
    })
  }),
  annotations: interactionAnnotations,
  requiresSession: true,
  observation: "default",
  deadlineMs: (input) => input.timeoutMs + DEADLINE_SLACK_MS,
  record: (input, result) => {
    const secret = Option.match(result, { onNone: () => true, onSome: (value) => value.sensitive })
    return {
      input: { key: secret && typesACharacter(input.key) ? REDACTED : input.key, timeoutMs: input.timeoutMs, ...recordDialog(input.dialog) },
      ...(hasTarget(input) ? { target: recordTarget(targetOf(input)) } : {})
    }
  },
  run: Effect.fn("tool.press_key")(function* (input) {
    const session = yield* Session
    const target = hasTarget(input) ? targetOf(input) : undefined
    const { sensitive } = yield* session.pressKey(target, input.key, { timeoutMs: input.timeoutMs, dialog: input.dialog })
    return { pressed: true, key: input.key, ...(target !== undefined ? { target: describeTarget(target) } : {}), sensitive }
  })
})

const SelectOptionInput = Schema.Struct({
  ...targetFields,
  values: Schema.Array(Schema.String)
    .pipe(Schema.minItems(1), Schema.maxItems(100))
    .annotations({ description: "Options to select, each by its value or its visible label; several for a multiple select." }),
  dialog: DialogField,
  timeoutMs: timeoutField(0, 60_000, 15_000)
}).pipe(Schema.filter(validateTarget))

export const selectOption = defineTool({
  name: "select_option",
  title: "Select options",
  description:
    "Select options of a <select> in the active tab (target by a11yRef, testId or selector, optionally within), each named by its value or its visible label; the other options are deselected. Waits until the options exist. Returns {selected: values now selected, target}.",
  input: SelectOptionInput,
  output: Schema.Struct({
    selected: Schema.Array(Schema.String).annotations({ description: "Values of the options selected now." }),
    target: TargetResult
  }),
  annotations: interactionAnnotations,
  requiresSession: true,
  observation: "default",
  deadlineMs: (input) => input.timeoutMs + DEADLINE_SLACK_MS,
  onDeadline: actionDeadline("select_option"),
  record: (input) => ({
    input: { values: input.values, timeoutMs: input.timeoutMs, ...recordDialog(input.dialog) },
    target: recordTarget(targetOf(input))
  }),
  run: Effect.fn("tool.select_option")(function* (input) {
    const session = yield* Session
    const target = targetOf(input)
    const selected = yield* session.selectOption(target, input.values, { timeoutMs: input.timeoutMs, dialog: input.dialog })
    return { selected, target: describeTarget(target) }
  })
})

const HoverInput = Schema.Struct({
  ...targetFields,
  dialog: DialogField,
  timeoutMs: timeoutField(0, 60_000, 15_000)
}).pipe(Schema.filter(validateTarget))

export const hover = defineTool({
  name: "hover",
  title: "Hover over an element",
  description:
    "Move the mouse over one element of the active tab (target by a11yRef, testId or selector, optionally within), for menus and tooltips that open on hover. Waits until it is visible and stable. Returns {hovered, target}; the observation shows what opened.",
  input: HoverInput,
  output: Schema.Struct({ hovered: Schema.Boolean, target: TargetResult }),
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
  requiresSession: true,
  observation: "default",
  deadlineMs: (input) => input.timeoutMs + DEADLINE_SLACK_MS,
  onDeadline: actionDeadline("hover"),
  record: (input) => ({ input: { timeoutMs: input.timeoutMs, ...recordDialog(input.dialog) }, target: recordTarget(targetOf(input)) }),
  run: Effect.fn("tool.hover")(function* (input) {
    const session = yield* Session
    const target = targetOf(input)
    yield* session.hover(target, { timeoutMs: input.timeoutMs, dialog: input.dialog })
    return { hovered: true, target: describeTarget(target) }
  })
})
