// Acting on one element: click, type, press_key, select_option, hover, wait_for and get_text, each
// targeted by ref, test id or selector.
import { Effect, Option, Schema } from "effect"
import { looksSensitive, REDACTED } from "../domain/redaction.js"
import { describeTarget, targetOf, validateTarget } from "../domain/target.js"
import { InvalidInput } from "../domain/errors.js"
import { SECRET_NAME } from "../domain/secrets.js"
import { defineTool, Unlisted, type Replay } from "../runtime/tool.js"
import { Secrets } from "../services/Secrets.js"
import { Session } from "../services/Session.js"
import {
  actionDeadline,
  actionTimeoutField,
  at,
  DialogField,
  elementTool,
  QuietDialogField,
  recordDialog,
  recordTarget,
  recordTargeted,
  TargetResult,
  targetFields,
  targetInput,
  timeoutField,
  waitDeadline
} from "./shared.js"

const interactionAnnotations = { readOnly: false, destructive: false, idempotent: false, openWorld: true } as const
const readAnnotations = { readOnly: true, destructive: false, idempotent: true, openWorld: true } as const

/** A Playwright locator call for a step with a durable target; none without one. */
const onLocator =
  (call: (locator: string, args: Readonly<Record<string, unknown>>) => string | undefined): NonNullable<Replay["playwright"]> =>
  (args, context) => {
    if (context.locator === undefined) return undefined
    const line = call(context.locator, args)
    return line === undefined ? undefined : [line]
  }

const ClickInput = targetInput({ dialog: DialogField })

export const click = defineTool({
  name: "click",
  title: "Click an element",
  description: "Click an element once it is visible, enabled and uncovered. Returns {clicked, target}.",
  input: ClickInput,
  output: Schema.Struct({
    clicked: Schema.Boolean,
    target: TargetResult,
    pageClosedAfterClick: Schema.optional(Schema.Boolean).annotations({
      description: "True when the click closed its own page (e.g. a confirm button in a popup)."
    })
  }),
  annotations: interactionAnnotations,
  ...elementTool,
  onDeadline: actionDeadline("click"),
  record: (input) => recordTargeted(input),
  replay: {
    note: (_args, target) => `Click${at(target)}`,
    playwright: onLocator((locator) => `await ${locator}.click()`)
  },
  run: Effect.fn("tool.click")(function* (input) {
    const session = yield* Session
    const target = targetOf(input)
    const { pageClosedAfterClick } = yield* session.click(target, { timeoutMs: input.timeoutMs, dialog: input.dialog })
    return { clicked: true, target: describeTarget(target), ...(pageClosedAfterClick ? { pageClosedAfterClick } : {}) }
  })
})

const TypeInput = targetInput({
  // The message never quotes the value: a rejected secret must not come back in the error.
  // Exact: an optional that also takes undefined would answer "Expected undefined, actual <the text>".
  text: Schema.optionalWith(
    Schema.String.pipe(Schema.maxLength(100_000, { message: () => "must be at most 100000 characters long" })).annotations({
      description: "New text."
    }),
    { exact: true }
  ),
  // Listed in the server's instructions when --secrets names some, not in every tools/list.
  secret: Schema.optionalWith(
    Schema.String.pipe(Schema.pattern(SECRET_NAME, { message: () => "must be a secret's name: letters, digits and _" })),
    { exact: true }
  ).annotations({ description: "Name of a --secrets value to type instead of text.", [Unlisted]: true }),
  dialog: QuietDialogField
}).pipe(
  Schema.filter((input) =>
    (input.text === undefined) === (input.secret === undefined)
      ? { path: [input.text === undefined ? "text" : "secret"], message: "give exactly one of text or secret" }
      : true
  )
)

/** The text to type: the given text, or a secret's value by its name. */
const textToType = (input: { readonly text?: string | undefined; readonly secret?: string | undefined }) =>
  Effect.gen(function* () {
    if (input.secret === undefined) return input.text ?? ""
    const name = input.secret
    const secrets = Option.getOrElse(yield* Effect.serviceOption(Secrets), () => Secrets.none)
    return yield* Option.match(secrets.lookup(name), {
      onSome: Effect.succeed,
      onNone: () =>
        new InvalidInput({
          field: "secret",
          problem:
            secrets.names.length === 0
              ? "no secrets are configured; start the server with --secrets FILE (a dotenv file)."
              : `no secret named ${name}; the --secrets file names ${secrets.names.slice(0, 50).join(", ")}.`
        })
    })
  })

