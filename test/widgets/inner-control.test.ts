// A click on a header or a cell whose own element does nothing on a click goes through the one control
// inside it that names it (issue 19: a Vaadin grid's column header answered ok while its sorter, a
// component slotted into the header, never saw the click). Real Chromium on a hand-written grid: header
// cells in an open shadow root whose content is slotted in, each with a sorter component of its own;
// and a plain table whose header holds a button. A header with two controls is not redirected, and a
// click through a control that changes nothing fails, never ok.
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import * as Browser from "../../src/adapters/playwright/lifecycle/browser.js"
import type { Envelope } from "../../src/domain/envelope.js"
import { runTool } from "../../src/runtime/runTool.js"
import type { AnyToolDefinition } from "../../src/runtime/tool.js"
import { click } from "../../src/tools/interaction.js"
import { navigate } from "../../src/tools/navigation.js"
import { launch } from "../../src/tools/session.js"
import { Session } from "../../src/services/Session.js"
import { answerPage, listenLoopback, send } from "../../demo/serve.js"
import { html, testSettings } from "../support/browser.js"
import { refOf } from "../support/calls.js"
import { liveSessionLayer } from "../support/live-session.js"

class Pages extends Context.Tag("test/InnerControlPages")<Pages, { readonly url: string }>() {}

/**
 * A grid as a web component draws one: its header cells (role columnheader, focusable for the keyboard)
 * in its open shadow root, each showing a slot its content element is assigned to; a sorter component
 * (its own shadow root, a hand cursor, a click listener, named by aria-label) inside the content. The
 * header cells are wide and the sorters small at their left: the middle of a header is not its sorter.
 * "Age" holds one sorter; "City" a sorter and a filter field; "Notes" one button that does nothing.
 */
const grid = html(
  "Grid",
  `<script>
  window.state = { sorts: [], filtered: 0, headerClicks: 0 };
  customElements.define("demo-sorter", class extends HTMLElement {
    constructor() {
      super();
      this.attachShadow({ mode: "open" }).innerHTML =
        '<style>:host{display:inline-flex;cursor:pointer;padding:2px}</style><div part="content"><slot></slot></div><span part="order"></span>';
      this.addEventListener("click", () => {
        const next = this.getAttribute("direction") === "asc" ? "desc" : "asc";
        this.setAttribute("direction", next);
        window.state.sorts.push(this.getAttribute("path") + ":" + next);
        this.dispatchEvent(new CustomEvent("sorter-changed", { bubbles: true, composed: true }));
      });
    }
  });
  customElements.define("demo-cell-content", class extends HTMLElement {
    constructor() { super(); this.attachShadow({ mode: "open" }).innerHTML = "<slot></slot>"; }
  });
  customElements.define("demo-grid", class extends HTMLElement {
    constructor() {
      super();
      const root = this.attachShadow({ mode: "open" });
      root.innerHTML =
        '<style>[role=columnheader]{display:inline-block;width:300px;height:32px;border:1px solid #ccc;text-align:left}</style>' +
        '<div role="grid" aria-label="Team"><div role="row">' +
        ['age', 'city', 'notes'].map((name) => '<div role="columnheader" tabindex="0" id="h-' + name + '"><slot name="' + name + '"></slot></div>').join('') +
        '</div></div>';
      root.addEventListener("click", (event) => { if (event.target.getAttribute?.("role") === "columnheader") window.state.headerClicks++; });
      this.addEventListener("sorter-changed", (event) => {
        const sorter = event.target;
        root.getElementById("h-" + sorter.getAttribute("path")).setAttribute("aria-sort", sorter.getAttribute("direction") === "asc" ? "ascending" : "descending");
      });
    }
  });
  </script>
  <demo-grid>
    <demo-cell-content slot="age"><demo-sorter path="age" aria-label="Sort by Age">Age</demo-sorter></demo-cell-content>
    <demo-cell-content slot="city"><demo-sorter path="city" aria-label="Sort by City">City</demo-sorter><input aria-label="Filter" size="6" oninput="window.state.filtered++"></demo-cell-content>
    <demo-cell-content slot="notes"><button aria-label="Notes">Notes</button></demo-cell-content>
  </demo-grid>`
)

/** A plain table whose header cells hold a button at their left, narrower than the cell, that sorts its rows. */
const table = html(
  "Table",
  `<script>
  window.state = { sorts: [] };
  const sortBy = (column) => {
    window.state.sorts.push(column);
    const body = document.querySelector("tbody");
    const rows = [...body.rows].sort((a, b) => b.cells[column === "name" ? 0 : 1].textContent.localeCompare(a.cells[column === "name" ? 0 : 1].textContent));
    body.append(...rows);
  };
  </script>
  <table style="border-collapse:collapse"><thead><tr>
    <th style="width:260px;text-align:left"><button onclick="sortBy('name')">Name</button></th>
    <th style="width:260px;text-align:left"><button onclick="sortBy('role')">Role</button></th>
  </tr></thead><tbody><tr><td>Alice</td><td>Engineer</td></tr><tr><td>Bob</td><td>Designer</td></tr></tbody></table>`
)

/** A table sorted by the server: its header's button asks for the rows, which come SLOW_SORT_MS later. */
const SLOW_SORT_MS = 1_500
const serverSorted = html(
  "Server sorted",
  `<script>
  window.state = { sorts: [] };
  const sortByServer = () => {
    window.state.sorts.push("score");
    fetch("/rows?sort=score").then((response) => response.json()).then((names) => {
      document.querySelector("tbody").innerHTML = names.map((name) => "<tr><td>" + name + "</td></tr>").join("");
    });
  };
  </script>
  <table><thead><tr><th style="width:300px;text-align:left"><button onclick="sortByServer()">Score</button></th></tr></thead>
  <tbody><tr><td>Amy</td></tr><tr><td>Zed</td></tr></tbody></table>`
)

