// The text form of snapshots, as a pure function of the structured nodes.
import { describe, expect, it } from "vitest"
import type { A11yNode } from "../../src/domain/observation.js"
import { expandRefRuns, refRuns, refsWithoutLine, renderA11y, renderFind, renderNodes } from "../../src/domain/snapshot-text.js"

const nodes: ReadonlyArray<A11yNode> = [
  { ref: "e1", role: "heading", name: "todos", level: 1 },
  { ref: "e2", role: "list", name: "" },
  { ref: "e3", role: "listitem", name: "", depth: 1, text: "Buy milk" },
  { ref: "e4", role: "checkbox", name: "", depth: 2, checked: true },
  { ref: "e5", role: "listitem", name: "", depth: 1, collapsed: { count: 40, refs: ["e6..e85"], examples: ["Item 2", "Item 3", "Item 4", "Item 41"] } },
  { ref: "e90", role: "table", name: "Planets" },
  { ref: "e91", role: "row", name: "Planet Moons", depth: 1 },
  { ref: "e92", role: "columnheader", name: "Planet", depth: 2 },
  { ref: "e93", role: "columnheader", name: "Moons", depth: 2 },
  { ref: "e94", role: "button", name: 'Say "hi"', disabled: true, expanded: false }
]

describe("renderNodes", () => {
  it("indents by depth, shows states and refs, collapses runs and puts plain rows on one line", () => {
    expect(renderNodes(nodes)).toEqual({
      text: [
        'heading "todos" [level=1] [e1]',
        "list [e2]",
        "  listitem [e3]: Buy milk",
        "    checkbox [checked] [e4]",
        "  listitem ×40 [e6..e85]: Item 2 | Item 3 | Item 4 | … | Item 41",
        'table "Planets" [e90]',
        "  row [e91]: Planet | Moons",
        'button "Say \\"hi\\"" [collapsed, disabled] [e94]'
      ].join("\n"),
      cut: false
    })
  })

  it("reads a partial list (changes only) as a tree: depths relative and never jumping levels", () => {
    const partial: ReadonlyArray<A11yNode> = [
      { ref: "e7", role: "paragraph", name: "", depth: 3, text: "first: copied" },
      { ref: "e8", role: "button", name: "Copy", depth: 5 }
    ]
    expect(renderNodes(partial).text).toBe("paragraph [e7]: first: copied\n  button \"Copy\" [e8]")
  })

  it("cuts at the budget with a line saying how many nodes were left out", () => {
    const many = Array.from({ length: 100 }, (_, i): A11yNode => ({ ref: `e${i}`, role: "button", name: `Button ${i}` }))
    const rendered = renderNodes(many, { maxChars: 200 })
    expect(rendered.cut).toBe(true)
    expect(rendered.text.length).toBeLessThan(320)
    expect(rendered.text.split("\n").pop()).toMatch(/^… cut at 200 characters: \d+ more nodes/)
  })
})

describe("renderA11y and renderFind", () => {
  it("says what a changes-only observation left out", () => {
    const text = renderA11y({ nodes: [nodes[0]!], changesOnly: true, unchanged: 12, removed: ["e3", "e4"] }).text
    expect(text).toBe('heading "todos" [level=1] [e1]\n(12 nodes unchanged, their refs still valid)\n(gone: e3 e4)')
  })

  it("writes three or more consecutive gone refs as a range, per frame, and a reader gets every ref back", () => {
    const removed = ["e9", "e3", "e4", "e5", "f1e7", "f1e8", "e12", "f1e6", "e13"]
    const text = renderA11y({ nodes: [], changesOnly: true, removed }).text
    expect(text).toBe("(gone: e3..e5 e9 e12 e13 f1e6..f1e8)")
    expect(expandRefRuns(refRuns(removed)).sort()).toEqual([...removed].sort())
  })

  it("marks matches and writes no line for the siblings left out", () => {
    const text = renderFind([
      { depth: 0, node: { ref: "e2", role: "list", name: "" } },
      { depth: 1, elided: 4 },
      { depth: 1, node: { ref: "e9", role: "listitem", name: "", text: "Walk the dog", depth: 1 }, match: true },
      { depth: 2, node: { ref: "e10", role: "checkbox", name: "", depth: 2 } }
    ])
    expect(text).toBe("list [e2]\n  ▶ listitem [e9]: Walk the dog\n    checkbox [e10]")
  })

  it("answers a matched row with its cells named, and names a row whose cells are not all shown", () => {
    const row = { ref: "e63", role: "row", name: "2 Bob 27", selected: true, depth: 1 }
    const cells = ["2", "Bob", "27"].map((name, i) => ({ ref: `e${64 + i}`, role: "gridcell", name, depth: 2 }))
    const grid = { ref: "e52", role: "grid", name: "People" }
    expect(renderFind([{ depth: 0, node: grid }, { depth: 1, node: row, match: true }, ...cells.map((node) => ({ depth: 2, node }))])).toBe(
      ['grid "People" [e52]', "  ▶ row [selected] [e63]", '    gridcell "2" [e64]', '    gridcell "Bob" [e65]', '    gridcell "27" [e66]'].join("\n")
    )
    expect(renderFind([{ depth: 1, node: row }, { depth: 2, elided: 1 }, { depth: 2, node: cells[1]!, match: true }, { depth: 2, elided: 1 }])).toBe(
      // The siblings left out are not written, and the row keeps its name: the one place its other cells show.
      ['row "2 Bob 27" [selected] [e63]', '  ▶ gridcell "Bob" [e65]'].join("\n")
    )
  })
})

