// Refs are unique across a server's live sessions (issue 20): each session's walks number out of one
// server-wide space, so a ref one session was shown misses in another (answered as an unknown ref,
// never acted on), also while two sessions walk at once, and after the session it came from closed.
// One client alone still numbers densely from e1, and so does a session launched after all others closed;
// a closed session's numbers stay taken while another lives. Real Chromium, pages served on 127.0.0.1, the app
// layer in process (a context per session in one shared browser process).
import { ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { servePages, type RunningServer } from "../../demo/sample-app.js"
import { appLayer, registryFor } from "../../src/cli/serve.js"
import { makeMcpServer } from "../../src/mcp/server.js"
import { html, testSettings } from "../support/browser.js"
import { connectWithText } from "../support/mcp-client.js"

/** A counter: each click on Add adds one to the number shown. */
const counter = (title: string) =>
  html(
    title,
    `<h1>${title}</h1><button onclick="const n = document.getElementById('n'); n.textContent = String(Number(n.textContent) + 1)">Add</button>` +
      `<p data-testid="n" id="n">0</p><a href="#one">One</a> <a href="#two">Two</a>`
  )

/** Many fresh elements, so that a walk hands out many refs. */
const many = (title: string) => html(title, `<ul>${Array.from({ length: 60 }, (_, i) => `<li><button>${title} ${i}</button></li>`).join("")}</ul>`)

const pages = {
  "/": html("Home", "<p>home</p>"),
  "/a": counter("Alpha"),
  "/b": counter("Bravo"),
  "/c": counter("Charlie"),
  "/many-a": many("Ma"),
  "/many-b": many("Mb")
}

const connect = (runtime: ManagedRuntime.ManagedRuntime<any, any>, settings: ReturnType<typeof testSettings>) =>
  connectWithText(makeMcpServer(registryFor(settings), runtime), "ref-space-test")

/** Every ref a page text shows. */
const refsIn = (text: string): Array<string> => [...text.matchAll(/\[(e\d+)\]/g)].map((match) => match[1]!)

/** Every ref number a page text shows, a collapsed run's ranges (e4..e9) included. */
const numbersIn = (text: string): Array<number> =>
  [...text.matchAll(/\be(\d+)(?:\.\.e(\d+))?/g)].flatMap((match) => {
    const start = Number(match[1])
    const end = match[2] === undefined ? start : Number(match[2])
    return Array.from({ length: end - start + 1 }, (_, i) => start + i)
  })

/** The ref of the first line matching `line`. */
const refOf = (text: string, line: RegExp): string => {
  const found = text.split("\n").find((candidate) => line.test(candidate))
  const ref = found === undefined ? undefined : /\[(e\d+)\]/.exec(found)?.[1]
  if (ref === undefined) throw new Error(`no line matching ${line} in:\n${text}`)
  return ref
}

const numberOf = (ref: string) => Number(ref.slice(1))

let app: RunningServer
beforeAll(async () => {
  app = await servePages(pages)
})
afterAll(async () => {
  await app?.close()
})

/** A server in process with a client, and sessions a (on /a) and b (on `bPath`) launched by name. */
const twoSessions = async (bPath: string) => {
  const settings = testSettings({ appUrl: `${app.url}/` })
  const runtime = ManagedRuntime.make(appLayer(settings, "warning"))
  const connected = await connect(runtime, settings)
  await connected.ok("mm_launch", { name: "a" })
  await connected.ok("mm_navigate", { session: "a", screen: "url", url: `${app.url}/a` })
  await connected.ok("mm_launch", { name: "b" })
  await connected.ok("mm_navigate", { session: "b", screen: "url", url: `${app.url}${bPath}` })
  return { ...connected, runtime }
}

describe("refs across a server's sessions", () => {
  it("two sessions' refs are disjoint; a's ref in b misses and clicks nothing, also once a closed", async () => {
    const { client, call, ok, runtime } = await twoSessions("/b")
    try {
      const onA = (await ok("mm_describe_screen", { session: "a" })).text
      const onB = (await ok("mm_describe_screen", { session: "b" })).text
      const refsA = refsIn(onA)
      const refsB = refsIn(onB)
      expect(refsA.length).toBeGreaterThan(2)
      expect(refsB.length).toBeGreaterThan(2)
      expect(refsA.filter((ref) => refsB.includes(ref))).toEqual([])

      // a's Add, used with session b: an unknown ref there; b's counter (and a's) stay at 0.
      const addA = refOf(onA, /button "Add"/)
      const missed = await call("mm_click", { session: "b", a11yRef: addA })
      expect(missed.ok).toBe(false)
      expect(missed.error?.code).toBe("MM_TARGET_NOT_FOUND")
      expect(missed.error?.message).toContain(`Unknown a11yRef: ${addA}`)
      expect(missed.error?.message).toContain("not a ref of this session")
      expect((await ok("mm_get_text", { session: "b", testId: "n" })).result).toEqual({ text: "0" })
      expect((await ok("mm_get_text", { session: "a", testId: "n" })).result).toEqual({ text: "0" })
      // In its own session the ref acts.
      await ok("mm_click", { session: "a", a11yRef: addA })
      expect((await ok("mm_get_text", { session: "a", testId: "n" })).result).toEqual({ text: "1" })
      // b's own Add acts in b.
      await ok("mm_click", { session: "b", a11yRef: refOf(onB, /button "Add"/) })
      expect((await ok("mm_get_text", { session: "b", testId: "n" })).result).toEqual({ text: "1" })

      // a closes; a new session on the same kind of page gets numbers of its own: a's old ref misses there too.
      await ok("mm_sessions", { action: "close", session: "a" })
      await ok("mm_launch", { name: "c" })
      await ok("mm_navigate", { session: "c", screen: "url", url: `${app.url}/c` })
      const onC = (await ok("mm_describe_screen", { session: "c" })).text
      expect(refsIn(onC).filter((ref) => refsA.includes(ref) || refsB.includes(ref))).toEqual([])
      const stale = await call("mm_click", { session: "c", a11yRef: addA })
      expect(stale.error?.code).toBe("MM_TARGET_NOT_FOUND")
      expect((await ok("mm_get_text", { session: "c", testId: "n" })).result).toEqual({ text: "0" })
    } finally {
      await call("mm_cleanup", { session: "b" }).catch(() => undefined)
      await call("mm_cleanup", { session: "c" }).catch(() => undefined)
      await client.close()
      await runtime.dispose()
    }
  }, 120_000)

  it("a session that closed while another lives keeps its numbers: the live one's later walks never reuse them", async () => {
    const { client, call, ok, runtime } = await twoSessions("/many-b")
    try {
      const onB = (await ok("mm_describe_screen", { session: "b" })).text
      const numbersB = numbersIn(onB)
      expect(numbersB.length).toBeGreaterThan(50)
      // b's numbers lie above a's; b closes, and a walks a page of many fresh elements.
      await ok("mm_sessions", { action: "close", session: "b" })
      await ok("mm_navigate", { session: "a", screen: "url", url: `${app.url}/many-a` })
      const onA = (await ok("mm_describe_screen", { session: "a" })).text
      const numbersA = numbersIn(onA)
      expect(numbersA.length).toBeGreaterThan(50)
      expect(numbersA.filter((number) => numbersB.includes(number))).toEqual([])
      // b's last ref, used in a (an agent that kept it): unknown there, never another element.
      const stale = await call("mm_get_text", { session: "a", a11yRef: `e${Math.max(...numbersB)}` })
      expect(stale.error?.code).toBe("MM_TARGET_NOT_FOUND")
    } finally {
      await call("mm_cleanup", { session: "a" }).catch(() => undefined)
      await client.close()
      await runtime.dispose()
    }
  }, 120_000)

  it("walks in two sessions at once still hand out disjoint refs", async () => {
    const settings = testSettings({ appUrl: `${app.url}/` })
    const runtime = ManagedRuntime.make(appLayer(settings, "warning"))
    const { client, call, ok } = await connect(runtime, settings)
    try {
      await ok("mm_launch", { name: "a" })
      await ok("mm_launch", { name: "b" })
      for (let round = 0; round < 3; round++) {
        // New documents each round (other URLs): every walk hands out fresh refs, both at once.
        await Promise.all([
          ok("mm_navigate", { session: "a", screen: "url", url: `${app.url}/many-a?round=${round}` }),
          ok("mm_navigate", { session: "b", screen: "url", url: `${app.url}/many-b?round=${round}` })
        ])
        const [onA, onB] = await Promise.all([ok("mm_describe_screen", { session: "a" }), ok("mm_describe_screen", { session: "b" })])
        const refsA = refsIn(onA.text)
        const refsB = refsIn(onB.text)
        // Runs of like buttons collapse in the text; each walk still bound all 60 (a block of its own).
        expect(refsA.length).toBeGreaterThan(2)
        expect(refsB.length).toBeGreaterThan(2)
        expect(refsA.filter((ref) => refsB.includes(ref))).toEqual([])
        // Each session's ref acts on its own page only.
        const first = refOf(onA.text, /button "Ma 0"/)
        const missed = await call("mm_click", { session: "b", a11yRef: first })
        expect(missed.error?.code).toBe("MM_TARGET_NOT_FOUND")
        expect(missed.error?.message).toContain("not a ref of this session")
      }
      // Both close: their numbers go back, and a session launched now numbers from e1 again (a client alone
      // after concurrent sessions saw e106737 before).
      await ok("mm_sessions", { action: "close", session: "a" })
      await ok("mm_sessions", { action: "close", session: "b" })
      await ok("mm_launch", { name: "c" })
      await ok("mm_navigate", { session: "c", screen: "url", url: `${app.url}/a` })
      const onC = refsIn((await ok("mm_describe_screen", { session: "c" })).text).map(numberOf)
      expect(onC.length).toBeGreaterThan(2)
      expect(Math.max(...onC)).toBeLessThan(30)
    } finally {
      await call("mm_cleanup", { session: "c" }).catch(() => undefined)
      await call("mm_cleanup", { session: "a" }).catch(() => undefined)
      await call("mm_cleanup", { session: "b" }).catch(() => undefined)
      await client.close()
      await runtime.dispose()
    }
  }, 120_000)

  it("one session alone numbers densely from e1, across pages and tabs", async () => {
    const settings = testSettings({ appUrl: `${app.url}/` })
    const runtime = ManagedRuntime.make(appLayer(settings, "warning"))
    const { client, call, ok } = await connect(runtime, settings)
    try {
      await ok("mm_launch")
      await ok("mm_navigate", { screen: "url", url: `${app.url}/a` })
      const first = refsIn((await ok("mm_describe_screen")).text).map(numberOf)
      expect(Math.min(...first)).toBe(1)
      await ok("mm_navigate", { screen: "url", url: `${app.url}/many-a` })
      const second = refsIn((await ok("mm_describe_screen")).text).map(numberOf)
      // A new tab numbers on past the first tab's refs.
      await ok("mm_navigate", { screen: "url", url: `${app.url}/c`, newTab: true })
      const third = refsIn((await ok("mm_describe_screen")).text).map(numberOf)
      const all = [...first, ...second, ...third]
      expect(new Set(all).size).toBe(all.length)
      // No gap between walks: the second starts right after what the first handed out.
      expect(Math.min(...second)).toBe(Math.max(...first) + 1)
      expect(Math.min(...third)).toBeGreaterThan(Math.max(...second))
    } finally {
      await call("mm_cleanup").catch(() => undefined)
      await client.close()
      await runtime.dispose()
    }
  }, 120_000)
})
