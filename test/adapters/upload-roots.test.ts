// The upload root check: regular files under the roots only, after symbolic links are followed.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { checkUploadPaths, uploadRootsOf } from "../../src/adapters/upload-roots.js"
import { tempDir } from "../support/browser.js"

describe("upload roots", () => {
  const artifacts = tempDir("bwm-upload-")
  const extra = tempDir("bwm-upload-extra-")
  const outside = tempDir("bwm-upload-outside-")
  fs.writeFileSync(path.join(artifacts, "in.txt"), "in")
  fs.writeFileSync(path.join(extra, "extra.txt"), "extra")
  fs.writeFileSync(path.join(outside, "secret.txt"), "secret")
  fs.symlinkSync(path.join(outside, "secret.txt"), path.join(artifacts, "link.txt"))
  fs.mkdirSync(path.join(artifacts, "dir"))
  const roots = uploadRootsOf({ artifactsDir: artifacts, allowedRoots: [extra] })

  it("accepts files under the artifacts directory (relative paths resolve there) and under --allowed-roots", async () => {
    const checked = await checkUploadPaths(["in.txt", path.join(extra, "extra.txt")], roots)
    expect(checked).toEqual({ files: [fs.realpathSync(path.join(artifacts, "in.txt")), fs.realpathSync(path.join(extra, "extra.txt"))] })
  })

  it("refuses a path outside the roots, a link that leads out, a dot-dot escape, a directory and a missing file", async () => {
    expect(await checkUploadPaths([path.join(outside, "secret.txt")], roots)).toMatchObject({ problem: expect.stringContaining("outside the upload roots") })
    expect(await checkUploadPaths(["link.txt"], roots)).toMatchObject({ problem: expect.stringContaining("outside the upload roots") })
    expect(await checkUploadPaths([`../${path.basename(outside)}/secret.txt`], roots)).toMatchObject({ problem: expect.stringContaining("outside") })
    expect(await checkUploadPaths(["dir"], roots)).toMatchObject({ problem: expect.stringContaining("not a regular file") })
    expect(await checkUploadPaths(["nope.txt"], roots)).toMatchObject({ problem: expect.stringContaining("does not exist") })
    // A long path is never echoed whole.
    const long = await checkUploadPaths(["x".repeat(3_000)], roots)
    expect("problem" in long && long.problem.length).toBeLessThan(200)
  })
})

describe("upload roots never hand session data to a page", () => {
  const dir = tempDir("bwm-upload-private-")
  const artifacts = path.join(dir, "artifacts")
  const allowed = path.join(dir, "allowed")
  const write = (file: string, text = "{}") => {
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, text)
    return file
  }
  const state = write(path.join(artifacts, "storage-state", "signed-in.json"), '{"cookies":[{"name":"session","value":"s3cret"}]}')
  const step = write(path.join(artifacts, "llm-knowledge", "s1", "steps", "20260101-000000-000-type.json"))
  const session = write(path.join(artifacts, "llm-knowledge", "s1", "session.json"))
  const index = write(path.join(artifacts, "llm-knowledge", ".index.bin"), "index")
  const report = write(path.join(artifacts, "reports", "s1.html"), "<p>report</p>")
  const trace = write(path.join(artifacts, "sessions", "s1", "trace.zip"), "zip")
  const har = write(path.join(artifacts, "sessions", "s1", "network.har"), "{}")
  const secrets = write(path.join(allowed, "secrets.env"), "TOKEN=s3cret\n")
  const given = write(path.join(allowed, "given-state.json"))
  const profile = write(path.join(allowed, "profile", "Default", "Cookies"), "cookies")
  // The config file may hold endpointHeaders; a fixture names a signed-in storage state relative to it.
  const config = write(path.join(allowed, "bwm.json"), '{"endpointHeaders": {"Authorization": "Bearer s3cret"}, "fixtures": {"admin": "states/admin.json"}}')
  const fixture = write(path.join(allowed, "states", "admin.json"), '{"cookies":[{"name":"session","value":"s3cret"}]}')
  const screenshot = write(path.join(artifacts, "screenshots", "shot.png"), "png")
  // Links that lead into session data: a file link in an allowed root, a directory link in the artifacts directory.
  fs.symlinkSync(state, path.join(allowed, "innocent.json"))
  fs.symlinkSync(path.join(artifacts, "storage-state"), path.join(artifacts, "states"))
  const policy = uploadRootsOf({
    artifactsDir: artifacts,
    allowedRoots: [allowed],
    secrets,
    storageState: given,
    userDataDir: path.join(allowed, "profile"),
    configFile: config,
    configDir: allowed,
    fixtures: { admin: "states/admin.json", inline: { cookies: [], origins: [] } }
  })

  it("refuses a saved storage state, a step record, session metadata, the index, a report, a trace, a HAR, the secrets, the given state, the profile, the config file and its fixtures' states", async () => {
    for (const file of [state, step, session, index, report, trace, har, secrets, given, profile, config, fixture]) {
      expect(await checkUploadPaths([file], policy), file).toMatchObject({ problem: expect.stringContaining("never uploaded") })
    }
    // As mm_upload_file is called: relative to the artifacts directory.
    expect(await checkUploadPaths(["storage-state/signed-in.json"], policy)).toMatchObject({ problem: expect.stringContaining("session data") })
    expect(await checkUploadPaths(["screenshots/../storage-state/signed-in.json"], policy)).toMatchObject({ problem: expect.stringContaining("never uploaded") })
  })

  it("refuses links into session data, judged on the real path", async () => {
    expect(await checkUploadPaths([path.join(allowed, "innocent.json")], policy)).toMatchObject({ problem: expect.stringContaining("never uploaded") })
    expect(await checkUploadPaths(["states/signed-in.json"], policy)).toMatchObject({ problem: expect.stringContaining("never uploaded") })
  })

  it("still uploads the artifacts a page may have: a screenshot", async () => {
    expect(await checkUploadPaths([screenshot], policy)).toEqual({ files: [fs.realpathSync(screenshot)] })
  })
})
