// Acting on one element: click, type, press_key, select_option, hover, wait_for and get_text, each
// targeted by ref, test id or selector.
import { Effect, Option, Schema } from "effect"
import { looksSensitive, REDACTED } from "../domain/redaction.js"
import { AssertionFailed, clip, clipMessage, InvalidInput, WaitTimeout } from "../domain/errors.js"
import { redactThenCut, SECRET_NAME } from "../domain/secrets.js"
import { collapseWhitespace } from "../domain/text.js"
import { looksLikeRegex, regexOf } from "../domain/url-pattern.js"
import { describeTarget, targetOf, validateTarget } from "../domain/target.js"
import { holdsSecret, readAssertion, readMatches, recordRead, recordReads } from "../knowledge/reads.js"
import { defineTool, Evident, Unlisted, type Replay } from "../runtime/tool.js"
import { chosenInWidget, selectReplay } from "./widget-choice.js"
import { filledForm, typeReplay } from "./type-replay.js"
import { TOGGLE_ROLES, toggleClickLine } from "../knowledge/export-checked.js"
import { Secrets, type SecretsService } from "../services/Secrets.js"
import { Session } from "../services/Session.js"
import { VERDICT_RESERVE_MS, verdictWithin } from "../services/Deadline.js"
import {
  actionDeadline,
  actionTimeoutField,
  at,
  DialogField,
  ElementField,
  elementTool,
  described,
  recordDialog,
  recordTarget,
  recordAction,
  recordTargeted,
  targetFields,
  targetInput,
  timeoutField,
  waitDeadline,
  pageActionAnnotations,
  withElement
} from "./shared.js"

const readAnnotations = { readOnly: true, destructive: false, idempotent: true, openWorld: true } as const

/** A Playwright locator call for a step with a durable target; none without one. */
const onLocator =
  (call: (locator: string, args: Readonly<Record<string, unknown>>) => string | undefined): NonNullable<Replay["playwright"]> =>
  (args, context) => {
    if (context.locator === undefined) return undefined
    const line = call(context.locator, args)
    return line === undefined ? undefined : [line]
  }

const clickLine = onLocator((locator, args) =>
  args.count === 2 ? `await ${locator}.dblclick()` : args.count === 3 ? `await ${locator}.click({ clickCount: 3 })` : `await ${locator}.click()`
)

const ClickInput = targetInput({
  count: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(1, 3))).annotations({ description: "2: double click." }),
  dialog: DialogField
})

export const click = defineTool({
  name: "click",
  prior: {},
  title: "Click an element",
  description: "Click an element once it is visible, enabled and uncovered.",
  input: ClickInput,
  output: Schema.Struct({
    clicked: Schema.Boolean,
    pageClosedAfterClick: Schema.optional(Schema.Boolean).annotations({
      description: "True when the click closed its own page (e.g. a confirm button in a popup)."
    }),
    element: ElementField
  }),
  annotations: pageActionAnnotations,
  ...elementTool,
  onDeadline: actionDeadline("click"),
  record: (input, result) => recordAction(input, result, input.count !== undefined && input.count > 1 ? { count: input.count } : {}),
  replay: {
    note: (args, target) => `${args.count === 2 ? "Double-click" : args.count === 3 ? "Triple-click" : "Click"}${at(target)}`,
    playwright: (args, context) => {
      const role = context.record.tool.target?.element?.role ?? context.record.tool.target?.a11yHint?.role
      // A checkbox, radio or switch: where a person clicks it, as the session did (see knowledge/export-checked.ts).
      if (context.locator !== undefined && args.count === undefined && role !== undefined && TOGGLE_ROLES.has(role)) return [toggleClickLine(context.locator)]
      return clickLine(args, context)
    }
  },
  run: Effect.fn("tool.click")(function* (input) {
    const session = yield* Session
    const target = targetOf(input)
    const { pageClosedAfterClick, element } = yield* session.click(target, { timeoutMs: input.timeoutMs, dialog: input.dialog, count: input.count })
    return { clicked: true, ...(pageClosedAfterClick ? { pageClosedAfterClick } : {}), ...described(element) }
  })
})

