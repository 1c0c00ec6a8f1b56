// A password typed as text (not a --secrets name) that a page puts into a URL: a GET form sends it in
// the query, a script in the fragment and the query in other forms. Over the built server (SDK client,
// stdio, Chromium): no response, stderr line, step record, export, report, HAR or trace entry shows it in
// any form, while the URLs keep their shape ("p=[secret:typed]"); and the redactor of URL tails alone.
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { servePages, type RunningServer } from "../../demo/sample-app.js"
import { readZip } from "../../src/adapters/zip.js"
import { makeUrlTailRedactor } from "../../src/domain/secrets.js"
import { html } from "../support/browser.js"
import { beginningsIn, expectNoLeak, startSecretsServer, textArtifacts } from "../support/secrets.js"

/** Every character URL, HTML and JSON encodings treat differently. */
const PASSWORD = 'hunter2 QZX%41<b>"&+/é\'#?sec'

/** The forms a page or a browser can give the value in a URL. */
const forms = (value: string): ReadonlyArray<string> => {
  const bytes = Buffer.from(value, "utf8")
  return [
    value,
    encodeURIComponent(value),
    encodeURI(value),
    new URLSearchParams({ v: value }).toString().slice(2),
    value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;"),
    JSON.stringify(value).slice(1, -1),
    bytes.toString("base64"),
    bytes.toString("base64url"),
    bytes.toString("hex")
  ]
}

/** Any form of the value, or a beginning of 5 characters or more of its raw or form-encoded form. */
const leaked = (text: string): ReadonlyArray<string> => [
  ...forms(PASSWORD).filter((form) => text.includes(form)),
  ...beginningsIn(text, [PASSWORD, new URLSearchParams({ v: PASSWORD }).toString().slice(2)], 5)
]

describe("the redactor of URL tails", () => {
  it("replaces a typed value in each form a URL can carry it, in the query and the fragment, and nowhere else", () => {
    const scrub = makeUrlTailRedactor([PASSWORD])
    const bytes = Buffer.from(PASSWORD, "utf8")
    const inUrl = {
      // What a browser makes of a URL a page built with the raw value ("#" in it starts the fragment).
      "browser query": new URL(`http://app.test/?p=${PASSWORD}`).href.slice("http://app.test/?p=".length),
      "browser fragment": new URL(`http://app.test/#${PASSWORD}`).href.slice("http://app.test/#".length),
      encodeURIComponent: encodeURIComponent(PASSWORD),
      encodeURI: encodeURI(PASSWORD),
      form: new URLSearchParams({ v: PASSWORD }).toString().slice(2),
      "html numeric": [...PASSWORD].map((c) => `&#${c.codePointAt(0)};`).join(""),
      base64: bytes.toString("base64"),
      base64url: bytes.toString("base64url"),
      hex: bytes.toString("hex")
    }
    for (const [name, form] of Object.entries(inUrl)) {
      expect(scrub(`see http://app.test/done?u=me&p=${form} now`), name).toBe("see http://app.test/done?u=me&p=[secret:typed] now")
      expect(scrub(`/done#${form}`), name).toBe("/done#[secret:typed]")
    }
    // In a page's words, a test id or a path, the value is the page's business: left as it is.
    const short = makeUrlTailRedactor(["hunter2x", "ab"])
    expect(short("testid hunter2x /hunter2x/?q=hunter2x&r=ab")).toBe("testid hunter2x /hunter2x/?q=[secret:typed]&r=ab")
    // A value a page spliced in raw, split by its own "&" or "#" (or its query ended there): no piece of it shows.
    expect(scrub(`/done?uri=${encodeURI(PASSWORD).split("#")[0]}&beacon=1`)).toBe("/done?uri=[secret:typed]&[secret:typed]&beacon=1")
    expect(scrub(new URL(`http://app.test/done?raw=${PASSWORD.split("&")[0]}&page=1`).href)).toBe("http://app.test/done?raw=[secret:typed]&page=1")
    // A URL cut inside the value shows none of it.
    expect(short("http://app.test/?q=hunt…")).toBe("http://app.test/?q=[secret:typed]…")
  })
})

