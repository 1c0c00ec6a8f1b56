// The direct path fails closed: an input whose arrival at the target nobody saw is neither reported
// as done nor sent again; the page cannot read or trap our scripts and refs; the snapshot hands out
// refs only to elements an action accepts as visible.
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import type { Envelope } from "../../src/domain/envelope.js"
import { runTool } from "../../src/runtime/runTool.js"
import type { AnyToolDefinition } from "../../src/runtime/tool.js"
import { Observer } from "../../src/services/Observer.js"
import { accessibilitySnapshot } from "../../src/tools/discovery.js"
import { expectTool } from "../../src/tools/assertions.js"
import { setChecked } from "../../src/tools/gestures.js"
import { click, getText, pressKey, type, waitFor } from "../../src/tools/interaction.js"
import { navigate } from "../../src/tools/navigation.js"
import { launch } from "../../src/tools/session.js"
import { Session } from "../../src/services/Session.js"
import { html, liveLayer, pageServer, testSettings } from "../support/browser.js"

/** `localhost` is another site: its frames run in a process of their own, out of reach of the page's scripts and ours. */
const BOTH_ORIGINS = "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1, EXCLUDE localhost"

class Origins extends Context.Tag("test/FailClosedOrigins")<Origins, { readonly first: string; readonly second: string }>() {}

/** A third-party page that tells its parent about every trusted press and click it gets. */
const thirdPartyButton = html(
  "Third party button",
  `<button id="third" style="position:fixed;inset:0;width:100%;height:100%">Third party</button>
   <script>
     for (const type of ["pointerdown", "click"]) {
       document.getElementById("third").addEventListener(type, (event) => { if (event.isTrusted) parent.postMessage("third " + type, "*") })
     }
   </script>`
)

/**
 * The page: a same-origin frame in a `scale(.5)` container, and a frame of another origin where the
 * summed offsets of the frame and the button (ignoring the scale) put the click point: margin 40 + border 20 +
 * the button's middle near (338, 138) in the shop is about (398, 198), inside the third party's 280-680 x 120-380;
 * the button is really near (199, 99), above it.
 */
const summedPointPage = (third: string) =>
  html(
    "Summed point",
    `<div style="transform:scale(.5);transform-origin:0 0;position:absolute;left:0;top:0">
       <iframe title="Shop" src="/shop" style="width:800px;height:600px;border:20px solid #888;margin:40px"></iframe>
     </div>
     <iframe src="${third}/third" style="position:absolute;left:280px;top:120px;width:400px;height:260px;border:0"></iframe>
     <p id="log" data-testid="log" style="position:absolute;top:700px"></p>
     <script>addEventListener("message", (event) => { document.getElementById("log").textContent += event.data + ";" })</script>`
  )

const thirdParty = html(
  "Third party",
  `<button id="ad" style="position:fixed;inset:0;width:100%;height:100%">Win a prize</button>
   <script>
     let presses = 0
     document.getElementById("ad").addEventListener("pointerdown", (event) => { if (event.isTrusted) parent.postMessage("ad pressed " + ++presses, "*") })
   </script>`
)

