// The differential corpus: tricky pages and the actions to run on them through both action paths.
// Every page (and every frame, of either origin) records which element got which trusted events, in
// the page's own world, on the document in the capture phase: an event a guard stopped at the window
// never reaches it, as an event Playwright's hit-target interceptor stops does not.

/** Where a case's actions point: a test id, a selector, or a ref found in a snapshot by role and name. */
export type Aim =
  | { readonly testId: string }
  | { readonly selector: string }
  | { readonly ref: { readonly role: string; readonly name: string } }

export type Step =
  | { readonly tool: "click"; readonly target: Aim; readonly within?: Aim; readonly timeoutMs?: number }
  | { readonly tool: "type"; readonly target: Aim; readonly text: string; readonly timeoutMs?: number }
  | { readonly tool: "wait_for"; readonly target: Aim; readonly state?: "visible" | "hidden"; readonly timeoutMs?: number }
  | { readonly tool: "press_key"; readonly target: Aim; readonly key: string; readonly timeoutMs?: number }

export interface Case {
  readonly name: string
  /** Path of the page on the first origin (127.0.0.1). */
  readonly path: string
  readonly steps: ReadonlyArray<Step>
  /** The steps the direct path must take without handing over (their indexes): the corpus checks both paths, not one twice. */
  readonly direct?: ReadonlyArray<number>
  /** The steps where the direct path must hand over to Playwright before any input (what it cannot be sure of). */
  readonly handsOver?: ReadonlyArray<number>
}

/** Records trusted events and field values; `window.__effects()` reads them. */
const RECORDER = `<script>
(() => {
  const log = []
  const name = (node) => {
    const element = node && node.nodeType === 1 ? node : node && node.parentElement
    return element ? element.id || element.getAttribute("data-testid") || element.localName : "?"
  }
  for (const type of ["pointerdown", "mousedown", "pointerup", "mouseup", "click", "input", "change", "submit"]) {
    document.addEventListener(type, (event) => {
      if (!event.isTrusted) return
      // Where a click lands, too: both paths must take the same point (Playwright's: the middle of the first content quad).
      const at = type === "click" && event.detail > 0 ? "(" + event.clientX + "," + event.clientY + ")" : ""
      log.push(type + "@" + name(event.composedPath()[0]) + at)
    }, true)
  }
  Object.defineProperty(window, "__effects", {
    value: () => ({
      url: location.pathname + location.search,
      log,
      fields: Array.from(document.querySelectorAll("input, textarea"), (field) =>
        (field.id || field.name) + "=" + (field.type === "checkbox" || field.type === "radio" ? field.checked : field.value))
    })
  })
})()
</script>`

