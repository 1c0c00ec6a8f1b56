// A server with another tool prefix speaks of its tools by the names it serves: no tools/list entry,
// instruction, hint, notice or recipe says "mm_" (the default prefix the server's own text is written in).
import { randomUUID } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { loginPage, servePages, type RunningServer } from "../../demo/sample-app.js"
import { html, LOOPBACK_ARGS, tempDir } from "../support/browser.js"

const serverEntry = path.resolve(import.meta.dirname, "../../dist/src/main.js")

const pages = {
  "/": loginPage,
  "/chooser": html("Chooser", `<input type="file" data-testid="file"><button data-testid="go" onclick="location.href='/'">Go</button>`)
}

const connect = async (app: RunningServer, extra: ReadonlyArray<string>) => {
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
      `--bwm-test-marker=${randomUUID()}`,
      ...extra
    ],
    stderr: "pipe"
  })
  const client = new Client({ name: "prefix", version: "1.0.0" })
  await client.connect(transport)
  return client
}

/** Every text block of a call's answer, and the envelope (the first one). */
const answer = async (client: Client, name: string, args: Record<string, unknown> = {}) => {
  const result = await client.callTool({ name, arguments: args })
  const texts = (result.content as Array<{ type: string; text?: string }>).flatMap((block) => (block.text === undefined ? [] : [block.text]))
  return { texts, envelope: JSON.parse(texts[0]!) as { ok: boolean; error?: { code: string; message: string }; notices?: Array<string> } }
}

describe("a server with another tool prefix", () => {
  let app: RunningServer
  beforeAll(async () => {
    expect(fs.existsSync(serverEntry), "run npm run build first").toBe(true)
    app = await servePages(pages)
  })
  afterAll(async () => {
    await app.close()
  })

  it("lists every tool (the fixed list, every group) with descriptions and schemas that name tools by the served prefix", async () => {
    const client = await connect(app, ["--tool-prefix", "bw", "--static-tools", "--caps", "all"])
    try {
      const { tools } = await client.listTools()
      expect(tools.length).toBeGreaterThan(30)
      expect(tools.every((tool) => tool.name.startsWith("bw_"))).toBe(true)
      const listed = JSON.stringify(tools)
      expect(listed).not.toContain("mm_")
      // What the default prefix's text said is there, renamed: mm_knowledge's export names the served batch tool.
      expect(listed).toContain("batch: bw_run_steps steps")
      expect(client.getInstructions()).not.toContain("mm_")
      expect(client.getInstructions()).toContain("bw_launch")
    } finally {
      await client.close()
    }
  })

  it("tells its instructions (with the secrets sentence), answers hints, refusals, notices and recipes with the served names, and lists them so at every step", async () => {
    // A secret makes the instructions name the tool that types it.
    const secrets = path.join(tempDir(), "secrets.env")
    fs.writeFileSync(secrets, "API_TOKEN=prefix-test-value\n", { mode: 0o600 })
    const client = await connect(app, ["--tool-prefix", "bw", "--caps", "all", "--secrets", secrets])
    const seen: Array<string> = [client.getInstructions() ?? ""]
    expect(client.getInstructions()).toContain("bw_type {secret: NAME}")
    expect(client.getInstructions()).toContain("bw_run_steps")
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const got = await answer(client, name, args)
      seen.push(...got.texts)
      return got.envelope
    }
    const list = async () => seen.push(JSON.stringify((await client.listTools()).tools))
    try {
      await list()
      const noSession = await call("bw_click", { testId: "go" })
      expect(noSession.error?.code).toBe("MM_NO_ACTIVE_SESSION")
      expect(noSession.error?.message).toContain("bw_launch")
      const unknown = await call("bw_get_state", { session: "nope" })
      expect(unknown.error?.code).toBe("MM_SESSION_NOT_FOUND")
      expect(unknown.error?.message).toContain("call bw_launch")

      expect((await call("bw_launch", { goal: "prefix", flowTags: ["prefix"] })).ok).toBe(true)
      await list()

      expect((await call("bw_navigate", { url: `${app.url}/chooser` })).ok).toBe(true)
      await list()
      const missing = await call("bw_click", { selector: "#nope", timeoutMs: 500 })
      expect(missing.ok).toBe(false)
      // A file chooser opened by the page is announced with the tool that answers it.
      await call("bw_click", { testId: "file" })
      await call("bw_get_state")
      expect((await call("bw_click", { testId: "go" })).ok).toBe(true)
      expect((await call("bw_wait_for", { testId: "username", timeoutMs: 5000 })).ok).toBe(true)

      const hidden = await call("bw_hide_tools", { tools: ["bw_get_state"] })
      expect(hidden.ok).toBe(true)
      await list()
      const refused = await call("bw_get_state")
      expect(refused.error?.message).toContain("bw_show_tools")

      const exported = await call("bw_knowledge", { export: "playwright" })
      expect(exported.ok).toBe(true)
      const recipe = await call("bw_knowledge", { export: "recipe" })
      expect(JSON.stringify(recipe)).toContain("bw_click")
      expect((await call("bw_cleanup")).ok).toBe(true)
      await list()

      expect(seen.join("\n")).not.toContain("mm_")
    } finally {
      await client.close()
    }
  })
})