const pagesFor = (second: string, sameSite: string) => ({
  "/shop": html(
    "Shop",
    `<div style="height:120px"></div><button id="pay" style="margin-left:300px" onclick="top.postMessage('paid', '*')">Pay now</button>`
  ),
  // The third party on another site (its own process), and on another port of 127.0.0.1 (cross-origin, same site).
  "/summed-point-other-site": summedPointPage(second),
  "/summed-point-other-port": summedPointPage(sameSite),
  // The first time the pointer comes near Buy, a frame drops over it and takes the press: the page's
  // own hit test sends the press into the frame's document, where no guard listens.
  "/ambush": html(
    "Ambush",
    `<p id="log" data-testid="log"></p>
     <button id="buy" data-testid="buy" style="margin:80px;width:160px;height:50px" onclick="document.getElementById('log').textContent += 'bought;'">Buy</button>
     <script>
       const log = (text) => { document.getElementById("log").textContent += text + ";" }
       document.getElementById("buy").addEventListener("pointermove", () => {
         const frame = document.createElement("iframe")
         frame.style.cssText = "position:fixed;inset:0;width:100%;height:100%;border:0"
         document.body.append(frame)
         frame.contentDocument.body.innerHTML = "<p>An offer</p>"
         frame.contentDocument.addEventListener("pointerdown", (event) => { if (event.isTrusted) log("frame pressed") })
       }, { once: true })
     </script>`
  ),
  // The same with a third-party frame (loaded, hidden until the pointer comes): whether the browser routes the
  // press to it or to the page, the click is never reported done, Buy never gets it, and nothing is pressed twice.
  "/third-party-ambush": html(
    "Third-party ambush",
    `<p id="log" data-testid="log"></p>
     <button id="buy" data-testid="buy" style="margin:80px;width:160px;height:50px" onclick="document.getElementById('log').textContent += 'bought;'">Buy</button>
     <iframe id="ad" src="${second}/ad" style="position:fixed;inset:0;width:100%;height:100%;border:0;visibility:hidden"></iframe>
     <script>
       addEventListener("message", (event) => { document.getElementById("log").textContent += event.data + ";" })
       document.getElementById("buy").addEventListener("pointermove", () => {
         document.getElementById("ad").style.visibility = "visible"
       }, { once: true })
     </script>`
  ),
  // A page that lies in wait for our registry and guard on its window, as the old main-world scripts kept them there.
  "/trap": html(
    "Trap",
    `<p id="log" data-testid="log"></p><button id="go" onclick="document.getElementById('log').textContent += 'clicked;'">Go</button>
     <script>
       for (const name of ["browser-workflow-mcp", "browser-workflow-mcp/guard", "browser-workflow-mcp/click-guard"]) {
         Object.defineProperty(window, Symbol.for(name), {
           get() { document.title = "read " + name; return undefined },
           set() { document.title = "written " + name }
         })
       }
     </script>`
  ),
  // Inputs that count what reaches them: each click once, each field's text, each check.
  "/counters": html(
    "Counters",
    `<button data-testid="up" onclick="this.textContent = String(Number(this.textContent) + 1)">0</button>
     <input data-testid="a" aria-label="A"><input data-testid="b" aria-label="B"><input data-testid="c" aria-label="C">
     <label><input type="checkbox" data-testid="box"> Box</label>`
  ),
  "/visibility": html(
    "Visibility",
    `<button style="height:0;padding:0;border:0;overflow:hidden">Flat</button>
     <button style="width:0;padding:0;border:0;overflow:hidden">Thin</button>
     <button style="visibility:hidden">Ghost</button>
     <div style="visibility:hidden"><button style="visibility:visible">Shown in a hidden box</button></div>
     <a href="#empty" style="display:contents"></a>
     <div style="display:contents"><button>Inside contents</button></div>
     <button style="display:contents">Contents button</button>
     <button style="opacity:0">Clear</button>
     <div style="width:60px;height:30px;overflow:hidden"><button style="margin-left:200px">Clipped</button></div>
     <div style="content-visibility:hidden"><button>Skipped content</button></div>
     <button>Plain</button>`
  )
})

const OriginsLive = Layer.scoped(
  Origins,
  Effect.gen(function* () {
    const second = yield* pageServer({ "/ad": thirdParty, "/third": thirdPartyButton })
    const secondUrl = second.url.replace("127.0.0.1", "localhost")
    const first = yield* pageServer(pagesFor(secondUrl, second.url))
    return { first: first.url, second: secondUrl }
  })
)

const call = (tool: AnyToolDefinition, args: Record<string, unknown> = {}) =>
  Effect.map(runTool(tool)(args, { policy: "none" }), (response) => response.envelope as Envelope<any>)

const open = (path: string) =>
  Effect.gen(function* () {
    const { first } = yield* Origins
    const current = yield* (yield* Session).current
    if (current._tag === "None") expect((yield* call(launch, {})).ok).toBe(true)
    expect((yield* call(navigate, { screen: "url", url: `${first}${path}` })).ok).toBe(true)
  })

