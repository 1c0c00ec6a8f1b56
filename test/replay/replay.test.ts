// Replay on real Chromium: sessions driven only by refs (read from mm_describe_screen, from
// mm_accessibility_snapshot / mm_find, and from action observations) on a login form with a password,
// TodoMVC (add, complete, filter) and Swagger UI (expand, Try it out, Execute). Each replays in one
// mm_replay call to the same end state in a fresh browser, and its exported Playwright test passes under
// `npx playwright test` (one runner invocation for all of them). A flow whose page changed (a renamed
// button) fails at that step with MM_TARGET_NOT_FOUND and the failure observation.
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option } from "effect"
import { EXECUTABLE_CANDIDATES } from "../../src/adapters/playwright/lifecycle/launch.js"
import type { Envelope } from "../../src/domain/envelope.js"
import type { StepRecord } from "../../src/domain/knowledge.js"
import { runTool } from "../../src/runtime/runTool.js"
import type { AnyToolDefinition } from "../../src/runtime/tool.js"
import { KnowledgeStore } from "../../src/services/KnowledgeStore.js"
import { Session } from "../../src/services/Session.js"
import { servedRegistry } from "../../src/tools/registry.js"
import { corpusServer } from "../page/corpus.js"
import { linesNamed } from "../page/parse.js"
import { html, liveLayer, testSettings } from "../support/browser.js"
import { runPlaywrightTests, writePlaywrightConfig } from "../support/playwright-runner.js"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")

const PASSWORD = "correct horse"

/** A sign-in form without test ids: a real navigation to the welcome page, a profile that shows up late. */
const loginPlain = html(
  "Sign in",
  `<h1>Sign in</h1>
   <form aria-label="Sign in">
     <label>Email <input name="email" type="email"></label>
     <label>Password <input name="password" type="password"></label>
     <button type="submit">Sign in</button>
     <p role="alert" hidden>Wrong email or password</p>
   </form>
   <script>
     document.querySelector("form").addEventListener("submit", (event) => {
       event.preventDefault()
       const email = document.querySelector("[name=email]").value
       const ok = document.querySelector("[name=password]").value === ${JSON.stringify(PASSWORD)}
       setTimeout(() => {
         if (ok) location.href = "/welcome?user=" + encodeURIComponent(email)
         else document.querySelector("[role=alert]").hidden = false
       }, 150)
     })
   </script>`
)

const welcome = html(
  "Welcome",
  `<h1>Welcome</h1>
   <nav aria-label="Account"><a href="/login-plain">Sign out</a></nav>
   <button>Show profile</button>
   <section aria-label="Profile"></section>
   <script>
     const user = new URLSearchParams(location.search).get("user")
     document.querySelector("button").addEventListener("click", () =>
       setTimeout(() => (document.querySelector("section").innerHTML = "<p>Profile of " + user + "</p>"), 300))
   </script>`
)

/** An editor whose Save button gets renamed between recording and replay. */
const editor = (save: string) =>
  html(
    "Editor",
    `<label>Title <input name="title"></label>
     <button id="save">${save}</button>
     <button id="publish">Publish</button>
     <p id="status"></p>
     <script>
       document.querySelector("#save").addEventListener("click", () => (document.querySelector("#status").textContent = "Saved"))
       document.querySelector("#publish").addEventListener("click", () => (document.querySelector("#status").textContent = "Published"))
     </script>`
  )

/** A board without test ids: a card dragged (HTML5 drag and drop) onto a column, both named by role and name. */
const board = html(
  "Board",
  `<style>.box{width:160px;height:60px;margin:10px;border:1px solid #000}</style>
   <div class="box" role="button" aria-label="Card 1" draggable="true" ondragstart="event.dataTransfer.setData('text/plain', 'card-1')">Card 1</div>
   <div class="box" role="region" aria-label="Done column" ondragover="event.preventDefault()" ondrop="event.preventDefault(); document.getElementById('moved').textContent = 'Moved: ' + event.dataTransfer.getData('text/plain')">Done</div>
   <p id="moved">Nothing moved</p>`
)

