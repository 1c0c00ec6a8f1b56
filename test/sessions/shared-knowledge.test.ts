// The shared step memory (no --private-knowledge) never hands out another client's live session id, which
// reaches the session (found by a new-user trial: a client listed the others' sessions with mm_knowledge
// {sessions: true} and closed them all by id). While B's session runs, A's listing, latest steps, search and
// prior knowledge's related sessions leave it out, though its steps still feed A's suggestions; once it
// ends, or once A names its id, it is there. Two clients of one server in process, real Chromium, a page
// served on 127.0.0.1.
import { ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { servePages, type RunningServer } from "../../demo/sample-app.js"
import { appLayer, registryFor } from "../../src/cli/serve.js"
import { makeMcpServer } from "../../src/mcp/server.js"
import { html, testSettings } from "../support/browser.js"
import { connectWithText } from "../support/mcp-client.js"

const form = html("Form", `<label>Name <input data-testid="name"></label><button data-testid="save">Save</button>`)

let app: RunningServer
beforeAll(async () => {
  app = await servePages({ "/": form })
})
afterAll(async () => {
  await app?.close()
})

describe("the shared step memory and other clients' live sessions", () => {
  it("shows B's session to A only once it ended or A named it; its steps still teach A", async () => {
    const settings = testSettings({ appUrl: `${app.url}/` })
    const runtime = ManagedRuntime.make(appLayer(settings, "warning"))
    const a = await connectWithText(makeMcpServer(registryFor(settings), runtime), "shared-knowledge-a")
    const b = await connectWithText(makeMcpServer(registryFor(settings), runtime), "shared-knowledge-b")
    const c = await connectWithText(makeMcpServer(registryFor(settings), runtime), "shared-knowledge-c")
    const listed = async (client: typeof a) =>
      ((await client.ok("mm_knowledge", { sessions: true })).result.sessions as Array<{ sessionId: string }>).map((session) => session.sessionId)
    try {
      const idB: string = (await b.ok("mm_launch", {})).result.sessionId
      await b.ok("mm_type", { testId: "name", text: "zebra-unique-word" })
      await b.ok("mm_click", { testId: "save" })
      expect(await listed(b)).toContain(idB)

      // A, on the same app: nothing it reads names B's live session.
      await a.ok("mm_launch", {})
      expect(await listed(a)).not.toContain(idB)
      expect(JSON.stringify((await a.ok("mm_knowledge", { session: "all" })).result)).not.toContain(idB)
      expect(JSON.stringify((await a.ok("mm_knowledge", { query: "save", session: "all" })).result)).not.toContain(idB)
      const described = await a.ok("mm_describe_screen", {})
      expect(described.text).not.toContain(idB)
      // Its steps still teach: B's click on Save is a suggestion here.
      expect(JSON.stringify(described.result.priorKnowledge ?? {})).toContain("save")
      // A replay by B's flow finds no flow of another live session to copy.
      expect(JSON.stringify(await a.call("mm_replay", { flowTag: "none-such" }))).not.toContain(idB)

      // C names B's id: from then on it reads it.
      expect(await listed(c)).not.toContain(idB)
      expect((await c.ok("mm_knowledge", { session: idB })).result.steps.length).toBeGreaterThan(0)
      expect(await listed(c)).toContain(idB)

      // B's session ends: it is history now, for everyone.
      await b.ok("mm_cleanup", {})
      expect(await listed(a)).toContain(idB)
      expect(JSON.stringify((await a.ok("mm_knowledge", { query: "save", session: "all" })).result)).toContain(idB)
    } finally {
      await Promise.all([a.client.close(), b.client.close(), c.client.close()])
      await runtime.dispose()
    }
  })
})
