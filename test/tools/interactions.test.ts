// The interactions beyond a click: uploads, drag and drop, double click (TodoMVC's edit mode), scrolling
// an infinite list, checkboxes, page waits, assertions, cross-origin frames, PDF, in batches and in an
// exported Playwright test run by Playwright's own runner. Real Chromium, pages on 127.0.0.1.
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option } from "effect"
import { registryFor } from "../../src/cli.js"
import type { Envelope } from "../../src/domain/envelope.js"
import { runTool } from "../../src/runtime/runTool.js"
import { visibleTools, ToolView } from "../../src/runtime/visibility.js"
import { Session } from "../../src/services/Session.js"
import { exportSession } from "../../src/tools/knowledge.js"
import { corpusServer, ORIGIN_KEYED } from "../page/corpus.js"
import { linesNamed } from "../page/parse.js"
import { html, liveLayer, testSettings } from "../support/browser.js"
import { runPlaywrightTests, writePlaywrightConfig } from "../support/playwright-runner.js"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")

const pages = (frameOrigin: string): Record<string, string> => ({
  "/upload": html(
    "Upload",
    `<label>Avatar <input type="file" data-testid="avatar" onchange="document.getElementById('got').textContent = Array.from(this.files, (f) => f.name).join(',')"></label>
     <input type="file" id="hidden-input" multiple style="display:none" onchange="document.getElementById('chosen').textContent = Array.from(this.files, (f) => f.name).join(','); this.value = ''">
     <button data-testid="pick" onclick="document.getElementById('hidden-input').click()">Choose files</button>
     <p data-testid="got"></p><p id="got"></p><p data-testid="chosen" id="chosen"></p>`
  ),
  "/drag": html(
    "Drag",
    `<style>.box{width:120px;height:60px;margin:10px;border:1px solid #000}</style>
     <div class="box" draggable="true" data-testid="card" ondragstart="event.dataTransfer.setData('text/plain', 'card-1')">Card 1</div>
     <div class="box" data-testid="done" ondragover="event.preventDefault()" ondrop="event.preventDefault(); this.textContent = 'Done: ' + event.dataTransfer.getData('text/plain')">Done</div>
     <div class="box" data-testid="shelf">Shelf (takes no drops)</div>
     <div class="box" data-testid="archive" ondragover="event.preventDefault()" ondrop="event.preventDefault(); fetch('/drag?delay=2200').then(() => { this.textContent = 'Archived' })">Archive (saves, then shows)</div>
     <div class="box" data-testid="bin" ondragover="event.preventDefault()" ondrop="event.preventDefault(); this.animate([{ opacity: 1 }, { opacity: 0.2 }], 2200).finished.then(() => { this.textContent = 'Binned' })">Bin (fades, then shows)</div>
     <div class="box" data-testid="busy" style="animation: pulse 1s linear infinite alternate">Busy</div><style>@keyframes pulse { to { opacity: 0.5 } }</style>`
  ),
  // A sortable list driven by pointer events, whose hit test runs on the pointer's previous position (as a
  // collision check on the last frame does, dnd-kit's): a drag that jumps to the drop point in one move drops
  // the item on itself; one that travels as a hand does drops it where it was taken.
  "/pointer-sort": html(
    "Pointer sort",
    `<ul id="list" style="list-style:none;padding:0;width:200px">
       <li data-testid="A" style="height:40px;border:1px solid #000">A</li><li data-testid="B" style="height:40px;border:1px solid #000">B</li>
       <li data-testid="C" style="height:40px;border:1px solid #000">C</li><li data-testid="D" style="height:40px;border:1px solid #000">D</li>
     </ul>
     <output data-testid="order">A,B,C,D</output>
     <script>
       const list = document.getElementById("list")
       let dragging = null, over = null, last = null
       list.addEventListener("pointerdown", (event) => {
         dragging = event.target.closest("li")
         over = dragging
         last = { x: event.clientX, y: event.clientY }
       })
       document.addEventListener("pointermove", (event) => {
         if (dragging === null) return
         const under = document.elementFromPoint(last.x, last.y)?.closest("li")
         if (under) over = under
         last = { x: event.clientX, y: event.clientY }
       })
       document.addEventListener("pointerup", () => {
         if (dragging !== null && over !== null && over !== dragging) list.insertBefore(dragging, over)
         dragging = null
         document.querySelector("output").textContent = [...list.children].map((item) => item.textContent).join(",")
       })
     </script>`
  ),
  // Only web components: a checkbox and a drag handle inside open shadow roots, nothing in the light DOM.
  "/shadow-widgets": html(
    "Shadow widgets",
    `<x-check>Subscribe</x-check><x-card>Card 1</x-card>
     <script>
       customElements.define("x-check", class extends HTMLElement {
         connectedCallback() {
           this.attachShadow({ mode: "open" }).innerHTML =
             '<label><input type="checkbox" style="position:absolute;opacity:0;width:1px;height:1px"><span>&#9744;</span> <slot></slot></label>'
         }
       })
       customElements.define("x-card", class extends HTMLElement {
         connectedCallback() {
           this.attachShadow({ mode: "open" }).innerHTML = '<div draggable="true" style="width:120px;height:40px;border:1px solid #000"><slot></slot></div>'
         }
       })
     </script>`
  ),
  "/same-frame": html(
    "Checkout",
    `<h1>Checkout</h1><iframe title="Payment" srcdoc="<label>Card number <input id=card></label>" style="width:400px;height:120px"></iframe>`
  ),
  "/feed": html(
    "Feed",
    `<ul id="feed" aria-label="Feed"></ul><p id="status">idle</p>
     <script>
       let loaded = 0, loading = false
       const more = () => {
         loading = true
         document.getElementById('status').textContent = 'loading'
         setTimeout(() => {
           for (let i = 0; i < 20; i++) { const li = document.createElement('li'); li.textContent = 'Post ' + (++loaded); li.style.height = '60px'; document.getElementById('feed').append(li) }
           loading = false
           document.getElementById('status').textContent = 'loaded ' + loaded
         }, 150)
       }
       more()
       addEventListener('scroll', () => { if (!loading && innerHeight + scrollY >= document.body.scrollHeight - 100) more() })
     </script>`
  ),
  "/form": html(
    "Form",
    `<label><input type="checkbox" data-testid="terms" onchange="document.getElementById('state').textContent = this.checked ? 'agreed' : 'not agreed'"> I agree</label>
     <label><input type="checkbox" data-testid="stubborn" onclick="event.preventDefault()"> Stubborn</label>
     <p id="state" data-testid="state">not agreed</p>
     <input data-testid="name" value="Ada">
     <button data-testid="go" disabled>Go</button>
     <a href="/form#next" data-testid="next" onclick="setTimeout(() => history.pushState({}, '', '/form/step-2'), 200); return false">Next</a>
     <ul><li class="row">a</li><li class="row">b</li><li class="row">c</li></ul>
     <script>setTimeout(() => { document.getElementById('state').textContent = document.getElementById('state').textContent }, 0)</script>`
  ),
  "/framed": html(
    "Framed",
    `<h1>Host</h1><iframe title="Payments" src="${frameOrigin}/pay" style="width:400px;height:200px"></iframe>`
  )
})