/** A checkout that moves on to a page whose URL carries a timestamp, and shows what it did there. */
const checkout = html(
  "Checkout",
  `<h1>Checkout</h1>
   <p>2 items</p>
   <button>Place order</button>
   <script>
     document.querySelector("button").addEventListener("click", () => setTimeout(() => (location.href = "/orders/done?ts=" + Date.now()), 100))
   </script>`
)
const orderDone = (status: string, items: ReadonlyArray<string> = ["Tea", "Cake"], count = "2 items left") =>
  html(
    "Thank you",
    `<h1>Thank you</h1>
     <p>${status}</p>
     <ul aria-label="Items">${items.map((item) => `<li>${item}</li>`).join("")}</ul>
     <span id="todo-count">${count}</span>`
  )

const pages: Record<string, string> = {
  "/login-plain": loginPlain,
  "/welcome": welcome,
  "/editor": editor("Save"),
  "/board": board,
  "/checkout": checkout,
  "/orders/done": orderDone("Order confirmed: 2 items")
}

class Corpus extends Context.Tag("test/ReplayCorpus")<Corpus, { readonly url: (path: string) => string }>() {}
const CorpusLive = Layer.scoped(Corpus, Effect.map(corpusServer(pages), (server) => ({ url: (p: string) => `${server.url}${p}` })))

const settings = testSettings()
const registry = servedRegistry(settings)

const call = (name: string, args: Record<string, unknown> = {}) => {
  const tool: AnyToolDefinition | undefined = registry.lookup(name)
  if (tool === undefined) throw new Error(`no tool ${name}`)
  // The structured observation beside the lean envelope, as a library user reads it.
  return Effect.map(runTool(tool)(args), (response) => ({
    ...(response.envelope as Envelope<any>),
    observation: response.observation as any,
    text: response.attachments.map((block) => (block.type === "text" ? block.text : "")).join("\n")
  }))
}

const ok = (name: string, args: Record<string, unknown> = {}) =>
  Effect.tap(call(name, args), (envelope) =>
    Effect.sync(() => expect(envelope.error, `${name} ${JSON.stringify(args)}: ${JSON.stringify(envelope.error)}`).toBeUndefined())
  )

/** The ref of a node in an action's observation. */
const observedRef = (envelope: { readonly observation?: any }, role: string, name: string): string => {
  const node = (envelope.observation?.a11y?.nodes ?? []).find((candidate: any) => candidate.role === role && candidate.name === name)
  expect(node, `${role} "${name}" in the observation`).toBeDefined()
  return node!.ref
}

/** The ref of a node in a snapshot text (describe_screen, accessibility_snapshot) or a find answer. */
const textRef = (text: string, role: string, name: string, nth = 0): string => {
  const line = linesNamed(text.replace(/▶ /g, ""), role, name)[nth]
  expect(line, `${role} "${name}" in\n${text}`).toBeDefined()
  return line!.ref!
}

/** The running session's id (the launch result's, or the replay's own session). */
const currentSessionId = Effect.flatMap(Session, (session) => session.current).pipe(
  Effect.map((current) => Option.getOrThrow(current).sessionId)
)

/** Every recorded action of a session acted on a ref, and each got a durable form. */
const expectRefDriven = (sessionId: string, tools: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const steps: ReadonlyArray<StepRecord> = yield* (yield* KnowledgeStore).steps(sessionId)
    const actions = steps.filter((step) => tools.includes(step.tool.name) && step.tool.target !== undefined)
    expect(actions.length).toBeGreaterThan(0)
    for (const step of actions) {
      expect(step.tool.target?.a11yRef, step.tool.name).toMatch(/^e\d+$/)
      expect(step.tool.target?.element?.unique.length, JSON.stringify(step.tool.target)).toBeGreaterThan(0)
    }
    return actions
  })

/** Where exported Playwright tests go: inside the repository, so that they resolve @playwright/test. */
const specDir = path.join(root, "test-artifacts", `replay-specs-${process.pid}`)

