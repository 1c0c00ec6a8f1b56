// tools/list benchmark: what a client puts into the model's context before the first call, in each
// state of our server (before launch, with a session on a page of ours, with an MV3 extension, each with
// a page offering every conditional tool and with a second tab open, with a second session, with every opt-in group and the
// build capability, the fixed list) against @playwright/mcp (default and
// with every capability), over stdio with the SDK Client. Everything stays on 127.0.0.1.
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { loginPage, servePages } from "../demo/sample-app.js"
import { LOOPBACK_ARGS } from "../src/adapters/playwright/lifecycle/launch.js"
import { connect as connectTo, findChromium, ourServerUnbundled as ourServer, out, playwrightMcp, root } from "./support.js"

/** A page that offers what every conditional tool needs: a file input, a drag source, a checkbox, room to scroll. */
const offeringAll = `<!doctype html><html><head><title>All</title></head><body>
  <label>Photo <input type="file"></label>
  <div draggable="true">Card</div><div>Drop here</div>
  <label><input type="checkbox"> Remember me</label>
  <div style="height: 3000px">Long content</div>
</body></html>`

const extension = path.join(root, "test/fixtures/extension-mv3")
/** Every capability @playwright/mcp 0.0.83 has beyond its core tools. */
const PLAYWRIGHT_CAPS = "vision,pdf,devtools,network,storage,testing,config"
const executablePath = findChromium()

interface Row {
  readonly server: string
  readonly state: string
  readonly tools: number
  readonly bytes: number
  readonly instructions: number
}

const connect = (args: ReadonlyArray<string>, cwd?: string) => connectTo(args, { name: "bench-tools-list", ...(cwd === undefined ? {} : { cwd }) })