export const type = defineTool({
  name: "type",
  title: "Type into a field",
  description: "Replace a field's text (secret fields are never stored). Returns {typed, textLength, sensitive}.",
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
  ...elementTool,
  onDeadline: actionDeadline("type"),
  record: (input, result) => {
    const target = targetOf(input)
    const hinted = [target.locator, target.within].some(
      (locator) => locator !== undefined && locator.kind !== "a11yRef" && looksSensitive(locator.value)
    )
    // A secret is recorded by its name (a replay types it again from --secrets).
    if (input.secret !== undefined) {
      return {
        input: { secret: input.secret, timeoutMs: input.timeoutMs, ...recordDialog(input.dialog) },
        target: recordTarget(target),
        textRedacted: true,
        verbatim: ["secret"]
      }
    }
    const text = input.text ?? ""
    // Only text the page itself showed to be harmless is kept; a failed call keeps nothing.
    const keep = Option.match(result, { onNone: () => false, onSome: (value) => !value.sensitive && !hinted })
    return {
      input: { text: keep ? text : REDACTED, timeoutMs: input.timeoutMs, ...recordDialog(input.dialog) },
      target: recordTarget(target),
      textRedacted: !keep,
      textLength: text.length
    }
  },
  replay: {
    note: (args, target, step) =>
      typeof args.secret === "string"
        ? `Type the secret ${args.secret} into${at(target)}`
        : step.tool.textRedacted === true ? `Type a secret (${step.tool.textLength ?? "?"} characters) into${at(target)}` : `Type into${at(target)}`,
    playwright: (args, context) =>
      context.locator === undefined
        ? undefined
        : [
            `await ${context.locator}.fill(${
              // A secret comes from the environment variable of its name, as --secrets holds it.
              typeof args.secret === "string" && SECRET_NAME.test(args.secret) ? `process.env.${args.secret} ?? ""` : context.text(String(args.text ?? ""))
            })`
          ]
  },
  run: Effect.fn("tool.type")(function* (input) {
    const session = yield* Session
    const target = targetOf(input)
    const text = yield* textToType(input)
    const { sensitive } = yield* session.type(target, text, { timeoutMs: input.timeoutMs, dialog: input.dialog })
    // A secret counts as sensitive wherever it goes.
    return { typed: true, target: describeTarget(target), textLength: text.length, sensitive: sensitive || input.secret !== undefined }
  })
})

const WaitForInput = Schema.Struct({
  ...targetFields,
  state: Schema.optionalWith(Schema.Literal("visible", "hidden"), { default: () => "visible" as const }).annotations({
    description: "Default visible."
  }),
  timeoutMs: timeoutField(100, 120_000, 15_000)
}).pipe(Schema.filter(validateTarget))

export const waitFor = defineTool({
  name: "wait_for",
  title: "Wait for an element",
  description: "Wait until an element is visible or hidden. Returns {found}, or MM_WAIT_TIMEOUT.",
  input: WaitForInput,
  output: Schema.Struct({
    found: Schema.Boolean.annotations({ description: "True when the awaited state was reached." }),
    target: TargetResult,
    state: Schema.Literal("visible", "hidden")
  }),
  annotations: readAnnotations,
  ...elementTool,
  onDeadline: waitDeadline,
  record: (input) => recordTargeted(input, { state: input.state }),
  // It only reads, but a replay must wait where the flow waited.
  replay: {
    mode: "step",
    note: (args, target) => `Wait until${at(target)} is ${String(args.state ?? "visible")}`,
    playwright: onLocator((locator, args) =>
      args.state === "hidden" ? `await expect(${locator}).toBeHidden()` : `await expect(${locator}).toBeVisible()`
    )
  },
  run: Effect.fn("tool.wait_for")(function* (input) {
    const session = yield* Session
    const target = targetOf(input)
    yield* session.waitFor(target, input.state, { timeoutMs: input.timeoutMs })
    return { found: true, target: describeTarget(target), state: input.state }
  })
})

const GetTextInput = targetInput({})