layer(Layer.merge(liveLayer(testSettings({ browserArgs: [BOTH_ORIGINS] })), OriginsLive), { timeout: 120_000, excludeTestServices: true })(
  "actions fail closed",
  (it) => {
    describe("an input nobody saw arrive", () => {
      it.effect("a press that a frame dropped over the target took is MM_ACTION_UNCONFIRMED, not done, and not sent twice", () =>
        Effect.gen(function* () {
          yield* open("/ambush")
          const clicked = yield* call(click, { testId: "buy", timeoutMs: 3_000 })
          expect(clicked.error?.code).toBe("MM_ACTION_UNCONFIRMED")
          expect(clicked.error?.message).toContain("It was not repeated")
          expect(clicked.error?.details).toEqual({ action: "click", target: "testId:buy" })
          expect((yield* call(getText, { testId: "log" })).result.text).toBe("frame pressed;")
        }))

      it.effect("a third-party frame shown over the target: never done, never twice", () =>
        Effect.gen(function* () {
          yield* open("/third-party-ambush")
          const clicked = yield* call(click, { testId: "buy", timeoutMs: 1_000 })
          expect(clicked.ok).toBe(false)
          expect(["MM_ACTION_UNCONFIRMED", "MM_CLICK_TIMEOUT"]).toContain(clicked.error?.code)
          const log = (yield* call(getText, { testId: "log" })).result.text as string
          expect(["", "ad pressed 1;"]).toContain(log)
        }))
    })

    describe("the issue's repro: a scaled same-origin frame, another origin's frame at the summed point", () => {
      for (const variant of ["other-site", "other-port"]) {
        it.effect(`${variant}: the click reaches Pay now once, and the third party gets nothing`, () =>
          Effect.gen(function* () {
            yield* open(`/summed-point-${variant}`)
            const { nodes } = yield* (yield* Observer).accessibility({})
            const pay = nodes.find((node) => node.role === "button" && node.name === "Pay now")!
            const clicked = yield* call(click, { a11yRef: pay.ref, timeoutMs: 5_000 })
            expect(clicked.ok).toBe(true)
            expect(clicked.result.clicked).toBe(true)
            // Messages from both frames arrive as tasks: a read later sees every one that was sent.
            yield* call(waitFor, { selector: "text=paid", timeoutMs: 2_000 })
            expect((yield* call(getText, { testId: "log" })).result.text).toBe("paid;")
          }))
      }
    })

    describe("isolation", () => {
      it.effect("a page that traps our registry's and guard's names on its window never sees them touched", () =>
        Effect.gen(function* () {
          yield* open("/trap")
          const snapshot = yield* call(accessibilitySnapshot, {})
          const ref = (snapshot.snapshot as string).match(/button "Go" \[(e\d+)\]/)![1]!
          expect((yield* call(click, { a11yRef: ref })).ok).toBe(true)
          expect((yield* call(click, { selector: "#go" })).ok).toBe(true)
          expect((yield* call(getText, { testId: "log" })).result.text).toBe("clicked;clicked;")
          expect((yield* (yield* Observer).observe({ testIds: false, a11y: false })).state.title).toBe("Trap")
        }))
    })

    describe("calls at the same time", () => {
      it.effect("clicks, types, keys and checks sent together are each done once, each on its own target", () =>
        Effect.gen(function* () {
          yield* open("/counters")
          const calls = [
            ...Array.from({ length: 6 }, () => call(click, { testId: "up" })),
            call(type, { testId: "a", text: "alpha" }),
            call(type, { testId: "b", text: "bravo" }),
            call(type, { testId: "c", text: "charlie" }),
            call(setChecked, { testId: "box", checked: true }),
            call(pressKey, { key: "Tab" })
          ]
          const answers = yield* Effect.all(calls, { concurrency: "unbounded" })
          expect(answers.map((answer) => answer.error?.code ?? "ok")).toEqual(answers.map(() => "ok"))
          expect((yield* call(getText, { testId: "up" })).result.text).toBe("6")
          for (const [testId, text] of [["a", "alpha"], ["b", "bravo"], ["c", "charlie"]] as const) {
            const value = yield* call(expectTool, { testId, condition: "value", expected: text, timeoutMs: 500 })
            expect(value.error?.message, testId).toBeUndefined()
          }
          expect((yield* call(expectTool, { testId: "box", condition: "checked", expected: true, timeoutMs: 500 })).ok).toBe(true)
        }))
    })

    describe("one visibility rule", () => {
      it.effect("the snapshot gives refs to exactly the elements wait_for and click accept as visible", () =>
        Effect.gen(function* () {
          yield* open("/visibility")
          const { nodes } = yield* (yield* Observer).accessibility({})
          const buttons = nodes.filter((node) => node.role === "button").map((node) => node.name)
          expect(buttons).toEqual(["Shown in a hidden box", "Inside contents", "Contents button", "Clear", "Clipped", "Plain"])
          expect(nodes.some((node) => node.role === "link")).toBe(false)
          for (const node of nodes.filter((candidate) => candidate.role === "button")) {
            expect((yield* call(waitFor, { a11yRef: node.ref, timeoutMs: 1_000 })).ok).toBe(true)
          }
          for (const name of ["Flat", "Thin", "Ghost", "Skipped content"]) {
            const waited = yield* call(waitFor, { selector: `button:text-is("${name}")`, timeoutMs: 300 })
            expect(waited.error?.code, name).toBe("MM_WAIT_TIMEOUT")
          }
        }))
    })
  }
)
