// select_option on ARIA widgets, which Playwright's selectOption refuses: a role=listbox (or one of its
// options), a custom combobox or a button that pops up a listbox. The popup is opened when it is closed
// (a click on the combobox, else Alt+ArrowDown, else ArrowDown, else, for an editable one, typing the value's start: an autocomplete), the option is found by its accessible name (exactly, else
// case and spacing aside, else by its own label when the name adds its state ("Not Selected, Mint"), else by its value; typed into the combobox's filter when it is not shown), and
// clicked (a visually hidden option through the element its popup shows it as). Success only once the widget showed the choice (page/choose.ts reads it before and after).
import { Effect } from "effect"
import type { ElementHandle, JSHandle, Locator, Page } from "playwright"
import { ActionFailed, InvalidInput, PageClosed } from "../../../domain/errors.js"
import { firstLine } from "../calls.js"
import { PAGE } from "../page-bundle.js"
import { elementFunction } from "../page-script.js"
import type { ChoiceSeen, ChoiceWidget, OptionMatch } from "../page/choose.js"
import { pageSaid, settleReaction, startReaction } from "./reaction.js"
import { clickedFor } from "./readiness.js"

/** How many option names a failure lists; how long a click may take; how long a popup or a filter may take to show. */
const LISTED = 10
const CLICK_MS = 5_000
const SHOW_MS = 2_500
const POLL_MS = 50

const widgetOf = elementFunction<{ mark: boolean }, ChoiceWidget>(PAGE.choiceWidget)
const optionIn = elementFunction<{ value: string; limit: number }, OptionMatch>(PAGE.choiceOption)
const seenOf = elementFunction<{ owner: Node | null; option: Node | null; name: string; listbox: Node | null }, ChoiceSeen>(PAGE.choiceSeen)

/** A failure whose words are final. */
class ChoiceFailed extends Error {}
/** Values that name several options. */
class Ambiguous extends Error {}

interface Widget {
  readonly owner: ElementHandle | null
  /** The listboxes it shows, the likeliest popup first; `listbox` is the first. */
  readonly listboxes: ReadonlyArray<ElementHandle>
  readonly listbox: ElementHandle | null
  readonly multiple: boolean
  readonly filter: ElementHandle | null
  readonly editable: boolean
}

const elementIn = async (handle: JSHandle, key: string) => (await handle.getProperty(key)).asElement()

const widget = async (target: Locator, mark: boolean): Promise<Widget> => {
  const handle = await target.evaluateHandle(widgetOf, { mark }, { timeout: 1_000 })
  const listboxes: Array<ElementHandle> = []
  for (const entry of (await (await handle.getProperty("listboxes")).getProperties()).values()) {
    const element = entry.asElement()
    if (element !== null) listboxes.push(element)
  }
  const found = {
    owner: await elementIn(handle, "owner"),
    listboxes,
    listbox: listboxes[0] ?? null,
    multiple: (await (await handle.getProperty("multiple")).jsonValue()) === true,
    filter: await elementIn(handle, "filter"),
    editable: (await (await handle.getProperty("editable")).jsonValue()) === true
  }
  await handle.dispose()
  return found
}

const quote = (names: ReadonlyArray<string>) => names.map((name) => JSON.stringify(name.length > 40 ? `${name.slice(0, 39)}…` : name)).join(", ")
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Clicks `element` where a person would: through the control its component draws over it (Element Plus's placeholder over a multiple select's input), its label or its host. */
const click = async (element: ElementHandle, until: number, what: string) => {
  const through = await clickedFor(element)
  await (through ?? element).click({ timeout: Math.max(1, Math.min(CLICK_MS, until - Date.now())) }).catch((cause: unknown) => {
    throw new ChoiceFailed(`could not click ${what}: ${firstLine(cause)}`)
  })
}

/**
 * The keys that open a combobox's popup from the keyboard, tried in turn half a second apart when a click
 * did not open it: Alt+ArrowDown (the ARIA pattern's, which shows the popup without changing the value),
 * then ArrowDown (which some widgets take to move to the first option).
 */
const OPEN_KEYS = ["Alt+ArrowDown", "ArrowDown"]
const KEY_AFTER_MS = 500

/** Whether a listbox found before is still in the page and drawn. */
const stillShown = (listbox: ElementHandle) =>
  listbox.evaluate((box) => box.isConnected && (box as Element).getClientRects().length > 0).catch(() => false)

/** The start of a value a person types into an autocomplete to open its popup: its first three characters (all of a shorter one). */
const TYPED_START = 3

/** Types `text` into the combobox itself, replacing what it held, as a person does into an autocomplete. */
const typeInto = async (page: Page, owner: ElementHandle, text: string) => {
  await owner.fill("", { timeout: 1_000 }).catch(() => undefined)
  await owner.focus().catch(() => undefined)
  await page.keyboard.type(text)
}