/** The page of the other origin, shown in the iframe of /framed. */
const payPage = html("Pay", `<button onclick="this.textContent = 'Paid'">Pay now</button>`)

class Pages extends Context.Tag("test/InteractionPages")<
  Pages,
  { readonly url: (path: string) => string; readonly frameUrl: (path: string) => string; readonly artifactsDir: string; readonly uploads: string }
>() {}

/** Two servers (the second is another origin, isolated in a process of its own) and a session layer over them. */
const TestLayer = Layer.unwrapScoped(
  Effect.gen(function* () {
    const frameServer = yield* corpusServer({ "/pay": payPage }, ORIGIN_KEYED)
    const main = yield* corpusServer(pages(frameServer.url))
    // Same site on another port would share the process (--isolate-origins does not split it); an
    // origin-keyed agent cluster makes the frame out-of-process.
    const settings = testSettings({ caps: ["testing", "pdf"] })
    const uploads = path.join(settings.artifactsDir, "uploads")
    fs.mkdirSync(uploads, { recursive: true })
    fs.writeFileSync(path.join(uploads, "a.txt"), "alpha")
    fs.writeFileSync(path.join(uploads, "b.txt"), "beta")
    const registry = registryFor(settings)
    return Layer.mergeAll(
      liveLayer(settings),
      Layer.succeed(Pages, {
        url: (p: string) => `${main.url}${p}`,
        frameUrl: (p: string) => `${frameServer.url}${p}`,
        artifactsDir: settings.artifactsDir,
        uploads
      }),
      Layer.succeed(ToolView, ToolView.make(registry, { caps: settings.caps }))
    )
  })
)