/** The pages on 127.0.0.1, and the rows the server-sorted table asks for, answered SLOW_SORT_MS late. */
const pagesServer = (pages: Readonly<Record<string, string>>) =>
  Effect.acquireRelease(
    Effect.promise(() =>
      listenLoopback((request, response) => {
        if (request.url?.startsWith("/rows")) setTimeout(() => send(response, 200, "application/json", JSON.stringify(["Zed", "Amy"])), SLOW_SORT_MS)
        else if (!answerPage(pages, request, response, {})) send(response, 404, "text/plain", "not found")
      })
    ),
    (server) => Effect.promise(() => server.close())
  )

const call = (tool: AnyToolDefinition, args: Record<string, unknown> = {}) =>
  Effect.map(runTool(tool)(args, { policy: "none" }), (response) => response.envelope as Envelope<any>)

const open = (path: string) =>
  Effect.gen(function* () {
    const { url } = yield* Pages
    if ((yield* (yield* Session).current)._tag === "None") expect((yield* call(launch, {})).ok).toBe(true)
    expect((yield* call(navigate, { screen: "url", url: `${url}${path}` })).ok).toBe(true)
  })

/** The page's own record of what happened, read through Playwright (never from our answers). */
const pageState = Effect.gen(function* () {
  const { page } = yield* (yield* Browser.BrowserState).activePage
  return (yield* Effect.promise(() => page.evaluate("window.state"))) as { readonly sorts: ReadonlyArray<string>; readonly filtered?: number; readonly headerClicks?: number }
})

const settings = testSettings()

layer(
  Layer.merge(liveSessionLayer(settings), Layer.scoped(Pages, Effect.map(pagesServer({ "/grid": grid, "/table": table, "/server-sorted": serverSorted }), (server) => ({ url: server.url })))),
  { timeout: 120_000, excludeTestServices: true }
)("a click on a header goes through the control inside it that names it", (it) => {
  describe("one control names the header", () => {
    it.effect("a web component grid's header: the click reaches its slotted sorter component, which sorts, and the header shows aria-sort", () =>
      Effect.gen(function* () {
        yield* open("/grid")
        const age = yield* refOf("columnheader", "Sort by Age")
        const clicked = yield* call(click, { a11yRef: age, timeoutMs: 5_000 })
        expect(clicked.error).toBeUndefined()
        expect((yield* pageState).sorts).toEqual(["age:asc"])
        const { page } = yield* (yield* Browser.BrowserState).activePage
        expect(yield* Effect.promise(() => page.locator("#h-age").getAttribute("aria-sort"))).toBe("ascending")
        // Again: the sorter turns to descending, one click each time.
        expect((yield* call(click, { a11yRef: age, timeoutMs: 5_000 })).error).toBeUndefined()
        expect((yield* pageState).sorts).toEqual(["age:asc", "age:desc"])
      }))

    it.effect("a plain table's header holding a button at its left: the click reaches the button", () =>
      Effect.gen(function* () {
        yield* open("/table")
        const name = yield* refOf("columnheader", "Name")
        expect((yield* call(click, { a11yRef: name, timeoutMs: 5_000 })).error).toBeUndefined()
        expect((yield* pageState).sorts).toEqual(["name"])
        const { page } = yield* (yield* Browser.BrowserState).activePage
        expect(yield* Effect.promise(() => page.locator("tbody td:first-child").allTextContents())).toEqual(["Bob", "Alice"])
      }))

    it.effect("a header whose button has the server sort: the click waits for the rows it asked for and succeeds", () =>
      Effect.gen(function* () {
        yield* open("/server-sorted")
        const score = yield* refOf("columnheader", "Score")
        expect((yield* call(click, { a11yRef: score, timeoutMs: 8_000 })).error).toBeUndefined()
        expect((yield* pageState).sorts).toEqual(["score"])
        const { page } = yield* (yield* Browser.BrowserState).activePage
        expect(yield* Effect.promise(() => page.locator("tbody td").allTextContents())).toEqual(["Zed", "Amy"])
      }))
  })

  describe("fail closed", () => {
    it.effect("a header with a sorter and a filter field is clicked itself, neither control guessed", () =>
      Effect.gen(function* () {
        yield* open("/grid")
        const { page } = yield* (yield* Browser.BrowserState).activePage
        const city = yield* Effect.promise(() => page.locator("#h-city").evaluate((header) => header.getAttribute("aria-sort")))
        expect(city).toBeNull()
        const clicked = yield* call(click, { selector: "#h-city", timeoutMs: 5_000 })
        expect(clicked.error).toBeUndefined()
        const state = yield* pageState
        expect(state.sorts).toEqual([])
        expect(state.headerClicks).toBe(1)
      }))

    it.effect("a header whose one control changes nothing: the click through it fails with MM_CLICK_FAILED, never ok", () =>
      Effect.gen(function* () {
        yield* open("/grid")
        const notes = yield* refOf("columnheader", "Notes")
        const clicked = yield* call(click, { a11yRef: notes, timeoutMs: 5_000 })
        expect(clicked.ok).toBe(false)
        expect(clicked.error?.code).toBe("MM_CLICK_FAILED")
        expect(clicked.error?.message).toContain('<button> "Notes" inside it')
        expect(clicked.error?.message).toContain("had no effect")
      }))
  })
})
