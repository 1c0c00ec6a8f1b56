// --private-knowledge over Streamable HTTP, through the built command and real Chromium on a page served on
// 127.0.0.1: a client reads its own sessions' step memory and that of every session whose id it named (in a
// call or in the query itself); another's stays unseen, and a made-up id answers as an unknown one.
import { randomUUID } from "node:crypto"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { servePages, type RunningServer } from "../../demo/sample-app.js"
import { html } from "../support/browser.js"
import { connectHttp, startHttpServer, type RunningHttpServer } from "../support/http-server.js"

const connect = (url: string) => connectHttp(url, "private-knowledge-test")

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => {
  const content = (await client.callTool({ name, arguments: args })).content as Array<{ type: string; text?: string }>
  return JSON.parse(content[0]!.text!)
}

const ok = async (client: Client, name: string, args: Record<string, unknown> = {}) => {
  const envelope = await call(client, name, args)
  expect(envelope.error, `${name} ${JSON.stringify(args)}`).toBeUndefined()
  return envelope
}

const sessionIds = async (client: Client): Promise<Array<string>> =>
  (await ok(client, "mm_knowledge", { sessions: true })).result.sessions.map((session: { sessionId: string }) => session.sessionId)

const form = html("Form", `<input data-testid="name">`)

describe("--private-knowledge and sessions named by id", () => {
  let app: RunningServer
  let server: RunningHttpServer

  beforeAll(async () => {
    app = await servePages({ "/": form })
    server = await startHttpServer(["--app-url", `${app.url}/`, "--private-knowledge"], randomUUID())
  })
  afterAll(async () => {
    await server?.stop()
    await app?.close()
  })

  it("B sees nothing of A's until it names A's id; then it queries and exports it; a made-up id is unknown", async () => {
    const a = await connect(server.url)
    const b = await connect(server.url)
    const c = await connect(server.url)
    try {
      const idA: string = (await ok(a.client, "mm_launch", {})).result.sessionId
      await ok(a.client, "mm_type", { testId: "name", text: "zebra-unique-word" })
      expect(await sessionIds(a.client)).toContain(idA)

      // B named nothing: A's session and steps are not in its listing, its latest steps or its search.
      expect(await sessionIds(b.client)).not.toContain(idA)
      expect(JSON.stringify((await ok(b.client, "mm_knowledge", {})).result)).not.toContain(idA)
      expect((await ok(a.client, "mm_knowledge", { query: "type name", session: "all" })).result.matches.length).toBeGreaterThan(0)
      expect((await ok(b.client, "mm_knowledge", { query: "type name" })).result.matches).toEqual([])

      // A made-up id: no steps, and an export says none are recorded, as for any unknown session.
      const madeUp = `mm-${randomUUID()}`
      expect((await ok(b.client, "mm_knowledge", { session: madeUp })).result.steps).toEqual([])
      const unknown = await call(b.client, "mm_knowledge", { export: "batch", session: madeUp })
      expect(unknown.error.code).toBe("MM_KNOWLEDGE_ERROR")
      expect(unknown.error.message).toContain(`no steps are recorded for session ${madeUp}`)
      expect(await sessionIds(b.client)).not.toContain(madeUp)

      // B names A's id in the query itself: its steps, its export, and from then on its listing.
      const steps = (await ok(b.client, "mm_knowledge", { session: idA })).result.steps as Array<{ tool: string }>
      expect(steps.map((step) => step.tool)).toContain("type")
      const exported = (await ok(b.client, "mm_knowledge", { export: "batch", session: idA })).result
      expect(exported.content).toContain("zebra-unique-word")
      expect(await sessionIds(b.client)).toContain(idA)

      // C names it in a call on the session: it may export the session it drives.
      expect(await sessionIds(c.client)).not.toContain(idA)
      await ok(c.client, "mm_get_state", { session: idA })
      expect(await sessionIds(c.client)).toContain(idA)
      expect((await ok(c.client, "mm_knowledge", { export: "batch", session: idA })).result.content).toContain("zebra-unique-word")

      // A named none of B's or C's: its listing is its own session only.
      expect(await sessionIds(a.client)).toEqual([idA])
      await ok(a.client, "mm_cleanup", {})
    } finally {
      for (const { client, transport } of [a, b, c]) {
        await transport.terminateSession().catch(() => undefined)
        await client.close()
      }
    }
  })
})
