// select_option on ARIA widgets, the page's side (session/choose.ts drives it): which combobox and listbox
// a target belongs to, the option of a listbox a value names (by accessible name, or by its own label when
// the name adds the option's state as in "Not Selected, Mint"; never by any other part of it),
// and what the widget shows of a choice, read before and after the click so that only a change counts.
import { idRefs, parentOf } from "./dom.js"
import { makeAria, type Aria } from "./aria.js"
import { normalize } from "./text.js"

/** The parts of a choice widget: its combobox or trigger (null for a bare listbox) and the listbox it shows now. */
export interface ChoiceWidget {
  readonly owner: Element | null
  /** The listboxes it shows now, the likeliest popup first. */
  readonly listboxes: ReadonlyArray<Element>
  /** The listbox keeps several options (aria-multiselectable). */
  readonly multiple: boolean
  /** The field a person types in to filter: the combobox itself when editable (`editable`), else the focused text field in the popup. */
  readonly filter: Element | null
  /** The combobox takes typing (a text field or contenteditable): typed into, its popup may open (an autocomplete). */
  readonly editable: boolean
}

const LISTBOXES = Symbol.for("browser-workflow-mcp/choose-listboxes")

const roleIs = (aria: Aria, element: Element, role: string) => aria.roleOf(element) === role

const shown = (aria: Aria, element: Element): boolean => {
  if (element.getClientRects().length === 0 || aria.hidden(element)) return false
  return aria.styleOf(element)?.visibility !== "hidden"
}

/** Every element of the document and its open shadow roots that matches `selector`. */
const deepQuery = (selector: string): Array<Element> => {
  const found: Array<Element> = []
  const visit = (root: Document | ShadowRoot) => {
    found.push(...Array.from(root.querySelectorAll(selector)))
    for (const element of Array.from(root.querySelectorAll("*"))) if (element.shadowRoot) visit(element.shadowRoot)
  }
  visit(document)
  return found
}

const shownListboxes = (aria: Aria) => deepQuery("[role~=listbox]").filter((box) => roleIs(aria, box, "listbox") && shown(aria, box))

/**
 * The listboxes with options an owner controls (aria-controls, aria-owns) or holds, shown: the ones it
 * names first, then the ones it holds, most options first (a box of chosen chips can be a listbox too).
 */
const controlledListboxes = (aria: Aria, owner: Element): Array<Element> => {
  const withOptions = (elements: Array<Element>) =>
    elements
      .flatMap((element) => (roleIs(aria, element, "listbox") ? [element] : Array.from(element.querySelectorAll("[role~=listbox]"))))
      .filter((box) => roleIs(aria, box, "listbox") && shown(aria, box))
      .map((box) => ({ box, options: optionsOf(aria, box).length }))
      .filter((entry) => entry.options > 0)
  const named = withOptions([...idRefs(owner, owner.getAttribute("aria-controls")), ...idRefs(owner, owner.getAttribute("aria-owns"))])
  const held = withOptions([owner]).sort((a, b) => b.options - a.options)
  return [...new Set([...named, ...held].map((entry) => entry.box))]
}

/** The combobox or popup button whose aria-controls or aria-owns names the listbox, if any. */
const ownerOfListbox = (listbox: Element): Element | null => {
  if (listbox.id === "") return null
  const id = CSS.escape(listbox.id)
  return (listbox.getRootNode() as Document | ShadowRoot).querySelector(`[aria-controls~="${id}"], [aria-owns~="${id}"]`)
}

/** The nearest element around `element` (across shadow roots and slots) with the role, itself included. */
const around = (aria: Aria, element: Element, role: string): Element | null => {
  for (let node: Element | null = element; node !== null; node = node.assignedSlot ?? parentOf(node)) {
    if (roleIs(aria, node, role)) return node
  }
  return null
}

/** A popup's trigger: a combobox, or a button that pops up a listbox or says only that it pops something up ("true", a picker's). */
const TRIGGERS = "[role~=combobox], [aria-haspopup=listbox], [aria-haspopup=true]"
const isOwner = (aria: Aria, element: Element) =>
  roleIs(aria, element, "combobox") || element.getAttribute("aria-haspopup") === "listbox" || element.getAttribute("aria-haspopup") === "true"

const isTextField = (element: Element | null): element is HTMLInputElement | HTMLTextAreaElement =>
  (element instanceof HTMLInputElement && /^(text|search|)$/.test(element.type) && !element.readOnly && !element.disabled) ||
  (element instanceof HTMLTextAreaElement && !element.readOnly && !element.disabled)