const TypeInput = targetInput({
  // The message never quotes the value: a rejected secret must not come back in the error.
  // Exact: an optional that also takes undefined would answer "Expected undefined, actual <the text>".
  text: Schema.optionalWith(
    Schema.String.pipe(Schema.maxLength(100_000, { message: () => "must be at most 100000 characters long" })).annotations({
      description: "New text.",
      [Evident]: true
    }),
    { exact: true }
  ),
  // Listed in the server's instructions when --secrets names some, not in every tools/list.
  secret: Schema.optionalWith(
    Schema.String.pipe(Schema.pattern(SECRET_NAME, { message: () => "must be a secret's name: letters, digits and _" })),
    { exact: true }
  ).annotations({ description: "Name of a --secrets value to type instead of text.", [Unlisted]: true }),
  submit: Schema.optional(Schema.Boolean).annotations({ description: "Press Enter after." }),
  // A replay's params fill it ({{name}} in the recipe); without a value the recorded text is typed.
  param: Schema.optionalWith(
    Schema.String.pipe(Schema.pattern(SECRET_NAME, { message: () => "must be an identifier: letters, digits and _" })),
    { exact: true }
  ).annotations({ description: "Name the text as a replay param." }),
  dialog: DialogField
}).pipe(
  Schema.filter((input) =>
    (input.text === undefined) === (input.secret === undefined)
      ? { path: [input.text === undefined ? "text" : "secret"], message: "give exactly one of text or secret" }
      : input.param !== undefined && input.secret !== undefined
        ? { path: ["param"], message: "a secret is typed by its name already; param names typed text" }
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
  prior: { fits: "text" },
  title: "Type into a field",
  description: "Replace a field's text (secret fields are never stored).",
  input: TypeInput,
  output: Schema.Struct({
    typed: Schema.Boolean,
    sensitive: Schema.optional(Schema.Boolean).annotations({
      description: "True when the field looks secret (password, seed phrase, key...): its text is never stored."
    }),
    value: Schema.optional(Schema.String).annotations({
      description: "What the field shows when it differs from the text: a mask's or format's form, an autocomplete's choice, a date as YYYY-MM-DD."
    }),
    element: ElementField
  }),
  annotations: pageActionAnnotations,
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
        input: {
          secret: input.secret,
          ...(input.submit === true ? { submit: true } : {}),
          timeoutMs: input.timeoutMs,
          ...recordDialog(input.dialog)
        },
        target: withElement(recordTarget(target), result),
        textRedacted: true,
        verbatim: ["secret"]
      }
    }
    const text = input.text ?? ""
    // Only text the page itself showed to be harmless is kept; a failed call keeps nothing.
    const keep = Option.match(result, { onNone: () => false, onSome: (value) => value.sensitive !== true && !hinted })
    const filled = keep ? filledForm(text, Option.getOrUndefined(result)?.value) : undefined
    return {
      input: {
        text: keep ? text : REDACTED,
        // What a date, time, month or week input took for the text: the record's, for the export (not an argument of a replay).
        ...(filled !== undefined ? { filled } : {}),
        ...(input.param !== undefined ? { param: input.param } : {}),
        ...(input.submit === true ? { submit: true } : {}),
        timeoutMs: input.timeoutMs,
        ...recordDialog(input.dialog)
      },
      target: withElement(recordTarget(target), result),
      textRedacted: !keep
    }
  },
  replay: typeReplay,
  run: Effect.fn("tool.type")(function* (input) {
    const session = yield* Session
    const target = targetOf(input)
    const text = yield* textToType(input)
    const options = { timeoutMs: input.timeoutMs, dialog: input.dialog }
    const { sensitive, element, value } = yield* session.type(target, text, options)
    // Enter on the field itself, as a person submitting it would; its own step in nothing but this call.
    if (input.submit === true) yield* session.pressKey(target, "Enter", options)
    // A secret counts as sensitive wherever it goes.
    const secretOrSensitive = sensitive || input.secret !== undefined
    return {
      typed: true,
      ...(secretOrSensitive ? { sensitive: true } : value !== undefined ? { value } : {}),
      ...described(element)
    }
  })
})