const call = (name: string, args: Record<string, unknown> = {}) =>
  Effect.gen(function* () {
    const view = yield* ToolView
    const tool = view.registry.lookup(name)
    if (tool === undefined) throw new Error(`no tool ${name}`)
    const response = yield* runTool(tool)(args)
    return response.envelope as Envelope<any>
  })

const open = (p: string) =>
  Effect.gen(function* () {
    const { url } = yield* Pages
    const session = yield* Session
    if (Option.isNone(yield* session.current)) expect((yield* call("launch")).ok).toBe(true)
    const envelope = yield* call("navigate", { screen: "url", url: url(p) })
    expect(envelope.ok).toBe(true)
    return envelope
  })

const listedNames = Effect.gen(function* () {
  const view = yield* ToolView
  return (yield* visibleTools(view.registry.tools)).map((tool) => tool.name)
})

layer(TestLayer, { timeout: 180_000, excludeTestServices: true })("interactions in real Chromium", (it) => {
  it.effect("upload_file is listed on a page with a file input, sets an input by test id, answers a chooser, and refuses paths outside the roots", () =>
    Effect.gen(function* () {
      const { uploads } = yield* Pages
      yield* open("/form")
      expect(yield* listedNames).not.toContain("upload_file")
      yield* open("/upload")
      expect(yield* listedNames).toContain("upload_file")

      const viaInput = yield* call("upload_file", { testId: "avatar", paths: [path.join(uploads, "a.txt")] })
      expect(viaInput.result).toEqual({ files: ["a.txt"], via: "input" })
      expect((yield* call("get_text", { selector: "#got" })).result.text).toBe("a.txt")

      // A button that opens a chooser: the click and the answer in one call; the page clears its input at once.
      const viaButton = yield* call("upload_file", { testId: "pick", paths: ["uploads/a.txt", "uploads/b.txt"] })
      expect(viaButton.result).toMatchObject({ files: ["a.txt", "b.txt"], via: "chooser" })
      expect((yield* call("get_text", { testId: "chosen" })).result.text).toBe("a.txt,b.txt")

      // A click opens the chooser; it waits, listed, until upload_file answers it.
      const opened = yield* call("click", { testId: "pick" })
      expect(opened.ok).toBe(true)
      expect(JSON.stringify(opened.notices)).toContain("A file chooser opened")
      expect(yield* listedNames).toContain("upload_file")
      const chosen = yield* call("upload_file", { paths: [path.join(uploads, "b.txt")] })
      expect(chosen.result).toEqual({ files: ["b.txt"], via: "chooser" })
      expect((yield* call("get_text", { testId: "chosen" })).result.text).toBe("b.txt")

      const outside = yield* call("upload_file", { testId: "avatar", paths: ["/etc/hostname"] })
      expect(outside.error?.code).toBe("MM_INVALID_INPUT")
      expect(outside.error?.message).toContain("outside the upload roots")
      const missing = yield* call("upload_file", { testId: "avatar", paths: ["uploads/nope.txt"] })
      expect(missing.error?.message).toContain("does not exist")
    }))

  it.effect("drag moves a card onto a drop zone (HTML5 drag and drop), listed while the page has drag sources", () =>
    Effect.gen(function* () {
      yield* open("/drag")
      expect(yield* listedNames).toContain("drag")
      // A zone that takes no drops: the page is as it was, which is no success.
      const refused = yield* call("drag", { testId: "card", to: { testId: "shelf" } })
      expect(refused.error?.code).toBe("MM_DRAG_FAILED")
      expect(refused.error?.message).toContain("changed nothing in the page")
      const dragged = yield* call("drag", { testId: "card", to: { testId: "done" } })
      expect(dragged.result, JSON.stringify(dragged.error)).toEqual({ dragged: true })
      expect((yield* call("get_text", { testId: "done" })).result.text).toBe("Done: card-1")
      // A drop that saves before it shows anything is waited for while its request is in flight.
      const archived = yield* call("drag", { testId: "card", to: { testId: "archive" } })
      expect(archived.result, JSON.stringify(archived.error)).toEqual({ dragged: true })
      expect((yield* call("get_text", { testId: "archive" })).result.text).toBe("Archived")
      // A drop that animates first and shows after (2.2 s) is waited for while its animation runs; the page's
      // endless pulse keeps no refused drop waiting (the shelf above fails all the same).
      const binned = yield* call("drag", { testId: "card", to: { testId: "bin" } })
      expect(binned.result, JSON.stringify(binned.error)).toEqual({ dragged: true })
      expect((yield* call("get_text", { testId: "bin" })).result.text).toBe("Binned")
      const nowhere = yield* call("drag", { testId: "card", to: { testId: "missing" }, timeoutMs: 1500 })
      expect(nowhere.error?.code).toBe("MM_TARGET_NOT_FOUND")
    }))

  it.effect("drag travels as a hand does: a pointer-driven sortable whose hit test lags one move puts the item where it was dropped", () =>
    Effect.gen(function* () {
      yield* open("/pointer-sort")
      expect((yield* call("drag", { testId: "C", to: { testId: "A" } })).result).toEqual({ dragged: true })
      expect((yield* call("get_text", { testId: "order" })).result.text).toBe("C,A,B,D")
      // Dropped on itself (the item the pointer leaves last): the list is as it was.
      const onItself = yield* call("drag", { testId: "C", to: { testId: "C" } })
      expect(onItself.error?.code).toBe("MM_DRAG_FAILED")
      expect((yield* call("get_text", { testId: "order" })).result.text).toBe("C,A,B,D")
    }))

  it.effect("drag and set_checked are listed on a page whose drag source and checkbox are inside open shadow roots", () =>
    Effect.gen(function* () {
      yield* open("/form")
      expect(yield* listedNames).not.toContain("drag")
      yield* open("/shadow-widgets")
      const listed = yield* listedNames
      expect(listed).toContain("drag")
      expect(listed).toContain("set_checked")
      // Listed because it works there.
      expect((yield* call("set_checked", { selector: "x-check input", checked: true })).ok).toBe(true)
    }))

  it.effect("typing by ref into a field of a same-origin iframe exports to Playwright inside that frame", () =>
    Effect.gen(function* () {
      yield* open("/same-frame")
      const snapshot = (yield* call("accessibility_snapshot")).snapshot as string
      const field = linesNamed(snapshot, "textbox", "Card number")[0]
      expect(field, snapshot).toBeDefined()
      expect((yield* call("type", { a11yRef: field!.ref, text: "4242" })).ok).toBe(true)
      const current = yield* (yield* Session).current
      const code = (yield* exportSession(Option.getOrThrow(current).sessionId, "playwright")).content
      expect(code).toContain('.contentFrame().getByRole("textbox", { name: "Card number", exact: true }).fill("4242")')
    }))

  for (const framework of ["react", "vue", "vanillajs"]) {
    it.effect(`a double click opens TodoMVC ${framework}'s edit mode`, () =>
      Effect.gen(function* () {
        yield* open(`/todomvc/${framework}/`)
        expect((yield* call("type", { selector: ".new-todo, #new-todo", text: "Walk the dog" })).ok).toBe(true)
        expect((yield* call("press_key", { selector: ".new-todo, #new-todo", key: "Enter" })).ok).toBe(true)
        const snapshot = yield* call("accessibility_snapshot")
        const label = linesNamed(snapshot.snapshot, "generic", "Walk the dog")[0] ?? undefined
        const target = label !== undefined ? { a11yRef: label.ref } : { selector: "li label" }
        const clicked = yield* call("click", { ...target, count: 2 })
        expect(clicked.ok).toBe(true)
        // The item is in edit mode: its edit field shows the text.
        const editing = yield* call("expect", { selector: "li.editing .edit", condition: "value", expected: "Walk the dog" })
        expect(editing.result).toMatchObject({ passed: true, actual: '"Walk the dog"' })
      }))
  }

  it.effect("scroll to the bottom of an infinite feed loads more; into view and by delta report where the page is", () =>
    Effect.gen(function* () {
      yield* open("/feed")
      expect((yield* call("expect", { selector: "#feed li", condition: "count", expected: 20 })).ok).toBe(true)
      expect(yield* listedNames).toContain("scroll")
      const down = yield* call("scroll", { to: "bottom" })
      expect(down.result).toMatchObject({ moved: true, atBottom: true })
      expect((yield* call("expect", { selector: "#feed li", condition: "count", expected: 40 })).ok).toBe(true)
      yield* call("scroll", { to: "bottom" })
      expect((yield* call("expect", { selector: "#status", condition: "text", expected: "loaded 60" })).ok).toBe(true)
      const top = yield* call("scroll", { to: "top" })
      expect(top.result).toMatchObject({ moved: true, top: 0, atBottom: false })
      const by = yield* call("scroll", { deltaY: 300 })
      expect(by.result).toMatchObject({ moved: true, top: 300 })
      const intoView = yield* call("scroll", { selector: "#feed li:nth-child(55)" })
      expect(intoView.result.moved).toBe(true)
      expect(intoView.result.top).toBeGreaterThan(2_000)
      const bad = yield* call("scroll", {})
      expect(bad.error).toMatchObject({ code: "MM_INVALID_INPUT" })
    }))

  it.effect("set_checked checks and unchecks, verified; a box that refuses the change fails closed", () =>
    Effect.gen(function* () {
      yield* open("/form")
      expect(yield* listedNames).toContain("set_checked")
      expect((yield* call("set_checked", { testId: "terms" })).result).toEqual({ checked: true })
      expect((yield* call("get_text", { testId: "state" })).result.text).toBe("agreed")
      expect((yield* call("set_checked", { testId: "terms" })).ok).toBe(true)
      expect((yield* call("set_checked", { testId: "terms", checked: false })).ok).toBe(true)
      expect((yield* call("get_text", { testId: "state" })).result.text).toBe("not agreed")
      const stubborn = yield* call("set_checked", { testId: "stubborn", timeoutMs: 1_000 })
      expect(stubborn.ok).toBe(false)
      expect(stubborn.error?.code).toMatch(/^MM_SET_CHECKED_(FAILED|TIMEOUT)$/)
    }))

  it.effect("wait_for waits for a URL (glob or regex) and a load state", () =>
    Effect.gen(function* () {
      yield* open("/form")
      expect((yield* call("click", { testId: "next" })).ok).toBe(true)
      const waited = yield* call("wait_for", { url: "**/form/step-2", timeoutMs: 5_000 })
      expect(waited.result).toEqual({ found: true })
      // Where the page went is the envelope's page field, not repeated in the result.
      expect(waited.page?.url).toMatch(/\/form\/step-2$/)
      expect((yield* call("wait_for", { url: "/step-\\d$/", loadState: "networkidle" })).ok).toBe(true)
      const late = yield* call("wait_for", { url: "**/never", timeoutMs: 300 })
      expect(late.error?.code).toBe("MM_WAIT_TIMEOUT")
      expect(late.error?.message).toContain("/form/step-2")
      const neither = yield* call("wait_for", {})
      expect(neither.error?.code).toBe("MM_INVALID_INPUT")
    }))

  it.effect("expect passes on each condition and fails with the expected and the actual value", () =>
    Effect.gen(function* () {
      const { url } = yield* Pages
      yield* open("/form")
      const passing: Array<Record<string, unknown>> = [
        { testId: "terms", condition: "visible" },
        { selector: "#nothing", condition: "hidden" },
        { testId: "state", condition: "text", expected: "not agreed" },
        { testId: "state", condition: "text", expected: "/not AGREED/i" },
        { testId: "name", condition: "value", expected: "Ada" },
        { testId: "terms", condition: "checked", expected: false },
        { testId: "go", condition: "enabled", expected: false },
        { selector: ".row", condition: "count", expected: 3 },
        { condition: "url", expected: url("/form") },
        { condition: "title", expected: "Form" }
      ]
      for (const args of passing) expect((yield* call("expect", args)).ok, JSON.stringify(args)).toBe(true)
      const failed = yield* call("expect", { testId: "state", condition: "text", expected: "agreed", timeoutMs: 300 })
      expect(failed.error).toMatchObject({
        code: "MM_ASSERTION_FAILED",
        details: { condition: "text", target: "testId:state", expected: '"agreed"', actual: '"not agreed"' }
      })
      expect(failed.error?.message).toContain('expected "agreed", got "not agreed"')
      const count = yield* call("expect", { selector: ".row", condition: "count", expected: 5, timeoutMs: 200 })
      expect(count.error?.details).toMatchObject({ expected: "5", actual: "3" })
      const title = yield* call("expect", { condition: "title", expected: "Other", timeoutMs: 0 })
      expect(title.error?.details).toMatchObject({ expected: '"Other"', actual: '"Form"' })
      const targetless = yield* call("expect", { condition: "text", expected: "x" })
      expect(targetless.error?.code).toBe("MM_INVALID_INPUT")
    }))

  it.effect("a button inside a cross-origin (out-of-process) iframe is in the snapshot with a ref and clicks by ref", () =>
    Effect.gen(function* () {
      yield* open("/framed")
      const snapshot = yield* call("accessibility_snapshot")
      const [pay] = linesNamed(snapshot.snapshot, "button", "Pay now")
      expect(pay?.ref).toMatch(/^e\d+$/)
      expect(snapshot.snapshot).toContain("iframe")
      const clicked = yield* call("click", { a11yRef: pay!.ref })
      expect(clicked.ok).toBe(true)
      const after = yield* call("accessibility_snapshot")
      expect(linesNamed(after.snapshot, "button", "Paid")).toHaveLength(1)
    }))

  it.effect("save_pdf prints the page under the artifacts directory", () =>
    Effect.gen(function* () {
      const { artifactsDir } = yield* Pages
      yield* open("/form")
      const saved = yield* call("save_pdf", { name: "../form" })
      expect(saved.result.path).toBe(path.join(artifactsDir, "pdf", "form.pdf"))
      expect(fs.readFileSync(saved.result.path).subarray(0, 5).toString()).toBe("%PDF-")
    }))

  it.effect("every new tool runs inside mm_run_steps, and the session exports to a Playwright test that Playwright's runner passes", () =>
    Effect.gen(function* () {
      const { url, uploads } = yield* Pages
      expect((yield* call("launch", { force: true })).ok).toBe(true)
      const batch = yield* call("run_steps", {
        stopOnError: true,
        includeObservations: "none",
        steps: [
          { tool: "navigate", args: { screen: "url", url: url("/upload") } },
          { tool: "upload_file", args: { testId: "avatar", paths: [path.join(uploads, "a.txt")] } },
          { tool: "upload_file", args: { testId: "pick", paths: [path.join(uploads, "a.txt"), path.join(uploads, "b.txt")] } },
          { tool: "expect", args: { testId: "chosen", condition: "text", expected: "a.txt,b.txt" } },
          { tool: "navigate", args: { screen: "url", url: url("/drag") } },
          { tool: "drag", args: { testId: "card", to: { testId: "done" } } },
          { tool: "expect", args: { testId: "done", condition: "text", expected: "Done: card-1" } },
          { tool: "navigate", args: { screen: "url", url: url("/form") } },
          { tool: "set_checked", args: { testId: "terms" } },
          { tool: "expect", args: { testId: "terms", condition: "checked" } },
          { tool: "click", args: { testId: "next" } },
          { tool: "wait_for", args: { url: "**/form/step-2", loadState: "load" } },
          { tool: "expect", args: { condition: "url", expected: "/step-2$/" } },
          { tool: "navigate", args: { screen: "url", url: url("/todomvc/react/") } },
          { tool: "type", args: { selector: ".new-todo, #new-todo", text: "Walk the dog" } },
          { tool: "press_key", args: { selector: ".new-todo, #new-todo", key: "Enter" } },
          { tool: "click", args: { selector: "li label", count: 2 } },
          { tool: "expect", args: { selector: "li.editing .edit", condition: "value", expected: "Walk the dog" } },
          { tool: "navigate", args: { screen: "url", url: url("/feed") } },
          { tool: "expect", args: { selector: "#feed li", condition: "count", expected: 20 } },
          { tool: "scroll", args: { to: "bottom" } },
          { tool: "expect", args: { selector: "#feed li", condition: "count", expected: 40 } },
          { tool: "scroll", args: { selector: "#feed li:nth-child(30)" } },
          { tool: "save_pdf", args: { name: "feed" } }
        ]
      })
      expect(batch.result.steps.filter((step: { ok: boolean }) => !step.ok)).toEqual([])
      expect(batch.ok).toBe(true)
      expect(batch.result.summary.succeeded).toBe(batch.result.summary.total)

      const session = yield* Session
      const current = yield* session.current
      const exported = yield* exportSession(Option.getOrThrow(current).sessionId, "playwright")
      const code = exported.content
      for (const line of [
        ".setInputFiles(",
        'page.waitForEvent("filechooser")',
        'await dragAsAHand(page, page.getByTestId("card"), page.getByTestId("done"))',
        "const dragAsAHand = async (page: Page, source: Locator, target: Locator) => {",
        'await setCheckedAsAPerson(page.getByTestId("terms"), true)',
        'await page.waitForURL("**/form/step-2", { waitUntil: "load" })',
        ".dblclick()",
        'await expect(page.getByTestId("done")).toHaveText("Done: card-1")',
        "await expect(page).toHaveURL(/step-2$/)",
        'await expect(page.locator("#feed li")).toHaveCount(40)',
        "scrollTo({ top: box.scrollHeight })",
        ".scrollIntoViewIfNeeded()"
      ]) {
        expect(code).toContain(line)
      }
      expect(code).not.toMatch(/mm_(upload_file|drag|set_checked|scroll|expect|wait_for|click) .*no Playwright equivalent/)
      const batchExport = yield* exportSession(Option.getOrThrow(current).sessionId, "batch")
      expect(batchExport.content).toContain('"mm_drag"')

      // Playwright's runner, on the same pages, with the same browser and loopback flags.
      fs.mkdirSync(path.join(root, ".tmp"), { recursive: true })
      const dir = fs.mkdtempSync(path.join(root, ".tmp", "pw-export-"))
      fs.writeFileSync(path.join(dir, "flow.spec.ts"), code)
      const run = yield* runPlaywrightTests(writePlaywrightConfig(dir, { testTimeoutMs: 60_000 })).pipe(
        Effect.ensuring(Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true })))
      )
      expect(run.output).toContain("1 passed")
      expect(run.status).toBe(0)
    }))
})
