// mm_launch's `url`: the session's first page is that one, in one call (the home page, --app-url, is never
// loaded first); a url the server's policy refuses (before a browser starts), or one that does not load,
// fails the launch as an unreachable --app-url does, and leaves no session behind, the client's current
// one still current. A blank tab that does not load says the browser's reason (it said the URL policy's).
// Real Chromium, pages served on 127.0.0.1.
import { ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { listenLoopback, pathOf, send, type RunningServer } from "../../demo/serve.js"
import { appLayer, registryFor } from "../../src/cli/serve.js"
import { makeMcpServer } from "../../src/mcp/server.js"
import { html, testSettings } from "../support/browser.js"
import { connectWithText } from "../support/mcp-client.js"

const pages: Record<string, string> = { "/": html("Home", "<p>home</p>"), "/b": html("Bravo", "<h1>Bravo</h1><button>Go</button>") }
const hits: Array<string> = []

let app: RunningServer
/** A loopback address nothing listens on (a port just freed; not one Chromium calls unsafe). */
let deadUrl: string
beforeAll(async () => {
  const probe = await listenLoopback((_request, response) => void response.end())
  deadUrl = `${probe.url}/`
  await probe.close()
  app = await listenLoopback((request, response) => {
    const path = pathOf(request)
    hits.push(path)
    const page = pages[path]
    send(response, page === undefined ? 404 : 200, "text/html; charset=utf-8", page ?? "not found")
  })
})
afterAll(async () => {
  await app?.close()
})

describe("mm_launch with a url", () => {
  it("opens that page first, without the home page; a refused or dead url fails the launch and leaves no session", async () => {
    const settings = testSettings({ appUrl: `${app.url}/`, blockedOrigins: ["http://127.0.0.2:*"] })
    const runtime = ManagedRuntime.make(appLayer(settings, "warning"))
    const { client, call, ok } = await connectWithText(makeMcpServer(registryFor(settings), runtime), "launch-url-test")
    try {
      const launched = await ok("mm_launch", { url: `${app.url}/b` })
      expect(launched.result.state).toMatchObject({ url: `${app.url}/b`, title: "Bravo" })
      expect(hits.filter((path) => path === "/b")).toHaveLength(1)
      expect(hits).not.toContain("/")
      // The session works on it as on any page.
      expect((await ok("mm_find", { role: "button", name: "Go" })).text).toContain('button "Go"')

      const blocked = await call("mm_launch", { url: "http://127.0.0.2:9/x" })
      expect(blocked.error?.code).toBe("MM_LAUNCH_FAILED")
      expect(blocked.error?.message).toContain("the URL policy refuses http://127.0.0.2:9/x")
      const dead = await call("mm_launch", { url: deadUrl })
      expect(dead.error?.code).toBe("MM_LAUNCH_FAILED")
      expect(dead.error?.message, dead.error?.message).toContain(`could not open ${deadUrl}: page.goto: net::ERR_CONNECTION_REFUSED`)
      const relative = await call("mm_launch", { url: "/b" })
      expect(relative.error?.code).toBe("MM_INVALID_INPUT")
      expect(relative.error?.message).toContain("url")
      // Neither left a session: the first one is the only one, and still current.
      const sessions = (await ok("mm_sessions")).result.sessions as Array<{ id: string; current?: boolean }>
      expect(sessions.map((session) => session.id)).toEqual([launched.result.sessionId])
      expect(sessions[0]!.current).toBe(true)

      // A blank tab that does not load says the browser's reason, not the URL policy's.
      await ok("mm_navigate", { url: "about:blank" })
      const blank = await call("mm_navigate", { url: deadUrl })
      expect(blank.error?.code).toBe("MM_NAVIGATION_FAILED")
      expect(blank.error?.message).toContain("net::ERR_CONNECTION_REFUSED")

      // Without url, the home page as before.
      const home = await ok("mm_launch", {})
      expect(home.result.state).toMatchObject({ url: `${app.url}/` })
    } finally {
      await client.close()
      await runtime.dispose()
    }
  })
})
