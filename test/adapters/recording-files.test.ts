// The pieces behind a session's recordings, without a browser: the ZIP round trip a trace goes through,
// the scrubbing of a trace's snapshots and actions and of a HAR (--output-max-mb: artifact-retention.test.ts).
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { artifactRedactor, passwordValuesIn, scrubHar, scrubTrace } from "../../src/adapters/playwright/lifecycle/recording-scrub.js"
import { readZip, writeZip } from "../../src/adapters/zip.js"
import { Secrets } from "../../src/services/Secrets.js"
import { servePages } from "../../demo/serve.js"
import { html, tempDir } from "../support/browser.js"
import { launchChromium } from "../page/oracle.js"

const text = (value: string) => Buffer.from(value, "utf8")

describe("trace files", () => {
  it("a ZIP written is read back entry for entry, text and binary, and `unzip -t` accepts it", () => {
    const entries = [
      { name: "trace.trace", data: text('{"type":"before"}\n'.repeat(50)) },
      { name: "resources/a.jpeg", data: Buffer.from([0xff, 0xd8, 0xff, 0x00, 0x01, 0x02]) },
      { name: "empty", data: Buffer.alloc(0) }
    ]
    const archive = writeZip(entries)
    expect(readZip(archive).map((entry) => [entry.name, Buffer.from(entry.data).toString("hex")])).toEqual(
      entries.map((entry) => [entry.name, Buffer.from(entry.data).toString("hex")])
    )
    const file = path.join(tempDir("bwm-zip-"), "t.zip")
    fs.writeFileSync(file, archive)
    // The system's unzip, when there is one, tests every entry's CRC.
    const unzip = ["/usr/bin/unzip", "/bin/unzip"].find((candidate) => fs.existsSync(candidate))
    if (unzip !== undefined) {
      expect(execFileSync(unzip, ["-t", file], { encoding: "utf8" })).toContain("No errors detected")
    }
  })

  it("a password field's value leaves every snapshot and every action that typed it; --secrets values every entry; the rest stays", () => {
    const snapshot = {
      type: "frame-snapshot",
      snapshot: { html: ["HTML", {}, ["BODY", {}, ["INPUT", { __playwright_value_: "hunter22", type: "Password" }], ["INPUT", { __playwright_value_: "alice" }]]] }
    }
    const action = { type: "before", method: "keyboardInsertText", params: { text: "hunter22" } }
    const short = { type: "before", method: "fill", params: { value: "ab" } }
    const entries = [
      { name: "trace.trace", data: text([snapshot, action, short].map((line) => JSON.stringify(line)).join("\n")) },
      { name: "trace.network", data: text('{"postData":"u=alice&p=hunter22&t=s%40cret-v"}') },
      { name: "resources/x.jpeg", data: Buffer.from([0xff, 0xd8, 0xff]) }
    ]
    const typed = new Set([...passwordValuesIn(entries), "ab"])
    expect([...typed].sort()).toEqual(["ab", "hunter22"])
    const secrets = Secrets.make(new Map([["TOKEN", "s@cret-v"]]))
    const scrubbed = scrubTrace(entries, artifactRedactor(secrets, typed), typed)
    const all = scrubbed.map((entry) => Buffer.from(entry.data).toString("utf8")).join("\n")
    expect(all).not.toContain("hunter22")
    expect(all).not.toContain("s%40cret-v")
    expect(all).toContain("alice")
    expect(all).toContain("[secret:TOKEN]")
    // A value too short to look for everywhere still leaves the action that typed it.
    expect(all).not.toContain('"value":"ab"')
    expect(scrubbed[2]).toBe(entries[2])
  })

  it("a secret typed into a plain field in two parts leaves no beginning of it: not in a field's value, an action's text or Playwright's log", () => {
    // Playwright fills all but the last character, then types that one: snapshots, the fill's params and
    // its log line hold the secret's beginning, which no search for the whole value finds.
    const partial = "tok-Sup3rSecretValue-4"
    const snapshot = {
      type: "frame-snapshot",
      snapshot: { html: ["HTML", {}, ["BODY", {}, ["INPUT", { __playwright_value_: partial, name: "token" }], ["INPUT", { __playwright_value_: "tok-other" }], ["INPUT", { value: "to" }]]] }
    }
    const fill = { type: "before", method: "fill", params: { selector: "role=textbox", value: partial } }
    const log = { type: "log", callId: "c@1", message: `  fill(${JSON.stringify(partial)})` }
    const other = { type: "log", callId: "c@2", message: '  fill("alice")' }
    const entries = [{ name: "trace.trace", data: text([snapshot, fill, log, other].map((line) => JSON.stringify(line)).join("\n")) }]
    const secrets = Secrets.make(new Map([["API_TOKEN", `${partial}2`]]))
    const scrubbed = scrubTrace(entries, artifactRedactor(secrets, []), new Set(), new Set([`${partial}2`]))
    const all = Buffer.from(scrubbed[0]!.data).toString("utf8")
    expect(all).not.toContain("Sup3r")
    expect(all.split('"[REDACTED]"').length - 1).toBe(2)
    expect(all).toContain('fill(\\"[REDACTED]\\")')
    // What only shares a few characters with it, or is too short to be one, stays.
    expect(all).toContain("tok-other")
    expect(all).toContain('"value":"to"')
    expect(all).toContain('fill(\\"alice\\")')
  })

  it("a HAR keeps its shape with every secret out of every string and no credential header or cookie value", () => {
    const har = {
      log: {
        entries: [
          {
            request: {
              url: "http://127.0.0.1/x?t=s%40cret-v",
              postData: { text: "p=hunter22" },
              headers: [{ name: "Authorization", value: "Bearer abc" }, { name: "X-Api-Key", value: "k1" }, { name: "Accept", value: "*/*" }],
              cookies: [{ name: "sid", value: "c00kie" }]
            },
            response: { headers: [{ name: "set-cookie", value: "sid=c00kie" }], cookies: [{ name: "sid", value: "c00kie" }] }
          }
        ]
      }
    }
    const out = scrubHar(JSON.stringify(har), artifactRedactor(Secrets.make(new Map([["TOKEN", "s@cret-v"]])), ["hunter22"]))
    expect(JSON.parse(out)).toEqual({
      log: {
        entries: [
          {
            request: {
              url: "http://127.0.0.1/x?t=[secret:TOKEN]",
              postData: { text: "p=[secret:typed]" },
              headers: [{ name: "Authorization", value: "[REDACTED]" }, { name: "X-Api-Key", value: "[REDACTED]" }, { name: "Accept", value: "*/*" }],
              cookies: [{ name: "sid", value: "[REDACTED]" }]
            },
            response: { headers: [{ name: "set-cookie", value: "[REDACTED]" }], cookies: [{ name: "sid", value: "[REDACTED]" }] }
          }
        ]
      }
    })
  })

  it("a trace's network entries lose their credentials too", () => {
    const line = { type: "resource-snapshot", snapshot: { request: { headers: [{ name: "Cookie", value: "sid=c00kie" }], cookies: [] }, response: { headers: [] } } }
    const [scrubbed] = scrubTrace([{ name: "trace.network", data: text(JSON.stringify(line)) }], (value) => value, new Set())
    expect(Buffer.from(scrubbed!.data).toString("utf8")).not.toContain("c00kie")
  })
})

