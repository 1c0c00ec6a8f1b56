// The built server over real stdio, driven by the SDK Client: listing, calling, cancelling, and no
// browser left behind when the client goes away or the server gets a signal.
import { execFileSync } from "node:child_process"
import { randomUUID } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { loginPage, servePages, type RunningServer } from "../../demo/sample-app.js"
import { html, LOOPBACK_ARGS, tempDir } from "../support/browser.js"

const serverEntry = path.resolve(import.meta.dirname, "../../dist/src/main.js")

const pages = {
  "/": loginPage,
  "/cancel": html(
    "Cancel",
    `<p data-testid="count">0</p>
     <button data-testid="reveal" onclick="document.querySelector('[data-testid=late]').hidden = false">Reveal</button>
     <button data-testid="late" hidden onclick="const c = document.querySelector('[data-testid=count]'); c.textContent = String(Number(c.textContent) + 1)">Late</button>`
  )
}

/** PIDs of browser processes started with our marker switch. */
const browserPids = (marker: string): Array<number> => {
  const out = execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" })
  return out
    .split("\n")
    .filter((line) => line.includes(marker) && !line.includes("ps -eo"))
    .map((line) => Number(line.trim().split(/\s+/)[0]))
}

const waitUntil = async (condition: () => boolean, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (condition()) return true
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return condition()
}

const connect = async (app: RunningServer, marker: string, extra: ReadonlyArray<string> = []) => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      serverEntry,
      "--app-url",
      app.url,
      "--artifacts-dir",
      tempDir(),
      ...LOOPBACK_ARGS.map((arg) => `--browser-arg=${arg}`),
      "--browser-arg",
      `--bwm-test-marker=${marker}`,
      ...extra
    ],
    stderr: "pipe"
  })
  const client = new Client({ name: "e2e", version: "1.0.0" })
  await client.connect(transport)
  return { client, transport }
}

const envelopeOf = (result: Awaited<ReturnType<Client["callTool"]>>) => {
  const content = result.content as Array<{ type: string; text?: string }>
  const envelope = JSON.parse(content[0]!.text!)
  // The envelope travels once, as JSON text: clients that show structuredContent too would pay twice.
  expect(result.structuredContent).toBeUndefined()
  expect(result.isError).toBe(!envelope.ok)
  return envelope
}

