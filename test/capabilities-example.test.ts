// The library example (examples/custom-server.ts, built to dist/ by `npm run build`) served over real stdio
// and called by the SDK client: the consumer's own tool, capability tools with progress, built-ins intact.
import * as fs from "node:fs"
import * as path from "node:path"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { LOOPBACK_ARGS, tempDir } from "./support/browser.js"

const exampleEntry = path.resolve(import.meta.dirname, "../dist/examples/custom-server.js")

const envelopeOf = (result: Awaited<ReturnType<Client["callTool"]>>) => {
  const content = result.content as Array<{ type: string; text?: string }>
  return JSON.parse(content[0]!.text!)
}

describe("the makeServer example over stdio", () => {
  let client: Client
  let transport: StdioClientTransport

  beforeAll(async () => {
    if (!fs.existsSync(exampleEntry)) throw new Error(`${exampleEntry} is missing: run npm run build first`)
    transport = new StdioClientTransport({
      command: process.execPath,
      args: [exampleEntry, "--artifacts-dir", tempDir(), ...LOOPBACK_ARGS.map((arg) => `--browser-arg=${arg}`)],
      stderr: "pipe"
    })
    client = new Client({ name: "example-test", version: "1.0.0" })
    await client.connect(transport)
  })

  afterAll(async () => {
    await client?.close()
  })

  it("lists the consumer's tool beside the built-in and capability tools; page tools wait for a session", async () => {
    const { tools } = await client.listTools()
    const names = tools.map((tool) => tool.name)
    expect(names).toContain("mm_hello")
    for (const name of ["mm_launch", "mm_build", "mm_seed_contract", "mm_seed_contracts", "mm_get_contract_address", "mm_list_contracts"]) {
      expect(names).toContain(name)
    }
    expect(names).not.toContain("mm_click")
    const hello = tools.find((tool) => tool.name === "mm_hello")!
    expect(hello.inputSchema.properties).toHaveProperty("name")
    expect(hello.annotations?.readOnlyHint).toBe(true)
  })

  it("calls the consumer's tool, which uses the consumer's own service layer", async () => {
    const envelope = envelopeOf(await client.callTool({ name: "mm_hello", arguments: { name: "Ada" } }))
    expect(envelope).toMatchObject({ ok: true, result: { greeting: "Hello, Ada!" } })
    const invalid = envelopeOf(await client.callTool({ name: "mm_hello", arguments: {} }))
    expect(invalid.error.code).toBe("MM_INVALID_INPUT")
  })

  it("runs the Build capability with progress notifications and the contract tools on the provided chain", async () => {
    const progress: Array<string> = []
    const built = envelopeOf(
      await client.callTool({ name: "mm_build", arguments: { buildType: "build:test" } }, undefined, {
        onprogress: (notification) => void progress.push(notification.message ?? "")
      })
    )
    expect(built).toMatchObject({ ok: true, result: { built: true, outputTail: "demo build finished" } })
    expect(progress).toEqual(["compile", "bundle", "package build:test"])

    const seeded = envelopeOf(await client.callTool({ name: "mm_seed_contract", arguments: { contractName: "Token" } }))
    expect(seeded.ok).toBe(true)
    const listed = envelopeOf(await client.callTool({ name: "mm_list_contracts", arguments: {} }))
    expect(listed.result).toMatchObject({
      deployed: [{ name: "Token", address: seeded.result.contractAddress }],
      available: ["Token", "NFT"],
      chain: { chainId: 1337, rpcUrl: "http://127.0.0.1:8545", name: "Localhost" }
    })
  })
})