/** A wait names an element, or the page's URL or load state, or both. */
const someWait = (input: {
  readonly a11yRef?: string | undefined
  readonly testId?: string | undefined
  readonly selector?: string | undefined
  readonly within?: unknown
  readonly url?: string | undefined
  readonly loadState?: string | undefined
}) =>
  input.url === undefined && input.loadState === undefined
    ? validateTarget(input)
    : optionalTarget(input)

/** A URL pattern: a glob, or "/regex/flags" that compiles. */
const UrlPattern = Schema.String.pipe(
  Schema.minLength(1),
  Schema.maxLength(2_000),
  Schema.filter((text) => (looksLikeRegex(text) && regexOf(text) === undefined ? "is not a valid /regex/flags" : true))
)

const WaitForInput = Schema.Struct({
  ...targetFields,
  state: Schema.optionalWith(Schema.Literal("visible", "hidden"), { default: () => "visible" as const }).annotations({
    description: "Default visible."
  }),
  url: Schema.optional(UrlPattern).annotations({ description: 'Page URL glob ("**/done") or "/regex/".' }),
  loadState: Schema.optional(Schema.Literal("load", "domcontentloaded", "networkidle")).annotations({ description: "Page load state.", [Evident]: true }),
  timeoutMs: timeoutField(100, 120_000, 15_000)
}).pipe(Schema.filter(someWait))

const hasElement = (input: { readonly a11yRef?: string | undefined; readonly testId?: string | undefined; readonly selector?: string | undefined }) =>
  input.a11yRef !== undefined || input.testId !== undefined || input.selector !== undefined

export const waitFor = defineTool({
  name: "wait_for",
  prior: {},
  title: "Wait for an element or the page",
  description: "Wait for an element (any match; visible/hidden), a URL or a load state.",
  input: WaitForInput,
  output: Schema.Struct({
    found: Schema.Boolean.annotations({ description: "True when the awaited state was reached." }),
    element: ElementField
  }),
  annotations: readAnnotations,
  ...elementTool,
  onDeadline: (input, timeoutMs) =>
    hasElement(input)
      ? waitDeadline(input, timeoutMs)
      : new WaitTimeout({ target: input.url !== undefined ? "the URL" : "the page", state: input.url ?? input.loadState ?? "load", timeoutMs }),
  record: (input, result) => {
    const page = { ...(input.url !== undefined ? { url: input.url } : {}), ...(input.loadState !== undefined ? { loadState: input.loadState } : {}) }
    return hasElement(input) ? recordAction(input, result, { state: input.state, ...page }) : { input: { ...page, timeoutMs: input.timeoutMs } }
  },
  // It only reads, but a replay must wait where the flow waited.
  replay: {
    mode: "step",
    awaitUrl: (pattern, timeoutMs) => ({ url: pattern, timeoutMs }),
    note: (args, target) =>
      [
        args.url !== undefined ? `Wait for the URL ${String(args.url)}` : undefined,
        args.loadState !== undefined ? `Wait for ${String(args.loadState)}` : undefined,
        target !== undefined ? `Wait until${at(target)} is ${String(args.state ?? "visible")}` : undefined
      ]
        .filter((part) => part !== undefined)
        .join(", then "),
    playwright: (args, context) => {
      const lines: Array<string> = []
      if (typeof args.url === "string") {
        const regex = regexOf(args.url)
        const wait = typeof args.loadState === "string" ? `, { waitUntil: ${JSON.stringify(args.loadState)} }` : ""
        lines.push(`await page.waitForURL(${regex !== undefined ? regex.toString() : JSON.stringify(args.url)}${wait})`)
      } else if (typeof args.loadState === "string") lines.push(`await page.waitForLoadState(${JSON.stringify(args.loadState)})`)
      if (context.locator !== undefined) {
        lines.push(args.state === "hidden" ? `await expect(${context.locator}).toBeHidden()` : `await expect(${context.locator}).toBeVisible()`)
      }
      return lines.length === 0 ? undefined : lines
    }
  },
  run: Effect.fn("tool.wait_for")(function* (input) {
    const session = yield* Session
    const started = Date.now()
    // The page's URL is not repeated here: the response's page field says where the page went.
    if (input.url !== undefined || input.loadState !== undefined) {
      yield* session.waitForPage({ url: input.url, loadState: input.loadState }, { timeoutMs: input.timeoutMs })
    }
    if (!hasElement(input)) return { found: true }
    const target = targetOf(input)
    // One time budget for the whole wait: the element gets what the page wait left.
    const left = Math.max(100, input.timeoutMs - (Date.now() - started))
    const { element } = yield* session.waitForAny(target, input.state, { timeoutMs: left })
    return { found: true, ...described(element) }
  })
})