describe("the built server over stdio", () => {
  let app: RunningServer
  beforeAll(async () => {
    expect(fs.existsSync(serverEntry), "run npm run build first").toBe(true)
    app = await servePages(pages)
  })
  afterAll(async () => {
    await app.close()
  })

  it("lists the tools that apply, announces the page tools on launch, runs a flow, and closes the browser when stdin closes", async () => {
    const marker = randomUUID()
    const { client, transport } = await connect(app, marker)
    let listChanged = 0
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      listChanged++
    })
    const { tools } = await client.listTools()
    const names = tools.map((tool) => tool.name)
    expect(names).toEqual(expect.arrayContaining(["mm_launch", "mm_cleanup", "mm_run_steps", "mm_knowledge", "mm_replay"]))
    expect(names).not.toContain("mm_click")
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe("object")
      expect(tool.outputSchema).toBeUndefined()
    }
    expect(client.getInstructions()).toContain("mm_launch")

    const launched = envelopeOf(await client.callTool({ name: "mm_launch", arguments: { goal: "e2e" } }))
    expect(launched.ok).toBe(true)
    expect(launched.result.state.url).toBe(`${app.url}/`)
    expect(browserPids(marker).length).toBeGreaterThan(0)
    expect(listChanged).toBe(1)
    const withSession = (await client.listTools()).tools.map((tool) => tool.name)
    expect(withSession).toEqual(expect.arrayContaining(["mm_click", "mm_type", "mm_describe_screen", "mm_cleanup"]))
    // Another launch is another session: launch stays listed.
    expect(withSession).toContain("mm_launch")

    const typed = envelopeOf(await client.callTool({ name: "mm_type", arguments: { testId: "username", text: "bob" } }))
    // {typed: true} only confirms what the page text shows: the JSON says {"ok":true}.
    expect(typed.ok).toBe(true)
    expect(typed.result).toBeUndefined()
    const invalid = envelopeOf(await client.callTool({ name: "mm_click", arguments: { testId: "a", selector: "b" } }))
    expect(invalid.error.code).toBe("MM_INVALID_INPUT")
    const unknown = envelopeOf(await client.callTool({ name: "mm_fly", arguments: {} }))
    expect(unknown.error.code).toBe("MM_UNKNOWN_TOOL")
    const bare = envelopeOf(await client.callTool({ name: "get_state", arguments: {} }))
    expect(bare.ok).toBe(true)

    const shot = await client.callTool({ name: "mm_screenshot", arguments: { name: "e2e", includeImage: true } })
    const blocks = shot.content as Array<{ type: string; mimeType?: string }>
    expect(blocks.map((block) => block.type)).toEqual(["text", "image"])
    expect(blocks[1]?.mimeType).toBe("image/png")

    const pid = transport.pid
    await client.close()
    expect(await waitUntil(() => browserPids(marker).length === 0, 15_000)).toBe(true)
    expect(pid).not.toBeNull()
  })

  it("page text comes as its own text block with real newlines, never inside the JSON: describe_screen, accessibility_snapshot, find, an action", async () => {
    const marker = randomUUID()
    const { client } = await connect(app, marker)
    try {
      expect(envelopeOf(await client.callTool({ name: "mm_launch", arguments: {} })).ok).toBe(true)
      const blocksOf = async (name: string, args: Record<string, unknown> = {}) => {
        const result = await client.callTool({ name, arguments: args })
        const blocks = result.content as Array<{ type: string; text?: string }>
        expect(blocks.map((block) => block.type), name).toEqual(["text", "text"])
        return { json: blocks[0]!.text!, envelope: envelopeOf(result), page: blocks[1]!.text! }
      }
      for (const [name, args, line] of [
        ["mm_describe_screen", {}, /^\s*button "Sign in" \[e\d+\]$/m],
        ["mm_accessibility_snapshot", {}, /^\s*button "Sign in" \[e\d+\]$/m],
        // Two matches (a find of one answers one line since 7b9029c left out the '… N more' lines).
        ["mm_find", { role: "textbox" }, /^\s*▶ textbox "Password" \[e\d+\]$/m]
      ] as const) {
        const { json, envelope, page } = await blocksOf(name, args)
        expect(envelope.ok, name).toBe(true)
        // Plain text with real newlines: one node per line, quotes as they are.
        expect(page, name).toMatch(line)
        expect(page.split("\n").length, name).toBeGreaterThan(1)
        expect(page, name).not.toContain("\\n")
        // The JSON says nothing twice: no copy of the page, no field for it.
        expect(json, name).not.toMatch(/\[e\d+\]|button \\"Sign in/)
        expect(JSON.stringify(envelope), name).not.toMatch(/"(snapshot|matches)"/)
      }
      const described = await blocksOf("mm_describe_screen")
      expect(described.envelope.result.state.url).toBe(`${app.url}/`)
      // A search whose matches are all shown (each marked ▶) and an action whose result only confirms it: the
      // JSON says {"ok":true}, the text says the rest.
      const found = await blocksOf("mm_find", { text: "Sign in" })
      expect(found.envelope.ok).toBe(true)
      expect(found.envelope.result).toBeUndefined()
      expect(found.page).toContain("▶")
      // An action sends its page text the same way.
      const typed = await blocksOf("mm_type", { testId: "username", text: "bob" })
      expect(typed.envelope.ok).toBe(true)
      expect(typed.envelope.result).toBeUndefined()
      expect(typed.page).toMatch(/textbox "Username" \[e\d+\]: bob/)
    } finally {
      await client.close()
    }
  })

  it("a cancelled call stops the browser action: the click never lands when its button appears later", async () => {
    const marker = randomUUID()
    const { client } = await connect(app, marker)
    try {
      envelopeOf(await client.callTool({ name: "mm_launch", arguments: {} }))
      envelopeOf(await client.callTool({ name: "mm_navigate", arguments: { screen: "url", url: `${app.url}/cancel` } }))
      const controller = new AbortController()
      const pending = client.callTool({ name: "mm_click", arguments: { testId: "late", timeoutMs: 60_000 } }, undefined, {
        signal: controller.signal
      })
      await new Promise((resolve) => setTimeout(resolve, 300))
      controller.abort()
      await expect(pending).rejects.toThrow()
      envelopeOf(await client.callTool({ name: "mm_click", arguments: { testId: "reveal" } }))
      await new Promise((resolve) => setTimeout(resolve, 500))
      const count = envelopeOf(await client.callTool({ name: "mm_get_text", arguments: { testId: "count" } }))
      expect(count.result.text).toBe("0")
    } finally {
      await client.close()
    }
  })

  it("SIGTERM closes the browser before the server exits", async () => {
    const marker = randomUUID()
    const { client, transport } = await connect(app, marker)
    envelopeOf(await client.callTool({ name: "mm_launch", arguments: {} }))
    expect(browserPids(marker).length).toBeGreaterThan(0)
    process.kill(transport.pid!, "SIGTERM")
    expect(await waitUntil(() => browserPids(marker).length === 0, 15_000)).toBe(true)
    await client.close().catch(() => undefined)
  })

  it("with an MV3 extension, the extension tools are listed after launch and work", async () => {
    const marker = randomUUID()
    const extension = path.resolve(import.meta.dirname, "../fixtures/extension-mv3")
    const { client } = await connect(app, marker, ["--extension", extension])
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain("mm_extension_storage")
      envelopeOf(await client.callTool({ name: "mm_launch", arguments: {} }))
      const names = (await client.listTools()).tools.map((tool) => tool.name)
      expect(names).toEqual(expect.arrayContaining(["mm_extension_storage", "mm_wait_for_notification"]))
      const storage = envelopeOf(await client.callTool({ name: "mm_extension_storage", arguments: {} }))
      expect(storage.ok).toBe(true)
    } finally {
      await client.close()
    }
  })

  it("--static-tools serves one fixed list, page tools included, before and after launch", async () => {
    const marker = randomUUID()
    const { client } = await connect(app, marker, ["--static-tools"])
    try {
      expect(client.getServerCapabilities()?.tools?.listChanged).toBe(false)
      const before = (await client.listTools()).tools.map((tool) => tool.name)
      expect(before).toEqual(expect.arrayContaining(["mm_launch", "mm_click", "mm_tabs", "mm_extension_storage"]))
      const early = envelopeOf(await client.callTool({ name: "mm_click", arguments: { testId: "login-submit" } }))
      expect(early.error.message).toBe("mm_click needs a running session: call mm_launch first.")
      envelopeOf(await client.callTool({ name: "mm_launch", arguments: {} }))
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(before)
    } finally {
      await client.close()
    }
  })

  it("--help lists every option with its default and writes nothing else", () => {
    const help = execFileSync(process.execPath, [serverEntry, "--help"], { encoding: "utf8" })
    for (const flag of ["--headless", "--headed", "--executable-path", "--extension", "--app-url", "--artifacts-dir", "--tool-prefix", "--browser-arg", "--config", "--static-tools", "--caps"]) {
      expect(help).toContain(flag)
    }
    expect(help).toContain("./test-artifacts")
    expect(help).toContain("default mm")
  })
})
