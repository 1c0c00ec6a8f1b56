// Random secret values end to end (issue 22): values drawn by fast-check from hostile characters (spaces,
// %, quotes, "<>&", "#?+/\", accents, emoji) are given to the built server as --secrets and typed with
// mm_type {secret}, and one more is typed as text into a password field. A real page echoes each in every
// form it can: in its URL (raw, encodeURI, encodeURIComponent), its text (as is, HTML-escaped, as numeric
// and hexadecimal HTML references, JSON with \u escapes, twice URL-encoded, base64url; a name the snapshot
// cuts inside the value), its title, the console, a POST body (JSON and form-encoded) and its echo, base64
// and hex. No answer, stderr line, step record, export, report or HAR shows any value in any of those forms,
// nor a beginning of one of 5 characters or more; and the markers show where the values were.
import * as path from "node:path"
import { FastCheck as fc } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { listenLoopback, pathOf, send, type RunningServer } from "../../demo/serve.js"
import { html } from "../support/browser.js"
import { beginningsIn, expectNoLeak, startSecretsServer, textArtifacts } from "../support/secrets.js"

const HOSTILE = [" ", "%", '"', "'", "<", ">", "&", "#", "?", "+", "/", "\\", "=", ";", "é", "ß", "€", "😀", "中"]
const LETTERS = [..."abcdefghijkmnpqrstuvwxyzQRSTUVWXYZ23456789"]

/** A value of 8 to 16 characters, at least a third of them hostile, starting and ending with a letter. */
const secretValue = fc
  .tuple(fc.constantFrom(...LETTERS), fc.array(fc.oneof(fc.constantFrom(...HOSTILE), fc.constantFrom(...LETTERS)), { minLength: 6, maxLength: 14 }), fc.constantFrom(...LETTERS))
  .map(([first, middle, last]) => `${first}${middle.join("")}${last}`)
  .filter((value) => [...value].filter((character) => HOSTILE.includes(character)).length * 3 >= [...value].length)

const [SECRET_A, SECRET_B, PASSWORD] = fc.sample(fc.uniqueArray(secretValue, { minLength: 3, maxLength: 3 }), { numRuns: 1, seed: 2222 })[0]!
const SECRETS = { SECRET_A: SECRET_A!, SECRET_B: SECRET_B! }
const VALUES = [SECRET_A!, SECRET_B!, PASSWORD!]

/** A --secrets file line: double-quoted, with \" and \\ escaped. */
const dotenvLine = (name: string, value: string) => `${name}="${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`

/** JSON with every character past ASCII as \uXXXX (Python's json.dumps, for one). */
const jsonAscii = (value: string) => JSON.stringify(value).slice(1, -1).replace(/[^\x20-\x7e]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`)

/** Every form the page gives a value in, and those a browser or a tool makes of them. */
const forms = (value: string): ReadonlyArray<string> => {
  const bytes = Buffer.from(value, "utf8")
  return [
    value,
    encodeURIComponent(value),
    encodeURI(value),
    new URL(`http://x.test/?v=${value}`).search.slice(3),
    new URLSearchParams({ v: value }).toString().slice(2),
    value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;"),
    JSON.stringify(value).slice(1, -1),
    JSON.stringify(JSON.stringify(value)).slice(2, -2),
    jsonAscii(value),
    encodeURIComponent(encodeURIComponent(value)),
    [...value].map((character) => `&#${character.codePointAt(0)};`).join(""),
    [...value].map((character) => `&#x${character.codePointAt(0)!.toString(16)};`).join(""),
    bytes.toString("base64"),
    bytes.toString("base64url"),
    bytes.toString("hex")
  ]
}

/** Any form of any value in the text, or a beginning of 5 characters or more of its raw or URI-encoded (once, twice) form. */
const leaked = (text: string): ReadonlyArray<string> =>
  VALUES.flatMap((value) => [
    ...forms(value).filter((form) => text.includes(form)),
    ...beginningsIn(text, [value, encodeURIComponent(value), encodeURIComponent(encodeURIComponent(value))], 5)
  ])

/** The page: a field per value; "echo" shows what the field holds in every form and sends it to the server. */
const PAGE = html(
  "Echo",
  `<input data-testid="field" name="field">
   <input data-testid="password" type="password" name="password">
   <button data-testid="echo-field" onclick="echo('field')">Echo field</button>
   <button data-testid="echo-password" onclick="echo('password')">Echo password</button>
   <p data-testid="raw"></p><p data-testid="escaped"></p><p data-testid="binary"></p><p data-testid="more"></p>
   <button data-testid="long-name">long</button>
   <script>
     async function echo(name) {
       delete document.body.dataset.echoed
       const v = document.querySelector('[name=' + name + ']').value
       const bytes = new TextEncoder().encode(v)
       const b64 = btoa(String.fromCharCode(...bytes))
       const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')
       const escaped = v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
       history.replaceState(null, '', '/?raw=' + v + '&uri=' + encodeURI(v) + '&c=' + encodeURIComponent(v) + '#' + v)
       document.title = 'Echo ' + v
       document.querySelector('[data-testid=raw]').textContent = 'raw ' + v
       document.querySelector('[data-testid=escaped]').textContent = 'escaped ' + escaped
       document.querySelector('[data-testid=binary]').textContent = 'b64 ' + b64 + ' hex ' + hex
       // Numeric HTML references, JSON with \\u escapes, twice URL-encoded, base64url: as text the page shows.
       const numeric = [...v].map((c) => '&#' + c.codePointAt(0) + ';').join('')
       const hexRefs = [...v].map((c) => '&#x' + c.codePointAt(0).toString(16) + ';').join('')
       const ascii = JSON.stringify(v).slice(1, -1).replace(/[^\\x20-\\x7e]/g, (u) => '\\\\u' + u.charCodeAt(0).toString(16).padStart(4, '0'))
       const b64url = b64.replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '')
       document.querySelector('[data-testid=more]').textContent = 'more ' + [numeric, hexRefs, ascii, encodeURIComponent(encodeURIComponent(v)), b64url].join(' ')
       // A name the snapshot cuts at 150 characters, inside the value's twice-encoded form.
       document.querySelector('[data-testid=long-name]').setAttribute('aria-label', 'n'.repeat(140) + encodeURIComponent(encodeURIComponent(v)))
       console.log('typed', v)
       console.error('escaped', escaped, b64, hex)
       await fetch('/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ v, b64, hex }) })
       await fetch('/echo?c=' + encodeURIComponent(v), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ v }).toString() })
       document.body.dataset.echoed = name
     }
   </script>`
)

