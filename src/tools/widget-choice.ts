// select_option's record and export of a choice made in an ARIA widget (a listbox, a custom combobox):
// Playwright's selectOption takes a <select> only ("Element is not a <select> element"), so the export
// writes the steps a person takes instead, from what the recorded call found (its `widget` record field).
import { Option } from "effect"
import type { Replay } from "../domain/replay.js"
import { at } from "./shared.js"

/**
 * A choice made in an ARIA widget (via "listbox"), as its record keeps it: the options' names and whether
 * the combobox was typed into. Playwright's selectOption takes a <select> only, so an export clicks these.
 */
export interface WidgetChoice {
  readonly names: ReadonlyArray<string>
  readonly typed?: true
}

export const chosenInWidget = (result: Option.Option<{ readonly selected: ReadonlyArray<string>; readonly via?: string | undefined; readonly typed?: true | undefined }>) => {
  const value = Option.getOrUndefined(result)
  return value?.via === "listbox" ? { widget: { names: value.selected, ...(value.typed ? { typed: true } : {}) } satisfies WidgetChoice } : {}
}

const widgetOf = (recorded: unknown): WidgetChoice | undefined => {
  if (typeof recorded !== "object" || recorded === null) return undefined
  const { names, typed } = recorded as { readonly names?: unknown; readonly typed?: unknown }
  if (!Array.isArray(names) || names.length === 0 || !names.every((name): name is string => typeof name === "string")) return undefined
  return { names, ...(typed === true ? { typed: true } : {}) }
}

/**
 * A widget choice as a person makes it in Playwright: a listbox's options clicked in it; a combobox opened
 * (clicked, or filled with the option's name when it was typed into), then each option clicked by its role
 * and exact name, found in the page (or the iframe) the target is in: the popup is often elsewhere in it.
 */
const widgetLines = (locator: string, widget: WidgetChoice, role: string | undefined): ReadonlyArray<string> => {
  const option = (name: string) => `getByRole("option", { name: ${JSON.stringify(name)}, exact: true })`
  if (role === "listbox") return widget.names.map((name) => `await ${locator}.${option(name)}.click()`)
  const frame = locator.lastIndexOf(".contentFrame()")
  const root = frame === -1 ? "page" : locator.slice(0, frame + ".contentFrame()".length)
  if (role === "option") return widget.names.map((name) => `await ${root}.${option(name)}.click()`)
  if (widget.typed) return widget.names.flatMap((name) => [`await ${locator}.fill(${JSON.stringify(name)})`, `await ${root}.${option(name)}.click()`])
  return [`await ${locator}.click()`, ...widget.names.map((name) => `await ${root}.${option(name)}.click()`)]
}

/** How a select_option call replays: its values again; exported as Playwright's selectOption on a <select>, else as widgetLines. */
export const selectReplay: Replay = {
  note: (args, target) => `Select ${JSON.stringify(args.values ?? [])} in${at(target)}`,
  // What the recorded call found the target to be is the record's (`widget`), not an argument of a replay.
  args: ({ widget: _widget, ...args }) => ({ args }),
  playwright: (args, context) => {
    if (context.locator === undefined || !Array.isArray(args.values)) return undefined
    const widget = widgetOf(context.record.tool.input.widget)
    if (widget === undefined) return [`await ${context.locator}.selectOption(${JSON.stringify(args.values)})`]
    const target = context.record.tool.target
    return widgetLines(context.locator, widget, target?.element?.role ?? target?.a11yHint?.role)
  }
}
