// mm_type's replay and export, with the text a date, time, datetime-local, month or week input holds in its
// own form: the session converts "04/20/2025" to the "2025-04-20" such an input takes (the adapter's
// page/field-values.ts), and Playwright's fill of the text as written leaves the input empty, so the record
// keeps the form the input took (its `filled` field) and the export fills that.
import type { Replay } from "../domain/replay.js"
import { SECRET_NAME } from "../domain/secrets.js"
import { at } from "./shared.js"

/** The forms a date, time, datetime-local, month or week input holds its value in. */
const FIXED_FORM = /^(?:\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?)?|\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?|\d{4}-\d{2}|\d{4}-W\d{2})$/

/** What a fixed-form input took for the text, when the session put in another form than the text (its answer's `value`). */
export const filledForm = (text: string, value: string | undefined): string | undefined =>
  value !== undefined && value !== text && FIXED_FORM.test(value) ? value : undefined

/**
 * The exported fill's argument: the input's form of the recorded text when the session converted it; a
 * param's variable, when set, is filled as it is (in the input's form, e.g. 2025-04-20).
 */
const exportedText = (text: string, filled: unknown, expression: (value: string, recordedAs?: string) => string): string =>
  expression(text, typeof filled === "string" && FIXED_FORM.test(filled) ? filled : undefined)

export const typeReplay: Replay = {
  note: (args, target, step) =>
    typeof args.secret === "string"
      ? `Type the secret ${args.secret} into${at(target)}`
      : step.tool.textRedacted === true ? `Type a secret into${at(target)}` : `Type into${at(target)}`,
  // The input's form of the text is the record's: a replay types the text again, and the session converts it again.
  args: ({ filled: _filled, ...args }) => ({ args }),
  playwright: (args, context) =>
    context.locator === undefined
      ? undefined
      : [
          `await ${context.locator}.fill(${
            // A secret comes from the environment variable of its name, as --secrets holds it.
            typeof args.secret === "string" && SECRET_NAME.test(args.secret)
              ? context.env(args.secret)
              : exportedText(String(args.text ?? ""), context.record.tool.input.filled, context.text)
          })`,
          ...(args.submit === true ? [`await ${context.locator}.press("Enter")`] : [])
        ]
}
