// Secrets by name: the strict dotenv parser, the redactor, and a real session over the built server
// (SDK client, stdio, Chromium) after which no response, stderr line, step record, export or report
// holds a secret's value in any form, nor any entry of the session's trace or HAR (--save-trace, --save-har);
// press_key never spells out a key pressed into a secret field.
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { servePages, type RunningServer } from "../../demo/sample-app.js"
import { readZip } from "../../src/adapters/zip.js"
import { cutRedacted, makeTextRedactor, makeTypedRedactor, parseDotenv } from "../../src/domain/secrets.js"
import { parseCli } from "../../src/cli.js"
import { html, tempDir } from "../support/browser.js"
import { beginningsIn, expectNoLeak, startSecretsServer, textArtifacts } from "../support/secrets.js"

describe("dotenv parser", () => {
  it("reads names and values: bare, quoted, escaped, exported, with comments", () => {
    const parsed = parseDotenv(
      [
        "# a comment",
        "",
        "API_TOKEN=abc123 # trailing comment",
        "export PASSWORD='it''s'".replace("''", ""),
        'SEED="one two\\nthree \\"four\\""',
        "  SPACED = spaced value  "
      ].join("\n")
    )
    expect(parsed.ok).toBe(true)
    if (!parsed.ok) return
    expect([...parsed.entries]).toEqual([
      ["API_TOKEN", "abc123"],
      ["PASSWORD", "its"],
      ["SEED", 'one two\nthree "four"'],
      ["SPACED", "spaced value"]
    ])
  })

  it("refuses malformed lines naming the line, never the value", () => {
    const cases = [
      "JUST-A-LINE-WITHOUT-EQUALS supersecretvalue",
      "1BAD=supersecretvalue",
      'OPEN="supersecretvalue',
      "SHORT=ab",
      "DUP=supersecretvalue\nDUP=supersecretvalue",
      'ESC="supersecret\\qvalue"'
    ]
    for (const text of cases) {
      const parsed = parseDotenv(text)
      expect(parsed.ok, text).toBe(false)
      if (parsed.ok) continue
      expect(parsed.line).toBeGreaterThan(0)
      expect(parsed.problem).not.toContain("supersecret")
    }
  })

  it("--secrets with a bad file fails at start naming the line, not the value", () => {
    const dir = tempDir("bwm-secrets-")
    const file = path.join(dir, "bad.env")
    fs.writeFileSync(file, "GOOD=fine-value\nBROKEN supersecretvalue\n", { mode: 0o600 })
    expect(() => parseCli(["--secrets", file], {})).toThrow(/line 2/)
    expect(() => parseCli(["--secrets", file], {})).not.toThrow(/supersecret/)
  })

  it("the redactor replaces a value as typed, URL-encoded, form-encoded and JSON-escaped; the longer value first", () => {
    const redact = makeTextRedactor(new Map([["A", 'p@ss w/"rd'], ["B", 'p@ss w/"rd and more']]))
    expect(redact('x p@ss w/"rd and more y')).toBe("x [secret:B] y")
    expect(redact(`q=${encodeURIComponent('p@ss w/"rd')}`)).toBe("q=[secret:A]")
    expect(redact(`q=${new URLSearchParams({ v: 'p@ss w/"rd' }).toString().slice(2)}`)).toBe("q=[secret:A]")
    expect(redact(JSON.stringify({ v: 'p@ss w/"rd' }))).toBe('{"v":"[secret:A]"}')
  })
})

/** The forms a page can put a value in, each as the page would write it (the redactor is never told which). */
const encodings = (value: string): Record<string, string> => {
  const bytes = Buffer.from(value, "utf8")
  /**
   * What a browser makes of a URL the page built with the raw value (its escaping, ? and # as they fall);
   * "" when the parser rewrote what came before it (a value starting with "../" climbs out of /p/).
   */
  const browser = (before: string) => {
    const href = new URL(`${before}${value}`).href
    return href.startsWith(before) ? href.slice(before.length) : ""
  }
  const html = value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;")
  const forms: Record<string, string> = {
    raw: value,
    encodeURIComponent: encodeURIComponent(value),
    encodeURI: encodeURI(value),
    form: new URLSearchParams({ v: value }).toString().slice(2),
    twice: encodeURIComponent(encodeURIComponent(value)),
    "browser path": browser("http://app.test/p/"),
    "browser query": browser("http://app.test/p?q="),
    "browser fragment": browser("http://app.test/p#"),
    json: JSON.stringify(value).slice(1, -1),
    "json ascii": JSON.stringify(value).slice(1, -1).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`),
    html,
    "html numeric": [...value].map((c) => `&#${c.codePointAt(0)};`).join(""),
    "html hex": [...value].map((c) => `&#x${c.codePointAt(0)!.toString(16)};`).join(""),
    base64: bytes.toString("base64"),
    "base64url": bytes.toString("base64url"),
    hex: bytes.toString("hex"),
    HEX: bytes.toString("hex").toUpperCase()
  }
  return Object.fromEntries(Object.entries(forms).filter(([, text]) => text.trim().length >= 3))
}