const doc = (title: string, body: string, head = "") =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${RECORDER}${head}</head><body>${body}</body></html>`

const button = (id: string, label = id, style = "") =>
  `<button id="${id}" data-testid="${id}"${style === "" ? "" : ` style="${style}"`}>${label}</button>`

/** The pages of the first origin; `other` is the second origin (localhost, another port: another site, its own process). */
export const pagesFor = (other: string, sameSite: string): Record<string, string> => ({
  "/plain": doc("Plain", `${button("go", "Go")}<input id="name" data-testid="name" aria-label="Name">`),
  "/scaled": doc("Scaled", `<div style="transform:scale(.5);transform-origin:0 0">${button("go", "Go", "margin:300px 0 0 400px")}</div>`),
  "/rotated": doc("Rotated", `<div style="margin:120px">${button("go", "Rotated", "transform:rotate(35deg);width:160px;height:50px")}</div>`),
  "/zoomed": doc(
    "Zoomed",
    `<div style="zoom:2">${button("go", "Zoomed", "margin:40px 0 0 200px")}<input id="z" data-testid="z" aria-label="Zoomed field"></div>`
  ),
  "/frame-child": doc(
    "Child",
    `<div style="height:120px"></div>${button("pay", "Pay now", "margin-left:300px")}<input id="card" aria-label="Card">`
  ),
  "/scaled-frame": doc(
    "Scaled frame",
    `<div style="transform:scale(.5);transform-origin:0 0"><iframe title="Shop" src="/frame-child" style="width:700px;height:400px;border:20px solid #999;padding:10px;margin:60px"></iframe></div>`
  ),
  "/nested-frames": doc(
    "Nested frames",
    `<iframe title="Outer" src="/nested-middle" style="width:900px;height:600px;border:12px solid #999;padding:8px;margin:30px 0 0 50px"></iframe>`
  ),
  "/nested-middle": doc(
    "Middle",
    `<p>middle</p><div style="transform:scale(.75) rotate(3deg);transform-origin:0 0"><iframe title="Inner" src="/frame-child" style="width:700px;height:400px;border:6px solid #666"></iframe></div>`
  ),
  "/zoomed-frame": doc(
    "Zoomed frame",
    `<div style="zoom:1.5"><iframe title="Zoomed shop" src="/frame-child" style="width:600px;height:320px;border:4px solid #999"></iframe></div>`
  ),
  "/third-over": doc(
    "Third party over the target",
    `${button("go", "Covered by a frame", "position:absolute;left:100px;top:100px;width:200px;height:60px")}
     <iframe src="${other}/third" style="position:absolute;left:80px;top:80px;width:300px;height:120px;border:0;opacity:.3"></iframe>`
  ),
  "/third-under": doc(
    "Third party under the target",
    `<iframe src="${other}/third" style="position:absolute;left:80px;top:80px;width:300px;height:120px;border:0"></iframe>
     ${button("go", "Above a frame", "position:absolute;left:100px;top:100px;width:200px;height:60px;z-index:2")}`
  ),
  // The issue's page: a same-origin frame in a scaled container and a third-party frame where summed offsets would click.
  "/third-at-summed-point": doc(
    "Third party at the summed point",
    `<div style="transform:scale(.5);transform-origin:0 0;position:absolute;left:0;top:0"><iframe title="Shop" src="/frame-child" style="width:800px;height:600px;border:20px solid #888;margin:40px"></iframe></div>
     <iframe src="${other}/third" style="position:absolute;left:280px;top:120px;width:400px;height:260px;border:0"></iframe>`
  ),
  // The issue's repro as reported: the third-party frame is another port of 127.0.0.1 (cross-origin, same site).
  "/same-site-at-summed-point": doc(
    "Another port at the summed point",
    `<div style="transform:scale(.5);transform-origin:0 0;position:absolute;left:0;top:0"><iframe title="Shop" src="/frame-child" style="width:800px;height:600px;border:20px solid #888;margin:40px"></iframe></div>
     <iframe src="${sameSite}/third" style="position:absolute;left:280px;top:120px;width:400px;height:260px;border:0"></iframe>`
  ),
  "/perspective": doc(
    "Perspective",
    `<div style="perspective:300px;margin:80px 0 0 200px">${button("go", "Tilted", "transform:rotateY(50deg);width:260px;height:70px")}</div>`
  ),
  "/transform-properties": doc(
    "Transform properties",
    `<div style="rotate:12deg;margin:100px">${button("go", "Turned", "translate:60px 25px;scale:1.4;width:150px")}</div>`
  ),
  "/taller-than-view": doc(
    "Taller than the viewport",
    `<div style="height:300px"></div>${button("go", "Tall", "height:1500px;width:220px")}<div style="height:600px"></div>`
  ),
  "/scaled-frame-scrolled": doc(
    "A scaled frame scrolled inside",
    `<div style="transform:scale(.6) translate(40px,30px);transform-origin:0 0"><iframe title="Long" src="/long-child" style="width:600px;height:400px;border:10px solid #999"></iframe></div>`
  ),
  // The page holds its main thread when it first scrolls, so our check answers late: 1.5 s (the page sees it is
  // past its deadline and leaves the target alone), then 2.6 s (this side stops waiting first).
  "/late-check": doc(
    "A check that answers late",
    `<div style="height:1500px"></div>${button("go", "Below")}<div style="height:800px"></div>
     <script>addEventListener("scroll", () => { const end = Date.now() + 1500; while (Date.now() < end) {} }, { once: true })</script>`
  ),
  "/no-answer": doc(
    "A check that does not answer in time",
    `<div style="height:1500px"></div>${button("go", "Below")}<div style="height:800px"></div>
     <script>addEventListener("scroll", () => { const end = Date.now() + 2600; while (Date.now() < end) {} }, { once: true })</script>`
  ),
  "/under-sticky": doc(
    "A target under a sticky header",
    `<header style="position:sticky;top:0;height:120px;background:#eee;z-index:5">Header</header>
     <div style="height:1000px"></div>${button("go", "Hidden by the header")}<div style="height:2000px"></div>
     <script>addEventListener("load", () => scrollTo(0, document.getElementById("go").offsetTop - 40))</script>`
  ),
  "/slow-submit": doc(
    "A form that loads a slow page",
    `<form action="/plain"><input type="hidden" name="delay" value="700"><input id="q" name="q" data-testid="q" aria-label="Query"><button id="send" data-testid="send">Search</button></form>`
  ),
  "/third": doc(
    "Third",
    `<button id="third" style="width:100%;height:100%;margin:0">third party</button>`,
    "<style>body{margin:0;height:100vh}</style>"
  ),
  "/same-origin-over": doc(
    "Same-origin frame over the target",
    `${button("go", "Covered", "position:absolute;left:100px;top:100px;width:200px;height:60px")}
     <iframe src="/empty" style="position:absolute;left:80px;top:80px;width:300px;height:120px;border:0;background:transparent"></iframe>`
  ),
  "/empty": doc("Empty", ""),
  "/sticky": doc(
    "Sticky header",
    `<header style="position:sticky;top:0;height:120px;background:#eee;z-index:5">${button("menu", "Menu")}</header>
     <div style="height:1600px"></div>${button("go", "Far below")}<div style="height:1600px"></div>`
  ),
  "/cover-leaves": doc(
    "A cover that leaves",
    `${button("go", "Under a cover")}<div id="cover" style="position:fixed;inset:0;background:rgba(0,0,0,.3)"></div>
     <script>setTimeout(() => document.getElementById("cover").remove(), 400)</script>`
  ),
  "/cover-on-approach": doc(
    "A cover that drops when the pointer comes",
    `${button("go", "Shy", "margin:80px")}<div id="cover" style="display:none;position:fixed;inset:0;background:rgba(0,0,0,.2)"></div>
     <script>
       let dropped = false
       document.getElementById("go").addEventListener("pointermove", () => {
         if (dropped) return
         dropped = true
         const cover = document.getElementById("cover")
         cover.style.display = "block"
         setTimeout(() => { cover.style.display = "none" }, 400)
       })
     </script>`
  ),
  "/cover-blinks": doc(
    "A cover that comes and goes",
    `${button("go", "Blinking cover", "margin:80px")}<div id="cover" style="position:fixed;inset:0;background:rgba(0,0,0,.2)"></div>
     <script>setInterval(() => { const c = document.getElementById("cover"); c.style.display = c.style.display === "none" ? "block" : "none" }, 150)</script>`
  ),
  "/cover-on-press": doc(
    "A cover that drops on pointerdown",
    `${button("go", "Press me", "margin:80px")}<div id="cover" style="display:none;position:fixed;inset:0"></div>
     <script>document.getElementById("go").addEventListener("pointerdown", () => { document.getElementById("cover").style.display = "block" })</script>`
  ),
  "/pointer-events": doc(
    "Pointer events",
    `<div style="position:relative">${button("under", "Under a ghost", "width:200px;height:60px")}
       <div id="ghost" style="position:absolute;inset:0;pointer-events:none;background:rgba(0,0,255,.1)"></div></div>
     ${button("inert", "No pointer", "pointer-events:none;margin-top:20px")}
     <div style="pointer-events:none;margin-top:20px"><span>off</span>${button("back-on", "Back on", "pointer-events:auto")}</div>`
  ),
  "/shadow": doc(
    "Shadow",
    `<div id="host"></div><div id="outer"></div>
     <script>
       const root = document.getElementById("host").attachShadow({ mode: "open" })
       root.innerHTML = '<button id="inner" data-testid="inner">Inner</button>'
       const outer = document.getElementById("outer").attachShadow({ mode: "open" })
       outer.innerHTML = '<div id="middle"></div>'
       outer.getElementById("middle").attachShadow({ mode: "open" }).innerHTML = '<input id="deep" data-testid="deep" aria-label="Deep field">'
     </script>`
  ),
  "/scroll-box": doc(
    "Scroll box",
    `<div id="box" style="height:150px;width:300px;overflow:auto;border:1px solid"><div style="height:900px"></div>${button("go", "Scrolled away")}<div style="height:300px"></div></div>`
  ),
  "/nested-scroll": doc(
    "Nested scroll",
    `<div style="height:2000px"></div><div style="height:200px;overflow:auto"><div style="height:600px"></div>
       <div style="height:100px;width:200px;overflow:auto"><div style="width:900px;height:300px"></div>${button("go", "Deep in scrollers")}</div></div>`
  ),
  "/animated-forever": doc(
    "Animated forever",
    `${button("go", "Spinning", "animation:slide 1s linear infinite")}`,
    "<style>@keyframes slide { from { transform: translateX(0) } to { transform: translateX(300px) } }</style>"
  ),
  "/animated-once": doc(
    "Animated once",
    `${button("go", "Arriving", "animation:arrive 300ms ease-out 1 both")}`,
    "<style>@keyframes arrive { from { transform: translateX(400px) } to { transform: translateX(0) } }</style>"
  ),
  "/slow-link": doc("Slow link", `<a id="go" data-testid="go" href="/plain?delay=600">Slow page</a>`),
  "/nav-on-press": doc(
    "Navigation on pointerdown",
    `${button("go", "Leave")}<script>document.getElementById("go").addEventListener("mousedown", () => { location.href = "/plain?from=press" })</script>`
  ),
  "/moves-on-hover": doc(
    "Moves on hover",
    `${button("go", "Jumpy", "position:absolute;left:100px;top:100px;width:140px;height:40px")}${button("decoy", "Decoy", "position:absolute;left:100px;top:300px;width:140px;height:40px")}
     <script>
       let jumped = false
       document.getElementById("go").addEventListener("mouseenter", (event) => {
         if (jumped) return
         jumped = true
         event.target.style.left = "400px"
       })
     </script>`
  ),
  "/disabled-wrappers": doc(
    "Disabled wrappers",
    `<fieldset disabled>${button("in-fieldset", "In a disabled fieldset")}</fieldset>
     <div aria-disabled="true">${button("in-aria", "Under aria-disabled")}</div>
     <button id="later" data-testid="later" disabled>Later</button><script>setTimeout(() => { document.getElementById("later").disabled = false }, 300)</script>`
  ),
  "/labels": doc(
    "Labels",
    `<input type="checkbox" id="agree"><label for="agree" id="agree-label" data-testid="agree-label">I agree</label>
     <label id="wrap" data-testid="wrap"><input type="checkbox" id="news"> Send news</label>
     <label for="mail" id="mail-label">Mail</label><input id="mail" type="email">`
  ),
  "/fields": doc(
    "Fields",
    `<input id="email" data-testid="email" type="email" value="old@example.test" aria-label="Email">
     <textarea id="notes" data-testid="notes" aria-label="Notes">old notes</textarea>
     <input id="secret" data-testid="secret" type="password" aria-label="Secret">
     <input id="locked" data-testid="locked" readonly value="locked" aria-label="Locked">
     <div id="editable" data-testid="editable" contenteditable="true">old text</div>`
  ),
  "/focus-thief": doc(
    "Focus thief",
    `<input id="bait" data-testid="bait" aria-label="Bait"><input id="sink" aria-label="Sink">
     <script>document.getElementById("bait").addEventListener("focus", () => document.getElementById("sink").focus())</script>`
  ),
  "/frame-fields": doc("Frame fields", `<iframe title="Form" src="/frame-child" style="width:700px;height:300px"></iframe>`),
  "/appears": doc(
    "Appears",
    `<p id="soon" data-testid="soon" hidden>Here now</p><p id="going" data-testid="going">Leaving</p>
     <script>setTimeout(() => { document.getElementById("soon").hidden = false; document.getElementById("going").remove() }, 2000)</script>`
  ),
  "/visibility": doc(
    "Visibility",
    `<div id="flat" data-testid="flat" style="height:0;overflow:hidden">Flat</div>
     <div id="ghost" data-testid="ghost" style="visibility:hidden">Ghost</div>
     <div id="contents" data-testid="contents" style="display:contents"><span>In contents</span></div>
     <div id="empty-contents" data-testid="empty-contents" style="display:contents"></div>
     <button id="clear" data-testid="clear" style="opacity:0">Clear</button>
     <div style="width:100px;height:40px;overflow:hidden;position:relative"><button id="clipped" data-testid="clipped" style="position:absolute;left:300px">Clipped</button></div>`
  ),
  "/frame-scrolled": doc(
    "Scrolled frame",
    `<iframe title="Long" src="/long-child" style="width:600px;height:250px"></iframe>`
  ),
  "/long-child": doc("Long child", `<div style="height:1500px"></div>${button("deep", "Deep in the frame")}<div style="height:500px"></div>`),
  "/ambiguous": doc("Ambiguous", `${button("one", "Same")}<button data-testid="one">Same</button>`),
  "/removed-on-press": doc(
    "Removed on press",
    `<ul><li><button id="item" data-testid="item">Pick me</button></li></ul><p id="picked"></p>
     <script>document.getElementById("item").addEventListener("mousedown", (event) => { event.target.remove(); document.getElementById("picked").textContent = "picked" })</script>`
  ),
  "/details": doc("Details", `<details><summary>More</summary>${button("hidden-in", "Inside details")}</details>`),
  "/within": doc(
    "Within",
    `<section data-testid="card-1"><h2>One</h2><button id="b1">Open</button></section><section data-testid="card-2"><h2>Two</h2><button id="b2">Open</button></section>`
  ),
  "/text": doc("Text", `<p id="hello">Hello there, agent</p><p>Twice</p><p>Twice</p>`),
  // A page that lies to main-world scripts: geometry, hit tests and focus answers are patched.
  "/liar": doc(
    "Liar",
    `${button("decoy", "Decoy", "position:absolute;left:500px;top:400px")}${button("go", "Real", "position:absolute;left:60px;top:60px")}<input id="field" data-testid="field" aria-label="Field" style="position:absolute;left:60px;top:200px">
     <script>
       const decoy = document.getElementById("decoy")
       const realRect = Element.prototype.getBoundingClientRect
       Element.prototype.getBoundingClientRect = function () { return realRect.call(decoy) }
       Document.prototype.elementFromPoint = function () { return decoy }
       window.requestAnimationFrame = () => 0
       window.setTimeout = () => 0
       Object.defineProperty(Document.prototype, "activeElement", { get() { return decoy } })
     </script>`
  ),
  "/frozen": doc(
    "Frozen clock",
    `${button("go", "Frozen")}<script>window.requestAnimationFrame = () => 0; window.setTimeout = () => 0; Date.now = () => 0</script>`
  ),
  "/hover-menu": doc(
    "Hover menu",
    `<nav id="menu-root" style="display:inline-block">${button("menu", "Menu")}<ul id="menu" hidden><li>${button("settings", "Settings")}</li></ul></nav>
     <script>
       const root = document.getElementById("menu-root")
       root.addEventListener("mouseenter", () => { document.getElementById("menu").hidden = false })
       root.addEventListener("mouseleave", () => { document.getElementById("menu").hidden = true })
     </script>`
  ),
  "/iframe-target": doc("Frame as target", `<iframe id="frame" data-testid="frame" title="Target frame" src="/empty" style="width:300px;height:200px"></iframe>`),
  "/inline-wrap": doc(
    "Inline link over two lines",
    `<p style="width:180px">Some words before <a id="go" data-testid="go" href="#done">a link that wraps over two lines</a> and after.</p>`
  ),
  "/icon-link": doc("Icon link", `<p>See <a id="go" data-testid="go" href="#starred"><span id="star">&#9733;</span> <b id="label">Starred</b> items</a></p>`),
  // Keys: each trusted keydown is written into the hidden field "keys" (the recorder reads fields), with the element it reached.
  "/keys": doc(
    "Keys",
    `<input type="hidden" id="keys"><input id="field" data-testid="field" aria-label="Field"><input id="other" data-testid="other" aria-label="Other">
     <script>document.addEventListener("keydown", (event) => { if (event.isTrusted) document.getElementById("keys").value += event.key + "@" + event.target.id + ";" }, true)</script>`
  ),
  // A field that passes its focus on as soon as it gets it (in a microtask, so after any check in the same task).
  "/key-thief": doc(
    "Key thief",
    `<input type="hidden" id="keys"><input id="field" data-testid="field" aria-label="Field"><input id="other" data-testid="other" aria-label="Other">
     <script>
       document.addEventListener("keydown", (event) => { if (event.isTrusted) document.getElementById("keys").value += event.key + "@" + event.target.id + ";" }, true)
       document.getElementById("field").addEventListener("focus", () => queueMicrotask(() => document.getElementById("other").focus()))
     </script>`
  ),
  "/submit": doc(
    "Submit",
    `<form id="form" onsubmit="event.preventDefault(); this.dataset.sent = (+(this.dataset.sent || 0) + 1)"><input id="q" name="q" data-testid="q" aria-label="Query"><button id="send" data-testid="send">Send</button></form>`
  )
})