const exportSpec = (sessionId: string, file: string) =>
  Effect.gen(function* () {
    const exported = yield* ok("mm_knowledge", { session: sessionId, export: "playwright" })
    fs.mkdirSync(specDir, { recursive: true })
    fs.writeFileSync(path.join(specDir, file), exported.result.content)
    return exported.result
  })

layer(Layer.merge(liveLayer(settings), CorpusLive), { timeout: 180_000, excludeTestServices: true })("replay on real Chromium", (it) => {
  describe("ref-driven sessions replay in one call and export passing Playwright tests", () => {
    it.effect("a sign-in form with a password: refs from describe_screen and from a navigation's observation", () =>
      Effect.gen(function* () {
        const { url } = yield* Corpus
        const launched = yield* ok("mm_launch", { goal: "sign in and open the profile", flowTags: ["replay-login"], force: true })
        const sessionId = launched.result.sessionId as string
        yield* ok("mm_navigate", { screen: "url", url: url("/login-plain") })
        const screen = (yield* ok("mm_describe_screen")).snapshot as string
        yield* ok("mm_type", { a11yRef: textRef(screen, "textbox", "Email"), text: "alice@example.com" })
        yield* ok("mm_type", { a11yRef: textRef(screen, "textbox", "Password"), text: PASSWORD })
        const signedIn = yield* ok("mm_click", { a11yRef: textRef(screen, "button", "Sign in") })
        // The sign-in navigates 150 ms later: the click's answer waits for that short timer and shows the new page;
        // the wait for it, as an agent would, then has nothing new. Act on the ref the answers showed.
        const arrived = yield* ok("mm_wait_for", { selector: "role=button[name=\"Show profile\"]" })
        const shown = [arrived, signedIn].find((envelope: any) => (envelope.observation?.a11y?.nodes ?? []).some((node: any) => node.role === "button" && node.name === "Show profile"))
        yield* ok("mm_click", { a11yRef: observedRef(shown ?? arrived, "button", "Show profile") })
        yield* ok("mm_wait_for", { selector: "text=Profile of alice@example.com" })
        const actions = yield* expectRefDriven(sessionId, ["type", "click"])
        expect(actions.map((step) => step.tool.target?.element?.role)).toEqual(["textbox", "textbox", "button", "button"])
        yield* ok("mm_cleanup")

        const batch = (yield* ok("mm_knowledge", { session: sessionId, export: "batch" })).result
        expect(JSON.parse(batch.content)).toMatchObject({ stopOnError: true, includeObservations: "failures" })
        // Nothing about the secret is kept, not even its length.
        expect(batch.placeholders).toEqual([{ name: "password", target: 'role:textbox "Password"' }])
        expect(batch.content).not.toContain(PASSWORD)

        // The password is not stored: a replay without it says which placeholder is missing, before launching.
        const unfilled = yield* call("mm_replay", { flowTag: "replay-login" })
        expect(unfilled.error).toMatchObject({ code: "MM_INVALID_INPUT", details: { field: "params.password" } })
        expect(JSON.stringify(unfilled)).not.toMatch(new RegExp(`\\b${PASSWORD.length}\\b|characters`))
        expect(Option.isNone(yield* Effect.flatMap(Session, (session) => session.current))).toBe(true)

        // A fresh browser: mm_replay launches one, runs the newest successful flow with the tag, and fills the secret.
        const replayed = yield* ok("mm_replay", { flowTag: "replay-login", params: { password: PASSWORD }, keepSession: true })
        expect(replayed.result.replayed).toBe(sessionId)
        expect(replayed.result.summary).toMatchObject({ ok: true })
        const end = yield* ok("mm_find", { text: "Profile of alice@example.com" })
        expect(end.snapshot).toContain("Profile of alice@example.com")
        // The replay is recorded as a session of its own, without the secret.
        const replaySession = yield* currentSessionId
        expect(replaySession).not.toBe(sessionId)
        const recorded = JSON.stringify(yield* (yield* KnowledgeStore).steps(replaySession))
        expect(recorded).not.toContain(PASSWORD)
        yield* ok("mm_cleanup")

        const spec = yield* exportSpec(sessionId, "login.spec.ts")
        expect(spec.content).toContain('getByRole("textbox", { name: "Email", exact: true }).fill("alice@example.com")')
        expect(spec.content).toContain('.fill(requiredEnv("BWM_SECRET_PASSWORD"))')
        expect(spec.content).not.toContain("?? \"\"")
      }))

    it.effect("TodoMVC: add, complete, filter, with refs from accessibility_snapshot, find and observations", () =>
      Effect.gen(function* () {
        const { url } = yield* Corpus
        const launched = yield* ok("mm_launch", { goal: "todo list", flowTags: ["replay-todo"], force: true })
        const sessionId = launched.result.sessionId as string
        yield* ok("mm_navigate", { screen: "url", url: url("/todomvc/react/") })
        const snapshot = (yield* ok("mm_accessibility_snapshot")).snapshot as string
        const input = textRef(snapshot, "textbox", "What needs to be done?")
        for (const todo of ["Buy milk", "Walk the dog"]) {
          yield* ok("mm_type", { a11yRef: input, text: todo })
          yield* ok("mm_press_key", { a11yRef: input, key: "Enter" })
        }
        // Each item's checkbox has no name: the refs come from a search for the item's text.
        const found = (yield* ok("mm_find", { text: "Buy milk" })).snapshot as string
        const lines = found.replace(/▶ /g, "").split("\n")
        const itemLine = lines.findIndex((line) => /listitem \[e\d+\]: Buy milk/.test(line))
        const checkbox = /checkbox \[(e\d+)/.exec(lines.slice(itemLine + 1).join("\n"))![1]!
        const completed = yield* ok("mm_click", { a11yRef: checkbox })
        const filter = (yield* ok("mm_find", { role: "link", name: "Completed" })).snapshot as string
        yield* ok("mm_click", { a11yRef: textRef(filter, "link", "Completed") })
        expect(completed.ok).toBe(true)
        const actions = yield* expectRefDriven(sessionId, ["type", "press_key", "click"])
        const toggle = actions.find((step) => step.tool.target?.element?.role === "checkbox")!
        expect(toggle.tool.target?.element).toEqual({
          role: "checkbox",
          selector: 'internal:role=listitem >> internal:has-text="Buy milk"i >> internal:role=checkbox',
          unique: ["selector"]
        })
        yield* ok("mm_cleanup")

        const replayed = yield* ok("mm_replay", { sessionId, keepSession: true })
        expect(replayed.result.summary).toMatchObject({ ok: true })
        const state = yield* ok("mm_get_state")
        expect(state.result.state.url).toMatch(/#\/completed$/)
        const list = (yield* ok("mm_find", { role: "listitem" })).snapshot as string
        expect(list).toContain("Buy milk")
        expect(list).not.toContain("Walk the dog")
        yield* ok("mm_cleanup")

        const spec = yield* exportSpec(sessionId, "todo.spec.ts")
        // A checkbox's click: where a person clicks it (the box itself here, Playwright's click on it).
        expect(spec.content).toContain('await clickAsAPerson(page.getByRole("listitem").filter({ hasText: "Buy milk" }).getByRole("checkbox"))')
      }))

    it.effect("Swagger UI: expand, Try it out, Execute, with refs from find and from each click's observation", () =>
      Effect.gen(function* () {
        const { url } = yield* Corpus
        const launched = yield* ok("mm_launch", { goal: "list two planets", flowTags: ["replay-swagger"], force: true })
        const sessionId = launched.result.sessionId as string
        yield* ok("mm_navigate", { screen: "url", url: url("/swagger/") })
        yield* ok("mm_wait_for", { selector: "text=Get all planets" })
        const summary = (yield* ok("mm_find", { role: "button", name: "GET /planets Get all planets" })).snapshot as string
        const expanded = yield* ok("mm_click", { a11yRef: textRef(summary, "button", "GET /planets Get all planets") })
        const tried = yield* ok("mm_click", { a11yRef: observedRef(expanded, "button", "Try it out") })
        yield* ok("mm_type", { a11yRef: observedRef(tried, "textbox", "limit"), text: "2" })
        const execute = (yield* ok("mm_find", { role: "button", name: "Execute" })).snapshot as string
        yield* ok("mm_click", { a11yRef: textRef(execute, "button", "Execute") })
        yield* expectRefDriven(sessionId, ["type", "click"])
        yield* ok("mm_cleanup")

        const replayed = yield* ok("mm_replay", { sessionId, keepSession: true })
        expect(replayed.result.summary).toMatchObject({ ok: true })
        yield* ok("mm_wait_for", { selector: ".live-responses-table" })
        const body = (yield* ok("mm_find", { text: "Venus" })).snapshot as string
        expect(body).toContain("Venus")
        expect(body).not.toContain("Earth")
        yield* ok("mm_cleanup")

        const spec = yield* exportSpec(sessionId, "swagger.spec.ts")
        expect(spec.content).toContain('getByRole("button", { name: "GET /planets Get all planets", exact: true }).click()')
      }))

    it.effect("a drag whose drop target was given only as a ref: its drop target is recorded durably and replays", () =>
      Effect.gen(function* () {
        const { url } = yield* Corpus
        const launched = yield* ok("mm_launch", { goal: "move a card", flowTags: ["replay-drag"], force: true })
        const sessionId = launched.result.sessionId as string
        yield* ok("mm_navigate", { screen: "url", url: url("/board") })
        const screen = (yield* ok("mm_describe_screen")).snapshot as string
        yield* ok("mm_drag", { a11yRef: textRef(screen, "button", "Card 1"), to: { a11yRef: textRef(screen, "region", "Done column") } })
        yield* ok("mm_wait_for", { selector: "text=Moved: card-1" })
        const [drag] = yield* expectRefDriven(sessionId, ["drag"])
        const to = drag!.tool.input.to as { readonly a11yRef?: string; readonly element?: { readonly role?: string; readonly name?: string; readonly unique: ReadonlyArray<string> } }
        expect(to.a11yRef).toMatch(/^e\d+$/)
        expect(to.element).toMatchObject({ role: "region", name: "Done column" })
        expect(to.element?.unique).toContain("role")
        yield* ok("mm_cleanup")

        const batch = (yield* ok("mm_knowledge", { session: sessionId, export: "batch" })).result
        const dragStep = JSON.parse(batch.content).steps.find((step: { tool: string }) => step.tool === "mm_drag")
        expect(dragStep.args.to).toEqual({ selector: 'role=region[name="Done column"s]' })

        const replayed = yield* ok("mm_replay", { sessionId, keepSession: true })
        expect(replayed.result.summary).toMatchObject({ ok: true })
        expect((replayed.result.skipped ?? []).join("\n")).not.toContain("drag")
        yield* ok("mm_wait_for", { selector: "text=Moved: card-1" })
        yield* ok("mm_cleanup")

        const spec = yield* exportSpec(sessionId, "drag.spec.ts")
        expect(spec.content).toContain(', page.getByRole("region", { name: "Done column", exact: true }))')
        expect(spec.content).toMatch(/^\s*await dragAsAHand\(page, /m)
        expect(spec.content).not.toContain(".dragTo(")
      }))

    it.effect("what the agent read replays as a check and exports as expect lines, and the test ends on the page the flow reached", () =>
      Effect.gen(function* () {
        const { url } = yield* Corpus
        const launched = yield* ok("mm_launch", { goal: "place an order", flowTags: ["replay-order"], force: true })
        const sessionId = launched.result.sessionId as string
        yield* ok("mm_navigate", { screen: "url", url: url("/checkout") })
        const screen = (yield* ok("mm_describe_screen")).snapshot as string
        yield* ok("mm_click", { a11yRef: textRef(screen, "button", "Place order") })
        const arrived = yield* ok("mm_wait_for", { selector: "role=heading[name=\"Thank you\"]" })
        // The status paragraph has no name: its ref comes from a search for its text.
        const found = (yield* ok("mm_find", { text: "Order confirmed" })).snapshot as string
        const status = /paragraph \[(e\d+)\]/.exec(found.replace(/▶ /g, ""))?.[1]
        expect(status, found).toBeDefined()
        // A short wait, recorded: a replay whose status never shows fails after it.
        const read = yield* ok("mm_get_text", { a11yRef: status, timeoutMs: 3_000 })
        expect(read.result.text).toBe("Order confirmed: 2 items")
        yield* ok("mm_get_text", { selector: "role=list[name=\"Items\"] >> role=listitem", all: true, timeoutMs: 3_000 })
        // A read by a unique selector: the check of its text is located by that selector, never by the text.
        yield* ok("mm_get_text", { selector: "#todo-count", timeoutMs: 3_000 })
        expect(arrived.ok).toBe(true)
        // What it read is in the step memory, with a durable form of the unnamed paragraph.
        const steps: ReadonlyArray<StepRecord> = yield* (yield* KnowledgeStore).steps(sessionId)
        const reads = steps.filter((step) => step.tool.name === "get_text")
        expect(reads.map((step) => step.tool.input.read)).toEqual(["Order confirmed: 2 items", ["Tea", "Cake"], "2 items left"])
        expect(reads[0]!.tool.target?.element?.unique.length).toBeGreaterThan(0)
        yield* ok("mm_cleanup")

        // The batch checks the texts and the page the flow ended on (its timestamp matches any).
        const batch = JSON.parse((yield* ok("mm_knowledge", { session: sessionId, export: "batch" })).result.content)
        const checks = batch.steps.filter((step: { tool: string }) => step.tool === "mm_get_text")
        expect(checks.map((step: { args: Record<string, unknown> }) => step.args.expected)).toEqual(["Order confirmed: 2 items", ["Tea", "Cake"], "2 items left"])
        expect(checks[2].args).toMatchObject({ selector: "#todo-count" })
        // The status paragraph has no other name than its text (it was read by ref): only there is a check located by it.
        expect(checks[0].args.selector).toContain("Order confirmed")
        expect(batch.steps.at(-1)).toEqual({ tool: "mm_wait_for", args: { url: expect.stringMatching(/\/orders\/done\\\?ts=\[\^&#\]\*\$\/$/), timeoutMs: 5000 } })

        const spec = yield* exportSpec(sessionId, "order.spec.ts")
        expect(spec.content).toMatch(/await expect\(page\.[^\n]+\)\.toHaveText\("Order confirmed: 2 items", \{ useInnerText: true \}\)/)
        expect(spec.content).toContain('.toHaveText(["Tea","Cake"], { useInnerText: true })')
        expect(spec.content).toContain('await expect(page.locator("#todo-count")).toHaveText("2 items left", { useInnerText: true })')
        expect(spec.content).not.toContain('getByText("2 items left"')
        expect(spec.content).toMatch(/await expect\(page\)\.toHaveURL\(\/\^http:\\\/\\\/127\\\.0\\\.0\\\.1:\d+\\\/orders\\\/done\\\?ts=\[\^&#\]\*\$\/\)/)
        expect(spec.content).toContain('await expect(page).toHaveTitle("Thank you")')

        // The replay checks them too: it passes on the same app, and fails at the read when the text changed.
        const replayed = yield* ok("mm_replay", { sessionId })
        expect(replayed.result.summary).toMatchObject({ ok: true })
        yield* ok("mm_cleanup")
        // The count changed: the check finds its element and says what it reads now.
        pages["/orders/done"] = orderDone("Order confirmed: 2 items", ["Tea", "Cake"], "1 item left")
        const wrongCount = yield* call("mm_replay", { sessionId })
        expect(wrongCount.error?.details).toMatchObject({ failed: { tool: "mm_get_text", code: "MM_ASSERTION_FAILED" } })
        expect(wrongCount.error?.message).toContain('expected "2 items left", got "1 item left"')
        yield* ok("mm_cleanup")
        // The list shows other items: the check of the list fails, saying what it read.
        pages["/orders/done"] = orderDone("Order confirmed: 2 items", ["Tea", "Coffee"])
        // A replay that failed is an error (not ok with a failed summary), naming the step and why.
        const wrongItems = yield* call("mm_replay", { sessionId })
        expect(wrongItems.ok).toBe(false)
        expect(wrongItems.result).toBeUndefined()
        expect(wrongItems.error?.code).toBe("MM_REPLAY_FAILED")
        expect(wrongItems.error?.details).toMatchObject({ replayed: sessionId, summary: { failed: 1 }, failed: { tool: "mm_get_text", code: "MM_ASSERTION_FAILED" } })
        expect(wrongItems.error?.details?.summary).not.toHaveProperty("ok")
        expect(wrongItems.error?.message).toContain('["Tea","Coffee"]')
        yield* ok("mm_cleanup")
        // The status changed: the paragraph was named by its text, so no element reads it; the same code, at that step.
        pages["/orders/done"] = orderDone("Order failed: card declined")
        const wrongStatus = yield* call("mm_replay", { sessionId })
        expect(wrongStatus.error?.code).toBe("MM_REPLAY_FAILED")
        expect(wrongStatus.error?.details).toMatchObject({ failed: { tool: "mm_get_text", code: "MM_ASSERTION_FAILED" } })
        expect(wrongStatus.error?.message).toContain("Order confirmed: 2 items")
        // The step's own message is whole, not cut mid-sentence.
        expect(wrongStatus.error?.message).not.toMatch(/\.\.\. \(\d+ characters\)/)
        yield* ok("mm_cleanup")
        pages["/orders/done"] = orderDone("Order confirmed: 2 items")
      }).pipe(Effect.ensuring(Effect.sync(() => (pages["/orders/done"] = orderDone("Order confirmed: 2 items"))))))

    // Four runs of Playwright's runner, each starting its own browsers (the first two at once): about 30 s quiet, past 45 s beside other files.
    it.effect("the exported tests pass under npx playwright test (one runner for all of them)", () =>
      Effect.gen(function* () {
        expect(EXECUTABLE_CANDIDATES.some((candidate) => fs.existsSync(candidate))).toBe(true)
        const config = writePlaywrightConfig(specDir, { workers: 2 })
        const runner = (files: ReadonlyArray<string>, env: Readonly<Record<string, string>>) => {
          const { BWM_SECRET_PASSWORD: _inherited, ...inherited } = process.env
          return runPlaywrightTests(config, { files, env: { ...inherited, ...env } })
        }
        // The sign-in test without the password's variable reads no page the others change: it runs beside the first run,
        // from a directory (and results) of its own.
        const unsetDir = `${specDir}-unset`
        fs.mkdirSync(unsetDir, { recursive: true })
        fs.copyFileSync(path.join(specDir, "login.spec.ts"), path.join(unsetDir, "login.spec.ts"))
        const unsetConfig = writePlaywrightConfig(unsetDir, { workers: 1 })
        const { BWM_SECRET_PASSWORD: _unset, ...withoutPassword } = process.env
        const [run, unset] = yield* Effect.all(
          [runner([], { BWM_SECRET_PASSWORD: PASSWORD }), runPlaywrightTests(unsetConfig, { env: withoutPassword })],
          { concurrency: 2 }
        )
        expect(run.status, run.output).toBe(0)
        expect(run.output).toMatch(/5 passed/)
        // Without the password's variable the test fails at once, naming it, instead of typing "".
        expect(unset.status, unset.output).not.toBe(0)
        expect(unset.output).toContain("Set the environment variable BWM_SECRET_PASSWORD")
        expect(unset.output).toMatch(/1 failed/)
        // The order's test checks what the agent read: with other items on the page it fails there, showing them.
        pages["/orders/done"] = orderDone("Order confirmed: 2 items", ["Tea", "Coffee"])
        const changed = yield* runner(["order.spec.ts"], {}).pipe(Effect.ensuring(Effect.sync(() => (pages["/orders/done"] = orderDone("Order confirmed: 2 items")))))
        expect(changed.status, changed.output).not.toBe(0)
        expect(changed.output).toContain("toHaveText")
        expect(changed.output).toContain('"Coffee"')
        expect(changed.output).toMatch(/1 failed/)
        // A changed count fails as a text that differs (expected and received), not as an element not found.
        pages["/orders/done"] = orderDone("Order confirmed: 2 items", ["Tea", "Cake"], "1 item left")
        const recount = yield* runner(["order.spec.ts"], {}).pipe(Effect.ensuring(Effect.sync(() => (pages["/orders/done"] = orderDone("Order confirmed: 2 items")))))
        expect(recount.status, recount.output).not.toBe(0)
        expect(recount.output).toContain('locator(\'#todo-count\')')
        expect(recount.output).toMatch(/Expected[^\n]*"2 items left"/)
        expect(recount.output).toMatch(/Received[^\n]*"1 item left"/)
        expect(recount.output).not.toContain("element(s) not found")
        fs.rmSync(specDir, { recursive: true, force: true })
        fs.rmSync(unsetDir, { recursive: true, force: true })
      }), 180_000)
  })

  it.effect("a flow whose button was renamed fails at that step with MM_TARGET_NOT_FOUND and the page, not later", () =>
    Effect.gen(function* () {
      const { url } = yield* Corpus
      const launched = yield* ok("mm_launch", { goal: "save and publish", force: true })
      const sessionId = launched.result.sessionId as string
      yield* ok("mm_navigate", { screen: "url", url: url("/editor") })
      const screen = (yield* ok("mm_describe_screen")).snapshot as string
      yield* ok("mm_type", { a11yRef: textRef(screen, "textbox", "Title"), text: "Hello" })
      yield* ok("mm_click", { a11yRef: textRef(screen, "button", "Save"), timeoutMs: 2_000 })
      yield* ok("mm_click", { a11yRef: textRef(screen, "button", "Publish") })
      yield* ok("mm_cleanup")

      pages["/editor"] = editor("Store")
      const replayed = yield* call("mm_replay", { sessionId })
      // launch, start page, type, click Save (fails), click Publish and the end page's check (not run)
      expect(replayed.ok).toBe(false)
      expect(replayed.error).toMatchObject({
        code: "MM_REPLAY_FAILED",
        details: { replayed: sessionId, summary: { total: 6, succeeded: 3, failed: 1, skipped: 2 }, failed: { index: 3, tool: "mm_click", code: "MM_TARGET_NOT_FOUND" } }
      })
      // The failed step's message, whole: where to look next included.
      expect(replayed.error?.message).toMatch(/^The replay of \S+ failed at step 3 \(mm_click, MM_TARGET_NOT_FOUND\): .*Save.*mm_describe_screen[^]*3 of 6 steps succeeded, 2 not run\.$/)
      expect(replayed.error?.message).not.toMatch(/\.\.\. \(\d+ characters\)/)
      // The error brings the page the flow stopped on, as text.
      expect(linesNamed(replayed.snapshot as string, "button", "Store")).toHaveLength(1)
      // Its session was seen, then closed: the answer names it and says so.
      expect(replayed.error?.details).toMatchObject({ open: false })
      expect(replayed.error?.details?.session).toMatch(/^mm-/)
      expect(replayed.error?.details?.session).not.toBe(sessionId)
      expect(Option.isNone(yield* Effect.flatMap(Session, (session) => session.current))).toBe(true)

      // Back to the old name, the same flow replays, also as a step of a batch.
      pages["/editor"] = editor("Save")
      const batch = yield* ok("mm_run_steps", { steps: [{ tool: "mm_replay", args: { sessionId, keepSession: true } }, { tool: "mm_get_text", args: { selector: "#status" } }] })
      expect(batch.result.summary).toMatchObject({ ok: true })
      expect(batch.result.steps[0].result.summary).toMatchObject({ ok: true })
      expect(batch.result.steps[1].result.text).toBe("Published")
      yield* ok("mm_cleanup")
    }))
})
