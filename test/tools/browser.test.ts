// The core tools against real Chromium and pages served on 127.0.0.1 by this test.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { loginPage } from "../../demo/sample-app.js"
import type { Envelope } from "../../src/domain/envelope.js"
import { runTool } from "../../src/runtime/runTool.js"
import { KnowledgeStore } from "../../src/services/KnowledgeStore.js"
import { Session } from "../../src/services/Session.js"
import { accessibilitySnapshot, describeScreen, getState, listTestIds } from "../../src/tools/discovery.js"
import { click, getText, type, waitFor } from "../../src/tools/interaction.js"
import { navigate } from "../../src/tools/navigation.js"
import { screenshot } from "../../src/tools/screenshot.js"
import { cleanup, launch } from "../../src/tools/session.js"
import { html, liveLayer, testSettings } from "../support/browser.js"
import { pageHarness } from "../support/page-harness.js"
import { linesNamed, parseSnapshot } from "../page/parse.js"

const pages = {
  "/login": loginPage,
  "/copies": html(
    "Copies",
    `<section id="first" aria-label="First"><p id="first-out">first: idle</p><button onclick="document.getElementById('first-out').textContent='first: copied'">Copy</button></section>
     <section id="second" aria-label="Second"><p id="second-out">second: idle</p><button onclick="document.getElementById('second-out').textContent='second: copied'">Copy</button></section>
     <button id="remove" onclick="document.getElementById('second').remove()">Remove second</button>`
  ),
  "/visibility": html(
    "Visibility",
    `<button data-testid="shown">Shown</button>
     <button data-testid="hidden" style="display:none">Hidden</button>
     <div data-testid="invisible" style="visibility:hidden">Invisible</div>
     <span data-testid="label">A label</span>
     <input data-testid="field" value="typed value">
     <button class="many">One</button><button class="many">Two</button>
     <button data-testid="later" hidden>Later</button>
     <button id="reveal-later" onclick="setTimeout(() => document.querySelector('[data-testid=later]').hidden = false, 300)">Reveal later</button>`
  ),
  "/dialog": html(
    "Dialog",
    `<button data-testid="open" onclick="document.getElementById('d').showModal()">Open settings</button>
     <dialog id="d" aria-label="Settings"><h2>Settings</h2><button data-testid="close" onclick="document.getElementById('d').close()">Close</button></dialog>`
  ),
  "/long": html(
    "Long",
    `<input data-testid="filter" aria-label="Filter">
     ${Array.from({ length: 199 }, (_, i) => (i % 2 === 0 ? `<button>Item ${i + 1}</button>` : `<a href="#${i + 1}">Item ${i + 1}</a>`)).join("")}
     <button id="last" onclick="this.textContent = 'Last, pressed'">Last</button>`
  ),
  "/closer": html("Closer", `<button data-testid="confirm" onclick="window.close()">Confirm</button>`),
  "/storage": html("Storage", `<p data-testid="theme"></p><script>document.querySelector('[data-testid=theme]').textContent = 'theme=' + localStorage.getItem('theme')</script>`)
}

const settings = testSettings({
  screens: { notification: "/closer" },
  screenRules: [
    { screen: "login", testId: "login-form" },
    { screen: "dialog-page", urlPattern: "/dialog$" }
  ]
})

const { Pages, PagesLive, call, open } = pageHarness("test/Pages", pages)

const nodeNamed = (envelope: Envelope<any>, role: string, name: string) => linesNamed(envelope.snapshot, role, name)