/**
 * The widget with its listbox shown: opened by a click on its combobox (then the keys that open it) when
 * closed; an editable combobox none of those opened (an autocomplete that opens on typing) has the start
 * of `value` typed into it (`typed`), and its popup is waited for past its debounce. `before`: the widget
 * as the previous value found it; a popup it found by its appearing (nothing names it) that stayed open
 * for the next value is that value's popup too.
 */
const opened = async (page: Page, target: Locator, value: string, until: number, before?: Widget): Promise<Widget & { readonly typed?: string }> => {
  const now = await widget(target, true)
  if (now.listbox !== null || now.owner === null) return now
  if (before?.listbox != null && (await stillShown(before.listbox))) return { ...now, listboxes: before.listboxes, listbox: before.listbox, multiple: before.multiple }
  await click(now.owner, until, "the combobox to open it")
  let keyed = 0
  let typed: string | undefined
  let end = Math.min(until, Date.now() + SHOW_MS)
  for (const started = Date.now(); Date.now() < end; await sleep(POLL_MS)) {
    const after = await widget(target, false)
    if (after.listbox !== null) return typed === undefined ? after : { ...after, typed }
    const waited = Date.now() - started
    // A combobox that opens from the keyboard only: the keys a person presses.
    if (keyed < OPEN_KEYS.length && waited > KEY_AFTER_MS * (keyed + 1)) {
      await now.owner.press(OPEN_KEYS[keyed]!, { timeout: 1_000 }).catch(() => undefined)
      keyed++
    } else if (keyed === OPEN_KEYS.length && typed === undefined && now.editable && value.trim() !== "" && waited > KEY_AFTER_MS * (keyed + 1)) {
      // An autocomplete: its popup opens (filtered, often after a debounce) once something is typed.
      typed = value.trim().slice(0, TYPED_START)
      await typeInto(page, now.owner, typed)
      end = Math.min(until, Date.now() + SHOW_MS)
    }
  }
  throw new ChoiceFailed(
    typed === undefined
      ? `its popup did not open: clicking the combobox (and ${OPEN_KEYS.join(", then ")}) showed no listbox`
      : `no option showed: clicking the combobox (and ${OPEN_KEYS.join(", then ")}) opened no listbox, and typing ${JSON.stringify(typed)} into it showed none, so no option may start with ${JSON.stringify(typed)} (mm_type a shorter start into it and read the options it shows)`
  )
}

/** The option `value` names in the widget's listbox, typing it into the widget's filter field when it is not there. */
const optionFor = async (page: Page, target: Locator, widgetNow: Widget & { readonly typed?: string }, value: string, until: number) => {
  let current = widgetNow
  // In the first listbox that has it, else as the first one answers (its options listed).
  const look = async (listboxes: ReadonlyArray<ElementHandle>) => {
    let answer: { match: Omit<OptionMatch, "option" | "click">; option: ElementHandle | null; click: ElementHandle | null; listbox: ElementHandle } | undefined
    for (const listbox of listboxes) {
      const handle = await listbox.evaluateHandle(optionIn, { value, limit: LISTED })
      const found = {
        match: (await handle.jsonValue()) as Omit<OptionMatch, "option" | "click">,
        option: await elementIn(handle, "option"),
        click: await elementIn(handle, "click"),
        listbox
      }
      if (found.option !== null || found.match.ambiguous.length > 0) return found
      answer ??= found
    }
    return answer!
  }
  const first = await look(current.listboxes)
  let found = first
  if (found.option === null && found.match.ambiguous.length === 0 && current.filter !== null) {
    // Not among the options shown: typed into the filter, as a person narrows a long list.
    await current.filter.fill("").catch(() => undefined)
    await current.filter.focus().catch(() => undefined)
    await page.keyboard.type(value)
    for (const started = Date.now(); Date.now() < Math.min(until, started + SHOW_MS); await sleep(POLL_MS)) {
      current = await widget(target, false)
      if (current.listbox === null) continue
      found = await look(current.listboxes)
      if (found.option !== null || found.match.ambiguous.length > 0) break
    }
    if (found.option === null && found.match.ambiguous.length === 0) {
      throw new ChoiceFailed(`no option is named ${JSON.stringify(value)}, even once typed into its filter; the options were ${quote(first.match.names)}${first.match.total > first.match.names.length ? `, ... (${first.match.total} in all)` : ""}`)
    }
  }
  if (found.match.ambiguous.length > 0) throw new Ambiguous(`${JSON.stringify(value)} names ${found.match.ambiguous.length > 1 && new Set(found.match.ambiguous).size === 1 ? "several options" : "more than one option"}: ${quote(found.match.ambiguous)}; give one option's exact name`)
  if (found.option === null) {
    const { names, total } = found.match
    throw new ChoiceFailed(`no option is named ${JSON.stringify(value)}; the options are ${quote(names) || "none"}${total > names.length ? `, ... (${total} in all)` : ""}`)
  }
  if (found.match.disabled) throw new ChoiceFailed(`the option ${JSON.stringify(found.match.name)} is disabled`)
  return { widget: current, listbox: found.listbox, option: found.option, click: found.click ?? found.option, name: found.match.name, typed: widgetNow.typed !== undefined || (current.filter !== null && first.option === null) }
}