const GetTextInput = targetInput({
  all: Schema.optional(Schema.Boolean).annotations({ description: "Every match.", [Evident]: true }),
  // A replay's check of what the recorded flow read (see docs/knowledge.md, "Reads become checks"): not listed.
  expected: Schema.optional(
    Schema.Union(Schema.String.pipe(Schema.maxLength(10_000)), Schema.Array(Schema.String.pipe(Schema.maxLength(10_000))).pipe(Schema.maxItems(100)))
  ).annotations({
    description: "Retry until the text (with all: the texts, in order) reads this, whitespace collapsed; else MM_ASSERTION_FAILED.",
    [Unlisted]: true
  }),
  contains: Schema.optional(Schema.Boolean).annotations({ description: "With expected: the text contains it.", [Unlisted]: true })
})

/** How many texts get_text reads with `all`, and how long each may be. */
export const GET_TEXT_ALL = { texts: 100, chars: 500 } as const

/** A text cut for `all`, after the secrets' values are out of it: a cut never shows part of one. */
const cutText = (text: string, secrets: SecretsService) => {
  const { kept, more } = redactThenCut(text, GET_TEXT_ALL.chars, secrets.redactText, secrets.reach)
  return more === 0 ? kept : `${kept}…[${more} more chars]`
}

interface TextRead {
  readonly text?: string
  readonly hidden?: string
  readonly texts?: ReadonlyArray<string>
  readonly more?: number
  readonly redacted?: boolean
}

/** How often a check of get_text reads again while the text is not yet the expected one. */
const READ_POLL_MS = [50, 100, 250, 500] as const

/** A get_text check (a replayed read) that did not read what the flow read: `actual` says what it found. */
const readCheckFailed = (input: typeof GetTextInput.Type, actual: string, timeoutMs: number) =>
  new AssertionFailed({
    condition: "text",
    target: describeTarget(targetOf(input)),
    expected: `${input.contains === true ? "to contain " : ""}${clip(JSON.stringify(input.expected))}`,
    actual,
    timeoutMs
  })