export const getText = defineTool({
  name: "get_text",
  title: "Read an element's text",
  description: "An element's text or a field's value (never a password). Returns {text, length}.",
  input: GetTextInput,
  output: Schema.Struct({
    text: Schema.String,
    target: TargetResult,
    length: Schema.Number,
    redacted: Schema.optional(Schema.Boolean).annotations({ description: "True when the field is a password field." })
  }),
  annotations: readAnnotations,
  concurrencySafe: true,
  ...elementTool,
  stepKinds: ["discovery"],
  observation: "none",
  onDeadline: actionDeadline("get_text"),
  record: (input) => recordTargeted(input),
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
).annotations({ description: 'Key or chord, e.g. "Enter", "Control+A".' })

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
  timeoutMs: actionTimeoutField
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
  description: "Press a key on an element or the focused one (Enter submits). Returns {pressed, key}.",
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
  ...elementTool,
  record: (input, result) => {
    const secret = Option.match(result, { onNone: () => true, onSome: (value) => value.sensitive })
    return {
      input: { key: secret && typesACharacter(input.key) ? REDACTED : input.key, timeoutMs: input.timeoutMs, ...recordDialog(input.dialog) },
      ...(hasTarget(input) ? { target: recordTarget(targetOf(input)) } : {})
    }
  },
  replay: {
    note: (args, target) => `Press ${String(args.key)}${target === undefined ? "" : ` on${at(target)}`}`,
    args: (args) => (args.key === REDACTED ? { skip: "a key pressed in a secret field is not stored" } : { args }),
    playwright: (args, context) =>
      typeof args.key !== "string"
        ? undefined
        : [context.locator === undefined ? `await page.keyboard.press(${JSON.stringify(args.key)})` : `await ${context.locator}.press(${JSON.stringify(args.key)})`]
  },
  run: Effect.fn("tool.press_key")(function* (input) {
    const session = yield* Session
    const target = hasTarget(input) ? targetOf(input) : undefined
    const { sensitive } = yield* session.pressKey(target, input.key, { timeoutMs: input.timeoutMs, dialog: input.dialog })
    // A character pressed into a secret field is not spelled out, as the step record does not keep it.
    const key = sensitive && typesACharacter(input.key) ? REDACTED : input.key
    return { pressed: true, key, ...(target !== undefined ? { target: describeTarget(target) } : {}), sensitive }
  })
})

const SelectOptionInput = targetInput({
  values: Schema.Array(Schema.String)
    .pipe(Schema.minItems(1), Schema.maxItems(100))
    .annotations({ description: "Values or labels." }),
  dialog: QuietDialogField
})

export const selectOption = defineTool({
  name: "select_option",
  title: "Select options",
  description: "Select <select> options; the others are deselected. Returns {selected}.",
  input: SelectOptionInput,
  output: Schema.Struct({
    selected: Schema.Array(Schema.String).annotations({ description: "Values of the options selected now." }),
    target: TargetResult
  }),
  annotations: interactionAnnotations,
  ...elementTool,
  onDeadline: actionDeadline("select_option"),
  record: (input) => recordTargeted(input, { values: input.values }),
  replay: {
    note: (args, target) => `Select ${JSON.stringify(args.values ?? [])} in${at(target)}`,
    playwright: onLocator((locator, args) => (Array.isArray(args.values) ? `await ${locator}.selectOption(${JSON.stringify(args.values)})` : undefined))
  },
  run: Effect.fn("tool.select_option")(function* (input) {
    const session = yield* Session
    const target = targetOf(input)
    const selected = yield* session.selectOption(target, input.values, { timeoutMs: input.timeoutMs, dialog: input.dialog })
    return { selected, target: describeTarget(target) }
  })
})

const HoverInput = targetInput({ dialog: QuietDialogField })

export const hover = defineTool({
  name: "hover",
  title: "Hover over an element",
  description: "Hover an element, for menus and tooltips. Returns {hovered}.",
  input: HoverInput,
  output: Schema.Struct({ hovered: Schema.Boolean, target: TargetResult }),
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
  ...elementTool,
  onDeadline: actionDeadline("hover"),
  record: (input) => recordTargeted(input),
  replay: {
    note: (_args, target) => `Hover over${at(target)}`,
    playwright: onLocator((locator) => `await ${locator}.hover()`)
  },
  run: Effect.fn("tool.hover")(function* (input) {
    const session = yield* Session
    const target = targetOf(input)
    yield* session.hover(target, { timeoutMs: input.timeoutMs, dialog: input.dialog })
    return { hovered: true, target: describeTarget(target) }
  })
})