describe("names and states of widgets", () => {
  it("a header keeps its name, whether it holds a filter field or a child that says all of it (a sort link), as getByRole finds it", () => {
    const text = renderNodes([
      { ref: "e1", role: "row", name: "ID Name" },
      { ref: "e2", role: "columnheader", name: "ID", depth: 1, sort: "ascending" },
      { ref: "e3", role: "textbox", name: "ID filter", depth: 2 },
      { ref: "e4", role: "columnheader", name: "Name", depth: 1 },
      { ref: "e5", role: "link", name: "Name", depth: 2 }
    ]).text
    expect(text.split("\n")).toEqual([
      "row [e1]",
      '  columnheader "ID" [ascending] [e2]',
      '    textbox "ID filter" [e3]',
      '  columnheader "Name" [e4]',
      '    link "Name" [e5]'
    ])
  })

  it("shows sort, current, invalid, required and read-only compactly, and nothing when unset", () => {
    const line = (node: Partial<A11yNode>) => renderNodes([{ ref: "e1", role: "textbox", name: "x", ...node }]).text
    expect(line({})).toBe('textbox "x" [e1]')
    expect(line({ invalid: true, required: true, readonly: true })).toBe('textbox "x" [invalid, required, readonly] [e1]')
    expect(line({ role: "columnheader", sort: "descending" })).toBe('columnheader "x" [descending] [e1]')
    expect(line({ role: "columnheader", sort: "other" })).toBe('columnheader "x" [sort=other] [e1]')
    expect(line({ role: "link", current: "page" })).toBe('link "x" [current=page] [e1]')
    expect(line({ role: "link", current: "true" })).toBe('link "x" [current] [e1]')
  })

  it("a row of plain cells on one line keeps each cell's states: the column it is sorted by", () => {
    const nodes: ReadonlyArray<A11yNode> = [
      { ref: "e1", role: "row", name: "Name City Age", depth: 0 },
      { ref: "e2", role: "columnheader", name: "Name", depth: 1 },
      { ref: "e3", role: "columnheader", name: "City", depth: 1 },
      { ref: "e4", role: "columnheader", name: "Age", depth: 1, sort: "ascending" }
    ]
    expect(renderNodes(nodes).text).toBe("row [e1]: Name | City | Age [ascending]")
  })
})

