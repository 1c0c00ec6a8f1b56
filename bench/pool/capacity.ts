// Capacity of a pool of browser servers (docs/scale.md): our server over Streamable HTTP with one, then
// two Playwright browser servers on 127.0.0.1 (launchServer: run-server's protocol). N clients at once,
// each its own session running a short flow (launch, navigate, add three to-dos, read them back):
// wall time, how the sessions were placed, and the browser servers' memory (PSS of each one's process
// tree) with every session open. Then a burst of N sessions one after another on one browser server (each
// closed before the next launches): the median launch, which reuses the connection the one before left
// open (IDLE_KEEP_MS) instead of connecting again. Usage: npm run bench:pool [-- N] (default 8).
import { chromium, type BrowserServer } from "playwright"
import { LOOPBACK_ARGS } from "../../src/adapters/playwright/lifecycle/launch.js"
import { servePages } from "../../demo/serve.js"
import { descendants, executablePath, pssOf, startOursHttp } from "../parallel/servers.js"
import { out } from "../support.js"

const todoPage = `<!doctype html><html><head><meta charset="utf-8"><title>Todo</title></head><body>
<input data-testid="new" aria-label="New to-do"><button data-testid="add" onclick="const i=document.querySelector('[data-testid=new]');const li=document.createElement('li');li.textContent=i.value;document.querySelector('ul').append(li);i.value=''">Add</button>
<ul data-testid="list"></ul></body></html>`

const MB = 1024 * 1024

const treePss = (server: BrowserServer) => {
  const root = server.process().pid!
  return [root, ...descendants(root)].reduce((sum, pid) => sum + pssOf(pid), 0)
}

const textOf = (result: Awaited<ReturnType<import("@modelcontextprotocol/sdk/client/index.js").Client["callTool"]>>) =>
  JSON.parse((result.content as Array<{ text: string }>)[0]!.text)

const measure = async (servers: ReadonlyArray<BrowserServer>, sessions: number, appUrl: string) => {
  const endpoints = servers.flatMap((server) => ["--ws-endpoint", server.wsEndpoint()])
  const ours = await startOursHttp([...endpoints, "--max-sessions", String(sessions)])
  const idle = servers.map(treePss)
  try {
    const clients = await Promise.all(Array.from({ length: sessions }, (_, index) => ours.client(`pool-${index}`)))
    const call = async (index: number, name: string, args: Record<string, unknown> = {}) => {
      const envelope = textOf(await clients[index]!.callTool({ name, arguments: args }))
      if (envelope.error !== undefined) throw new Error(`${name}: ${JSON.stringify(envelope.error)}`)
      return envelope
    }
    const started = performance.now()
    const launchMs: Array<number> = []
    await Promise.all(
      clients.map(async (_, index) => {
        const before = performance.now()
        await call(index, "mm_launch")
        launchMs.push(performance.now() - before)
        await call(index, "mm_navigate", { url: `${appUrl}/todo` })
        for (const item of ["milk", "eggs", "bread"]) {
          await call(index, "mm_type", { testId: "new", text: `${item}-${index}` })
          await call(index, "mm_click", { testId: "add" })
        }
        const text = (await call(index, "mm_get_text", { testId: "list" })).result.text as string
        if (!text.includes(`bread-${index}`)) throw new Error(`session ${index} lost its items: ${text}`)
      })
    )
    const wallMs = performance.now() - started
    const open = servers.map(treePss)
    const placed: Record<string, number> = {}
    // Each client lists its own session only: ask each.
    for (let index = 0; index < sessions; index++) {
      const where = ((await call(index, "mm_sessions")).result.sessions as Array<{ browser: string }>)[0]!.browser
      placed[where] = (placed[where] ?? 0) + 1
    }
    for (const client of clients) await client.close()
    return {
      servers: servers.length,
      sessions,
      wallMs: Math.round(wallMs),
      launchMsMedian: Math.round([...launchMs].sort((a, b) => a - b)[Math.floor(launchMs.length / 2)]!),
      placed,
      browserMbIdle: idle.map((bytes) => Math.round(bytes / MB)),
      browserMbOpen: open.map((bytes) => Math.round(bytes / MB)),
      mbPerSession: Math.round(open.reduce((sum, bytes, at) => sum + bytes - idle[at]!, 0) / MB / sessions)
    }
  } finally {
    await ours.stop()
  }
}

/** N sessions one after another on one client: each launched, used once and closed before the next. */
const sequential = async (server: BrowserServer, sessions: number, appUrl: string) => {
  const ours = await startOursHttp(["--ws-endpoint", server.wsEndpoint()])
  try {
    const client = await ours.client("pool-sequential")
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const envelope = textOf(await client.callTool({ name, arguments: args }))
      if (envelope.error !== undefined) throw new Error(`${name}: ${JSON.stringify(envelope.error)}`)
      return envelope
    }
    const launchMs: Array<number> = []
    const started = performance.now()
    for (let index = 0; index < sessions; index++) {
      const before = performance.now()
      const id = (await call("mm_launch")).result.sessionId as string
      launchMs.push(performance.now() - before)
      await call("mm_navigate", { url: `${appUrl}/todo` })
      await call("mm_sessions", { action: "close", session: id })
    }
    const wallMs = performance.now() - started
    await client.close()
    // The first connects in any case: the others are what the open connection saves.
    const later = launchMs.slice(1).sort((a, b) => a - b)
    return {
      sequential: sessions,
      wallMs: Math.round(wallMs),
      firstLaunchMs: Math.round(launchMs[0]!),
      ...(later.length > 0 ? { laterLaunchMsMedian: Math.round(later[Math.floor(later.length / 2)]!) } : {})
    }
  } finally {
    await ours.stop()
  }
}

const main = async () => {
  const sessions = Number(process.argv[2] ?? 8)
  const app = await servePages({ "/todo": todoPage })
  const servers = await Promise.all(
    [0, 1].map(() => chromium.launchServer({ executablePath, headless: true, args: [...LOOPBACK_ARGS], host: "127.0.0.1", port: 0 }))
  )
  try {
    for (const pool of [servers.slice(0, 1), servers]) out(JSON.stringify(await measure(pool, sessions, app.url)))
    out(JSON.stringify(await sequential(servers[0]!, sessions, app.url)))
  } finally {
    for (const server of servers) await server.close()
    await app.close()
  }
}

await main()