const focused = (): Element | null => {
  let active = document.activeElement
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement
  return active
}

/**
 * The widget a select_option target is part of. `mark`: remember the listboxes shown now, so that one
 * that appears later (a popup with no aria-controls) is told from them.
 */
export const choiceWidget = (target: Element, arg: { readonly mark: boolean }): ChoiceWidget => {
  const aria = makeAria()
  let owner: Element | null = null
  let listbox: Element | null = null
  let listboxes: Array<Element> = []
  if (roleIs(aria, target, "option")) listbox = around(aria, target, "listbox")
  else if (roleIs(aria, target, "listbox")) listbox = target
  else if (isOwner(aria, target)) owner = target
  // A field inside a combobox (its search input), or a component's host or wrapper holding one.
  else owner = around(aria, target, "combobox") ?? (target.shadowRoot ?? target).querySelector(TRIGGERS)
  if (listbox !== null) {
    owner = ownerOfListbox(listbox)
    listboxes = [listbox]
  }
  const windowed = window as unknown as Record<symbol, WeakSet<Element> | undefined>
  if (arg.mark) windowed[LISTBOXES] = new WeakSet(shownListboxes(aria))
  if (listbox === null && owner !== null) {
    listboxes = controlledListboxes(aria, owner)
    const before = windowed[LISTBOXES]
    if (listboxes.length === 0 && before !== undefined && !arg.mark) {
      const fresh = shownListboxes(aria).filter((box) => !before.has(box) && optionsOf(aria, box).length > 0)
      if (fresh.length === 1) listboxes = fresh
    }
  }
  const active = focused()
  const editable = isTextField(owner) || (owner instanceof HTMLElement && owner.isContentEditable)
  const filter = editable ? owner : isTextField(active) && active !== target && shown(aria, active) ? active : null
  return { owner, listboxes, multiple: listboxes[0]?.getAttribute("aria-multiselectable") === "true", filter, editable }
}

/** What a value names in a listbox: the option, several (ambiguous), or none; with the options' names, capped. */
export interface OptionMatch {
  readonly option: Element | null
  /** What a person clicks for the option: itself, or the element the popup shows it as when it is visually hidden (optionShownAs). */
  readonly click: Element | null
  readonly name: string
  readonly disabled: boolean
  /** The names of the options it could be, when more than one option fits at the best level. */
  readonly ambiguous: ReadonlyArray<string>
  readonly names: ReadonlyArray<string>
  readonly total: number
}

/** The options of a listbox, down through shadow roots and slots, that assistive technology sees. */
const optionsOf = (aria: Aria, listbox: Element): Array<Element> => {
  const options: Array<Element> = []
  const visit = (element: Element) => {
    if (aria.hidden(element)) return
    if (roleIs(aria, element, "option")) return void options.push(element)
    const children =
      element instanceof HTMLSlotElement ? element.assignedElements({ flatten: true }) : Array.from((element.shadowRoot ?? element).children)
    for (const child of children) visit(child)
  }
  visit(listbox)
  for (const owned of idRefs(listbox, listbox.getAttribute("aria-owns"))) visit(owned)
  return options
}

const loose = (text: string) => text.replace(/\s+/g, " ").trim().toLowerCase()

/** A part of an option's name that says its state, not what it is ("Not Selected", "checked", "unchecked", "off"). */
const STATE_WORDS = /^(?:(?:not|un)\s*)?(?:selected|checked|chosen|ticked|pressed|expanded|collapsed|on|off)$/i

/**
 * An option's own label: its name without the state a widget announces before or after it, set off by
 * a comma ("Not Selected, Mint", "Mint, checked" → "Mint"); the name itself when it has no such part.
 */
const withoutState = (name: string): string => {
  const parts = name.split(",").map((part) => part.trim())
  while (parts.length > 1 && STATE_WORDS.test(parts[0]!)) parts.shift()
  while (parts.length > 1 && STATE_WORDS.test(parts.at(-1)!)) parts.pop()
  return parts.join(", ")
}

/** The option's name says it is chosen: a state part (withoutState) reads "Selected", "checked" (never "Not Selected", "unchecked"). */
const namedChosen = (name: string): boolean => {
  const parts = name.split(",").map((part) => part.trim())
  const label = withoutState(name)
  return label !== name && parts.some((part) => /^(?:selected|checked|chosen|ticked)$/i.test(part))
}

