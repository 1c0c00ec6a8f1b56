// A secret a cut runs through (issue 22: redact first, cut after, everywhere a value is cut): a page text
// longer than a step record keeps of what get_text read, a request URL longer than a network summary
// keeps, and a name or a frame's title longer than a snapshot shows, each with a --secrets value where the cut falls. No
// answer and no step record shows a beginning of the value; the markers show where it was.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { URL_LIMIT } from "../../src/adapters/playwright/devtools/network.js"
import { Secrets } from "../../src/services/Secrets.js"
import { html, liveLayer, pageServer, testSettings } from "../support/browser.js"
import { callsWith } from "../support/calls.js"
import { beginningsIn } from "../support/secrets.js"
import { filesUnder } from "../support/stdio-server.js"

const SECRET = "hunter2QZXsecret7kV"
/** Where each cut falls: a record keeps 120 characters of a long text, a summary 500 of a URL. */
const TEXT = `${"a".repeat(110)}${SECRET}${"b".repeat(100)}`

const pages = {
  "/": html(
    "Cuts",
    `<p data-testid="long">${TEXT}</p>
     <button data-testid="named" aria-label="${"n".repeat(140)}${encodeURIComponent(encodeURIComponent(SECRET))}">named</button>
     <iframe title="${"t".repeat(143)}${SECRET}" srcdoc="<p>framed</p>"></iframe>
     <script>
       // The value starts 6 characters before the summary's cut.
       const pad = 'p'.repeat(${URL_LIMIT - 6 - 3} - (location.origin + '/api?pad=').length)
       fetch('/api?pad=' + pad + '&t=${SECRET}').finally(() => { document.body.dataset.fetched = 'yes' })
     </script>`
  ),
  "/api": "{}"
}

const settings = testSettings({ caps: ["devtools"] })
const { call, ok } = callsWith(settings)
const secrets = Layer.succeed(Secrets, Secrets.make(new Map([["TOKEN", SECRET]])))

/** A beginning of 4 characters or more of the value, as is or URL-encoded (twice too). */
const leaked = (text: string) => beginningsIn(text, [SECRET, encodeURIComponent(encodeURIComponent(SECRET))], 4)

layer(Layer.mergeAll(liveLayer(settings), secrets), { timeout: 120_000, excludeTestServices: true })("a secret where a cut falls, in real Chromium", (it) => {
  describe("redacted before the cut", () => {
    it.effect("in what a step record keeps of a long text, a network summary's URL, a snapshot's names and a frame's title", () =>
      Effect.scoped(
        Effect.gen(function* () {
          const server = yield* pageServer(pages)
          const answers: Array<string> = []
          const keep = <A>(envelope: A) => {
            answers.push(JSON.stringify(envelope))
            return envelope
          }
          yield* ok("mm_launch", {})
          yield* ok("mm_navigate", { url: `${server.url}/` })
          yield* ok("mm_wait_for", { selector: "body[data-fetched=yes]" })
          const read = keep(yield* ok("mm_get_text", { testId: "long" }))
          expect(read.result.text).toBe(`${"a".repeat(110)}[secret:TOKEN]${"b".repeat(100)}`)
          const requests = keep(yield* ok("mm_network_requests", {}))
          const api = (requests.result.requests as Array<{ url: string }>).find((request) => request.url.includes("/api?"))
          expect(api?.url.endsWith("[secret:TOKEN]…"), api?.url).toBe(true)
          const screen = keep(yield* call("mm_describe_screen", {}))
          // The frame is named by its title, cut where the value starts.
          expect(JSON.stringify(screen)).toContain(`${"t".repeat(143)}[secret:TOKEN]…`)
          keep(yield* call("mm_find", { text: "named" }))
          yield* ok("mm_cleanup")
          // Steps are written off the call's path; a knowledge query writes what is queued, so every record is read below.
          yield* ok("mm_knowledge", { sessions: true })

          for (const answer of answers) expect(leaked(answer), answer.slice(0, 600)).toEqual([])
          const records = filesUnder(settings.artifactsDir).filter((file) => file.includes(`${path.sep}steps${path.sep}`))
          const getText = records.find((file) => file.endsWith("get_text.json"))
          expect(getText).toBeDefined()
          for (const file of records) expect(leaked(fs.readFileSync(file, "utf8")), file).toEqual([])
        })
      ))
  })
})