/** Where a value's bytes may sit inside encoded data: after 0, 1 or 2 other bytes, before others. */
const embeddedBinary = (value: string): Record<string, string> =>
  Object.fromEntries(
    [0, 1, 2].flatMap((offset) => {
      const data = Buffer.concat([Buffer.from("xyz".slice(0, offset)), Buffer.from(value, "utf8"), Buffer.from("-tail")])
      return [
        [`base64 at ${offset}`, data.toString("base64")],
        [`base64url at ${offset}`, data.toString("base64url")],
        [`hex at ${offset}`, data.toString("hex")]
      ]
    })
  )

/** A random value of 3 to 24 characters drawn from the characters encodings treat differently. */
const HOSTILE = [..."aZ09 %&<>\"'+/=?#;:@!*()~._-\\\n\té€😀\u00a0[]{}|^`$,"]
const randomSecret = (random: () => number) =>
  Array.from({ length: 3 + Math.floor(random() * 22) }, () => HOSTILE[Math.floor(random() * HOSTILE.length)]!).join("")

/** A small seeded generator: every run tries the same values, and a failure names its seed. */
const seeded = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
  return seed / 2_147_483_648
}

describe("the redactor knows every reversible form", () => {
  it("replaces a hostile value in each form a page can write it, whole, with its marker", () => {
    const value = 'p@ss w/"rd%20&<é>+=\'#?'
    const redact = makeTextRedactor(new Map([["PW", value]]))
    for (const [form, text] of Object.entries(encodings(value))) {
      expect(redact(`before ${text} after`), form).toBe("before [secret:PW] after")
    }
  })

  it("finds a value's base64 (standard, URL-safe) and hex inside longer data, at every alignment", () => {
    const value = "hunter2QZXsecret7"
    const redact = makeTextRedactor(new Map([["PW", value]]))
    for (const [form, text] of Object.entries(embeddedBinary(value))) {
      const redacted = redact(text)
      expect(redacted, form).toContain("[secret:PW]")
      // What is left decodes to nothing of the value but at most one byte at each edge.
      const left = redacted.split("[secret:PW]").join("")
      expect(left.length, form).toBeLessThan(text.length - value.length)
    }
  })

  it("random hostile values: no form of any survives, and text around them is kept", () => {
    for (let seed = 1; seed <= 150; seed++) {
      const random = seeded(seed)
      const value = randomSecret(random)
      if (value.trim().length < 3) continue
      const redact = makeTextRedactor(new Map([["S", value]]))
      // A value of fewer than 4 bytes decides too few base64 characters inside other data to look for.
      const binary = Buffer.byteLength(value) >= 4 ? embeddedBinary(value) : {}
      for (const [form, text] of Object.entries({ ...encodings(value), ...binary })) {
        const redacted = redact(`<<${text}>>`)
        expect(redacted.includes("[secret:S]"), `seed ${seed} ${form} ${JSON.stringify(value)}`).toBe(true)
        if (!form.includes(" at ")) expect(redacted.includes(text), `seed ${seed} ${form}`).toBe(false)
      }
    }
  })

  it("a cut never shows the beginning of a value: whatever is left before '…' or '...' of it is its marker", () => {
    const value = "hunter2QZXsecret7"
    const redact = makeTextRedactor(new Map([["PW", value]]))
    for (let length = 1; length < value.length; length++) {
      expect(redact(`{"v":"${value.slice(0, length)}…[cut: 9 more characters]`)).toBe('{"v":"[secret:PW]…[cut: 9 more characters]')
      expect(redact(`${encodeURIComponent(value).slice(0, length)}…`)).toBe("[secret:PW]…")
    }
    for (let length = 3; length < value.length; length++) expect(redact(`q=${value.slice(0, length)}...`)).toBe("q=[secret:PW]...")
    // Ordinary ellipses stay as they are.
    expect(redact("Loading... more…")).toBe("Loading... more…")
  })

  it("random hostile values cut anywhere in any form, mixed forms included: what is left before the cut is the marker", () => {
    for (let seed = 1; seed <= 60; seed++) {
      const random = seeded(seed)
      const value = randomSecret(random)
      // (White space at a value's end may be left after its marker: the value is also found without it, as a browser trims it.)
      if (value.trim().length < 3 || /\s$/.test(value)) continue
      const redact = makeTextRedactor(new Map([["S", value]]))
      // Its white space at the start and its first two other characters (one character and a piece of the next's
      // form is a beginning only in the whole forms: see the test above).
      const lead = value.slice(0, value.length - value.trimStart().length + [...value.trimStart()].slice(0, 2).join("").length)
      const [withLead, without] = [encodings(`${lead}QQQ`), encodings("QQQ")]
      for (const [form, text] of Object.entries(encodings(value))) {
        // A cut inside the first characters' own forms shows at most one of them.
        const firstForm = Math.max(4, (withLead[form]?.length ?? 0) - (without[form]?.length ?? 0))
        for (let length = firstForm; length < text.length; length++) {
          for (const mark of ["…", "…[cut: 9 more characters]"]) {
            // After the whole value's marker, the rest of its last character's form (base64's padding, "am" of "&amp;")
            // tells nothing, nor does a second marker.
            const redacted = redact(`QQ ${text.slice(0, length)}${mark}`).replace(/(\[secret:S\])(?:[A-Za-z0-9;#%=]{1,6}|\[secret:S\])(?=…)/, "$1")
            expect(redacted, `seed ${seed} ${form} ${JSON.stringify(value)} cut at ${length}`).toBe(`QQ [secret:S]${mark}`)
          }
        }
      }
    }
  })

  it("a typed value's beginning before a cut is not taken by a --secrets value that starts like a piece of its form", () => {
    // --secrets runs first, then the typed values (Secrets.andThen): "8" and a piece of "%AD" must not be A's.
    const secret = makeTextRedactor(new Map([["A", "8Qx%yz"]]))
    const typed = makeTypedRedactor(["k<中Q-pass"])
    const form = new URLSearchParams({ v: "k<中Q-pass" }).toString()
    for (let length = 4; length < form.length; length++) {
      expect(typed(secret(`${form.slice(0, length)}…`)), form.slice(0, length)).toMatch(/^v=\[secret:typed\]/)
    }
  })

  it("cutRedacted never cuts inside a marker", () => {
    const redacted = makeTextRedactor(new Map([["PW", "hunter2QZXsecret7"]]))('{"v":"hunter2QZXsecret7"}')
    expect(redacted).toBe('{"v":"[secret:PW]"}')
    for (let limit = 1; limit < redacted.length; limit++) {
      const kept = cutRedacted(redacted, limit)
      expect(kept.length).toBeLessThanOrEqual(limit)
      expect(kept.includes("[secret:") ? kept.includes("[secret:PW]") : true, kept).toBe(true)
    }
  })
})

const SECRET = 'Tr0ub4dor &3 "x"/+z'
/** Every form the value could take in text: as is, URL-encoded, form-encoded, JSON-escaped. */
const forms = [SECRET, encodeURIComponent(SECRET), new URLSearchParams({ v: SECRET }).toString().slice(2), JSON.stringify(SECRET).slice(1, -1)]
const leaks = (text: string) => forms.filter((form) => text.includes(form))

const pages = {
  "/": html(
    "Secrets",
    `<form action="/done" method="get">
       <label>Token <input data-testid="token" name="q"></label>
       <label>Password <input data-testid="password" type="password" name="p"></label>
       <button data-testid="submit">Send</button>
     </form>
     <p data-testid="echo"></p>
     <script>
       const token = document.querySelector('[data-testid=token]')
       token.addEventListener('input', () => {
         document.querySelector('[data-testid=echo]').textContent = 'You typed ' + token.value
         document.title = 'Secrets ' + token.value
         console.log('typed', token.value, JSON.stringify({ value: token.value }))
       })
     </script>`
  ),
  "/done": html("Done", `<p data-testid="url"></p><script>document.querySelector('[data-testid=url]').textContent = location.href</script>`)
}

// The two built-server suites have their own servers, browsers, pages and artifacts: they run side by side.
describe.concurrent("secrets over the built server", () => {
  let app: RunningServer
  beforeAll(async () => {
    app = await servePages(pages)
  })
  afterAll(async () => {
    await app.close()
  })

  it("a secret typed by name never appears in a response, stderr, a step record, an export or a report", { timeout: 90_000 }, async () => {
    const { client, call, results, stderr, artifacts } = await startSecretsServer(
      "secrets",
      // The session's trace and HAR hold what the page showed and sent: they are scanned too, unzipped.
      ["--step-screenshots", "all", "--save-trace", "--save-har"],
      `API_TOKEN=${JSON.stringify(SECRET)}\n`
    )
    try {
      // The instructions name the secrets, never their values.
      expect(client.getInstructions()).toContain("API_TOKEN")
      const launched = await call("mm_launch")
      expect(launched.ok).toBe(true)
      expect((await call("mm_navigate", { screen: "url", url: `${app.url}/` })).ok).toBe(true)

      const typed = await call("mm_type", { testId: "token", secret: "API_TOKEN" })
      expect(typed.ok).toBe(true)
      expect(typed.result).toMatchObject({ typed: true, sensitive: true })
      // The page shows it back, in its text, title and console: the answer says [secret:API_TOKEN].
      const echo = await call("mm_get_text", { testId: "echo" })
      expect(echo.result.text).toBe("You typed [secret:API_TOKEN]")
      expect((await call("mm_get_state")).result.state.title).toBe("Secrets [secret:API_TOKEN]")
      await call("mm_describe_screen")
      await call("mm_accessibility_snapshot").catch(() => undefined)
      await call("mm_get_text", { testId: "token" })

      const unknown = await call("mm_type", { testId: "token", secret: "NOT_THERE" })
      expect(unknown.error).toMatchObject({ code: "MM_INVALID_INPUT", details: { field: "secret" } })
      expect(unknown.error.message).toContain("API_TOKEN")
      const both = await call("mm_type", { testId: "token", secret: "API_TOKEN", text: "x" })
      expect(both.error).toMatchObject({ code: "MM_INVALID_INPUT" })

      // A key pressed into the password field is not spelled out (the answer does not echo keys; the record redacts it).
      const pressed = await call("mm_press_key", { testId: "password", key: "Z" })
      expect(pressed.result).toMatchObject({ pressed: true, sensitive: true })
      expect(JSON.stringify(pressed)).not.toContain('"Z"')

      // Submitting puts it in the URL, form-encoded.
      expect((await call("mm_click", { testId: "submit" })).ok).toBe(true)
      const landed = await call("mm_get_text", { testId: "url" })
      expect(landed.result.text).toContain("q=[secret:API_TOKEN]")
      // A failure that could quote it: waiting for a selector made of it.
      await call("mm_wait_for", { selector: `text=${SECRET}`, timeoutMs: 200 })

      const exported = await call("mm_knowledge_export", { format: "batch" })
      // The batch types it again by name.
      const steps = JSON.parse(exported.result.content).steps as Array<{ tool: string; args: Record<string, unknown> }>
      expect(steps.find((step) => step.tool === "mm_type")?.args).toMatchObject({ secret: "API_TOKEN" })
      const test = await call("mm_knowledge_export", { format: "playwright" })
      expect(test.result.content).toContain('requiredEnv("API_TOKEN")')
      await call("mm_knowledge_last")
      const report = await call("mm_report")
      expect(report.ok).toBe(true)
      expect((await call("mm_cleanup")).ok).toBe(true)

      // mm_replay types the secret again by its name: the form lands on the same URL, which shows it back.
      const replayed = await call("mm_replay", { sessionId: launched.result.sessionId, keepSession: true })
      expect(replayed.ok, JSON.stringify(replayed).slice(0, 400)).toBe(true)
      expect(replayed.result.summary).toMatchObject({ ok: true })
      expect((await call("mm_get_text", { testId: "url" })).result.text).toContain("q=[secret:API_TOKEN]")
      expect((await call("mm_cleanup")).ok).toBe(true)
    } finally {
      await client.close()
    }

    const answers = results.map((result) => JSON.stringify(result))
    expect(answers.length).toBeGreaterThan(10)
    expect(stderr().length).toBeGreaterThan(0)
    const written = textArtifacts(artifacts)
    expectNoLeak(leaks, { answers, stderr: stderr(), files: written })
    expect(written.some((file) => file.includes(`${path.sep}steps${path.sep}`))).toBe(true)
    expect(written.some((file) => file.endsWith(".html"))).toBe(true)
    // Both sessions (the flow and its replay) left a trace and a HAR; no entry of either holds the secret.
    const traces = written.filter((file) => file.endsWith("trace.zip"))
    expect(traces).toHaveLength(2)
    expect(written.filter((file) => file.endsWith("network.har"))).toHaveLength(2)
    for (const trace of traces) {
      const entries = readZip(fs.readFileSync(trace))
      expect(entries.some((entry) => Buffer.from(entry.data).toString("utf8").includes("[secret:API_TOKEN]")), trace).toBe(true)
      for (const entry of entries) expect(leaks(Buffer.from(entry.data).toString("utf8")), `${trace}: ${entry.name}`).toEqual([])
    }
  })
})

/** A value with every character the encodings treat differently: space, %, quotes, &, <, +, /, é. */
const HOSTILE_SECRET = 'hunter2 QZX%41<b>"&+/é\'sec'

/** A page that writes the typed value back in every form: its URL (raw), text, title, console and a request. */
const echoPage = html(
  "Echo",
  `<input data-testid="token" name="q"><pre data-testid="echo"></pre>
   <script>
     const hex = (text) => [...new TextEncoder().encode(text)].map((b) => b.toString(16).padStart(2, '0')).join('')
     const b64 = (text) => btoa(String.fromCharCode(...new TextEncoder().encode(text)))
     const html = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
     document.querySelector('[data-testid=token]').addEventListener('change', (event) => {
       const v = event.target.value
       const forms = [v, encodeURI(v), encodeURIComponent(v), html(v), b64(v), b64('x' + v), b64('xy' + v).replace(/[+]/g, '-').replace(/[/]/g, '_'), hex(v), JSON.stringify(v)]
       document.querySelector('[data-testid=echo]').textContent = forms.join('\\n')
       document.title = 'Echo ' + encodeURI(v)
       history.replaceState(null, '', '/echo/' + v + '?raw=' + v + '#' + v)
       for (const form of forms) console.error('form', form)
       fetch('/collect', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ v, html: html(v) }) })
     })
   </script>`
)

describe.concurrent("secrets in forms a page chose, over the built server", () => {
  let app: RunningServer
  beforeAll(async () => {
    app = await servePages({ "/": echoPage, "/collect": "ok" })
  })
  afterAll(async () => {
    await app.close()
  })

  it("a value echoed raw in the URL, encodeURI'd, HTML-escaped, as base64 and hex, and cut anywhere in a body, is in no answer, record or log", { timeout: 120_000 }, async () => {
    const { client, call, results, stderr, artifacts } = await startSecretsServer("secret-forms", ["--caps", "devtools"], `TOKEN=${JSON.stringify(HOSTILE_SECRET)}\n`)
    try {
      expect((await call("mm_launch")).ok).toBe(true)
      expect((await call("mm_navigate", { screen: "url", url: `${app.url}/` })).ok).toBe(true)
      const typed = await call("mm_type", { testId: "token", secret: "TOKEN", submit: true })
      expect(typed.ok, JSON.stringify(typed)).toBe(true)
      const echo = await call("mm_get_text", { testId: "echo" })
      expect(echo.result.text.split("\n").every((line: string) => line.includes("[secret:TOKEN]")), echo.result.text).toBe(true)
      const state = await call("mm_get_state")
      expect(JSON.stringify(state)).toContain("/echo/[secret:TOKEN]?raw=[secret:TOKEN]#[secret:TOKEN]")
      await call("mm_describe_screen")
      await call("mm_console_messages", { level: "all" })
      const requests = await call("mm_network_requests", {})
      const collect = JSON.stringify(requests).match(/"id":"(r\d+)"[^}]*\/collect/)
      expect(collect, JSON.stringify(requests)).not.toBeNull()
      // Every cut, from inside the value's first character to past its end: none shows a part of it. Reads, all at once.
      const cuts = await Promise.all(Array.from({ length: 40 }, (_, index) => call("mm_network_request", { id: collect![1], bodyChars: index + 1 })))
      for (const [index, details] of cuts.entries()) expect(details.ok, `bodyChars ${index + 1}`).toBe(true)
      expect((await call("mm_cleanup")).ok).toBe(true)
    } finally {
      await client.close()
    }
    const forms = Object.values(encodings(HOSTILE_SECRET))
    /** Any form of the value, or a beginning of 4 characters or more of its raw or JSON form. */
    const leaked = (text: string) => [
      ...forms.filter((form) => text.includes(form)),
      ...beginningsIn(text, [HOSTILE_SECRET, JSON.stringify(HOSTILE_SECRET).slice(1, -1)], 4)
    ]
    const answers = results.map((result) => (result.content as Array<{ text: string }>).map((block) => block.text).join("\n"))
    const written = textArtifacts(artifacts)
    expectNoLeak(leaked, { answers, stderr: stderr(), files: written })
    expect(written.some((file) => file.includes(`${path.sep}steps${path.sep}`))).toBe(true)
  })
})