layer(Layer.merge(liveLayer(settings), PagesLive), { timeout: 120_000, excludeTestServices: true })("core tools in real Chromium", (it) => {
  it.effect("a tool that needs a session answers MM_NO_ACTIVE_SESSION before launch", () =>
    Effect.gen(function* () {
      const envelope = yield* call(click, { testId: "x" })
      expect(envelope.error?.code).toBe("MM_NO_ACTIVE_SESSION")
    }))

  it.effect("a login form can be filled by ref and test id, and the password never reaches the artifacts", () =>
    Effect.gen(function* () {
      yield* open("/login")
      const screen = yield* call(describeScreen)
      expect(screen.result.state.screen).toBe("login")
      const [username] = nodeNamed(screen, "textbox", "Username")
      expect(username!.ref).toMatch(/^e\d+$/)
      expect((yield* call(type, { a11yRef: username!.ref, text: "alice" })).result).toEqual({ typed: true })
      const typedPassword = yield* call(type, { testId: "password", text: "correct horse" })
      expect(typedPassword.result.sensitive).toBe(true)
      const clicked = yield* call(click, { testId: "login-submit" })
      expect(clicked.result).toEqual({ clicked: true })
      expect(clicked.observation?.a11y?.changesOnly).toBe(true)
      const waited = yield* call(waitFor, { testId: "welcome" })
      expect(waited.ok).toBe(true)
      // The sign-in form left and the dashboard arrived (150 ms after the click: the click's observation
      // or the wait's, whichever came after it, says so).
      const observed = [clicked, waited].map((envelope) => envelope.observation?.a11y)
      expect(observed.some((a11y) => a11y?.nodes.some((node) => node.role === "heading" && node.name === "Welcome, alice"))).toBe(true)
      expect(observed.reduce((sum, a11y) => sum + (a11y?.removed?.length ?? 0), 0)).toBeGreaterThanOrEqual(3)
      expect((yield* call(getText, { testId: "welcome" })).result.text).toBe("Welcome, alice")

      // Steps are written off the call's path: the store writes what is queued before the files are read.
      const store = yield* KnowledgeStore
      yield* store.flush ?? Effect.void
      const files = fs.readdirSync(settings.artifactsDir, { recursive: true, encoding: "utf8" })
      const contents = files
        .map((file) => path.join(settings.artifactsDir, file))
        .filter((file) => fs.statSync(file).isFile())
        .map((file) => fs.readFileSync(file, "utf8"))
      expect(contents.length).toBeGreaterThan(3)
      expect(contents.some((text) => text.includes("correct horse"))).toBe(false)
      expect(contents.some((text) => text.includes('"alice"'))).toBe(true)
      const session = yield* Session
      const current = yield* session.current
      const steps = yield* store.steps(current._tag === "Some" ? current.value.sessionId : "")
      const passwordStep = steps.find((step) => step.tool.name === "type" && step.tool.target?.testId === "password")
      expect(passwordStep?.tool).toMatchObject({ textRedacted: true, input: { text: "[REDACTED]" } })
      // Nothing about a secret is recorded, not even its length.
      expect(passwordStep?.tool).not.toHaveProperty("textLength")
    }))

  it.effect("two buttons with the same name get two refs, and each ref clicks its own button", () =>
    Effect.gen(function* () {
      yield* open("/copies")
      const snapshot = yield* call(accessibilitySnapshot)
      const copies = nodeNamed(snapshot, "button", "Copy")
      expect(copies).toHaveLength(2)
      expect(copies[0]!.ref).not.toBe(copies[1]!.ref)
      // Each button sits inside its own region.
      const lines = parseSnapshot(snapshot.snapshot)
      const regionAbove = (ref: string) => {
        const index = lines.findIndex((line) => line.ref === ref)
        return lines.slice(0, index).reverse().find((line) => line.role === "region" && line.depth < lines[index]!.depth)?.name
      }
      expect(regionAbove(copies[0]!.ref!)).toBe("First")
      expect(regionAbove(copies[1]!.ref!)).toBe("Second")
      expect((yield* call(click, { a11yRef: copies[1]!.ref })).ok).toBe(true)
      expect((yield* call(getText, { selector: "#first-out" })).result.text).toBe("first: idle")
      expect((yield* call(getText, { selector: "#second-out" })).result.text).toBe("second: copied")
      expect((yield* call(click, { a11yRef: copies[0]!.ref })).ok).toBe(true)
      expect((yield* call(getText, { selector: "#first-out" })).result.text).toBe("first: copied")
    }))

  it.effect("a ref from a scoped snapshot only ever means its own element, and refs are stable across snapshots", () =>
    Effect.gen(function* () {
      yield* open("/copies")
      const whole = yield* call(accessibilitySnapshot)
      const scoped = yield* call(accessibilitySnapshot, { rootSelector: "#second" })
      const scopedLines = parseSnapshot(scoped.snapshot)
      expect(scopedLines.map((line) => line.name).filter((name) => name !== "")).toEqual(["Second", "Copy"])
      const [inside] = linesNamed(scoped.snapshot, "button", "Copy")
      // Same element, same ref, whichever snapshot handed it out.
      expect(nodeNamed(whole, "button", "Copy")[1]!.ref).toBe(inside!.ref)
      const again = yield* call(accessibilitySnapshot)
      expect(parseSnapshot(again.snapshot).map((line) => line.ref)).toEqual(parseSnapshot(whole.snapshot).map((line) => line.ref))
      // Scoping the ref to the other section cannot find it there.
      const outside = yield* call(click, { a11yRef: inside!.ref, within: { selector: "#first" }, timeoutMs: 500 })
      expect(outside.error?.code).toBe("MM_TARGET_NOT_FOUND")
      expect((yield* call(getText, { selector: "#first-out" })).result.text).toBe("first: idle")
    }))

  it.effect("a stale ref answers MM_TARGET_NOT_FOUND at once, pointing at the current refs in the snapshot beside it", () =>
    Effect.gen(function* () {
      yield* open("/copies")
      const snapshot = yield* call(accessibilitySnapshot)
      const secondCopy = nodeNamed(snapshot, "button", "Copy")[1]!
      const [remove] = nodeNamed(snapshot, "button", "Remove second")
      expect((yield* call(click, { a11yRef: remove!.ref })).ok).toBe(true)
      const stale = yield* call(click, { a11yRef: secondCopy.ref })
      expect(stale.error?.code).toBe("MM_TARGET_NOT_FOUND")
      expect(stale.error?.message).toContain(`Unknown a11yRef: ${secondCopy.ref}`)
      // The current refs are in the whole-page snapshot that comes with a failure, not repeated in the error.
      expect(stale.error?.message).toContain("The page's current refs are in the page text below.")
      expect(stale.error?.message).not.toContain("Available refs")
      expect(stale.error?.details?.availableRefs).toBeUndefined()
      const available = parseSnapshot(stale.snapshot ?? "").map((line) => line.ref)
      expect(available).toContain(nodeNamed(snapshot, "button", "Copy")[0]!.ref)
      expect(available).not.toContain(secondCopy.ref)
      expect(stale.ms ?? 0).toBeLessThan(15_000)
      // A gone element is as hidden as it gets.
      expect((yield* call(waitFor, { a11yRef: secondCopy.ref, state: "hidden" })).ok).toBe(true)
    }))

  it.effect("after a successful action the observation lists only what changed; refs that left are listed as removed", () =>
    Effect.gen(function* () {
      // Another URL than the earlier tests' visits to /copies: a document at a URL seen before reports only what changed.
      const opened = yield* open("/copies?fresh")
      const before = opened.observation?.a11y?.nodes ?? []
      const buttons = before.filter((node) => node.role === "button")
      expect(buttons.map((node) => node.name)).toEqual(["Copy", "Copy", "Remove second"])
      expect(before.filter((node) => node.role === "paragraph").map((node) => node.text)).toEqual(["first: idle", "second: idle"])
      const [firstCopy, secondCopy, remove] = buttons
      const copied = yield* call(click, { a11yRef: firstCopy!.ref })
      // The text the click changed is the news; the rest is counted.
      expect(copied.observation?.a11y).toMatchObject({ changesOnly: true, unchanged: before.length - 1, removed: [] })
      expect(copied.observation?.a11y?.nodes.map((node) => [node.role, node.text])).toEqual([["paragraph", "first: copied"]])
      const removed = yield* call(click, { a11yRef: remove!.ref })
      const secondRegion = before.find((node) => node.role === "region" && node.name === "Second")!
      const secondText = before.find((node) => node.text === "second: idle")!
      expect([...(removed.observation?.a11y?.removed ?? [])].sort()).toEqual([secondRegion.ref, secondText.ref, secondCopy!.ref].sort())
      expect(removed.observation?.a11y?.unchanged).toBe(before.length - 3)
      // A failure shows the whole page again.
      const failed = yield* call(click, { testId: "nope", timeoutMs: 200 })
      expect(failed.observation?.a11y?.nodes.filter((node) => node.role === "button").map((node) => node.ref)).toEqual([firstCopy!.ref, remove!.ref])
      expect(failed.observation?.a11y?.changesOnly).toBeUndefined()
    }))

  it.effect("nodes a truncated observation left out are not news in the next one, unless they change", () =>
    Effect.gen(function* () {
      const opened = yield* open("/long")
      expect(opened.observation?.a11y).toMatchObject({ truncated: true, changesOnly: true })
      expect(opened.observation?.a11y?.nodes).toHaveLength(150)
      const typed = yield* call(type, { testId: "filter", text: "item" })
      // The field's new value is the only news.
      expect(typed.observation?.a11y).toMatchObject({ unchanged: 200, removed: [] })
      expect(typed.observation?.a11y?.nodes.map((node) => [node.name, node.text])).toEqual([["Filter", "item"]])
      const pressed = yield* call(click, { selector: "#last" })
      expect(pressed.observation?.a11y?.nodes.map((node) => node.name)).toEqual(["Last, pressed"])
    }))

  it.effect("list_testids lists only visible elements with their real tag names", () =>
    Effect.gen(function* () {
      yield* open("/visibility")
      const listed = yield* call(listTestIds)
      const ids = listed.result.items.map((item: any) => item.testId)
      expect(ids).toEqual(["shown", "label", "field"])
      expect(listed.result.items.map((item: any) => item.tag)).toEqual(["button", "span", "input"])
      expect(listed.result.items[0]).toEqual({ testId: "shown", tag: "button", text: "Shown", visible: true })
      // A field's value is not echoed as text.
      expect(listed.result.items[2].text).toBeUndefined()
    }))

  it.effect("a hidden element fails with MM_TARGET_NOT_FOUND after the deadline, a missing one too, and two matches are ambiguous", () =>
    Effect.gen(function* () {
      yield* open("/visibility")
      // A deadline the fail-fast wait (1 s) and the explanation fit in on a loaded machine: the code is what counts here.
      const hidden = yield* call(click, { testId: "hidden", timeoutMs: 5000 })
      expect(hidden.error?.code).toBe("MM_TARGET_NOT_FOUND")
      expect(hidden.error?.message).toContain("not visible")
      const missing = yield* call(click, { testId: "nope", timeoutMs: 1500 })
      expect(missing.error?.code).toBe("MM_TARGET_NOT_FOUND")
      const ambiguous = yield* call(click, { selector: "button.many", timeoutMs: 1500 })
      expect(ambiguous.error?.code).toBe("MM_TARGET_AMBIGUOUS")
      expect(ambiguous.error?.details?.count).toBe(2)
      // Failures carry the full observation by default.
      expect(ambiguous.observation?.testIds?.length).toBeGreaterThan(0)
    }))

  it.effect("wait_for waits for an element that appears later, and times out with MM_WAIT_TIMEOUT", () =>
    Effect.gen(function* () {
      yield* open("/visibility")
      // The element appears 300 ms after this click, not on a timer that races the other tests of this page.
      expect((yield* call(click, { selector: "#reveal-later" })).ok).toBe(true)
      expect((yield* call(waitFor, { testId: "later", timeoutMs: 5_000 })).result).toEqual({ found: true })
      const timeout = yield* call(waitFor, { testId: "hidden", timeoutMs: 200 })
      expect(timeout.error?.code).toBe("MM_WAIT_TIMEOUT")
      expect((yield* call(waitFor, { testId: "hidden", state: "hidden" })).ok).toBe(true)
    }))

  it.effect("get_text reads text and field values", () =>
    Effect.gen(function* () {
      yield* open("/visibility")
      expect((yield* call(getText, { testId: "label" })).result).toEqual({ text: "A label" })
      expect((yield* call(getText, { testId: "field" })).result.text).toBe("typed value")
    }))

  it.effect("a dialog in the DOM shows up with its buttons inside it, and closes", () =>
    Effect.gen(function* () {
      yield* open("/dialog")
      expect((yield* call(getState)).result.state.screen).toBe("dialog-page")
      const opened = yield* call(click, { testId: "open" })
      const nodes = opened.observation?.a11y?.nodes ?? []
      expect(nodes.find((node) => node.role === "dialog")?.name).toBe("Settings")
      expect(nodes.find((node) => node.role === "button" && node.name === "Close")?.path).toEqual(["dialog: Settings"])
      expect((yield* call(click, { testId: "close", within: { selector: "dialog" } })).ok).toBe(true)
      expect((yield* call(waitFor, { selector: "dialog", state: "hidden", timeoutMs: 2_000 })).ok).toBe(true)
    }))

  it.effect("a click that closes its own page succeeds with pageClosedAfterClick, and the active tab falls back with a notice", () =>
    Effect.gen(function* () {
      yield* open("/login")
      const opened = yield* call(navigate, { screen: "notification" })
      expect(opened.page?.url).toMatch(/\/closer$/)
      const confirm = yield* call(click, { testId: "confirm" })
      expect(confirm.ok).toBe(true)
      expect(confirm.result.pageClosedAfterClick).toBe(true)
      const notices = confirm.notices ?? []
      const state = yield* call(getState)
      expect([...notices, ...(state.notices ?? [])].join(" ")).toContain("The active tab closed")
      expect(state.result.state.url).toMatch(/\/login$/)
      expect(state.result.tabs.tracked.every((tab: any) => !tab.url.endsWith("/closer"))).toBe(true)
    }))

  it.effect("a screenshot lands under the artifacts dir by its plain name, path-like names are refused, and it can come back as an image", () =>
    Effect.gen(function* () {
      yield* open("/dialog")
      // Names that a sanitizing map collapsed into one file (x.png) are refused, each naming the field.
      for (const name of ["..\\..\\x", "....//....//x", "~/x", "../../etc/evil name", "a/b", ".hidden", "x y"]) {
        const refused = yield* runTool(screenshot)({ name })
        expect(refused.envelope.error, name).toMatchObject({ code: "MM_INVALID_INPUT", details: { field: "name" } })
      }
      expect(fs.existsSync(path.resolve(settings.artifactsDir, "screenshots", "x.png"))).toBe(false)
      // Different names are different files.
      const names = ["x", "X", "x.v2", "x-", "x_"]
      const paths = new Set<string>()
      for (const name of names) paths.add(((yield* runTool(screenshot)({ name })).envelope.result as any).path)
      expect(paths.size).toBe(names.length)
      const response = yield* runTool(screenshot)({ name: "evil-name", includeImage: true })
      const result = response.envelope.result as any
      expect(result.path).toBe(path.resolve(settings.artifactsDir, "screenshots", "evil-name.png"))
      expect(fs.existsSync(result.path)).toBe(true)
      expect(result.width).toBeGreaterThan(100)
      expect(result.base64).toBeUndefined()
      const image = response.attachments[0]
      expect(image?.type === "image" && image.mimeType).toBe("image/png")
      expect(image?.type === "image" && Buffer.from(image.data, "base64").subarray(1, 4).toString()).toBe("PNG")
    }))

  it.effect("the batch deadline interrupts a click that is still waiting in the browser", () =>
    Effect.gen(function* () {
      yield* open("/visibility")
      const response = yield* runTool(click)({ testId: "hidden", timeoutMs: 60_000 }, { deadlineMs: 400 })
      expect(response.envelope.error?.code).toBe("MM_CLICK_TIMEOUT")
      expect(response.envelope.ms ?? 0).toBeLessThan(10_000)
      // The aborted click left nothing behind: the page still answers at once.
      expect((yield* call(click, { testId: "shown" })).ok).toBe(true)
    }))

  it.effect("a second launch answers MM_SESSION_ALREADY_RUNNING; force replaces the session with a fixture applied", () =>
    Effect.gen(function* () {
      const { url } = yield* Pages
      yield* open("/login")
      const again = yield* call(launch, {})
      expect(again.error?.code).toBe("MM_SESSION_ALREADY_RUNNING")
      const origin = new URL(url("/")).origin
      const forced = yield* call(launch, {
        force: true,
        stateMode: "custom",
        fixture: { origins: [{ origin, localStorage: [{ name: "theme", value: "dark" }] }] }
      })
      expect(forced.ok).toBe(true)
      expect(forced.result.sessionId).not.toBe(again.error?.details?.sessionId)
      yield* call(navigate, { screen: "url", url: url("/storage") })
      expect((yield* call(getText, { testId: "theme" })).result.text).toBe("theme=dark")
      // A path goes where a link on the page would: on the page's own origin.
      const byPath = yield* call(navigate, { url: "/storage?from=path" })
      expect(byPath.ok, JSON.stringify(byPath.error)).toBe(true)
      expect((yield* call(getState)).result.state.url).toBe(url("/storage?from=path"))
      expect((yield* call(cleanup)).result).toEqual({ cleanedUp: true })
      expect((yield* call(cleanup)).result).toEqual({ cleanedUp: false })
    }))
})

describe("launch errors", () => {
  layer(liveLayer(testSettings({ executablePath: "/nonexistent/chrome" })), { excludeTestServices: true })("with a bad executable", (it) => {
    it.effect("a missing executable fails with MM_LAUNCH_FAILED naming it", () =>
      Effect.gen(function* () {
        const envelope = yield* call(launch, {})
        expect(envelope.error?.code).toBe("MM_LAUNCH_FAILED")
        expect(envelope.error?.message).toContain("/nonexistent/chrome")
      }))
  })
})
