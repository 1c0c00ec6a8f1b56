// What an agent reads of hard real widgets, through the tools: a date picker's aria-labelled day cells,
// a grid's headers with filter inputs and sort states, rows found with their cells, form states, rich-text
// and code editors as textboxes one can type into, and a drawn checkbox or switch as one node.
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { KnowledgeStore } from "../../src/services/KnowledgeStore.js"
import { Session } from "../../src/services/Session.js"
import { accessibilitySnapshot } from "../../src/tools/discovery.js"
import { evaluate } from "../../src/tools/evaluate.js"
import { find } from "../../src/tools/find.js"
import { click, getText, type } from "../../src/tools/interaction.js"
import { pageHarness } from "../support/page-harness.js"
import { liveLayer, testSettings } from "../support/browser.js"
import { WIDGET_STATE, widgetPages } from "../widgets/pages.js"
import { linesNamed, parseSnapshot } from "./parse.js"
import { dataGrid, datePicker, drawnControls, editors, formStates, unnamedField } from "./widget-patterns.js"

const pages = { ...widgetPages, "/date": datePicker, "/grid": dataGrid, "/form": formStates, "/editors": editors, "/controls": drawnControls, "/unnamed": unnamedField }

const { PagesLive, call, open } = pageHarness("test/WidgetNamePages", pages)

/** The widget's own state (test/widgets/pages.ts), read from the page, never from our answers. */
const widgetState = Effect.map(call(evaluate, { expression: WIDGET_STATE }), (envelope) => envelope.result.value as Record<string, unknown>)

const snapshotOf = Effect.map(call(accessibilitySnapshot), (envelope) => envelope.snapshot as string)
const findText = (args: Record<string, unknown>) => Effect.map(call(find, args), (envelope) => ({ text: (envelope.snapshot ?? "") as string, found: envelope.result.found as number }))

