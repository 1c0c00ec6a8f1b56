// The README's SDK client snippet is examples/sdk-client.mjs, byte for byte, and it runs: as a user's script
// would, with `browser-workflow-mcp` on the PATH (what `npm link` gives), against the demo's sample app.
import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startSampleApp, type RunningServer } from "../demo/sample-app.js"
import { tempDir } from "./support/browser.js"

const root = path.resolve(import.meta.dirname, "..")
const example = path.join(root, "examples/sdk-client.mjs")
const serverEntry = path.join(root, "dist/bin/browser-workflow-mcp.js")

describe("examples/sdk-client.mjs, the README's SDK client", () => {
  let app: RunningServer

  beforeAll(async () => {
    if (!fs.existsSync(serverEntry)) throw new Error(`${serverEntry} is missing: run npm run build first`)
    app = await startSampleApp()
  })

  afterAll(async () => {
    await app?.close()
  })

  it("is in the README as it is in the file", () => {
    const readme = fs.readFileSync(path.join(root, "README.md"), "utf8")
    const block = "```js\n" + fs.readFileSync(example, "utf8") + "```\n"
    expect(readme.includes(block), "README.md holds examples/sdk-client.mjs verbatim in a js block").toBe(true)
  })

  it("connects over stdio, lists the tools, launches, types by role and test id, clicks by ref, waits and reads", async () => {
    const bin = tempDir("bwm-bin-")
    const shim = path.join(bin, "browser-workflow-mcp")
    fs.writeFileSync(shim, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(serverEntry)} "$@"\n`, { mode: 0o755 })
    const { stdout } = await promisify(execFile)(process.execPath, [example, `${app.url}/`], {
      cwd: tempDir(),
      env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}` },
      timeout: 50_000
    })
    expect(stdout).toMatch(/^tools: mm_launch .*mm_cleanup/m)
    expect(stdout).toMatch(/^session: mm-\S+$/m)
    expect(stdout).toMatch(/^textbox "Username" \[e\d+\]$/m)
    expect(stdout).toMatch(/^read: Welcome, alice$/m)
  })
})