const pages = {
  "/": html(
    "Sign in",
    `<form action="/done" method="get">
       <input data-testid="user" name="u">
       <input data-testid="password" type="password" name="p">
       <button data-testid="submit">Sign in</button>
     </form>`
  ),
  // The landing page shows its URL, logs it, and puts the value back into its fragment and query in other forms.
  "/done": html(
    "Done",
    `<p data-testid="url"></p>
     <script>
       const p = new URLSearchParams(location.search).get('p') ?? ''
       const hex = [...new TextEncoder().encode(p)].map((b) => b.toString(16).padStart(2, '0')).join('')
       const b64 = btoa(String.fromCharCode(...new TextEncoder().encode(p)))
       history.replaceState(null, '', location.pathname + location.search + '&uri=' + encodeURI(p) + '&b64=' + b64 + '&hex=' + hex + '#' + p)
       document.querySelector('[data-testid=url]').textContent = location.href
       console.error('landed on', location.href)
       fetch('/done' + location.search + '&beacon=1')
     </script>`
  )
}

describe("a password a GET form sends, over the built server", () => {
  let app: RunningServer
  beforeAll(async () => {
    app = await servePages(pages)
  })
  afterAll(async () => {
    await app.close()
  })

  it("is in no URL of a response, record, export, report, HAR, trace or log", { timeout: 120_000 }, async () => {
    const { client, call, results, stderr, artifacts } = await startSecretsServer("secret-urls", [
      "--caps",
      "devtools",
      "--step-screenshots",
      "all",
      "--save-trace",
      "--save-har"
    ])
    try {
      expect((await call("mm_launch")).ok).toBe(true)
      expect((await call("mm_navigate", { screen: "url", url: `${app.url}/` })).ok).toBe(true)
      expect((await call("mm_type", { testId: "user", text: "me" })).ok).toBe(true)
      const typed = await call("mm_type", { testId: "password", text: PASSWORD })
      expect(typed.result).toMatchObject({ typed: true, sensitive: true })
      expect((await call("mm_click", { testId: "submit" })).ok).toBe(true)
      expect((await call("mm_wait_for", { testId: "url" })).ok).toBe(true)
      // The URL keeps its shape; the value is its marker in the query (each form) and the fragment.
      const state = await call("mm_get_state")
      expect(JSON.stringify(state)).toMatch(/done\?u=me&p=\[secret:typed\]&uri=\[secret:typed\]&b64=\[secret:typed\]&hex=\[secret:typed\]#\[secret:typed\]/)
      expect((await call("mm_get_text", { testId: "url" })).result.text).toContain("p=[secret:typed]")
      await call("mm_tabs")
      await call("mm_describe_screen")
      await call("mm_console_messages", { level: "all" })
      const requests = await call("mm_network_requests", {})
      expect(JSON.stringify(requests)).toContain("beacon=1")
      await call("mm_knowledge_export", { format: "batch" })
      await call("mm_knowledge_export", { format: "playwright" })
      await call("mm_knowledge_last")
      expect((await call("mm_report")).ok).toBe(true)
      expect((await call("mm_cleanup")).ok).toBe(true)
    } finally {
      await client.close()
    }

    const answers = results.map((result) => JSON.stringify(result))
    expect(answers.length).toBeGreaterThan(10)
    const written = textArtifacts(artifacts)
    expectNoLeak(leaked, { answers, stderr: stderr(), files: written })
    const records = written.filter((file) => file.includes(`${path.sep}steps${path.sep}`))
    // The step records show the URL, with the marker in it.
    expect(records.some((file) => fs.readFileSync(file, "utf8").includes("p=[secret:typed]"))).toBe(true)
    expect(written.some((file) => file.endsWith(".html"))).toBe(true)
    const traces = written.filter((file) => file.endsWith("trace.zip"))
    expect(traces).toHaveLength(1)
    expect(written.filter((file) => file.endsWith("network.har"))).toHaveLength(1)
    for (const entry of readZip(fs.readFileSync(traces[0]!))) {
      expect(leaked(Buffer.from(entry.data).toString("utf8")), entry.name).toEqual([])
    }
  })
})