/**
 * The option named `arg.value`: exactly, else case and spacing aside, else by its own label when its name
 * adds its state (withoutState), else by its value attribute. Several options at the first level that has
 * any: ambiguous, never one of them. An option found by its own label answers with that label as its name.
 */
export const choiceOption = (listbox: Element, arg: { readonly value: string; readonly limit: number }): OptionMatch => {
  const aria = makeAria()
  const options = optionsOf(aria, listbox)
  // label: what the choice is called once found (the name, or the own label of withoutState's level).
  const named = options.map((option) => ({ option, name: aria.nameOf(option, "option"), label: "" }))
  const valueOf = (option: Element) => option.getAttribute("data-value") ?? option.getAttribute("value")
  const wanted = loose(arg.value)
  const levels = [
    named.filter((entry) => entry.name === normalize(arg.value)),
    named.filter((entry) => loose(entry.name) === wanted),
    named.filter((entry) => wanted !== "" && loose(withoutState(entry.name)) === wanted).map((entry) => ({ ...entry, label: withoutState(entry.name) })),
    named.filter((entry) => valueOf(entry.option) === arg.value)
  ]
  const names = named.slice(0, arg.limit).map((entry) => entry.name)
  for (const level of levels) {
    if (level.length > 1) return { option: null, click: null, name: "", disabled: false, ambiguous: level.slice(0, arg.limit).map((entry) => entry.name), names, total: named.length }
    const [hit] = level
    if (hit !== undefined) {
      const disabled = hit.option.getAttribute("aria-disabled") === "true" || hit.option.hasAttribute("disabled")
      const name = hit.label || hit.name
      return { option: hit.option, click: optionShownAs(aria, hit.option, listbox, name), name, disabled, ambiguous: [], names, total: named.length }
    }
  }
  return { option: null, click: null, name: "", disabled: false, ambiguous: [], names, total: named.length }
}

/** Whether the element has no box to click: no size, or inside a box of (almost) no size that clips it (a visually hidden region). */
const visuallyHidden = (aria: Aria, element: Element, listbox: Element): boolean => {
  const tiny = (node: Element) => {
    const rect = node.getBoundingClientRect()
    return rect.width < 2 || rect.height < 2
  }
  if (tiny(element)) return true
  for (let node = parentOf(element); node !== null && node !== parentOf(listbox); node = parentOf(node)) {
    const style = aria.styleOf(node)
    if (style !== null && style !== undefined && (style.overflowX !== "visible" || style.overflowY !== "visible") && tiny(node)) return true
  }
  return false
}

/**
 * What a person clicks for an option: the option itself, unless it is visually hidden (a listbox kept
 * for assistive technology only, beside the list the popup draws without roles): then the one element
 * near the listbox (in it parent, up to four levels, never the whole page) shown with the option's name
 * as all its text, the innermost of those; the option when there is none or more than one.
 */
const optionShownAs = (aria: Aria, option: Element, listbox: Element, name: string): Element => {
  if (!visuallyHidden(aria, option, listbox)) return option
  const wanted = loose(name)
  if (wanted === "") return option
  const reads = (element: Element) => loose(element.textContent ?? "") === wanted
  let scope = parentOf(listbox)
  for (let level = 0; level < 4 && scope !== null && !/^(body|html)$/.test(scope.localName); level++, scope = parentOf(scope)) {
    const hits = Array.from(scope.querySelectorAll("*")).filter(
      (element) =>
        !listbox.contains(element) &&
        reads(element) &&
        !Array.from(element.children).some(reads) &&
        shown(aria, element) &&
        !visuallyHidden(aria, element, element)
    )
    if (hits.length === 1) return hits[0]!
    if (hits.length > 1) return option
  }
  return option
}

/** What the widget shows of one choice, read before and after its click (session/choose.ts compares them). */
export interface ChoiceSeen {
  /** The option is still in the page, shown, and marked chosen (aria-selected, aria-checked, or its name's state part: "Selected, Mint"). */
  readonly marked: boolean
  /** How often the name reads as a word in the text around the combobox (neither popup nor live region). */
  readonly count: number
  /** The text around the combobox as read for `count` (to tell that it changed). */
  readonly text: string
  /** The combobox's own text or value reads it. */
  readonly ownerShows: boolean
  /** The value of an editable combobox, as typed or chosen. */
  readonly ownerValue: string | null
  /** The values and labels of the native selects and hidden inputs the widget keeps its choice in. */
  readonly backing: ReadonlyArray<string>
  /** A listbox is shown (the popup is open). */
  readonly open: boolean
}

