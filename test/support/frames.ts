// A host page with iframes of every kind, each showing the same form: a same-origin frame, a cross-origin
// frame in the page's process and one out of process, a same-origin frame inside an out-of-process one, a
// cross-origin frame inside a same-origin one, and a frame inside an open shadow root. Three loopback
// origins (127.0.0.1 on three ports, one origin-keyed: see ORIGIN_KEYED in test/page/corpus.ts).
import { Effect } from "effect"
import { corpusServer, ORIGIN_KEYED } from "../page/corpus.js"
import { html } from "./browser.js"

/** The frames' titles, in the host page's order. */
export const FRAME_TITLES = ["Same", "Cross", "Keyed", "Keyed nest", "Local nest", "Shadowed"] as const

interface Box {
  readonly width: number
  readonly height: number
}

export interface FrameHostOptions {
  /** The size of a frame that shows the form. */
  readonly frame: Box
  /** The size of a frame that shows a page with the form's frame inside. */
  readonly nest: Box
  /** More of the host page, after its heading. */
  readonly top?: string
}

const style = (box: Box) => `width:${box.width}px;height:${box.height}px`

/** A page with a frame of the form at `inner` (an origin, or "" for its own) inside it. */
const nest = (inner: string, options: FrameHostOptions) =>
  html("Nest", `<p>outer</p><iframe title="Inner" src="${inner}/form" style="${style(options.frame)}"></iframe>`)

const host = (cross: string, keyed: string, options: FrameHostOptions) =>
  html(
    "Host",
    `<h1>Host</h1>${options.top ?? ""}
     <iframe title="Same" src="/form" style="${style(options.frame)}"></iframe>
     <iframe title="Cross" src="${cross}/form" style="${style(options.frame)}"></iframe>
     <iframe title="Keyed" src="${keyed}/form" style="${style(options.frame)}"></iframe>
     <iframe title="Keyed nest" src="${keyed}/nest" style="${style(options.nest)}"></iframe>
     <iframe title="Local nest" src="/nest" style="${style(options.nest)}"></iframe>
     <div id="shadow-host"></div>
     <script>
       document.getElementById("shadow-host").attachShadow({ mode: "open" }).innerHTML =
         '<iframe title="Shadowed" src="/form" style="${style(options.frame)}"></iframe>'
     </script>`
  )

/** Serves the host page with `form` in each of its frames; its URL. The three servers close with the scope. */
export const frameHost = (form: string, options: FrameHostOptions) =>
  Effect.gen(function* () {
    const cross = yield* corpusServer({ "/form": form })
    const keyed = yield* corpusServer({ "/form": form, "/nest": nest("", options) }, ORIGIN_KEYED)
    const top = yield* corpusServer({ "/host": host(cross.url, keyed.url, options), "/form": form, "/nest": nest(cross.url, options) })
    return `${top.url}/host`
  })