/** The second origin's pages. */
export const otherPages: Record<string, string> = {
  "/third": doc("Third", `<button id="third" style="width:100%;height:100%;margin:0">third party</button>`, "<style>body{margin:0;height:100vh}</style>")
}

const id = (testId: string): Aim => ({ testId })
const css = (selector: string): Aim => ({ selector })
const ref = (role: string, name: string): Aim => ({ ref: { role, name } })
const click = (target: Aim, extra: { within?: Aim; timeoutMs?: number } = {}): Step => ({ tool: "click", target, ...extra })
const type = (target: Aim, text: string, timeoutMs?: number): Step =>
  timeoutMs === undefined ? { tool: "type", target, text } : { tool: "type", target, text, timeoutMs }
const wait = (target: Aim, state: "visible" | "hidden" = "visible", timeoutMs = 1_500): Step => ({ tool: "wait_for", target, state, timeoutMs })
const press = (target: Aim, key: string, timeoutMs?: number): Step =>
  timeoutMs === undefined ? { tool: "press_key", target, key } : { tool: "press_key", target, key, timeoutMs }

/** Short enough for a corpus in CI; long enough for a page's 300-600 ms of settling. */
const FAILS = 700
/**
 * For a target that cannot take the action and says why: long enough for the reason to settle on both paths
 * (session/readiness.ts), so that neither answers from a deadline that cut the other's settling short.
 */
