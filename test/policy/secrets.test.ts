// Secrets by name: the strict dotenv parser, the redactor, and a real session over the built server
// (SDK client, stdio, Chromium) after which no response, stderr line, step record, export or report
// holds a secret's value in any form; press_key never spells out a key pressed into a secret field.
import * as fs from "node:fs"
import * as path from "node:path"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { servePages, type RunningServer } from "../../demo/sample-app.js"
import { makeTextRedactor, parseDotenv } from "../../src/domain/secrets.js"
import { parseCli } from "../../src/cli.js"
import { html, LOOPBACK_ARGS, tempDir } from "../support/browser.js"

const serverEntry = path.resolve(import.meta.dirname, "../../dist/src/main.js")

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

/** Every text file under a directory, recursively. */
const filesUnder = (dir: string): Array<string> =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name)
    return entry.isDirectory() ? filesUnder(file) : [file]
  })

describe("secrets over the built server", () => {
  let app: RunningServer
  beforeAll(async () => {
    app = await servePages(pages)
  })
  afterAll(async () => {
    await app.close()
  })

  it("a secret typed by name never appears in a response, stderr, a step record, an export or a report", { timeout: 90_000 }, async () => {
    const dir = tempDir("bwm-secrets-")
    const artifacts = path.join(dir, "artifacts")
    const secretsFile = path.join(dir, "secrets.env")
    fs.writeFileSync(secretsFile, `API_TOKEN=${JSON.stringify(SECRET)}\n`, { mode: 0o600 })
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        serverEntry,
        "--artifacts-dir",
        artifacts,
        "--secrets",
        secretsFile,
        "--log-level",
        "debug",
        "--step-screenshots",
        "all",
        ...LOOPBACK_ARGS.map((arg) => `--browser-arg=${arg}`)
      ],
      stderr: "pipe"
    })
    let stderr = ""
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    const client = new Client({ name: "secrets", version: "1.0.0" })
    await client.connect(transport)
    const answers: Array<string> = []
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 })
      const text = JSON.stringify(result)
      answers.push(text)
      return JSON.parse((result.content as Array<{ text: string }>)[0]!.text)
    }
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
      const replayed = await call("mm_replay", { sessionId: launched.result.sessionId })
      expect(replayed.ok, JSON.stringify(replayed).slice(0, 400)).toBe(true)
      expect(replayed.result.summary).toMatchObject({ ok: true })
      expect((await call("mm_get_text", { testId: "url" })).result.text).toContain("q=[secret:API_TOKEN]")
      expect((await call("mm_cleanup")).ok).toBe(true)
    } finally {
      await client.close()
    }

    expect(answers.length).toBeGreaterThan(10)
    for (const answer of answers) expect(leaks(answer), answer.slice(0, 200)).toEqual([])
    expect(stderr.length).toBeGreaterThan(0)
    expect(leaks(stderr)).toEqual([])
    const written = filesUnder(artifacts).filter((file) => !/\.(png|jpg)$/.test(file))
    expect(written.some((file) => file.includes(`${path.sep}steps${path.sep}`))).toBe(true)
    expect(written.some((file) => file.endsWith(".html"))).toBe(true)
    for (const file of written) expect(leaks(fs.readFileSync(file, "utf8")), file).toEqual([])
  })
})