layer(Layer.merge(liveLayer(testSettings()), PagesLive), { timeout: 120_000, excludeTestServices: true })("widgets' names and states", (it) => {
  describe("aria-label names any element", () => {
    it.effect("a date picker's day cells are each named by their label, found by it, and clicked through its ref", () =>
      Effect.gen(function* () {
        yield* open("/date")
        const text = yield* snapshotOf
        // Names that differ from the text shown are never folded into a run: each day is a line of its own.
        expect(text).not.toMatch(/generic ×\d+/)
        const [day] = linesNamed(text, "generic", "March 14, 2025")
        expect(day).toBeDefined()
        expect(day!.states).toEqual(["current=date"])
        expect(linesNamed(text, "generic", "April 6, 2025")).toHaveLength(1)
        // The weekday names (no label) still read as the text they are.
        expect(text).toContain("Mon")
        const found = yield* findText({ name: "March 14, 2025" })
        expect(found.found).toBe(1)
        expect(found.text).toContain(`generic "March 14, 2025" [current=date] [${day!.ref}]`)
        expect((yield* call(click, { a11yRef: day!.ref })).ok).toBe(true)
        const [field] = linesNamed(text, "textbox", "Arrival date")
        expect(field!.states).toEqual(["readonly"])
        expect((yield* call(getText, { a11yRef: field!.ref })).result.text).toBe("March 14, 2025")
      }))
  })

  describe("grids", () => {
    it.effect("a column header holding a filter input is named by its text and shows its sort; find answers a row's cells with their text", () =>
      Effect.gen(function* () {
        yield* open("/grid")
        const text = yield* snapshotOf
        const lines = parseSnapshot(text)
        const id = lines.find((line) => line.role === "columnheader" && line.name === "ID")
        expect(id?.states).toEqual(["ascending"])
        expect(lines[lines.indexOf(id!) + 1]).toMatchObject({ role: "textbox", name: "ID filter", depth: id!.depth + 1 })
        expect(lines.find((line) => line.role === "columnheader" && line.name === "Name")?.states).toEqual([])
        expect(lines.find((line) => line.role === "columnheader" && line.name === "Age")?.states).toEqual(["descending"])
        // Plain rows stay on one line.
        expect(text).toMatch(/row \[selected\] \[e\d+\]: 2 \| Bob \| 27/)
        const found = yield* findText({ role: "row", text: "Bob" })
        expect(found.found).toBe(1)
        const foundLines = parseSnapshot(found.text)
        const cells = foundLines.filter((line) => line.role === "gridcell")
        expect(cells.map((cell) => cell.name)).toEqual(["2", "Bob", "27"])
        expect(cells.every((cell) => cell.ref !== undefined)).toBe(true)
      }))
  })

  describe("states", () => {
    it.effect("pressed, current, selected, invalid, required and read-only show in the state brackets, and only where set", () =>
      Effect.gen(function* () {
        yield* open("/form")
        const text = yield* snapshotOf
        const states = (role: string, name: string) => linesNamed(text, role, name)[0]?.states
        expect(states("link", "Home")).toEqual(["current=page"])
        expect(states("link", "About")).toEqual([])
        expect(states("button", "Bold")).toEqual(["pressed"])
        expect(states("button", "Italic")).toEqual([])
        expect(states("textbox", "Email")).toEqual(["invalid", "required"])
        expect(states("textbox", "Member since")).toEqual(["readonly"])
        expect(states("textbox", "Nickname")).toEqual([])
        expect(states("textbox", "Bio")).toEqual(["readonly"])
        expect(states("combobox", "Country")).toEqual(["required"])
        expect(states("tab", "Profile")).toEqual(["selected"])
        expect(states("tab", "Billing")).toEqual([])
      }))
  })

  describe("editors", () => {
    it.effect("an editing host is a textbox named by its label or placeholder, with its content as text, that mm_type types into", () =>
      Effect.gen(function* () {
        yield* open("/editors")
        const text = yield* snapshotOf
        const quill = linesNamed(text, "textbox", "Compose an epic...")
        expect(quill).toHaveLength(1)
        expect(quill[0]!.text).toBeUndefined()
        expect(linesNamed(text, "textbox", "Write something …")).toHaveLength(1)
        expect(linesNamed(text, "textbox", "Signature")[0]?.text).toBe("Kind regards")
        // The editor's content is its text, not nodes of its own.
        expect(parseSnapshot(text).filter((line) => line.role === "paragraph")).toEqual([])
        expect(linesNamed(text, "textbox", "Query")[0]?.text).toBe("SELECT 1")
        // A code editor's input element, named by its placeholder.
        expect(linesNamed(text, "textbox", "Type code here")).toHaveLength(1)
        const found = yield* findText({ role: "textbox", name: "epic" })
        expect(found.found).toBe(1)
        expect((yield* call(type, { a11yRef: quill[0]!.ref, text: "Hello world" })).ok).toBe(true)
        expect(linesNamed(yield* snapshotOf, "textbox", "Compose an epic...")[0]?.text).toBe("Hello world")
      }))
  })

  describe("fields", () => {
    it.effect("a field nothing names (an empty label, cmdk's search) reads as its placeholder while empty, is found by it, then shows what was typed", () =>
      Effect.gen(function* () {
        yield* open("/unnamed")
        const text = yield* snapshotOf
        const [search] = parseSnapshot(text).filter((line) => line.role === "combobox")
        // Its name stays as browsers compute it (none); what it shows is its text.
        expect(search).toMatchObject({ name: "", text: "Search framework..." })
        // A field with a name does not repeat its placeholder.
        expect(linesNamed(text, "textbox", "Search the docs")[0]?.text).toBeUndefined()
        const found = yield* findText({ text: "Search framework" })
        expect(found.found).toBe(1)
        expect((yield* call(type, { a11yRef: search!.ref, text: "svel" })).ok).toBe(true)
        expect(parseSnapshot(yield* snapshotOf).find((line) => line.role === "combobox")?.text).toBe("svel")
      }))
  })

  describe("one control, one ref", () => {
    it.effect("a web component's checkbox and switch, a clipped switch and a label over a hidden box are one node each, with their state", () =>
      Effect.gen(function* () {
        yield* open("/controls")
        const text = yield* snapshotOf
        const lines = parseSnapshot(text)
        expect(lines.map((line) => `${line.role} ${JSON.stringify(line.name)} ${line.states.join(",")}`)).toEqual([
          'checkbox "Accept terms" ',
          'switch "Notifications" checked',
          'switch "Dark mode" ',
          'checkbox "Newsletter" checked'
        ])
        // Each control's name appears once in the page text.
        for (const name of ["Accept terms", "Notifications", "Dark mode", "Newsletter"]) expect(text.split(name).length - 1).toBe(1)
        const newsletter = lines[3]!
        expect((yield* call(click, { a11yRef: newsletter.ref })).ok).toBe(true)
        expect(linesNamed(yield* snapshotOf, "checkbox", "Newsletter")[0]?.states).toEqual([])
      }))
  })

  describe("on the shared widget pages (test/widgets)", () => {
    it.effect("day cells: found by their full name, and a click on the found ref selects the day", () =>
      Effect.gen(function* () {
        yield* open("/day-cells")
        const found = yield* findText({ name: "March 14, 2025" })
        expect(found.found).toBe(1)
        const [day] = parseSnapshot(found.text).filter((line) => line.name === "March 14, 2025")
        expect((yield* call(click, { a11yRef: day!.ref })).ok).toBe(true)
        expect((yield* widgetState).selected).toBe("2025-03-14")
      }))

    it.effect("header filters: headers named by their text with their sort, and Bob's row found with its cells", () =>
      Effect.gen(function* () {
        yield* open("/header-filter")
        const text = yield* snapshotOf
        expect(linesNamed(text, "columnheader", "ID")[0]?.states).toEqual(["ascending"])
        expect(linesNamed(text, "columnheader", "Name")).toHaveLength(1)
        expect(linesNamed(text, "columnheader", "Email")).toHaveLength(1)
        const found = yield* findText({ role: "row", text: "Bob" })
        expect(parseSnapshot(found.text).filter((line) => line.role === "cell").map((line) => line.name)).toEqual(["2", "Bob", "bob@example.test"])
      }))

    it.effect("a Quill-like editor is a textbox named by its placeholder that mm_type types into", () =>
      Effect.gen(function* () {
        yield* open("/contenteditable-editor")
        const [editor] = linesNamed(yield* snapshotOf, "textbox", "Compose an epic...")
        expect(editor).toBeDefined()
        expect((yield* call(type, { a11yRef: editor!.ref, text: "hello" })).ok).toBe(true)
        expect((yield* widgetState).text).toBe("hello")
        // Cleared: the emptied editor keeps a line break, which is no text left behind.
        const cleared = yield* call(type, { a11yRef: editor!.ref, text: "" })
        expect(cleared.ok, JSON.stringify(cleared.error)).toBe(true)
        expect(String((yield* widgetState).text).trim()).toBe("")
        expect((yield* call(type, { a11yRef: editor!.ref, text: "hello" })).ok).toBe(true)
        // Its durable form is one Playwright's engines find again: no role selector Playwright would not match.
        const session = yield* Session
        const current = yield* session.current
        const steps = yield* (yield* KnowledgeStore).steps(current._tag === "Some" ? current.value.sessionId : "")
        const typed = steps.filter((step) => step.tool.name === "type").pop()
        expect(typed?.tool.target?.element?.role).toBeUndefined()
        expect(typed?.tool.target?.element?.unique).toContain("selector")
      }))

    it.effect("a code editor's role=textbox input and a web component's checkbox and switch show as one node each", () =>
      Effect.gen(function* () {
        yield* open("/code-editor")
        expect(linesNamed(yield* snapshotOf, "textbox", "Code")).toHaveLength(1)
        yield* open("/wc-checkbox")
        const lines = parseSnapshot(yield* snapshotOf)
        expect(lines.filter((line) => line.name === "Subscribe to the newsletter" || line.text?.includes("Subscribe"))).toEqual([
          expect.objectContaining({ role: "checkbox", name: "Subscribe to the newsletter", states: [] })
        ])
        expect(lines.filter((line) => line.name === "Email alerts" || line.text?.includes("Email alerts"))).toEqual([
          expect.objectContaining({ role: "switch", name: "Email alerts", states: [] })
        ])
      }))
  })
})
