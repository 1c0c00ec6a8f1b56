// The package as users get it: `npm pack`'s tarball installed into a temporary project (dependencies
// from the npm cache or registry), its browser-workflow-mcp binary answering --help and --version, and
// a launch over stdio through that binary.
import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { promisify } from "node:util"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { servePages } from "../demo/sample-app.js"
import { html, LOOPBACK_ARGS, tempDir } from "./support/browser.js"

const run = promisify(execFile)
const root = path.resolve(import.meta.dirname, "..")
const version = (JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version

/** The environment without the npm_* variables of the `npm test` that runs us, and with this node first on PATH. */
const cleanEnv = (): Record<string, string> => {
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.toLowerCase().startsWith("npm_")) env[key] = value
  }
  env.PATH = `${path.dirname(process.execPath)}${path.delimiter}${env.PATH ?? ""}`
  return env
}

describe("install from the packed tarball", () => {
  let project: string
  let bin: string

  beforeAll(async () => {
    expect(fs.existsSync(path.join(root, "dist/bin/browser-workflow-mcp.js")), "run npm run build first").toBe(true)
    const packs = tempDir("bwm-pack-")
    // The build already ran (npm test builds first), so the tarball is packed without running prepare again.
    await run("npm", ["pack", "--ignore-scripts", "--pack-destination", packs], { cwd: root, env: cleanEnv() })
    const tarball = path.join(packs, `browser-workflow-mcp-${version}.tgz`)
    expect(fs.existsSync(tarball)).toBe(true)
    project = tempDir("bwm-install-")
    fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "install-test", version: "1.0.0", private: true }))
    await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--omit=dev", tarball], {
      cwd: project,
      env: cleanEnv(),
      timeout: 170_000
    })
    bin = path.join(project, "node_modules/.bin/browser-workflow-mcp")
  }, 180_000)

  afterAll(() => {
    if (project !== undefined) fs.rmSync(project, { recursive: true, force: true })
  })

  it("installs the bundled binary, which prints its help and version", async () => {
    expect(fs.realpathSync(bin)).toBe(path.join(project, "node_modules/browser-workflow-mcp/dist/bin/browser-workflow-mcp.js"))
    const help = await run(bin, ["--help"], { env: cleanEnv() })
    expect(help.stdout).toContain("Usage: browser-workflow-mcp [options]")
    expect(help.stdout).toContain("--port N")
    const printed = await run(bin, ["--version"], { env: cleanEnv() })
    expect(printed.stdout.trim()).toBe(version)
    // The library entry is there too.
    expect(fs.existsSync(path.join(project, "node_modules/browser-workflow-mcp/dist/src/index.js"))).toBe(true)
    expect(fs.existsSync(path.join(project, "node_modules/browser-workflow-mcp/dist/src/index.d.ts"))).toBe(true)
  })

  it("launches a browser over stdio through the installed binary", async () => {
    const pages = await servePages({ "/": html("Installed", `<p data-testid="greeting">Hello from the tarball</p>`) })
    const transport = new StdioClientTransport({
      command: bin,
      args: ["--app-url", `${pages.url}/`, "--artifacts-dir", tempDir(), ...LOOPBACK_ARGS.map((arg) => `--browser-arg=${arg}`)],
      cwd: project,
      env: cleanEnv(),
      stderr: "pipe"
    })
    const client = new Client({ name: "install-test", version: "1.0.0" })
    try {
      await client.connect(transport)
      const call = async (name: string, args: Record<string, unknown> = {}) => {
        const result = await client.callTool({ name, arguments: args })
        return JSON.parse((result.content as Array<{ text: string }>)[0]!.text)
      }
      expect((await call("mm_launch")).ok).toBe(true)
      expect((await call("mm_get_text", { testId: "greeting" })).result.text).toBe("Hello from the tarball")
      expect((await call("mm_cleanup")).result.cleanedUp).toBe(true)
    } finally {
      await client.close()
      await pages.close()
    }
  })
})