const seen = (owner: ElementHandle | null, option: ElementHandle, name: string, listbox: ElementHandle | null) =>
  option.evaluate(seenOf, { owner, option, name, listbox }).catch((): ChoiceSeen | undefined => undefined)

/**
 * Whether the widget shows the choice now that it did not before: the option marked chosen, its name
 * once more around the combobox, the value of the native select or hidden input behind the widget, or
 * an editable combobox holding the name once its popup closed. An option shown as chosen before the
 * click (nothing typed) stays chosen.
 */
const showsChoice = (before: ChoiceSeen | undefined, after: ChoiceSeen | undefined, name: string, typed: boolean): boolean => {
  if (after === undefined) return false
  // Some widgets mark the option under the pointer aria-selected: with a combobox, its text must change too.
  if (after.marked && before?.marked !== true && (before === undefined || after.text === "" || after.text !== before.text)) return true
  if (after.count > (before?.count ?? 0)) return true
  const wanted = name.replace(/\s+/g, " ").trim().toLowerCase()
  if (after.backing.includes(wanted) && before?.backing.includes(wanted) !== true) return true
  const holds = after.ownerValue !== null && after.ownerValue.replace(/\s+/g, " ").trim().toLowerCase() === wanted
  if (holds && (!after.open || (before?.ownerValue ?? "").trim().toLowerCase() !== wanted)) return true
  return !typed && before !== undefined && (before.marked || before.ownerShows) && (after.marked || after.ownerShows)
}

/** Chooses each value in the widget `target` belongs to, within `budgetMs`: the chosen options' names, and whether the combobox was typed into. */
const choose = async (page: Page, target: Locator, values: ReadonlyArray<string>, budgetMs: number): Promise<{ readonly names: ReadonlyArray<string>; readonly typed: boolean }> => {
  const until = Date.now() + budgetMs
  const names: Array<string> = []
  const chosen: Array<{ readonly option: ElementHandle; readonly name: string; readonly listbox: ElementHandle | null }> = []
  let owner: ElementHandle | null = null
  let previous: Widget | undefined
  let typedAny = false
  for (const value of values) {
    const now = await opened(page, target, value, until, previous)
    previous = now
    if (now.listbox === null) throw new ChoiceFailed("it is not a listbox, an option of one, or a combobox")
    owner = now.owner
    if (values.length > 1 && now.owner === null && !now.multiple) throw new ChoiceFailed(`the listbox takes one option (no aria-multiselectable), and ${values.length} were given`)
    const { widget: shownNow, listbox, option, click: clickable, name, typed } = await optionFor(page, target, now, value, until)
    const before = await seen(shownNow.owner, option, name, listbox)
    names.push(name)
    // Typed into the combobox itself (not a search field in its popup): what a replay of the choice must do too.
    if (typed && shownNow.editable) typedAny = true
    // In a listbox that keeps several, a click on an option already chosen would take it away.
    if (shownNow.multiple && before?.marked === true) continue
    const started = await startReaction(target)
    // A visually hidden option (kept for assistive technology) through what the popup shows for it.
    await click(clickable, until, `the option ${JSON.stringify(name)}`)
    const settled = await settleReaction(page, target, started, until - Date.now())
    const after = await seen(shownNow.owner, option, name, listbox)
    if (!showsChoice(before, after, name, typed)) {
      throw new ChoiceFailed(`the option ${JSON.stringify(name)} was clicked, but the widget did not show it chosen (neither marked selected nor shown in the ${shownNow.owner !== null ? "combobox" : "listbox"})${pageSaid(settled)}`)
    }
    chosen.push({ option, name, listbox })
  }
  // Several values in a widget that keeps one: the last replaced the others.
  for (const { option, name, listbox } of chosen.slice(0, -1)) {
    const still = await seen(owner, option, name, listbox)
    if (still !== undefined && !still.marked && still.count === 0 && !still.ownerShows && !still.backing.includes(name.toLowerCase())) {
      throw new ChoiceFailed(`choosing ${JSON.stringify(names.at(-1))} replaced ${JSON.stringify(name)}: the widget keeps one option`)
    }
  }
  return { names, typed: typedAny }
}

/** select_option on an ARIA listbox, one of its options, or a custom combobox: the chosen options' names, once seen chosen (see choose). */
export const chooseInWidget = (page: Page, target: Locator, described: string, values: ReadonlyArray<string>, budgetMs: number) =>
  Effect.tryPromise({
    try: () => choose(page, target, values, budgetMs),
    catch: (cause) =>
      page.isClosed()
        ? new PageClosed({ detail: "the page closed while an option was chosen", during: "select_option" })
        : cause instanceof Ambiguous
          ? new InvalidInput({ field: "values", problem: cause.message })
          : new ActionFailed({ action: "select_option", target: described, detail: cause instanceof ChoiceFailed ? cause.message : firstLine(cause) })
  })