describe("stored state in a real trace", () => {
  it("cookies and storage a call reads or sets through the context (cookies(), storageState(), addCookies()) leave the trace", async () => {
    const server = await servePages({ "/": html("Store", "<script>localStorage.setItem('k', ['local', 'SECRET', '1'].join('-'))</script>") })
    const browser = await launchChromium()
    try {
      const context = await browser.newContext()
      await context.tracing.start({ snapshots: true })
      await context.addCookies([{ name: "sid", value: "cookie-SECRET-2", url: server.url }])
      const page = await context.newPage()
      await page.goto(server.url)
      const state = await context.storageState()
      const cookies = await context.cookies()
      // The calls really saw the values: the test proves the scrub, not an empty trace.
      expect(JSON.stringify({ state, cookies })).toContain("local-SECRET-1")
      expect(JSON.stringify(cookies)).toContain("cookie-SECRET-2")
      const file = path.join(tempDir("bwm-trace-"), "trace.zip")
      await context.tracing.stop({ path: file })
      const entries = readZip(fs.readFileSync(file))
      const before = entries.map((entry) => Buffer.from(entry.data).toString("utf8")).join("\n")
      expect(before).toContain("cookie-SECRET-2")
      expect(before).toContain("local-SECRET-1")
      const after = scrubTrace(entries, (value) => value, new Set())
        .map((entry) => Buffer.from(entry.data).toString("utf8"))
        .join("\n")
      expect(after).not.toContain("cookie-SECRET-2")
      expect(after).not.toContain("local-SECRET-1")
      // The names stay: a reviewer still sees which cookie a call read.
      expect(after).toContain('"sid"')
    } finally {
      await browser.close()
      await server.close()
    }
  })
})
