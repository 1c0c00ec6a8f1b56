// Refs inside iframes of every kind act straight from the answer that showed them (no extra call to
// enter a frame): a same-origin frame, a cross-origin frame in the page's process and one out of process,
// a same-origin frame inside an out-of-process one, a cross-origin frame inside a same-origin one, and a
// frame inside an open shadow root. An unknown ref's answer suggests the refs of cross-origin frames too.
// Three loopback origins (127.0.0.1 on three ports, one origin-keyed: see ORIGIN_KEYED); real Chromium.
import { expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option } from "effect"
import { Session } from "../../src/services/Session.js"
import { linesNamed, parseSnapshot } from "../page/parse.js"
import { html, liveLayer, testSettings } from "../support/browser.js"
import { toolViewLayer, viewCall as call } from "../support/calls.js"
import { FRAME_TITLES as FRAMES, frameHost } from "../support/frames.js"

const form = html(
  "Form",
  `<label>Name <input name="name"></label>
   <label>PIN <input type="password" name="pin"></label>
   <label><input type="checkbox" name="agree"> Agree</label>
   <label>Size <select name="size"><option>S</option><option>M</option><option>L</option></select></label>
   <button onclick="document.getElementById('out').textContent = 'Sent ' + document.querySelector('input').value + ' ' + document.querySelector('select').value + (document.querySelector('[type=checkbox]').checked ? ' agreed' : '')">Send</button>
   <p id="out"></p>`
)

class Pages extends Context.Tag("test/FrameRefPages")<Pages, { readonly url: string }>() {}

const TestLayer = Layer.unwrapScoped(
  Effect.gen(function* () {
    const url = yield* frameHost(form, { frame: { width: 400, height: 220 }, nest: { width: 600, height: 300 }, top: "<button>Top</button>" })
    const settings = testSettings()
    return Layer.mergeAll(liveLayer(settings), Layer.succeed(Pages, { url }), toolViewLayer(settings))
  })
)

const ok = (name: string, args: Record<string, unknown> = {}) =>
  Effect.map(call(name, args), (envelope) => {
    expect(envelope.error?.message, `${name} ${JSON.stringify(args)}`).toBeUndefined()
    expect(envelope.ok).toBe(true)
    return envelope
  })

const openHost = Effect.gen(function* () {
  const { url } = yield* Pages
  const session = yield* Session
  if (Option.isNone(yield* session.current)) yield* ok("launch")
  yield* ok("navigate", { screen: "url", url })
  // Every frame's form is in: six "Send" buttons.
  yield* ok("wait_for", { selector: "iframe[title='Local nest']", state: "visible" })
  for (let tries = 0; tries < 50; tries++) {
    const found = yield* ok("find", { role: "button", name: "Send" })
    if (found.result.found === FRAMES.length) return
    yield* Effect.sleep("100 millis")
  }
  throw new Error("the frames did not load")
})

/** The refs of the form in each frame, from one page text, in the frames' order. */
const formsIn = (text: string) => {
  const refs = (role: string, name: string) => linesNamed(text, role, name).map((line) => line.ref!)
  const names = refs("textbox", "Name")
  const boxes = refs("checkbox", "Agree")
  const sizes = refs("combobox", "Size")
  const sends = refs("button", "Send")
  const pins = refs("textbox", "PIN")
  expect([names.length, pins.length, boxes.length, sizes.length, sends.length]).toEqual([6, 6, 6, 6, 6])
  return names.map((name, index) => ({ name, pin: pins[index]!, agree: boxes[index]!, size: sizes[index]!, send: sends[index]! }))
}

layer(TestLayer, { timeout: 180_000, excludeTestServices: true })("refs inside iframes in real Chromium", (it) => {
  it.effect("every frame's refs from mm_describe_screen type, check, select, hover, click and read in one call each, and the frames' pages saw it; a password is a secret in every frame", () =>
    Effect.gen(function* () {
      yield* openHost
      const described = yield* ok("describe_screen")
      const text = described.snapshot as string
      for (const title of FRAMES) expect(linesNamed(text, "iframe", title)).toHaveLength(1)
      const forms = formsIn(text)
      for (const [index, refs] of forms.entries()) {
        // A plain field's text is kept; a password's is a secret, in every frame (the focus in a cross-origin frame is read there).
        expect((yield* ok("type", { a11yRef: refs.name, text: `Ada${index}` })).result.sensitive).toBeUndefined()
        expect((yield* ok("type", { a11yRef: refs.pin, text: "1234" })).result.sensitive).toBe(true)
        yield* ok("set_checked", { a11yRef: refs.agree, checked: true })
        yield* ok("select_option", { a11yRef: refs.size, values: ["M"] })
        yield* ok("hover", { a11yRef: refs.send })
        yield* ok("click", { a11yRef: refs.send })
        expect((yield* ok("get_text", { a11yRef: refs.send })).result.text).toBe("Send")
        yield* ok("wait_for", { a11yRef: refs.send, state: "visible" })
      }
      // What each frame's page says it got, as the next snapshot reads it.
      const after = parseSnapshot((yield* ok("accessibility_snapshot")).snapshot)
      const sent = after.filter((line) => line.role === "paragraph" && line.text?.startsWith("Sent ")).map((line) => line.text)
      expect(sent.sort()).toEqual(forms.map((_, index) => `Sent Ada${index} M agreed`).sort())
    }), 180_000)

  it.effect("refs that mm_find answers inside the frames click at once", () =>
    Effect.gen(function* () {
      yield* openHost
      const found = yield* ok("find", { role: "button", name: "Send" })
      const sends = linesNamed((found.snapshot as string).replace(/▶ /g, ""), "button", "Send")
      expect(sends).toHaveLength(FRAMES.length)
      for (const send of sends) yield* ok("click", { a11yRef: send.ref })
      const replies = yield* ok("find", { text: "Sent" })
      expect(replies.result.found).toBe(FRAMES.length)
    }))

  it.effect("an unknown ref's answer shows the refs of the top document and of every frame, cross-origin ones included", () =>
    Effect.gen(function* () {
      yield* openHost
      const forms = formsIn((yield* ok("accessibility_snapshot")).snapshot as string)
      const wrong = yield* call("click", { a11yRef: "e99999" })
      expect(wrong.ok).toBe(false)
      expect(wrong.error?.code).toBe("MM_TARGET_NOT_FOUND")
      // The current refs come as the page text beside the error (not listed again in its message).
      expect(wrong.error?.message).toContain("The page's current refs are in the page text below.")
      const suggested = new Set(parseSnapshot(wrong.snapshot ?? "").map((line) => line.ref))
      for (const refs of forms) for (const ref of [refs.name, refs.agree, refs.size, refs.send]) expect(suggested.has(ref), ref).toBe(true)
    }))
})
