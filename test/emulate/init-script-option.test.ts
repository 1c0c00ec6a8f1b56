// --init-script: repeatable, read when the server starts (flags, the variable and the config file, relative
// paths as every path option), and a file that cannot be read or does not parse stops the start with one line naming it.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { CliError, parseCli } from "../../src/cli.js"
import { tempDir } from "../support/browser.js"

describe("--init-script", () => {
  it("reads each file at start, in order, from flags, the variable or the config file", () => {
    const dir = tempDir()
    fs.writeFileSync(path.join(dir, "a.js"), "window.a = 1")
    fs.writeFileSync(path.join(dir, "b.js"), "window.b = 2")
    const fromFlags = parseCli(["--init-script", path.join(dir, "a.js"), "--init-script", path.join(dir, "b.js")], {}).settings.initScripts
    expect(fromFlags).toEqual([
      { file: path.join(dir, "a.js"), source: "window.a = 1" },
      { file: path.join(dir, "b.js"), source: "window.b = 2" }
    ])
    expect(parseCli([], { BWM_INIT_SCRIPTS: JSON.stringify([path.join(dir, "b.js")]) }).settings.initScripts).toEqual([fromFlags[1]])
    const config = path.join(dir, "config.json")
    fs.writeFileSync(config, JSON.stringify({ initScripts: ["a.js"] }))
    expect(parseCli(["--config", config], {}).settings.initScripts).toEqual([fromFlags[0]])
    expect(parseCli([], {}).settings.initScripts).toEqual([])
  })

  it("a missing file stops the start with one line naming it", () => {
    const missing = path.join(tempDir(), "nope.js")
    expect(() => parseCli(["--init-script", missing], {})).toThrow(CliError)
    expect(() => parseCli(["--init-script", missing], {})).toThrow(`--init-script: cannot read ${missing} (ENOENT)`)
  })

  it("a file that does not parse stops the start naming the file, the line and the syntax error; a top-level return is fine (Playwright runs it in a function)", () => {
    const dir = tempDir()
    const broken = path.join(dir, "broken.js")
    fs.writeFileSync(broken, "window.a = 1\nwindow.b = (;\n")
    expect(() => parseCli(["--init-script", broken], {})).toThrow(`--init-script: ${broken}:2: SyntaxError: Unexpected token ';'`)
    const returns = path.join(dir, "returns.js")
    fs.writeFileSync(returns, "if (window.top !== window) return\nwindow.a = 1")
    expect(parseCli(["--init-script", returns], {}).settings.initScripts).toHaveLength(1)
  })

  it("a bad BWM_INIT_SCRIPTS value shows a file path as its example, not a browser argument", () => {
    expect(() => parseCli([], { BWM_INIT_SCRIPTS: "{" })).toThrow('a JSON array of strings, e.g. ["./scripts/seed.js"]')
  })
})