describe("changes-only text: every line under the node that holds it, or at the left", () => {
  const changes = (nodes: ReadonlyArray<A11yNode>, removed: ReadonlyArray<string> = []) =>
    renderA11y({ nodes, changesOnly: true, unchanged: 9, ...(removed.length > 0 ? { removed } : {}) }).text

  it("a row named by its row header goes on one line when the walk says all its cells are shown, else a line per cell", () => {
    const cells: ReadonlyArray<A11yNode> = [
      { ref: "e16", role: "rowheader", name: "Carol", depth: 1, under: "e15" },
      { ref: "e17", role: "gridcell", name: "Madrid", depth: 1, under: "e15" },
      { ref: "e18", role: "gridcell", name: "27", depth: 1, under: "e15" }
    ]
    const row: A11yNode = { ref: "e15", role: "row", name: "Carol", depth: 0 }
    expect(changes([{ ...row, whole: true }, ...cells])).toBe("row [e15]: Carol | Madrid | 27\n(9 nodes unchanged, their refs still valid)")
    expect(changes([row, cells[0]!, cells[2]!]).split("\n")).toEqual(["row [e15]", '  rowheader "Carol" [e16]', '  gridcell "27" [e18]', "(9 nodes unchanged, their refs still valid)"])
  })

  it("a changed item and a change inside its next sibling: the sibling's node is not indented under the item", () => {
    // listitem e3 changed; e7 is the button of the next listitem (e6, unchanged, not shown).
    const text = changes([
      { ref: "e3", role: "listitem", name: "", depth: 3, text: "Alpha changed" },
      { ref: "e7", role: "button", name: "B", depth: 4, pressed: true }
    ])
    expect(text).toBe('listitem [e3]: Alpha changed\nbutton "B" [pressed] [e7]\n(9 nodes unchanged, their refs still valid)')
  })

  it("a change inside the previous sibling, then a changed item: both at the left, neither under the other", () => {
    const text = changes([
      { ref: "e4", role: "checkbox", name: "Buy milk", depth: 4, checked: true },
      { ref: "e6", role: "listitem", name: "", depth: 3, text: "Walk the dog" }
    ])
    expect(text.split("\n").slice(0, 2)).toEqual(['checkbox "Buy milk" [checked] [e4]', "listitem [e6]: Walk the dog"])
  })

  it("nested changes keep their nesting, skipped levels included, and a later sibling goes back to its parent's level", () => {
    const text = changes([
      { ref: "e14", role: "listitem", name: "", depth: 1, text: "Two" },
      { ref: "e30", role: "list", name: "", depth: 2, under: "e14" },
      { ref: "e31", role: "listitem", name: "", depth: 3, text: "nested a", under: "e30" },
      // Its parent (a group at depth 4) did not change: still under e31.
      { ref: "e33", role: "button", name: "Open", depth: 5, under: "e31" },
      { ref: "e34", role: "listitem", name: "", depth: 3, text: "nested b", under: "e30" },
      { ref: "e40", role: "button", name: "Save", depth: 2 }
    ])
    expect(text.split("\n").slice(0, 6)).toEqual([
      "listitem [e14]: Two",
      "  list [e30]",
      "    listitem [e31]: nested a",
      '      button "Open" [e33]',
      "    listitem [e34]: nested b",
      'button "Save" [e40]'
    ])
  })

  it("a changed row with some of its cells: the changed cells below it, never as the whole row; all of them: one line", () => {
    const text = changes([
      { ref: "e5", role: "row", name: "Mars 4", depth: 2 },
      { ref: "e7", role: "cell", name: "4", depth: 3, under: "e5" }
    ])
    expect(text.split("\n").slice(0, 2)).toEqual(["row [e5]", '  cell "4" [e7]'])
    const whole = changes([
      { ref: "e5", role: "row", name: "Mars 4", depth: 2 },
      { ref: "e6", role: "cell", name: "Mars", depth: 3, under: "e5" },
      { ref: "e7", role: "cell", name: "4", depth: 3, under: "e5" }
    ])
    expect(whole.split("\n")[0]).toBe("row [e5]: Mars | 4")
  })

  it("a row on one line still gives its cells whose ref or name was told for another element (apart) lines with their refs; all apart: only their lines", () => {
    const row: A11yNode = { ref: "e17", role: "row", name: "", depth: 0, whole: true }
    const days = ["30", "31", "1", "2", "3", "4", "5"].map((day, k): A11yNode => ({ ref: `e${18 + k}`, role: "cell", name: day, depth: 1, under: "e17", ...(k >= 5 ? { apart: true } : {}) }))
    const some = [row, ...days]
    expect(changes(some).split("\n").slice(0, 3)).toEqual(["row [e17]: 30 | 31 | 1 | 2 | 3 | 4 | 5", '  cell "4" [e23]', '  cell "5" [e24]'])
    // The page notes a name as told only for the cells whose lines show their refs.
    expect([...refsWithoutLine(some, true)]).toEqual(["e18", "e19", "e20", "e21", "e22"])
    const all = [row, ...days.map((day) => ({ ...day, apart: true }))]
    expect(changes(all).split("\n").slice(0, 3)).toEqual(["row [e17]", '  cell "30" [e18]', '  cell "31" [e19]'])
    expect(refsWithoutLine(all, true).size).toBe(0)
    // A whole snapshot alike.
    const whole = [{ ...row, whole: undefined, name: "30 31 1 2 3 4 5" }, ...days.map(({ under: _, ...day }) => day)]
    expect(renderNodes(whole).text.split("\n")).toEqual(["row [e17]: 30 | 31 | 1 | 2 | 3 | 4 | 5", '  cell "4" [e23]', '  cell "5" [e24]'])
  })

  it("removed nodes are listed as gone, and what is left keeps its place", () => {
    const text = changes([{ ref: "e13", role: "listitem", name: "", depth: 1, text: "One" }], ["e14", "e15"])
    expect(text).toBe("listitem [e13]: One\n(9 nodes unchanged, their refs still valid)\n(gone: e14 e15)")
  })

  it("a whole snapshot still follows depths (no under): rows on one line", () => {
    expect(renderA11y({ nodes }).text.split("\n")).toContain("  row [e91]: Planet | Moons")
  })
})