const SETTLES = 5_000

export const cases: ReadonlyArray<Case> = [
  { name: "a plain button by test id, selector and ref; a field", path: "/plain", steps: [click(id("go")), click(css("#go")), click(ref("button", "Go")), type(ref("textbox", "Name"), "Ada")], direct: [0, 1, 2, 3] },
  { name: "a button in a scaled container", path: "/scaled", steps: [click(id("go"))], direct: [0] },
  { name: "a rotated button", path: "/rotated", steps: [click(ref("button", "Rotated"))], direct: [0] },
  { name: "CSS zoom", path: "/zoomed", steps: [click(id("go")), type(id("z"), "zoomed")], direct: [0, 1] },
  { name: "a same-origin frame in a scaled container", path: "/scaled-frame", steps: [click(ref("button", "Pay now")), type(ref("textbox", "Card"), "4242")], direct: [0, 1] },
  { name: "nested frames, the inner one scaled and rotated", path: "/nested-frames", steps: [click(ref("button", "Pay now")), type(ref("textbox", "Card"), "4242")], direct: [0, 1] },
  // Chromium's content quads leave out the zoom of a frame's owner: the browser's hit test shows that the point
  // misses, so the direct path hands over, and Playwright's click (the same quads) never lands either.
  { name: "a frame under CSS zoom", path: "/zoomed-frame", steps: [click(ref("button", "Pay now"), { timeoutMs: FAILS })], handsOver: [0] },
  { name: "a third-party frame over the target", path: "/third-over", steps: [click(id("go"), { timeoutMs: FAILS })], handsOver: [0] },
  { name: "a third-party frame under the target", path: "/third-under", steps: [click(id("go"))], direct: [0] },
  { name: "a third-party frame where summed offsets would click", path: "/third-at-summed-point", steps: [click(ref("button", "Pay now"))], direct: [0] },
  { name: "a transparent same-origin frame over the target", path: "/same-origin-over", steps: [click(id("go"), { timeoutMs: FAILS })], handsOver: [0] },
  { name: "far below a sticky header", path: "/sticky", steps: [click(id("go")), click(id("menu"))], direct: [0, 1] },
  { name: "a cover that leaves after 400 ms", path: "/cover-leaves", steps: [click(id("go"), { timeoutMs: 3_000 })] },
  { name: "a cover that drops when the pointer comes", path: "/cover-on-approach", steps: [click(id("go"), { timeoutMs: 3_000 })] },
  { name: "a cover that comes and goes", path: "/cover-blinks", steps: [click(id("go"), { timeoutMs: 3_000 })] },
  { name: "a cover that drops on pointerdown", path: "/cover-on-press", steps: [click(id("go"))], direct: [0] },
  { name: "pointer-events none over, on and under the target", path: "/pointer-events", steps: [click(id("under")), click(id("inert"), { timeoutMs: SETTLES }), click(id("back-on"))], direct: [0, 2] },
  { name: "open shadow roots: test id, ref, selector, a deep field", path: "/shadow", steps: [click(id("inner")), click(ref("button", "Inner")), click(css("#inner")), type(id("deep"), "deep"), type(ref("textbox", "Deep field"), "deeper")], direct: [0, 1, 3, 4] },
  { name: "a scroll container", path: "/scroll-box", steps: [click(id("go"))], direct: [0] },
  { name: "nested scroll containers", path: "/nested-scroll", steps: [click(ref("button", "Deep in scrollers"))], direct: [0] },
  { name: "an endless animation", path: "/animated-forever", steps: [click(id("go"), { timeoutMs: FAILS })], handsOver: [0] },
  { name: "an animation that ends", path: "/animated-once", steps: [click(id("go"), { timeoutMs: 3_000 })] },
  { name: "a link to a slow page", path: "/slow-link", steps: [click(id("go"))], direct: [0] },
  { name: "a navigation on mousedown", path: "/nav-on-press", steps: [click(id("go"))], direct: [0] },
  { name: "a button that jumps away on hover", path: "/moves-on-hover", steps: [click(id("go"), { timeoutMs: 3_000 })] },
  { name: "disabled wrappers, and a button enabled later", path: "/disabled-wrappers", steps: [click(id("in-fieldset"), { timeoutMs: 3_000 }), click(id("in-aria"), { timeoutMs: 3_000 }), click(id("later"), { timeoutMs: 3_000 })] },
  { name: "labels check their boxes", path: "/labels", steps: [click(id("agree-label")), click(id("wrap")), click(css("#mail-label")), type(ref("textbox", "Mail"), "a@b.test")], direct: [0, 1, 2, 3] },
  { name: "text fields: email, textarea, password, read-only, contenteditable, clearing", path: "/fields", steps: [type(id("email"), "new@example.test"), type(ref("textbox", "Notes"), "new notes"), type(id("secret"), "hunter2"), type(id("locked"), "changed", 3_000), type(id("editable"), "new text"), type(id("email"), "")], direct: [0, 1, 2, 5] },
  { name: "a field that sends its focus elsewhere", path: "/focus-thief", steps: [type(id("bait"), "caught")] },
  { name: "fields inside a frame, by ref", path: "/frame-fields", steps: [type(ref("textbox", "Card"), "5555"), click(ref("button", "Pay now"))], direct: [0, 1] },
  { name: "waits for appearing and leaving elements", path: "/appears", steps: [wait(ref("paragraph", "Leaving"), "hidden", 6_000), wait(id("soon")), wait(id("going"), "hidden")] },
  { name: "the visibility rule: zero height, hidden, contents, opacity, clipped", path: "/visibility", steps: [wait(id("flat"), "visible", FAILS), wait(id("flat"), "hidden"), wait(id("ghost"), "visible", FAILS), wait(id("contents")), wait(id("empty-contents"), "hidden"), wait(id("clear")), click(id("clear")), wait(id("clipped")), click(id("clipped"))], direct: [1, 3, 4, 5, 6, 7] },
  { name: "a frame scrolled inside", path: "/frame-scrolled", steps: [click(ref("button", "Deep in the frame"))], direct: [0] },
  { name: "a test id inside a frame is not the top page's", path: "/frame-fields", steps: [click(css("#pay"), { timeoutMs: FAILS })] },
  { name: "an ambiguous test id", path: "/ambiguous", steps: [click(id("one"), { timeoutMs: SETTLES }), wait(id("one"), "visible", FAILS)] },
  { name: "an item removed on mousedown", path: "/removed-on-press", steps: [click(id("item"))], direct: [0] },
  { name: "a button inside closed details", path: "/details", steps: [click(id("hidden-in"), { timeoutMs: SETTLES })] },
  { name: "within a scope", path: "/within", steps: [click(css("button"), { within: id("card-2") }), click(css("button"), { within: css("[data-testid=card-1]") })], direct: [0, 1] },
  { name: "text selectors", path: "/text", steps: [wait(css("text=hello THERE")), wait(css("text=Twice"), "visible", FAILS), click(css("text=Hello there"))], direct: [0, 2] },
  { name: "a page that lies to main-world scripts", path: "/liar", steps: [click(id("go")), type(id("field"), "truth")], direct: [0, 1] },
  { name: "a page with a frozen clock", path: "/frozen", steps: [click(id("go"))], direct: [0] },
  { name: "a menu that opens on hover", path: "/hover-menu", steps: [click(id("menu")), click(id("settings"), { timeoutMs: 1_500 })] },
  { name: "a frame element as the target", path: "/iframe-target", steps: [click(id("frame"))] },
  { name: "an inline link over two lines", path: "/inline-wrap", steps: [click(id("go"))], direct: [0] },
  { name: "an inline link made of pieces", path: "/icon-link", steps: [click(id("go"))], direct: [0] },
  { name: "a form: type, then submit by its button", path: "/submit", steps: [type(id("q"), "shoes"), click(id("send"))], direct: [0, 1] },
  { name: "the issue's repro: a frame of another 127.0.0.1 port where summed offsets would click", path: "/same-site-at-summed-point", steps: [click(ref("button", "Pay now")), type(ref("textbox", "Card"), "4242")], direct: [0, 1] },
  { name: "a perspective transform", path: "/perspective", steps: [click(id("go"))], direct: [0] },
  { name: "translate, rotate and scale as properties", path: "/transform-properties", steps: [click(ref("button", "Turned"))], direct: [0] },
  { name: "a button taller than the viewport", path: "/taller-than-view", steps: [click(id("go"))], direct: [0] },
  { name: "a scaled frame scrolled inside", path: "/scaled-frame-scrolled", steps: [click(ref("button", "Deep in the frame"))], direct: [0] },
  { name: "a check that answers past its deadline", path: "/late-check", steps: [click(id("go"), { timeoutMs: 6_000 })], handsOver: [0] },
  { name: "a check that does not answer in time", path: "/no-answer", steps: [click(id("go"), { timeoutMs: 8_000 })], handsOver: [0] },
  { name: "a target under a sticky header", path: "/under-sticky", steps: [click(id("go"))], handsOver: [0] },
  { name: "a form that loads a slow page", path: "/slow-submit", steps: [type(id("q"), "slow"), click(id("send"))], direct: [0, 1] },
  { name: "keys on fields: a character, a named key, the focus given first", path: "/keys", steps: [press(id("field"), "x"), press(ref("textbox", "Field"), "Backspace"), press(id("other"), "Shift+A")], direct: [0, 1, 2] },
  { name: "a form: type, then Enter in its field", path: "/submit", steps: [type(id("q"), "shoes"), press(id("q"), "Enter")], direct: [0, 1] },
  { name: "Enter in a form that loads a slow page: done once the new page committed", path: "/slow-submit", steps: [type(id("q"), "slow"), press(id("q"), "Enter")], direct: [0, 1] },
  // The key would reach another field: the guard stops it, and Playwright's press refuses a target that cannot keep the focus.
  { name: "a field that passes its focus on", path: "/key-thief", steps: [press(id("field"), "a", FAILS)], handsOver: [0] }
]