const CONTROLS = "input:not([type=hidden]), select, textarea, [role~=combobox], [role~=textbox], [contenteditable]"

/** The box around the owner that shows its choice: up to five levels up, never one holding another field. */
const regionOf = (aria: Aria, owner: Element): Element => {
  const big = (element: Element) => {
    const rect = element.getBoundingClientRect()
    return rect.width > 2 && rect.height > 2 && shown(aria, element)
  }
  let region = owner
  for (let level = 0; level < 5; level++) {
    const up = parentOf(region)
    if (up === null || up === document.body || up === document.documentElement || up.localName === "form") break
    const other = Array.from(up.querySelectorAll(CONTROLS)).some((field) => field !== owner && !owner.contains(field) && !field.contains(owner) && big(field))
    if (other) break
    region = up
  }
  return region
}

/**
 * The text a person reads in `root`: no popup (`popup`, or any listbox when it is null), option, live region,
 * native select or hidden part; values of read-only fields. With a popup, another listbox's options count
 * (the chips a multi-select shows its choices as: UI5's tokenizer is a listbox of options).
 */
const readableText = (aria: Aria, root: Element, skip: Element | null, popup: Element | null = null): string => {
  let text = ""
  const visit = (node: Node) => {
    if (node.nodeType === 3) return void (text += ` ${node.nodeValue ?? ""}`)
    if (node.nodeType !== 1) return
    const element = node as Element
    const role = aria.roleOf(element) ?? ""
    if (element === popup || (popup === null && /^(listbox|option)$/.test(role)) || /^(status|log|alert)$/.test(role) || element.hasAttribute("aria-live") || /^(select|script|style|template)$/.test(element.localName)) return
    if (element !== root && aria.hidden(element)) return
    const rect = element.getBoundingClientRect()
    if (element.getClientRects().length > 0 && rect.width <= 1 && rect.height <= 1) return
    if (element instanceof HTMLInputElement && element !== skip && element.type !== "hidden" && (element.readOnly || element.disabled)) text += ` ${element.value}`
    const children = element instanceof HTMLSlotElement ? element.assignedNodes({ flatten: true }) : Array.from((element.shadowRoot ?? element).childNodes)
    for (const child of children) visit(child)
  }
  visit(root)
  return loose(text)
}

const occurrences = (text: string, name: string): number => {
  const wanted = loose(name).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
  return wanted === "" ? 0 : (text.match(new RegExp(`(?<![\\p{L}\\p{N}])${wanted}(?![\\p{L}\\p{N}])`, "gu")) ?? []).length
}

/** What the widget around `owner` shows of the option named `arg.name` (see ChoiceSeen). */
export const choiceSeen = (
  _anchor: Element,
  arg: { readonly owner: Element | null; readonly option: Element | null; readonly name: string; readonly listbox: Element | null }
): ChoiceSeen => {
  const aria = makeAria()
  const owner = arg.owner
  const option = arg.option
  const marked =
    option !== null &&
    option.isConnected &&
    shown(aria, option) &&
    (option.getAttribute("aria-selected") === "true" || option.getAttribute("aria-checked") === "true" || namedChosen(aria.nameOf(option, "option")))
  const open = arg.listbox !== null && arg.listbox.isConnected && shown(aria, arg.listbox)
  if (owner === null) return { marked, count: 0, text: "", ownerShows: false, ownerValue: null, backing: [], open }
  const editable = isTextField(owner) ? owner : null
  const region = regionOf(aria, owner)
  const text = readableText(aria, region, editable, arg.listbox)
  const count = occurrences(text, arg.name)
  const ownText = readableText(aria, owner, editable) + (owner instanceof HTMLInputElement && editable === null ? ` ${loose(owner.value)}` : "")
  const backing: Array<string> = []
  const scope = parentOf(region) ?? region
  for (const field of Array.from(scope.querySelectorAll("select, input[type=hidden], input[aria-hidden=true]")).slice(0, 50)) {
    if (field instanceof HTMLSelectElement) for (const chosen of Array.from(field.selectedOptions)) backing.push(chosen.value, chosen.label)
    else if (field instanceof HTMLInputElement && field !== owner) backing.push(...field.value.split(","))
  }
  return { marked, count, text: text.slice(0, 2_000), ownerShows: occurrences(ownText, arg.name) > 0, ownerValue: editable === null ? null : editable.value, backing: backing.map(loose), open }
}