const measure = async (client: Client, server: string, state: string): Promise<Row> => {
  const listed = await client.listTools()
  return {
    server,
    state,
    tools: listed.tools.length,
    bytes: Buffer.byteLength(JSON.stringify(listed)),
    instructions: Buffer.byteLength(client.getInstructions() ?? "")
  }
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => {
  const result = await client.callTool({ name, arguments: args })
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content).slice(0, 400)}`)
}

const main = async () => {
  const app = await servePages({ "/": loginPage, "/all": offeringAll })
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "bwm-bench-tools-"))
  // The build capability comes from the config file; a command that does nothing is enough to list mm_build.
  const config = path.join(scratch, "bwm.json")
  fs.writeFileSync(config, JSON.stringify({ build: { command: "true" } }))
  const ours = (name: string, ...extra: ReadonlyArray<string>) => [
    ourServer,
    "--artifacts-dir",
    path.join(scratch, name),
    "--app-url",
    `${app.url}/`,
    "--loopback-only",
    "--executable-path",
    executablePath,
    ...extra
  ]
  const rows: Array<Row> = []
  try {
    {
      const client = await connect(ours("web"))
      rows.push(await measure(client, "ours", "before launch"))
      await call(client, "mm_launch")
      rows.push(await measure(client, "ours", "with a session (web page)"))
      await call(client, "mm_navigate", { url: `${app.url}/all` })
      rows.push(await measure(client, "ours", "session, page offering all conditional tools"))
      await call(client, "mm_navigate", { url: `${app.url}/all`, newTab: true })
      rows.push(await measure(client, "ours", "session, 2 tabs, all conditional tools"))
      await call(client, "mm_cleanup")
      await client.close()
    }
    {
      const client = await connect(ours("extension", "--extension", extension))
      await call(client, "mm_launch")
      rows.push(await measure(client, "ours", "with an MV3 extension"))
      await call(client, "mm_navigate", { url: `${app.url}/all` })
      rows.push(await measure(client, "ours", "extension + all conditional tools"))
      // The largest default state: the extension, a second tab (the tab tool), every conditional tool.
      await call(client, "mm_navigate", { url: `${app.url}/all`, newTab: true })
      rows.push(await measure(client, "ours", "extension + 2 tabs + all conditional tools"))
      // A second session (the same state): mm_sessions and every session tool's `session` argument are listed.
      await call(client, "mm_launch", { name: "second" })
      await call(client, "mm_navigate", { url: `${app.url}/all` })
      await call(client, "mm_navigate", { url: `${app.url}/all`, newTab: true })
      rows.push(await measure(client, "ours", "2 sessions, extension + 2 tabs + all conditional tools"))
      await call(client, "mm_sessions", { action: "close" })
      await call(client, "mm_cleanup")
      await client.close()
    }
    {
      const client = await connect(ours("all", "--extension", extension, "--caps", "all", "--config", config))
      rows.push(await measure(client, "ours", "all caps + build, before launch"))
      await call(client, "mm_launch")
      rows.push(await measure(client, "ours", "all caps + build, extension session"))
      await call(client, "mm_cleanup")
      await client.close()
    }
    {
      const client = await connect(ours("static", "--static-tools", "--caps", "all", "--config", config))
      rows.push(await measure(client, "ours", "--static-tools (fixed list)"))
      await client.close()
    }

    const playwrightDir = path.join(scratch, "playwright-mcp")
    fs.mkdirSync(playwrightDir)
    const playwrightConfig = path.join(playwrightDir, "config.json")
    fs.writeFileSync(
      playwrightConfig,
      JSON.stringify({ browser: { isolated: true, launchOptions: { args: [...LOOPBACK_ARGS] } }, outputDir: path.join(playwrightDir, "out") })
    )
    const theirs = (...extra: ReadonlyArray<string>) => [
      playwrightMcp,
      "--headless",
      "--executable-path",
      executablePath,
      "--config",
      playwrightConfig,
      ...extra
    ]
    {
      const client = await connect(theirs(), playwrightDir)
      rows.push(await measure(client, "@playwright/mcp", "default"))
      await client.close()
    }
    {
      const client = await connect(theirs("--caps", PLAYWRIGHT_CAPS), playwrightDir)
      rows.push(await measure(client, "@playwright/mcp", `--caps ${PLAYWRIGHT_CAPS}`))
      await client.close()
    }
  } finally {
    await app.close()
  }

  const theirsDefault = rows.find((row) => row.server === "@playwright/mcp" && row.state === "default")!
  const theirsAll = rows.find((row) => row.server === "@playwright/mcp" && row.state !== "default")!
  const ratio = (row: Row) => {
    if (row.server !== "ours") return ""
    const againstAll = row.state.startsWith("all caps") || row.state.startsWith("--static")
    const base = againstAll ? theirsAll : theirsDefault
    return `${(row.bytes / base.bytes).toFixed(2)}x of ${againstAll ? "theirs, all caps" : "theirs, default"}` +
      (againstAll ? `; ${(row.bytes / theirsDefault.bytes).toFixed(2)}x of default` : "")
  }
  out(`tools/list bytes (JSON of the result as the SDK client receives it) and tool counts; instructions bytes apart.`)
  out()
  out(`| server | state | tools | tools/list bytes | instructions bytes | ratio |`)
  out(`| --- | --- | ---: | ---: | ---: | --- |`)
  for (const row of rows) {
    out(`| ${row.server} | ${row.state} | ${row.tools} | ${row.bytes.toLocaleString("en-US")} | ${row.instructions.toLocaleString("en-US")} | ${ratio(row)} |`)
  }
  const worst = Math.max(...rows.filter((row) => row.server === "ours" && !row.state.startsWith("all caps") && !row.state.startsWith("--static")).map((row) => row.bytes))
  out()
  out(`Target: at most 0.6x of @playwright/mcp's default (${Math.floor(theirsDefault.bytes * 0.6).toLocaleString("en-US")} bytes) in the default states, annotations and constraints included (issue 22); largest of ours there: ${worst.toLocaleString("en-US")} bytes.`)
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
    process.exit(1)
  }
)