describe("random secret values through a page that echoes them in every form, over the built server", () => {
  let app: RunningServer
  beforeAll(async () => {
    app = await listenLoopback((request, response) => {
      if (request.method === "POST") {
        // The server echoes the body back: the response body carries the value too.
        const chunks: Array<Buffer> = []
        request.on("data", (chunk: Buffer) => chunks.push(chunk))
        request.on("end", () => send(response, 200, String(request.headers["content-type"] ?? "text/plain"), Buffer.concat(chunks)))
        return
      }
      if (pathOf(request) === "/") send(response, 200, "text/html; charset=utf-8", PAGE)
      else send(response, 404, "text/plain", "not found")
    })
  })
  afterAll(async () => {
    await app.close()
  })

  it("are in no answer, record, export, report, HAR or log", { timeout: 240_000 }, async () => {
    const { client, call, results, stderr, artifacts } = await startSecretsServer(
      "random-secrets",
      ["--caps", "devtools", "--save-har"],
      Object.entries(SECRETS).map(([name, value]) => dotenvLine(name, value)).join("\n") + "\n"
    )
    /** Echoes the field, then reads everything the page and its traffic show. */
    const echoAndRead = async (testId: string, marker: string) => {
      expect((await call("mm_click", { testId: `echo-${testId}` })).ok).toBe(true)
      expect((await call("mm_wait_for", { selector: `body[data-echoed=${testId}]` })).ok).toBe(true)
      const state = JSON.stringify(await call("mm_get_state"))
      // The URL and the title keep their shape, the value its marker in them.
      expect(state).toContain(`raw=${marker}`)
      expect(state).toContain(`Echo ${marker}`)
      expect((await call("mm_get_text", { testId: "raw" })).result.text).toBe(`raw ${marker}`)
      expect((await call("mm_get_text", { testId: "escaped" })).result.text).toBe(`escaped ${marker}`)
      expect((await call("mm_get_text", { testId: "binary" })).result.text).toBe(`b64 ${marker} hex ${marker}`)
      expect((await call("mm_get_text", { testId: "more" })).result.text).toBe(`more ${Array(5).fill(marker).join(" ")}`)
      await call("mm_describe_screen")
      await call("mm_find", { text: "raw" })
      expect(JSON.stringify(await call("mm_console_messages", { level: "all" }))).toContain(`typed ${marker}`)
      const requests = (await call("mm_network_requests", { method: "POST" })).result.requests as Array<{ id: string }>
      expect(requests.length).toBeGreaterThanOrEqual(2)
      // Whole, and cut anywhere in the body: a cut never shows a beginning of a value. Reads of what was sent, all at once.
      await Promise.all(requests.slice(-2).flatMap(({ id }) => [2000, 3, 6, 9, 13, 17, 23].map((bodyChars) => call("mm_network_request", { id, bodyChars }))))
    }
    try {
      expect((await call("mm_launch")).ok).toBe(true)
      expect((await call("mm_navigate", { url: `${app.url}/` })).ok).toBe(true)
      for (const name of Object.keys(SECRETS)) {
        expect((await call("mm_type", { testId: "field", secret: name })).ok).toBe(true)
        await echoAndRead("field", `[secret:${name}]`)
      }
      const typed = await call("mm_type", { testId: "password", text: PASSWORD })
      expect(typed.result).toMatchObject({ typed: true, sensitive: true })
      await echoAndRead("password", "[secret:typed]")
      await call("mm_knowledge_export", { format: "batch" })
      await call("mm_knowledge_export", { format: "playwright" })
      await call("mm_knowledge_last")
      expect((await call("mm_report")).ok).toBe(true)
      expect((await call("mm_cleanup")).ok).toBe(true)
    } finally {
      await client.close()
    }

    const answers = results.map((result) => JSON.stringify(result))
    expect(answers.length).toBeGreaterThan(30)
    const written = textArtifacts(artifacts)
    expectNoLeak(leaked, { answers, stderr: stderr(), files: written })
    expect(written.some((file) => file.includes(`${path.sep}steps${path.sep}`))).toBe(true)
    expect(written.some((file) => file.endsWith(".html"))).toBe(true)
    expect(written.filter((file) => file.endsWith("network.har"))).toHaveLength(1)
  })
})