export const getText = defineTool({
  name: "get_text",
  title: "Read an element's text",
  description: "An element's text or a field's value (not passwords); with all, every match's.",
  input: GetTextInput,
  output: Schema.Struct({
    text: Schema.optional(Schema.String),
    texts: Schema.optional(Schema.Array(Schema.String)).annotations({
      description: `With all: the text of each match in page order (at most ${GET_TEXT_ALL.texts}, each cut at ${GET_TEXT_ALL.chars} characters).`
    }),
    more: Schema.optional(Schema.Number).annotations({ description: "With all: how many matches were left out." }),
    redacted: Schema.optional(Schema.Boolean).annotations({ description: "True when the field is a password field." }),
    hidden: Schema.optional(Schema.String).annotations({ description: "Nobody sees the element: how it is hidden (its text reads empty)." }),
    element: ElementField
  }),
  annotations: readAnnotations,
  concurrencySafe: true,
  ...elementTool,
  stepKinds: ["discovery"],
  observation: "none",
  onDeadline: (input, timeoutMs, seen) =>
    input.expected === undefined
      ? actionDeadline("get_text")(input, timeoutMs, seen)
      : readCheckFailed(input, "(the call was stopped at its deadline)", timeoutMs),
  // What it read is recorded (never a password, nor a field that looks secret), so a replay and an export can check it.
  record: (input, result, redact) => {
    const recorded = recordTargeted(input, input.all === true ? { all: true } : {})
    const target = withElement(recorded.target, result)
    const read = Option.match(result, {
      onNone: () => ({}),
      onSome: (value) =>
        value.redacted === true
          ? {}
          : value.texts !== undefined
            ? recordReads(value.texts, value.more ?? 0, target)
            : value.text !== undefined
              ? // Redacted before recordRead cuts a long text: a cut never keeps the beginning of a secret.
                recordRead(redact(value.text), target)
              : {}
    })
    return { input: { ...recorded.input, ...read }, target }
  },
  // What the flow read replays as a check of the same text, and exports as an expect(...) line.
  replay: {
    mode: "step",
    note: (args, target) =>
      args.read === undefined
        ? `Read${at(target)}`
        : `Check that${at(target)} ${args.readContains === true ? "contains" : "reads"} ${JSON.stringify(args.read).slice(0, 80)}`,
    args: (args) => {
      const { read, readContains, ...rest } = args
      if (read === undefined) return { skip: "read-only" }
      if (holdsSecret(JSON.stringify(read))) return { skip: "read-only (its text holds a secret: not checked)" }
      return { args: { ...rest, expected: read, ...(readContains === true ? { contains: true } : {}) } }
    },
    playwright: (args, context) =>
      context.locator === undefined || args.expected === undefined
        ? undefined
        : [readAssertion(context.locator, args.expected as string | ReadonlyArray<string>, args.contains === true, context.record.tool.target)]
  },
  run: Effect.fn("tool.get_text")(function* (input) {
    const session = yield* Session
    const secrets = Option.getOrElse(yield* Effect.serviceOption(Secrets), () => Secrets.none)
    const target = targetOf(input)
    const started = Date.now()
    // A check answers its own verdict before the call's deadline (which keeps a reserve for the record), or a batch's.
    const budgetMs =
      input.expected === undefined ? input.timeoutMs : yield* verdictWithin(Math.max(100, input.timeoutMs - Math.min(1_000, input.timeoutMs / 4)), VERDICT_RESERVE_MS)
    const plainRead = Effect.gen(function* () {
      const left = Math.max(100, budgetMs - (Date.now() - started))
      if (input.all === true) {
        const { texts, total } = yield* session.getTexts(target, { timeoutMs: left, limit: GET_TEXT_ALL.texts })
        return {
          texts: texts.map((text) => (text === null ? REDACTED : cutText(text.trim(), secrets))),
          ...(total > texts.length ? { more: total - texts.length } : {})
        }
      }
      const { text, hidden } = yield* session.getText(target, { timeoutMs: left })
      return text === null ? { text: REDACTED, redacted: true } : { text, ...(hidden !== undefined ? { hidden } : {}) }
    }).pipe(Effect.map((value): TextRead => value))
    // One element: what it is, for the record (its durable forms, and whether it is a field).
    const element = input.all === true ? undefined : yield* session.describe(target)
    const expected = input.expected
    if (expected === undefined) return { ...(yield* plainRead), ...described(element) }
    // A check: an element that never shows up reads nothing, which is not what the flow read.
    const missing = (error: { readonly message: string }) => Effect.fail(readCheckFailed(input, `no element (${clipMessage(error.message, 380)})`, input.timeoutMs))
    const read = plainRead.pipe(Effect.catchTags({ ActionTimeout: missing, TargetNotFound: missing }))
    let result = yield* read
    const readOf = (value: TextRead) => value.texts ?? value.text ?? ""
    for (let attempt = 0; !readMatches(expected, input.contains === true, readOf(result)); attempt++) {
      const left = budgetMs - (Date.now() - started)
      if (left <= 0) {
        const actual = readOf(result)
        return yield* readCheckFailed(
          input,
          clip(JSON.stringify(typeof actual === "string" ? collapseWhitespace(actual) : actual.map(collapseWhitespace))),
          input.timeoutMs
        )
      }
      yield* Effect.sleep(Math.min(left, READ_POLL_MS[Math.min(attempt, READ_POLL_MS.length - 1)]!))
      result = yield* read
    }
    return { ...result, ...described(element) }
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
  prior: { fits: "keys" },
  title: "Press a key",
  description: "Press a key on an element or the focused one (Enter submits).",
  input: PressKeyInput,
  output: Schema.Struct({
    pressed: Schema.Boolean,
    sensitive: Schema.optional(Schema.Boolean).annotations({
      description: "True when the focused element looks secret: a character pressed there is not stored."
    }),
    element: ElementField
  }),
  annotations: pageActionAnnotations,
  ...elementTool,
  record: (input, result) => {
    const secret = Option.match(result, { onNone: () => true, onSome: (value) => value.sensitive === true })
    return {
      input: { key: secret && typesACharacter(input.key) ? REDACTED : input.key, timeoutMs: input.timeoutMs, ...recordDialog(input.dialog) },
      ...(hasTarget(input) ? { target: withElement(recordTarget(targetOf(input)), result) } : {})
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
    const element = target === undefined ? undefined : yield* session.describe(target)
    const { sensitive } = yield* session.pressKey(target, input.key, { timeoutMs: input.timeoutMs, dialog: input.dialog })
    return { pressed: true, ...(sensitive ? { sensitive } : {}), ...described(element) }
  })
})

const SelectOptionInput = targetInput({
  values: Schema.Array(Schema.String)
    .pipe(Schema.minItems(1), Schema.maxItems(100))
    .annotations({ description: "Values or labels." }),
  dialog: DialogField
})

export const selectOption = defineTool({
  name: "select_option",
  prior: {},
  title: "Select options",
  description: "Select options in a <select> (others deselected), listbox or combobox.",
  input: SelectOptionInput,
  output: Schema.Struct({
    selected: Schema.Array(Schema.String).annotations({ description: "Values of the options selected now." }),
    via: Schema.optional(Schema.Literal("select", "listbox")).annotations({ description: "Not the target: its option's select, or a listbox." }),
    typed: Schema.optional(Schema.Literal(true)).annotations({ description: "Typed into the combobox to open or filter it." }),
    element: ElementField
  }),
  annotations: pageActionAnnotations,
  ...elementTool,
  onDeadline: actionDeadline("select_option"),
  record: (input, result) => recordAction(input, result, { values: input.values, ...chosenInWidget(result) }),
  replay: selectReplay,
  run: Effect.fn("tool.select_option")(function* (input) {
    const session = yield* Session
    const target = targetOf(input)
    const element = yield* session.describe(target)
    const { selected, via, typed } = yield* session.selectOption(target, input.values, { timeoutMs: input.timeoutMs, dialog: input.dialog })
    return { selected, ...(via !== undefined ? { via } : {}), ...(typed ? { typed } : {}), ...described(element) }
  })
})

const HoverInput = targetInput({ dialog: DialogField })

export const hover = defineTool({
  name: "hover",
  prior: {},
  title: "Hover over an element",
  description: "Hover an element, for menus and tooltips.",
  input: HoverInput,
  output: Schema.Struct({ hovered: Schema.Boolean, element: ElementField }),
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
  ...elementTool,
  onDeadline: actionDeadline("hover"),
  record: (input, result) => recordAction(input, result),
  replay: {
    note: (_args, target) => `Hover over${at(target)}`,
    playwright: onLocator((locator) => `await ${locator}.hover()`)
  },
  run: Effect.fn("tool.hover")(function* (input) {
    const session = yield* Session
    const target = targetOf(input)
    const element = yield* session.describe(target)
    yield* session.hover(target, { timeoutMs: input.timeoutMs, dialog: input.dialog })
    return { hovered: true, ...described(element) }
  })
})
